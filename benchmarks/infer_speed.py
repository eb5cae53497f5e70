"""The cost of inference for one decision (docs/inference.md "The cost"): ``thousand.infer`` with
2,000 weighted worlds on one thread, beside the same call drawing uniform worlds (T = infinity:
the same certain facts, no likelihood), in one run, on views of records of the learned player's
self-play (each seat, after the auction, after the talon, at trick 4). Prints the median and the
mean wall time a decision, the CPU seconds, and the load. The goal: at most 0.2 s a decision.

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

POINTS = ("auction", "talon", "trick:4")
DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "inference" / "self_play.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, default=DEFAULT)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=2000)
    args = ap.parse_args()
    recs = [r for r in read_records(path=args.records) if r.contract is not None and not r.conceded
            and len(r.tricks) == 8][:args.deals]
    views = [(r, s, at) for r in recs for s in range(3) for at in POINTS]
    for r, s, at in views[:3]:  # compile and warm
        infer(r, seat=s, at=at, worlds=args.worlds, threads=1)
        infer(r, seat=s, at=at, worlds=args.worlds, threads=1, temperature=math.inf)
    times = {"weighted": [], "uniform": []}
    cpu = {"weighted": 0.0, "uniform": 0.0}
    for r, s, at in views:
        for kind, t in (("weighted", None), ("uniform", math.inf)):
            c0, w0 = time.process_time(), time.perf_counter()
            infer(r, seat=s, at=at, worlds=args.worlds, threads=1, temperature=t)
            times[kind].append(time.perf_counter() - w0)
            cpu[kind] += time.process_time() - c0
    load = os.getloadavg()
    print(f"{len(views)} decisions ({len(recs)} deals x 3 seats x {', '.join(POINTS)}), {args.worlds:,} worlds, "
          f"one thread; load average {load[0]:.1f} on {os.cpu_count()} cores")
    for kind in ("weighted", "uniform"):
        a = np.array(times[kind])
        print(f"  {kind:8}: median {np.median(a) * 1000:6.1f} ms, mean {a.mean() * 1000:6.1f} ms, "
              f"95th percentile {np.percentile(a, 95) * 1000:6.1f} ms wall; {cpu[kind] / len(a) * 1000:6.1f} ms CPU "
              "a decision")
    ratio = np.median(times["weighted"]) / np.median(times["uniform"])
    print(f"  weighted / uniform: {ratio:.1f}x (median); goal <= 200 ms a decision: "
          f"{'met' if np.median(times['weighted']) <= 0.2 else 'NOT met'}")


if __name__ == "__main__":
    main()
