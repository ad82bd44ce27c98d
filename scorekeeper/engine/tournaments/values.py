"""The values of a tournament: what is played (``TournamentPlan``), and what it comes to after
its results (``State``: matches, standings, the Swiss table), frozen, for the command,
the pages and the PDFs alike."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from ..record import Problem, Problems


class System(Enum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class Stage(Enum):
    """The part of a tournament a match belongs to, in the order a page shows them."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"
    THIRD_PLACE = "third_place"
    CONSOLATION = "consolation"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    TOP_CUT = "top_cut"


class TournamentError(ValueError):
    """A tournament or a result that cannot be taken; ``errors`` holds one English line
    per problem, ``problems`` each line's code and parameters."""

    def __init__(self, errors: list[str], problems: list[Problem] | None = None):
        super().__init__("\n".join(errors))
        self.errors = errors
        self.problems = problems if problems is not None else [("", {}) for _ in errors]

    @classmethod
    def of(cls, problems: Problems) -> TournamentError:
        return cls(problems.errors, problems.problems)


@dataclass(frozen=True)
class TournamentPlan:
    """What is played: the system, the players in seed order (best first) and the
    system's options. ``rounds`` and ``top_cut`` (0: none) are Swiss's; ``third_place``
    and ``consolation`` single elimination's; ``seed`` breaks ties the same way every
    time. ``tournament_problems`` says what is wrong with one."""

    system: System
    players: tuple[str, ...]
    rounds: int = 0
    top_cut: int = 0
    third_place: bool = False
    consolation: bool = False
    seed: int = 0
    name: str = ""

    def round_name(self, stage: Stage, number: int) -> RoundName:
        """What people call round ``number`` of ``stage``: a knockout's rounds by the
        players left in the bracket (the final, the semi-finals, the quarter-finals, the
        round of 16, ...), the losers' bracket's last round its final, the others by
        their number.

        >>> cup = TournamentPlan(System.SINGLE_ELIMINATION, tuple("ABCDEFGHIJ"))
        >>> [str(cup.round_name(Stage.WINNERS, n)) for n in (1, 2, 3, 4)]
        ['Round of 16', 'Quarter-finals', 'Semi-finals', 'Final']
        >>> double = TournamentPlan(System.DOUBLE_ELIMINATION, tuple("ABCDEFGH"))
        >>> [str(double.round_name(Stage.LOSERS, n)) for n in (1, 4)]
        ["Losers' round 1", "Losers' final"]
        >>> str(double.round_name(Stage.WINNERS, 3))
        "Winners' final"
        """
        size = 0
        if stage is Stage.WINNERS:
            size = max(2, 1 << (len(self.players) - 1).bit_length())
        elif stage is Stage.TOP_CUT:
            size = self.top_cut
        if size:
            left = size >> (number - 1)  # the players this round of the bracket holds
            kind = _KNOCKOUT_ROUNDS.get(left, "round_of")
            winners = self.system is System.DOUBLE_ELIMINATION
            return RoundName(kind, left if kind == "round_of" else 0, winners)
        if stage is Stage.LOSERS:
            size = max(2, 1 << (len(self.players) - 1).bit_length())
            last = 2 * (size.bit_length() - 2)  # the losers' bracket's rounds
            return (
                RoundName("losers_final") if number == last else RoundName("losers_round", number)
            )
        if stage is Stage.CONSOLATION:
            return RoundName("consolation_round", number)
        if stage in (Stage.ROUND_ROBIN, Stage.SWISS):
            return RoundName("round", number)
        return RoundName(stage.value)  # grand_final, grand_final_reset, third_place


_KNOCKOUT_ROUNDS = {2: "final", 4: "semi_finals", 8: "quarter_finals"}


@dataclass(frozen=True)
class RoundName:
    """A round as people call it, in no language: ``kind`` is ``final``,
    ``semi_finals``, ``quarter_finals``, ``round_of`` (``number``: the players it
    holds, 16, 32, ...), ``round``, ``losers_round``, ``consolation_round`` (``number``:
    the round's), ``losers_final``, ``grand_final``, ``grand_final_reset`` or
    ``third_place``; ``winners``: a knockout round of a double elimination's winners'
    bracket. ``str()`` gives the English (the pages translate it: vocabulary.round_title)."""

    kind: str
    number: int = 0
    winners: bool = False

    def __str__(self) -> str:
        text = {
            "final": "Final",
            "semi_finals": "Semi-finals",
            "quarter_finals": "Quarter-finals",
            "round_of": "Round of {n}",
            "round": "Round {n}",
            "losers_round": "Losers' round {n}",
            "losers_final": "Losers' final",
            "grand_final": "Grand final",
            "grand_final_reset": "Grand final (reset)",
            "third_place": "Third place",
            "consolation_round": "Consolation round {n}",
        }[self.kind].format(n=self.number)
        if self.winners:
            return f"Winners' {text[0].lower()}{text[1:]}"
        return text


