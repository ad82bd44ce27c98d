"""The brute force the pairing tests check the matching against: every seating."""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def all_seatings(players: Sequence[str], three: bool = False) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat the players in pairs, and in one table of three for an odd
    count with ``three``: the brute force the search must agree with."""
    players = list(players)
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    if three and len(players) % 2 == 1:
        for i in range(len(rest)):
            for j in range(i + 1, len(rest)):
                left = [p for k, p in enumerate(rest) if k not in (i, j)]
                for tail in all_seatings(left):
                    yield [(first, rest[i], rest[j]), *tail]
    for i, partner in enumerate(rest):
        left = rest[:i] + rest[i + 1 :]
        if len(left) % 2 == 0 or three:
            for tail in all_seatings(left, three):
                yield [(first, partner), *tail]
