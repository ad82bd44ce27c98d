"""Every write of a tournament, each in one transaction under the tournament's row lock:
created, players entered and checked in, seeded, started, a player withdrawn, a result
given by a partie's close (``outbox``) or corrected by the organiser.

After each, ``_advance`` plays the state forward: the matches of withdrawn players are
forfeited to their opponents, each closed partie (confirmed, where the tournament asks
it) gives its match's result, and each match that became playable is started as a
partie at a numbered table. A partie whose match was decided at time or by a
withdrawal is ended there (``table.services.partie_end_early``). The results table is
the record; the bracket is derived.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date
from itertools import count

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.engine import bounds
from scorekeeper.engine import tournaments as bracket
from scorekeeper.league import ratings
from scorekeeper.league.models import NightSettings
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Evening, Partie, Player, ResultsChange
from scorekeeper.table.selectors import partie_leader
from scorekeeper.table.services import evenings as evening_services

from . import selectors
from .models import Entry, MatchResult, Tournament, TournamentMatch


class TournamentRefused(ValueError):
    """A change the tournament cannot take; ``code`` names it for the page's message,
    ``params`` its details; ``errors``: the engine's lines, where it refused."""

    def __init__(self, code: str, errors: Sequence[str] = (), **params: object):
        self.code = code
        self.errors = list(errors)
        self.params = params
        super().__init__("\n".join(self.errors) or code)


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    owner: AbstractBaseUser,
    name: str,
    played_on: date,
    system: str,
    settings: NightSettings,
    rounds: int = 0,
    top_cut: int = 0,
    third_place: bool = False,
    consolation: bool = False,
    seed: int = 0,
    confirmed_only: bool = False,
    rated: bool = True,
    round_minutes: int = 0,
    at_time: str = Tournament.AtTime.LEADER,
) -> Tournament:
    """A new tournament of the club, no player entered yet."""
    tournament = Tournament(
        club=club,
        owner=owner,
        name=name,
        played_on=played_on,
        system=system,
        rounds=rounds,
        top_cut=top_cut,
        third_place=third_place,
        consolation=consolation,
        seed=seed,
        confirmed_only=confirmed_only,
        rated=rated,
        round_minutes=round_minutes,
        at_time=at_time,
    )
    tournament.set_settings(settings)
    tournament.save()
    return tournament


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _not_started(tournament: Tournament) -> None:
    if tournament.is_started:
        raise TournamentRefused("started")


@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, checked_in: bool = True) -> Entry:
    """Enter a player of the club (checked in, unless told otherwise); until the start.
    Entered already: his entry, checked in as asked."""
    tournament = _locked(tournament)
    _not_started(tournament)
    if player.club_id != tournament.club_id:
        raise TournamentRefused("not_of_club")
    entry, _ = Entry.objects.get_or_create(tournament=tournament, player=player)
    if entry.checked_in != checked_in or entry.withdrawn_at is not None:
        entry.checked_in, entry.withdrawn_at, entry.withdrawn_after = checked_in, None, None
        entry.save(update_fields=["checked_in", "withdrawn_at", "withdrawn_after"])
    return entry


@transaction.atomic
def entries_check_in(*, tournament: Tournament, players: Sequence[Player]) -> None:
    """Check in exactly ``players`` (the roster's ticks): entered if new, the others
    entered already left unchecked. Until the start."""
    tournament = _locked(tournament)
    _not_started(tournament)
    ticked = {p.pk for p in players}
    if any(p.club_id != tournament.club_id for p in players):
        raise TournamentRefused("not_of_club")
    held = {e.player_id: e for e in tournament.entries.all()}
    for player in players:
        if player.pk not in held:
            Entry.objects.create(tournament=tournament, player=player, checked_in=True)
    for player_id, entry in held.items():
        checked = player_id in ticked
        if entry.checked_in != checked or (checked and entry.withdrawn_at is not None):
            entry.checked_in, entry.withdrawn_at, entry.withdrawn_after = checked, None, None
            entry.save(update_fields=["checked_in", "withdrawn_at", "withdrawn_after"])


class Seeding:
    RATING = "rating"
    HAND = "hand"
    RANDOM = "random"


