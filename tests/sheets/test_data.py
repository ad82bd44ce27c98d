"""The data of printed sheets, exactly: built from game records, with no database."""

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation

from scorekeeper import engine
from scorekeeper.engine.record import RecordError, loads, parse_record
from scorekeeper.engine.settlement import Transfer
from scorekeeper.sheets.data import (
    Balance,
    Cell,
    EndLine,
    EveningSheet,
    GameSummary,
    Group,
    PadError,
    PadGroup,
    Part,
    PartieSummary,
    PaymentLine,
    Play,
    Row,
    RuleLine,
    RulesText,
    ScorePad,
    ScoreSheet,
    Seats,
    evening_sheet,
    rules_text,
    score_pad,
    score_sheet,
)

RECORDS = Path(__file__).resolve().parent.parent / "records"
KINDS = ("format_example", "hollywood", "match", "partnership", "chouette", "three_player")

CLASSIC = (
    RuleLine("Knock limit", "10"),
    RuleLine("Undercut bonus", "10"),
    RuleLine("Gin bonus", "20"),
    RuleLine("Big gin bonus", "off"),
    RuleLine("Box bonus", "20"),
    RuleLine("Game bonus", "100"),
    RuleLine("Target", "100"),
    RuleLine("Shutout", "bonus"),
    RuleLine("Shutout bonus", "100"),
    RuleLine("Next dealer", "the loser"),
)


def record_of(name: str) -> engine.record.Record:
    return loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def sheet_of(name: str) -> ScoreSheet:
    return score_sheet(record_of(name))


def play(dealer, knocker, result, dk, dd, points, winner, upcard=None) -> Play:
    return Play(dealer, knocker, result, dk, dd, points, winner, upcard)


def no_game(dealer) -> Play:
    return Play(dealer, None, "No game", None, None, 0, None)


def row(number, plays, cells, seats=None, closes=()) -> Row:
    return Row(
        number,
        tuple(plays),
        tuple(Cell(gain, total) for gain, total in cells),
        None if seats is None else Seats(*seats),
        closes,
    )


def test_format_example_sheet():
    assert sheet_of("format_example") == ScoreSheet(
        title="Anna – Ben",
        kind="two_player",
        kind_label="Two players",
        played_on=None,
        players=("Anna", "Ben"),
        rules=RulesText("Classic", CLASSIC),
        stake=Decimal("0.05"),
        stakes=(),
        upcards=False,
        parts=(
            Part(
                title=None,
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Ben"),
                        closed=True,
                        winner="Anna",
                        net=175,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        1, [play("Ben", "Anna", "Knock", 5, 27, 22, "Anna")], [(22, 22), (None, 0)]
                    ),
                    row(2, [play("Ben", "Ben", "Gin", 0, 16, 36, "Ben")], [(None, 22), (36, 36)]),
                    row(
                        3,
                        [play("Anna", "Anna", "Undercut", 7, 7, 10, "Ben")],
                        [(None, 22), (10, 46)],
                    ),
                    row(
                        4, [play("Anna", "Anna", "Gin", 0, 31, 51, "Anna")], [(51, 73), (None, 46)]
                    ),
                    row(5, [no_game("Ben")], [(None, 73), (None, 46)]),
                    row(
                        6,
                        [play("Ben", "Anna", "Knock", 2, 30, 28, "Anna")],
                        [(28, 101), (None, 46)],
                    ),
                ),
                ending=(
                    EndLine("Points", (101, 46)),
                    EndLine("Boxes", (3, 2)),
                    EndLine("Box bonus (20 each)", (60, 40)),
                    EndLine("Game bonus", (100, 0)),
                    EndLine("Total", (261, 86), strong=True),
                    EndLine("Net", (175, -175), signed=True),
                    EndLine("Money", (Decimal("8.75"), Decimal("-8.75")), signed=True),
                ),
            ),
        ),
        payments=(
            PaymentLine(game=None, payer="Ben", payee="Anna", points=175, amount=Decimal("8.75")),
        ),
        balances=(
            Balance(player="Anna", points=175, amount=Decimal("8.75")),
            Balance(player="Ben", points=-175, amount=Decimal("-8.75")),
        ),
        transfers=(Transfer(payer="Ben", payee="Anna", amount=Decimal("8.75")),),
        notes=(),
    )


