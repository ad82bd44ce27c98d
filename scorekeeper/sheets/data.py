"""What a printed sheet shows, as plain frozen values built from engine records.

No database: a score sheet comes from a game record (FORMAT.md) replayed by the
engine, an evening's tally from several records, a score pad from a ruleset. Every
word is translated here, in the active language, so that the renderer only lays
out what it is given; numbers stay numbers and money stays ``Decimal``.

>>> from scorekeeper.engine.record import parse_record
>>> record = parse_record({"kind": "two_player", "players": ["Anna", "Ben"], "stake": "0.05",
...     "hands": [{"knocker": "Anna", "gin": True, "defender_deadwood": 70},
...               {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 20}]})
>>> sheet = score_sheet(record)
>>> [(row.number, row.plays[0].result, row.cells) for row in sheet.parts[0].rows]
[(1, 'Gin', (Cell(gain=90, total=90), Cell(gain=None, total=0))), \
(2, 'Knock', (Cell(gain=17, total=107), Cell(gain=None, total=0)))]
>>> [(line.label, line.values) for line in sheet.parts[0].ending][-3:]
[('Total', (347, 0)), ('Net', (347, -347)), ('Money', (Decimal('17.35'), Decimal('-17.35')))]
>>> sheet.transfers
(Transfer(payer='Ben', payee='Anna', amount=Decimal('17.35')),)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import engine
from scorekeeper.engine.chouette import TEAM
from scorekeeper.engine.record import Record, balances, replay
from scorekeeper.engine.settlement import Transfer, settle_up

# Values


@dataclass(frozen=True)
class RuleLine:
    """One rule in words: ``Gin bonus: 25``; ``changed`` when it differs from the preset."""

    label: str
    value: str
    changed: bool = False


@dataclass(frozen=True)
class RulesText:
    """The rules in force: the preset's name and the rules that matter at the table."""

    preset: str
    lines: tuple[RuleLine, ...]

    @property
    def changed(self) -> tuple[RuleLine, ...]:
        return tuple(line for line in self.lines if line.changed)


@dataclass(frozen=True)
class Play:
    """What happened at one table in one hand."""

    dealer: str
    knocker: str | None  # None for a no game
    result: str  # in words: Knock, Undercut, Gin, Big gin, No game, Void
    knocker_deadwood: int | None
    defender_deadwood: int | None
    points: int  # what the hand scored, to its winner
    winner: str | None
    upcard: str | None = None  # Oklahoma: the card with its suit symbol, "K♠"


@dataclass(frozen=True)
class Seats:
    """Chouette and three-player rotation: who played a hand in which role."""

    box: str
    captain: str
    out: tuple[str, ...]


@dataclass(frozen=True)
class Cell:
    """One column of one row: what the hand added (None: nothing) and the running total."""

    gain: int | None
    total: int


@dataclass(frozen=True)
class Row:
    """One hand, or one partnership round (two plays: table 1, table 2)."""

    number: int
    plays: tuple[Play, ...]
    cells: tuple[Cell, ...]  # one per column, across the groups
    seats: Seats | None = None
    closes: tuple[int, ...] = ()  # Hollywood: the games (1-based) this hand closed


@dataclass(frozen=True)
class Group:
    """Columns scored as one game: a Hollywood game, or the one game of the part."""

    label: str | None
    columns: tuple[str, ...]
    closed: bool
    winner: str | None  # the winning column's label
    net: int  # the engine's net: the winner's final minus the loser's (0 while running)
    shutout: bool


@dataclass(frozen=True)
class EndLine:
    """A line under the hands, one value per column; None: nothing to write there."""

    label: str
    values: tuple[int | Decimal | None, ...]
    strong: bool = False  # the total
    signed: bool = False  # won (+) or paid (−): the net and the money


