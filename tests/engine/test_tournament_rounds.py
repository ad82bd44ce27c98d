"""Round robin and Swiss with a top cut (engine/tournaments): the invariants of the issue
over random tournaments of 2 to 128 players (hypothesis: 600 round robins and 700
Swiss tournaments a run, played at random with withdrawals and corrections), each Swiss
round of up to ten players checked against a brute force over every seating, and
examples."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    MatchWinner,
    Stage,
    System,
    TournamentError,
    TournamentPlan,
    TournamentPlay,
    Withdrawal,
    most_swiss_rounds,
    seed_positions,
    tournament_state,
)
from scorekeeper.engine.tournaments.rounds import swiss_bye, swiss_cost, swiss_table
from tests.engine.seatings import all_seatings
from tests.engine.tournament_play import (
    Played,
    by_lot,
    check_forfeits,
    fields,
    names,
    play_out,
    play_randomly,
    seeds_hold,
)

lots = st.integers(0, 2**32)
withdrawals = st.sampled_from([0, 0, 1, 3])  # about how many withdraw, at random moments
corrections = st.sampled_from([0.0, 0.0, 0.3])  # the chance of a correction after a round
# A round robin of 128 plays 8,128 matches, a Swiss of 128 pairs each round in a tenth of
# a second: the big fields come, but seldom.
ROUND_ROBIN_FIELDS = (4, 8, 8, 12, 12, 16, 16, 24, 32, *(4, 8, 12, 16) * 4, 64, 128)
SWISS_FIELDS = (4, 6, 8, 8, 10, 10, 12, 12, 16, 16, 24, *(6, 8, 10, 12) * 8, 32, 64, 128)


def round_robin(count: int) -> TournamentPlan:
    return TournamentPlan(System.ROUND_ROBIN, names(count))


# ---- round robin ------------------------------------------------------------------------


def check_schedule(state) -> None:
    """Berger tables: every pair meets once, nobody twice a round, an odd field's bye
    one a round and once to each player."""
    count = len(state.tournament.players)
    played = [m for m in state.matches if not m.bye]
    pairs = Counter(frozenset(m.players) for m in played)
    assert len(pairs) == count * (count - 1) // 2 and set(pairs.values()) == {1}
    rounds = {m.round for m in state.matches}
    assert rounds == set(range(1, count + count % 2))
    by_round: dict[int, list[str]] = {}
    byes = Counter()
    for match in state.matches:
        by_round.setdefault(match.round, []).extend(match.players)
        byes.update(match.players if match.bye else ())
    for seated in by_round.values():
        assert sorted(seated) == sorted(state.tournament.players)
    assert sorted(byes.values()) == ([1] * count if count % 2 else [])


@settings(max_examples=60)
@given(count=st.integers(2, 128))
def test_a_round_robin_of_2_to_128_players_is_the_berger_tables(count):
    check_schedule(tournament_state(round_robin(count), []))


@settings(max_examples=600)
@given(count=fields(ROUND_ROBIN_FIELDS), lot=lots, withdraw=withdrawals, correct=corrections)
def test_random_round_robins_keep_their_tables_and_rank_by_wins(count, lot, withdraw, correct):
    tournament = round_robin(count)
    played = play_randomly(tournament, random.Random(lot), withdraw, correct)
    state = played.state
    check_schedule(state)
    unplayed = tournament_state(tournament, []).matches
    assert [(m.id, m.players) for m in state.matches] == [(m.id, m.players) for m in unplayed]
    if not played.corrections:
        check_forfeits(played)
    wins = Counter(m.winner for m in state.matches if not m.bye)
    order = [p for place in state.standings for p in place.players]
    assert [wins[p] for p in order] == sorted((wins[p] for p in order), reverse=True)
    assert sorted(order) == sorted(tournament.players)
    if len(state.standings[0].players) == 1:
        assert state.champion == order[0]
    else:
        assert state.champion is None


def test_a_round_robin_of_four_is_the_berger_table():
    state = tournament_state(round_robin(4), [])
    assert [(m.id, m.players) for m in state.matches] == [
        ("R1-1", ("S001", "S004")),
        ("R1-2", ("S002", "S003")),
        ("R2-1", ("S001", "S002")),
        ("R2-2", ("S003", "S004")),
        ("R3-1", ("S001", "S003")),
        ("R3-2", ("S002", "S004")),
    ]


def test_a_round_robin_result_can_always_be_corrected():
    tournament = round_robin(3)
    results = [MatchWinner("R1-1", "S002"), MatchWinner("R2-1", "S001")]
    state = tournament_state(tournament, [*results, MatchWinner("R1-1", "S003")])
    assert state.match("R1-1").winner == "S003"


# ---- Swiss ------------------------------------------------------------------------------


@st.composite
def swiss_tournaments(draw, tops=SWISS_FIELDS, cut: bool = True):
    count = draw(fields(tops))
    rounds = draw(st.integers(1, min(most_swiss_rounds(count), 7)))
    cuts = [0] + ([k for k in (2, 4, 8, 16) if k <= count] if cut else [])
    return TournamentPlan(
        System.SWISS,
        names(count),
        rounds=rounds,
        top_cut=draw(st.sampled_from(cuts)),
        seed=draw(st.integers(0, 1000)),
    )


def swiss_rounds(state):
    swiss = [m for m in state.matches if m.stage is Stage.SWISS]
    return [[m for m in swiss if m.round == n] for n in sorted({m.round for m in swiss})]


@settings(max_examples=700)
@given(tournament=swiss_tournaments(), lot=lots, withdraw=withdrawals, correct=corrections)
def test_random_swiss_tournaments_keep_their_rules_and_their_withdrawn_players_out(
    tournament, lot, withdraw, correct
):
    played = play_randomly(tournament, random.Random(lot), withdraw, correct)
    state = played.state
    rounds = swiss_rounds(state)
    assert len(rounds) == tournament.rounds
    for matches in rounds:
        seated = [p for m in matches for p in m.players]
        assert len(seated) == len(set(seated)) and sum(m.bye for m in matches) <= 1
    swiss = [m for matches in rounds for m in matches]
    check_swiss_table(state, swiss)
    if not played.corrections:
        check_forfeits(played)
        check_pairings(played, rounds, brute_force=False)
    if not played.withdrawals and tournament.rounds <= len(tournament.players) // 2:
        # Dirac: with at most n/2 rounds, those not yet met always hold a seating.
        pairs = Counter(frozenset(m.players) for m in swiss if not m.bye)
        assert set(pairs.values()) <= {1}


@settings(max_examples=150)
@given(
    tournament=swiss_tournaments((4, 6, 8, 9, 10, 11), cut=False),
    lot=lots,
    withdraw=withdrawals,
)
def test_each_swiss_round_is_the_cheapest_seating_of_those_still_in(tournament, lot, withdraw):
    """Checked against a brute force over every seating: the fewest rematches, then the
    smallest squared score gaps, then the engine's whole cost; the bye the lowest placed
    of those still in with the fewest byes (none, while one of them has had none)."""
    played = play_randomly(tournament, random.Random(lot), withdraw)
    check_pairings(played, swiss_rounds(played.state), brute_force=True)


def check_swiss_table(state, swiss) -> None:
    """The Swiss order (score, then Buchholz), every player once, a withdrawn player's
    results counted for him and for his opponents' Buchholz; the standings every player
    once, the top cut's first."""
    table = state.swiss_table
    keys = [(line.score, line.buchholz) for line in table]
    assert keys == sorted(keys, reverse=True)
    assert [line.place for line in table] == list(range(1, len(table) + 1))
    assert sorted(line.player for line in table) == sorted(state.tournament.players)
    score = Counter(m.winner for m in swiss)
    for line in table:
        opponents = [p for m in swiss if line.player in m.players and not m.bye
                     for p in m.players if p != line.player]  # fmt: skip
        assert line.score == score[line.player]
        assert line.buchholz == sum(score[o] for o in opponents)
    placed = [p for place in state.standings for p in place.players]
    assert sorted(placed) == sorted(state.tournament.players)
    cut = {p for m in state.matches if m.stage is Stage.TOP_CUT for p in m.players}
    assert set(placed[: len(cut)]) == cut
    assert placed[len(cut) :] == [line.player for line in table if line.player not in cut]
    if not cut:
        assert state.champion == table[0].player
    else:
        final = [m for m in state.matches if m.stage is Stage.TOP_CUT][-1]
        assert state.champion == final.winner