def test_hollywood_sheet():
    assert sheet_of("hollywood") == ScoreSheet(
        title="You – Opp",
        kind="hollywood",
        kind_label="Hollywood",
        played_on=None,
        players=("You", "Opp"),
        rules=RulesText(
            "Hollywood", (*CLASSIC, RuleLine("Hollywood: game 3 double", "yes", changed=True))
        ),
        stake=Decimal("0.10"),
        stakes=(),
        upcards=False,
        parts=(
            Part(
                title=None,
                note=None,
                groups=(
                    Group(
                        label="Game 1",
                        columns=("You", "Opp"),
                        closed=True,
                        winner="You",
                        net=208,
                        shutout=False,
                    ),
                    Group(
                        label="Game 2",
                        columns=("You", "Opp"),
                        closed=True,
                        winner="You",
                        net=202,
                        shutout=False,
                    ),
                    Group(
                        label="Game 3",
                        columns=("You", "Opp"),
                        closed=True,
                        winner="You",
                        net=160,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        1,
                        [play("Opp", "You", "Knock", 4, 22, 18, "You")],
                        [(18, 18), (None, 0), (None, 0), (None, 0), (None, 0), (None, 0)],
                    ),
                    row(
                        2,
                        [play("Opp", "Opp", "Knock", 3, 15, 12, "Opp")],
                        [(None, 18), (12, 12), (None, 0), (None, 0), (None, 0), (None, 0)],
                    ),
                    row(
                        3,
                        [play("You", "You", "Gin", 0, 5, 25, "You")],
                        [(25, 43), (None, 12), (25, 25), (None, 0), (None, 0), (None, 0)],
                    ),
                    row(
                        4,
                        [play("Opp", "Opp", "Knock", 2, 32, 30, "Opp")],
                        [(None, 43), (30, 42), (None, 25), (30, 30), (None, 0), (None, 0)],
                    ),
                    row(
                        5,
                        [play("You", "You", "Knock", 6, 21, 15, "You")],
                        [(15, 58), (None, 42), (15, 40), (None, 30), (15, 15), (None, 0)],
                    ),
                    row(
                        6,
                        [play("Opp", "You", "Knock", 1, 23, 22, "You")],
                        [(22, 80), (None, 42), (22, 62), (None, 30), (22, 37), (None, 0)],
                    ),
                    row(
                        7,
                        [play("Opp", "Opp", "Gin", 0, 0, 20, "Opp")],
                        [(None, 80), (20, 62), (None, 62), (20, 50), (None, 37), (20, 20)],
                    ),
                    row(
                        8,
                        [play("You", "You", "Gin", 0, 30, 50, "You")],
                        [(50, 130), (None, 62), (50, 112), (None, 50), (50, 87), (None, 20)],
                        closes=(1, 2),
                    ),
                    row(
                        9,
                        [play("Opp", "Opp", "Gin", 0, 40, 60, "Opp")],
                        [(None, 130), (None, 62), (None, 112), (None, 50), (None, 87), (60, 80)],
                    ),
                    row(
                        10,
                        [play("You", "You", "Knock", 4, 17, 13, "You")],
                        [(None, 130), (None, 62), (None, 112), (None, 50), (13, 100), (None, 80)],
                        closes=(3,),
                    ),
                ),
                ending=(
                    EndLine("Points", (130, 62, 112, 50, 100, 80)),
                    EndLine("Boxes", (5, 3, 4, 2, 4, 2)),
                    EndLine("Box bonus (20 each)", (100, 60, 80, 40, 80, 40)),
                    EndLine("Game bonus", (100, 0, 100, 0, 100, 0)),
                    EndLine("Total", (330, 122, 292, 90, 280, 120), strong=True),
                    EndLine("Net", (208, -208, 202, -202, 320, -320), signed=True),
                    EndLine(
                        "Money",
                        (
                            Decimal("20.80"),
                            Decimal("-20.80"),
                            Decimal("20.20"),
                            Decimal("-20.20"),
                            Decimal("32.00"),
                            Decimal("-32.00"),
                        ),
                        signed=True,
                    ),
                ),
            ),
        ),
        payments=(
            PaymentLine(
                game="Game 1", payer="Opp", payee="You", points=208, amount=Decimal("20.80")
            ),
            PaymentLine(
                game="Game 2", payer="Opp", payee="You", points=202, amount=Decimal("20.20")
            ),
            PaymentLine(
                game="Game 3", payer="Opp", payee="You", points=320, amount=Decimal("32.00")
            ),
        ),
        balances=(
            Balance(player="You", points=730, amount=Decimal("73.00")),
            Balance(player="Opp", points=-730, amount=Decimal("-73.00")),
        ),
        transfers=(Transfer(payer="Opp", payee="You", amount=Decimal("73.00")),),
        notes=(),
    )


