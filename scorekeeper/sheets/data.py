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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import engine
from scorekeeper.engine import Cell, league
from scorekeeper.engine.record import Record, replay
from scorekeeper.engine.settlement import Transfer, balances, settle_up
from scorekeeper.vocabulary import (
    STANDINGS_COLUMNS,
    box_note,
    column_name,
    foot_label,
    game_name,
    kind_name,
    outcome_name,
    preset_name,
    rule_label,
    rule_words,
    rules_to_name,
)

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
    who: tuple[engine.Who, ...]  # what a hand line says of who played it (the engine's)
    lines_per_row: int  # a partnership round: a line per table
    parts: tuple[Part, ...]
    payments: tuple[PaymentLine, ...]
    balances: tuple[Balance, ...]
    transfers: tuple[Transfer, ...]  # the fewest transfers that settle the balances
    notes: tuple[str, ...] = ()

    @property
    def for_money(self) -> bool:
        return bool(self.stake) or any(stake for _, stake in self.stakes)


@dataclass(frozen=True)
class GameSummary:
    """One game of a partie in an evening: the columns' totals and the winner."""

    label: str | None
    totals: tuple[tuple[str, int], ...]
    closed: bool
    winner: str | None
    net: int


@dataclass(frozen=True)
class PartieSummary:
    title: str
    kind_label: str
    players: tuple[str, ...]
    games: tuple[GameSummary, ...]
    balances: tuple[Balance, ...]  # what the partie moved, per player


@dataclass(frozen=True)
class Debt:
    """An open debt of an earlier evening, carried into this one's settle-up."""

    payer: str
    payee: str
    amount: Decimal
    evening: str  # the evening that left it open
    played_on: date | None = None


@dataclass(frozen=True)
class SettleLine:
    """One transfer that settles an evening up; once settled, whether it is paid."""

    payer: str
    payee: str
    amount: Decimal
    paid: bool | None = None  # None: not settled up yet
    carried_to: str | None = None  # unpaid, taken over by the players' next evening

    @property
    def state(self) -> str:
        """'paid', 'open' or 'carried to <evening>'; nothing before the evening is settled."""
        if self.paid is None:
            return ""
        if self.paid:
            return _("paid")
        if self.carried_to:
            return _("carried to %(evening)s") % {"evening": self.carried_to}
        return _("open")


@dataclass(frozen=True)
class EveningSheet:
    """An evening's tally in the order it adds up: the parties, this evening's balances,
    the debts carried in, and the transfers that settle both."""

    name: str
    played_on: date | None
    parties: tuple[PartieSummary, ...]
    balances: tuple[Balance, ...]  # each player's net over this evening's parties, by name
    transfers: tuple[SettleLine, ...]
    debts: tuple[Debt, ...] = ()

    @property
    def settled(self) -> bool:
        return any(line.paid is not None for line in self.transfers)


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
    session = engine.session_class(kind)
    shown = [
        name
        for name in engine.PARAMETERS
        if name in changed or (session.plays_rule(name) and _matters(name, rules))
    ]
    # "Shutout bonus 100" says the shutout rule too: changed when either is.
    changed_too = {"shutout_bonus"} if "shutout" in changed else set()
    changed_names = set(changed) | changed_too
    lines = tuple(
        RuleLine(rule_label(name), rule_words(name, values[name]), name in changed_names)
        for name in rules_to_name(shown, rules)
    )
    return RulesText(preset_name(rules.preset), lines)


def _matters(name: str, rules: engine.Ruleset) -> bool:
    """Whether a rule is worth printing even at its preset's value."""
    return {
        "tie_is_undercut": not rules.tie_is_undercut,
        "shutout_bonus": rules.shutout == engine.Shutout.BONUS,
        "spade_double": rules.is_oklahoma,
        "oklahoma_ace": rules.is_oklahoma,
        "extra_boxes_gin": rules.extra_boxes_gin > 0,
        "extra_boxes_undercut": rules.extra_boxes_undercut > 0,
        "round_the_corner": rules.round_the_corner,
        "money_unit": False,
    }.get(name, True)


# Score sheets


def score_sheet(
    record: Record, *, title: str | None = None, played_on: date | None = None
) -> ScoreSheet:
    """The score sheet of a game record of any kind; RecordError for a bad record."""
    session = replay(record)
    parts = session.parts(record.stake, record.stakes)
    return sheet_of(record, session, parts, title=title, played_on=played_on)