def check_pairings(played: Played, rounds, brute_force: bool) -> None:
    """Round by round, as paired the moment the round before was complete: exactly the
    players not withdrawn by then, the bye by the rule, the cheapest seating (by brute
    force, where asked); the top cut the best of the Swiss order not withdrawn when the
    Swiss ended, in the standard positions (byes for the seats of too few)."""
    tournament = played.state.tournament
    when = {r.match: number for number, r in enumerate(played.results, start=1)}
    paired_at = 0  # round 1: at the start, before any withdrawal
    before = []
    for matches in rounds:
        out = {w.player for w in played.withdrawals if w.after < paired_at}
        seated = sorted(p for m in matches for p in m.players)
        assert seated == sorted(p for p in tournament.players if p not in out)
        table = swiss_table(tournament.players, before)
        lines = [line for line in table if line.player not in out]
        bye = [m.winner for m in matches if m.bye]
        assert bye == ([swiss_bye(lines)] if len(lines) % 2 else [])
        if bye:
            at = [line.player for line in lines].index(bye[0])
            fewest = min(line.byes for line in lines)
            assert lines[at].byes == fewest
            assert all(line.byes > fewest for line in lines[at + 1 :])
        if brute_force:
            check_cheapest(lines, bye, before, matches)
        before += matches
        paired_at = max([paired_at, *(when[m.id] for m in matches if not m.bye)])
    cut = tournament.top_cut
    if cut:
        out = {w.player for w in played.withdrawals if w.after < paired_at}
        best = [line.player for line in played.state.swiss_table if line.player not in out]
        first = [m for m in played.state.matches if m.stage is Stage.TOP_CUT and m.round == 1]
        positions = seed_positions(cut)
        expected = []
        for i in range(cut // 2):
            seats = [positions[2 * i], positions[2 * i + 1]]
            real = tuple(best[s - 1] for s in seats if s <= min(cut, len(best)))
            if real:
                expected.append(real)
        assert [m.players for m in first] == expected


def check_cheapest(lines, bye, before, matches) -> None:
    met = {frozenset(m.players) for m in before if not m.bye}
    lines = [line for line in lines if line.player not in bye]
    cost = swiss_cost(lines, met)
    score = {line.player: line.score for line in lines}

    def key(groups):
        return (
            sum(frozenset(g) in met for g in groups),
            sum((score[a] - score[b]) ** 2 for a, b in groups),
            sum(cost(a, b) for a, b in groups),
        )

    chosen = [m.players for m in matches if not m.bye]
    best = min(key(groups) for groups in all_seatings([line.player for line in lines]))
    assert key(chosen) == best


def test_swiss_round_one_pairs_the_upper_half_with_the_lower_half():
    tournament = TournamentPlan(System.SWISS, names(8), rounds=3)
    state = tournament_state(tournament, [])
    assert [m.players for m in state.matches] == [
        ("S001", "S005"),
        ("S002", "S006"),
        ("S003", "S007"),
        ("S004", "S008"),
    ]


def test_swiss_with_seeds_holding_crowns_seed_1_and_the_cut_seeds_by_the_swiss_order():
    tournament = TournamentPlan(System.SWISS, names(16), rounds=4, top_cut=8)
    state, _ = play_out(tournament, seeds_hold(tournament))
    assert state.champion == "S001"
    cut = [m for m in state.matches if m.stage is Stage.TOP_CUT and m.round == 1]
    top = [line.player for line in state.swiss_table[:8]]
    assert [m.players for m in cut] == [
        (top[0], top[7]),
        (top[3], top[4]),
        (top[1], top[6]),
        (top[2], top[5]),
    ]


def test_a_swiss_result_changes_only_while_the_next_round_has_no_result():
    tournament = TournamentPlan(System.SWISS, names(4), rounds=2)
    first = [MatchWinner("S1-1", "S001"), MatchWinner("S1-2", "S002")]
    state = tournament_state(tournament, first)
    assert {m.players for m in state.matches if m.round == 2} == {
        ("S001", "S002"),
        ("S003", "S004"),
    }
    # Round 2 is paired again after the correction: it has no result yet.
    changed = tournament_state(tournament, [*first, MatchWinner("S1-1", "S003")])
    assert ("S002", "S003") in {m.players for m in changed.matches if m.round == 2}
    played = [*first, MatchWinner("S2-1", "S001")]
    with pytest.raises(TournamentError, match="void S2-1 first"):
        tournament_state(tournament, [*played, MatchWinner("S1-1", "S003")])
    with pytest.raises(TournamentError, match="there is no match S3-1"):
        tournament_state(tournament, [*played, MatchWinner("S3-1", "S001")])


def test_a_later_swiss_round_is_not_playable_yet():
    tournament = TournamentPlan(System.SWISS, names(4), rounds=2, top_cut=2)
    with pytest.raises(TournamentError, match="result 1: S2-1 is not playable yet"):
        tournament_state(tournament, [MatchWinner("S2-1", "S001")])
    with pytest.raises(TournamentError, match="result 1: T1-1 is not playable yet"):
        tournament_state(tournament, [MatchWinner("T1-1", "S001")])


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"rounds": 0}, "rounds: 6 players play from 1 to 5 Swiss rounds, not 0"),
        ({"rounds": 3, "top_cut": 3}, "top_cut: the best 2, 4, 8, ... go on"),
        ({"rounds": 3, "top_cut": 8}, "at most the 6 players, not 8"),
    ],
)
def test_swiss_options_out_of_bounds_are_refused(options, line):
    with pytest.raises(TournamentError, match=line.replace("(", r"\(").replace(".", r"\.")):
        tournament_state(TournamentPlan(System.SWISS, names(6), **options), [])