def test_match_sheet():
    assert sheet_of("match") == ScoreSheet(
        title="Anna – Ben",
        kind="match",
        kind_label="Match",
        played_on=None,
        players=("Anna", "Ben"),
        rules=RulesText("Classic", (*CLASSIC, RuleLine("Best of", "3", changed=True))),
        stake=Decimal("0.05"),
        stakes=(),
        upcards=False,
        parts=(
            Part(
                title="Game 1",
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Ben"),
                        closed=True,
                        winner="Anna",
                        net=175,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        1, [play("Ben", "Anna", "Knock", 5, 27, 22, "Anna")], [(22, 22), (None, 0)]
                    ),
                    row(2, [play("Ben", "Ben", "Gin", 0, 16, 36, "Ben")], [(None, 22), (36, 36)]),
                    row(
                        3,
                        [play("Anna", "Anna", "Undercut", 7, 7, 10, "Ben")],
                        [(None, 22), (10, 46)],
                    ),
                    row(
                        4, [play("Anna", "Anna", "Gin", 0, 31, 51, "Anna")], [(51, 73), (None, 46)]
                    ),
                    row(5, [no_game("Ben")], [(None, 73), (None, 46)]),
                    row(
                        6,
                        [play("Ben", "Anna", "Knock", 2, 30, 28, "Anna")],
                        [(28, 101), (None, 46)],
                    ),
                ),
                ending=(
                    EndLine("Points", (101, 46)),
                    EndLine("Boxes", (3, 2)),
                    EndLine("Box bonus (20 each)", (60, 40)),
                    EndLine("Game bonus", (100, 0)),
                    EndLine("Total", (261, 86), strong=True),
                    EndLine("Net", (175, -175), signed=True),
                    EndLine("Money", (Decimal("8.75"), Decimal("-8.75")), signed=True),
                ),
            ),
            Part(
                title="Game 2",
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Ben"),
                        closed=True,
                        winner="Ben",
                        net=338,
                        shutout=True,
                    ),
                ),
                rows=(
                    row(7, [play("Ben", "Ben", "Gin", 0, 98, 118, "Ben")], [(None, 0), (118, 118)]),
                ),
                ending=(
                    EndLine("Points", (0, 118)),
                    EndLine("Boxes", (0, 1)),
                    EndLine("Box bonus (20 each)", (0, 20)),
                    EndLine("Game bonus", (0, 100)),
                    EndLine("Shutout", (0, 100)),
                    EndLine("Total", (0, 338), strong=True),
                    EndLine("Net", (-338, 338), signed=True),
                    EndLine("Money", (Decimal("-16.90"), Decimal("16.90")), signed=True),
                ),
            ),
            Part(
                title="Game 3",
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Ben"),
                        closed=True,
                        winner="Anna",
                        net=330,
                        shutout=True,
                    ),
                ),
                rows=(
                    row(
                        8,
                        [play("Anna", "Anna", "Gin", 0, 90, 110, "Anna")],
                        [(110, 110), (None, 0)],
                    ),
                ),
                ending=(
                    EndLine("Points", (110, 0)),
                    EndLine("Boxes", (1, 0)),
                    EndLine("Box bonus (20 each)", (20, 0)),
                    EndLine("Game bonus", (100, 0)),
                    EndLine("Shutout", (100, 0)),
                    EndLine("Total", (330, 0), strong=True),
                    EndLine("Net", (330, -330), signed=True),
                    EndLine("Money", (Decimal("16.50"), Decimal("-16.50")), signed=True),
                ),
            ),
        ),
        payments=(
            PaymentLine(
                game="Game 1", payer="Ben", payee="Anna", points=175, amount=Decimal("8.75")
            ),
            PaymentLine(
                game="Game 2", payer="Anna", payee="Ben", points=338, amount=Decimal("16.90")
            ),
            PaymentLine(
                game="Game 3", payer="Ben", payee="Anna", points=330, amount=Decimal("16.50")
            ),
        ),
        balances=(
            Balance(player="Anna", points=167, amount=Decimal("8.35")),
            Balance(player="Ben", points=-167, amount=Decimal("-8.35")),
        ),
        transfers=(Transfer(payer="Ben", payee="Anna", amount=Decimal("8.35")),),
        notes=("Best of 3: Anna 2, Ben 1.", "Anna wins the match."),
    )


