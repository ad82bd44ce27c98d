"""The data of printed sheets, exactly: built from game records, with no database.

The records of tests/records are read three ways: their hand-checked tallies
(``<kind>_tally.json``) and fixtures/sheets.json give what each sheet says; the
engine's own description of the replayed session (parts, rows, foot lines) gives
what every row and column must carry in words; and a few worked examples of
RULES.md are written out here, because a test that only compares code with code
cannot find a scoring bug.
"""

import json
from dataclasses import astuple
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation

from scorekeeper import engine
from scorekeeper.engine import Cell
from scorekeeper.engine.record import RecordError, parse_record, replay
from scorekeeper.engine.settlement import Transfer
from scorekeeper.sheets.common import Balance, RuleLine, RulesText, rules_text
from scorekeeper.sheets.evening_tally import (
    Debt,
    EveningSheet,
    GameSummary,
    PartieSummary,
    SettleLine,
    printed_evening,
)
from scorekeeper.sheets.score_pad import PadError, PadGroup, ScorePad, score_pad
from scorekeeper.sheets.score_sheet import (
    Group,
    PaymentLine,
    PrintedPlay,
    PrintedRow,
    ScoreSheet,
    Seats,
    score_sheet,
)
from scorekeeper.vocabulary import foot_label, game_name, outcome_name
from tests.sheets.helpers import RECORDS, Stored, evening_of, payment, record_of

SHEETS = json.loads((Path(__file__).parent / "fixtures" / "sheets.json").read_text("utf-8"))
KINDS = ("format_example", "hollywood", "match", "partnership", "chouette", "three_player")
NUMBERED = {"hollywood", "match", "chouette"}  # kinds whose games are called "Game 1", ...

CLASSIC = tuple(RuleLine(label, value) for label, value in SHEETS["classic_rules"])


def sheet_of(name: str) -> ScoreSheet:
    return score_sheet(record_of(name))


def tally_of(name: str) -> dict:
    """The tally of the record, checked by hand against RULES.md."""
    return json.loads((RECORDS / f"{name}_tally.json").read_text(encoding="utf-8"))


def rules_of(spec: dict) -> RulesText:
    """The classic lines with the fixture's values changed or left out, then its changes."""
    values = spec.get("lines", {})
    lines = [RuleLine(line.label, values.get(line.label, line.value)) for line in CLASSIC]
    lines = [line for line in lines if line.value is not None]
    lines += [RuleLine(label, value, True) for label, value in spec.get("changed", {}).items()]
    return RulesText(spec["preset"], tuple(lines))


def heading(key: str | None) -> str | None:
    """A tally's column key as the sheet heads it: the chouette's team is "Team"."""
    return "Team" if key == engine.TEAM else key


def balances_of(name: str) -> tuple[Balance, ...]:
    return tuple(
        Balance(player, b["points"], Decimal(b["amount"]))
        for player, b in tally_of(name)["balances"].items()
    )


def transfers_of(name: str) -> tuple[Transfer, ...]:
    return tuple(Transfer(a, b, Decimal(amount)) for a, b, amount in SHEETS[name]["transfers"])


def no_game(dealer) -> PrintedPlay:
    return PrintedPlay(dealer, None, "No game", None, None, 0, None)


# Each kind's sheet, against its fixture and its checked tally


@pytest.mark.parametrize("name", KINDS)
def test_the_sheet_names_the_partie_its_rules_stakes_and_notes(name):
    sheet, expected, record = sheet_of(name), SHEETS[name], record_of(name)
    for key in ("title", "kind", "kind_label"):
        assert getattr(sheet, key) == expected[key]
    assert (sheet.played_on, sheet.players, sheet.upcards) == (None, record.players, False)
    assert sheet.rules == rules_of(expected["rules"])
    assert sheet.stake == Decimal(expected["stake"])
    assert sheet.stakes == tuple((n, Decimal(s)) for n, s in expected["stakes"].items())
    assert [[part.title, part.note] for part in sheet.parts] == [
        [part["title"], part["note"]] for part in expected["parts"]
    ]
    assert sheet.notes == tuple(expected["notes"])


