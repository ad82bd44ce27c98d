"""Confirmations survive account changes: a scorer who links a player to another
account, or to none, and back, neither deletes nor overrides what the player confirmed
or disputed; a dispute ends only by the account that made it taking it back, or by the
club's owner's decision, recorded; each link change is in the Changes list of the
parties with confirmations and on the owner's notice; and a removed member confirms no
more.

The cast: the club's owner; Ben, a scorer linked to his player; Carla, a member linked
to hers; Dan, a member with no player. Ben wins a game against Carla, in a season that
counts only confirmed games."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.league import selectors as league_selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import selectors, services
from scorekeeper.table.models import ClosedGame, HandChange, Partie, Player, ResultConfirmation
from scorekeeper.table.selectors import confirmation_notice
from scorekeeper.table.services import confirmations
from scorekeeper.table.services.confirmations import ConfirmationError
from tests.clubs.conftest import join

pytestmark = pytest.mark.django_db

G = engine.Hand.gin
State = ResultConfirmation.State


@pytest.fixture
def cast(owner: User, django_user_model: type[User]) -> dict[str, User]:
    return {
        "owner": owner,
        **{name: django_user_model.objects.create_user(name) for name in ("ben", "carla", "dan")},
    }


@pytest.fixture
def club(cast: dict[str, User]) -> Club:
    owner = cast["owner"]
    club = club_services.club_create(name="Gin Club", owner=owner)
    join(club, cast["ben"], Role.SCORER)
    join(club, cast["carla"], Role.MEMBER)
    join(club, cast["dan"], Role.MEMBER)
    for name in ("Ben", "Carla"):
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=cast[name.lower()])
    return club


@pytest.fixture
def season(club: Club) -> Season:
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=30), ends_on=today
    )
    return league_services.season_settings_change(season=season, confirmed_games_only=True)


@pytest.fixture
def partie(club: Club, season: Season, cast: dict[str, User]) -> Partie:
    """Ben wins the one game against Carla by a gin; both are asked to confirm it."""
    partie = services.partie_start(
        owner=cast["owner"],
        club=club,
        names=["Ben", "Carla"],
        rules=engine.preset(engine.session_class("two_player").preset),
        kind="two_player",
        stake=Decimal("0.05"),
        first_dealer="Ben",
    )
    services.hand_record(partie=partie, hand=G(90, knocker="Ben"), user=cast["owner"])
    return partie


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_confirmation(user: User, partie: Partie, confirmation: str = "confirm", note: str = ""):
    game = ClosedGame.objects.get(partie=partie, number=1)
    data = {"game": game.pk, "confirmation": confirmation, "note": note}
    return client_of(user).post(reverse("game_confirmation", args=[partie.pk, 1]), data)


def link(by: User, name: str, user: User | None):
    """``by`` links the player ``name`` to ``user`` (None: nobody) on the player's page."""
    player = Player.objects.get(name=name)
    data = {"user": user.pk if user else ""}
    return client_of(by).post(reverse("player_account", args=[player.pk]), data)


def confirmations_of(partie: Partie) -> dict[str, tuple[str, str | None, str]]:
    """Each player's confirmation: its state, the account that gave it, its note."""
    rows = ResultConfirmation.objects.filter(game__partie=partie).select_related("player", "by")
    return {c.player.name: (c.state, c.by.username if c.by else None, c.note) for c in rows}


def counted(season: Season) -> list[tuple[str, int]]:
    """Each player with a counted game in the season: name, games."""
    rows = league_selectors.season_table(season).played_rows
    return [(row.line.player, row.line.games) for row in rows]


def is_locked(partie: Partie) -> bool:
    return confirmations.locked_games(partie, [1]) == [1]


def disputed_then_relinked(cast, partie) -> None:
    """Finding 4's steps: Carla disputes, Ben confirms, then Ben sets Carla's player to
    nobody and links her again."""
    assert (
        post_confirmation(cast["carla"], partie, "dispute", "Ben knocked, no gin").status_code
        == 302
    )
    assert post_confirmation(cast["ben"], partie).status_code == 302
    assert link(cast["ben"], "Carla", None).status_code == 302
    assert link(cast["ben"], "Carla", cast["carla"]).status_code == 302


# A scorer cannot erase a dispute


