"""Benchmark of the double-dummy solver against the straightforward baseline (benchmarks/dd_baseline.py).

A fixed set of random 8-card deals (the declarer on lead, no trump, no trick won yet, classic rules
unless --rules): for each, the exact value and a threshold test, timed one position at a time, with
the nodes each search visits. The threshold is the exact value for even-numbered deals (a success to
prove) and the value + 1 for odd ones (a failure to prove). Prints median and p99 times, mean nodes
and the speedups; checks both searches agree on every answer.

    python benchmarks/bench_solver.py [--deals 200] [--seed 2024] [--rules classic]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.dd_baseline import baseline_search  # noqa: E402
from sim.game.rules import load_rules  # noqa: E402
from sim.solver import core_nb, drivers_nb, search3_nb  # noqa: E402


def random_deals(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 3), dtype=np.int64)
    for i in range(n):
        deck = rng.permutation(24)
        for p in range(3):
            out[i, p] = int(sum(1 << int(c) for c in deck[8 * p: 8 * p + 8]))
    return out


def _timed(fn):
    t = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t


def run(deals: np.ndarray, rules: np.ndarray, log2_rows: int = 18) -> dict:
    st, work = core_nb.new_work()
    tt = core_nb.new_table(log2_rows)

    def ours_exact():
        return drivers_nb.exact_value(st, rules, tt, work, 0)

    def ours_threshold(t):
        return drivers_nb.at_least(st, rules, tt, work, t)

    def base_exact():
        return baseline_search(st, rules, tt, work, -core_nb.INFINITE, core_nb.INFINITE)

    def base_threshold(t):
        return baseline_search(st, rules, tt, work, t - 1, t) >= t

    fig = {name: ([], []) for name in ("ours exact", "ours threshold", "baseline exact", "baseline threshold")}

    def measure(name, fn, h):
        core_nb.next_stamp(st, tt)
        search3_nb.set_position(st, h[0], h[1], h[2], 0, -1, -1, 0, 0)
        st[core_nb.ST_NODES] = 0
        result, seconds = _timed(fn)
        fig[name][0].append(seconds)
        fig[name][1].append(st[core_nb.ST_NODES])
        return result

    # Compile (and warm) everything once outside the timings.
    for name, fn in (("ours exact", ours_exact), ("ours threshold", lambda: ours_threshold(60)),
                     ("baseline exact", base_exact), ("baseline threshold", lambda: base_threshold(60))):
        measure(name, fn, deals[0])
    for v in fig.values():
        v[0].clear()
        v[1].clear()
    for i, h in enumerate(deals):
        value = measure("ours exact", ours_exact, h)
        target = value + (i % 2)
        yes = measure("ours threshold", lambda t=target: ours_threshold(t), h)
        base_value = measure("baseline exact", base_exact, h)
        base_yes = measure("baseline threshold", lambda t=target: base_threshold(t), h)
        if value != base_value or yes != base_yes or yes != (i % 2 == 0):
            raise SystemExit(f"deal {i}: solver and baseline disagree: {value} {base_value} {yes} {base_yes}")
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rules", default="classic", help="a preset name or a TOML file")
    args = ap.parse_args()
    rules = load_rules(args.rules).to_array()
    deals = random_deals(args.deals, args.seed)
    fig = run(deals, rules)
    print(f"{args.deals} random 8-card deals, seed {args.seed}, rules {args.rules}; declarer on lead, no trump")
    print(f"{'search':<20}{'median ms':>11}{'p99 ms':>10}{'mean nodes':>13}{'median nodes':>14}")
    stats = {}
    for name, (secs, nodes) in fig.items():
        secs = np.array(secs) * 1e3
        nodes = np.array(nodes)
        stats[name] = (np.median(secs), np.percentile(secs, 99), nodes.mean(), np.median(nodes))
        print(f"{name:<20}{stats[name][0]:>11.3f}{stats[name][1]:>10.3f}{stats[name][2]:>13.0f}{stats[name][3]:>14.0f}")
    for kind in ("exact", "threshold"):
        o, b = stats[f"ours {kind}"], stats[f"baseline {kind}"]
        print(f"speedup {kind:<10} median {b[0] / o[0]:6.1f}x   p99 {b[1] / o[1]:6.1f}x   nodes {b[2] / o[2]:6.1f}x")


if __name__ == "__main__":
    main()
