"""Reading a stored run: its spec, its shards verified against the manifest (an incomplete or
damaged run refused unless partial data is asked for), one shard's columns, and the deals and games
as lazy frames."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.fingerprint import code_fingerprint, describe_difference
from sim.runs.folder import RUN_FILE, RunDirError, parse_shard_rel, shard_rel
from sim.runs.manifest import HashCache, load_manifest, read_json_object, shard_verified

__all__ = ["read_run_metadata", "verify_run", "read_shard", "scan_deals", "scan_games"]


def read_run_metadata(out: Path) -> dict:
    """The spec a stored run was made with (its ``run.json``); a folder without one is refused."""
    path = Path(out) / RUN_FILE
    if not path.is_file():
        raise RunDirError(f"{out} holds no stored run ({RUN_FILE} is missing)")
    return read_json_object(path, "run spec")


def verify_run(out: Path, *, partial: bool = False) -> dict[str, list[Path]]:
    """The shards of a stored run by table, each checked against the manifest (present, same size
    and SHA-256). An incomplete or damaged run is refused, naming what is wrong, unless
    ``partial``: then only the verified shards are returned. Only the recorded shards are looked
    at, so that a huge unfinished run costs nothing per chunk not yet played."""
    out = Path(out)
    manifest = load_manifest(out)
    # Rows played by other code are not this code's answer: an analysis reading them would print
    # numbers no current command reproduces.
    stored = manifest.get("spec", {}).get("code_fingerprint")
    if stored != code_fingerprint():
        raise RunDirError(describe_difference(f"run {out}", stored, code_fingerprint())
                          + "; play it again (thousand simulate --fresh with its arguments) to read it")
    plan = manifest.get("chunk_plan", {})
    chunks, tables = int(plan.get("chunks", 0)), list(plan.get("tables", []))
    hashes = HashCache(out)
    recorded: dict[str, list[int]] = {t: [] for t in tables}
    for rel in manifest["shards"]:
        table, index = parse_shard_rel(rel)
        if table in recorded and index is not None and index < chunks:
            recorded[table].append(index)
    good: dict[str, list[Path]] = {t: [] for t in tables}
    bad = []  # (chunk, table, what)
    for table in tables:
        for index in sorted(recorded[table]):
            rel = shard_rel(table, index)
            if shard_verified(out, rel, manifest, hashes):
                good[table].append(out / rel)
            else:
                bad.append((index, table, "missing" if not (out / rel).exists() else "damaged"))
    hashes.save()
    missing = sum(chunks - len(recorded[t]) for t in tables)
    if (bad or missing) and not partial:
        shown = sorted(bad)[:3]
        if len(shown) < 3 and missing:
            sets = {t: set(recorded[t]) for t in tables}
            unrecorded = ((i, t, "missing") for i in range(chunks) for t in tables if i not in sets[t])
            shown = sorted(shown + [x for _, x in zip(range(3), unrecorded, strict=False)])[:3]
        total = len(bad) + missing
        words = ", ".join(f"{shard_rel(t, i)} {what}" for i, t, what in shown)
        words += f" and {total - len(shown)} more" if total > len(shown) else ""
        raise RunDirError(f"run {out} is incomplete or damaged ({words}); run the same thousand simulate command "
                          "again to redo those chunks, or read the partial data explicitly")
    return good


def read_shard(path: Path, *, plays: bool = False) -> pl.DataFrame:
    """One shard (from ``verify_run``), scanned lazily so that only the columns needed are read:
    a deal's 24 plays, the largest column by far, only when ``plays``. An analysis reads a run one
    shard at a time, so its memory is bounded by a chunk, not by the run."""
    lf = pl.scan_parquet(path)
    return (lf if plays else lf.select(pl.exclude("plays"))).collect()


def _scan(out: Path, table: str, partial: bool) -> pl.LazyFrame:
    shards = verify_run(out, partial=partial).get(table)
    if shards is None:
        raise RunDirError(f"run {out} has no {table} table (it is a run of {read_run_metadata(out).get('mode')})")
    if not shards:
        raise RunDirError(f"run {out} has no verified {table} shard yet")
    return pl.scan_parquet(shards)


def scan_deals(out: Path, *, partial: bool = False) -> pl.LazyFrame:
    """The deals of a stored run, lazily, from its verified shards (see ``verify_run``)."""
    return _scan(out, "deals", partial)


def scan_games(out: Path, *, partial: bool = False) -> pl.LazyFrame:
    """The games of a stored run, lazily, from its verified shards (see ``verify_run``)."""
    return _scan(out, "games", partial)