def tallied_group(name: str, game: dict) -> Group:
    """A game of a checked tally as the sheet heads its columns: Hollywood's by name."""
    label = game_name(game["number"]) if name == "hollywood" else None
    columns = tuple(heading(key) for key in game["players"])
    return Group(
        label, columns, game["closed"], heading(game["winner"]), game["net"], game["shutout"]
    )


# The lines under the hands, with the key of each in a checked tally's finals.
FOOT = {
    "Points": "points",
    "Boxes": "boxes",
    "Box bonus (20 each)": "box_bonus",
    "Game bonus": "game_bonus",
    "Shutout": "shutout_bonus",
    "Total": "total",
}


@pytest.mark.parametrize("name", KINDS)
def test_each_game_is_a_group_of_columns_that_adds_up_as_the_checked_tally(name):
    """Columns, winner and the lines from points to total from the tally; the net and
    the money lines from the fixture. A running game has no end bonuses, nothing paid."""
    sheet, games = sheet_of(name), iter(tally_of(name)["games"])
    for part, fixture in zip(sheet.parts, SHEETS[name]["parts"], strict=True):
        tallied = [next(games) for _ in part.groups]
        assert part.groups == tuple(tallied_group(name, game) for game in tallied)
        finals = [final for game in tallied for final in game["players"].values()]
        lines = {label: tuple(final[key] for final in finals) for label, key in FOOT.items()}
        labels = ["Points", "Boxes", "Total"]
        if any(game["closed"] for game in tallied):
            lines["Net"] = tuple(fixture["net"])
            lines["Money"] = tuple(None if m is None else Decimal(m) for m in fixture["money"])
            shutout = any(game["shutout"] for game in tallied)
            labels = [label for label in [*FOOT, "Net", "Money"] if shutout or label != "Shutout"]
        assert [(line.label, line.values) for line in part.ending] == [
            (label, lines[label]) for label in labels
        ]
        assert [(line.strong, line.signed) for line in part.ending] == [
            (label == "Total", label in ("Net", "Money")) for label in labels
        ]
    assert next(games, None) is None


@pytest.mark.parametrize("name", KINDS)
def test_the_payments_balances_and_transfers_are_the_checked_tallys(name):
    sheet, tally = sheet_of(name), tally_of(name)
    assert [(p.payer, p.payee, p.points, p.amount) for p in sheet.payments] == [
        (s["from"], s["to"], s["points"], Decimal(s["amount"])) for s in tally["settlement"]
    ]
    assert sheet.balances == balances_of(name)
    assert sheet.transfers == transfers_of(name)


@pytest.mark.parametrize("name", KINDS)
def test_each_hand_shows_its_seats_and_the_hollywood_games_it_closed(name):
    """Chouette and three players: box, captain, out; where everyone plays, no seats."""
    rows = [row for part in sheet_of(name).parts for row in part.rows]
    seats = SHEETS[name].get("seats") or [None] * len(rows)
    assert [row.seats for row in rows] == [
        seat and Seats(*seat[:2], tuple(seat[2])) for seat in seats
    ]
    closes = {str(row.number): list(row.closes) for row in rows if row.closes}
    assert closes == SHEETS[name].get("closes", {})


# Each kind's sheet, against the engine's description of the replayed session


def engine_row(row: engine.EntryRow) -> tuple:
    """An engine row as the sheet's PrintedRow shows it, as a tuple (these records: no upcard)."""
    plays = []
    for line in row.plays:
        hand, score = line.hand, line.score
        scored = hand.kind != engine.HandKind.NO_GAME
        deadwood = (hand.knocker_deadwood, hand.defender_deadwood) if scored else (None, None)
        result = outcome_name(score.outcome)
        plays.append(
            (line.dealer, line.knocker, result, *deadwood, score.points, line.winner, None)
        )
    roles = row.roles and (row.roles.box, row.roles.captain, tuple(row.roles.out))
    return (row.number, tuple(plays), tuple(map(astuple, row.cells)), roles, row.closes)


