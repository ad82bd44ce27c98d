"""The cheapest way to seat players in pairs: the project's one pairing engine.

A league night's proposals (``pairings.py``) and a tournament's Swiss rounds
(``tournaments``) give each pair of players a cost and take the seating of the smallest
total: an exact minimum-cost perfect matching, found by Edmonds' blossom algorithm
(``networkx.max_weight_matching``, O(n³) for n players: 128 players in well under a
second), never a search cut short after a number of steps.

Players are numbers 0..n-1; costs are whole numbers, so the algorithm works exactly
(no rounding). Among seatings of equal cost the one taken depends on the order of the
players only, which the callers draw from their seed: the same input gives the same
seating.

>>> met = {(0, 1): 5, (2, 3): 5, (0, 3): 2, (1, 2): 2}
>>> cheapest_pairs(4, lambda a, b: met.get((a, b), 1))
[(0, 2), (1, 3)]

An odd count with a table of three: the three who cost least together, with the
cheapest pairs of the rest.

>>> unmet = {(0, 1), (2, 3), (2, 4), (3, 4)}
>>> cheapest_with_trio(5, lambda a, b: 0 if (a, b) in unmet else 1)
((2, 3, 4), [(0, 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import networkx as nx

Cost = Callable[[int, int], int]


def cheapest_pairs(count: int, cost: Cost, players: Sequence[int] | None = None) -> list[tuple]:
    """The pairs of ``players`` (default: 0..count-1, an even number of them) of the
    smallest total ``cost(a, b)`` (called with a < b), each pair and the list sorted."""
    people = list(range(count)) if players is None else list(players)
    if len(people) % 2:
        raise ValueError("an odd number of players cannot all be paired")
    if not people:
        return []
    prices = {
        (a, b): cost(min(a, b), max(a, b)) for i, a in enumerate(people) for b in people[i + 1 :]
    }
    return _matched(people, prices)


def _matched(people: list[int], prices: dict[tuple[int, int], int]) -> list[tuple]:
    # max_weight_matching maximises: every weight is the most any pair costs, plus one,
    # less the pair's cost, and maxcardinality seats everyone; with all seatings of the
    # same size, the heaviest is the cheapest.
    top = max(prices.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(people)
    graph.add_weighted_edges_from((a, b, top - price) for (a, b), price in prices.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(tuple(sorted(p)) for p in matched)


def cheapest_with_trio(count: int, cost: Cost) -> tuple[tuple[int, int, int], list[tuple]]:
    """For an odd ``count`` (at least 3): the table of three and the pairs of the rest
    of the smallest total cost (a table of three costs its three pairs), exactly.

    The third player t of the table is tried in turn; for each, the matching gives the
    cheapest pairs of the others, M(V-t). With t and one partner a at the table, the
    second partner b and the pairs of the rest come from one matching in which a stand-in
    X takes b's place: X-b costs c(t,b) + c(a,b). What a table with t can cost at least,
    M(V-t) plus t's two cheapest pairs (the pair a-b and the others' pairs are a seating
    of V-t), skips every t, and every a, that cannot beat the best found. Worst case
    n + n²/2 matchings, O(n⁵); a night whose best seating costs what its bound says
    (nobody has met, say) takes n + 1.
    """
    if count < 3 or count % 2 == 0:
        raise ValueError("a table of three needs an odd number of players, at least 3")
    prices = {(a, b): cost(a, b) for a in range(count) for b in range(a + 1, count)}

    def price(a: int, b: int) -> int:
        return prices[(a, b) if a < b else (b, a)]

    best: tuple[int, tuple[int, int, int], list[tuple]] | None = None
    bounds = []
    for t in range(count):
        others = [v for v in range(count) if v != t]
        rest = _matched(others, {k: v for k, v in prices.items() if t not in k})
        base = sum(price(a, b) for a, b in rest)
        nearest = sorted(price(t, v) for v in others)
        bounds.append((base + nearest[0] + nearest[1], t, base))
    for bound, t, base in sorted(bounds):
        if best is not None and bound >= best[0]:
            break
        partners = sorted((v for v in range(count) if v != t), key=lambda v: (price(t, v), v))
        for a in partners:
            second = min(price(t, v) for v in partners if v != a)
            if best is not None and base + price(t, a) + second >= best[0]:
                break  # the partners come cheapest first: the bounds only grow
            total, trio, pairs = _table_with(t, a, count, price)
            if best is None or total < best[0]:
                best = (total, trio, pairs)
    assert best is not None
    return best[1], best[2]


def _table_with(t: int, a: int, count: int, price: Cost) -> tuple[int, tuple, list[tuple]]:
    """The cheapest seating with t and a at the table of three: its total, the table,
    the pairs."""
    stand_in = count  # X: the table's third seat, taken by the b it is matched with
    people = [v for v in range(count) if v not in (t, a)] + [stand_in]
    prices = {}
    for i, u in enumerate(people):
        for v in people[i + 1 :]:
            if v == stand_in:
                prices[(u, v)] = price(t, u) + price(a, u)
            else:
                prices[(u, v)] = price(u, v)
    matched = _matched(people, prices)
    (b,) = [u for u, v in matched if v == stand_in]
    pairs = [p for p in matched if stand_in not in p]
    trio = tuple(sorted((t, a, b)))
    total = price(t, a) + price(t, b) + price(a, b) + sum(price(u, v) for u, v in pairs)
    return total, trio, pairs
