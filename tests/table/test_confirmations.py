"""Results both players confirm: a closed game asks each of its players linked to an
account; each confirms or disputes it for himself, once however often he taps; a game
every asked player confirmed is locked against every change until the club's owner
unlocks it, and the partie's trail keeps who did what."""

import threading
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.table import services
from scorekeeper.table.models import (
    ClosedGame,
    HandChange,
    Partie,
    Player,
    ResultConfirmation,
    ResultsChange,
)
from scorekeeper.table.services import confirmations
from scorekeeper.table.services.confirmations import ConfirmationError
from scorekeeper.table.services.repair import hand_restore
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
State = ResultConfirmation.State


@pytest.fixture
def anna(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("anna", password=PASSWORD)


@pytest.fixture
def ben(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("ben", password=PASSWORD)


@pytest.fixture
def club(owner: User, anna: User, ben: User) -> Club:
    """The Gin Club: its owner scores; Anna and Ben are members, each linked to his player;
    Carl plays without an account."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    for user, name in ((anna, "Anna"), (ben, "Ben")):
        join(club, user, Role.MEMBER)
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=user)
    services.player_add(club=club, name="Carl", owner=owner)
    return club


@pytest.fixture
def play(club: Club, owner: User):
    """Start a partie in the club and record its hands, as the scorer does."""

    def play(names=("Anna", "Ben"), hands=None, kind="two_player"):
        """By default the first named wins by a gin at once."""
        partie = services.partie_start(
            owner=owner,
            club=club,
            names=list(names),
            rules=engine.preset(engine.session_class(kind).preset),
            kind=kind,
            stake=Decimal("0.05"),
            first_dealer=names[0],
        )
        for hand in hands or [G(90, knocker=names[0])]:
            services.hand_record(partie=partie, hand=hand, user=owner)
        partie.refresh_from_db()
        return partie

    return play


def game_of(partie: Partie, number: int = 1) -> ClosedGame:
    return ClosedGame.objects.get(partie=partie, number=number)


def states(partie: Partie, number: int = 1) -> dict[str, str]:
    rows = ResultConfirmation.objects.filter(game__partie=partie, game__number=number)
    return dict(rows.values_list("player__name", "state"))


def locked(play, anna, ben) -> Partie:
    """A partie whose game Anna and Ben have both confirmed: Anna knocked, then won by gin."""
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    confirmations.result_confirm(game=game_of(partie), user=anna)
    confirmations.result_confirm(game=game_of(partie), user=ben)
    return partie


# Who is asked


def test_a_closed_game_asks_each_of_its_players_linked_to_an_account(play):
    running = play(hands=[K(5, 27, knocker="Anna")])
    partie = play(["Anna", "Carl"])

    assert ResultConfirmation.objects.filter(game__partie=running).count() == 0  # no game closed
    assert states(partie) == {"Anna": State.PENDING}  # Carl has no account: not asked


def test_a_game_of_players_without_accounts_asks_nobody(club, owner, play):
    services.player_add(club=club, name="Dora", owner=owner)
    partie = play(["Carl", "Dora"])

    assert states(partie) == {}
    assert ClosedGame.objects.filter(partie=partie).count() == 1


# Confirmations given


def test_a_player_confirms_the_result_and_the_trail_says_so(play, anna):
    partie = play()

    given = confirmations.result_confirm(game=game_of(partie), user=anna)

    assert (given.player.name, given.state, given.by) == ("Anna", State.CONFIRMED, anna)
    assert given.at is not None
    assert states(partie) == {"Anna": State.CONFIRMED, "Ben": State.PENDING}
    change = partie.changes.get(action=HandChange.Action.CONFIRMED)
    assert (change.user, change.after) == (anna, {"game": 1, "player": "Anna"})


def test_a_retried_confirmation_counts_once(play, anna):
    partie = play()
    game = game_of(partie)

    first = confirmations.result_confirm(game=game, user=anna)
    again = confirmations.result_confirm(game=game, user=anna)

    assert again.pk == first.pk
    assert ResultConfirmation.objects.filter(game=game, state=State.CONFIRMED).count() == 1
    assert partie.changes.filter(action=HandChange.Action.CONFIRMED).count() == 1


def test_only_the_player_himself_confirms(play, owner, anna, ben, django_user_model):
    partie = play(["Anna", "Carl"])
    game = game_of(partie)
    stranger = django_user_model.objects.create_user("stranger")

    for user in (owner, ben, stranger):  # the scorer, a player of another game, a stranger
        with pytest.raises(ConfirmationError) as refused:
            confirmations.result_confirm(game=game, user=user)
        assert refused.value.code == "not_asked"
        with pytest.raises(ConfirmationError):
            confirmations.result_dispute(game=game, user=user, note="wrong")

    assert states(partie) == {"Anna": State.PENDING}


def test_a_dispute_keeps_its_note_and_the_scorer_can_still_correct_the_game(play, owner, anna, ben):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    confirmations.result_confirm(game=game_of(partie), user=anna)

    given = confirmations.result_dispute(
        game=game_of(partie), user=ben, note="  Hand 1 was 5 against 17.  "
    )

    assert (given.state, given.note) == (State.DISPUTED, "Hand 1 was 5 against 17.")
    change = partie.changes.get(action=HandChange.Action.DISPUTED)
    assert change.after == {"game": 1, "player": "Ben", "note": "Hand 1 was 5 against 17."}
    # Not locked: corrected, the game has new rows and asks both players anew.
    services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)
    assert states(partie) == {"Anna": State.PENDING, "Ben": State.PENDING}


def test_a_disputing_player_may_confirm_after_all(play, ben):
    partie = play()
    confirmations.result_dispute(game=game_of(partie), user=ben, note="I won hand 1")

    confirmations.result_confirm(game=game_of(partie), user=ben)

    assert states(partie)["Ben"] == State.CONFIRMED


def test_a_dispute_needs_no_more_than_500_characters(play, ben):
    partie = play()

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_dispute(game=game_of(partie), user=ben, note="x" * 501)

    assert refused.value.code == "note_too_long"
    assert "500" in str(refused.value)


def test_a_confirmation_of_a_game_corrected_since_is_refused(play, owner, anna):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    seen = game_of(partie)
    services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_confirm(game=seen, user=anna)

    assert refused.value.code == "game_changed"
    assert states(partie)["Anna"] == State.PENDING


# A confirmation taken back


def test_a_player_takes_back_his_confirmation_while_the_others_confirmation_is_pending(play, anna):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)
    outbox = ResultsChange.objects.count()

    asked = confirmations.result_withdraw(game=game_of(partie), user=anna)

    assert (asked.player.name, asked.state, asked.by, asked.at) == (
        "Anna",
        State.PENDING,
        None,
        None,
    )
    assert states(partie) == {"Anna": State.PENDING, "Ben": State.PENDING}
    change = partie.changes.get(action=HandChange.Action.WITHDRAWN)
    assert (change.user, change.after) == (anna, {"game": 1, "player": "Anna"})
    assert change.before["at"]  # when the confirmation had been given
    # As every confirmation: the league's worker is told (a season of confirmed games only).
    assert ResultsChange.objects.count() == outbox + 1
    # Pending again: he confirms or disputes anew.
    confirmations.result_dispute(game=game_of(partie), user=anna, note="Hand 1 was a knock")
    assert states(partie)["Anna"] == State.DISPUTED


def test_a_second_tap_takes_the_confirmation_back_once(play, anna):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)

    first = confirmations.result_withdraw(game=game_of(partie), user=anna)
    again = confirmations.result_withdraw(game=game_of(partie), user=anna)

    assert again.pk == first.pk
    assert partie.changes.filter(action=HandChange.Action.WITHDRAWN).count() == 1


def test_a_confirmation_stands_once_the_other_player_disputed(play, anna, ben):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)
    confirmations.result_dispute(game=game_of(partie), user=ben, note="I won hand 1")

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_withdraw(game=game_of(partie), user=anna)

    assert refused.value.code == "given_since"
    assert str(refused.value).startswith("Ben answered since")
    assert states(partie) == {"Anna": State.CONFIRMED, "Ben": State.DISPUTED}


def test_a_locked_game_keeps_its_confirmations(play, anna, ben):
    partie = locked(play, anna, ben)

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_withdraw(game=game_of(partie), user=anna)

    assert refused.value.code == "locked"
    assert states(partie) == {"Anna": State.CONFIRMED, "Ben": State.CONFIRMED}


def test_only_a_confirmation_is_taken_back(play, anna, ben):
    partie = play()
    confirmations.result_dispute(game=game_of(partie), user=ben, note="I won hand 1")

    with pytest.raises(ConfirmationError) as dispute:
        confirmations.result_withdraw(game=game_of(partie), user=ben)
    with pytest.raises(ConfirmationError) as stranger:
        confirmations.result_withdraw(game=game_of(play(["Carl", "Ben"])), user=anna)

    assert dispute.value.code == "not_confirmed"
    assert stranger.value.code == "not_asked"
    assert states(partie)["Ben"] == State.DISPUTED


def test_only_the_account_that_confirmed_takes_it_back(club, play, owner, anna, django_user_model):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)
    other = django_user_model.objects.create_user("anna2")
    join(club, other, Role.MEMBER)
    services.player_link(player=Player.objects.get(club=club, name="Anna"), user=other)
    removed = club.memberships.get(user=anna)

    with pytest.raises(ConfirmationError) as relinked:
        confirmations.result_withdraw(game=game_of(partie), user=other)
    services.player_link(player=Player.objects.get(club=club, name="Anna"), user=anna)
    club_services.membership_remove(membership=removed)
    with pytest.raises(ConfirmationError) as gone:
        confirmations.result_withdraw(game=game_of(partie), user=anna)

    assert (relinked.value.code, gone.value.code) == ("given_by_other", "not_member")
    assert states(partie)["Anna"] == State.CONFIRMED


# Locked


def test_a_game_every_player_confirmed_refuses_edits_and_deletes(play, owner, anna, ben):
    partie = locked(play, anna, ben)

    with pytest.raises(engine.HandError) as edit:
        services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)
    with pytest.raises(engine.HandError) as delete:
        services.hand_delete(partie=partie, number=1, user=owner)
    with pytest.raises(services.RepairError) as partie_delete:
        services.partie_delete(partie=partie, user=owner)

    assert edit.value.code == delete.value.code == "result_confirmed"
    assert partie_delete.value.code == "game_confirmed"
    partie.refresh_from_db()
    assert partie.hands.count() == 2 and partie.deleted_at is None
    assert states(partie) == {"Anna": State.CONFIRMED, "Ben": State.CONFIRMED}


def test_a_locked_game_refuses_the_undo_of_a_delete(play, owner, anna, ben):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    deletion = services.hand_delete(partie=partie, number=1, user=owner).change
    for user in (anna, ben):
        confirmations.result_confirm(game=game_of(partie), user=user)

    with pytest.raises(engine.HandError) as undo:
        hand_restore(partie=partie, change=deletion, user=owner)

    assert undo.value.code == "result_confirmed"
    assert partie.hands.count() == 1


def test_a_locked_game_takes_no_other_confirmation(play, anna, ben):
    partie = locked(play, anna, ben)

    with pytest.raises(ConfirmationError) as refused:
        confirmations.result_dispute(game=game_of(partie), user=ben, note="after all")

    assert refused.value.code == "locked"
    assert confirmations.result_confirm(game=game_of(partie), user=ben).state == State.CONFIRMED


def test_a_match_locks_its_confirmed_game_and_plays_on(play, owner, anna, ben):
    partie = play(hands=[G(90, knocker="Anna")], kind="match")  # game 1 of a best of three
    for user in (anna, ben):
        confirmations.result_confirm(game=game_of(partie), user=user)

    services.hand_record(partie=partie, hand=K(3, 20, knocker="Ben"), user=owner)  # game 2
    services.hand_edit(partie=partie, number=2, hand=K(3, 25, knocker="Ben"), user=owner)
    with pytest.raises(engine.HandError) as refused:
        services.hand_edit(partie=partie, number=1, hand=G(80, knocker="Anna"), user=owner)

    assert (refused.value.code, refused.value.params) == ("game_confirmed", {"game": 1})
    assert partie.hands.count() == 2


# Unlocked by the owner


def test_the_owner_unlocks_a_locked_game_and_the_trail_keeps_who_had_confirmed(
    play, owner, anna, ben
):
    partie = locked(play, anna, ben)

    change = confirmations.game_unlock(game=game_of(partie), user=owner)

    assert states(partie) == {"Anna": State.PENDING, "Ben": State.PENDING}
    assert (change.action, change.user, change.after) == ("unlocked", owner, {"game": 1})
    assert [(c["player"], c["by"]) for c in change.before["confirmed"]] == [
        ("Anna", "anna"),
        ("Ben", "ben"),
    ]
    assert all(c["at"] for c in change.before["confirmed"])
    services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)


def test_a_game_not_locked_cannot_be_unlocked(play, owner, anna):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)

    with pytest.raises(ConfirmationError) as refused:
        confirmations.game_unlock(game=game_of(partie), user=owner)

    assert refused.value.code == "not_locked"
    assert not partie.changes.filter(action=HandChange.Action.UNLOCKED).exists()


# One row a player and game, changed in place


def test_a_confirmation_keeps_its_row_and_each_change_writes_what_is_due(play, owner, anna, ben):
    """Confirmed, taken back, disputed, decided, unlocked: the row stays the player's
    one row, each change writes a ``ResultsChange`` (the worker's and the board's)."""
    partie = play()
    game = game_of(partie)
    rows = {c.player.name: c.pk for c in ResultConfirmation.objects.filter(game=game)}
    due = ResultsChange.objects.count()
    steps = [
        lambda: confirmations.result_confirm(game=game, user=anna),
        lambda: confirmations.result_withdraw(game=game, user=anna),
        lambda: confirmations.result_confirm(game=game, user=anna),
        lambda: confirmations.result_dispute(game=game, user=ben, note="Hand 1 was 5 v 17"),
        lambda: confirmations.game_decide(game=game, user=owner, reason="It stands"),
        lambda: confirmations.game_unlock(game=game, user=owner),
    ]
    for n, step in enumerate(steps, 1):
        step()
        kept = {c.player.name: c.pk for c in ResultConfirmation.objects.filter(game=game)}
        assert kept == rows, n
        assert ResultsChange.objects.count() == due + n

    assert states(partie) == {"Anna": State.PENDING, "Ben": State.PENDING}
    assert ResultConfirmation.objects.filter(game=game, note="", by=None, at=None).count() == 2


# The roster: links and merges


def test_a_player_whose_link_changes_keeps_his_confirmations_and_the_trail_says_so(
    club, play, owner, anna, ben
):
    partie = play()
    other = play(hands=[G(90, knocker="Ben")])
    confirmations.result_confirm(game=game_of(other), user=ben)
    confirmations.result_dispute(game=game_of(partie), user=ben, note="no")

    services.player_link(player=Player.objects.get(club=club, name="Ben"), user=None, by=owner)

    assert states(partie) == {"Anna": State.PENDING, "Ben": State.DISPUTED}
    assert states(other) == {"Anna": State.PENDING, "Ben": State.CONFIRMED}
    for changed in (partie, other):
        [entry] = changed.changes.filter(action=HandChange.Action.ACCOUNT)
        assert (entry.user, entry.before, entry.after) == (
            owner,
            {"player": "Ben", "account": "ben"},
            {"player": "Ben", "account": None},
        )


def test_a_merge_takes_the_confirmations_along_and_its_undo_gives_them_back(
    club, play, owner, anna
):
    partie = play()
    confirmations.result_confirm(game=game_of(partie), user=anna)
    keep = services.player_add(club=club, name="Anna B.", owner=owner)
    gone = Player.objects.get(club=club, name="Anna")

    merge = services.player_merge(keep=keep, gone=gone, user=owner)

    assert states(partie) == {"Anna B.": State.CONFIRMED, "Ben": State.PENDING}
    services.player_merge_undo(merge=merge, user=owner)
    assert states(partie) == {"Anna": State.CONFIRMED, "Ben": State.PENDING}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="requests race on PostgreSQL only")
@pytest.mark.django_db(transaction=True)
def test_four_taps_at_once_confirm_once(play, anna):
    """Four requests of one confirmation at the same moment (a phone that sent it again):
    the partie's lock puts them in order, and the first one's confirmation is the
    others'."""
    game = game_of(play())
    start = threading.Barrier(4)
    given, errors = [], []

    def tap() -> None:
        try:
            start.wait()
            given.append(confirmations.result_confirm(game=game, user=anna).pk)
        except Exception as error:  # noqa: BLE001 (reported below, with its thread's)
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == [] and len(set(given)) == 1
    assert ResultConfirmation.objects.filter(game=game, state=State.CONFIRMED).count() == 1
    assert HandChange.objects.filter(action=HandChange.Action.CONFIRMED).count() == 1
