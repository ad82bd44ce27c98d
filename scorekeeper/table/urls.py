from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("parties/new/", views.partie_new, name="partie_new"),
    path("parties/new/rules/", views.partie_rules, name="partie_rules"),
    path("parties/import/", views.partie_import, name="partie_import"),
    path("parties/<int:pk>/", views.partie_detail, name="partie_detail"),
    path("parties/<int:pk>/hands/", views.hand_create, name="hand_create"),
    path("parties/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("parties/<int:pk>/hands/<int:number>/delete/", views.hand_delete, name="hand_delete"),
    path("parties/<int:pk>/export/", views.partie_export, name="partie_export"),
    path("parties/<int:pk>/rules/", views.partie_rules_change, name="partie_rules_change"),
    path("shared/<str:token>/", views.shared_partie, name="shared_partie"),
    path("shared/<str:token>/sheet.pdf", views.shared_partie_pdf, name="shared_partie_pdf"),
    path("parties/<int:pk>/sheet.pdf", views.partie_pdf, name="partie_pdf"),
    path("evenings/<int:pk>/tally.pdf", views.evening_pdf, name="evening_pdf"),
    path("pads/", views.pad, name="pad"),
    path("evenings/", views.evening_list, name="evening_list"),
    path("evenings/<int:pk>/", views.evening_detail, name="evening_detail"),
    path("evenings/<int:pk>/settle/", views.evening_settle, name="evening_settle"),
    path(
        "evenings/<int:pk>/payments/<int:payment>/paid/",
        views.evening_payment_paid,
        name="evening_payment_paid",
    ),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/account/", views.player_account, name="player_account"),
    path("players/<int:pk>/rename/", views.player_rename, name="player_rename"),
    path("players/<int:pk>/merge/", views.player_merge, name="player_merge"),
    path("clubs/<slug:slug>/players/", views.player_list, name="player_list"),
    path("me/", views.my_games, name="my_games"),
]
