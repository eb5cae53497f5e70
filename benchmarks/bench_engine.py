"""Engine speed on one core: heuristic full deals per second (bidding, talon, discard, play,
scoring and the deal record) next to a bare random playout of eight tricks, timed alternately
in the same run (take the ratio, not the absolute figures: machines here are noisy).

    python benchmarks/bench_engine.py [--deals 200000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from sim.engine import DEAL_STREAM, BatchSpec, chunk_rng, deals_frame, play_chunk, solver_buffers
from sim.engine.chunks_nb import run_bare_playouts, run_deals
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.engine.workspace import new_game_state, new_workspace
from sim.game.rules import HouseRules
from sim.players.params import params_matrix
from sim.players.registry import player_codes
from sim.runs import run_chunk_to_disk, write_parquet_atomic


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    n = args.deals
    rules = HouseRules()
    rules_arr = rules.to_array()
    prm = params_matrix(rules=rules)
    rec = np.zeros((n, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((n, N_PLAYS), dtype=np.int8)
    ws, gs, no_script = new_workspace(), new_game_state(), np.zeros(1, dtype=np.int64)
    solver = solver_buffers(())

    def engine(codes, arr=rules_arr, matrix=prm):
        rng, deal_rng = chunk_rng(1, 0), chunk_rng(1, 0, DEAL_STREAM)
        codes_arr = player_codes(codes)
        return lambda: run_deals(rng, deal_rng, arr, codes_arr, matrix, 0, n, rec, plays, gs, ws, no_script, solver)

    four = HouseRules(players=4)  # the dealer sits out (RULES.md §4.1): not part of the ratio
    two = HouseRules(players=2)  # ten tricks of two cards (RULES.md §4.1): not part of the ratio

    def bare():
        rng = chunk_rng(1, 0)
        return lambda: run_bare_playouts(rng, n, plays, ws)

    cases = {
        "bare random playout (deal + 8 tricks)": bare(),
        "random players, full deal + record": engine(("random",) * 3),
        "heuristic players, full deal + record": engine(("heuristic",) * 3),
        "heuristic, 4 players (dealer sits out)": engine(("heuristic",) * 4, four.to_array(),
                                                         params_matrix(rules=four)),
        "heuristic, 2 players (two talons)": engine(("heuristic",) * 2, two.to_array(), params_matrix(rules=two)),
    }
    for run in cases.values():  # compile or load from cache
        run()
    times = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, run in cases.items():
            t = time.perf_counter()
            run()
            times[name].append((time.perf_counter() - t) / n)

    print(f"one core, {n:,} deals per timing, {args.repeats} alternating repeats (best | median)")
    for name, ts in times.items():
        print(f"  {name:<42} {1 / min(ts):>12,.0f} deals/s | {1 / statistics.median(ts):>12,.0f} deals/s"
              f"   ({min(ts) * 1e9:,.0f} ns/deal)")
    bare_t = times["bare random playout (deal + 8 tricks)"]
    heur_t = times["heuristic players, full deal + record"]
    ratios = [h / b for h, b in zip(heur_t, bare_t, strict=True)]
    print(f"heuristic full deal / bare playout: best {min(heur_t) / min(bare_t):.2f}x, "
          f"median of paired ratios {statistics.median(ratios):.2f}x  (goal: at most 3.5x)")

    # Storage past the kernel: typed frame and a zstd Parquet shard (what a batch chunk adds).
    t = time.perf_counter()
    df = deals_frame(rec, plays)
    t_frame = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        write_parquet_atomic(df, Path(tmp) / "x.parquet", {"bench": "1"})
        t_write = time.perf_counter() - t
        size = (Path(tmp) / "x.parquet").stat().st_size
    print(f"records → frame {n / t_frame:,.0f} deals/s; → Parquet {n / t_write:,.0f} deals/s "
          f"({size / n:.1f} bytes/deal)")
    spec = BatchSpec(mode="deals", n=n, chunk_size=n, seed=1)
    t = time.perf_counter()
    play_chunk(spec, 0)
    print(f"one whole chunk (kernel + frame), heuristic: {n / (time.perf_counter() - t):,.0f} deals/s")
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        run_chunk_to_disk(spec, Path(tmp), 0)
        print(f"one whole chunk stored as a Parquet shard (kernel + frame + file): "
              f"{n / (time.perf_counter() - t):,.0f} deals/s")


if __name__ == "__main__":
    main()