def test_unlinking_and_relinking_a_player_keeps_her_dispute_and_the_game_open(cast, partie, season):
    disputed_then_relinked(cast, partie)

    assert confirmations_of(partie) == {
        "Ben": (State.CONFIRMED, "ben", ""),
        "Carla": (State.DISPUTED, "carla", "Ben knocked, no gin"),
    }
    assert not is_locked(partie)
    assert counted(season) == []  # the game waits: it counts in no confirmed-only season


def test_while_nobody_is_linked_nobody_confirms_and_the_game_stays_pending(cast, partie, season):
    post_confirmation(cast["carla"], partie, "dispute", "no gin")
    link(cast["ben"], "Carla", None)

    assert post_confirmation(cast["carla"], partie).status_code == 403  # not hers to confirm now
    assert confirmations_of(partie)["Carla"] == (State.DISPUTED, "carla", "no gin")
    post_confirmation(cast["ben"], partie)
    assert not is_locked(partie) and counted(season) == []


def test_the_disputing_player_takes_her_dispute_back_herself_after_the_relink(cast, partie, season):
    disputed_then_relinked(cast, partie)

    assert (
        post_confirmation(cast["carla"], partie, "dispute", "no gin, and 90 is wrong").status_code
        == 302
    )
    assert confirmations_of(partie)["Carla"] == (State.DISPUTED, "carla", "no gin, and 90 is wrong")
    assert post_confirmation(cast["carla"], partie).status_code == 302

    assert confirmations_of(partie)["Carla"] == (State.CONFIRMED, "carla", "")
    assert is_locked(partie)
    assert counted(season) == [("Ben", 1), ("Carla", 1)]


def test_another_account_linked_to_her_player_cannot_override_her_dispute(cast, partie, season):
    post_confirmation(cast["carla"], partie, "dispute", "no gin")
    link(cast["ben"], "Carla", cast["ben"])  # Ben's account moves to Carla's player

    refused = post_confirmation(cast["ben"], partie)
    assert link(cast["ben"], "Carla", cast["dan"]).status_code == 302
    refused_too = post_confirmation(cast["dan"], partie, "dispute", "mine now")

    assert refused.status_code == refused_too.status_code == 403
    assert "given from another account" in refused.content.decode()
    assert confirmations_of(partie)["Carla"] == (State.DISPUTED, "carla", "no gin")
    assert not is_locked(partie) and counted(season) == []


def test_the_game_page_offers_no_buttons_to_an_account_that_may_not_confirm(cast, partie):
    post_confirmation(cast["carla"], partie, "dispute", "no gin")
    link(cast["ben"], "Carla", cast["dan"])

    page = client_of(cast["dan"]).get(reverse("game_detail", args=[partie.pk, 1]))

    text = page.content.decode()
    assert "given from another account" in text
    assert "Confirm the result" not in text and "Dispute the result" not in text
    assert "(from the account carla)" in text  # whose dispute it is


def test_a_pending_confirmation_is_given_by_whoever_is_linked_now(cast, partie, season):
    link(cast["ben"], "Carla", cast["dan"])

    assert post_confirmation(cast["carla"], partie).status_code == 403
    assert post_confirmation(cast["dan"], partie).status_code == 302
    post_confirmation(cast["ben"], partie)

    assert confirmations_of(partie)["Carla"] == (State.CONFIRMED, "dan", "")
    assert is_locked(partie)


# The Changes list and the owner's notice


def test_each_link_change_is_in_the_partie_changes_in_words(cast, partie):
    disputed_then_relinked(cast, partie)

    entries = partie.changes.filter(action=HandChange.Action.ACCOUNT).order_by("pk")
    assert [(e.user, e.before["account"], e.after["account"]) for e in entries] == [
        (cast["ben"], "carla", None),
        (cast["ben"], None, "carla"),
    ]
    page = client_of(cast["owner"]).get(partie.get_absolute_url()).content.decode()
    assert "Carla no longer linked to the account carla" in page
    assert "Carla linked to the account carla" in page


def test_a_player_without_confirmations_changes_no_partie(cast, club):
    player = services.player_add(club=club, name="Eve", owner=cast["owner"])

    link(cast["ben"], "Eve", cast["dan"])

    assert Player.objects.get(pk=player.pk).user == cast["dan"]
    assert not HandChange.objects.filter(action=HandChange.Action.ACCOUNT).exists()


