from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:slug>/leagues/", views.league_list, name="league_list"),
    path("leagues/<int:pk>/seasons/new/", views.season_new, name="season_new"),
    path("seasons/<int:pk>/", views.season_detail, name="season_detail"),
    path("seasons/<int:pk>/share/", views.season_share, name="season_share"),
    path("seasons/<int:pk>/standings.csv", views.season_csv, name="season_csv"),
    path("seasons/<int:pk>/hands.csv", views.season_hands_csv, name="season_hands_csv"),
    path("seasons/<int:pk>/standings.pdf", views.season_pdf, name="season_pdf"),
    path("seasons/<int:pk>/season.json", views.season_json, name="season_json"),
    path("parties/<int:pk>/season/", views.partie_season, name="partie_season"),
    path("standings/<str:token>/", views.season_public, name="season_public"),
    path("standings/<str:token>/standings.pdf", views.season_public_pdf, name="season_public_pdf"),
    path("standings/<str:token>/season.json", views.season_public_json, name="season_public_json"),
]