def sheet_of(
    record: Record,
    session: engine.Session,
    parts: Sequence[engine.Part],
    *,
    title: str | None = None,
    played_on: date | None = None,
) -> ScoreSheet:
    """The sheet in words, from the engine's description of the replayed session."""
    games = [game for part in parts for game in part.games]
    payments = [payment for game in games for payment in game.payments]
    owed = balances(record.players, payments, record.rules.money_unit)
    for_money = bool(record.stake) or any(record.stakes.values())
    return ScoreSheet(
        title=title if title is not None else " – ".join(session.heading),
        kind=record.kind,
        kind_label=kind_name(record.kind),
        played_on=played_on,
        players=record.players,
        rules=rules_text(record.rules, record.kind),
        stake=record.stake,
        stakes=tuple(
            (name, record.stakes[name]) for name in record.players if name in record.stakes
        ),
        upcards=record.rules.is_oklahoma,
        who=session.who_columns(),
        lines_per_row=session.hands_per_entry,
        parts=tuple(sheet_part(part, record.rules, for_money) for part in parts),
        payments=tuple(
            PaymentLine(_game_label(session, game), p.payer, p.payee, p.points, p.amount)
            for game in games
            for p in game.payments
        ),
        balances=tuple(Balance(name, *owed[name]) for name in record.players),
        transfers=tuple(settle_up({name: amount for name, (_, amount) in owed.items()})),
        notes=_notes(session, games),
    )


def _game_label(session: engine.Session, game: engine.GameSheet) -> str | None:
    return game_name(game.number) if session.numbered else None


def sheet_part(part: engine.Part, rules: engine.Ruleset, for_money: bool) -> Part:
    """One table of the sheet in words: its title, note, column groups, rows and ending."""
    title = game_name(part.games[0].number) if part.titled else None
    return Part(
        title,
        box_note(part),
        tuple(_group(game, part.labelled) for game in part.games),
        tuple(
            Row(
                row.number,
                tuple(_play(play) for play in row.plays),
                row.cells,
                seats=_seats(row.roles) if row.roles else None,
                closes=row.closes,
            )
            for row in part.rows
        ),
        tuple(
            EndLine(
                foot_label(line.item, rules),
                line.values,
                strong=line.item == engine.Foot.TOTAL,
                signed=line.item in (engine.Foot.NET, engine.Foot.MONEY),
            )
            for line in engine.foot_lines(part.games, for_money, rules.money_unit)
        ),
    )


def _group(game: engine.GameSheet, labelled: bool) -> Group:
    tally = game.tally
    winner = next((c for c in game.columns if c.key == tally.winner), None)
    return Group(
        game_name(game.number) if labelled else None,
        tuple(column_name(column) for column in game.columns),
        tally.closed,
        column_name(winner) if winner else None,
        tally.net,
        tally.shutout,
    )


