"""Every read of a tournament: its engine state, replayed from the entries in seed order
and the results in the order given, and the read model the pages (and, later, the bar's
screen and the PDFs) are drawn from: plain frozen values, no query left to run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max, QuerySet

from scorekeeper.engine import tournaments as bracket
from scorekeeper.table.models import Partie, Player, ResultConfirmation
from scorekeeper.table.services.players import PlayerChangeError

from .models import Entry, MatchResult, Tournament, TournamentMatch


def unrated_parties() -> QuerySet:
    """The keys of the parties of the tournaments that do not count in the ratings."""
    return TournamentMatch.objects.filter(tournament__rated=False).values("partie_id")


def field_of(tournament: Tournament) -> list[Entry]:
    """Who plays: the entries checked in and not withdrawn before the start, in seed
    order (the unseeded after, by name). A player withdrawn after the start (his
    ``withdrawn_after`` set) stays in it: his results stand."""
    entries = tournament.entries.select_related("player").filter(checked_in=True)
    return [e for e in entries if e.withdrawn_at is None or e.withdrawn_after is not None]


def engine_tournament(tournament: Tournament, entries: list[Entry]) -> bracket.TournamentPlan:
    swiss = tournament.system == Tournament.System.SWISS
    single = tournament.system == Tournament.System.SINGLE_ELIMINATION
    return bracket.TournamentPlan(
        bracket.System(tournament.system),
        tuple(entry.player.name for entry in entries),
        rounds=tournament.rounds if swiss else 0,
        top_cut=tournament.top_cut if swiss else 0,
        third_place=tournament.third_place and single,
        consolation=tournament.consolation and single,
        seed=tournament.seed,
        name=tournament.name,
    )


def results_of(tournament: Tournament) -> list[bracket.MatchWinner]:
    """The results as given, in order: the record the state is replayed from."""
    rows = tournament.results.order_by("pk").values_list("match", "winner__name")
    return [bracket.MatchWinner(match, winner) for match, winner in rows]


def withdrawals_of(entries: list[Entry]) -> list[bracket.Withdrawal]:
    """The field's withdrawals after the start, each where it falls among the results."""
    withdrawn = [e for e in entries if e.withdrawn_after is not None]
    withdrawn.sort(key=lambda e: (e.withdrawn_after, e.withdrawn_at, e.pk))
    return [bracket.Withdrawal(e.player.name, e.withdrawn_after) for e in withdrawn]


def tournament_state(tournament: Tournament) -> bracket.State:
    """The state after every result given and every withdrawal (a started tournament
    only)."""
    entries = field_of(tournament)
    return bracket.tournament_state(
        engine_tournament(tournament, entries), results_of(tournament), withdrawals_of(entries)
    )


# The read model


@dataclass(frozen=True)
class MatchView:
    """A match as a page shows it: the engine's match and where it is played."""

    id: str
    stage: str
    round: int
    players: tuple[str | None, ...]
    winner: str | None
    bye: bool
    playable: bool
    table: int | None  # its table number, once its partie is started
    partie: int | None  # the partie's key
    running: bool  # its partie is still being played
    waiting: bool  # its partie is over, its result not given yet (confirmations, the worker)
    forfeit: bool  # won by a withdrawal
    started: datetime | None = None  # when its partie started (a round's clock runs from it)


@dataclass(frozen=True)
class RoundView:
    """A column of the bracket: one round of one stage, and what people call it (the
    engine's name, which vocabulary.round_title words)."""

    stage: str
    round: int
    matches: tuple[MatchView, ...]
    name: bracket.RoundName


@dataclass(frozen=True)
class TournamentView:
    """What every page of a started tournament shows, frozen."""

    name: str
    system: str
    rounds: tuple[RoundView, ...]
    champion: str | None
    standings: tuple[bracket.Place, ...]  # the engine's values: plain and frozen
    swiss_table: tuple[bracket.SwissLine, ...]
    withdrawn: frozenset[str]

    def round_at(self, index: int) -> RoundView | None:
        return self.rounds[index] if 0 <= index < len(self.rounds) else None

    def round_started(self) -> datetime | None:
        """When the round being played started: its first partie still played."""
        column = self.round_at(self.current_index())
        starts = [m.started for m in column.matches if m.running] if column else []
        return min((s for s in starts if s is not None), default=None)

    def current_index(self) -> int:
        """The first round with a match to play, else the last one: the page opens there."""
        for index, column in enumerate(self.rounds):
            if any(m.playable for m in column.matches):
                return index
        return max(len(self.rounds) - 1, 0)


