"""Naive twin of ``analysis.bid_value.recommended``'s stopping rule, written as a player reads it:
walk up the levels that enough auctions reached, bid while bidding there beats passing, stop at the
first that does not."""

from __future__ import annotations


def levels_tested(steps: dict[int, tuple[int, float]], min_reached: int) -> list[tuple[int, float]]:
    """(level, gain of bidding it against passing where reached), in order, for the levels that at
    least ``min_reached`` deals reached; ``steps`` maps a level to (deals reached, that gain)."""
    return [(b, g) for b, (n, g) in sorted(steps.items()) if n >= min_reached]


def advised_bid(steps: dict[int, tuple[int, float]], min_reached: int) -> int | None:
    """The highest level up to which every tested level gains, or None when the first one does not."""
    advised = None
    for b, g in levels_tested(steps, min_reached):
        if g <= 0:
            break
        advised = b
    return advised
