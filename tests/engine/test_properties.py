"""Invariants of the engine over random rules and random valid hands (hypothesis).

The session invariants run over every supported kind: two-player, Hollywood,
match, partnership, chouette and three-player rotation.
"""

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.cards import RANKS, Card, Suit
from scorekeeper.engine.game import Game, GameClosedError
from scorekeeper.engine.hand import (
    MAX_DEADWOOD,
    MAX_DEADWOOD_ROUND_THE_CORNER,
    Hand,
    HandError,
    HandKind,
    Outcome,
    knock_limit,
    score_hand,
)
from scorekeeper.engine.partnership import Round
from scorekeeper.engine.record import Record, parse_record, record_json, tally
from scorekeeper.engine.rules import PRESETS, DealerRule, OklahomaAce, Shutout, SpadeDouble, preset
from scorekeeper.engine.sessions import SESSION_KINDS, session_class

PLAYERS = ("A", "B")
FOUR = ("A", "B", "C", "D")  # partnership: table 1 A v B, table 2 C v D
EIGHT = ("A", "B", "C", "D", "E", "F", "G", "H")  # a chouette seats three to eight
ROTATING = ("chouette", "three_player")  # each hand between the box and the captain

cards = st.builds(Card, st.integers(1, len(RANKS)), st.sampled_from(Suit))
bonuses = st.integers(0, 60)


@st.composite
def rulesets(draw, presets=PRESETS):
    name = draw(st.sampled_from(presets))
    optional = {
        "tie_is_undercut": st.booleans(),
        "undercut_bonus": bonuses,
        "gin_bonus": bonuses,
        "big_gin_bonus": st.none() | bonuses,
        "box_bonus": bonuses,
        "game_bonus": st.integers(0, 200),
        "target": st.integers(1, 250),
        "shutout": st.sampled_from(Shutout),
        "shutout_bonus": st.integers(0, 200),
        "dealer_rule": st.sampled_from(DealerRule),
        "extra_boxes_gin": st.integers(0, 3),
        "extra_boxes_undercut": st.integers(0, 3),
        "money_unit": st.sampled_from(["0.01", "0.05", "0.5", "1"]),
    }
    if name == "oklahoma":
        optional |= {
            "spade_double": st.sampled_from(SpadeDouble),
            "oklahoma_ace": st.sampled_from(OklahomaAce),
        }
    else:
        optional["knock_limit"] = st.integers(0, 10)
    return preset(name, **draw(st.fixed_dictionaries({}, optional=optional)))


@st.composite
def hands(draw, rules, players=PLAYERS):
    """A hand that can have happened under the rules (its knocker named)."""
    upcard = draw(cards) if rules.is_oklahoma else None
    highest = MAX_DEADWOOD_ROUND_THE_CORNER if rules.round_the_corner else MAX_DEADWOOD
    limit = knock_limit(rules, upcard) if rules.is_oklahoma else int(rules.knock_limit)
    kinds = [HandKind.NO_GAME, HandKind.GIN]
    if limit > 0:
        kinds += [HandKind.KNOCK, HandKind.KNOCK]  # knocks are the common case
    if rules.big_gin_bonus is not None:
        kinds.append(HandKind.BIG_GIN)
    kind = draw(st.sampled_from(kinds))
    if kind == HandKind.NO_GAME:
        return Hand.no_game()
    knocker = draw(st.sampled_from(players))
    dd = draw(st.integers(0, highest))
    if kind == HandKind.KNOCK:
        return Hand.knock(draw(st.integers(1, limit)), dd, knocker=knocker, upcard=upcard)
    return Hand.gin(dd, knocker=knocker, upcard=upcard, big=kind == HandKind.BIG_GIN)


@st.composite
def games(draw, presets=PRESETS):
    """Rules, a first dealer and the hands of one game as far as it went."""
    rules = draw(rulesets(presets))
    first_dealer = draw(st.sampled_from(PLAYERS))
    played = draw(st.lists(hands(rules), max_size=30))
    game = Game(PLAYERS, rules, first_dealer)
    accepted = []
    for hand in played:
        if game.is_over():
            break
        game.record(hand)
        accepted.append(hand)
    return rules, first_dealer, tuple(accepted)


def finish(game):
    """Big gins would do as well; plain gins of 98 close any game within three hands."""
    upcard = Card.parse("KH") if game.rules.is_oklahoma else None
    while not game.is_over():
        game.record(Hand.gin(MAX_DEADWOOD, knocker="A", upcard=upcard))


@given(st.data())
def test_a_generated_hand_is_always_valid(data):
    # The other properties rely on it: a refused generated hand would hide in their failures.
    rules = data.draw(rulesets())
    score = score_hand(data.draw(hands(rules)), rules)
    assert score.points >= 0


@given(games(), st.booleans())
def test_totals_are_never_negative(game, finished):
    rules, first_dealer, played = game
    game = Game.replay(PLAYERS, rules, first_dealer, played)
    if finished:
        finish(game)
    for final in game.tally().players.values():
        assert min(final.points, final.boxes, final.box_bonus, final.game_bonus) >= 0
        assert final.shutout_bonus >= 0
        assert final.total >= final.points