def test_partnership_sheet():
    assert sheet_of("partnership") == ScoreSheet(
        title="Anna & Clara – Ben & Dan",
        kind="partnership",
        kind_label="Partnership",
        played_on=None,
        players=("Anna", "Ben", "Clara", "Dan"),
        rules=RulesText("Partnership", (*CLASSIC[:6], RuleLine("Target", "125"), *CLASSIC[7:])),
        stake=Decimal("0.05"),
        stakes=(),
        upcards=False,
        parts=(
            Part(
                title=None,
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Anna & Clara", "Ben & Dan"),
                        closed=True,
                        winner="Anna & Clara",
                        net=220,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        1,
                        [
                            play("Ben", "Anna", "Knock", 3, 15, 12, "Anna"),
                            play("Dan", "Dan", "Knock", 2, 12, 10, "Dan"),
                        ],
                        [(2, 2), (None, 0)],
                    ),
                    row(
                        2,
                        [
                            play("Ben", "Anna", "Knock", 4, 20, 16, "Anna"),
                            play("Clara", "Clara", "Knock", 1, 13, 12, "Clara"),
                        ],
                        [(28, 30), (None, 0)],
                    ),
                    row(
                        3,
                        [no_game("Ben"), play("Dan", "Dan", "Gin", 0, 30, 50, "Dan")],
                        [(None, 30), (50, 50)],
                    ),
                    row(
                        4,
                        [
                            play("Ben", "Anna", "Gin", 0, 40, 60, "Anna"),
                            play("Clara", "Clara", "Gin", 0, 20, 40, "Clara"),
                        ],
                        [(100, 130), (None, 50)],
                    ),
                ),
                ending=(
                    EndLine("Points", (130, 50)),
                    EndLine("Boxes", (3, 1)),
                    EndLine("Box bonus (20 each)", (60, 20)),
                    EndLine("Game bonus", (100, 0)),
                    EndLine("Total", (290, 70), strong=True),
                    EndLine("Net", (220, -220), signed=True),
                    EndLine("Money", (Decimal("11.00"), Decimal("-11.00")), signed=True),
                ),
            ),
        ),
        payments=(
            PaymentLine(game=None, payer="Ben", payee="Anna", points=220, amount=Decimal("11.00")),
            PaymentLine(game=None, payer="Dan", payee="Clara", points=220, amount=Decimal("11.00")),
        ),
        balances=(
            Balance(player="Anna", points=220, amount=Decimal("11.00")),
            Balance(player="Ben", points=-220, amount=Decimal("-11.00")),
            Balance(player="Clara", points=220, amount=Decimal("11.00")),
            Balance(player="Dan", points=-220, amount=Decimal("-11.00")),
        ),
        transfers=(
            Transfer(payer="Ben", payee="Anna", amount=Decimal("11.00")),
            Transfer(payer="Dan", payee="Clara", amount=Decimal("11.00")),
        ),
        notes=(),
    )