@pytest.mark.parametrize("name", KINDS)
def test_the_rows_columns_lines_and_payments_are_the_engines_in_words(name):
    record = record_of(name)
    session, sheet = replay(record), score_sheet(record)
    parts = session.parts(record.stake, record.stakes)
    for part, engine_part in zip(sheet.parts, parts, strict=True):
        assert list(map(astuple, part.rows)) == list(map(engine_row, engine_part.rows))
        assert part.columns == tuple(
            "Team" if column.side == engine.Side.TEAM else column.name
            for column in engine_part.columns
        )
        assert [(g.closed, g.net, g.shutout) for g in part.groups] == [
            (game.tally.closed, game.tally.net, game.tally.shutout) for game in engine_part.games
        ]
        lines = engine.foot_lines(engine_part.games, sheet.for_money, record.rules.money_unit)
        assert [(line.label, line.values) for line in part.ending] == [
            (foot_label(line.item, record.rules), line.values) for line in lines
        ]
    assert sheet.payments == tuple(
        PaymentLine(game_name(game.number) if name in NUMBERED else None, *astuple(payment))
        for game in session.game_sheets(record.stake, record.stakes)
        for payment in game.payments
    )


@pytest.mark.parametrize("name", KINDS)
def test_each_column_runs_up_by_its_gains_to_its_points(name):
    for part in sheet_of(name).parts:
        running = [0] * len(part.columns)
        for row in part.rows:
            gains = [cell.gain for cell in row.cells]
            running = [total + (gain or 0) for total, gain in zip(running, gains, strict=True)]
            assert [cell.total for cell in row.cells] == running
            assert 0 not in gains  # nothing gained: no figure
        assert tuple(running) == part.ending[0].values  # the "Points" line


# The worked examples of RULES.md, written out


def test_the_worked_example_of_rules_9():
    """A knocks 5 v 27 (A+22); B gins, A 16 (B+36); A knocks 7, B has 7 (undercut, B+10);
    A gins, B 31 (A+51); no game; A knocks 2 v 30 (A+28): A 261, B 86, net 175, 8.75."""
    (part,) = sheet_of("format_example").parts
    assert [row.plays for row in part.rows] == [
        (PrintedPlay("Ben", "Anna", "Knock", 5, 27, 22, "Anna"),),
        (PrintedPlay("Ben", "Ben", "Gin", 0, 16, 36, "Ben"),),
        (PrintedPlay("Anna", "Anna", "Undercut", 7, 7, 10, "Ben"),),
        (PrintedPlay("Anna", "Anna", "Gin", 0, 31, 51, "Anna"),),
        (no_game("Ben"),),
        (PrintedPlay("Ben", "Anna", "Knock", 2, 30, 28, "Anna"),),
    ]
    gains = [tuple(cell.gain for cell in row.cells) for row in part.rows]
    assert gains == [(22, None), (None, 36), (None, 10), (51, None), (None, None), (28, None)]
    end = {line.label: line.values for line in part.ending}
    assert (end["Points"], end["Total"], end["Net"]) == ((101, 46), (261, 86), (175, -175))
    assert end["Money"] == (Decimal("8.75"), Decimal("-8.75"))


def test_the_hollywood_example_of_rules_4():
    """You+18, Opp+12, You+25, Opp+30, You+15, You+22, Opp+20: You 80/62/37, Opp 62/50/20."""
    (part,) = sheet_of("hollywood").parts
    assert [row.plays[0].points for row in part.rows[:7]] == [18, 12, 25, 30, 15, 22, 20]
    assert [cell.total for cell in part.rows[6].cells] == [80, 62, 62, 50, 37, 20]


def test_the_chouette_box_pays_the_net_to_each_member_of_the_team():
    """RULES.md §6: team 105 + 100 + 3 × 20 = 265, the box 10 + 20 = 30; net 235 to each."""
    sheet = sheet_of("chouette")
    second = sheet.parts[1]
    assert {line.label: line.values for line in second.ending}["Total"] == (30, 265)
    assert [
        (p.payer, p.payee, p.points, p.amount) for p in sheet.payments if p.game == "Game 2"
    ] == [
        ("Anna", "Clara", 235, Decimal("11.75")),
        ("Anna", "Dan", 235, Decimal("23.50")),  # Dan plays at 0.10 a point
        ("Anna", "Eva", 235, Decimal("11.75")),
        ("Anna", "Ben", 235, Decimal("11.75")),
    ]