@given(games())
def test_running_totals_never_decrease(game):
    rules, first_dealer, played = game
    lines = Game.replay(PLAYERS, rules, first_dealer, played).lines
    for before, after in zip(lines, lines[1:], strict=False):
        for player in PLAYERS:
            assert after.points[player] >= before.points[player]
            assert after.boxes[player] >= before.boxes[player]


@given(games())
def test_each_hand_adds_its_points_and_boxes_to_its_winner_only(game):
    rules, first_dealer, played = game
    previous = dict.fromkeys(PLAYERS, 0), dict.fromkeys(PLAYERS, 0)
    for line in Game.replay(PLAYERS, rules, first_dealer, played).lines:
        for player in PLAYERS:
            won = player == line.winner
            assert line.points[player] - previous[0][player] == (line.score.points if won else 0)
            assert line.boxes[player] - previous[1][player] == (line.score.boxes if won else 0)
        previous = line.points, line.boxes


@given(games())
def test_the_game_closes_exactly_when_a_total_reaches_the_target(game):
    rules, first_dealer, played = game
    game = Game.replay(PLAYERS, rules, first_dealer, played)
    for line in game.lines[:-1]:
        assert max(line.points.values()) < rules.target
    if game.is_over():
        assert game.points[game.winner] >= rules.target
        assert game.lines[-1].winner == game.winner
    else:
        assert max(game.points.values()) < rules.target


@given(games())
def test_the_lower_final_pays_the_difference(game):
    rules, first_dealer, played = game
    game = Game.replay(PLAYERS, rules, first_dealer, played)
    finish(game)
    result = game.tally()
    loser = game.opponent(game.winner)
    assert result.net == result.players[game.winner].total - result.players[loser].total
    for payment in result.settle(Decimal("1")):
        assert result.players[payment.payer].total < result.players[payment.payee].total
        assert payment.points == abs(result.net)


@given(rulesets(["oklahoma"]), cards, st.integers(0, 10), st.integers(0, MAX_DEADWOOD))
def test_oklahoma_upcard_sets_the_limit_and_spades_double(rules, upcard, dk, dd):
    hand = Hand.knock(dk, dd, knocker="A", upcard=upcard)
    limit = 10 if upcard.rank > 10 else upcard.rank
    if upcard.rank == 1:
        limit = 1 if rules.oklahoma_ace == OklahomaAce.ONE else 0
    assert knock_limit(rules, upcard) == limit
    if dk > limit:
        with pytest.raises(HandError) as error:
            score_hand(hand, rules)
        assert error.value.code == ("gin_only" if limit == 0 else "over_limit")
        return
    score = score_hand(hand, rules)
    doubled = upcard.suit == Suit.SPADES and rules.spade_double != SpadeDouble.OFF
    assert score.multiplier == (2 if doubled else 1)
    if score.outcome == Outcome.GIN:
        base = dd + rules.gin_bonus
    elif score.outcome == Outcome.UNDERCUT:
        base = dk - dd + rules.undercut_bonus
    else:
        base = dd - dk
    assert score.points == base * score.multiplier
    extra = rules.extra_boxes_undercut if score.outcome == Outcome.UNDERCUT else 0
    extra = rules.extra_boxes_gin if score.outcome == Outcome.GIN else extra
    boxes_doubled = doubled and rules.spade_double == SpadeDouble.POINTS_AND_BOXES
    assert score.boxes == (1 + extra) * (2 if boxes_doubled else 1)


# Every kind of session.


def entries(rules, kind, session=None):
    """Entries a session of the kind records: hands, or rounds of two tables.

    A chouette or three-player hand is played by the box and the captain of the
    moment, so its knocker is drawn from the session's roles.
    """
    if kind == "partnership":
        tables = st.tuples(hands(rules, FOUR[:2]), hands(rules, FOUR[2:]))
        return st.builds(Round, tables)
    if kind in ROTATING and session is not None:
        return hands(rules, session.roles.table)
    return hands(rules)


def seated_players(draw, kind):
    if kind == "partnership":
        return FOUR
    if kind == "chouette":
        return EIGHT[: draw(st.integers(3, 8))]
    if kind == "three_player":
        return EIGHT[:3]
    return PLAYERS


# Sessions that end by themselves; a chouette goes on until the table stops.
ENDING_KINDS = tuple(kind for kind in SESSION_KINDS if kind != "chouette")


@st.composite
def sessions(draw, kinds=tuple(SESSION_KINDS)):
    """A kind, its rules and first dealer, and the entries of a session as far as it went."""
    kind = draw(st.sampled_from(kinds))
    rules = draw(rulesets())
    if kind == "match":
        rules = rules.replace(best_of=draw(st.sampled_from([1, 3, 5, 7])))
    players = seated_players(draw, kind)
    # A chouette's first hand is dealt by the first captain, a three-player
    # rotation's by the box (None: the same, by the rule).
    dealers = {"chouette": [None, players[1]], "three_player": [None, players[0]]}
    first_dealer = draw(st.sampled_from(dealers.get(kind, players)))
    session = session_class(kind)(players, rules, first_dealer)
    accepted = []
    for _ in range(draw(st.integers(0, 40))):
        if session.is_over():
            break
        entry = draw(entries(rules, kind, session))
        session.record(entry)
        accepted.append(entry)
    # A chouette's members may each play at a stake of their own; the others at 0.05.
    stakes = {}
    if kind == "chouette":
        members = draw(st.lists(st.sampled_from(players), unique=True))
        stakes = {p: Decimal(draw(st.integers(0, 300))) / 100 for p in members}
    return Record(kind, rules, players, first_dealer, Decimal("0.05"), tuple(accepted), stakes)


