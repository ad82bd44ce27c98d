"""Scorekeeper's hand evaluator against RLCard's gin rummy melding, in one process.

    .venv/bin/python bench/evaluator.py [--hands N] [--rounds R] [--seed S]

`make bench` installs RLCard (bench/requirements.txt, never the app's requirements)
and runs this after bench/run.py. It prints figures and never fails on them: each
target is reported as met or NOT MET, and the exit status is 0 unless the bench
itself broke.

1. Least deadwood of 10 cards: `scorekeeper.engine.evaluate` (the whole Evaluation:
   melds, deadwood cards, deadwood) against RLCard's `get_best_meld_clusters` plus
   `get_deadwood_count` of the first best cluster, which is how RLCard's own scorers
   get a hand's deadwood. Two sets of hands: uniform random deals, and the hands of
   knock situations (below), which hold more melds. Target: ours at least 3x faster
   (ratio of the medians per hand).
2. A knock: `knock_outcome` (the knocker's least-deadwood meldings, the one leaving
   the defender most, the defender's every melding with optimal chained lay-offs,
   the score) against RLCard evaluating both hands without lay-offs. Target: ours no
   slower.
3. Agreement: both must find the same least deadwood for every hand evaluated.
   RLCard's rules are the classic ones (sets of 3-4, runs of 3+ ace low, court cards
   10, ace 1) and it searches clusters of up to three melds, enough for ten cards,
   so every mismatch is reported as a bug of one or the other.

Knock situations come from a simple game: both players are dealt ten cards and
draw from the stock in turn, each discarding what `best_discard` says, until one
can knock (deadwood 10 or less); deals that reach the last two cards are dropped.

Timing: per hand, ours and RLCard's calls are interleaved (the order alternates),
each call timed alone with perf_counter_ns, garbage collection off while timing;
every hand is timed in each of R rounds and keeps its fastest time; the figure is
the median over the hands. Both sides get the same card objects prepared in
advance (ours: Card values; RLCard: its Card). Our lookup tables are filled by a
warm-up on other hands first, as in a running server.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Card, best_discard, evaluate, knock_outcome, preset  # noqa: E402
from scorekeeper.engine.evaluator import DECK  # noqa: E402

TARGET_MELDING = 3.0  # ours at least this many times faster
TARGET_KNOCK = 1.0  # ours no slower
CLASSIC = preset("classic")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per set (default 3000)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    return parser.parse_args()


def rlcard_modules():
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    return melding, utils


def knock_situations(rng: random.Random, count: int) -> list[tuple[list[Card], list[Card]]]:
    """(knocker, defender) pairs from games played by best_discard (see the docstring)."""
    situations = []
    while len(situations) < count:
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[:10], deck[10:20]]
        stock = deck[20:]
        player = 0
        while len(stock) > 2:
            drawn = hands[player] + [stock.pop()]
            choice = best_discard(drawn, CLASSIC)
            if choice.big_gin:  # rare; RLCard takes ten cards only: drop the deal
                break
            hands[player] = [card for card in drawn if card != choice.discard]
            if choice.evaluation.deadwood <= 10:
                situations.append((hands[player], hands[1 - player]))
                break
            player = 1 - player
    return situations


def timed_pairs(
    items: Sequence, ours: Callable, theirs: Callable, rounds: int
) -> tuple[list[float], list[float]]:
    """Per item, the fastest of ``rounds`` timings (µs) of ours and theirs, interleaved."""
    clock = time.perf_counter_ns
    best_ours = [float("inf")] * len(items)
    best_theirs = [float("inf")] * len(items)
    gc.collect()
    gc.disable()
    try:
        for round_ in range(rounds):
            for i, (mine, other) in enumerate(items):
                if (i + round_) % 2:
                    start = clock()
                    ours(mine)
                    middle = clock()
                    theirs(other)
                    end = clock()
                    t_ours, t_theirs = middle - start, end - middle
                else:
                    start = clock()
                    theirs(other)
                    middle = clock()
                    ours(mine)
                    end = clock()
                    t_theirs, t_ours = middle - start, end - middle
                best_ours[i] = min(best_ours[i], t_ours / 1000)
                best_theirs[i] = min(best_theirs[i], t_theirs / 1000)
            gc.enable()
            gc.collect()
            gc.disable()
    finally:
        gc.enable()
    return best_ours, best_theirs


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def row(label: str, ours: list[float], theirs: list[float]) -> tuple[float, str]:
    mo, mt = statistics.median(ours), statistics.median(theirs)
    p90o = statistics.quantiles(ours, n=10)[-1]
    p90t = statistics.quantiles(theirs, n=10)[-1]
    ratio = mt / mo
    line = (
        f"  {label:<34}{mo:>9.2f}{mt:>10.2f}{ratio:>8.2f}x"
        f"{p90o:>10.2f}{p90t:>10.2f}{sum(theirs) / sum(ours):>8.2f}x"
    )
    return ratio, line


HEADER = (
    f"  {'':<34}{'ours':>9}{'RLCard':>10}{'ratio':>9}{'p90 ours':>10}{'p90 RLC':>10}"
    f"{'totals':>9}\n  {'':<34}{'median µs per hand':>28}{'':>9}{'µs':>10}{'µs':>10}"
)


def main() -> int:
    args = parse_args()
    started = time.perf_counter()
    modules = rlcard_modules()
    print(f"Evaluator bench: Python {platform.python_version()}, {args.hands} hands per set")
    if modules is None:
        print("  RLCard is not installed: `make bench` installs bench/requirements.txt. Skipped.")
        return 0
    melding, utils = modules
    import rlcard

    print(f"  RLCard {getattr(rlcard, '__version__', '?')}, {args.rounds} rounds per hand")

    def rl_cards(cards: Sequence[Card]) -> list:
        return [utils.card_from_text(card.code) for card in cards]

    def rl_deadwood(hand: list) -> int:
        best = melding.get_best_meld_clusters(hand=hand)
        return utils.get_deadwood_count(hand=hand, meld_cluster=best[0] if best else [])

    def ours_deadwood(hand: list[Card]) -> int:
        return evaluate(hand).deadwood

    rng = random.Random(args.seed)
    uniform = [rng.sample(DECK, 10) for _ in range(args.hands)]
    situations = knock_situations(rng, args.hands)
    knock_hands = [hand for pair in situations for hand in pair][: args.hands]
    warm_up = [rng.sample(DECK, 10) for _ in range(args.hands)]
    for hand in warm_up:  # fill our lazily built tables, as in a running server
        evaluate(hand)
    for knocker, defender in knock_situations(random.Random(args.seed + 1), 200):
        knock_outcome(knocker, defender, CLASSIC)

    # Agreement on every hand, before any timing.
    mismatches = []
    for hand in uniform + [h for pair in situations for h in pair]:
        mine, other = evaluate(hand).deadwood, rl_deadwood(rl_cards(hand))
        if mine != other:
            mismatches.append((" ".join(c.code for c in hand), mine, other))

    print("\n1. Least deadwood of 10 cards: evaluate() vs get_best_meld_clusters()\n")
    print(HEADER)
    ratios = {}
    for label, hands in (
        ("uniform random deals", uniform),
        ("hands of knock situations", knock_hands),
    ):
        pairs = [(hand, rl_cards(hand)) for hand in hands]
        ours, theirs = timed_pairs(pairs, ours_deadwood, rl_deadwood, args.rounds)
        ratios[label], line = row(label, ours, theirs)
        print(line)

    print("\n2. A knock: knock_outcome() with optimal lay-offs vs RLCard on both hands\n")
    print(HEADER)

    def ours_knock(pair: tuple[list[Card], list[Card]]) -> int:
        return knock_outcome(pair[0], pair[1], CLASSIC).points

    def rl_both(pair: tuple[list, list]) -> int:
        return rl_deadwood(pair[0]) + rl_deadwood(pair[1])

    pairs = [((k, d), (rl_cards(k), rl_cards(d))) for k, d in situations]
    ours, theirs = timed_pairs(pairs, ours_knock, rl_both, args.rounds)
    knock_ratio, line = row("knock situations", ours, theirs)
    print(line)
    outcomes = [knock_outcome(k, d, CLASSIC) for k, d in situations]
    with_layoffs = sum(bool(o.layoffs) for o in outcomes)
    print(
        f"  ({sum(o.gin for o in outcomes)} gins, {with_layoffs} knocks with lay-offs, "
        f"{sum(o.result == 'undercut' for o in outcomes)} undercuts)"
    )

    total = len(uniform) + 2 * len(situations)
    print(f"\n3. Agreement on the least deadwood: {total - len(mismatches)} of {total} hands")
    for hand, mine, other in mismatches[:10]:
        print(f"  MISMATCH {hand}: ours {mine}, RLCard {other}")

    print("\nSummary")
    for label, ratio in ratios.items():
        print(
            f"  least deadwood, {label}: ours {ratio:.2f}x faster "
            f"(target >= {TARGET_MELDING:g}x): {verdict(ratio >= TARGET_MELDING)}"
        )
    print(
        f"  knock with lay-offs vs RLCard on both hands: {knock_ratio:.2f}x "
        f"(target >= {TARGET_KNOCK:g}x, no slower): {verdict(knock_ratio >= TARGET_KNOCK)}"
    )
    print(f"  agreement: {len(mismatches)} mismatches (target 0): {verdict(not mismatches)}")
    print(f"  ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
