"""Measures read from played deals that more than one study takes: the analysis core's, so that no
study imports another for them.

- ``clustered_mean``: a mean with its 95% interval, the rows of one cluster (one deal's, one
  game's) taken together: the bid lines' values (``analysis.bids``), the bid table's pooled
  make-rates, the win-chance table's checks (``analysis.win_chances``);
- ``episodes``: every barrel episode of a shard's games, how it ended and after how many attempts
  (``analysis.barrel``'s survival, ``analysis.compare``'s barrel metrics).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from analysis.stats import MIN_NORMAL, Z95
from sim.engine.schema import (
    EV_BARREL_OFF,
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_FALL_ATTEMPTS,
    EV_FALL_CONTRACT,
    EV_FALL_TO_ZERO,
    EV_KNOCKED_OFF,
    EV_NO_WIN_PENALTY,
    EV_REDEAL_PENALTY,
    EV_WIN,
)

if TYPE_CHECKING:
    import polars as pl

__all__ = ["clustered_mean", "FALL_CAUSES", "AFTER_CLIMB", "LEFT_DOWNWARD", "episodes"]


def clustered_mean(values: np.ndarray, clusters: np.ndarray | None = None) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``values`` with its 95% interval, the rows of a cluster (one
    deal's rows) taken together (cluster sums over cluster sizes, by the delta method); each row
    its own cluster when ``clusters`` is None; no interval (NaN) from fewer than ``MIN_NORMAL``
    clusters."""
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(values.mean())
    if clusters is None:
        sums, sizes = values, np.ones(n)
    else:
        _, inverse = np.unique(clusters, return_inverse=True)
        sums = np.bincount(inverse, weights=values)
        sizes = np.bincount(inverse).astype(np.float64)
    g = len(sums)
    if g < MIN_NORMAL:  # too few clusters for a normal interval (analysis.stats.MIN_NORMAL)
        return (mean, math.nan, math.nan)
    resid = sums - mean * sizes
    se = math.sqrt(float((resid * resid).sum()) / (g - 1) / g) / (sizes.sum() / g)
    return (mean, float(mean - Z95 * se), float(mean + Z95 * se))


FALL_CAUSES = (("failed contract", EV_FALL_CONTRACT), ("attempts used up", EV_FALL_ATTEMPTS),
               ("knocked off", EV_KNOCKED_OFF), ("bolt penalty", EV_BOLT_PENALTY),
               ("no-win penalty", EV_NO_WIN_PENALTY), ("redeal penalty", EV_REDEAL_PENALTY))
# Penalties settled after the climb of their own deal (sim.engine.settle_nb), in the order they fell.
AFTER_CLIMB = (("bolt penalty", EV_BOLT_PENALTY), ("no-win penalty", EV_NO_WIN_PENALTY),
               ("redeal penalty", EV_REDEAL_PENALTY))
LEFT_DOWNWARD = "left downward"  # the range barrel: below it, no fall


def episodes(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int, ranged: bool = False) -> list[dict]:
    """Every barrel episode of the games in ``deals`` / ``games`` (frames of one shard): seat, game,
    fate, attempts, fell to zero. Deals must hold whole games. ``ranged``: the rules' barrel is the
    range barrel (``barrel_freeze = false``), where a penalty in the climb's own deal is no fall."""
    d = deals.sort("game", "deal")
    played = (d["redeal"].to_numpy() == 0)
    game = d["game"].to_numpy()[played]
    dealer = d["dealer"].to_numpy()[played]
    winners = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    last_of_game = np.r_[game[1:] != game[:-1], True].nonzero()[0]
    out = []
    for p in range(n_seats):
        ev = d[f"events{p}"].to_numpy().astype(np.int64)[played]
        counts = np.ones(len(ev), dtype=np.int64)
        if n_seats == 4:
            counts[dealer == p] = 0  # sitting out is no attempt
        cum = np.cumsum(counts)
        ends = ((ev & EV_BARREL_STAY) == 0).nonzero()[0]
        for c in ((ev & EV_BARREL_ON) != 0).nonzero()[0]:
            # A penalty of the climb's own deal (a bolt, the dealer's redeal penalty) is settled
            # after the climb: the seat falls at once, before any attempt (sim.engine.settle_nb).
            now = None if ranged else next((name for name, bit in AFTER_CLIMB if ev[c] & bit), None)
            if now:
                out.append({"game": int(game[c]), "seat": p, "attempts": 0, "fate": f"fell: {now}",
                            "zeroed": bool(ev[c] & EV_FALL_TO_ZERO)})
                continue
            k = np.searchsorted(ends, c, side="right")
            last = last_of_game[np.searchsorted(last_of_game, c)]
            end = ends[k] if k < len(ends) else None
            if end is None or end > last:  # still on the barrel when the game stopped
                winner = winners[int(game[c])]
                fate = "unfinished" if winner < 0 else "another player won"
                out.append({"game": int(game[c]), "seat": p, "fate": fate, "attempts": int(cum[last] - cum[c]),
                            "zeroed": False})
                continue
            bits = int(ev[end])
            if bits & EV_WIN:
                fate = "up"
            elif bits & EV_BARREL_OFF:
                fate = LEFT_DOWNWARD
            else:
                fate = next((f"fell: {name}" for name, bit in FALL_CAUSES if bits & bit), "fell: other")
            out.append({"game": int(game[c]), "seat": p, "fate": fate, "attempts": int(cum[end] - cum[c]),
                        "zeroed": bool(bits & EV_FALL_TO_ZERO)})
    return out
