"""Random changes, as a club makes them over a season (games closed, the closing hand
deleted, parties deleted and restored, players renamed, merged and the merge undone,
games confirmed, disputed, decided and unlocked, the season made to count confirmed
games only or every game): after each one, once the worker has run, every stored
standings line and rating of the season, and every stored rating of the club's all
time, is what the engine counts afresh from the season's own document.

A hypothesis state machine; each example starts a club of its own (the examples share
the test's database transaction). On both databases, as every test."""

from __future__ import annotations

import contextlib
import itertools
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.engine.season import dumps, loads, season_standings, standings_json
from scorekeeper.league import ratings, selectors
from scorekeeper.league import services as league_services
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Player, PlayerMerge
from scorekeeper.table.services import confirmations
from scorekeeper.table.services.results import GameLocked
from tests.clubs.conftest import join
from tests.league.conftest import work

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]
ASKED = ["Anna", "Ben"]  # linked to accounts: asked to confirm their games
REFUSED = (ValueError, GameLocked)  # what a change the club may not make raises
clubs = itertools.count(1)


def afresh(season) -> dict:
    """The season's standings, counted by the engine from the season's document as the
    app exports it (``standings --season ID --format season``), read back from its text."""
    text = dumps(selectors.season_document(season))
    return standings_json(season_standings(loads(text, limit=None)))


class ClubSeason(RuleBasedStateMachine):
    parties = Bundle("parties")

    def __init__(self) -> None:
        super().__init__()
        n = next(clubs)
        self.owner = User.objects.create_user(f"owner{n}")
        self.club = club_services.club_create(name=f"Club {n}", owner=self.owner)
        today = timezone.localdate()
        league = league_services.league_create(club=self.club, name="League")
        self.season = league_services.season_create(
            league=league,
            name="Season",
            starts_on=today - timedelta(days=30),
            ends_on=today + timedelta(days=30),
        )
        self.users = {}
        for name in NAMES:
            player = services.player_add(club=self.club, name=name, owner=self.owner)
            if name in ASKED:
                user = User.objects.create_user(f"{name.lower()}{n}")
                join(self.club, user, Role.MEMBER)
                services.player_link(player=player, user=user)
                self.users[name] = user
        self.renames = itertools.count(1)
        self.merges: list[PlayerMerge] = []

    def names(self) -> list[str]:
        return list(Player.objects.filter(club=self.club).values_list("name", flat=True))

    # The changes -------------------------------------------------------------------

    @rule(target=parties, pair=st.permutations(range(4)).map(lambda p: p[:2]))
    def start(self, pair):
        names = self.names()
        seated = [names[i % len(names)] for i in pair]
        if seated[0] == seated[1]:
            seated[1] = next(name for name in names if name != seated[0])
        return services.partie_start(
            owner=self.owner,
            club=self.club,
            names=seated,
            rules=engine.preset("classic"),
            first_dealer=seated[0],
        )

    @rule(partie=parties, first=st.booleans(), gin=st.booleans())
    def record(self, partie, first, gin):
        partie.refresh_from_db()
        if partie.deleted_at is not None or not partie.is_running:
            return
        knocker = partie.seats.order_by("position")[0 if first else 1].player.name
        hand = (
            engine.Hand.gin(90, knocker=knocker)
            if gin
            else engine.Hand.knock(2, 30, knocker=knocker)
        )
        services.hand_record(partie=partie, hand=hand, user=self.owner)

    @rule(partie=parties)
    def delete_last_hand(self, partie):
        partie.refresh_from_db()
        last = partie.hands.order_by("-number").values_list("number", flat=True).first()
        if partie.deleted_at is not None or last is None:
            return
        with contextlib.suppress(*REFUSED):  # a locked game
            services.hand_delete(partie=partie, number=last, user=self.owner)

    @rule(partie=parties)
    def delete_or_restore(self, partie):
        partie.refresh_from_db()
        with contextlib.suppress(*REFUSED):
            if partie.deleted_at is None:
                services.partie_delete(partie=partie, user=self.owner)
            else:
                services.partie_restore(partie=partie, user=self.owner)

    @rule(which=st.integers(0, 3))
    def rename(self, which):
        player = Player.objects.filter(club=self.club).order_by("pk")[which % 4]
        name = f"{player.name.split()[0]} {next(self.renames)}"
        services.player_rename(player=player, name=name, user=self.owner)

    @rule(which=st.integers(0, 3))
    def merge(self, which):
        """A second entry of one person plays a game, then is merged into the first."""
        first_four = Player.objects.filter(club=self.club).order_by("pk")
        keep, other = first_four[which], first_four[(which + 1) % 4]
        twin = services.player_add(
            club=self.club, name=f"Twin {next(self.renames)}", owner=self.owner
        )
        partie = services.partie_start(
            owner=self.owner, club=self.club, names=[twin.name, other.name],
            rules=engine.preset("classic"), first_dealer=twin.name,
        )  # fmt: skip
        services.hand_record(
            partie=partie, hand=engine.Hand.gin(90, knocker=twin.name), user=self.owner
        )
        self.merges.append(services.player_merge(keep=keep, gone=twin, user=self.owner))

    @precondition(lambda self: self.merges)
    @rule()
    def undo_merge(self):
        with contextlib.suppress(*REFUSED):
            services.player_merge_undo(merge=self.merges.pop(), user=self.owner)

    @rule(game_at=st.integers(0, 50), name=st.sampled_from(ASKED), dispute=st.booleans())
    def confirm_or_dispute(self, game_at, name, dispute):
        game = self._game(game_at)
        if game is None:
            return
        with contextlib.suppress(*REFUSED):  # not his game, or settled
            if dispute:
                confirmations.result_dispute(game=game, user=self.users[name], note="no")
            else:
                confirmations.result_confirm(game=game, user=self.users[name])

    @rule(game_at=st.integers(0, 50), decide=st.booleans())
    def decide_or_unlock(self, game_at, decide):
        game = self._game(game_at)
        if game is None:
            return
        with contextlib.suppress(*REFUSED):
            if decide:
                confirmations.game_decide(game=game, user=self.owner, reason="It stands")
            else:
                confirmations.game_unlock(game=game, user=self.owner)

    @rule(only=st.booleans())
    def count_confirmed_only(self, only):
        league_services.season_settings_change(season=self.season, confirmed_games_only=only)

    def _game(self, at: int) -> ClosedGame | None:
        games = list(ClosedGame.objects.filter(club_id=self.club.pk).order_by("pk"))
        return games[at % len(games)] if games else None

    # After every change, once the worker has run -----------------------------------

    @invariant()
    def stored_figures_are_the_recount(self) -> None:
        work()
        self.season.refresh_from_db()
        stored = standings_json(selectors.season_table(self.season).standings)
        assert stored == afresh(self.season)
        club = selectors.club_book(self.club).rating_scope
        kept = sorted(ratings.current_rows(club.owner))
        ratings.rate_from(club, None)  # the club's all time rated afresh
        assert sorted(ratings.current_rows(club.owner)) == kept


def test_after_every_random_change_the_stored_figures_are_the_recount():
    """10 clubs of 20 changes each: 200 changes on each database."""
    run_state_machine_as_test(
        ClubSeason,
        settings=settings(
            max_examples=10,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
