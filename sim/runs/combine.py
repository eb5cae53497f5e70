"""Combining runs: complete, verified runs of the same experiment made by this code, with disjoint
seeds, copied into one run with a manifest like any other."""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import polars as pl

from sim import __version__
from sim.fingerprint import code_fingerprint, describe_difference, file_sha256
from sim.runs.folder import (
    FINGERPRINT,
    LOCK_FILE,
    MANIFEST_FILE,
    RUN_FILE,
    RunDirError,
    RunLock,
    building_sibling,
    check_output_dir,
    check_path_name,
    clean_stale_dirs,
    shard_path,
    shard_rel,
    shard_tables,
    storage_errors,
    write_atomic_bytes,
    write_parquet_atomic,
)
from sim.runs.manifest import HashCache, manifest_record, save_manifest, shard_records
from sim.runs.read import read_run_metadata, verify_run

__all__ = ["COMBINE_KEYS", "run_seeds", "combine_runs"]

# What runs must share to be combined: they are then one sample of the same experiment, made by
# this very code (learned_weights: what the learned seats play of their weights files, in runs that
# have learned seats; the same path may hold other weights, or the same npz another manifest).
COMBINE_KEYS = (FINGERPRINT, "mode", "rules", "players", "heuristic_params", "chunk_size", "max_deals_per_game",
                "learned_weights")


def run_seeds(meta: dict) -> list[int]:
    """The root seeds a run was played from (one; several for a combined run)."""
    return list(meta["seeds"]) if "seeds" in meta else [meta["seed"]]


def combine_runs(sources: list[Path], out: Path, *, command: list[str] | None = None) -> dict:
    """One run in ``out`` made of the complete, verified runs ``sources``, which must be made by
    this code and share COMBINE_KEYS (the same rules, players and parameters, mode and chunking)
    and have disjoint seeds. Their shards are copied source after source, renumbered, with game
    numbers offset by the games before them so that every game keeps a number of its own; the
    combined run has a manifest like any other (``verify_run`` and every analysis read it), its
    spec lists the sources and their seeds. Built in a temporary folder and renamed: never half a
    run; what a combine killed mid-way left is removed by the next one."""
    sources = [Path(s) for s in sources]
    out = Path(out)
    check_path_name(out)
    for src in sources:
        check_path_name(src, "a run")
    if len(sources) < 2:
        raise RunDirError("give two or more runs to combine")
    if len({s.resolve() for s in sources}) < len(sources):
        raise RunDirError("a run is given twice: its deals would count twice")
    metas = [read_run_metadata(s) for s in sources]
    current = code_fingerprint()
    for src, meta in zip(sources, metas, strict=True):
        if meta.get(FINGERPRINT) != current:
            raise RunDirError(f"cannot combine: {describe_difference(f'run {src}', meta.get(FINGERPRINT), current)}; "
                              "only runs made by this code combine: redo it with thousand simulate --fresh")
    for src, meta in zip(sources[1:], metas[1:], strict=True):
        diff = [k for k in COMBINE_KEYS if meta.get(k) != metas[0].get(k)]
        if diff:
            raise RunDirError(f"cannot combine {sources[0]} and {src}: they differ in {', '.join(diff)} (only runs "
                              "of the same rules, players, mode and chunk size combine)")
    seeds = [x for m in metas for x in run_seeds(m)]
    repeated = sorted({x for x in seeds if seeds.count(x) > 1})
    if repeated:
        raise RunDirError(f"cannot combine: seed {', '.join(map(str, repeated))} was played in more than one of the "
                          "runs, so their deals repeat; combine runs of different seeds")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise RunDirError(f"--out {out} exists and is not an empty directory; choose a new one")
    shards = [verify_run(s) for s in sources]  # every source complete and intact, or refused
    tables = list(shard_tables(metas[0]["mode"]))
    spec = {**{k: metas[0][k] for k in COMBINE_KEYS if k in metas[0]}, "thousand_version": __version__,
            "sample_size": sum(m["sample_size"] for m in metas), "seed": seeds[0], "seeds": seeds,
            "combined_from": [{"run": str(s), "seeds": run_seeds(m), "sample_size": m["sample_size"],
                               "manifest_sha256": file_sha256(s / MANIFEST_FILE)}
                              for s, m in zip(sources, metas, strict=True)]}
    parent = out.parent if str(out.parent) else Path(".")
    check_output_dir(parent)
    clean_stale_dirs(parent)
    tmp = building_sibling(out)
    shutil.rmtree(tmp, ignore_errors=True)
    with storage_errors(tmp):
        tmp.mkdir(parents=True)
        lock = RunLock(tmp, out).acquire()  # held while building: a later combine sees it is not abandoned
    try:
        manifest = manifest_record(spec, {"chunks": sum(len(s[tables[0]]) for s in shards),
                                          "chunk_size": spec["chunk_size"], "tables": tables}, command)
        hashes = HashCache(tmp)
        index, offset = 0, 0
        shard_meta = {k: json.dumps(v) for k, v in spec.items() if k != "combined_from"}
        for src, meta, found in zip(sources, metas, shards, strict=True):
            for c in range(len(found[tables[0]])):
                meta_out = {**shard_meta, "source": json.dumps(str(src)), "source_chunk": str(c)}
                rows = {}
                for table in tables:
                    frame = pl.read_parquet(found[table][c])
                    frame = frame.with_columns((pl.col("game") + offset).cast(frame.schema["game"]))
                    write_parquet_atomic(frame, shard_path(tmp, table, index), meta_out)
                    rows[shard_rel(table, index)] = frame.height
                manifest["shards"].update(shard_records(tmp, hashes, rows))  # saved once, at the end
                index += 1
            offset += meta["sample_size"]
        hashes.save()
        save_manifest(tmp, manifest)
        write_atomic_bytes(tmp / RUN_FILE, json.dumps(spec, indent=2).encode())
        try:
            if out.exists():
                out.rmdir()  # the empty directory checked above
            tmp.rename(out)
            lock.folder, lock.path = out, out / LOCK_FILE
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                raise RunDirError(f"--out {out} was filled by another process while the runs were combined; "
                                  "choose a new one") from None
            with storage_errors(out):
                raise
    finally:
        lock.release()
        shutil.rmtree(tmp, ignore_errors=True)
    return spec
