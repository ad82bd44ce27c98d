"""The services: every write replays the engine, saves all or nothing, and leaves a trail."""

import json
from decimal import Decimal

import pytest

from scorekeeper import engine
from scorekeeper.engine.record import RecordError, loads
from scorekeeper.table import selectors, services
from scorekeeper.table.models import Hand, HandChange, Partie, Player, Seat

K, G = engine.Hand.knock, engine.Hand.gin

pytestmark = pytest.mark.django_db


def hand_rows(partie):
    """The stored hands as (number, kind, knocker, knocker's deadwood, defender's deadwood)."""
    return [
        (
            h.number,
            h.kind,
            h.knocker.name if h.knocker else None,
            h.knocker_deadwood,
            h.defender_deadwood,
        )
        for h in Hand.objects.filter(partie=partie).select_related("knocker").order_by("number")
    ]


def snapshot(partie):
    """Everything a refused change must leave as it was."""
    partie = Partie.objects.get(pk=partie.pk)
    return (
        partie.state,
        partie.closed_at,
        partie.summary,
        hand_rows(partie),
        HandChange.objects.filter(partie=partie).count(),
    )


def test_partie_start_stores_the_full_ruleset_the_seats_and_the_first_dealer(owner):
    rules = engine.preset("modern", gin_bonus=30)

    partie = services.partie_start(
        owner=owner,
        names=[" Anna ", "Ben"],
        rules=rules,
        stake=Decimal("0.10"),
        first_dealer="Ben",
    )

    partie.refresh_from_db()
    assert partie.rules == rules.to_dict()
    assert set(partie.rules) == {"preset", *engine.PARAMETERS}
    assert partie.rules["gin_bonus"] == 30
    assert partie.rules["undercut_bonus"] == 25
    assert partie.ruleset == rules
    assert [(s.position, s.player.name) for s in Seat.objects.filter(partie=partie)] == [
        (0, "Anna"),
        (1, "Ben"),
    ]
    assert partie.first_dealer.name == "Ben"
    assert partie.stake == Decimal("0.10")
    assert partie.state == Partie.State.RUNNING
    assert partie.closed_at is None
    assert partie.summary == {
        "players": ["Anna", "Ben"],
        "hands": 0,
        "totals": {"Anna": 0, "Ben": 0},
        "games": [[["Anna", 0], ["Ben", 0]]],
        "winner": None,
        "next_dealer": "Ben",
        "closed_games": 0,
        "winners": [None],  # the game being played has none yet
    }
    assert sorted(Player.objects.filter(owner=owner).values_list("name", flat=True)) == [
        "Anna",
        "Ben",
    ]


def test_partie_start_seats_a_known_player_again_instead_of_a_copy(owner, start_partie):
    start_partie()
    start_partie()

    assert Player.objects.filter(owner=owner).count() == 2
    assert Seat.objects.count() == 4


def test_hand_record_appends_the_hand_and_updates_state_and_summary(owner, partie):
    services.hand_record(partie=partie, hand=K(5, 27, knocker="Anna"), user=owner)
    saved = Hand.objects.get(partie=partie, number=1)

    partie.refresh_from_db()
    assert saved.number == 1
    assert hand_rows(partie) == [(1, "knock", "Anna", 5, 27)]
    assert partie.state == Partie.State.RUNNING
    # classic: the loser of a hand deals the next
    assert partie.summary == {
        "players": ["Anna", "Ben"],
        "hands": 1,
        "totals": {"Anna": 22, "Ben": 0},
        "games": [[["Anna", 22], ["Ben", 0]]],
        "winner": None,
        "next_dealer": "Ben",
        "closed_games": 0,
        "winners": [None],  # the game being played has none yet
    }
    change = HandChange.objects.get(partie=partie)
    assert (change.hand_number, change.action, change.user, change.before, change.after) == (
        1,
        HandChange.Action.RECORDED,
        owner,
        None,
        {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27},
    )

    services.hand_record(partie=partie, hand=G(16, knocker="Ben"), user=owner)

    partie.refresh_from_db()
    assert hand_rows(partie) == [(1, "knock", "Anna", 5, 27), (2, "gin", "Ben", None, 16)]
    assert partie.summary["totals"] == {"Anna": 22, "Ben": 36}
    assert partie.summary["hands"] == 2
    assert partie.summary["next_dealer"] == "Anna"