def test_chouette_sheet():
    assert sheet_of("chouette") == ScoreSheet(
        title="Anna – Ben – Clara – Dan – Eva",
        kind="chouette",
        kind_label="Chouette",
        played_on=None,
        players=("Anna", "Ben", "Clara", "Dan", "Eva"),
        rules=RulesText("Classic", CLASSIC),
        stake=Decimal("0.05"),
        stakes=(("Dan", Decimal("0.10")),),
        upcards=False,
        parts=(
            Part(
                title="Game 1",
                note="Anna in the box against Ben, Clara, Dan, Eva",
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Team"),
                        closed=True,
                        winner="Anna",
                        net=275,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        1,
                        [play("Ben", "Anna", "Knock", 1, 21, 20, "Anna")],
                        [(20, 20), (None, 0)],
                        seats=("Anna", "Ben", ("Clara", "Dan", "Eva")),
                    ),
                    row(
                        2,
                        [play("Clara", "Anna", "Knock", 2, 22, 20, "Anna")],
                        [(20, 40), (None, 0)],
                        seats=("Anna", "Clara", ("Dan", "Eva", "Ben")),
                    ),
                    row(
                        3,
                        [play("Dan", "Anna", "Knock", 3, 23, 20, "Anna")],
                        [(20, 60), (None, 0)],
                        seats=("Anna", "Dan", ("Eva", "Ben", "Clara")),
                    ),
                    row(
                        4,
                        [play("Eva", "Anna", "Knock", 4, 24, 20, "Anna")],
                        [(20, 80), (None, 0)],
                        seats=("Anna", "Eva", ("Ben", "Clara", "Dan")),
                    ),
                    row(
                        5,
                        [play("Ben", "Ben", "Knock", 2, 12, 10, "Ben")],
                        [(None, 80), (10, 10)],
                        seats=("Anna", "Ben", ("Clara", "Dan", "Eva")),
                    ),
                    row(
                        6,
                        [play("Anna", "Anna", "Gin", 0, 5, 25, "Anna")],
                        [(25, 105), (None, 10)],
                        seats=("Anna", "Ben", ("Clara", "Dan", "Eva")),
                    ),
                ),
                ending=(
                    EndLine("Points", (105, 10)),
                    EndLine("Boxes", (5, 1)),
                    EndLine("Box bonus (20 each)", (100, 20)),
                    EndLine("Game bonus", (100, 0)),
                    EndLine("Total", (305, 30), strong=True),
                    EndLine("Net", (1100, -275), signed=True),
                    EndLine("Money", (Decimal("68.75"), None), signed=True),
                ),
            ),
            Part(
                title="Game 2",
                note="Anna in the box against Clara, Dan, Eva, Ben",
                groups=(
                    Group(
                        label=None,
                        columns=("Anna", "Team"),
                        closed=True,
                        winner="Team",
                        net=235,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        7,
                        [play("Clara", "Anna", "Undercut", 8, 3, 15, "Clara")],
                        [(None, 0), (15, 15)],
                        seats=("Anna", "Clara", ("Dan", "Eva", "Ben")),
                    ),
                    row(
                        8,
                        [play("Anna", "Clara", "Knock", 2, 17, 15, "Clara")],
                        [(None, 0), (15, 30)],
                        seats=("Anna", "Clara", ("Dan", "Eva", "Ben")),
                    ),
                    row(
                        9,
                        [play("Anna", "Anna", "Knock", 3, 13, 10, "Anna")],
                        [(10, 10), (None, 30)],
                        seats=("Anna", "Clara", ("Dan", "Eva", "Ben")),
                    ),
                    row(
                        10,
                        [play("Dan", "Dan", "Gin", 0, 55, 75, "Dan")],
                        [(None, 10), (75, 105)],
                        seats=("Anna", "Dan", ("Eva", "Ben", "Clara")),
                    ),
                ),
                ending=(
                    EndLine("Points", (10, 105)),
                    EndLine("Boxes", (1, 3)),
                    EndLine("Box bonus (20 each)", (20, 60)),
                    EndLine("Game bonus", (0, 100)),
                    EndLine("Total", (30, 265), strong=True),
                    EndLine("Net", (-940, 235), signed=True),
                    EndLine("Money", (Decimal("-58.75"), None), signed=True),
                ),
            ),
            Part(
                title="Game 3",
                note="Dan in the box against Eva, Ben, Clara, Anna",
                groups=(
                    Group(
                        label=None,
                        columns=("Dan", "Team"),
                        closed=False,
                        winner=None,
                        net=0,
                        shutout=False,
                    ),
                ),
                rows=(
                    row(
                        11,
                        [play("Eva", "Eva", "Knock", 4, 20, 16, "Eva")],
                        [(None, 0), (16, 16)],
                        seats=("Dan", "Eva", ("Ben", "Clara", "Anna")),
                    ),
                    row(
                        12,
                        [no_game("Dan")],
                        [(None, 0), (None, 16)],
                        seats=("Dan", "Eva", ("Ben", "Clara", "Anna")),
                    ),
                ),
                ending=(
                    EndLine("Points", (0, 16)),
                    EndLine("Boxes", (0, 1)),
                    EndLine("Total", (0, 16), strong=True),
                ),
            ),
        ),
        payments=(
            PaymentLine(
                game="Game 1", payer="Ben", payee="Anna", points=275, amount=Decimal("13.75")
            ),
            PaymentLine(
                game="Game 1", payer="Clara", payee="Anna", points=275, amount=Decimal("13.75")
            ),
            PaymentLine(
                game="Game 1", payer="Dan", payee="Anna", points=275, amount=Decimal("27.50")
            ),
            PaymentLine(
                game="Game 1", payer="Eva", payee="Anna", points=275, amount=Decimal("13.75")
            ),
            PaymentLine(
                game="Game 2", payer="Anna", payee="Clara", points=235, amount=Decimal("11.75")
            ),
            PaymentLine(
                game="Game 2", payer="Anna", payee="Dan", points=235, amount=Decimal("23.50")
            ),
            PaymentLine(
                game="Game 2", payer="Anna", payee="Eva", points=235, amount=Decimal("11.75")
            ),
            PaymentLine(
                game="Game 2", payer="Anna", payee="Ben", points=235, amount=Decimal("11.75")
            ),
        ),
        balances=(
            Balance(player="Anna", points=160, amount=Decimal("10.00")),
            Balance(player="Ben", points=-40, amount=Decimal("-2.00")),
            Balance(player="Clara", points=-40, amount=Decimal("-2.00")),
            Balance(player="Dan", points=-40, amount=Decimal("-4.00")),
            Balance(player="Eva", points=-40, amount=Decimal("-2.00")),
        ),
        transfers=(
            Transfer(payer="Ben", payee="Anna", amount=Decimal("2.00")),
            Transfer(payer="Clara", payee="Anna", amount=Decimal("2.00")),
            Transfer(payer="Dan", payee="Anna", amount=Decimal("4.00")),
            Transfer(payer="Eva", payee="Anna", amount=Decimal("2.00")),
        ),
        notes=("A game still running has no end bonuses yet.",),
    )


