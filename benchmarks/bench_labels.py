"""What the learned player's teacher costs: the exact solver's labels (every legal card's value)
of positions recorded from heuristic play, on one core, by trick, in the true deal and over k
worlds drawn as PIMC draws them.

    python benchmarks/bench_labels.py [--deals 300] [--worlds 8]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players.learned.labels_nb import label_positions
from sim.players.seat_nb import seat_buffers
from sim.solver import TABLE_LOG2_ROWS
from sim.training.positions import generate_positions, trick_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=8)
    args = ap.parse_args()
    rules = HouseRules()
    pos, deals = generate_positions(rules, 17, 0, args.deals, None, -1, 0.0)
    arr = rules.to_array()
    st, work, tt, wbuf = seat_buffers(TABLE_LOG2_ROWS)
    values = np.zeros((1, 24), dtype=np.float32)
    node = np.zeros(1, dtype=np.int64)
    label_positions(pos[:1], 0, arr, state_from_seed(1, (0,)), st, work, tt, wbuf, values, node)  # compile
    trick = trick_of(pos)
    n_deals = int(deals.max()) + 1
    print(f"{len(pos):,} positions with a choice from {n_deals} deals ({len(pos) / n_deals:.1f} a deal), one core")
    for k in (0, args.worlds):
        t = time.perf_counter()
        per_row = np.zeros(len(pos))
        nodes = np.zeros(len(pos), dtype=np.int64)
        for i in range(len(pos)):  # one row at a time, to time each
            t_row = time.perf_counter()
            label_positions(pos[i:i + 1], k, arr, state_from_seed(i, (k,)), st, work, tt, wbuf, values, node)
            per_row[i] = time.perf_counter() - t_row
            nodes[i] = node[0]
        total = time.perf_counter() - t
        what = "the true deal" if k == 0 else f"{k} worlds"
        print(f"labels in {what}: {total / n_deals * 1e3:.1f} ms a deal, {per_row.mean() * 1e3:.3f} ms and "
              f"{nodes.mean():,.0f} nodes a position")
        for t_ in range(8):
            sel = trick == t_
            if sel.any():
                print(f"  trick {t_ + 1}: {per_row[sel].mean() * 1e3:7.3f} ms, {nodes[sel].mean():>9,.0f} nodes, "
                      f"{sel.sum() / n_deals:.2f} positions a deal")


if __name__ == "__main__":
    main()