def replayed(record):
    return session_class(record.kind).replay(
        record.players, record.rules, record.first_dealer, record.hands
    )


def winning_entry(session):
    """An entry that A (and A's partner), or the box, win by at least 98 points."""
    upcard = Card.parse("KH") if session.rules.is_oklahoma else None
    knocker = session.roles.box if session.kind in ROTATING else "A"
    hand = Hand.gin(MAX_DEADWOOD, knocker=knocker, upcard=upcard)
    if session.kind == "partnership":
        return Round((hand, Hand.gin(MAX_DEADWOOD, knocker="C", upcard=upcard)))
    return hand


def finish_session(session):
    """Record winning entries until the session is over (a chouette: its last game
    closed); return them."""

    def finished():
        if session.kind == "chouette":
            return bool(session.lines) and session.games()[-1].closed
        return session.is_over()

    added = []
    while not finished():
        added.append(winning_entry(session))
        session.record(added[-1])
    return added


@given(sessions(), st.sampled_from(["0", "0.05", "0.125", "1", "3.333"]), st.booleans())
def test_balances_sum_to_zero_for_every_kind(record, stake, finished):
    if finished:  # every game closed: every kind settles something
        added = finish_session(replayed(record))
        record = dataclasses.replace(record, hands=record.hands + tuple(added))
    record = dataclasses.replace(record, stake=Decimal(stake))
    result = tally(record)
    assert sum(b["points"] for b in result["balances"].values()) == 0
    assert sum(Decimal(b["amount"]) for b in result["balances"].values()) == 0
    for line in result["settlement"]:
        assert line["points"] > 0


@given(sessions(ENDING_KINDS), st.data())
def test_a_closed_session_refuses_another_entry_and_changes_nothing(record, data):
    session = replayed(record)
    finish_session(session)
    before = (list(session.lines), session.games(), session.dealer, session.settle(Decimal(1)))
    with pytest.raises(GameClosedError):
        session.record(data.draw(entries(session.rules, session.kind)))
    assert (list(session.lines), session.games(), session.dealer, session.settle(Decimal(1))) == (
        before
    )


@given(sessions())
def test_the_same_entries_give_the_same_tally_for_every_kind(record):
    assert tally(record) == tally(record)
    assert tally(parse_record(record_json(record))) == tally(record)
    assert replayed(record).lines == replayed(record).lines


@given(sessions(["hollywood"]))
def test_hollywood_columns_fall_from_game_1_to_game_3_while_all_are_open(record):
    for line in replayed(record).lines:
        if not any(line.closed):
            for player in PLAYERS:
                assert line.points[0][player] >= line.points[1][player] >= line.points[2][player]


@given(sessions(["hollywood"]))
def test_every_scored_hollywood_hand_lands_in_an_open_game(record):
    open_before = (True, True, True)
    for line in replayed(record).lines:
        if line.winner is not None:
            assert line.entered
            assert all(open_before[g] for g in line.entered)
        else:
            assert line.entered == ()
        open_before = tuple(not closed for closed in line.closed)


@given(sessions(["hollywood"]))
def test_hollywood_games_close_exactly_when_a_column_reaches_the_target(record):
    session = replayed(record)
    for game, result in zip(range(3), session.games(), strict=True):
        reached = max(session.points[game].values()) >= record.rules.target
        assert result.closed == reached


@given(sessions(["match"]))
def test_a_match_closes_every_game_but_the_last_and_ends_on_a_majority(record):
    match = replayed(record)
    finish_session(match)
    results = match.games()
    assert all(result.closed for result in results)
    won = match.games_won()
    assert sum(won.values()) == len(results) <= record.rules.best_of
    assert won[match.winner] == record.rules.best_of // 2 + 1
    assert [line.game for line in match.lines] == sorted(line.game for line in match.lines)


@given(sessions(["partnership"]))
def test_a_partnership_round_gives_its_net_and_one_box_to_one_team_at_most(record):
    previous = None
    for line in replayed(record).lines:
        raw = dict.fromkeys(line.points, 0)
        for table in line.tables:
            if table.winner is not None:
                team = "A & C" if table.winner in ("A", "C") else "B & D"
                raw[team] += table.score.points
        net = raw["A & C"] - raw["B & D"]
        assert line.gained == {"A & C": max(net, 0), "B & D": max(-net, 0)}
        boxes = dict.fromkeys(line.points, 0) if previous is None else previous.boxes
        assert sum(line.boxes.values()) - sum(boxes.values()) == (1 if net else 0)
        previous = line