@dataclass(frozen=True)
class Withdrawal:
    """A player who withdrew once ``after`` results had been given (0: before the
    first). A round paired after it leaves him out (a Swiss round, a top cut seeded
    after it); the matches he was still to play are forfeited (``State.forfeits``): the
    results say so, as they say every other winner."""

    player: str
    after: int


@dataclass(frozen=True)
class MatchWinner:
    """A match's winner as entered; ``winner`` None voids the match's result."""

    match: str
    winner: str | None


@dataclass(frozen=True)
class MatchState:
    """One match of the state. ``players``: its two seats (a bracket's upper seat first;
    a round's better seed or place first), None where the player is not known yet; a
    bye has one seat, and its player as ``winner`` once known."""

    id: str
    stage: Stage
    round: int
    players: tuple[str | None, ...]
    winner: str | None = None
    bye: bool = False

    @property
    def playable(self) -> bool:
        """Both players known, no winner yet."""
        return not self.bye and self.winner is None and None not in self.players

    @property
    def loser(self) -> str | None:
        if self.bye or self.winner is None:
            return None
        return next(p for p in self.players if p != self.winner)

    def label(self) -> str:
        """``W1-2 (Ben v Gus)``, as a message names the match."""
        names = " v ".join(p or "?" for p in self.players)
        return f"{self.id} ({names})"


@dataclass(frozen=True)
class Place:
    """A place of the final standings and the players who share it."""

    place: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class SwissLine:
    """A line of the Swiss table, in the Swiss order: score (a win or a bye counts 1),
    then Buchholz (the sum of the opponents' scores), then head-to-head, then the seed."""

    place: int
    player: str
    score: int
    buchholz: int
    byes: int
    opponents: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class State:
    """A tournament after its results: every match known so far, in the order it is
    played; the champion and the standings once every match is played; the Swiss table
    (Swiss only), live; the players withdrawn, in the order they withdrew (they keep
    their places in the standings and the Swiss table)."""

    tournament: TournamentPlan
    matches: tuple[MatchState, ...]
    champion: str | None
    standings: tuple[Place, ...]
    swiss_table: tuple[SwissLine, ...] = field(default=())
    withdrawn: tuple[str, ...] = field(default=())

    def is_over(self) -> bool:
        """Every match played (a round robin's first place may still be shared)."""
        return bool(self.standings)

    def match(self, match_id: str) -> MatchState | None:
        return self._by_id.get(match_id)

    @cached_property
    def _by_id(self) -> dict[str, MatchState]:
        # A round robin of 128 has 8,128 matches: each looked up without a search.
        return {m.id: m for m in self.matches}

    def playable(self) -> list[MatchState]:
        return [m for m in self.matches if m.playable]

    def forfeits(self) -> list[MatchWinner]:
        """The results the withdrawals give now: each playable match of a withdrawn
        player goes to his opponent (both withdrawn: to the upper seat). Entered, they
        may make more matches playable, and give more forfeits."""
        out = set(self.withdrawn)
        results = []
        for match in self.playable():
            if out.intersection(match.players):
                stays = [p for p in match.players if p not in out] or [match.players[0]]
                results.append(MatchWinner(match.id, stays[0]))
        return results

    def round_name(self, stage: Stage, number: int) -> RoundName:
        return self.tournament.round_name(stage, number)

    def stages(self) -> list[Stage]:
        """The stages that hold a match, in the order of ``Stage``."""
        held = {m.stage for m in self.matches}
        return [stage for stage in Stage if stage in held]

    def rounds(self, stage: Stage) -> Iterator[tuple[int, list[MatchState]]]:
        """A stage's rounds, in order, each with its matches (a page's columns)."""
        numbers = sorted({m.round for m in self.matches if m.stage is stage})
        for number in numbers:
            yield number, [m for m in self.matches if m.stage is stage and m.round == number]