def test_three_player_sheet():
    assert sheet_of("three_player") == ScoreSheet(
        title="Paula – Quinn – Rita",
        kind="three_player",
        kind_label="Three players",
        played_on=None,
        players=("Paula", "Quinn", "Rita"),
        rules=RulesText("Classic", CLASSIC[:-1]),  # the box deals every hand: no dealer rule
        stake=Decimal("0.05"),
        stakes=(),
        upcards=False,
        parts=(
            Part(
                title=None,
                note=None,
                groups=(
                    Group(
                        label=None,
                        columns=("Paula", "Quinn", "Rita"),
                        closed=True,
                        winner="Paula",
                        net=513,
                        shutout=True,
                    ),
                ),
                rows=(
                    row(
                        1,
                        [play("Paula", "Paula", "Knock", 1, 21, 20, "Paula")],
                        [(20, 20), (None, 0), (None, 0)],
                        seats=("Paula", "Quinn", ("Rita",)),
                    ),
                    row(
                        2,
                        [play("Paula", "Rita", "Knock", 3, 18, 15, "Rita")],
                        [(None, 20), (None, 0), (15, 15)],
                        seats=("Paula", "Rita", ("Quinn",)),
                    ),
                    row(
                        3,
                        [no_game("Rita")],
                        [(None, 20), (None, 0), (None, 15)],
                        seats=("Rita", "Quinn", ("Paula",)),
                    ),
                    row(
                        4,
                        [play("Rita", "Quinn", "Undercut", 4, 2, 12, "Rita")],
                        [(None, 20), (None, 0), (12, 27)],
                        seats=("Rita", "Quinn", ("Paula",)),
                    ),
                    row(
                        5,
                        [play("Rita", "Paula", "Gin", 0, 60, 80, "Paula")],
                        [(80, 100), (None, 0), (None, 27)],
                        seats=("Rita", "Paula", ("Quinn",)),
                    ),
                ),
                ending=(
                    EndLine("Points", (100, 0, 27)),
                    EndLine("Boxes", (2, 0, 2)),
                    EndLine("Box bonus (20 each)", (40, 0, 40)),
                    EndLine("Game bonus", (100, 0, 0)),
                    EndLine("Shutout", (100, 0, 0)),
                    EndLine("Total", (340, 0, 67), strong=True),
                    EndLine("Net", (513, -407, -106), signed=True),
                    EndLine(
                        "Money",
                        (Decimal("25.65"), Decimal("-20.35"), Decimal("-5.30")),
                        signed=True,
                    ),
                ),
            ),
        ),
        payments=(
            PaymentLine(
                game=None, payer="Quinn", payee="Paula", points=340, amount=Decimal("17.00")
            ),
            PaymentLine(game=None, payer="Rita", payee="Paula", points=173, amount=Decimal("8.65")),
            PaymentLine(game=None, payer="Quinn", payee="Rita", points=67, amount=Decimal("3.35")),
        ),
        balances=(
            Balance(player="Paula", points=513, amount=Decimal("25.65")),
            Balance(player="Quinn", points=-407, amount=Decimal("-20.35")),
            Balance(player="Rita", points=-106, amount=Decimal("-5.30")),
        ),
        transfers=(
            Transfer(payer="Quinn", payee="Paula", amount=Decimal("20.35")),
            Transfer(payer="Rita", payee="Paula", amount=Decimal("5.30")),
        ),
        notes=(),
    )


