from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/screen/", views.tournament_screen, name="tournament_screen"),
    path(
        "shared/tournaments/<str:token>/",
        views.shared_tournament_screen,
        name="shared_tournament_screen",
    ),
    path("tournaments/<int:pk>/time/", views.tournament_time, name="tournament_time"),
    path("tournaments/<int:pk>/entries/", views.tournament_entries, name="tournament_entries"),
    path(
        "tournaments/<int:pk>/bracket.pdf",
        views.tournament_bracket_pdf,
        name="tournament_bracket_pdf",
    ),
    path(
        "tournaments/<int:pk>/placings.pdf",
        views.tournament_placings_pdf,
        name="tournament_placings_pdf",
    ),
    path("tournaments/<int:pk>/seed/", views.tournament_seed, name="tournament_seed"),
    path("tournaments/<int:pk>/start/", views.tournament_start, name="tournament_start"),
    path(
        "tournaments/<int:pk>/entries/<int:entry>/withdraw/",
        views.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "tournaments/<int:pk>/matches/<str:match>/",
        views.tournament_match,
        name="tournament_match",
    ),
]