def test_the_owner_is_told_of_the_link_changes_until_he_marks_them_seen(cast, partie):
    owner = client_of(cast["owner"])
    disputed_then_relinked(cast, partie)

    assert confirmation_notice(cast["owner"]).accounts == 2
    assert confirmation_notice(cast["ben"]).accounts == 0  # only the owner is told
    home = owner.get(reverse("home")).content.decode()
    assert "2 account changes on games with answers" in home
    listed = owner.get(reverse("account_changes"))
    assert "Carla no longer linked to the account carla" in listed.content.decode()
    assert confirmation_notice(cast["owner"]).accounts == 2  # opening the list marks nothing

    newest = partie.changes.filter(action=HandChange.Action.ACCOUNT).latest("pk").pk
    response = owner.post(reverse("account_changes"), {"upto": newest})

    assert response.status_code == 302
    assert confirmation_notice(cast["owner"]).accounts == 0
    link(cast["ben"], "Carla", None)
    assert confirmation_notice(cast["owner"]).accounts == 1  # a later change counts again


def test_the_owners_notice_stays_one_query_with_account_changes(
    cast, partie, django_assert_num_queries
):
    disputed_then_relinked(cast, partie)

    with django_assert_num_queries(1):
        notice = confirmation_notice(cast["owner"])

    assert (notice.to_confirm, notice.disputed, notice.accounts) == (0, 1, 2)


def test_a_bad_mark_as_seen_is_refused_and_marks_nothing(cast, partie):
    disputed_then_relinked(cast, partie)

    response = client_of(cast["owner"]).post(reverse("account_changes"), {"upto": "²"})

    assert response.status_code == 400
    assert confirmation_notice(cast["owner"]).accounts == 2


# The owner's decision


def decide(user: User, partie: Partie, reason: str):
    game = ClosedGame.objects.get(partie=partie, number=1)
    url = reverse("game_decide", args=[partie.pk, 1])
    return client_of(user).post(url, {"game": game.pk, "reason": reason})


def test_the_owner_decides_a_dispute_with_a_reason_and_the_game_counts(cast, partie, season):
    disputed_then_relinked(cast, partie)
    page = client_of(cast["owner"]).get(reverse("game_detail", args=[partie.pk, 1]))
    assert "Decide the dispute: the result stands" in page.content.decode()

    response = decide(cast["owner"], partie, "The sheet shows Ben's gin")

    assert response.status_code == 302
    assert confirmations_of(partie)["Carla"] == (State.DECIDED, "carla", "Ben knocked, no gin")
    assert is_locked(partie)
    assert counted(season) == [("Ben", 1), ("Carla", 1)]
    [entry] = partie.changes.filter(action=HandChange.Action.DECIDED)
    assert entry.user == cast["owner"]
    assert entry.after == {"game": 1, "reason": "The sheet shows Ben's gin"}
    assert [(d["player"], d["by"], d["note"]) for d in entry.before["disputed"]] == [
        ("Carla", "carla", "Ben knocked, no gin")
    ]
    trail = client_of(cast["owner"]).get(partie.get_absolute_url()).content.decode()
    assert "dispute decided by the owner" in trail and "The sheet shows Ben&#x27;s gin" in trail


def test_only_the_owner_decides_and_only_with_a_reason(cast, partie):
    post_confirmation(cast["carla"], partie, "dispute", "no gin")

    assert decide(cast["ben"], partie, "I won").status_code == 403  # a scorer may not
    no_reason = decide(cast["owner"], partie, "   ")

    assert no_reason.status_code == 400
    assert "Say why the result stands" in no_reason.content.decode()
    assert confirmations_of(partie)["Carla"] == (State.DISPUTED, "carla", "no gin")
    assert not partie.changes.filter(action=HandChange.Action.DECIDED).exists()


def test_a_game_nobody_disputes_has_nothing_to_decide(cast, partie):
    with pytest.raises(ConfirmationError) as refused:
        confirmations.game_decide(
            game=ClosedGame.objects.get(partie=partie), user=cast["owner"], reason="fine"
        )

    assert refused.value.code == "not_disputed"


