"""A tournament played out: its results entered in order, checked one by one, and the
state they come to.

Each system knows its matches after the winners given so far, which later matches
follow from a result (a correction must wait until those are voided), and its final
standings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..bounds import MAX_SWISS_ROUNDS, MAX_TOURNAMENT_PLAYERS, name_problem, shorten
from ..record import Problems
from .brackets import NOBODY, Bracket, Slot, double_knockout, knockout
from .rounds import berger_round, swiss_pairs, swiss_table
from .values import (
    MatchState,
    MatchWinner,
    Place,
    Stage,
    State,
    SwissLine,
    System,
    TournamentError,
    TournamentPlan,
    Withdrawal,
)


def most_swiss_rounds(players: int) -> int:
    """As many rounds as keep every opponent new and give nobody a second bye (an odd
    field: one bye a round), within MAX_SWISS_ROUNDS."""
    return min(MAX_SWISS_ROUNDS, players if players % 2 else players - 1)


def player_problems(players: Sequence[str], problems: Problems) -> None:
    """What is wrong with the players of a tournament: their count, a name, a name twice."""
    count = len(players)
    if count < 2:
        problems.add(f"players: a tournament needs at least 2 players, not {count}", "too_few")
    if count > MAX_TOURNAMENT_PLAYERS:
        problems.add(
            f"players: a tournament has at most {MAX_TOURNAMENT_PLAYERS} players, not {count}",
            "too_many",
            most=MAX_TOURNAMENT_PLAYERS,
        )
    seen: set[str] = set()
    for name in players:
        if (trouble := name_problem(name)) is not None:
            problems.add(f"players: {shorten(name)} {trouble}", "bad_name", name=shorten(name))
        elif name in seen:
            problems.add(f"players: {name} is named twice", "name_twice", name=name)
        else:
            seen.add(name)


def tournament_problems(tournament: TournamentPlan) -> Problems:
    """What is wrong with a tournament's players and options, one line each."""
    problems = Problems()
    player_problems(tournament.players, problems)
    count = len(tournament.players)
    swiss = tournament.system is System.SWISS
    if swiss and 2 <= count <= MAX_TOURNAMENT_PLAYERS:
        most = most_swiss_rounds(count)
        if not 1 <= tournament.rounds <= most:
            problems.add(
                f"rounds: {count} players play from 1 to {most} Swiss rounds, "
                f"not {tournament.rounds}",
                "bad_rounds",
                most=most,
            )
        cut = tournament.top_cut
        if cut and (cut < 2 or cut & (cut - 1) or cut > count):
            problems.add(
                f"top_cut: the best 2, 4, 8, ... go on, at most the {count} players, not {cut}",
                "bad_top_cut",
                players=count,
            )
    single = tournament.system is System.SINGLE_ELIMINATION
    for option, value, its in (
        ("rounds", tournament.rounds, swiss),
        ("top_cut", tournament.top_cut, swiss),
        ("third_place", tournament.third_place, single),
        ("consolation", tournament.consolation, single),
    ):
        if value and not its:
            problems.add(
                f"{option}: a {tournament.system.value} has no {option}: leave it out",
                "not_of_system",
                option=option,
            )
    return problems


def tournament_state(
    tournament: TournamentPlan,
    results: Iterable[MatchWinner],
    withdrawals: Iterable[Withdrawal] = (),
) -> State:
    """The state after the results, entered in order (a later result for a match
    corrects it, a winner of None voids it), each withdrawal taken once ``after`` of
    them were entered; the first result refused raises a TournamentError naming it:
    ``result 3: ...``. A withdrawal that names no player of it, names one twice or
    comes after more results than given is refused first, each on a line."""
    play = TournamentPlay(tournament)
    results = list(results)
    withdrawals = list(withdrawals)
    problems = withdrawal_problems(tournament, withdrawals, len(results))
    if problems:
        raise TournamentError.of(problems)
    due: dict[int, list[str]] = {}
    for withdrawal in withdrawals:
        due.setdefault(withdrawal.after, []).append(withdrawal.player)
    for player in due.get(0, ()):
        play.withdraw(player)
    for number, result in enumerate(results, start=1):
        play.enter(result)
        for player in due.get(number, ()):
            play.withdraw(player)
    return play.state()