@transaction.atomic
def entries_seed(
    *,
    tournament: Tournament,
    method: str,
    order: Sequence[int] = (),
    seed: int | None = None,
) -> list[Entry]:
    """Seed the players checked in: by their club rating (the club's all-time rating,
    best first; the unrated after, by name), by hand (``order``: entry keys, best first),
    or at random with ``seed`` (kept as the tournament's, so the draw can be made again).
    Until the start. The seeds, best first."""
    tournament = _locked(tournament)
    _not_started(tournament)
    entries = [e for e in selectors.field_of(tournament)]
    if method == Seeding.RATING:
        rated = {
            player: engine.Rating(mu, sigma).ordinal
            for player, mu, sigma in ratings.current_rows(tournament.club)
        }
        entries.sort(
            key=lambda e: (e.player_id not in rated, -rated.get(e.player_id, 0), e.player.name)
        )
    elif method == Seeding.HAND:
        position = {pk: i for i, pk in enumerate(order)}
        if set(position) != {e.pk for e in entries}:
            raise TournamentRefused("bad_order")
        entries.sort(key=lambda e: position[e.pk])
    elif method == Seeding.RANDOM:
        tournament.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        tournament.save(update_fields=["seed"])
        entries.sort(key=lambda e: e.player.name)
        random.Random(tournament.seed).shuffle(entries)
    else:
        raise TournamentRefused("bad_method")
    tournament.entries.update(seed=None)
    for number, entry in enumerate(entries, start=1):
        entry.seed = number
    Entry.objects.bulk_update(entries, ["seed"])
    return entries


@transaction.atomic
def tournament_start(*, tournament: Tournament, owner: AbstractBaseUser) -> Tournament:
    """Start it: the players checked in, in seed order, make the field (no entry after
    this); every playable match of round 1 becomes a partie at a numbered table. Refused
    with the engine's lines: too few players, options that do not fit the field."""
    tournament = _locked(tournament)
    _not_started(tournament)
    entries = selectors.field_of(tournament)
    problems = bracket.tournament_problems(selectors.engine_tournament(tournament, entries))
    if problems:
        raise TournamentRefused("bad_field", problems.errors, problems=problems.problems)
    tournament.started_at = timezone.now()
    tournament.evening = evening_services.evening_start(
        owner=owner,
        club=tournament.club,
        name=tournament.name[: Evening._meta.get_field("name").max_length],
        played_on=tournament.played_on,
        confirmed_games_only=tournament.confirmed_only,
    )
    tournament.save(update_fields=["started_at", "evening"])
    _advance(tournament, owner)
    return tournament


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: AbstractBaseUser) -> Entry:
    """Withdraw a player: before the start he just leaves the field; after it, each of
    his matches still to play is forfeited to his opponent, now and as they come (a
    partie he plays ends there), and no round paired from now on seats him
    (``withdrawn_after``: the results given until now, where the engine takes it)."""
    tournament = _locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn_at is None:
        entry.withdrawn_at = timezone.now()
        if tournament.is_started:
            entry.withdrawn_after = tournament.results.count()
        entry.save(update_fields=["withdrawn_at", "withdrawn_after"])
    if tournament.is_started:
        _advance(tournament, by)
    return entry


@transaction.atomic
def result_correct(
    *,
    tournament: Tournament,
    match: str,
    winner: Player | None,
    by: AbstractBaseUser,
    reason: str = "",
) -> MatchResult:
    """The organiser gives a match's winner (None: voids its result). Refused, with the
    engine's line (which names the matches to void first), where the engine refuses
    it. Recorded as a row of the results, with who and why: the trail."""
    tournament = _locked(tournament)
    if not tournament.is_started:
        raise TournamentRefused("not_started")
    entries = selectors.field_of(tournament)
    given = selectors.results_of(tournament)
    name = winner.name if winner is not None else None
    try:
        bracket.tournament_state(
            selectors.engine_tournament(tournament, entries),
            [*given, bracket.MatchWinner(match, name)],
            selectors.withdrawals_of(entries),
        )
    except bracket.TournamentError as error:
        code, params = error.problems[-1]
        raise TournamentRefused(code or "refused", error.errors, **params) from None
    result = MatchResult.objects.create(
        tournament=tournament,
        match=match,
        winner=winner,
        source=MatchResult.Source.ORGANISER,
        by=by,
        reason=reason[: MatchResult._meta.get_field("reason").max_length],
    )
    _advance(tournament, by)
    return result


