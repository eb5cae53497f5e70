"""Throughput of a batch run in this process and on a local Dask cluster, in one run.

Prints, for whole heuristic games (classic rules):
- games a second with threads in this process (as many as --threads), and with 1 and 2 local
  Dask workers (one process and one thread each), every run storing its shards;
- the overhead of a chunk: the same games in chunks of one game against chunks of --chunk-size,
  per chunk, on threads and on Dask;
- the cold start of a worker: the time from starting a one-worker local cluster to its first
  result, with the kernels loaded from the on-disk cache (the first run of a machine also
  compiles: about a minute more per worker, unless the cache directory is shared);
- and, from these, what a billion games or deals would take and the disk they would fill.

    python benchmarks/bench_scale.py [--games 4000] [--chunk-size 250] [--threads 2]

Run it on an otherwise idle machine: the figures are compared within the run.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path


def _timed_run(spec, out: Path, backend=None, threads: int | None = None) -> float:
    from sim.runs import run_batch

    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    result = run_batch(spec, out, workers=threads, backend=backend)
    assert not result.interrupted
    return time.perf_counter() - t


def _disk(out: Path) -> int:
    return sum(p.stat().st_size for p in out.rglob("*.parquet"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--chunk-size", type=int, default=250)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--overhead-games", type=int, default=200, help="games played in chunks of one")
    parser.add_argument("--pimc-deals", type=int, default=20, help="independent deals with every seat pimc")
    args = parser.parse_args()

    from sim.engine import BatchSpec, play_chunk
    from sim.game.rules import HouseRules
    from sim.runs import open_backend

    rules = HouseRules()
    spec = BatchSpec(mode="games", n=args.games, rules=rules, players="heuristic", seed=1, chunk_size=args.chunk_size)
    deals_spec = BatchSpec(mode="deals", n=args.games * 10, rules=rules, players="heuristic", seed=1,
                           chunk_size=args.chunk_size * 10)
    tiny = BatchSpec(mode="games", n=args.overhead_games, rules=rules, players="heuristic", seed=1, chunk_size=1)
    tiny_ref = BatchSpec(mode="games", n=args.overhead_games, rules=rules, players="heuristic", seed=1,
                         chunk_size=args.overhead_games // 2)
    play_chunk(BatchSpec(mode="games", n=1, rules=rules, players="heuristic", seed=0, chunk_size=1), 0)  # warm
    root = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    rows = []
    try:
        t = _timed_run(spec, root / "threads", threads=args.threads)
        rows.append((f"threads in this process ({args.threads})", t))
        games_disk = _disk(root / "threads")
        deals_t = _timed_run(deals_spec, root / "deals", threads=args.threads)
        deals_disk = _disk(root / "deals")
        pimc_spec = BatchSpec(mode="deals", n=args.pimc_deals, rules=rules, players="pimc", seed=1,
                              chunk_size=max(1, args.pimc_deals // (2 * args.threads)))
        _timed_run(BatchSpec(mode="deals", n=1, rules=rules, players="pimc", seed=2, chunk_size=1), root / "pw")
        pimc_t = _timed_run(pimc_spec, root / "pimc", threads=args.threads)
        over_threads = (_timed_run(tiny, root / "tiny", threads=args.threads)
                        - _timed_run(tiny_ref, root / "tiny-ref", threads=args.threads)) / (tiny.n_chunks
                                                                                          - tiny_ref.n_chunks)
        cold = {}
        for workers in (1, 2):
            start = time.perf_counter()
            with open_backend(cluster="local", workers=workers) as backend:
                backend.client.wait_for_workers(workers)
                cold[workers] = time.perf_counter() - start
                t = _timed_run(spec, root / f"dask{workers}", backend=backend)
                rows.append((f"local Dask, {workers} worker(s)", t))
                if workers == 2:
                    _timed_run(BatchSpec(mode="deals", n=2, rules=rules, players="pimc", seed=2, chunk_size=1),
                               root / "pw-dask", backend=backend)  # each worker loads the pimc kernels
                    pimc_dask_t = _timed_run(pimc_spec, root / "pimc-dask", backend=backend)
                    over_dask = (_timed_run(tiny, root / "tiny-dask", backend=backend)
                                 - _timed_run(tiny_ref, root / "tiny-ref-dask", backend=backend)) / (
                        tiny.n_chunks - tiny_ref.n_chunks)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    base = rows[0][1]
    print(f"{args.games:,} whole games (heuristic, classic), chunks of {args.chunk_size}:")
    for label, t in rows:
        print(f"  {label:<34} {t:6.2f} s  {args.games / t:8,.0f} games/s  ({base / t:.2f}x the threads)")
    print(f"{pimc_spec.n} independent deals, every seat pimc (compute-bound): threads {pimc_spec.n / pimc_t:.1f} "
          f"deals/s, local Dask with 2 workers {pimc_spec.n / pimc_dask_t:.1f} deals/s "
          f"({pimc_t / pimc_dask_t:.2f}x the threads)")
    print(f"overhead per chunk (chunks of one game against chunks of {tiny_ref.chunk_size}): threads "
          f"{1000 * over_threads:.1f} ms, local Dask (2 workers) {1000 * over_dask:.1f} ms")
    print(f"cold start (cluster up and every worker's kernels loaded from the cache): 1 worker {cold[1]:.1f} s, "
          f"2 workers {cold[2]:.1f} s")
    per_game = games_disk / args.games
    per_deal = deals_disk / deals_spec.n
    best = max(args.games / t for _, t in rows)
    deals_rate = deals_spec.n / deals_t
    print(f"disk: {per_game:,.0f} bytes a game (deals and games tables), {per_deal:,.0f} bytes an independent deal")
    print(f"a billion games at {best:,.0f} games/s on this machine: {_span(1e9 / best)}, "
          f"{per_game * 1e9 / 1e12:,.1f} TB; on 100 such machines {_span(1e9 / best / 100)}")
    print(f"a billion independent deals at {deals_rate:,.0f} deals/s (heuristic, threads): {_span(1e9 / deals_rate)}, "
          f"{per_deal * 1e9 / 1e12:,.2f} TB")
    pimc_rate = pimc_spec.n / pimc_t
    print(f"a billion independent deals of pimc at {pimc_rate:,.1f} deals/s on this machine: {_span(1e9 / pimc_rate)}; "
          f"on 1,000 such machines {_span(1e9 / pimc_rate / 1000)}")


def _span(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:,.0f} s"


if __name__ == "__main__":
    main()