def test_a_128_player_swiss_of_five_rounds_is_paired_without_a_rematch():
    tournament = TournamentPlan(System.SWISS, names(128), rounds=5, top_cut=8, seed=3)
    state, _ = play_out(tournament, by_lot(random.Random(5)))
    pairs = Counter(frozenset(m.players) for m in state.matches if m.stage is Stage.SWISS)
    assert set(pairs.values()) == {1}
    # The cut's 8 take places 1, 2, 3 (two) and 5 (four); the other 120 one each.
    assert [len(place.players) for place in state.standings[:4]] == [1, 1, 2, 4]
    assert len(state.standings) == 4 + 120


# ---- withdrawals --------------------------------------------------------------------------


def test_a_swiss_pairs_a_player_withdrawn_during_round_1_in_no_later_round():
    tournament = TournamentPlan(System.SWISS, names(6), rounds=3, top_cut=4, seed=1)
    first = [MatchWinner(f"S1-{n}", p) for n, p in ((1, "S001"), (2, "S002"), (3, "S003"))]
    # S004 lost S1-1 and withdrew after it, before round 1 was over.
    state = tournament_state(tournament, first, [Withdrawal("S004", 1)])
    second = [m.players for m in state.matches if m.round == 2 and m.stage is Stage.SWISS]
    assert second == [("S001", "S002"), ("S003", "S005"), ("S006",)]
    # His loss counts: for him, and for the Buchholz of the player who beat him.
    line = {row.player: row for row in state.swiss_table}
    assert (line["S004"].score, line["S004"].opponents) == (0, ("S001",))
    assert line["S001"].buchholz == 0 and state.withdrawn == ("S004",)