def test_the_three_player_rotation_of_rules_6():
    """P box, Q captain, R out. P wins 20 → P/R/Q. R wins 15 → R/Q/P. R wins 12 → R/P/Q.
    Totals P 20, Q 0, R 27. The box deals every hand; a no game changes no seat."""
    (part,) = sheet_of("three_player").parts
    assert part.rows[0].seats == Seats("Paula", "Quinn", ("Rita",))
    for row, after in zip(part.rows, part.rows[1:], strict=False):
        (box, captain, (out,)), winner = astuple(row.seats), row.plays[0].winner
        if winner is None:  # a no game
            assert after.seats == row.seats
        elif winner == box:  # the captain and the player out swap
            assert after.seats == Seats(box, out, (captain,))
        else:  # the box sits out, the captain takes the box, the player out captains
            assert after.seats == Seats(captain, out, (box,))
    assert all(row.plays[0].dealer == row.seats.box for row in part.rows)
    scored = [
        (row.plays[0].winner, row.plays[0].points) for row in part.rows if row.plays[0].winner
    ]
    assert scored[:3] == [("Paula", 20), ("Rita", 15), ("Rita", 12)]
    assert [cell.total for cell in part.rows[3].cells] == [20, 0, 27]


# Other records and options


def test_a_record_the_engine_refuses_raises_its_error_lines():
    with pytest.raises(RecordError) as refused:
        sheet_of("knock_over_limit")
    assert refused.value.errors == [
        "hand 2: a knock with 12 deadwood is over the knock limit of 10"
    ]


def test_the_title_and_the_date_are_the_callers():
    sheet = score_sheet(record_of("format_example"), title="Finale", played_on=date(2025, 3, 14))
    assert (sheet.title, sheet.played_on) == ("Finale", date(2025, 3, 14))


def test_an_oklahoma_sheet_shows_each_upcard_with_its_suit():
    sheet = score_sheet(parse_record(SHEETS["oklahoma"]["record"]))
    assert sheet.upcards
    (part,) = sheet.parts
    assert [r.plays[0] for r in part.rows] == [
        PrintedPlay("Jürgen Größe", "Jürgen Größe", "Knock", 4, 19, 30, "Jürgen Größe", "K♠"),
        PrintedPlay("Jürgen Größe", "Zoë", "Knock", 3, 20, 17, "Zoë", "7♥"),
        PrintedPlay("Zoë", "Jürgen Größe", "Gin", 0, 12, 37, "Jürgen Größe", "10♦"),
        no_game("Jürgen Größe"),  # Oklahoma: the winner deals; after a no game, the same
        PrintedPlay("Jürgen Größe", "Zoë", "Undercut", 5, 3, 27, "Jürgen Größe", "5♣"),
    ]
    assert sheet.rules.lines == tuple(RuleLine(*line) for line in SHEETS["oklahoma"]["rules"])
    assert sheet.notes == ("A game still running has no end bonuses yet.",)
    assert [line.label for line in part.ending] == ["Points", "Boxes", "Total"]


def test_a_void_round_the_corner_gin_scores_nothing():
    record = parse_record(
        {
            "players": ["A", "B"],
            "rules": {"preset": "round_the_corner"},
            "hands": [{"knocker": "A", "gin": True, "defender_deadwood": 0}],
        }
    )
    (row,) = score_sheet(record).parts[0].rows
    assert row == PrintedRow(
        1, (PrintedPlay("A", "A", "Void", 0, 0, 0, None),), (Cell(None, 0), Cell(None, 0)), None, ()
    )


def test_the_rules_name_every_value_changed_from_the_preset():
    rules = engine.preset("classic", gin_bonus=25, tie_is_undercut=False, money_unit="0.05")
    text = rules_text(rules, "match")
    assert text.preset == "Classic"
    assert text.changed == (
        RuleLine("Tie is undercut", "no", changed=True),
        RuleLine("Gin bonus", "25", changed=True),
        RuleLine("Money unit", "0.05", changed=True),
    )
    assert RuleLine("Best of", "5") in text.lines  # the match's rule, at its preset value