def _play(line: engine.Play) -> Play:
    """A hand line of any kind (a partnership's table line too) as the sheet shows it."""
    hand, score = line.hand, line.score
    scored = hand.kind != engine.HandKind.NO_GAME
    return Play(
        dealer=line.dealer,
        knocker=line.knocker,
        result=outcome_name(score.outcome),
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


def _seats(roles: engine.Roles) -> Seats:
    return Seats(roles.box, roles.captain, tuple(roles.out))


def _notes(session: engine.Session, games: Sequence[engine.GameSheet]) -> tuple[str, ...]:
    notes = []
    standing = session.standing()
    if standing is not None:
        score = ", ".join(f"{name} {count}" for name, count in standing.games_won.items())
        notes.append(
            _("Best of %(best_of)s: %(standing)s.")
            % {"best_of": standing.best_of, "standing": score}
        )
        if standing.winner is not None:
            notes.append(_("%(winner)s wins the match.") % {"winner": standing.winner})
    if any(not game.tally.closed for game in games):
        notes.append(_("A game still running has no end bonuses yet."))
    return tuple(notes)


# Evenings


def evening_sheet(
    parties: Sequence[tuple[str, Record]],
    transfers: Sequence[Transfer | SettleLine],
    *,
    name: str,
    played_on: date | None,
    debts: Sequence[Debt] = (),
) -> EveningSheet:
    """Every partie of an evening with its result, each player's net over them, the debts
    carried in from earlier evenings and the transfers that settle up (as given: they
    settle the nets and the debts together)."""
    results = []
    points: dict[str, int] = {}
    money: dict[str, Decimal] = {}
    for title, record in parties:
        session = replay(record)
        games = session.game_sheets(record.stake, record.stakes)
        payments = [payment for game in games for payment in game.payments]
        owed = balances(record.players, payments, record.rules.money_unit)
        for player, (won, amount) in owed.items():
            points[player] = points.get(player, 0) + won
            money[player] = money.get(player, Decimal(0)) + amount
        results.append(
            PartieSummary(
                title,
                kind_name(record.kind),
                record.players,
                tuple(_summary(session, game) for game in games),
                tuple(Balance(player, *owed[player]) for player in record.players),
            )
        )
    return EveningSheet(
        name,
        played_on,
        tuple(results),
        tuple(Balance(player, points[player], money[player]) for player in sorted(points)),
        tuple(
            t if isinstance(t, SettleLine) else SettleLine(t.payer, t.payee, t.amount)
            for t in transfers
        ),
        tuple(debts),
    )


def _summary(session: engine.Session, game: engine.GameSheet) -> GameSummary:
    group = _group(game, labelled=False)
    return GameSummary(
        _game_label(session, game),
        tuple(
            (label, game.tally.players[column.key].total)
            for label, column in zip(group.columns, game.columns, strict=True)
        ),
        game.tally.closed,
        group.winner,
        game.tally.net,
    )


# Score pads


@dataclass(frozen=True)
class _PadLayout:
    """A kind's blank pad: games a page, what each hand line starts with, the games side
    by side and each one's column heads (empty: a name to write in)."""

    games_per_page: int
    hand_column: Promise
    games: int
    columns: tuple[Promise | str, ...]


PAD_LAYOUTS = {
    "two_player": _PadLayout(2, gettext_lazy("Dealer"), 1, ("", "")),
    "hollywood": _PadLayout(1, gettext_lazy("Dealer"), 3, ("", "")),
    "chouette": _PadLayout(
        2, gettext_lazy("Captain"), 1, (gettext_lazy("Box"), gettext_lazy("Team"))
    ),
}
PAD_KINDS = tuple(PAD_LAYOUTS)
# Paper sizes in points (1/72 inch), portrait.
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}

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
    layout = PAD_LAYOUTS[kind]
    per_page = layout.games_per_page if games_per_page is None else games_per_page
    if isinstance(per_page, bool) or not isinstance(per_page, int) or per_page < 1:
        raise PadError(f"games per page must be a whole number from 1, not {per_page!r}")
    text = rules_text(rules, kind)
    groups = _pad_groups(layout)
    ending = _pad_ending(rules)
    lines = pad_lines(paper, per_page, len(text.lines), bool(groups[0].label), len(ending))
    if lines < PAD_FEWEST_LINES:
        raise PadError(
            f"{per_page} games a page leave {max(lines, 0)} lines a game: "
            f"print fewer games a page (each needs {PAD_FEWEST_LINES} lines at least)"
        )
    hand_columns = ["#", str(layout.hand_column)]
    if rules.is_oklahoma:
        hand_columns.append(_("Upcard"))
    return ScorePad(
        kind=kind,
        kind_label=kind_name(kind),
        title=_("Gin rummy score pad: %(kind)s") % {"kind": kind_name(kind)},
        paper=paper,
        rules=text,
        hand_columns=tuple(hand_columns),
        groups=groups,
        ending=ending,
        games_per_page=per_page,
        lines_per_game=lines,
    )


def _pad_groups(layout: _PadLayout) -> tuple[PadGroup, ...]:
    columns = tuple(str(column) for column in layout.columns)
    if layout.games == 1:
        return (PadGroup(None, columns),)
    return tuple(PadGroup(game_name(n), columns) for n in range(1, layout.games + 1))


def _pad_ending(rules: engine.Ruleset) -> tuple[str, ...]:
    lines = [
        _("Boxes"),
        _("Box bonus (%(bonus)s each)") % {"bonus": rules.box_bonus},
        _("Game bonus (%(bonus)s)") % {"bonus": rules.game_bonus},
    ]
    if rules.shutout == engine.Shutout.BONUS:
        lines.append(_("Shutout (%(rule)s)") % {"rule": rules.shutout_bonus})
    elif rules.shutout != engine.Shutout.NONE:
        lines.append(_("Shutout (%(rule)s)") % {"rule": rule_words("shutout", rules.shutout)})
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


# Standings


@dataclass(frozen=True)
class StandingsLine:
    """One player's line of the printed standings; the hand statistics are None when
    the sheet has none."""

    rank: int | None  # None: fewer counted games than the season asks (printed "–")
    player: str
    games: int
    won: int
    lost: int
    shutout_wins: int
    league_points: int
    net_points: int  # printed signed
    money: Decimal  # printed signed, with the money's own places
    rating: float  # the ordinal, mu − 3·sigma, to one decimal
    mu: float
    sigma: float
    hands: int | None = None
    gins: int | None = None
    undercuts: int | None = None
    points_per_hand_won: float | None = None  # to one decimal; None: no hand won


