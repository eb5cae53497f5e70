"""What storing a run costs as it grows: the bookkeeping of ``sim.runs`` (shards, their record
in the manifest, the plan of the chunks), not the games.

Prints
- ``huge``: a run of 10,000,000,000 games (20,000,000 chunks) stopped as its first chunk lands:
  the seconds to that first shard and the growth of the process's peak memory. Planning the
  chunks lazily makes both small; building anything per chunk up front makes them grow with the
  run.
- ``chunks``: N whole heuristic games in chunks of one game (so that the bookkeeping dominates),
  for each N given: the seconds taken and the milliseconds a chunk. Bookkeeping that rewrites the
  whole manifest after every chunk grows with the square of the chunk count (the time a chunk
  grows with N); an append-only record stays flat.

    python benchmarks/bench_run_store.py [--games 1000 2000 4000] [--threads 2] [--huge-timeout 90]

Run it on an otherwise idle machine: the figures are compared within the run.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import signal
import tempfile
import time
from pathlib import Path


def _peak_mib() -> float:
    """The process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def chunks(games: int, threads: int, root: Path) -> float:
    from sim.engine import BatchSpec
    from sim.runs import run_batch

    out = root / f"chunks-{games}"
    shutil.rmtree(out, ignore_errors=True)
    spec = BatchSpec(mode="games", n=games, players="heuristic", seed=1, chunk_size=1)
    t = time.perf_counter()
    result = run_batch(spec, out, workers=threads)
    took = time.perf_counter() - t
    assert not result.interrupted and result.chunks_run == games
    shutil.rmtree(out, ignore_errors=True)
    return took


class _Timeout(Exception):
    pass


def huge(timeout: float, root: Path) -> tuple[float | None, float]:
    """(seconds to the first stored shard, or None if none within ``timeout``; MiB the peak
    resident memory grew by)."""
    from sim.engine import BatchSpec
    from sim.runs import run_batch

    spec = BatchSpec(mode="games", n=10**10, players="heuristic", seed=1)
    out = root / "huge"

    def first(_units):
        raise KeyboardInterrupt  # stop as the first chunk lands: the run records it and returns

    def expire(*_):
        raise _Timeout

    before = _peak_mib()
    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    t = time.perf_counter()
    try:
        result = run_batch(spec, out, workers=1, on_chunk=first)
        took = time.perf_counter() - t if result.interrupted else None
    except _Timeout:
        took = None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    grown = _peak_mib() - before
    shutil.rmtree(out, ignore_errors=True)
    return took, grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--huge-timeout", type=float, default=90.0)
    parser.add_argument("--dir", type=Path, default=None, help="where the runs are stored (default: a temporary "
                        "folder; give one on the disk you mean to measure)")
    args = parser.parse_args()

    from sim.engine import BatchSpec, play_chunk

    play_chunk(BatchSpec(mode="games", n=1, seed=0, chunk_size=1), 0)  # load the kernels first
    root = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir))
    try:
        took, grown = huge(args.huge_timeout, root)  # first: the peak memory is measured from here
        first = f"{took:.2f} s" if took is not None else f"none within {args.huge_timeout:.0f} s"
        print(f"huge: 10,000,000,000 games (20,000,000 chunks): first shard stored after {first}; "
              f"peak memory grew by {grown:.0f} MiB", flush=True)
        for games in args.games:
            took = chunks(games, args.threads, root)
            print(f"chunks: {games:,} games in chunks of one: {took:.1f} s, {1000 * took / games:.2f} ms a chunk",
                  flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