def withdrawal_problems(
    tournament: TournamentPlan, withdrawals: Sequence[Withdrawal], results: int
) -> Problems:
    """What is wrong with a tournament's withdrawals, one line each."""
    problems = Problems()
    players = set(tournament.players)
    seen: set[str] = set()
    for number, withdrawal in enumerate(withdrawals, start=1):
        name = withdrawal.player
        where = f"withdrawn {number}"
        if name not in players:
            problems.add(
                f"{where}: {shorten(name)} is not a player of the tournament",
                "withdrawn_stranger",
                name=shorten(name),
            )
        elif name in seen:
            problems.add(f"{where}: {name} withdrew once already", "withdrawn_twice", name=name)
        seen.add(name)
        if not 0 <= withdrawal.after <= results:
            named = name if name in players else shorten(name)
            problems.add(
                f"{where}: {named} withdrew after {withdrawal.after} results, "
                f"but {results} were given",
                "withdrawn_after",
                name=named,
            )
    return problems


class TournamentPlay:
    """A tournament played result by result, as ``tournament_state`` replays it: for a
    caller that enters many results one at a time and looks at the state between them
    (each result costs what follows from it, not a replay of all of them).

    >>> play = TournamentPlay(TournamentPlan(System.SINGLE_ELIMINATION, ("Anna", "Ben", "Carl")))
    >>> play.enter(MatchWinner("W1-2", "Carl"))
    >>> play.withdraw("Anna")
    >>> state = play.state()
    >>> state.withdrawn, state.forfeits()
    (('Anna',), [MatchWinner(match='W2-1', winner='Carl')])
    """

    def __init__(self, tournament: TournamentPlan):
        problems = tournament_problems(tournament)
        if problems:
            raise TournamentError.of(problems)
        self._play = _play(tournament)
        self.entered = 0  # the results entered so far

    def enter(self, result: MatchWinner) -> None:
        """Take the next result, or raise a TournamentError naming it (and take nothing)."""
        number = self.entered + 1
        if (trouble := self._play.enter(result)) is not None:
            line, code, params = trouble
            raise TournamentError(
                [f"result {number}: {line}"], [(code, params | {"result": number})]
            )
        self.entered = number

    def withdraw(self, player: str) -> None:
        """A player withdraws now: the rounds paired from now on leave him out."""
        withdrawn = [Withdrawal(p, 0) for p in (*self._play.withdrawn, player)]
        problems = withdrawal_problems(self._play.tournament, withdrawn, 0)
        if problems:
            raise TournamentError.of(problems)
        self._play.withdrawn.append(player)

    def state(self) -> State:
        return self._play.state()


Trouble = tuple[str, str, dict]


class _Play:
    """One system's play: the winners given so far and what they come to."""

    def __init__(self, tournament: TournamentPlan):
        self.tournament = tournament
        self.players = list(tournament.players)
        self.withdrawn: list[str] = []  # in the order they withdrew

    def matches(self) -> list[MatchState]:
        raise NotImplementedError

    def match(self, match_id: str) -> MatchState | None:
        return next((m for m in self.matches() if m.id == match_id), None)

    def record(self, match_id: str, winner: str | None) -> None:
        """Give a match's winner (None: take its result back)."""
        raise NotImplementedError

    def may_come(self, match_id: str) -> bool:
        """A match that is not there yet and may be later."""
        raise NotImplementedError

    def depending(self, match_id: str) -> list[str]:
        """The later matches with a result that follow from this one's, latest first."""
        raise NotImplementedError

    def ranking(self, matches: list[MatchState]) -> dict[str, tuple]:
        """Every player's key of the final standings, higher better; equal keys share."""
        raise NotImplementedError

    def table(self, matches: list[MatchState]) -> tuple[SwissLine, ...]:
        return ()

    def is_complete(self, matches: list[MatchState]) -> bool:
        return all(m.winner is not None for m in matches)

    def enter(self, result: MatchWinner) -> Trouble | None:
        """Take a result, or say why not (and take nothing)."""
        match_id, winner = result.match, result.winner
        match = self.match(match_id)
        if match is None:
            if self.may_come(match_id):
                return (f"{match_id} is not playable yet: its players are not known", "not_yet", {})
            return (f"there is no match {match_id} in this tournament", "no_match", {})
        if match.bye:
            who = match.players[0] or "its player"
            return (f"{match_id} is a bye: {who} goes on without a result", "bye", {})
        if winner is None and match.winner is None:
            return (f"{match_id} has no result to void", "nothing_to_void", {})
        if winner is not None and match.winner is None and not match.playable:
            return (f"{match_id} is not playable yet: its players are not known", "not_yet", {})
        if winner is not None and winner not in match.players:
            return (
                f"{winner} is not a player of {match.label()}",
                "not_in_match",
                {"name": winner},
            )
        if match.winner is not None and winner != match.winner:
            later = self.depending(match_id)
            if later:
                names = ", ".join(later)
                verb = "depends" if len(later) == 1 else "depend"
                return (
                    f"{match_id}'s result cannot change while {names} {verb} on it: "
                    f"void {names} first",
                    "depended_on",
                    {"matches": later},
                )
        if winner != match.winner:
            self.record(match_id, winner)
        return None

    def state(self) -> State:
        matches = self.matches()
        champion, places = None, ()
        if self.is_complete(matches):
            places = _places(self.players, self.ranking(matches))
            if len(places[0].players) == 1:
                champion = places[0].players[0]
        return State(
            self.tournament,
            tuple(matches),
            champion,
            places,
            self.table(matches),
            tuple(self.withdrawn),
        )


