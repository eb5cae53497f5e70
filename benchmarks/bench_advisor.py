"""Wall-clock time of ``thousand bid`` with 2,000 dd samples: cold (an empty Numba cache, so every
kernel compiles) and warm (the cache filled), each as a fresh process, as a user runs it. Also the
in-process time of the dd step alone, single- and multi-threaded.

    python benchmarks/bench_advisor.py [--hand "AH TH KH QH AS 9C JD"] [--samples 2000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time


def run_cli(hand: str, samples: int, env: dict) -> float:
    cmd = [sys.executable, "-c", "import cli; cli.main()", "bid", hand, "--samples", str(samples), "--method", "dd"]
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hand", default="AH TH KH QH AS 9C JD")
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cold", action="store_true", help="skip the cold (compiling) run")
    args = ap.parse_args()
    if not args.no_cold:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            print(f"cold (empty cache, compiles): {run_cli(args.hand, args.samples, env):.1f} s")
    env = dict(os.environ)
    run_cli(args.hand, 10, env)  # fill the default cache
    warm = [run_cli(args.hand, args.samples, env) for _ in range(args.repeats)]
    print(f"warm thousand bid, {args.samples} dd samples: " + ", ".join(f"{w:.2f}" for w in warm)
          + f" s (best {min(warm):.2f})")

    from sim.engine.playouts import Known, dd_levels, sample_unseen
    from sim.game.cards import parse_hand
    from sim.game.rules import HouseRules

    hand = parse_hand(args.hand)
    deals = sample_unseen(hand, Known(), args.samples, 0)
    dd_levels(hand, deals[:2], HouseRules(), 100, 300, threads=1)
    for threads in (1, os.cpu_count() or 1):
        t = time.perf_counter()
        dd_levels(hand, deals, HouseRules(), 100, 300, threads=threads)
        dt = time.perf_counter() - t
        print(f"dd step alone, {threads} thread(s): {dt:.2f} s ({dt / args.samples * 1e3 * threads:.2f} ms a sample "
              "per thread)")


if __name__ == "__main__":
    main()
