"""The club's roster: a player added (after the near-name question), a merge that keeps
its record and can be undone. The roster page and the start form's question are in
test_roster_pages.py."""

# ruff: noqa: F811 (the fixtures of test_players.py, imported, are named as arguments)

import pytest
from django.utils import timezone

from scorekeeper.league.selectors import season_table
from scorekeeper.table import services
from scorekeeper.table.models import (
    EveningPayment,
    HandChange,
    Partie,
    Player,
    PlayerMerge,
    PlayerResult,
)
from tests.clubs.test_players import G, games, played, player, season, snapshot  # noqa: F401
from tests.league.conftest import work

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_between(club, scorer, games):
    """An evening where Anna beats Dora and Dora beats Ann by as much: its one transfer is
    Ann paying Anna, which a merge of the two drops."""
    for debt in EveningPayment.objects.all():  # Carl has paid what he owed Ann
        services.evening_payment_paid(payment=debt)
    evening = services.evening_start(
        owner=scorer, club=club, name="Even", played_on=timezone.localdate()
    )
    played(club, scorer, ("Anna", "Dora"), [G(90, knocker="Anna")], evening=evening)
    played(club, scorer, ("Dora", "Ann"), [G(90, knocker="Dora")], evening=evening)
    (payment,) = services.evening_settle(evening=evening)
    assert (payment.payer.name, payment.payee.name) == ("Ann", "Anna")
    return payment


def test_a_merge_keeps_a_record_of_who_stayed_who_went_and_what_moved(
    games, paid_between, scorer, member
):
    services.player_link(player=player("Ann"), user=member)
    ann = player("Ann")
    parties = sorted(Partie.objects.filter(seats__player=ann).values_list("pk", flat=True))

    merge = services.player_merge(keep=player("Anna"), gone=ann, user=scorer)

    merge.refresh_from_db()
    assert (merge.keep_name, merge.gone_name, merge.gone_id, merge.by) == (
        "Anna", "Ann", ann.pk, scorer,
    )  # fmt: skip
    assert merge.gone_user == member and merge.took_account
    assert sorted(merge.moved["parties"]) == parties
    assert (merge.parties, merge.games, merge.payments) == (3, 2, 2)  # Carl's debt, Ann's
    assert merge.moved["dropped"][0]["gone_pays"] is True
    assert not merge.is_undone


def test_an_undo_puts_every_row_back_and_enters_the_gone_player_again(
    games, paid_between, season, scorer, member
):
    services.player_link(player=player("Ann"), user=member)
    ann = player("Ann")
    work()
    before = snapshot()
    standings = {row.line.player: row.line for row in season_table(season).rows}
    merge = services.player_merge(keep=player("Anna"), gone=ann, user=scorer)
    assert snapshot() != before

    back = services.player_merge_undo(merge=merge, user=scorer)
    work()

    assert (back.pk, back.name, back.user, back.club_id) == (ann.pk, "Ann", member, ann.club_id)
    assert player("Anna").user is None  # she had taken Ann's account: it is Ann's again
    assert snapshot() == before
    payment = EveningPayment.objects.get(payer=back, payee=player("Anna"))
    assert payment.amount == paid_between.amount and payment.evening == paid_between.evening
    assert {row.line.player: row.line for row in season_table(season).rows} == standings
    merge.refresh_from_db()
    assert merge.is_undone and merge.undone_by == scorer


def test_an_undo_renews_the_games_and_names_the_player_again_in_each_partie(
    games, scorer, monkeypatch
):
    ann = player("Ann")
    merge = services.player_merge(keep=player("Anna"), gone=ann, user=scorer)
    renewed = []
    real = services.players.games_renew

    def renew(parties):
        renewed.append(parties)
        real(parties=parties)

    monkeypatch.setattr(services.players, "games_renew", renew)

    services.player_merge_undo(merge=merge, user=scorer)

    assert renewed == [merge.moved["parties"]]
    for partie in Partie.objects.filter(pk__in=merge.moved["parties"]):
        assert "Ann" in partie.summary["players"] and "Anna" not in partie.summary["players"]
        change = partie.changes.filter(action=HandChange.Action.PLAYER).first()
        assert (change.before, change.after) == (
            {"player": "Anna"}, {"player": "Ann", "unmerged": True},
        )  # fmt: skip


def test_games_closed_after_the_merge_go_back_with_the_player(games, scorer):
    first, second, third, running = games
    merge = services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)
    services.hand_record(partie=running, hand=G(90, knocker="Anna"), user=scorer)
    assert PlayerResult.objects.filter(partie=running, player=player("Anna")).exists()

    back = services.player_merge_undo(merge=merge, user=scorer)

    assert PlayerResult.objects.get(partie=running, won=True).player == back
    assert not PlayerResult.objects.filter(partie__in=[running, third], player__name="Anna")


def test_an_undo_is_refused_twice_while_merged_on_or_beside_a_new_player_of_the_name(
    games, scorer, club
):
    merge = services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)
    services.player_add(club=club, name="ann", owner=scorer)
    with pytest.raises(services.PlayerChangeError, match="has a player named Ann already"):
        services.player_merge_undo(merge=merge, user=scorer)
    Player.objects.get(name="ann").delete()

    dora = services.player_add(club=club, name="Dora", owner=scorer)
    later = services.player_merge(keep=dora, gone=player("Anna"), user=scorer)
    with pytest.raises(services.PlayerChangeError, match="Anna has been merged into another"):
        services.player_merge_undo(merge=merge, user=scorer)

    services.player_merge_undo(merge=later, user=scorer)
    services.player_merge_undo(merge=merge, user=scorer)
    with pytest.raises(services.PlayerChangeError, match="undone already"):
        services.player_merge_undo(merge=merge, user=scorer)
    names = sorted(Player.objects.values_list("name", flat=True))
    assert names == ["Ann", "Anna", "Ben", "Carl", "Dora"]
    assert PlayerMerge.objects.filter(undone_at__isnull=False).count() == 2


def test_a_player_is_added_once_whatever_the_case_of_his_name(club, scorer):
    ben = services.player_add(club=club, name=" Ben ", owner=scorer)

    assert (ben.name, ben.owner, ben.club) == ("Ben", scorer, club)
    with pytest.raises(services.PlayerChangeError, match="has a player named ben already"):
        services.player_add(club=club, name="ben", owner=scorer)
    with pytest.raises(services.PlayerChangeError, match="Enter the player's name"):
        services.player_add(club=club, name="  ", owner=scorer)
