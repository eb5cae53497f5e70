"""Naive twin of ``analysis.bids.value.recommended``'s rule, written as a player reads it: of the
levels that enough auctions reached, take the one whose line "bid up to it" gains the most over
always passing (the lowest on a tie); bid to it if that gain is positive, else pass."""

from __future__ import annotations


def levels_tested(lines: dict[int, tuple[int, float]], min_reached: int) -> list[tuple[int, float]]:
    """(level, gain of the line "bid up to it" over always passing), in order, for the levels that
    at least ``min_reached`` deals reached; ``lines`` maps a level to (deals reached, that gain)."""
    return [(b, g) for b, (n, g) in sorted(lines.items()) if n >= min_reached]


def advised_bid(lines: dict[int, tuple[int, float]], min_reached: int) -> int | None:
    """The tested level with the highest positive line gain (the lowest of equal ones), or None."""
    tested = levels_tested(lines, min_reached)
    best = max((g for _, g in tested), default=0.0)
    if best <= 0:
        return None
    return min(b for b, g in tested if g == best)


def first_above(lines: dict[int, tuple[int, float]], min_reached: int, level: int | None) -> int | None:
    """The lowest tested level above ``level`` (above every level when None), or None."""
    return next((b for b, _ in levels_tested(lines, min_reached) if level is None or b > level), None)