def test_the_words_translate():
    with translation.override("de"):
        sheet = sheet_of("hollywood")
    assert sheet.kind_label == "Hollywood"
    assert sheet.rules.preset == "Hollywood"
    assert sheet.rules.lines[0] == RuleLine("Klopfgrenze", "10")
    assert [group.label for group in sheet.parts[0].groups] == ["Partie 1", "Partie 2", "Partie 3"]
    assert sheet.parts[0].rows[0].plays[0].result == "Klopfen"
    labels = [line.label for line in sheet.parts[0].ending]
    assert labels[:5] == ["Punkte", "Boxen", "Box-Prämie (je 20)", "Partie-Prämie", "Summe"]


# Evenings


def partie_summary(title: str, name: str) -> PartieSummary:
    """What an evening shows of a one-game record: from its checked tally."""
    return PartieSummary(
        title,
        SHEETS[name]["kind_label"],
        record_of(name).players,
        tuple(
            GameSummary(
                None,
                tuple((player, final["total"]) for player, final in game["players"].items()),
                game["closed"],
                game["winner"],
                game["net"],
            )
            for game in tally_of(name)["games"]
        ),
        balances_of(name),
    )


def test_an_evening_lists_each_partie_the_nets_and_the_transfers():
    transfers = transfers_of("format_example") + transfers_of("three_player")
    evening = printed_evening(
        evening_of(
            [record_of("format_example"), record_of("three_player")],
            transfers=transfers,
            name="Friday at Anna's",
            played_on=date(2025, 3, 14),
        )
    )
    assert evening == EveningSheet(
        name="Friday at Anna's",
        played_on=date(2025, 3, 14),
        parties=(
            partie_summary("Anna – Ben", "format_example"),  # named as its page names it
            partie_summary("Paula – Quinn – Rita", "three_player"),
        ),
        balances=balances_of("format_example") + balances_of("three_player"),
        transfers=tuple(SettleLine(t.payer, t.payee, t.amount) for t in transfers),
    )
    # RULES.md §9: A 261, B 86, net 175.
    assert evening.parties[0].games == (
        GameSummary(None, (("Anna", 261), ("Ben", 86)), True, "Anna", 175),
    )


def test_an_evening_shows_each_game_of_a_partie_and_what_the_partie_moved():
    evening = printed_evening(evening_of([record_of("format_example"), record_of("match")]))
    # the match nets 175 - 338 + 330 = 167 and 8.35
    assert evening.parties[1].balances == (
        Balance("Anna", 167, Decimal("8.35")),
        Balance("Ben", -167, Decimal("-8.35")),
    )
    assert [game.label for game in evening.parties[1].games] == ["Game 1", "Game 2", "Game 3"]


def test_an_evening_keeps_the_debts_carried_in_apart_from_its_balances():
    last_week = Stored("Last week", date(2025, 3, 7))
    evening = printed_evening(
        evening_of(
            [record_of("format_example")],
            debts=[payment("Carl", "Anna", "1.25", evening=last_week)],
        )
    )
    # the balances are the parties' alone; the transfers settle them and the debt
    assert evening.balances == (
        Balance("Anna", 175, Decimal("8.75")),
        Balance("Ben", -175, Decimal("-8.75")),
    )
    assert evening.debts == (Debt("Carl", "Anna", Decimal("1.25"), "Last week", date(2025, 3, 7)),)
    assert [(t.payer, t.amount, t.state) for t in evening.transfers] == [
        ("Ben", Decimal("8.75"), ""),
        ("Carl", Decimal("1.25"), ""),
    ]
    assert not evening.settled


