"""The least work any PIMC with exact values can do, beside what ``pimc`` does, on one core.

A PIMC seat that sums exact double-dummy values over its worlds needs, at the very least, one
exact value in each world of each decision with a choice (the value of the card it plays; the
choice itself, comparing candidates, only adds to it). This benchmark computes exactly that
floor, one exact value of the root position in each of ``--worlds`` worlds sampled as ``pimc``
samples them, on every card decision with a choice of heuristic deals (``bench_pimc.positions``),
and times ``pimc`` on the same positions with the same generator state. The declarer's discard
is one more decision whose floor is one exact value of a whole 8-card deal per world: the same
work as his first lead, which stands in for it. Beside it, the floor of a player that only asks,
in each world, whether the declarer still makes his contract (one zero-window test at the points
he still needs: the cheapest question a contract-minded PIMC can ask), and of one that asks it
after each candidate card (what comparing the candidates takes at least, without bounds).

Per deal, the floor and pimc are summed over the decisions of a deal: what a whole deal costs at
the very least when every value is exact, and so how many deals a second exact PIMC can reach at
best with this solver (issue 14 asks for 100).

    python benchmarks/bench_pimc_floor.py [--deals 40] [--worlds 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players.params import PIMC_WORLDS
from sim.players.pimc_nb import WB_MOVES, enter_world, take_candidates
from sim.players.seat_nb import seat_buffers
from sim.solver import PIMC_TABLE_LOG2_ROWS
from sim.solver.core_nb import ST_NODES, ST_PLY
from sim.solver.drivers_nb import exact_value, move_value
from sim.solver.search3_nb import generate_moves, search

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pimc import decide, positions  # noqa: E402  (the positions and pimc's timing of bench_pimc)


@numba.njit
def one_value_per_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, owner, declarer, won,
                        n_worlds, need, every, legal, rules, st, work, tt, wbuf):
    """The floor of one decision: the exact value of the position to decide in each world, or
    with ``need`` >= 0 one zero-window test of it (does the declarer still make ``need``?), or
    with ``every`` too one such test after each candidate card."""
    n = 0
    for w in range(n_worlds):
        enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, owner, -1, declarer, won,
                    0, rules, st, tt, wbuf)
        if need < 0:
            exact_value(st, rules, tt, work, 0)
        elif not every:
            search(st, rules, tt, work, need - 1, need)
        else:
            if w == 0:
                n = take_candidates(work, st[ST_PLY], generate_moves(st, rules, work, False), legal, wbuf)
            for i in range(n):
                move_value(st, rules, tt, work, wbuf[WB_MOVES + i], need)


def floor(pos: dict, worlds: int, rules_arr, buffers, seed: int, threshold: bool = False,
          every: bool = False) -> tuple[float, int]:
    """(seconds, nodes) of the floor at ``pos``: exact values, or with ``threshold`` one test of
    the contract (the points the declarer still needs, at least 1) per world, with ``every`` one
    per candidate and world."""
    st, work, tt, wbuf = buffers
    st[ST_NODES] = 0
    rng = state_from_seed(seed, (7,))
    t = time.perf_counter()
    one_value_per_world(rng, pos["hands"], pos["seat"], pos["known"], pos["played"], pos["voids"], pos["cards"],
                        pos["k"], pos["leader"], pos["trump"], pos["owner"], pos["declarer"], pos["won"], worlds,
                        max(1, pos["need"]) if threshold else -1, every, pos["legal"], rules_arr, st, work, tt,
                        wbuf)
    return time.perf_counter() - t, int(st[ST_NODES])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=40, help="heuristic deals whose decisions are measured (x3 played)")
    ap.add_argument("--worlds", type=int, default=PIMC_WORLDS)
    args = ap.parse_args()
    rules_arr = HouseRules().to_array()
    pos = positions(args.deals)
    buffers = seat_buffers(PIMC_TABLE_LOG2_ROWS)
    print("compiling or loading the kernels...", flush=True)
    floor(pos[0], 2, rules_arr, buffers, 0)
    decide("pimc", pos[0], 2, rules_arr, buffers, 0)
    by_trick: dict[int, list] = {t: [] for t in range(8)}
    for i, p in enumerate(pos):
        f_dt, f_nodes = floor(p, args.worlds, rules_arr, buffers, i)
        _, p_dt, p_nodes = decide("pimc", p, args.worlds, rules_arr, buffers, i)
        t_dt, t_nodes = floor(p, args.worlds, rules_arr, buffers, i, threshold=True)
        e_dt, e_nodes = floor(p, args.worlds, rules_arr, buffers, i, threshold=True, every=True)
        by_trick[p["trick"]].append((f_dt, f_nodes, p_dt, p_nodes, t_dt, t_nodes, e_dt, e_nodes,
                                     p["k"] == 0 and p["seat"] == p["declarer"], p["seat"] != p["declarer"]))
    n_deals = sum(1 for r in by_trick[0] if r[8])  # the declarer's first lead: one a deal
    print(f"\ncard decisions with a choice from {n_deals} deals, {args.worlds} worlds (mean per decision):")
    print(f"  {'trick':<6}{'per deal':>9}{'floor ms':>10}{'floor nodes':>13}{'pimc ms':>10}{'pimc nodes':>13}"
          f"{'test ms':>10}{'test nodes':>13}{'tests ms':>10}{'tests nodes':>13}")
    total = np.zeros(8)
    for t in range(8):
        rows = by_trick[t]
        if not rows:
            continue
        a = np.array([r[:8] for r in rows], dtype=float)
        total += a.sum(axis=0)
        print(f"  {t + 1:<6}{len(rows) / n_deals:>9.2f}{1e3 * a[:, 0].mean():>10.2f}{a[:, 1].mean():>13,.0f}"
              f"{1e3 * a[:, 2].mean():>10.2f}{a[:, 3].mean():>13,.0f}"
              f"{1e3 * a[:, 4].mean():>10.2f}{a[:, 5].mean():>13,.0f}"
              f"{1e3 * a[:, 6].mean():>10.2f}{a[:, 7].mean():>13,.0f}")
    lead = np.array([r[:8] for r in by_trick[0] if r[8]], dtype=float)
    discard_s, discard_nodes = lead[:, 0].mean(), lead[:, 1].mean()
    floor_s = total[0] / n_deals + discard_s
    floor_nodes = total[1] / n_deals + discard_nodes
    print(f"\nper deal, the floor: card decisions {1e3 * total[0] / n_deals:.1f} ms ({total[1] / n_deals:,.0f} nodes)"
          f" + the discard at least {1e3 * discard_s:.1f} ms ({discard_nodes:,.0f} nodes)"
          f" = {1e3 * floor_s:.1f} ms, {floor_nodes:,.0f} nodes: at most {1 / floor_s:.0f} deals a second")
    test_s = total[4] / n_deals + lead[:, 4].mean()
    print(f"the contract's floor (one zero-window test a world, 'test' above; the discard as the first lead): "
          f"{1e3 * test_s:.1f} ms, {total[5] / n_deals + lead[:, 5].mean():,.0f} nodes a deal: at most "
          f"{1 / test_s:.0f} deals a second")
    tests_s = total[6] / n_deals + lead[:, 6].mean()
    print(f"... with a test after every candidate card ('tests' above; the discard as the first lead): "
          f"{1e3 * tests_s:.1f} ms, {total[7] / n_deals + lead[:, 7].mean():,.0f} nodes a deal: at most "
          f"{1 / tests_s:.0f} deals a second")
    defenders = sum(r[1] for rows in by_trick.values() for r in rows if r[9]) / n_deals
    print(f"of the exact floor's card decisions, the defenders' take {defenders:,.0f} nodes a deal "
          f"({defenders / (total[1] / n_deals):.0%}): at most {12e6 / defenders:.0f} deals a second at 12 million "
          "nodes a second even if the declarer's decisions and discard cost nothing")
    print(f"pimc's card decisions on the same positions: {1e3 * total[2] / n_deals:.1f} ms a deal "
          f"({total[3] / n_deals:,.0f} nodes), {total[3] / total[1]:.2f}x the floor's nodes "
          f"(its discard is not replayed here: bench_pimc.py times whole deals)")
    rates = [r[1] / r[0] for rows in by_trick.values() for r in rows if r[0] > 0]
    print(f"median floor nodes a second: {statistics.median(rates):,.0f}")


if __name__ == "__main__":
    main()