@dataclass(frozen=True)
class Part:
    """One table of hands: the whole sheet, or one game of a match or chouette."""

    title: str | None
    note: str | None
    groups: tuple[Group, ...]
    rows: tuple[Row, ...]
    ending: tuple[EndLine, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(column for group in self.groups for column in group.columns)


@dataclass(frozen=True)
class PaymentLine:
    """Who pays whom for one game: points and money."""

    game: str | None
    payer: str
    payee: str
    points: int
    amount: Decimal


@dataclass(frozen=True)
class Balance:
    """A player's net: points and money, won positive."""

    player: str
    points: int
    amount: Decimal


@dataclass(frozen=True)
class ScoreSheet:
    title: str
    kind: str
    kind_label: str
    played_on: date | None
    players: tuple[str, ...]
    rules: RulesText
    stake: Decimal
    stakes: tuple[tuple[str, Decimal], ...]  # chouette: a member's own stake
    upcards: bool  # Oklahoma: every hand shows its upcard
    parts: tuple[Part, ...]
    payments: tuple[PaymentLine, ...]
    balances: tuple[Balance, ...]
    transfers: tuple[Transfer, ...]  # the fewest transfers that settle the balances
    notes: tuple[str, ...] = ()

    @property
    def for_money(self) -> bool:
        return bool(self.stake) or any(stake for _, stake in self.stakes)


@dataclass(frozen=True)
class GameResult:
    """One game of a partie in an evening: the columns' totals and the winner."""

    label: str | None
    totals: tuple[tuple[str, int], ...]
    closed: bool
    winner: str | None
    net: int


@dataclass(frozen=True)
class PartieResult:
    title: str
    kind_label: str
    players: tuple[str, ...]
    games: tuple[GameResult, ...]
    balances: tuple[Balance, ...]  # what the partie moved, per player


@dataclass(frozen=True)
class EveningSheet:
    name: str
    played_on: date | None
    parties: tuple[PartieResult, ...]
    balances: tuple[Balance, ...]  # each player's net over the parties, by name
    transfers: tuple[Transfer, ...]


@dataclass(frozen=True)
class PadGroup:
    """Columns of a blank game; an empty column label is a blank to write a name on."""

    label: str | None
    columns: tuple[str, ...]


@dataclass(frozen=True)
class ScorePad:
    """A blank score pad: the rules at the top, then games to fill in by pen."""

    kind: str
    kind_label: str
    title: str
    paper: str
    rules: RulesText
    hand_columns: tuple[str, ...]  # written on each hand line before the scores
    groups: tuple[PadGroup, ...]
    ending: tuple[str, ...]  # the lines under the hands: boxes, bonuses, total
    games_per_page: int
    lines_per_game: int


# Words

KIND_LABELS = {
    "two_player": gettext_lazy("Two players"),
    "hollywood": gettext_lazy("Hollywood"),
    "match": gettext_lazy("Match"),
    "partnership": gettext_lazy("Partnership"),
    "chouette": gettext_lazy("Chouette"),
    "three_player": gettext_lazy("Three players"),
}
PRESET_NAMES = {
    "classic": gettext_lazy("Classic"),
    "modern": gettext_lazy("Modern"),
    "oklahoma": gettext_lazy("Oklahoma"),
    "straight": gettext_lazy("Straight gin"),
    "round_the_corner": gettext_lazy("Round the corner"),
    "hollywood": gettext_lazy("Hollywood"),
    "partnership": gettext_lazy("Partnership"),
}
RESULTS = {
    engine.Outcome.KNOCK: gettext_lazy("Knock"),
    engine.Outcome.UNDERCUT: gettext_lazy("Undercut"),
    engine.Outcome.GIN: gettext_lazy("Gin"),
    engine.Outcome.BIG_GIN: gettext_lazy("Big gin"),
    engine.Outcome.NO_GAME: gettext_lazy("No game"),
    engine.Outcome.VOID: gettext_lazy("Void"),
}
# The same labels as the rules form, so one translation serves both.
RULE_LABELS = {
    "knock_limit": gettext_lazy("Knock limit"),
    "undercut_bonus": gettext_lazy("Undercut bonus"),
    "tie_is_undercut": gettext_lazy("Tie is undercut"),
    "gin_bonus": gettext_lazy("Gin bonus"),
    "big_gin_bonus": gettext_lazy("Big gin bonus"),
    "box_bonus": gettext_lazy("Box bonus"),
    "game_bonus": gettext_lazy("Game bonus"),
    "target": gettext_lazy("Target"),
    "shutout": gettext_lazy("Shutout"),
    "shutout_bonus": gettext_lazy("Shutout bonus"),
    "dealer_rule": gettext_lazy("Next dealer"),
    "spade_double": gettext_lazy("Spade doubling"),
    "oklahoma_ace": gettext_lazy("Ace upcard"),
    "extra_boxes_gin": gettext_lazy("Extra boxes for gin"),
    "extra_boxes_undercut": gettext_lazy("Extra boxes for undercut"),
    "round_the_corner": gettext_lazy("Round the corner"),
    "hollywood_game3_double": gettext_lazy("Hollywood: game 3 double"),
    "best_of": gettext_lazy("Best of"),
    "money_unit": gettext_lazy("Money unit"),
}
CHOICE_WORDS = {
    "shutout": {
        "bonus": gettext_lazy("bonus"),
        "double_total": gettext_lazy("double the total"),
        "double_hands": gettext_lazy("double the hand points"),
        "none": gettext_lazy("none"),
    },
    "dealer_rule": {
        "loser": gettext_lazy("the loser"),
        "winner": gettext_lazy("the winner"),
        "alternate": gettext_lazy("alternate"),
    },
    "spade_double": {
        "off": gettext_lazy("off"),
        "points": gettext_lazy("points"),
        "points_and_boxes": gettext_lazy("points and boxes"),
    },
    "oklahoma_ace": {"gin_only": gettext_lazy("gin only"), "one": gettext_lazy("knock with 1")},
}


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def rules_text(rules: engine.Ruleset, kind: str = "two_player") -> RulesText:
    """The preset's name and, in words, every rule that matters for the kind, plus every
    rule changed from the preset (marked ``changed``).

    >>> [(line.label, line.value) for line in rules_text(engine.preset("oklahoma")).lines][:3]
    [('Knock limit', 'the upcard'), ('Undercut bonus', '25'), ('Gin bonus', '25')]
    >>> rules_text(engine.preset("classic", gin_bonus=25)).changed
    (RuleLine(label='Gin bonus', value='25', changed=True),)
    """
    changed = rules.changes_from_preset()
    values = rules.to_dict()
    lines = tuple(
        RuleLine(str(RULE_LABELS[name]), _rule_words(name, values[name]), name in changed)
        for name in engine.PARAMETERS
        if name in changed or _matters(name, rules, kind)
    )
    return RulesText(str(PRESET_NAMES.get(rules.preset, rules.preset)), lines)


def _matters(name: str, rules: engine.Ruleset, kind: str) -> bool:
    """Whether a rule is worth printing for this kind, even at its preset's value."""
    return {
        "tie_is_undercut": not rules.tie_is_undercut,
        "shutout_bonus": rules.shutout == engine.Shutout.BONUS,
        "dealer_rule": kind != "three_player",  # there the box deals every hand
        "spade_double": rules.is_oklahoma,
        "oklahoma_ace": rules.is_oklahoma,
        "extra_boxes_gin": rules.extra_boxes_gin > 0,
        "extra_boxes_undercut": rules.extra_boxes_undercut > 0,
        "round_the_corner": rules.round_the_corner,
        "hollywood_game3_double": kind == "hollywood",
        "best_of": kind == "match",
        "money_unit": False,
    }.get(name, True)


def _rule_words(name: str, value: Any) -> str:
    if name in CHOICE_WORDS:
        return str(CHOICE_WORDS[name][value])
    if value == engine.UPCARD:
        return _("the upcard")
    if value is None:
        return _("off")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


# Score sheets


@dataclass(frozen=True)
class _Column:
    key: str  # the engine's key in the game's tally
    label: str
    members: tuple[str, ...]  # the players who settle as this column


@dataclass(frozen=True)
class _Game:
    """One game of a session as the sheet sees it: its columns, result and payments."""

    label: str | None
    columns: tuple[_Column, ...]
    tally: engine.Tally
    payments: tuple[engine.Payment, ...]

    def group(self, labelled: bool = True) -> Group:
        """The game's columns on the sheet; a game with a table of its own (a match's, a
        chouette's) has its label above the table, not above its columns."""
        labels = {column.key: column.label for column in self.columns}
        return Group(
            self.label if labelled else None,
            tuple(labels.values()),
            self.tally.closed,
            labels.get(self.tally.winner) if self.tally.winner is not None else None,
            self.tally.net,
            self.tally.shutout,
        )

    def result(self) -> GameResult:
        return GameResult(
            self.label,
            tuple((c.label, self.tally.players[c.key].total) for c in self.columns),
            self.tally.closed,
            self.group().winner,
            self.tally.net,
        )


@dataclass(frozen=True)
class _Replay:
    record: Record
    session: Any
    payments: tuple[engine.Payment, ...]
    games: tuple[_Game, ...]


def _replay(record: Record) -> _Replay:
    """Replay a record (RecordError for a bad one) and pair each game with its payments."""
    session = replay(record)
    if record.kind == "chouette":  # a member missing from the stakes plays at the stake
        payments = session.settle(record.stakes or record.stake, default=record.stake)
    else:
        payments = session.settle(record.stake)
    tallies = session.games()
    columns = _columns(record.kind, session)
    labels = _game_labels(record.kind, len(tallies))
    paid = iter(payments)
    games = []
    for number, (tally, cols) in enumerate(zip(tallies, columns, strict=True)):
        count = _payment_count(session, number, tally, len(tallies), len(payments))
        games.append(_Game(labels[number], cols, tally, tuple(next(paid) for _ in range(count))))
    if next(paid, None) is not None:  # every payment belongs to exactly one game
        raise AssertionError("payments left over after pairing them with the games")
    return _Replay(record, session, tuple(payments), tuple(games))


def _payment_count(session: Any, number: int, tally: engine.Tally, games: int, total: int) -> int:
    """How many of the session's payments, in order, settle game ``number``."""
    if games == 1:
        return total
    if not tally.closed or tally.net == 0:
        return 0
    if session.kind == "chouette":  # the box settles with each member of that game's team
        return len(session.game_roles()[number].team)
    return 1  # Hollywood and match: one payment per closed game


def _game_labels(kind: str, count: int) -> list[str | None]:
    if kind in ("hollywood", "match", "chouette"):
        return [_("Game %(number)s") % {"number": n} for n in range(1, count + 1)]
    return [None] * count


def _columns(kind: str, session: Any) -> list[tuple[_Column, ...]]:
    """Each game's columns: the tally key, the label and who settles as the column."""
    players = session.players
    if kind == "partnership":
        teams = zip(session.team_names, session.teams, strict=True)
        return [tuple(_Column(name, name, members) for name, members in teams)]
    if kind == "chouette":
        return [
            (
                _Column(roles.box, roles.box, (roles.box,)),
                _Column(TEAM, _("Team"), tuple(roles.team)),
            )
            for roles in session.game_roles()
        ]
    single = tuple(_Column(name, name, (name,)) for name in players)
    return [single] * len(session.games())


def score_sheet(
    record: Record, *, title: str | None = None, played_on: date | None = None
) -> ScoreSheet:
    """The score sheet of a game record of any kind; RecordError for a bad record."""
    played = _replay(record)
    session = played.session
    build = _PARTS[record.kind]
    parts = build(played)
    owed = balances(record.players, list(played.payments), record.rules.money_unit)
    return ScoreSheet(
        title=title if title is not None else _default_title(session),
        kind=record.kind,
        kind_label=kind_label(record.kind),
        played_on=played_on,
        players=record.players,
        rules=rules_text(record.rules, record.kind),
        stake=record.stake,
        stakes=tuple(
            (name, record.stakes[name]) for name in record.players if name in record.stakes
        ),
        upcards=record.rules.is_oklahoma,
        parts=parts,
        payments=tuple(
            PaymentLine(game.label, p.payer, p.payee, p.points, p.amount)
            for game in played.games
            for p in game.payments
        ),
        balances=tuple(Balance(name, *owed[name]) for name in record.players),
        transfers=tuple(settle_up({name: amount for name, (_, amount) in owed.items()})),
        notes=_notes(played),
    )


def _default_title(session: Any) -> str:
    names = session.team_names if session.kind == "partnership" else session.players
    return " – ".join(names)


def _play(line: Any) -> Play:
    """A hand line of any kind (a partnership's table line too) as the sheet shows it."""
    hand, score = line.hand, line.score
    scored = hand.kind != engine.HandKind.NO_GAME
    return Play(
        dealer=line.dealer,
        knocker=line.knocker,
        result=str(RESULTS[score.outcome]),
        knocker_deadwood=hand.knocker_deadwood if scored else None,
        defender_deadwood=hand.defender_deadwood if scored else None,
        points=score.points,
        winner=line.winner,
        upcard=card_text(hand.upcard) if hand.upcard is not None else None,
    )


def card_text(card: engine.Card) -> str:
    """A card as players write it: ``10♦``, ``K♠``, ``A♥``."""
    text = str(card)
    return "10" + text[1:] if text.startswith("T") else text


def _cells(line: Any, keys: Sequence[str]) -> tuple[Cell, ...]:
    """(gain, running total) per column; a chouette's team column wins with its captain."""
    winner = line.winner
    if winner is not None and getattr(line, "box_won", None) is False and TEAM in line.points:
        winner = TEAM
    return tuple(
        Cell(line.score.points if winner == key else None, line.points[key]) for key in keys
    )


def _seats(line: Any) -> Seats:
    return Seats(line.roles.box, line.roles.captain, tuple(line.roles.out))


def _part(
    played: _Replay,
    games: Sequence[_Game],
    rows: Iterable[Row],
    title: str | None = None,
    note: str | None = None,
) -> Part:
    return Part(
        title,
        note,
        tuple(game.group(labelled=title is None) for game in games),
        tuple(rows),
        _ending(games, played.record),
    )


def _single_parts(played: _Replay) -> tuple[Part, ...]:
    """Two players, three-player rotation: one game, a column per player."""
    (game,) = played.games
    keys = [column.key for column in game.columns]
    rotation = played.record.kind == "three_player"
    rows = (
        Row(
            line.number,
            (_play(line),),
            _cells(line, keys),
            seats=_seats(line) if rotation else None,
        )
        for line in played.session.lines
    )
    return (_part(played, [game], rows),)


def _hollywood_parts(played: _Replay) -> tuple[Part, ...]:
    """Three games side by side; each hand marks the games it closed."""
    players = played.session.players
    rows = []
    before = (False,) * len(played.games)
    for line in played.session.lines:
        cells = tuple(
            Cell(
                line.score.points if line.winner == name and g in line.entered else None,
                line.points[g][name],
            )
            for g in range(len(played.games))
            for name in players
        )
        closes = tuple(g + 1 for g, now in enumerate(line.closed) if now and not before[g])
        rows.append(Row(line.number, (_play(line),), cells, closes=closes))
        before = line.closed
    return (_part(played, played.games, rows),)


def _partnership_parts(played: _Replay) -> tuple[Part, ...]:
    """Two team columns; each round shows both tables."""
    (game,) = played.games
    keys = [column.key for column in game.columns]
    rows = (
        Row(
            line.number,
            tuple(_play(table) for table in line.tables),
            tuple(Cell(line.gained.get(key) or None, line.points[key]) for key in keys),
        )
        for line in played.session.lines
    )
    return (_part(played, [game], rows),)


def _game_by_game_parts(played: _Replay) -> tuple[Part, ...]:
    """Match and chouette: the games in sequence, each a table of its own."""
    chouette = played.record.kind == "chouette"
    parts = []
    for number, game in enumerate(played.games, start=1):
        keys = [column.key for column in game.columns]
        lines = [line for line in played.session.lines if line.game == number]
        rows = (
            Row(
                line.number,
                (_play(line),),
                _cells(line, keys),
                seats=_seats(line) if chouette else None,
            )
            for line in lines
        )
        note = None
        if chouette:
            box, team = game.columns
            note = _("%(box)s in the box against %(team)s") % {
                "box": box.label,
                "team": ", ".join(team.members),
            }
        parts.append(_part(played, [game], rows, title=game.label, note=note))
    return tuple(parts)


_PARTS: dict[str, Callable[[_Replay], tuple[Part, ...]]] = {
    "two_player": _single_parts,
    "three_player": _single_parts,
    "hollywood": _hollywood_parts,
    "partnership": _partnership_parts,
    "match": _game_by_game_parts,
    "chouette": _game_by_game_parts,
}


def _ending(games: Sequence[_Game], record: Record) -> tuple[EndLine, ...]:
    """The lines under the hands: points and boxes, then for closed games each end bonus
    on its own line, the total, the net and the money; a running game shows its points."""
    cells = [(game, column) for game in games for column in game.columns]
    closed = any(game.tally.closed for game in games)

    def line(
        label: str,
        value: Callable[[_Game, _Column], Any],
        *,
        ended: bool = True,
        strong: bool = False,
        signed: bool = False,
    ) -> EndLine:
        values = tuple(
            value(game, column) if game.tally.closed or not ended else None
            for game, column in cells
        )
        return EndLine(label, values, strong, signed)

    def final(attribute: str) -> Callable[[_Game, _Column], int]:
        return lambda game, column: getattr(game.tally.players[column.key], attribute)

    lines = [
        line(_("Points"), final("points"), ended=False),
        line(_("Boxes"), final("boxes"), ended=False),
    ]
    if closed:
        bonus = {"bonus": record.rules.box_bonus}
        lines += [
            line(_("Box bonus (%(bonus)s each)") % bonus, final("box_bonus")),
            line(_("Game bonus"), final("game_bonus")),
        ]
        if any(game.tally.shutout for game in games):
            lines.append(line(_("Shutout"), final("shutout_bonus")))
    lines.append(line(_("Total"), final("total"), ended=False, strong=True))
    if closed:
        zero = Decimal(0).quantize(record.rules.money_unit)
        lines.append(
            line(_("Net"), lambda g, c: _settled(g.payments, c.members, "points", 0), signed=True)
        )
        if record.stake or any(record.stakes.values()):
            lines.append(
                line(
                    _("Money"),
                    lambda g, c: _settled(g.payments, c.members, "amount", zero),
                    signed=True,
                )
            )
    return tuple(lines)


def _settled(
    payments: Iterable[engine.Payment], members: Sequence[str], what: str, zero: Any
) -> Any:
    """What each member of a column won (negative: paid) in a game's payments; None when
    they differ (a chouette team whose members play at their own stakes)."""
    sums = set()
    for member in members:
        total = zero
        for p in payments:
            if member == p.payee:
                total += getattr(p, what)
            elif member == p.payer:
                total -= getattr(p, what)
        sums.add(total)
    return sums.pop() if len(sums) == 1 else None


def _notes(played: _Replay) -> tuple[str, ...]:
    notes = []
    session = played.session
    if played.record.kind == "match":
        won = session.games_won()
        standing = ", ".join(f"{name} {count}" for name, count in won.items())
        notes.append(
            _("Best of %(best_of)s: %(standing)s.")
            % {"best_of": played.record.rules.best_of, "standing": standing}
        )
        if session.winner is not None:
            notes.append(_("%(winner)s wins the match.") % {"winner": session.winner})
    if any(not game.tally.closed for game in played.games):
        notes.append(_("A game still running has no end bonuses yet."))
    return tuple(notes)


# Evenings


def evening_sheet(
    parties: Sequence[tuple[str, Record]],
    transfers: Sequence[Transfer],
    *,
    name: str,
    played_on: date | None,
) -> EveningSheet:
    """Every partie of an evening with its result, each player's net and the transfers
    that settle up (as given: the evening may carry debts the records do not show)."""
    results = []
    points: dict[str, int] = {}
    money: dict[str, Decimal] = {}
    for title, record in parties:
        played = _replay(record)
        owed = balances(record.players, list(played.payments), record.rules.money_unit)
        for player, (won, amount) in owed.items():
            points[player] = points.get(player, 0) + won
            money[player] = money.get(player, Decimal(0)) + amount
        results.append(
            PartieResult(
                title,
                kind_label(record.kind),
                record.players,
                tuple(game.result() for game in played.games),
                tuple(Balance(player, *owed[player]) for player in record.players),
            )
        )
    return EveningSheet(
        name,
        played_on,
        tuple(results),
        tuple(Balance(player, points[player], money[player]) for player in sorted(points)),
        tuple(transfers),
    )


# Score pads

PAD_KINDS = ("two_player", "hollywood", "chouette")
# Paper sizes in points (1/72 inch), portrait.
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
GAMES_PER_PAGE = {"two_player": 2, "hollywood": 1, "chouette": 2}

# The pad's geometry, in points; the renderer draws with these very figures, so the
# lines counted here fill the page exactly.
PAD_MARGIN = 36.0
PAD_ROW = 16.0  # a hand line, tall enough to write on
PAD_NAME_ROW = 20.0  # the header line where the players' names are written
PAD_LABEL_ROW = 13.0  # a printed header line (Hollywood's game labels)
PAD_TITLE = 26.0  # the pad's title line
PAD_RULE_ROW = 11.0  # one line of the rules block, which has PAD_RULE_COLUMNS rules a line
PAD_RULE_COLUMNS = 3
PAD_GAME_TITLE = 18.0  # "Game ___  Date ________" above each game
PAD_GAP = 12.0  # space after the rules and after each game
PAD_FOOTER = 18.0
PAD_FEWEST_LINES = 5


class PadError(ValueError):
    """A pad that cannot be printed: an unknown kind or paper, too many games a page."""


def score_pad(
    kind: str,
    rules: engine.Ruleset,
    *,
    paper: str = "a4",
    games_per_page: int | None = None,
) -> ScorePad:
    """A blank pad for two players, Hollywood or chouette, with the rules at the top.

    >>> pad = score_pad("hollywood", engine.preset("hollywood"))
    >>> pad.games_per_page, pad.lines_per_game, [group.label for group in pad.groups]
    (1, 32, ['Game 1', 'Game 2', 'Game 3'])
    >>> score_pad("partnership", engine.preset("classic"))
    Traceback (most recent call last):
    ...
    scorekeeper.sheets.data.PadError: no score pad for 'partnership': choose one of \
two_player, hollywood, chouette
    """
    if kind not in PAD_KINDS:
        raise PadError(f"no score pad for {kind!r}: choose one of {', '.join(PAD_KINDS)}")
    if paper not in PAPERS:
        raise PadError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
    per_page = GAMES_PER_PAGE[kind] if games_per_page is None else games_per_page
    if isinstance(per_page, bool) or not isinstance(per_page, int) or per_page < 1:
        raise PadError(f"games per page must be a whole number from 1, not {per_page!r}")
    text = rules_text(rules, kind)
    groups = _pad_groups(kind)
    ending = _pad_ending(rules)
    lines = pad_lines(paper, per_page, len(text.lines), bool(groups[0].label), len(ending))
    if lines < PAD_FEWEST_LINES:
        raise PadError(
            f"{per_page} games a page leave {max(lines, 0)} lines a game: "
            f"print fewer games a page (each needs {PAD_FEWEST_LINES} lines at least)"
        )
    hand_columns = ["#", _("Captain") if kind == "chouette" else _("Dealer")]
    if rules.is_oklahoma:
        hand_columns.append(_("Upcard"))
    return ScorePad(
        kind=kind,
        kind_label=kind_label(kind),
        title=_("Gin rummy score pad: %(kind)s") % {"kind": kind_label(kind)},
        paper=paper,
        rules=text,
        hand_columns=tuple(hand_columns),
        groups=groups,
        ending=ending,
        games_per_page=per_page,
        lines_per_game=lines,
    )


def _pad_groups(kind: str) -> tuple[PadGroup, ...]:
    if kind == "hollywood":
        return tuple(PadGroup(_("Game %(number)s") % {"number": n}, ("", "")) for n in (1, 2, 3))
    if kind == "chouette":
        return (PadGroup(None, (_("Box"), _("Team"))),)
    return (PadGroup(None, ("", "")),)


def _pad_ending(rules: engine.Ruleset) -> tuple[str, ...]:
    lines = [
        _("Boxes"),
        _("Box bonus (%(bonus)s each)") % {"bonus": rules.box_bonus},
        _("Game bonus (%(bonus)s)") % {"bonus": rules.game_bonus},
    ]
    if rules.shutout == engine.Shutout.BONUS:
        lines.append(_("Shutout (%(rule)s)") % {"rule": rules.shutout_bonus})
    elif rules.shutout != engine.Shutout.NONE:
        lines.append(_("Shutout (%(rule)s)") % {"rule": CHOICE_WORDS["shutout"][rules.shutout]})
    lines.append(_("Total"))
    return tuple(lines)


def pad_rules_height(rules: int) -> float:
    """The height of the pad's title and rules block, with the gap after it: the
    preset's name, then the ``rules``, PAD_RULE_COLUMNS a line."""
    return PAD_TITLE + pad_rule_lines(rules) * PAD_RULE_ROW + PAD_GAP


def pad_rule_lines(rules: int) -> int:
    return math.ceil((1 + rules) / PAD_RULE_COLUMNS)


def pad_lines(paper: str, games: int, rules: int, labelled: bool, ending: int) -> int:
    """How many hand lines each of ``games`` blank games gets on a page of ``paper``."""
    height = PAPERS[paper][1] - 2 * PAD_MARGIN - PAD_FOOTER - pad_rules_height(rules)
    header = PAD_NAME_ROW + (PAD_LABEL_ROW if labelled else 0)
    per_game = height / games - PAD_GAME_TITLE - header - ending * PAD_ROW - PAD_GAP
    return math.floor(per_game / PAD_ROW)
