"""The cost of inference for one decision (docs/inference.md "The cost"): ``thousand.infer`` with
2,000 worlds on one thread, three ways in one run on the same views: weighted by the calls and the
cards played (``cards``: the shipped temperatures), by the calls alone (``bids``: card_temperature
= infinity) and uniform worlds (``uniform``: T = infinity, the same certain facts, no likelihood),
on views of records of the learned player's self-play (each seat, after the auction, after the
talon, at tricks 2, 4 and 6: trick 6 is the worst case of the cards, the most of them to weigh;
at trick 2 the weights collapse most often, and a view that draws more costs up to MAX_DRAWS
times as much).
Prints the CPU time a decision (median, mean, 95th percentile, the worst: one thread, so the
time on one core) and the wall time beside it, for all the views and for trick 6 alone, and the
load (wall times grow with it; CPU times hardly). The goal: at most 0.2 s a decision.

    python benchmarks/infer_speed.py [--records out/self424242/records.jsonl] [--deals 40]
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np

from sim.inference import infer
from sim.records import read_records

POINTS = ("auction", "talon", "trick:2", "trick:4", "trick:6")
WORST = "trick:6"
KINDS = (("cards", {}), ("bids", {"card_temperature": math.inf}), ("uniform", {"temperature": math.inf}))
DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "inference" / "self_play.jsonl"


def _line(name: str, wall: list[float], cpu: list[float]) -> str:
    a, c = np.array(wall) * 1000, np.array(cpu) * 1000
    return (f"  {name:8}: CPU median {np.median(c):5.1f}, mean {c.mean():5.1f}, 95th pct {np.percentile(c, 95):5.1f}, "
            f"max {c.max():6.1f} ms; wall median {np.median(a):5.1f}, 95th pct {np.percentile(a, 95):5.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, default=DEFAULT)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=2000)
    args = ap.parse_args()
    recs = [r for r in read_records(path=args.records) if r.contract is not None and not r.conceded
            and len(r.tricks) == 8][:args.deals]
    views = [(r, s, at) for r in recs for s in range(3) for at in POINTS]
    for r, s, at in views[:4]:  # compile and warm
        for _, kw in KINDS:
            infer(r, seat=s, at=at, worlds=args.worlds, threads=1, **kw)
    wall = {(k, at): [] for k, _ in KINDS for at in POINTS}
    cpu = {(k, at): [] for k, _ in KINDS for at in POINTS}
    for r, s, at in views:
        for kind, kw in KINDS:
            c0, w0 = time.process_time(), time.perf_counter()
            infer(r, seat=s, at=at, worlds=args.worlds, threads=1, **kw)
            wall[kind, at].append(time.perf_counter() - w0)
            cpu[kind, at].append(time.process_time() - c0)
    load = os.getloadavg()
    print(f"{len(views)} decisions ({len(recs)} deals x 3 seats x {', '.join(POINTS)}), {args.worlds:,} worlds, "
          f"one thread; load average {load[0]:.1f} on {os.cpu_count()} cores")
    print("all points:")
    for kind, _ in KINDS:
        print(_line(kind, sum((wall[kind, at] for at in POINTS), []), sum((cpu[kind, at] for at in POINTS), [])))
    print("the calls and the cards, point by point:")
    for at in POINTS:
        print(_line(at, wall["cards", at], cpu["cards", at]))
    print(f"{WORST} alone (the most cards to weigh):")
    for kind, _ in KINDS:
        print(_line(kind, wall[kind, WORST], cpu[kind, WORST]))
    worst = np.array(cpu["cards", WORST])
    print(f"  cards / bids at {WORST}: {np.median(worst) / np.median(cpu['bids', WORST]):.1f}x (median CPU); goal <= "
          f"200 ms a decision on one core at {WORST}: {'met' if np.percentile(worst, 95) <= 0.2 else 'NOT met'} "
          f"(95th percentile of CPU; {int((worst > 0.2).sum())} of {worst.size} decisions above)")


if __name__ == "__main__":
    main()