@transaction.atomic
def round_end_at_time(*, tournament: Tournament, by: AbstractBaseUser) -> int:
    """The organiser calls time on the parties still played, by the tournament's rule:
    the leader wins each now (a result given by "time called", with who called it), or
    each plays one more hand (``table.services.partie_time_call``): the hand ends the
    partie at the table, and its leader wins (``_due_result``, the worker's step). A
    partie whose players are level plays on. How many results it gave now."""
    tournament = _locked(tournament)
    if not tournament.is_started:
        raise TournamentRefused("not_started")
    if not tournament.round_minutes:
        raise TournamentRefused("no_time_limit")
    playable = [m.id for m in selectors.tournament_state(tournament).playable()]
    unfinished = TournamentMatch.objects.filter(
        tournament=tournament, match__in=playable, partie__state=Partie.State.RUNNING
    ).select_related("partie")
    players = {e.player.name: e.player for e in selectors.field_of(tournament)}
    results = []
    for row in unfinished:
        if tournament.at_time == Tournament.AtTime.ONE_MORE_HAND:
            row.partie = table_services.partie_time_call(partie=row.partie, user=by)
        elif (leader := partie_leader(row.partie)) is not None:
            results.append(_time_result(tournament, row, players[leader], by))
    _give(results, {row.match: row for row in unfinished}, by)
    _advance(tournament, by)
    return len(results)


def _time_result(
    tournament: Tournament, row: TournamentMatch, winner: Player, by: AbstractBaseUser | None
) -> MatchResult:
    return MatchResult(
        tournament=tournament,
        match=row.match,
        winner=winner,
        source=MatchResult.Source.TIME,
        partie=row.partie,
        by=by,
    )


@transaction.atomic
def tournament_advance(*, tournament: Tournament, by: AbstractBaseUser | None = None) -> int:
    """Give what is due (the worker's step, ``outbox``): how many results it gave."""
    tournament = _locked(tournament)
    if not tournament.is_started:
        return 0
    return _advance(tournament, by)


def _advance(tournament: Tournament, by: AbstractBaseUser | None) -> int:
    """Play the state forward until nothing more follows (the caller holds the lock):
    forfeits, results of closed parties, new parties; the finish noted. How many results
    it gave."""
    given = 0
    players = {e.player.name: e.player for e in selectors.field_of(tournament)}
    while True:
        state = selectors.tournament_state(tournament)
        _unlink_stale(tournament, state)
        tables = {
            row.match: row
            for row in TournamentMatch.objects.filter(tournament=tournament).select_related(
                "partie"
            )
        }
        # A withdrawn player's match goes to his opponent (the engine's rule).
        results = [
            MatchResult(
                tournament=tournament,
                match=forfeit.match,
                winner=players[forfeit.winner],
                source=MatchResult.Source.FORFEIT,
            )
            for forfeit in state.forfeits()
            if forfeit.winner is not None
        ]
        forfeited = {result.match for result in results}
        for match in state.playable():
            if match.id not in forfeited:
                result = _due_result(tournament, match, tables.get(match.id), players)
                if result is not None:
                    results.append(result)
        if not results:
            break
        _give(results, tables, by)
        given += len(results)
    _start_playable(tournament, state, tables, by)
    _note_finish(tournament, state)
    return given


# The results that end their match's partie where it stands: the table's to say why.
_ENDS_PARTIE = {
    MatchResult.Source.TIME: Partie.EarlyEnd.TIME,
    MatchResult.Source.FORFEIT: Partie.EarlyEnd.WITHDRAWAL,
}


def _give(
    results: list[MatchResult], tables: dict[str, TournamentMatch], by: AbstractBaseUser | None
) -> None:
    """Write the results; a match won at time or by a withdrawal has its partie, if
    one is still played, ended there (its table is free again)."""
    MatchResult.objects.bulk_create(results)
    for result in results:
        row = tables.get(result.match)
        why = _ENDS_PARTIE.get(MatchResult.Source(result.source))
        if why is not None and row is not None and row.partie.is_running:
            row.partie = table_services.partie_end_early(partie=row.partie, why=why, user=by)