@pytest.mark.parametrize("name", KINDS)
def test_the_totals_and_balances_agree_with_the_tally(name):
    """The sheet and ``manage.py tally`` replay the same record the same way."""
    sheet = sheet_of(name)
    expected = json.loads((RECORDS / f"{name}_tally.json").read_text(encoding="utf-8"))
    totals = []
    for part in sheet.parts:
        (total,) = [line for line in part.ending if line.label == "Total"]
        totals += total.values
    assert totals == [
        final["total"] for game in expected["games"] for final in game["players"].values()
    ]
    assert {b.player: (b.points, str(b.amount)) for b in sheet.balances} == {
        name: (b["points"], b["amount"]) for name, b in expected["balances"].items()
    }


def test_a_record_the_engine_refuses_raises_its_error_lines():
    with pytest.raises(RecordError) as refused:
        sheet_of("knock_over_limit")
    assert refused.value.errors == [
        "hand 2: a knock with 12 deadwood is over the knock limit of 10"
    ]


def test_the_title_and_the_date_are_the_callers():
    sheet = score_sheet(record_of("format_example"), title="Finale", played_on=date(2025, 3, 14))
    assert (sheet.title, sheet.played_on) == ("Finale", date(2025, 3, 14))


OKLAHOMA = {
    "kind": "two_player",
    "rules": {"preset": "oklahoma"},
    "players": ["Jürgen Größe", "Zoë"],
    "hands": [
        {"knocker": "Jürgen Größe", "knocker_deadwood": 4, "defender_deadwood": 19, "upcard": "KS"},
        {"knocker": "Zoë", "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": "7H"},
        {"knocker": "Jürgen Größe", "gin": True, "defender_deadwood": 12, "upcard": "TD"},
        {"no_game": True},
        {"knocker": "Zoë", "knocker_deadwood": 5, "defender_deadwood": 3, "upcard": "5C"},
    ],
}