def test_worked_example_recorded_hand_by_hand_closes_the_partie_at_261_to_86(
    owner, partie, worked_example
):
    for number, hand in enumerate(worked_example, start=1):
        partie.refresh_from_db()
        assert partie.state == Partie.State.RUNNING, f"closed before hand {number}"
        services.hand_record(partie=partie, hand=hand, user=owner)

    partie.refresh_from_db()
    assert partie.state == Partie.State.CLOSED
    assert partie.closed_at is not None
    assert partie.summary == {
        "players": ["Anna", "Ben"],
        "hands": 6,
        "totals": {"Anna": 261, "Ben": 86},
        "games": [[["Anna", 261], ["Ben", 86]]],
        "winner": "Anna",
        "next_dealer": "Ben",
        "closed_games": 1,
        "winners": ["Anna"],
    }
    assert [h[1] for h in hand_rows(partie)] == [
        "knock",
        "gin",
        "knock",
        "gin",
        "no_game",
        "knock",
    ]
    payments = selectors.partie_sheet(partie).payments
    assert payments == [engine.Payment("Ben", "Anna", 175, Decimal("8.75"))]


def test_hand_record_after_the_close_raises_game_closed_and_changes_nothing(owner, closed_partie):
    before = snapshot(closed_partie)

    with pytest.raises(engine.HandError) as refusal:
        services.hand_record(partie=closed_partie, hand=K(1, 5, knocker="Ben"), user=owner)

    assert refusal.value.code == "game_closed"
    assert snapshot(closed_partie) == before
    assert Hand.objects.filter(partie=closed_partie).count() == 6
    assert HandChange.objects.filter(partie=closed_partie).count() == 6


def test_hand_edit_scores_every_later_hand_again_and_keeps_before_and_after(
    owner, partie, play, worked_example
):
    play(partie, worked_example[:4])  # Anna 22 + 51 = 73, Ben 36 + 10 = 46
    assert partie.summary["totals"] == {"Anna": 73, "Ben": 46}

    services.hand_edit(partie=partie, number=1, hand=K(5, 7, knocker="Anna"), user=owner)
    edited = Hand.objects.get(partie=partie, number=1)

    partie.refresh_from_db()
    assert (edited.number, edited.knocker_deadwood, edited.defender_deadwood) == (1, 5, 7)
    assert partie.summary["totals"] == {"Anna": 53, "Ben": 46}
    assert partie.summary["hands"] == 4
    sheet = selectors.partie_sheet(partie)
    assert [[cell.total for cell in row.cells] for row in sheet.rows] == [
        [2, 0],
        [2, 36],
        [2, 46],
        [53, 46],
    ]
    change = HandChange.objects.filter(partie=partie).first()  # the newest
    assert (change.hand_number, change.action, change.user) == (
        1,
        HandChange.Action.EDITED,
        owner,
    )
    assert change.before == {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27}
    assert change.after == {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 7}
    assert HandChange.objects.filter(partie=partie).count() == 5


def test_hand_edit_can_change_the_kind_and_the_knocker(owner, partie, play, worked_example):
    play(partie, worked_example[:2])

    services.hand_edit(partie=partie, number=2, hand=engine.Hand.no_game(), user=owner)

    partie.refresh_from_db()
    assert hand_rows(partie) == [(1, "knock", "Anna", 5, 27), (2, "no_game", None, None, None)]
    assert partie.summary["totals"] == {"Anna": 22, "Ben": 0}
    # after a no game the same dealer deals again: Ben lost hand 1 and dealt hand 2
    assert partie.summary["next_dealer"] == "Ben"


def test_an_edit_that_puts_a_later_hand_after_the_close_is_refused_and_saves_nothing(
    owner, partie, play, worked_example
):
    play(partie, worked_example[:5])  # Anna 73, Ben 46; hand 5 is the no game
    before = snapshot(partie)

    # Anna 80 after hand 1 and 131 after hand 4: the no game of hand 5 would come too late.
    with pytest.raises(engine.HandError) as refusal:
        services.hand_edit(partie=partie, number=1, hand=G(60, knocker="Anna"), user=owner)

    assert refusal.value.code == "later_hand_refused"
    assert refusal.value.params["number"] == 5
    assert refusal.value.params["reason"].code == "game_closed"
    assert "hand 5" in str(refusal.value)
    assert snapshot(partie) == before


def test_hand_delete_renumbers_the_later_hands_and_is_audited(owner, partie, play, worked_example):
    play(partie, worked_example[:4])

    services.hand_delete(partie=partie, number=2, user=owner)

    partie.refresh_from_db()
    assert hand_rows(partie) == [
        (1, "knock", "Anna", 5, 27),
        (2, "knock", "Anna", 7, 7),
        (3, "gin", "Anna", None, 31),
    ]
    assert partie.summary["totals"] == {"Anna": 73, "Ben": 10}
    assert partie.summary["hands"] == 3
    change = HandChange.objects.filter(partie=partie).first()
    assert (change.hand_number, change.action, change.user, change.after) == (
        2,
        HandChange.Action.DELETED,
        owner,
        None,
    )
    assert change.before == {"knocker": "Ben", "gin": True, "defender_deadwood": 16}


