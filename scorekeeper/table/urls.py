from django.urls import path

from .views import confirmations, evenings, parties, pdfs, repair, sharing

urlpatterns = [
    path("", parties.home, name="home"),
    path("parties/new/", parties.partie_new, name="partie_new"),
    path("parties/new/rules/", parties.partie_rules, name="partie_rules"),
    path("parties/import/", parties.partie_import, name="partie_import"),
    path("parties/<int:pk>/", parties.partie_detail, name="partie_detail"),
    path("parties/<int:pk>/hands/", parties.hand_create, name="hand_create"),
    path("parties/<int:pk>/hands/<int:number>/edit/", parties.hand_edit, name="hand_edit"),
    path("parties/<int:pk>/hands/<int:number>/delete/", parties.hand_delete, name="hand_delete"),
    path("parties/<int:pk>/export/", parties.partie_export, name="partie_export"),
    path("parties/<int:pk>/rules/", parties.partie_rules_change, name="partie_rules_change"),
    path("parties/<int:pk>/first-dealer/", parties.partie_first_dealer, name="partie_first_dealer"),
    path("parties/<int:pk>/ruleset/", parties.partie_ruleset, name="partie_ruleset"),
    path("parties/<int:pk>/games/<int:number>/", confirmations.game_detail, name="game_detail"),
    path(
        "parties/<int:pk>/games/<int:number>/confirmation/",
        confirmations.game_confirmation,
        name="game_confirmation",
    ),
    path(
        "parties/<int:pk>/games/<int:number>/unlock/", confirmations.game_unlock, name="game_unlock"
    ),
    path(
        "parties/<int:pk>/games/<int:number>/decide/", confirmations.game_decide, name="game_decide"
    ),
    path("me/account-changes/", confirmations.account_changes, name="account_changes"),
    path("parties/<int:pk>/delete/", repair.partie_delete, name="partie_delete"),
    path("parties/<int:pk>/restore/", repair.partie_restore, name="partie_restore"),
    path("parties/<int:pk>/archive/", repair.partie_archive, name="partie_archive"),
    path("parties/<int:pk>/changes/<int:change>/undo/", repair.change_undo, name="change_undo"),
    path("evenings/<int:pk>/reopen/", repair.evening_reopen, name="evening_reopen"),
    path(
        "evenings/<int:pk>/changes/<int:change>/undo/",
        repair.evening_reopen_undo,
        name="evening_reopen_undo",
    ),
    path("shared/<str:token>/", sharing.shared_partie, name="shared_partie"),
    path("shared/<str:token>/sheet.pdf", pdfs.shared_partie_pdf, name="shared_partie_pdf"),
    path("shared/<str:token>/rules/", sharing.shared_partie_ruleset, name="shared_partie_ruleset"),
    path("parties/<int:pk>/share/", sharing.partie_share, name="partie_share"),
    path("evenings/<int:pk>/board/", sharing.evening_board, name="evening_board"),
    path("evenings/<int:pk>/share/", sharing.evening_share, name="evening_share"),
    path("shared/evenings/<str:token>/", sharing.shared_evening_board, name="shared_evening_board"),
    path("clubs/<slug:slug>/board/", sharing.club_board, name="club_board"),
    path("parties/<int:pk>/sheet.pdf", pdfs.partie_pdf, name="partie_pdf"),
    path("evenings/<int:pk>/tally.pdf", pdfs.evening_pdf, name="evening_pdf"),
    path("pads/", pdfs.pad, name="pad"),
    path("evenings/", evenings.evening_list, name="evening_list"),
    path("evenings/<int:pk>/", evenings.evening_detail, name="evening_detail"),
    path("evenings/<int:pk>/settle/", evenings.evening_settle, name="evening_settle"),
    path(
        "evenings/<int:pk>/payments/<int:payment>/paid/",
        evenings.evening_payment_paid,
        name="evening_payment_paid",
    ),
    path("me/", parties.my_games, name="my_games"),
]
