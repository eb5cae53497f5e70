"""Peak memory of a batch run does not grow with its size: runs of increasing size, each in its
own process, print their peak resident memory (chunks are streamed to Parquet as they finish).

    python benchmarks/bench_memory.py [--sizes 100000 1000000 4000000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile

CHILD = """
import resource, sys, time
from pathlib import Path
from sim.engine import BatchSpec
from sim.runs import run_batch
n = int(sys.argv[1])
t = time.perf_counter()
run_batch(BatchSpec(mode="deals", n=n, seed=1), Path(sys.argv[2]), workers=2)
dt = time.perf_counter() - t
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, dt)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 4_000_000])
    args = ap.parse_args()
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, "-c", CHILD, str(n), f"{tmp}/run"], check=True,
                                 capture_output=True, text=True).stdout.split()
        peak, seconds = float(out[0]), float(out[1])
        print(f"{n:>10,} deals: peak RSS {peak:,.0f} MiB, {seconds:.1f} s ({n / seconds:,.0f} deals/s on 2 threads)")


if __name__ == "__main__":
    main()