def test_once_settled_the_evening_prints_the_stored_transfers_paid_open_or_carried_on():
    evening = printed_evening(
        evening_of(
            [record_of("format_example")],
            payments=[
                payment("Ben", "Anna", "8.75", paid_at=datetime(2025, 3, 15, 12, tzinfo=UTC)),
                payment("Carl", "Anna", "1.25", carried_to=Stored("Next week")),
                payment("Dora", "Anna", "2.50"),
            ],
        )
    )
    assert evening.settled
    assert evening.transfers == (
        SettleLine("Ben", "Anna", Decimal("8.75"), paid=True),
        SettleLine("Carl", "Anna", Decimal("1.25"), paid=False, carried_to="Next week"),
        SettleLine("Dora", "Anna", Decimal("2.50"), paid=False),
    )


def test_a_settled_line_says_whether_it_is_paid_open_or_carried_on():
    line = SettleLine("Ben", "Anna", Decimal("8.75"))
    assert line.state == ""
    assert SettleLine("Ben", "Anna", Decimal("8.75"), paid=True).state == "paid"
    assert SettleLine("Ben", "Anna", Decimal("8.75"), paid=False).state == "open"
    carried = SettleLine("Ben", "Anna", Decimal("8.75"), paid=False, carried_to="Friday")
    assert carried.state == "carried to Friday"


# Score pads

SHUTOUT_100 = ("Boxes", "Box bonus (20 each)", "Game bonus (100)", "Shutout (100)", "Total")


def test_a_two_player_pad_has_two_games_a_page_under_the_rules():
    assert score_pad("two_player", engine.preset("classic")) == ScorePad(
        kind="two_player",
        kind_label="Two players",
        title="Gin rummy score pad: Two players",
        paper="a4",
        rules=RulesText("Classic", CLASSIC),
        hand_columns=("#", "Dealer"),
        groups=(PadGroup(None, ("", "")),),
        ending=SHUTOUT_100,
        games_per_page=2,
        lines_per_game=12,
    )


def test_a_hollywood_pad_has_three_column_pairs_and_one_game_a_page():
    pad = score_pad("hollywood", engine.preset("hollywood"), paper="letter")
    assert pad == ScorePad(
        kind="hollywood",
        kind_label="Hollywood",
        title="Gin rummy score pad: Hollywood",
        paper="letter",
        rules=RulesText("Hollywood", (*CLASSIC, RuleLine("Hollywood: game 3 double", "no"))),
        hand_columns=("#", "Dealer"),
        groups=tuple(PadGroup(f"Game {n}", ("", "")) for n in (1, 2, 3)),
        ending=SHUTOUT_100,
        games_per_page=1,
        lines_per_game=29,
    )


def test_a_chouette_pad_under_oklahoma_rules_asks_for_captain_and_upcard():
    pad = score_pad("chouette", engine.preset("oklahoma"), games_per_page=3)
    assert pad.hand_columns == ("#", "Captain", "Upcard")
    assert pad.groups == (PadGroup(None, ("Box", "Team")),)
    assert pad.ending == (
        "Boxes",
        "Box bonus (25 each)",
        "Game bonus (100)",
        "Shutout (double the total)",
        "Total",
    )
    assert (pad.games_per_page, pad.lines_per_game) == (3, 5)


def test_a_pad_prints_a_custom_ruleset_with_its_changes():
    pad = score_pad("two_player", engine.preset("classic", gin_bonus=25, shutout="none"))
    assert pad.rules.changed == (
        RuleLine("Gin bonus", "25", changed=True),
        RuleLine("Shutout", "none", changed=True),
    )
    assert "Shutout (100)" not in pad.ending


@pytest.mark.parametrize(
    ("kind", "options", "message"),
    [
        ("partnership", {}, "no score pad for 'partnership': choose one of two_player, "),
        ("two_player", {"paper": "a5"}, "unknown paper 'a5': choose one of a4, letter"),
        ("two_player", {"games_per_page": 0}, "games per page must be a whole number from 1"),
        ("hollywood", {"games_per_page": 5}, "5 games a page leave 0 lines a game"),
    ],
)
def test_a_pad_that_cannot_be_printed_says_why(kind, options, message):
    with pytest.raises(PadError, match="^" + message.replace("(", r"\(")):
        score_pad(kind, engine.preset("classic"), **options)
