"""Naive twins of the bid advice's rules, written as a player reads them: ``recommended``'s (of the
levels that enough auctions reached, take the one whose line "bid up to it" gains the most over
always passing, the lowest on a tie; bid to it if that gain is positive, else pass) and the
settled rule's (``settled_twin``). ``min_reached`` is the number of deals from which a level is
tested: the larger of ``analysis.bids.value.MIN_REACHED`` and its share ``TESTED_SHARE`` of the
deals (``settled_twin`` computes it from the two)."""

from __future__ import annotations

from statistics import NormalDist, mean, stdev


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


def settled_twin(outcomes: dict[int, list[float]], reached: dict[int, int], min_reached: int, margin: float,
                 alpha: float, *, share: float) -> tuple[int | None, list[int], int | None]:
    """Naive twin of ``analysis.bids.value.plateau`` and ``settled`` on one row per deal:
    ``outcomes`` maps each line (-1 passing, then the levels) to its result deal by deal, ``reached``
    each level to the deals that reached it; a level is tested when reached in ``min_reached`` deals
    or more and in ``share`` of them. A level is out of the plateau when its simultaneous interval
    against the best lies below -``margin``; of the plateau, the levels whose interval lies above
    -``margin`` (and the best) are as good as the best. Returns (the advised bid or None for pass,
    the plateau's levels with -1 for passing, the first tested level above the advice and the
    plateau)."""
    n = len(outcomes[-1])
    gain = {b: [x - p for x, p in zip(outcomes[b], outcomes[-1], strict=True)] for b in outcomes}
    tested = [b for b in sorted(outcomes) if b > 0 and reached[b] > 0 and reached[b] >= min_reached
              and reached[b] >= share * n]
    candidates = [-1] + tested
    best = -1
    for b in candidates:
        if mean(gain[b]) > mean(gain[best]):
            best = b
    z = NormalDist().inv_cdf(1 - alpha / (2 * max(1, len(candidates) - 1)))
    plateau, as_good = [], []
    for b in candidates:
        if b != best:
            d = [x - y for x, y in zip(outcomes[b], outcomes[best], strict=True)]
            half = z * stdev(d) / n ** 0.5
            if mean(d) + half < -margin:
                continue  # worse than the best by more than the margin
            if mean(d) - half > -margin:
                as_good.append(b)
        else:
            as_good.append(b)
        plateau.append(b)
    z95 = NormalDist().inv_cdf(0.975)
    beats = [b for b in tested if mean(gain[b]) - z95 * stdev(gain[b]) / n ** 0.5 > 0]
    inside = [b for b in beats if b in as_good]
    bid = inside[0] if inside else max(beats, key=lambda b: (mean(gain[b]), -b)) if beats else None
    if bid is None and -1 not in plateau:
        bid = best
    top = max(bid or 0, max(plateau))
    return bid, plateau, next((b for b in tested if b > top), None)