def minutes_left(view: TournamentView, tournament: Tournament, now: datetime) -> int | None:
    """The round's clock: whole minutes to its time limit (0 or less: time is up), or
    None with no limit or no partie played."""
    started = view.round_started()
    if not tournament.round_minutes or started is None:
        return None
    left = started + timedelta(minutes=tournament.round_minutes) - now
    return -int(-left.total_seconds() // 60)


def tournament_view(tournament: Tournament, state: bracket.State | None = None) -> TournamentView:
    state = state or tournament_state(tournament)
    tables = {
        row.match: row
        for row in TournamentMatch.objects.filter(tournament=tournament).select_related("partie")
    }
    waiting = _waiting(tournament, tables)
    forfeits = _current_sources(tournament)
    rounds = []
    for stage in state.stages():
        for number, matches in state.rounds(stage):
            views = tuple(_match_view(m, tables.get(m.id), waiting, forfeits) for m in matches)
            rounds.append(RoundView(stage.value, number, views, state.round_name(stage, number)))
    return TournamentView(
        name=tournament.name,
        system=tournament.system,
        rounds=tuple(rounds),
        champion=state.champion,
        standings=state.standings,
        swiss_table=state.swiss_table,
        withdrawn=frozenset(state.withdrawn),
    )


def _match_view(
    match: bracket.MatchState,
    row: TournamentMatch | None,
    waiting: set[str],
    forfeits: dict[str, str],
) -> MatchView:
    partie = row.partie if row is not None else None
    return MatchView(
        id=match.id,
        stage=match.stage.value,
        round=match.round,
        players=match.players,
        winner=match.winner,
        bye=match.bye,
        playable=match.playable,
        table=row.table if row is not None else None,
        partie=partie.pk if partie is not None else None,
        running=partie is not None and partie.is_running,
        waiting=match.playable and match.id in waiting,
        forfeit=match.winner is not None and forfeits.get(match.id) == MatchResult.Source.FORFEIT,
        started=row.started_at if row is not None else None,
    )


def _current_sources(tournament: Tournament) -> dict[str, str]:
    """Each match's latest result's source."""
    return dict(tournament.results.order_by("pk").values_list("match", "source"))


def _waiting(tournament: Tournament, tables: dict[str, TournamentMatch]) -> set[str]:
    """The matches whose partie is over: their result is due."""
    return {match for match, row in tables.items() if row.partie.state == Partie.State.CLOSED}


def is_confirmed(partie: Partie) -> bool:
    """Every player asked confirmed each of the partie's closed games (nobody asked: yes)."""
    pending = ResultConfirmation.objects.filter(game__partie=partie).exclude(
        state__in=ResultConfirmation.SETTLED
    )
    return not pending.exists()


def partie_winner(partie: Partie) -> str | None:
    """The winner of a partie that is over, from its summary: a game's or a match's
    winner, or a Hollywood's, who won two of its three games."""
    summary = partie.summary
    if summary.get("winner"):
        return summary["winner"]
    winners = [w for w in summary.get("winners", []) if w]
    for name in set(winners):
        if winners.count(name) * 2 > len(winners):
            return name
    return None


def tournament_version(tournament: Tournament) -> tuple:
    """What a tournament's pages are drawn from, for their ETag: its own row, its
    entries, its results, and each partie's version (a hand, a close). No counter is
    kept: every change of these changes a key, a count or a version."""
    own = tuple(getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields)
    entries = tournament.entries.aggregate(n=Count("pk"), last=Max("pk"))
    results = tournament.results.aggregate(n=Count("pk"), last=Max("pk"))
    parties = tuple(
        TournamentMatch.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "partie__version", "partie__state")
    )
    withdrawn = tuple(
        tournament.entries.exclude(withdrawn_at=None).order_by("pk").values_list("pk", flat=True)
    )
    seeds = tuple(tournament.entries.order_by("pk").values_list("seed", "checked_in"))
    return (own, tuple(entries.values()), tuple(results.values()), parties, withdrawn, seeds)


def merge_refusal(keep: Player, gone: Player) -> PlayerChangeError | None:
    """Why ``gone`` cannot be merged into ``keep``: a tournament's draw names him (its
    entry holds him; the other way round, the merge keeps him)."""
    entry = Entry.objects.filter(player=gone).select_related("tournament").first()
    if entry is None:
        return None
    return PlayerChangeError(
        "entered", gone=gone.name, keep=keep.name, tournament=entry.tournament.name
    )
