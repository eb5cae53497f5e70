"""The learned player's speed on one core, beside the heuristic and pimc, in one run.

1. Whole deals a second (bidding, talon, discard, play, scoring, the deal record), timed
   alternately: a bare random playout, heuristic, learned, and pimc (fewer deals); the learned
   player's time a deal over the heuristic's (the issue allows at most 50x).
2. Decision latency of a learned card (features + forward pass), by trick: median and 99th
   percentile over recorded positions, each timed over ``--repeats`` calls in a compiled loop;
   then of a bid (net B) and of a final contract (net C), over random hands, the same way.
3. End to end, with Parquet: ``thousand simulate --players learned --deals N --workers 1`` beside
   the heuristic (the issue's goal: 10,000 deals a second), each in a fresh folder.

The learned player is timed as it ships (its last three cards searched) and with its net alone
(``--search-cards``: other searches beside them); ``--learned-inf`` times the learned-inf player
(its search's worlds weighed by the calls) beside it, as it ships and with other settings.

    python benchmarks/bench_learned.py [--weights sim/players/weights/learned-v4.npz] [--deals 20000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sim.engine import DEAL_STREAM, chunk_rng, solver_buffers
from sim.engine.chunks_nb import run_bare_playouts, run_deals
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.engine.workspace import new_game_state, new_workspace
from sim.game.bits_nb import popcount
from sim.game.rules import HouseRules
from sim.numba_config import jit_hot
from sim.players.layout import (
    H_INFERENCE_CANDIDATES,
    H_INFERENCE_TEMPERATURE,
    H_SEARCH_CARDS,
    H_SEARCH_MARGIN,
    H_SEARCH_WORLDS,
)
from sim.players.learned.bidding_nb import learned_bid, learned_contract
from sim.players.learned.cards_nb import best_legal, new_learned_buffers, position_features, q_forward
from sim.players.learned.layout import MAX_ACTIVE, N_DENSE, P_DECLARER, P_LEGAL, P_PLAYED, P_SEAT
from sim.players.learned.weights import DEFAULT_WEIGHTS, weights_matrix
from sim.players.params import params_matrix
from sim.players.registry import player_codes
from sim.training.positions import generate_positions


@jit_hot
def _decide_repeatedly(row, rules, net, reps, lidx, lval, lbuf):
    """One learned card decision from a stored position, ``reps`` times (what a seat does per card)."""
    card = -1
    role = (row[P_SEAT] - row[P_DECLARER]) % 3
    for _ in range(reps):
        n = position_features(row, rules, lidx, lval)
        q_forward(net, 0, lidx, n, lval, role, lbuf)
        card = best_legal(lbuf[3], row[P_LEGAL], role == 0)
    return card


@jit_hot
def _bid_repeatedly(kind, hand, gs, rules, prm, net, reps, lbuf):
    """One learned bid (``kind`` 0: at 120 over seat 1) or final contract (1: bid 100, cap 300,
    may concede, the deal valued 100) of ``hand``, ``reps`` times."""
    answer = 0
    for _ in range(reps):
        if kind == 0:
            answer = learned_bid(0, hand, 1, 120, 300, gs, rules, prm, net, lbuf)
        else:
            answer = learned_contract(0, hand, 100, 300, True, 100, gs, rules, prm, net, lbuf)
    return answer


def _random_hands(rng, n: int, size: int) -> list[int]:
    return [sum(1 << int(c) for c in rng.choice(24, size=size, replace=False)) for _ in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--pimc-deals", type=int, default=20)
    ap.add_argument("--timings", type=int, default=5)
    ap.add_argument("--positions", type=int, default=2_000)
    ap.add_argument("--repeats", type=int, default=1_000)
    ap.add_argument("--search-cards", default="default,0", help="comma-separated 'default' (the player as it "
                    "ships), K, K:W or K:W:M: learned cases whose seats search their cards as pimc does, over W "
                    "worlds, once they hold K or fewer (0: the net alone), where the net's best two cards are "
                    "within M points (search_cards, search_worlds, search_margin), each timed beside the others")
    ap.add_argument("--learned-inf", default="", help="comma-separated cases of learned-inf timed beside: "
                    "'default' (as it ships) or 'K:W:M:T:C' (search cards, worlds, margin, inference temperature, "
                    "candidates a world; trailing fields the player's)")
    ap.add_argument("--end-to-end", type=int, default=100_000, help="deals of the simulate runs (0: skip)")
    args = ap.parse_args()
    net, _ = weights_matrix([args.weights])
    rules = HouseRules()
    arr = rules.to_array()
    prm = params_matrix(rules=rules)
    n = args.deals
    rec = np.zeros((n, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((n, N_PLAYS), dtype=np.int8)
    ws, gs, no_script = new_workspace(), new_game_state(), np.zeros(1, dtype=np.int64)

    # "K", "K:W" or "K:W:M" (W worlds, M the margin in points; default the player's)
    search = [() if k == "default" else tuple(int(x) for x in k.split(":")) for k in args.search_cards.split(",")]

    def engine(name, deals, *settings):
        codes = player_codes((name,) * 3)
        solver = solver_buffers((name,), net if name.startswith("learned") else None)
        seat_prm = prm.copy()
        for column, value in zip((H_SEARCH_CARDS, H_SEARCH_WORLDS, H_SEARCH_MARGIN, H_INFERENCE_TEMPERATURE,
                                  H_INFERENCE_CANDIDATES), settings, strict=False):
            seat_prm[:, column] = value
        return lambda: run_deals(chunk_rng(1, 0), chunk_rng(1, 0, DEAL_STREAM), arr, codes, seat_prm, 0, deals, rec,
                                 plays, gs, ws, no_script, solver)

    learned_cases = {("learned" if not k else "learned, net alone" if k[0] == 0 else
                      f"learned, search {':'.join(map(str, k))}"):
                     (engine("learned", n, *k), n) for k in search}
    inferring = [() if k == "default" else tuple(float(x) for x in k.split(":"))
                 for k in args.learned_inf.split(",") if k]
    learned_cases |= {("learned-inf" if not k else f"learned-inf {':'.join(f'{x:g}' for x in k)}"):
                      (engine("learned-inf", n, *k), n) for k in inferring}
    cases = {"bare random playout": (lambda: run_bare_playouts(chunk_rng(1, 0), n, plays, ws), n),
             "heuristic": (engine("heuristic", n), n), **learned_cases,
             "pimc": (engine("pimc", args.pimc_deals), args.pimc_deals)}
    print("compiling or loading the kernels...", file=sys.stderr, flush=True)
    for run, _ in cases.values():
        run()
    times = {name: [] for name in cases}
    for _ in range(args.timings):
        for name, (run, deals) in cases.items():
            t = time.perf_counter()
            run()
            times[name].append((time.perf_counter() - t) / deals)
    print(f"1. one core, whole deals, {args.timings} alternating timings (best | median):")
    for name, ts in times.items():
        print(f"  {name:<22} {1 / min(ts):>12,.0f} deals/s | {1 / statistics.median(ts):>12,.0f} deals/s  "
              f"({min(ts) * 1e6:,.2f} us a deal)")
    for name in learned_cases:
        ratios = [a / b for a, b in zip(times[name], times["heuristic"], strict=True)]
        print(f"  {name} / heuristic time a deal: median of paired ratios {statistics.median(ratios):.1f}x "
              f"(goal: at most 50x); pimc / {name}: {min(times['pimc']) / min(times[name]):,.0f}x")

    pos, _ = generate_positions(rules, 5, 0, max(200, args.positions // 12), None, -1, 0.0)
    pos = pos[:args.positions]
    lidx, lval = np.zeros(MAX_ACTIVE, dtype=np.int64), np.zeros(N_DENSE, dtype=np.float32)
    lbuf = new_learned_buffers()[1]
    _decide_repeatedly(pos[0], arr, net, 1, lidx, lval, lbuf)
    per_call = np.zeros(len(pos))
    for i in range(len(pos)):
        t = time.perf_counter()
        _decide_repeatedly(pos[i], arr, net, args.repeats, lidx, lval, lbuf)
        per_call[i] = (time.perf_counter() - t) / args.repeats
    tricks = np.array([popcount(int(p)) // 3 for p in pos[:, P_PLAYED]])
    print(f"2. a learned card decision (features + forward pass), {len(pos):,} positions x {args.repeats:,} calls:")
    print(f"  all tricks: median {np.median(per_call) * 1e6:.2f} us, p99 {np.percentile(per_call, 99) * 1e6:.2f} us")
    for t in range(8):
        sel = per_call[tricks == t]
        if len(sel):
            print(f"  trick {t + 1}: median {np.median(sel) * 1e6:.2f} us, p99 {np.percentile(sel, 99) * 1e6:.2f} us "
                  f"({len(sel)} positions)")

    rng = np.random.default_rng(7)
    for kind, name, size in ((0, "bid (net B)", 7), (1, "final contract (net C)", 8)):
        hands = _random_hands(rng, min(args.positions, 500), size)
        _bid_repeatedly(kind, np.int64(hands[0]), gs, arr, prm, net, 1, lbuf)
        per = np.zeros(len(hands))
        for i, h in enumerate(hands):
            t = time.perf_counter()
            _bid_repeatedly(kind, np.int64(h), gs, arr, prm, net, args.repeats, lbuf)
            per[i] = (time.perf_counter() - t) / args.repeats
        print(f"  {name}: median {np.median(per) * 1e6:.2f} us, p99 {np.percentile(per, 99) * 1e6:.2f} us "
              f"({len(hands)} hands)")

    if args.end_to_end and args.weights == DEFAULT_WEIGHTS:
        from sim.runs.simulate import simulate

        print(f"3. end to end, simulate(deals={args.end_to_end:,}, workers=1) as `thousand simulate` runs it, "
              "Parquet shards and manifest included, kernels loaded:")
        for name in ("heuristic", "learned", "heuristic", "learned"):
            with tempfile.TemporaryDirectory() as tmp:
                t = time.perf_counter()
                simulate(deals=args.end_to_end, players=name, out=Path(tmp) / "run", workers=1, progress=False)
                wall = time.perf_counter() - t
            print(f"  {name:<10} {args.end_to_end / wall:>10,.0f} deals/s ({wall:.1f} s)")
    elif args.end_to_end:
        print("3. end to end: skipped (simulate plays the shipped weights, not --weights)")


if __name__ == "__main__":
    main()
