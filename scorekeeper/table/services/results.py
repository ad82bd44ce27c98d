"""Writes of what a partie's closed games give a league, as rows: each game
(``ClosedGame``), each player's result in it (``PlayerResult``), its settlement lines
(``SettlementLine``) and each player's hands (``PartieStats``).

The services call these in the transaction of every change to a partie, so the rows
never lag behind the hands. A game whose rows come out the same is left as it was:
what the league derived from it (its ratings, its players' confirmations) stays good. A game
that changed gets new rows under a new key, and whatever was derived from the old ones
goes with them: its players linked to an account are asked to confirm it anew
(``ResultConfirmation``). A change that would alter or remove a game its players all
confirmed (a locked game) is refused with ``GameLocked``. Every change of a club's
closed games (closed, changed, taken away, given new keys) writes a ``ResultsChange``
from its partie's start, in the same transaction: the league's worker rates again what
comes after it in playing order.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.urls import reverse

from scorekeeper import engine
from scorekeeper.notices.models import Kind
from scorekeeper.notices.services import Tell, notices_record

from ..models import (
    MONEY_SCALE,
    ClosedGame,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    ResultConfirmation,
    ResultsChange,
    SettlementLine,
)

GameRows = tuple[ClosedGame, list[PlayerResult], list[SettlementLine]]


class GameLocked(Exception):
    """A change would alter or remove a game that every player asked has confirmed.

    Not a ValueError: ``models.scoring`` would take it for an engine's failure to score
    the partie; the services word it for the player (``parties._save_result``)."""

    def __init__(self, number: int):
        super().__init__(f"game {number} is confirmed by its players and locked")
        self.number = number


def partie_results_store(
    *, partie: Partie, session: engine.Session, players: dict[str, Player], games: bool = True
) -> None:
    """Store the partie's closed games and hand statistics from the engine's replay
    (``players`` by seated name). ``games`` False says that no game closed or changed
    (a hand added to a running game): nothing is written, and the hand statistics count
    a partie's hands as of its last closed game."""
    if not games:
        return
    PartieStats.objects.filter(partie=partie).delete()
    PartieStats.objects.bulk_create(stats_rows(partie, session, players))
    own = session.stakes_played(partie.own_stakes)
    wanted = {rows[0].number: rows for rows in game_rows(partie, session, players, own)}
    stored = _stored(partie)
    gone = [number for number, shape in stored.items() if _shape(wanted.get(number)) != shape]
    locked = locked_games(partie, gone)
    if locked:
        raise GameLocked(locked[0])
    ClosedGame.objects.filter(partie=partie, number__in=gone).delete()
    saved = [rows for number, rows in wanted.items() if number in gone or number not in stored]
    games_save(saved)
    for game, results, _ in saved:
        _confirmation_tell(
            partie, game, results, corrected=game.number in stored, names=list(players)
        )
    if gone or any(number not in stored for number in wanted):
        ResultsChange.record(partie.club_id, partie.started_at)


def _confirmation_tell(
    partie: Partie, game: ClosedGame, results: list[PlayerResult], *, corrected: bool, names
) -> None:
    """Tell the game's players asked to confirm it (those linked to an account) that its
    result is pending their confirmation: a new game, or one corrected."""
    link = reverse("game_detail", args=[partie.pk, game.number])
    params = {"game": game.number, "players": names}
    notices_record(
        club_id=partie.club_id,
        kind=Kind.RESULT_CORRECTED if corrected else Kind.CONFIRM_WANTED,
        event=str(game.pk),
        tell=[Tell(row.player.user_id, link, params) for row in results],
    )


def locked_games(partie: Partie, numbers: Iterable[int] | None = None) -> list[int]:
    """The numbers of the partie's locked games (of ``numbers`` only, if given): games
    with a confirmation asked of a player, every one of them settled (confirmed, or a
    dispute the owner decided)."""
    numbers = None if numbers is None else list(numbers)
    if numbers == []:
        return []
    confirmations = ResultConfirmation.objects.filter(game__partie=partie)
    if numbers is not None:
        confirmations = confirmations.filter(game__number__in=numbers)
    states: dict[int, set[str]] = {}
    for number, state in confirmations.values_list("game__number", "state"):
        states.setdefault(number, set()).add(state)
    settled = set(ResultConfirmation.SETTLED)
    return sorted(number for number, seen in states.items() if seen <= settled)


def partie_results_drop(*, partie: Partie) -> None:
    """Take a deleted partie out of the league (its restore stores it again)."""
    PartieStats.objects.filter(partie=partie).delete()
    deleted, _ = ClosedGame.objects.filter(partie=partie).delete()
    if deleted:
        ResultsChange.record(partie.club_id, partie.started_at)


