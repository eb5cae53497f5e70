"""Wall-clock time of ``thousand bid``, each run a fresh process as a user runs it, warm (the
compiled cache filled) unless asked otherwise.

Ten fixed hands and situations (``CASES``: first, second and third hand, a score near 555, a
sitter on the barrel, you on the barrel, deep behind), each timed at today's default (the lines
sampled in batches until the plateau is settled, the make-rate table on its own 300 deals,
``MAKE_SAMPLES``) beside the former default (``--samples 2000``: 2,000 deals for the lines and the
make-rate table alike), in one run, alternated hand by hand so that the load of the machine weighs on both alike. Prints
each wall time with the CPU seconds the process used (every thread: what an idle 2-core machine
needs about half of for the parallel part), the deals the settled answer took, the medians and
their ratio, and the load average before and after (other work on the machine slows both).

    python benchmarks/bench_advisor.py [--repeats 1] [--cold] [--only 1,5] [--baseline-tree /work/main]

``--baseline-tree DIR`` adds a third column: the same command (``--samples`` left to its default)
run from another checkout's ``cli.py`` (for example the version before the settled rule), with its
own compiled cache. ``--cold`` first times one answer on an empty Numba cache (everything the
answer needs compiles) and prints what the command said first. Also the dd step alone
(``--dd``), single- and multi-threaded.

First it times the **start-up** apart: the smallest answer (``--samples 1 --make-samples 1``: one
deal for the lines and the make-rate table), ``--startup`` runs of it (3 by default, alternated with
the baseline tree's when one is given), its median wall and CPU seconds: what every answer pays
before its deals (Python, the imports, the command line's parsing, Numba's first load of its
registries and of the cached kernels), on one thread.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (hand, options): the ten hands and situations of the benchmark and of benchmarks/advisor_settled.py.
CASES = (
    ("AH TH KH QH AS 9C JD", ("--seat", "first")),
    ("KC QC AS TD 9H JS 9S", ("--seat", "first")),
    ("KD QD AS AC 9H JH TS", ("--seat", "second")),
    ("AS TS AC KH JD 9D QC", ("--seat", "third")),
    ("AH KH QH AD TD 9S JC", ("--seat", "first", "--score", "435")),
    ("KS QS AD TD JC 9C 9H", ("--seat", "second", "--score", "300", "--left-score", "880", "--left-on-barrel")),
    ("AH KH QH AC KD JS 9S", ("--seat", "first", "--score", "880", "--on-barrel")),
    ("KC QC KD QD AH 9S JS", ("--seat", "third")),
    ("9S JS 9C JC 9D JD QH", ("--seat", "second")),
    ("AC TC KC QC JC AD 9H", ("--seat", "second", "--score", "-100", "--left-score", "600", "--right-score", "650")),
)


def case_kwargs(options: tuple[str, ...]) -> dict:
    """A case's options as ``analysis.bids.advisor.advise`` keywords."""
    out: dict = {}
    k = 0
    while k < len(options):
        name = options[k].lstrip("-").replace("-", "_")
        if name.endswith("on_barrel"):
            out[name] = True
            k += 1
        else:
            value = options[k + 1]
            out[name] = int(value) if value.lstrip("-").isdigit() else value
            k += 2
    return out


CPU: list[float] = []  # the CPU seconds (user + system) of each run_cli, in order