def test_a_swiss_round_paired_before_a_withdrawal_keeps_him_and_forfeits_his_match():
    tournament = TournamentPlan(System.SWISS, names(4), rounds=3)
    first = [MatchWinner("S1-1", "S001"), MatchWinner("S1-2", "S002")]
    state = tournament_state(tournament, first, [Withdrawal("S003", 2)])
    (match,) = [m for m in state.playable() if "S003" in m.players]
    assert state.forfeits() == [
        MatchWinner(match.id, next(p for p in match.players if p != "S003"))
    ]
    state = tournament_state(tournament, [*first, *state.forfeits()], [Withdrawal("S003", 2)])
    assert all("S003" not in m.players for m in state.matches if m.round == 3)


def test_a_top_cut_takes_the_best_not_withdrawn_when_the_swiss_ended():
    tournament = TournamentPlan(System.SWISS, names(4), rounds=1, top_cut=2)
    results = [MatchWinner("S1-1", "S001"), MatchWinner("S1-2", "S002")]
    state = tournament_state(tournament, results, [Withdrawal("S001", 1)])
    assert [line.player for line in state.swiss_table][:2] == ["S001", "S002"]
    assert state.match("T1-1").players == ("S002", "S003")
    # Withdrawn once the Swiss was over, he keeps his seat (and forfeits it).
    state = tournament_state(tournament, results, [Withdrawal("S001", 2)])
    assert state.match("T1-1").players == ("S001", "S002")
    assert state.forfeits() == [MatchWinner("T1-1", "S002")]


