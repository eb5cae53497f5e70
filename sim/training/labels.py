"""The exact solver's labels of recorded positions (``sim.players.learned.labels_nb.label_positions``), over
threads: each slice of rows has its own buffers and its own generator state, drawn from the
slice's index, so the labels never depend on the thread count.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim.game.rng_nb import state_from_sequence
from sim.game.rules import HouseRules
from sim.parallel import run_tasks, thread_buffers
from sim.players.learned.labels_nb import label_positions
from sim.players.seat_nb import seat_buffers
from sim.solver import TABLE_LOG2_ROWS
from sim.streams import LABEL_WORLDS, sequence

__all__ = ["LABEL_SLICE", "label"]

LABEL_SLICE = 2_000  # rows a task labels


def label(pos: np.ndarray, rules: HouseRules, k_worlds: int, seed: int, *, threads: int | None = None,
          progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(values float32 (n, 24): each legal card's exact value, -1 for the others; the solver's
    nodes per row). ``k_worlds`` 0 values the true deal, k > 0 averages k worlds drawn as PIMC
    draws them, from ``seed``."""
    n = len(pos)
    values = np.zeros((n, 24), dtype=np.float32)
    nodes = np.zeros(n, dtype=np.int64)
    arr = rules.to_array()

    def work(i, lo, hi):
        st, wk, tt, wbuf = thread_buffers("labels", lambda: seat_buffers(TABLE_LOG2_ROWS))
        rng = state_from_sequence(sequence(LABEL_WORLDS, seed, i))
        label_positions(pos[lo:hi], k_worlds, arr, rng, st, wk, tt, wbuf, values[lo:hi], nodes[lo:hi])
        return hi - lo

    items = [(i, lo, min(n, lo + LABEL_SLICE)) for i, lo in enumerate(range(0, n, LABEL_SLICE))]
    run_tasks(work, items, threads=threads, on_result=(lambda _item, k: progress(k)) if progress else None)
    return values, nodes