def run_cli(tree: Path, hand: str, options: tuple[str, ...], env: dict) -> tuple[float, str, str]:
    """(seconds, stdout, stderr) of one ``thousand bid`` from the checkout ``tree``; its CPU
    seconds (every thread) are appended to ``CPU``."""
    cmd = [sys.executable, str(tree / "cli.py"), "bid", hand, *options, "--no-progress", "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, env={**env, "PYTHONPATH": str(tree)}, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, done.stdout, done.stderr


def _deals(stdout: str) -> str:
    import json

    d = json.loads(stdout)
    return f"{d['samples']:>5} {d.get('sampling', 'fixed')}"


def startup(runs: int, baseline: Path | None, env: dict) -> None:
    """Print the median wall and CPU seconds of ``runs`` smallest answers (one deal) of the first case,
    from this checkout and, alternated, from ``baseline``: the start-up every answer pays."""
    hand, options = CASES[0]
    smallest = (*options, "--samples", "1", "--make-samples", "1")
    trees = [("this checkout", ROOT)] + ([("baseline tree", baseline)] if baseline is not None else [])
    walls: dict[str, list[float]] = {name: [] for name, _ in trees}
    cpus: dict[str, list[float]] = {name: [] for name, _ in trees}
    for _ in range(runs):
        for name, tree in trees:
            walls[name].append(run_cli(tree, hand, smallest, env)[0])
            cpus[name].append(CPU[-1])
    print(f"start-up (case 1 with --samples 1 --make-samples 1: one deal; median of {runs}): "
          + "; ".join(f"{name} {statistics.median(walls[name]):.2f}s ({statistics.median(cpus[name]):.2f} cpu)"
                      for name, _ in trees))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=1, help="runs of each case and column")
    ap.add_argument("--only", default="", help="the cases to run, numbered from 1 (comma-separated)")
    ap.add_argument("--cold", action="store_true", help="first time one answer on an empty Numba cache")
    ap.add_argument("--baseline-tree", type=Path, default=None, help="another checkout to time beside")
    ap.add_argument("--dd", action="store_true", help="also time the dd step alone")
    ap.add_argument("--startup", type=int, default=3, help="runs of the smallest answer timed for the start-up")
    args = ap.parse_args()
    cases = [(k, CASES[k - 1]) for k in ([int(x) for x in args.only.split(",")] if args.only
                                           else range(1, len(CASES) + 1))]
    env = dict(os.environ)
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            t, _, err = run_cli(ROOT, CASES[0][0], CASES[0][1], {**env, "NUMBA_CACHE_DIR": cache})
            print(f"cold (empty cache, everything the answer needs compiles): {t:.1f} s; it said first: "
                  f"{err.strip().splitlines()[0] if err.strip() else '(nothing)'}")
    run_cli(ROOT, CASES[0][0], (*CASES[0][1], "--samples", "50"), env)  # fill the cache
    if args.baseline_tree is not None:
        run_cli(args.baseline_tree, CASES[0][0], (*CASES[0][1], "--samples", "50"), env)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    startup(args.startup, args.baseline_tree, env)
    columns = ["settled (default)", "--samples 2000"] + (["baseline tree"] if args.baseline_tree else [])
    times: dict[str, list[float]] = {c: [] for c in columns}
    cpus: dict[str, list[float]] = {c: [] for c in columns}
    print(f"{'case':<4}{'hand':<22}{'situation':<56}" + "".join(f"{c:>20}" for c in columns) + "  deals (settled)")
    for k, (hand, options) in cases:
        for _ in range(args.repeats):
            t_new, out_new, _ = run_cli(ROOT, hand, options, env)
            t_old, _, _ = run_cli(ROOT, hand, (*options, "--samples", "2000"), env)
            row = [t_new, t_old]
            if args.baseline_tree is not None:
                row.append(run_cli(args.baseline_tree, hand, options, env)[0])
            cpu = CPU[-len(row):]
            for c, t, u in zip(columns, row, cpu, strict=True):
                times[c].append(t)
                cpus[c].append(u)
            print(f"{k:<4}{hand:<22}{' '.join(options):<56}"
                  + "".join(f"{f'{t:.2f}s ({u:.2f} cpu)':>20}" for t, u in zip(row, cpu, strict=True))
                  + f"  {_deals(out_new)}", flush=True)
    med = {c: statistics.median(v) for c, v in times.items()}
    med_cpu = {c: statistics.median(v) for c, v in cpus.items()}
    print("median" + " " * 76 + "".join(f"{f'{med[c]:.2f}s ({med_cpu[c]:.2f} cpu)':>20}" for c in columns))
    print(f"ratio of medians, --samples 2000 / settled: {med['--samples 2000'] / med['settled (default)']:.2f}"
          + (f"; baseline tree / settled: {med['baseline tree'] / med['settled (default)']:.2f}"
             if args.baseline_tree else ""))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.dd:
        from sim.engine.playouts import Known, dd_levels, sample_unseen
        from sim.game.cards import parse_hand
        from sim.game.rules import HouseRules

        hand = parse_hand(CASES[0][0])
        deals = sample_unseen(hand, Known(), 2000, 0)
        dd_levels(hand, deals[:2], HouseRules(), 100, 300, threads=1)
        for threads in (1, os.cpu_count() or 1):
            t = time.perf_counter()
            dd_levels(hand, deals, HouseRules(), 100, 300, threads=threads)
            dt = time.perf_counter() - t
            print(f"dd step alone, {threads} thread(s): {dt:.2f} s ({dt / 2000 * 1e3 * threads:.2f} ms a sample "
                  "per thread)")


if __name__ == "__main__":
    main()