def _places(players: Sequence[str], key: dict[str, tuple]) -> tuple[Place, ...]:
    """Players ranked by key (higher first, seed order within a key); equal keys share
    the place of the first of them."""
    seed = {p: i for i, p in enumerate(players)}
    ordered = sorted(players, key=lambda p: (tuple(-k for k in key[p]), seed[p]))
    places: list[Place] = []
    for position, player in enumerate(ordered, start=1):
        if places and key[places[-1].players[0]] == key[player]:
            places[-1] = Place(places[-1].place, (*places[-1].players, player))
        else:
            places.append(Place(position, (player,)))
    return tuple(places)


def _play(tournament: TournamentPlan) -> _Play:
    return {
        System.SINGLE_ELIMINATION: _SingleElimination,
        System.DOUBLE_ELIMINATION: _DoubleElimination,
        System.ROUND_ROBIN: _RoundRobin,
        System.SWISS: _Swiss,
    }[tournament.system](tournament)


class _Bracket(_Play):
    def __init__(self, tournament: TournamentPlan, slots: list[Slot]):
        super().__init__(tournament)
        self.bracket = Bracket(slots, self.players)
        # With every seat unknown, the slots left out are those of two byes.
        unknown = Bracket(slots, [None] * len(self.players)).matches()
        self._possible = {m.id for m in unknown} | {s.id for s in slots if s.reset}

    def matches(self) -> list[MatchState]:
        return self.bracket.matches()

    def match(self, match_id: str) -> MatchState | None:
        return self.bracket.match(match_id)

    def record(self, match_id: str, winner: str | None) -> None:
        self.bracket.record(match_id, winner)

    def may_come(self, match_id: str) -> bool:
        return match_id in self._possible

    def depending(self, match_id: str) -> list[str]:
        return [d for d in self.bracket.downstream(match_id) if d in self.bracket.given]


class _SingleElimination(_Bracket):
    def __init__(self, tournament: TournamentPlan):
        slots = knockout(
            len(tournament.players),
            third_place=tournament.third_place,
            consolation=tournament.consolation,
        )
        super().__init__(tournament, slots)

    def ranking(self, matches: list[MatchState]) -> dict[str, tuple]:
        return knockout_ranking(matches, Stage.WINNERS)


def knockout_ranking(matches: Sequence[MatchState], stage: Stage) -> dict[str, tuple]:
    """How far each player of a finished knockout came: the round he lost in (the
    champion one more than the final's), then the third-place match, then (for the
    first round's losers) how far he came in the consolation bracket."""
    main = [m for m in matches if m.stage is stage]
    if not main:
        return {}  # a top cut with nobody left to play it: everyone withdrew
    final = max(m.round for m in main)
    key: dict[str, tuple] = {}
    for match in main:
        if match.loser is not None:
            key[match.loser] = (match.round, 0)
        if match.round == final and match.winner is not None:
            key[match.winner] = (final + 1, 0)
    consolation = [m for m in matches if m.stage is Stage.CONSOLATION]
    last = max((m.round for m in consolation), default=0)
    for match in matches:
        if match.stage is Stage.THIRD_PLACE and match.winner is not None:
            key[match.winner] = (final - 1, 1)
        if match.stage is Stage.CONSOLATION:
            if match.loser is not None:
                key[match.loser] = (1, match.round)
            if match.round == last and match.winner is not None:
                key[match.winner] = (1, last + 1)
    return key


