"""Batch runs: chunks played in parallel threads, each stored as its own Parquet shard.

A run directory holds ``run.json`` (the spec that made it) and ``deals/part-NNNNN.parquet``
(plus ``games/part-NNNNN.parquet`` for whole games). Shards are written to a temporary name and
renamed, so a directory never holds a partial file; a rerun of the same spec skips the chunks
already stored, so an interrupted run resumes where it stopped. Every shard carries the run's
rules, seed, version and sample size as Parquet key-value metadata.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sim.engine import BatchSpec, play_chunk

RUN_FILE = "run.json"


class RunDirError(ValueError):
    """The output directory holds something else than this run."""


@dataclass
class RunResult:
    out: Path
    chunks_total: int
    chunks_run: int  # chunks played in this call (the rest were already stored)
    interrupted: bool = False


def shard_path(out: Path, table: str, index: int) -> Path:
    return out / table / f"part-{index:05d}.parquet"


def write_atomic_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_parquet_atomic(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        df.write_parquet(tmp, metadata=metadata, compression="zstd")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _prepare_dir(spec: BatchSpec, out: Path) -> None:
    """Create the run directory, or check that an existing one holds this very run."""
    out.mkdir(parents=True, exist_ok=True)
    run_file = out / RUN_FILE
    wanted = spec.metadata()
    if run_file.exists():
        try:
            stored = json.loads(run_file.read_text())
        except json.JSONDecodeError:
            raise RunDirError(f"{run_file} is not valid JSON; remove it or choose another --out") from None
        stored_cmp = {k: v for k, v in stored.items() if k != "thousand_version"}
        wanted_cmp = {k: v for k, v in wanted.items() if k != "thousand_version"}
        if stored_cmp != wanted_cmp:
            diff = sorted(k for k in wanted_cmp if stored_cmp.get(k) != wanted_cmp[k])
            raise RunDirError(
                f"{out} holds another run (differs in: {', '.join(diff)}); choose another --out or remove it"
            )
        return
    if any(out.iterdir()):
        raise RunDirError(f"{out} is not empty and holds no {RUN_FILE}; choose an empty or new directory")
    write_atomic_bytes(run_file, json.dumps(wanted, indent=2).encode())


def chunk_done(spec: BatchSpec, out: Path, index: int) -> bool:
    # In games mode the game shard is written after the deal shard: it marks the chunk complete.
    return shard_path(out, "games" if spec.mode == "games" else "deals", index).exists()


def run_chunk_to_disk(spec: BatchSpec, out: Path, index: int) -> int:
    """Play one chunk and store its shard(s); returns the number of deals stored."""
    deals, games = play_chunk(spec, index)
    first, size = spec.chunk_bounds(index)
    meta = {k: json.dumps(v) for k, v in spec.metadata().items()}
    meta.update(chunk=str(index), chunk_first=str(first), chunk_size_actual=str(size))
    write_parquet_atomic(deals, shard_path(out, "deals", index), meta)
    if games is not None:
        write_parquet_atomic(games, shard_path(out, "games", index), meta)
    return deals.height


def run_batch(spec: BatchSpec, out: Path, *, workers: int | None = None,
              on_chunk: Callable[[int], None] | None = None) -> RunResult:
    """Play every chunk not yet stored in ``out``, ``workers`` at a time (threads: the kernels
    release the GIL). ``on_chunk(units)`` is called as each chunk lands (units = deals or games).
    Ctrl-C stops after the chunks in flight; what landed stays and a rerun resumes."""
    out = Path(out)
    _prepare_dir(spec, out)
    todo = [i for i in range(spec.n_chunks) if not chunk_done(spec, out, i)]
    workers = max(1, workers or os.cpu_count() or 1)
    result = RunResult(out=out, chunks_total=spec.n_chunks, chunks_run=0)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = {}
        queue = iter(todo)
        try:
            # At most two chunks per worker in flight: memory stays flat however large the run.
            for index in queue:
                pending[pool.submit(run_chunk_to_disk, spec, out, index)] = index
                if len(pending) >= 2 * workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    index = pending.pop(fut)
                    fut.result()
                    result.chunks_run += 1
                    if on_chunk:
                        on_chunk(spec.chunk_bounds(index)[1])
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(run_chunk_to_disk, spec, out, nxt)] = nxt
        except KeyboardInterrupt:
            for fut in pending:
                fut.cancel()
            result.interrupted = True
    return result


def stored_units(spec: BatchSpec, out: Path) -> int:
    """Deals or games already stored for this run (for a resumed progress bar)."""
    return sum(spec.chunk_bounds(i)[1] for i in range(spec.n_chunks) if chunk_done(spec, out, i))


def read_run_metadata(out: Path) -> dict:
    return json.loads((Path(out) / RUN_FILE).read_text())


def scan_deals(out: Path) -> pl.LazyFrame:
    return pl.scan_parquet(Path(out) / "deals" / "part-*.parquet")


def scan_games(out: Path) -> pl.LazyFrame:
    return pl.scan_parquet(Path(out) / "games" / "part-*.parquet")