def test_hand_delete_of_the_last_hand_leaves_the_others_as_they_were(
    owner, partie, play, worked_example
):
    play(partie, worked_example[:3])

    services.hand_delete(partie=partie, number=3, user=owner)

    partie.refresh_from_db()
    assert hand_rows(partie) == [(1, "knock", "Anna", 5, 27), (2, "gin", "Ben", None, 16)]
    assert partie.summary["totals"] == {"Anna": 22, "Ben": 36}


def test_editing_an_earlier_hand_of_a_closed_partie_so_it_no_longer_closes_reopens_it(
    owner, closed_partie
):
    assert closed_partie.state == Partie.State.CLOSED

    # hand 1 now gives Anna 1 instead of 22: she ends on 80, short of the target
    services.hand_edit(partie=closed_partie, number=1, hand=K(5, 6, knocker="Anna"), user=owner)

    closed_partie.refresh_from_db()
    assert closed_partie.state == Partie.State.RUNNING
    assert closed_partie.closed_at is None
    assert closed_partie.summary["totals"] == {"Anna": 80, "Ben": 46}
    assert closed_partie.summary["winner"] is None
    # open again, it takes the next hand
    services.hand_record(partie=closed_partie, hand=K(3, 23, knocker="Anna"), user=owner)
    closed_partie.refresh_from_db()
    assert closed_partie.state == Partie.State.CLOSED
    assert closed_partie.summary["totals"] == {"Anna": 280, "Ben": 86}


def test_deleting_the_closing_hand_reopens_the_partie(owner, closed_partie):
    services.hand_delete(partie=closed_partie, number=6, user=owner)

    closed_partie.refresh_from_db()
    assert (closed_partie.state, closed_partie.closed_at) == (Partie.State.RUNNING, None)
    assert closed_partie.summary["totals"] == {"Anna": 73, "Ben": 46}


def test_partie_import_of_the_format_example_creates_the_partie_and_its_hands(owner, format_record):
    partie = services.partie_import(owner=owner, record=loads(json.dumps(format_record)))

    partie.refresh_from_db()
    assert partie.owner == owner
    assert partie.rules == engine.preset("classic").to_dict()
    assert [s.player.name for s in partie.seats.all()] == ["Anna", "Ben"]
    assert partie.first_dealer.name == "Ben"
    assert partie.stake == Decimal("0.05")
    assert partie.state == Partie.State.CLOSED
    assert partie.closed_at is not None
    assert partie.summary["totals"] == {"Anna": 261, "Ben": 86}
    assert partie.summary["winner"] == "Anna"
    assert hand_rows(partie) == [
        (1, "knock", "Anna", 5, 27),
        (2, "gin", "Ben", None, 16),
        (3, "knock", "Anna", 7, 7),
        (4, "gin", "Anna", None, 31),
        (5, "no_game", None, None, None),
        (6, "knock", "Anna", 2, 30),
    ]
    changes = HandChange.objects.filter(partie=partie).order_by("hand_number")
    assert [(c.hand_number, c.action, c.user) for c in changes] == [
        (n, HandChange.Action.IMPORTED, owner) for n in range(1, 7)
    ]
    assert [c.after for c in changes] == format_record["hands"]


def test_an_import_whose_hand_3_is_over_the_limit_names_hand_3_and_creates_nothing(
    owner, format_record
):
    format_record["hands"][2]["knocker_deadwood"] = 11
    record = loads(json.dumps(format_record))

    with pytest.raises(RecordError) as refusal:
        services.partie_import(owner=owner, record=record)

    assert refusal.value.errors == [
        "hand 3: a knock with 11 deadwood is over the knock limit of 10"
    ]
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0
    assert Seat.objects.count() == 0
    assert Hand.objects.count() == 0
    assert HandChange.objects.count() == 0


@pytest.mark.parametrize(
    ("players", "error"),
    [
        ([" Anna", "Ben"], "players: ' Anna' begins or ends with a space: remove it"),
        (["Anna", "Anna "], "players: 'Anna ' begins or ends with a space: remove it"),
        (["A" * 61, "Ben"], f"players: {'A' * 61!r} is longer than 60 characters"),
    ],
)
def test_an_import_with_player_names_a_player_cannot_have_is_refused_and_creates_nothing(
    owner, format_record, players, error
):
    format_record["players"] = players
    format_record["first_dealer"] = players[1]
    for hand in format_record["hands"]:
        if "knocker" in hand:
            hand["knocker"] = players[0] if hand["knocker"] == "Anna" else players[1]

    with pytest.raises(RecordError) as refusal:
        services.partie_import(owner=owner, record=loads(json.dumps(format_record)))

    assert refusal.value.errors == [error]
    assert (Partie.objects.count(), Player.objects.count(), Hand.objects.count()) == (0, 0, 0)