def test_an_oklahoma_sheet_shows_each_upcard_with_its_suit():
    sheet = score_sheet(parse_record(OKLAHOMA))
    assert sheet.upcards
    (part,) = sheet.parts
    assert [r.plays[0] for r in part.rows] == [
        play("Jürgen Größe", "Jürgen Größe", "Knock", 4, 19, 30, "Jürgen Größe", "K♠"),
        play("Jürgen Größe", "Zoë", "Knock", 3, 20, 17, "Zoë", "7♥"),
        play("Zoë", "Jürgen Größe", "Gin", 0, 12, 37, "Jürgen Größe", "10♦"),
        no_game("Jürgen Größe"),  # Oklahoma: the winner deals; after a no game, the same
        play("Jürgen Größe", "Zoë", "Undercut", 5, 3, 27, "Jürgen Größe", "5♣"),
    ]
    assert [(line.label, line.value) for line in sheet.rules.lines] == [
        ("Knock limit", "the upcard"),
        ("Undercut bonus", "25"),
        ("Gin bonus", "25"),
        ("Big gin bonus", "31"),
        ("Box bonus", "25"),
        ("Game bonus", "100"),
        ("Target", "150"),
        ("Shutout", "double the total"),
        ("Next dealer", "the winner"),
        ("Spade doubling", "points"),
        ("Ace upcard", "gin only"),
    ]
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
    (row_,) = score_sheet(record).parts[0].rows
    assert row_ == row(1, [play("A", "A", "Void", 0, 0, 0, None)], [(None, 0), (None, 0)])


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


def test_a_chouette_team_of_several_stakes_shows_no_single_money_figure():
    (first, second, running) = sheet_of("chouette").parts
    money = {part.title: part.ending[-1] for part in (first, second)}
    assert money["Game 1"] == EndLine("Money", (Decimal("68.75"), None), signed=True)
    assert money["Game 2"] == EndLine("Money", (Decimal("-58.75"), None), signed=True)
    assert [line.label for line in running.ending] == ["Points", "Boxes", "Total"]


def test_an_evening_lists_each_partie_the_nets_and_the_transfers():
    transfers = [
        Transfer("Ben", "Anna", Decimal("8.75")),
        Transfer("Quinn", "Paula", Decimal("20.35")),
        Transfer("Rita", "Paula", Decimal("5.30")),
    ]
    evening = evening_sheet(
        [("First", record_of("format_example")), ("Rotation", record_of("three_player"))],
        transfers,
        name="Friday at Anna's",
        played_on=date(2025, 3, 14),
    )
    assert evening == EveningSheet(
        name="Friday at Anna's",
        played_on=date(2025, 3, 14),
        parties=(
            PartieSummary(
                "First",
                "Two players",
                ("Anna", "Ben"),
                (GameSummary(None, (("Anna", 261), ("Ben", 86)), True, "Anna", 175),),
                (
                    Balance("Anna", 175, Decimal("8.75")),
                    Balance("Ben", -175, Decimal("-8.75")),
                ),
            ),
            PartieSummary(
                "Rotation",
                "Three players",
                ("Paula", "Quinn", "Rita"),
                (
                    GameSummary(
                        None, (("Paula", 340), ("Quinn", 0), ("Rita", 67)), True, "Paula", 513
                    ),
                ),
                (
                    Balance("Paula", 513, Decimal("25.65")),
                    Balance("Quinn", -407, Decimal("-20.35")),
                    Balance("Rita", -106, Decimal("-5.30")),
                ),
            ),
        ),
        balances=(
            Balance("Anna", 175, Decimal("8.75")),
            Balance("Ben", -175, Decimal("-8.75")),
            Balance("Paula", 513, Decimal("25.65")),
            Balance("Quinn", -407, Decimal("-20.35")),
            Balance("Rita", -106, Decimal("-5.30")),
        ),
        transfers=tuple(transfers),
    )


def test_an_evening_adds_up_a_player_over_several_parties():
    evening = evening_sheet(
        [("One", record_of("format_example")), ("Two", record_of("match"))],
        [],
        name="Twice",
        played_on=None,
    )
    # 175 and 8.75 from the first; the match nets 175 - 338 + 330 = 167 and 8.35.
    assert evening.balances == (
        Balance("Anna", 342, Decimal("17.10")),
        Balance("Ben", -342, Decimal("-17.10")),
    )
    assert [game.label for game in evening.parties[1].games] == ["Game 1", "Game 2", "Game 3"]


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
        groups=(
            PadGroup("Game 1", ("", "")),
            PadGroup("Game 2", ("", "")),
            PadGroup("Game 3", ("", "")),
        ),
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
