"""Peak memory of the analyses that read stored runs does not grow with the run: ``thousand
tables barrel``, ``thousand tables marriages --play-deals``, ``thousand compare`` and ``thousand
tournament`` at a size and at ten times it, each in its own process (playing, storing and reading
shard by shard), print their peak resident memory and time.

    python benchmarks/bench_tables_memory.py [--games 2000] [--deals 200000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import resource, sys, time
from pathlib import Path
kind, n, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
t = time.perf_counter()
if kind == "barrel":
    from analysis.barrel import tables_barrel
    tables_barrel(games=n, rules=["classic"], out=out)
elif kind == "compare":
    from analysis.compare import compare
    compare(rules=["classic", "short"], games=n, out=out)
elif kind == "tournament":
    from analysis.tournament import tournament
    tournament(players=["heuristic", "leadage", "random"], games=n // 6, out=out)
else:
    from analysis.marriages.odds import tables_marriages
    tables_marriages(deals=1000, play_deals=n, out=out)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, time.perf_counter() - t)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--deals", type=int, default=200_000)
    args = ap.parse_args()
    for kind, unit, base in (("barrel", "games", args.games), ("marriages", "deals", args.deals),
                             ("compare", "games", args.games), ("tournament", "games", args.games)):
        for n in (base, 10 * base):
            with tempfile.TemporaryDirectory() as tmp:
                out = subprocess.run([sys.executable, "-c", CHILD, kind, str(n), tmp], check=True, cwd=ROOT,
                                     capture_output=True, text=True).stdout.split()
            peak, seconds = float(out[0]), float(out[1])
            print(f"tables {kind:<9} {n:>10,} {unit}: peak RSS {peak:,.0f} MiB, {seconds:.1f} s")


if __name__ == "__main__":
    main()