def games_renew(*, parties: Iterable[int]) -> None:
    """Give the parties' closed games new keys with the same rows, so that whatever was
    derived from the old ones is derived again (a merge moved a player's results)."""
    games = list(ClosedGame.objects.filter(partie_id__in=list(parties)))
    results = _grouped(PlayerResult.objects.filter(game__in=games).order_by("side", "pk"))
    lines = _grouped(SettlementLine.objects.filter(game__in=games).order_by("pk"))
    # The players' confirmations stay what they were: the games' results did not change.
    confirmations = _grouped(ResultConfirmation.objects.filter(game__in=games).order_by("pk"))
    ClosedGame.objects.filter(pk__in=[game.pk for game in games]).delete()
    renewed, kept_confirmations = [], []
    for game in games:
        kept = (results.get(game.pk, []), lines.get(game.pk, []))
        old = game.pk
        for row in (game, *kept[0], *kept[1]):
            row.pk = None
        renewed.append((game, *kept))
        kept_confirmations.append((game, confirmations.get(old, [])))
    games_save(renewed, ask=False)
    for game, rows in kept_confirmations:
        for row in rows:
            row.pk, row.game = None, game
    ResultConfirmation.objects.bulk_create([row for _, rows in kept_confirmations for row in rows])
    since: dict[int, object] = {}
    for game in games:  # each club's, from its earliest game
        since[game.club_id] = min(since.get(game.club_id, game.started_at), game.started_at)
    for club_id, started in since.items():
        ResultsChange.record(club_id, started)


def game_rows(
    partie: Partie,
    session: engine.Session,
    players: dict[str, Player],
    own: dict[str, Decimal] | None = None,
) -> list[GameRows]:
    """The rows of the partie's closed games, not yet saved (``own``: a chouette
    member's own stake)."""
    rows = []
    for result in session.results(Decimal(partie.stake), own):
        game = ClosedGame(
            partie=partie,
            number=result.number,
            club_id=partie.club_id,
            kind=partie.kind,
            started_at=partie.started_at,
            shutout=result.shutout,
        )
        copied = {"club_id": partie.club_id, "kind": partie.kind, "started_at": partie.started_at,
                  "partie": partie, "number": result.number}  # fmt: skip
        results = [
            PlayerResult(
                game=game,
                player=players[name],
                won=side == 0,
                shutout=side == 0 and result.shutout,
                net_points=result.net_points(name),
                money_e4=int(_money(result, name) / MONEY_SCALE),
                side=side,
                rank=result.ranks[side],
                **copied,
            )
            for side, members in enumerate(result.ranking)
            for name in members
        ]
        lines = [
            SettlementLine(game=game, payer=players[p.payer], payee=players[p.payee],
                           points=p.points, amount=p.amount)
            for p in result.payments
        ]  # fmt: skip
        rows.append((game, results, lines))
    return rows


def games_save(games: list[GameRows], ask: bool = True) -> None:
    """Save games with their rows in three bulk inserts, and (``ask``) ask each of their
    players linked to an account to confirm the result, in a fourth."""
    ClosedGame.objects.bulk_create([game for game, _, _ in games])
    for game, results, lines in games:  # the games have their keys now
        for row in (*results, *lines):
            row.game = game
    PlayerResult.objects.bulk_create([row for _, results, _ in games for row in results])
    SettlementLine.objects.bulk_create([row for _, _, lines in games for row in lines])
    if ask:
        ResultConfirmation.objects.bulk_create(
            ResultConfirmation(game=game, player=row.player)
            for game, results, _ in games
            for row in results
            if row.player.user_id is not None
        )


def stats_rows(
    partie: Partie, session: engine.Session, players: dict[str, Player]
) -> list[PartieStats]:
    """Each player's hands in the partie, not yet saved."""
    return [
        PartieStats(partie=partie, player=players[name], hands=s.hands, won=s.won,
                    gins=s.gins, undercuts=s.undercuts, points=s.points, club_id=partie.club_id,
                    kind=partie.kind, started_at=partie.started_at)
        for name, s in session.hand_stats().items()
    ]  # fmt: skip


def _money(result: engine.GameResult, player: str) -> Decimal:
    """The money the player received in the game, less what he paid."""
    return sum(
        (p.amount if p.payee == player else -p.amount for p in result.payments
         if player in (p.payee, p.payer)),
        Decimal(0),
    )  # fmt: skip


def _shape(rows: GameRows | None) -> tuple | None:
    """What a game's rows say, to tell a changed game from one stored as it is."""
    if rows is None:
        return None
    game, results, lines = rows
    return (
        game.shutout,
        game.club_id,
        game.started_at,
        tuple((r.player_id, r.won, r.side, r.rank, r.net_points, r.money_e4)
              for r in results),
        tuple((s.payer_id, s.payee_id, s.points, Decimal(s.amount)) for s in lines),
    )  # fmt: skip


def _stored(partie: Partie) -> dict[int, tuple]:
    """The shape of each stored game of the partie, by number."""
    games = {game.pk: game for game in ClosedGame.objects.filter(partie=partie)}
    results = _grouped(PlayerResult.objects.filter(game__partie=partie).order_by("side", "pk"))
    lines = _grouped(SettlementLine.objects.filter(game__partie=partie).order_by("pk"))
    return {
        game.number: _shape((game, results.get(pk, []), lines.get(pk, [])))
        for pk, game in games.items()
    }


def _grouped(rows) -> dict[int, list]:
    grouped: dict[int, list] = {}
    for row in rows:
        grouped.setdefault(row.game_id, []).append(row)
    return grouped
