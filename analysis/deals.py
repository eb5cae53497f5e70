"""Random deals of the 24 cards, 7 to a hand and 3 to the talon: the deals the bid table plays
(``analysis.bids``) and those the marriage odds are measured on (``analysis.marriages``), drawn
from the one stream ``sim.streams.BID_TABLE_DEALS``, so that deal i is the same deal for both
whatever the number drawn."""

from __future__ import annotations

import numpy as np

from sim.streams import BID_TABLE_DEALS, generator

__all__ = ["random_deals"]


def random_deals(n: int, seed: int) -> np.ndarray:
    """(n, 4) masks: seat 0's 7 cards, the talon, seat 1's 7, seat 2's 7; deal i from
    ``sim.streams.BID_TABLE_DEALS`` of chunk ``i // 1000`` so the first deals never depend on n."""
    out = np.zeros((n, 4), dtype=np.int64)
    weights = np.int64(1) << np.arange(24, dtype=np.int64)
    for lo in range(0, n, 1000):
        rng = generator(BID_TABLE_DEALS, seed, lo // 1000)
        for i in range(lo, min(n, lo + 1000)):
            p = rng.permutation(24)
            out[i] = [weights[p[0:7]].sum(), weights[p[7:10]].sum(), weights[p[10:17]].sum(), weights[p[17:24]].sum()]
    return out