def test_a_top_cut_short_of_players_gives_its_top_seeds_byes():
    tournament = TournamentPlan(System.SWISS, names(4), rounds=1, top_cut=4)
    results = [MatchWinner("S1-1", "S001"), MatchWinner("S1-2", "S002")]
    state = tournament_state(tournament, results, [Withdrawal("S003", 0)])
    first = [(m.players, m.bye) for m in state.matches if m.stage is Stage.TOP_CUT and m.round == 1]
    assert first == [(("S001",), True), (("S002", "S004"), False)]


def test_a_late_odd_field_gives_the_bye_to_the_lowest_placed_with_the_fewest_byes():
    """Five players, five rounds; two withdraw once round 3 is paired. The three left
    have each had a bye by then: rounds 4 and 5 give a second one to two of them,
    never a third to anyone."""
    tournament = TournamentPlan(System.SWISS, names(5), rounds=5, seed=2)
    play = TournamentPlay(tournament)
    withdrawn = False
    while not (state := play.state()).is_over():
        if not withdrawn and max(m.round for m in state.matches) == 3:
            no_bye = [line.player for line in state.swiss_table if line.byes == 0]
            with_bye = [line.player for line in state.swiss_table if line.byes > 0]
            for player in (*no_bye, *with_bye)[:2]:
                play.withdraw(player)
            withdrawn = True
        for result in state.forfeits() or [
            MatchWinner(m.id, m.players[0]) for m in state.playable()
        ]:
            play.enter(result)
    lines = [line for line in state.swiss_table if line.player not in state.withdrawn]
    assert sorted(line.byes for line in lines) == [1, 2, 2]
    assert [sum(m.bye for m in state.matches if m.round == n) for n in (4, 5)] == [1, 1]


def test_a_swiss_whose_players_all_withdrew_still_ends():
    tournament = TournamentPlan(System.SWISS, names(3), rounds=3)
    everyone = [Withdrawal(p, 0) for p in names(3)]
    state = tournament_state(tournament, [], everyone)
    assert state.forfeits() == [MatchWinner("S1-1", "S001")]  # both out: the upper seat
    state = tournament_state(tournament, state.forfeits(), everyone)
    assert state.is_over() and {m.round for m in state.matches} == {1}
    assert [line.player for line in state.swiss_table] == ["S001", "S003", "S002"]


def test_a_round_robin_withdrawal_leaves_the_tables_as_they_are_and_forfeits_the_rest():
    tournament = round_robin(4)
    results = [MatchWinner("R1-1", "S004"), MatchWinner("R1-2", "S002")]
    state = tournament_state(tournament, results, [Withdrawal("S004", 2)])
    assert [(m.id, m.players) for m in state.matches] == [
        (m.id, m.players) for m in tournament_state(tournament, []).matches
    ]
    assert state.forfeits() == [MatchWinner("R2-2", "S003"), MatchWinner("R3-2", "S002")]
    state = tournament_state(
        tournament,
        [*results, *state.forfeits(), MatchWinner("R2-1", "S001"), MatchWinner("R3-1", "S001")],
        [Withdrawal("S004", 2)],
    )
    # His win before he withdrew stands: level with S003 on wins, below him by the
    # match between them, the one he forfeited.
    assert [p.players for p in state.standings] == [("S001",), ("S002",), ("S003",), ("S004",)]
    assert Counter(m.winner for m in state.matches)["S004"] == 1