def _due_result(
    tournament: Tournament,
    match: bracket.MatchState,
    row: TournamentMatch | None,
    players: dict[str, Player],
) -> MatchResult | None:
    """The result a playable match has now, or None: its closed partie's winner, or,
    where the table ended it at time (one more hand played after time was called), its
    leader."""
    if row is None or row.partie.state != Partie.State.CLOSED:
        return None
    if row.partie.ended_early == Partie.EarlyEnd.TIME:
        leader = partie_leader(row.partie)
        return None if leader is None else _time_result(tournament, row, players[leader], None)
    if tournament.confirmed_only and not selectors.is_confirmed(row.partie):
        return None
    winner = selectors.partie_winner(row.partie)
    if winner not in match.players:
        return None  # a partie without a winner (cannot be, as the kinds are): the organiser's
    return MatchResult(
        tournament=tournament,
        match=match.id,
        winner=players[winner],
        source=MatchResult.Source.PARTIE,
        partie=row.partie,
    )


def _unlink_stale(tournament: Tournament, state: bracket.State) -> None:
    """Drop the table of a match that is gone or has other players now (a result before
    it corrected or voided), or whose own result was voided by the organiser: a new
    partie is started for it. The old partie stays the club's."""
    for row in TournamentMatch.objects.filter(tournament=tournament).select_related("partie"):
        if _is_stale(state.match(row.match), row) or _voided(tournament, row):
            row.delete()


def _is_stale(match: bracket.MatchState | None, row: TournamentMatch) -> bool:
    """The match is gone, or is played by others than its partie's players."""
    players = sorted(row.partie.summary.get("players") or [])
    return match is None or sorted(p or "" for p in match.players) != players


def _voided(tournament: Tournament, row: TournamentMatch) -> bool:
    """The match's partie is over and its latest result voided it after the partie
    started: the organiser took back what it gave, so the match is played again."""
    if row.partie.is_running:
        return False
    last = tournament.results.filter(match=row.match).order_by("-pk").first()
    return last is not None and last.winner_id is None and last.at >= row.started_at


def _start_playable(
    tournament: Tournament,
    state: bracket.State,
    tables: dict[str, TournamentMatch],
    by: AbstractBaseUser | None,
) -> None:
    """A partie at a numbered table for each playable match that has none: the lowest
    numbers no partie of the tournament still plays at (a table freed is used again)."""
    fresh = [m for m in state.playable() if m.id not in tables]
    if not fresh:
        return
    owner = by or tournament.owner
    settings = tournament.settings
    evening = _evening_with_room(tournament, len(fresh))
    running = TournamentMatch.objects.filter(
        tournament=tournament, partie__state=Partie.State.RUNNING
    )
    taken = set(running.values_list("table", flat=True))
    free = (number for number in count(1) if number not in taken)
    for match, number in zip(fresh, free, strict=False):
        partie = table_services.partie_start(
            owner=owner,
            club=tournament.club,
            names=[p for p in match.players if p is not None],
            rules=settings.rules,
            kind=settings.kind,
            stake=settings.stake,
            evening=evening,
            cut=True,
        )
        TournamentMatch.objects.create(
            tournament=tournament, match=match.id, table=number, partie=partie
        )


def _evening_with_room(tournament: Tournament, parties: int) -> Evening | None:
    """The tournament's evening if it can take the parties (settled together); else
    they play outside it."""
    if tournament.evening_id is None:
        return None
    evening = Evening.objects.select_for_update().get(pk=tournament.evening_id)
    held = Partie.objects.filter(evening=evening).count()
    if evening.is_settled or held + parties > bounds.MAX_PARTIES_PER_EVENING:
        return None
    return evening


def _note_finish(tournament: Tournament, state: bracket.State) -> None:
    finished = timezone.now() if state.is_over() else None
    if (tournament.finished_at is None) != (finished is None):
        tournament.finished_at = finished
        tournament.save(update_fields=["finished_at"])


@transaction.atomic
def tournament_rated_set(*, tournament: Tournament, rated: bool) -> Tournament:
    """Whether its games count in the club's ratings and seasons: the club is rated
    again from its first game on (``ResultsChange``, the league's worker)."""
    tournament = _locked(tournament)
    if tournament.rated != rated:
        tournament.rated = rated
        tournament.save(update_fields=["rated"])
        ResultsChange.record(tournament.club_id)
    return tournament