def test_the_owner_decides_a_confirmation_nobody_can_give_and_the_game_counts(cast, partie, season):
    """Carla's player is unlinked before she confirmed: nobody can confirm for her, so the
    game would stay pending for ever; the owner is told so on the game's page and decides."""
    link(cast["ben"], "Carla", None)
    post_confirmation(cast["ben"], partie)
    owner = client_of(cast["owner"])
    page = owner.get(reverse("game_detail", args=[partie.pk, 1])).content.decode()
    assert "Nobody can answer for Carla: no member of the club is linked to this player." in page
    assert "Decide: the result stands" in page
    assert not is_locked(partie) and counted(season) == []

    assert decide(cast["owner"], partie, "Carla saw the gin").status_code == 302

    assert confirmations_of(partie)["Carla"] == (State.DECIDED, None, "")
    assert is_locked(partie) and counted(season) == [("Ben", 1), ("Carla", 1)]
    [entry] = partie.changes.filter(action=HandChange.Action.DECIDED)
    assert entry.before == {"game": 1, "disputed": [], "unanswered": ["Carla"]}
    trail = owner.get(partie.get_absolute_url()).content.decode()
    assert "nobody answered for Carla" in trail


def test_a_question_of_a_removed_member_is_the_owners_to_decide_too(cast, club, partie):
    removed(club, cast["carla"])  # still linked to her player, but no member
    game = ClosedGame.objects.get(partie=partie)

    assert [a.player.name for a in selectors.orphaned_confirmations(game)] == ["Carla"]
    link(cast["ben"], "Ben", None)
    assert [a.player.name for a in selectors.orphaned_confirmations(game)] == ["Ben", "Carla"]


def test_after_the_decision_the_player_may_agree_but_not_dispute_again(cast, partie, season):
    post_confirmation(cast["carla"], partie, "dispute", "no gin")
    decide(cast["owner"], partie, "The sheet is right")

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_dispute(
            game=ClosedGame.objects.get(partie=partie), user=cast["carla"], note="still no"
        )

    assert refused.value.code == "decided"
    assert confirmations_of(partie)["Carla"] == (State.DECIDED, "carla", "no gin")
    assert counted(season) == []  # Ben's confirmation is pending: not counted
    post_confirmation(cast["ben"], partie)
    assert counted(season) == [("Ben", 1), ("Carla", 1)]


# A removed member


def removed(club: Club, user: User) -> None:
    """The owner takes the member out of the club: his player stays linked to him."""
    club_services.membership_remove(membership=Membership.objects.get(club=club, user=user))
    assert Player.objects.filter(club=club, user=user).exists()


def test_a_removed_member_can_no_longer_confirm(cast, club, partie):
    removed(club, cast["carla"])

    response = post_confirmation(cast["carla"], partie)

    assert response.status_code == 403
    assert confirmations_of(partie)["Carla"] == (State.PENDING, None, "")
    assert not partie.changes.filter(action=HandChange.Action.CONFIRMED).exists()
    page = client_of(cast["carla"]).get(reverse("game_detail", args=[partie.pk, 1]))
    assert page.status_code == 200 and "Confirm the result" not in page.content.decode()
    assert confirmation_notice(cast["carla"]).to_confirm == 0  # nothing left that she can confirm


def test_the_service_refuses_a_removed_members_confirmation_with_the_reason(cast, club, partie):
    removed(club, cast["carla"])

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_dispute(
            game=ClosedGame.objects.get(partie=partie), user=cast["carla"], note="no"
        )

    assert refused.value.code == "not_member"
    assert "no longer a member of this club" in str(refused.value)


def test_the_link_changes_and_the_decision_speak_german(cast, partie):
    disputed_then_relinked(cast, partie)
    decide(cast["owner"], partie, "Das Blatt stimmt")
    owner = client_of(cast["owner"])
    owner.cookies.load({"django_language": "de"})

    trail = owner.get(partie.get_absolute_url()).content.decode()
    home = owner.get(reverse("home")).content.decode()

    assert "Carla nicht mehr mit dem Konto carla verknüpft" in trail
    assert "Carla mit dem Konto carla verknüpft" in trail
    assert "Anfechtung vom Besitzer entschieden" in trail and "angefochten von Carla" in trail
    assert "2 Kontoänderungen bei Partien mit Antworten" in home