class _DoubleElimination(_Bracket):
    def __init__(self, tournament: TournamentPlan):
        super().__init__(tournament, double_knockout(len(tournament.players)))

    def enter(self, result: MatchWinner) -> Trouble | None:
        final = self.match("GF")
        if result.match == "GF2" and final is not None and final.winner == final.players[0]:
            return (
                f"there is no GF2: the winners' bracket's winner {final.winner} won GF",
                "no_reset",
                {},
            )
        return super().enter(result)

    def ranking(self, matches: list[MatchState]) -> dict[str, tuple]:
        key: dict[str, tuple] = {}
        for match in matches:
            if match.stage is Stage.LOSERS and match.loser is not None:
                key[match.loser] = (1, match.round)
        last = matches[-1]  # the grand final, or its reset
        assert last.winner is not None and last.loser is not None
        key[last.winner], key[last.loser] = (3, 0), (2, 0)
        return key


class _RoundRobin(_Play):
    def __init__(self, tournament: TournamentPlan):
        super().__init__(tournament)
        self.rounds = {m.id: m for m in _berger_rounds(self.players)}

    def matches(self) -> list[MatchState]:
        return list(self.rounds.values())

    def match(self, match_id: str) -> MatchState | None:
        return self.rounds.get(match_id)

    def record(self, match_id: str, winner: str | None) -> None:
        self.rounds[match_id] = replace(self.rounds[match_id], winner=winner)

    def may_come(self, match_id: str) -> bool:
        return False

    def depending(self, match_id: str) -> list[str]:
        return []  # every round is known from the start: no result decides a pairing

    def ranking(self, matches: list[MatchState]) -> dict[str, tuple]:
        """Wins (a bye is none: an odd field gives everyone one), then the wins among
        the players level on wins."""
        wins = {p: 0 for p in self.players}
        for match in matches:
            if not match.bye and match.winner is not None:
                wins[match.winner] += 1
        level = {p: 0 for p in self.players}
        for match in matches:
            loser = match.loser
            if loser is not None and wins[loser] == wins[match.winner]:
                level[match.winner] += 1
        return {p: (wins[p], level[p]) for p in self.players}


def _berger_rounds(players: Sequence[str]) -> list[MatchState]:
    count = len(players)
    even = count + count % 2
    matches = []
    for round_ in range(1, even):
        pairs = berger_round(even, round_)
        played = [(players[i - 1], players[j - 1]) for i, j in pairs if j <= count]
        matches += [
            MatchState(f"R{round_}-{table}", Stage.ROUND_ROBIN, round_, pair)
            for table, pair in enumerate(played, start=1)
        ]
        for i, j in pairs:
            if j > count:  # the odd field's bye
                name = players[i - 1]
                bye_id = f"R{round_}-{len(played) + 1}"
                matches.append(MatchState(bye_id, Stage.ROUND_ROBIN, round_, (name,), name, True))
    return matches