@dataclass(frozen=True)
class Meeting:
    """One cell of the head-to-head: the row's player against the column's."""

    won: int
    lost: int
    net_points: int  # the settlement points between them, to the row's player

    @property
    def score(self) -> str:
        return f"{self.won}–{self.lost}"


@dataclass(frozen=True)
class StandingsSheet:
    title: str
    subtitle: str | None  # the season's dates and points formula, as the caller words it
    printed_on: date | None
    columns: tuple[str, ...]  # StandingsLine's field names, left to right
    headings: tuple[str, ...]  # the columns in words
    lines: tuple[StandingsLine, ...]  # in the standings' order
    matrix: tuple[tuple[Meeting | None, ...], ...]  # players × players; None: never met
    note: str | None = None  # why some players have no rank

    @property
    def players(self) -> tuple[str, ...]:
        """The head-to-head's rows and columns: the players in the standings' order."""
        return tuple(line.player for line in self.lines)


# The standings' columns, left to right; the hand statistics come last, when given.
STANDINGS_LINE = (
    "rank",
    "player",
    "games",
    "won",
    "lost",
    "shutout_wins",
    "league_points",
    "net_points",
    "money",
    "rating",
)
STANDINGS_STATS = ("hands", "gins", "undercuts", "points_per_hand_won")


def standings_sheet(
    *,
    title: str,
    subtitle: str | None,
    standings: engine.Standings,
    stats: Mapping[str, engine.HandStats] | None = None,
    printed_on: date | None = None,
) -> StandingsSheet:
    """The standings of a season to print: a line per player in the standings' order,
    with his hand statistics when ``stats`` has them, and the head-to-head.

    >>> game = engine.GameResult(1, ("Anna",), ("Ben",), False, (("Anna",), ("Ben",)), (1, 2),
    ...                          (engine.Payment("Ben", "Anna", 175, Decimal("8.75")),))
    >>> table = engine.standings([game], [])
    >>> sheet = standings_sheet(title="Autumn", subtitle=None, standings=table)
    >>> [(line.rank, line.player, line.net_points, line.money) for line in sheet.lines]
    [(1, 'Anna', 175, Decimal('8.75')), (2, 'Ben', -175, Decimal('-8.75'))]
    >>> [[cell and (cell.score, cell.net_points) for cell in row] for row in sheet.matrix]
    [[None, ('1–0', 175)], [('0–1', -175), None]]
    """
    columns = STANDINGS_LINE + (STANDINGS_STATS if stats is not None else ())
    players = [line.player for line in standings.lines]
    meetings = standings.head_to_head
    return StandingsSheet(
        title=title,
        subtitle=subtitle,
        printed_on=printed_on,
        columns=columns,
        headings=tuple(str(STANDINGS_COLUMNS[column]) for column in columns),
        lines=tuple(
            _standings_line(line, None if stats is None else stats.get(line.player))
            for line in standings.lines
        ),
        matrix=tuple(
            tuple(_meeting(meetings.get(one, {}).get(other)) for other in players)
            for one in players
        ),
        note=(
            _("Players with fewer counted games are listed unranked.")
            if any(line.rank is None for line in standings.lines)
            else None
        ),
    )


def _standings_line(line: league.Line, stats: engine.HandStats | None) -> StandingsLine:
    rating = line.rating
    hands: dict[str, int | float | None] = {}
    if stats is not None:
        per_hand = stats.points_per_hand_won
        hands = {
            "hands": stats.hands,
            "gins": stats.gins,
            "undercuts": stats.undercuts,
            "points_per_hand_won": None if per_hand is None else _tenths(per_hand),
        }
    return StandingsLine(
        rank=line.rank,
        player=line.player,
        games=line.games,
        won=line.won,
        lost=line.lost,
        shutout_wins=line.shutout_wins,
        league_points=line.league_points,
        net_points=line.net_points,
        money=line.money,
        rating=_tenths(rating.ordinal),
        mu=rating.mu,
        sigma=rating.sigma,
        **hands,
    )


def _tenths(value: float) -> float:
    # + 0.0 turns the -0.0 of a small negative into 0.0, which prints without a sign.
    return round(value, 1) + 0.0


def _meeting(met: engine.HeadToHead | None) -> Meeting | None:
    return None if met is None else Meeting(met.won, met.lost, met.net_points)
