from django.urls import path

from .views import calendars, nights, players, season_nights, seasons

urlpatterns = [
    path("clubs/<slug:slug>/leagues/", seasons.league_list, name="league_list"),
    path("leagues/<int:pk>/seasons/new/", seasons.season_new, name="season_new"),
    path("leagues/<int:pk>/archive/", seasons.league_archive, name="league_archive"),
    path("seasons/<int:pk>/", seasons.season_detail, name="season_detail"),
    path("seasons/<int:pk>/night/", nights.league_night, name="league_night"),
    path("seasons/<int:pk>/nights/", season_nights.season_nights, name="season_nights"),
    path(
        "seasons/<int:pk>/nights/weekly/",
        season_nights.season_nights_weekly,
        name="season_nights_weekly",
    ),
    path("nights/<int:pk>/move/", season_nights.night_move, name="night_move"),
    path("nights/<int:pk>/cancel/", season_nights.night_cancel, name="night_cancel"),
    path("seasons/<int:pk>/players/", seasons.season_players, name="season_players"),
    path("seasons/<int:pk>/settings/", seasons.season_settings, name="season_settings"),
    path("seasons/<int:pk>/close/", seasons.season_close, name="season_close"),
    path("seasons/<int:pk>/reopen/", seasons.season_reopen, name="season_reopen"),
    path("seasons/<int:pk>/next/", seasons.season_next, name="season_next"),
    path("seasons/<int:pk>/share/", seasons.season_share, name="season_share"),
    path("seasons/<int:pk>/standings.csv", seasons.season_csv, name="season_csv"),
    path("seasons/<int:pk>/hands.csv", seasons.season_hands_csv, name="season_hands_csv"),
    path("seasons/<int:pk>/standings.pdf", seasons.season_pdf, name="season_pdf"),
    path("seasons/<int:pk>/season.json", seasons.season_json, name="season_json"),
    path("parties/<int:pk>/season/", seasons.partie_season, name="partie_season"),
    path("standings/<str:token>/", seasons.season_public, name="season_public"),
    path(
        "standings/<str:token>/standings.pdf", seasons.season_public_pdf, name="season_public_pdf"
    ),
    path(
        "standings/<str:token>/season.json", seasons.season_public_json, name="season_public_json"
    ),
    path("players/<int:pk>/", players.player_detail, name="player_detail"),
    path("players/<int:pk>/account/", players.player_account, name="player_account"),
    path("players/<int:pk>/rename/", players.player_rename, name="player_rename"),
    path("players/<int:pk>/merge/", players.player_merge, name="player_merge"),
    path("players/merges/<int:pk>/undo/", players.player_merge_undo, name="player_merge_undo"),
    path("clubs/<slug:slug>/players/", players.player_list, name="player_list"),
    # Calendar feeds behind a member's own private link (token_urlsafe: a slug's letters)
    path("calendar/<slug:token>.ics", calendars.calendar_feed, name="calendar_feed"),
    path("clubs/<slug:slug>/calendar/", calendars.club_calendar_link, name="club_calendar_link"),
    path("me/calendar/", calendars.my_calendar_link, name="my_calendar_link"),
]