class _Swiss(_Play):
    def __init__(self, tournament: TournamentPlan):
        super().__init__(tournament)
        self.given: dict[str, str] = {}
        cut = tournament.top_cut
        slots = knockout(cut, prefix="T", stage=Stage.TOP_CUT) if cut else []
        self.cut = Bracket(slots, [None] * cut)
        # Each round paired so far, with the results of the round before it as they
        # stood then: a round is paired again when those changed (a correction while
        # none of its own matches had a result). A round is paired the moment the one
        # before is complete, with the players not withdrawn by then; a withdrawal
        # later leaves it as it is (his match there is forfeited).
        self.paired: list[tuple[tuple, tuple[tuple[str, str], ...], str | None]] = []
        self._swiss: list[MatchState] | None = None  # the Swiss rounds, until a result
        self._over = False  # every Swiss round played
        self._cut_basis: tuple | None = None  # the Swiss results the cut was seeded from
        self.swiss_matches()  # round 1, paired at the start

    def swiss_matches(self) -> list[MatchState]:
        if self._swiss is not None:
            return self._swiss
        matches: list[MatchState] = []
        basis: tuple = ()
        done = 0
        for number in range(1, self.tournament.rounds + 1):
            index = number - 1
            if index >= len(self.paired) or self.paired[index][0] != basis:
                del self.paired[index:]
                table = swiss_table(self.players, matches)
                seed = f"{self.tournament.seed}:{number}"
                pairs, bye = swiss_pairs(table, _met(matches), seed, frozenset(self.withdrawn))
                self.paired.append((basis, pairs, bye))
            _, pairs, bye = self.paired[index]
            round_ = []
            for table_number, pair in enumerate(pairs, start=1):
                match_id = f"S{number}-{table_number}"
                winner = self.given.get(match_id)
                round_.append(MatchState(match_id, Stage.SWISS, number, pair, winner))
            if bye is not None:
                bye_id = f"S{number}-{len(pairs) + 1}"
                round_.append(MatchState(bye_id, Stage.SWISS, number, (bye,), bye, True))
            matches += round_
            basis = tuple(m.winner for m in round_)
            if None in basis:
                break
            done = number
        self._over = done == self.tournament.rounds
        self._seed_cut(matches)
        self._swiss = matches
        return matches

    def _seed_cut(self, swiss: list[MatchState]) -> None:
        """The top cut's seats: the best of the Swiss order not withdrawn when the Swiss
        ended (a cut short of players gives byes to its top seeds), else unknown."""
        cut = self.tournament.top_cut
        if not self._over:
            self._cut_basis = None
            self.cut.seed([None] * cut)
            return
        basis = tuple(m.winner for m in swiss)
        if basis == self._cut_basis:
            return
        self._cut_basis = basis
        out = set(self.withdrawn)
        table = swiss_table(self.players, swiss)
        best = [line.player for line in table if line.player not in out][:cut]
        self.cut.seed(best + [NOBODY] * (cut - len(best)))

    def matches(self) -> list[MatchState]:
        return self.swiss_matches() + self.cut.matches()

    def match(self, match_id: str) -> MatchState | None:
        swiss = self.swiss_matches()
        if match_id.startswith("T"):
            return self.cut.match(match_id)
        round_, table = _numbers(match_id, "S")
        # The rounds before hold a table per two players: find it without a search.
        before = sum(1 for m in swiss if m.round < round_)
        found = swiss[before + table - 1] if round_ and before + table - 1 < len(swiss) else None
        return found if found is not None and found.id == match_id else None

    def record(self, match_id: str, winner: str | None) -> None:
        if match_id.startswith("T"):
            self.cut.record(match_id, winner)
            return
        if winner is None:
            self.given.pop(match_id, None)
        else:
            self.given[match_id] = winner
        self._swiss = None
        self.swiss_matches()  # the next round paired now, before any later withdrawal

    def is_complete(self, matches: list[MatchState]) -> bool:
        self.swiss_matches()
        return self._over and super().is_complete(matches)

    def may_come(self, match_id: str) -> bool:
        if any(slot.id == match_id for slot in self.cut.slots):
            return True
        round_, table = _numbers(match_id, "S")
        tables = (len(self.players) + 1) // 2
        return 1 <= round_ <= self.tournament.rounds and 1 <= table <= tables

    def depending(self, match_id: str) -> list[str]:
        if match_id.startswith("T"):
            return [d for d in self.cut.downstream(match_id) if d in self.cut.given]
        round_, _ = _numbers(match_id, "S")
        later = [m.id for m in self.swiss_matches() if m.round > round_ and m.id in self.given]
        cut = [m.id for m in self.cut.matches() if m.id in self.cut.given]
        return list(reversed(later + cut))

    def table(self, matches: list[MatchState]) -> tuple[SwissLine, ...]:
        return tuple(swiss_table(self.players, [m for m in matches if m.stage is Stage.SWISS]))

    def ranking(self, matches: list[MatchState]) -> dict[str, tuple]:
        """The Swiss order; with a top cut, the cut's players first, by how far they came
        in it (those out in the same round share a place)."""
        table = self.table(matches)
        key: dict[str, tuple] = {line.player: (0, -line.place) for line in table}
        if self.tournament.top_cut:
            for player, came in knockout_ranking(matches, Stage.TOP_CUT).items():
                key[player] = (1, came[0])
        return key


def _met(matches: Sequence[MatchState]) -> set[frozenset[str]]:
    return {frozenset(m.players) for m in matches if not m.bye}


def _numbers(match_id: str, prefix: str) -> tuple[int, int]:
    """``S3-2``: (3, 2); (0, 0) for an id of another form."""
    head, _, tail = match_id.partition("-")
    number = head[1:]
    plain = number.isascii() and number.isdigit() and tail.isascii() and tail.isdigit()
    if not head.startswith(prefix) or not plain or len(number) > 6 or len(tail) > 6:
        return 0, 0
    return int(head[1:]), int(tail)
