"""Batch runs: chunks played in parallel threads, each stored as its own Parquet shard, and a
manifest that makes a stored run impossible to read wrongly.

A run directory holds ``run.json`` (the spec that made it), ``manifest.json`` and the shards
``deals/part-NNNNN.parquet`` (plus ``games/part-NNNNN.parquet`` for whole games). The manifest
holds the command, the spec, the chunk plan, the versions and, for every shard that has landed, its
rows, size and SHA-256; it is rewritten atomically as each chunk lands. Shards are written to a
temporary name and renamed, so a directory never holds a partial file under a shard's name.

A rerun of the same spec verifies every shard against the manifest: a finished chunk is kept, a
missing or damaged one (truncated, changed, replaced) is played again, a file that belongs to
another run is refused with its name, and leftover temporary files are removed. Readers
(``scan_deals``, ``scan_games``) read only the shards the manifest lists and verifies, and refuse
an incomplete or damaged run unless asked for partial data. Hashes are remembered by file size and
modification time in ``.verified.json``, so a run is hashed once, not at every read.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from sim import __version__
from sim.engine import BatchSpec, play_chunk

RUN_FILE = "run.json"
MANIFEST_FILE = "manifest.json"
VERIFIED_FILE = ".verified.json"
MANIFEST_FORMAT = 1
_TMP_MARK = ".tmp-"  # temporary files are ".<name>.tmp-<pid>-<thread>"


class RunDirError(ValueError):
    """The output directory holds something else than this run, or a run that cannot be read as
    asked (incomplete, damaged); the message names the file and what to do."""


@dataclass
class RunResult:
    out: Path
    chunks_total: int
    chunks_run: int  # chunks played in this call (the rest were already stored)
    interrupted: bool = False
    redone: list[str] = field(default_factory=list)  # shards found missing or damaged and played again


# ---- files ----------------------------------------------------------------------------------------
def shard_path(out: Path, table: str, index: int) -> Path:
    return out / table / f"part-{index:05d}.parquet"


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}{_TMP_MARK}{os.getpid()}-{threading.get_ident()}")


def write_atomic_bytes(path: Path, data: bytes) -> None:
    tmp = _tmp_name(path)
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_parquet_atomic(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path)
    try:
        df.write_parquet(tmp, metadata=metadata, compression="zstd")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _tables(mode: str) -> tuple[str, ...]:
    # In games mode a chunk is complete when both its shards are stored.
    return ("deals", "games") if mode == "games" else ("deals",)


def _rel(table: str, index: int) -> str:
    return f"{table}/part-{index:05d}.parquet"


# ---- the manifest ---------------------------------------------------------------------------------
def _versions() -> dict[str, str]:
    import numba
    import numpy

    return {"thousand": __version__, "python": platform.python_version(), "numba": numba.__version__,
            "numpy": numpy.__version__, "polars": pl.__version__}


def _same_spec(a: dict, b: dict) -> list[str]:
    """The keys in which two run specs differ (the version that wrote them does not count)."""
    keys = (set(a) | set(b)) - {"thousand_version"}
    return sorted(k for k in keys if a.get(k) != b.get(k))


def _read_json(path: Path, what: str) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RunDirError(f"{path} is not valid JSON ({what}); remove the run directory or choose another "
                          "--out") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{path} is not a {what}; remove the run directory or choose another --out")
    return data


def load_manifest(out: Path) -> dict:
    path = Path(out) / MANIFEST_FILE
    if not path.exists():
        raise RunDirError(f"{out} has no {MANIFEST_FILE}: not a run of this version of thousand (or not a run)")
    manifest = _read_json(path, "run manifest")
    if manifest.get("format") != MANIFEST_FORMAT or not isinstance(manifest.get("shards"), dict):
        raise RunDirError(f"{path}: unknown manifest format; remove the run directory or choose another --out")
    return manifest


def _save_manifest(out: Path, manifest: dict) -> None:
    write_atomic_bytes(out / MANIFEST_FILE, json.dumps(manifest, indent=1, sort_keys=True).encode())


def _new_manifest(spec: BatchSpec, command: list[str] | None) -> dict:
    return {
        "format": MANIFEST_FORMAT,
        "command": command if command is not None else list(sys.argv),
        "spec": spec.metadata(),
        "chunk_plan": {"chunks": spec.n_chunks, "chunk_size": spec.chunk_size, "tables": list(_tables(spec.mode))},
        "versions": _versions(),
        "shards": {},
    }


class _HashCache:
    """SHA-256 of files remembered by (size, modification time): a file is hashed again only when
    either changes."""

    def __init__(self, out: Path):
        self.path = out / VERIFIED_FILE
        try:
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}
        self.changed = False

    def sha256(self, out: Path, rel: str) -> tuple[int, str]:
        st = (out / rel).stat()
        stamp = [st.st_size, st.st_mtime_ns]
        hit = self.entries.get(rel)
        if isinstance(hit, list) and len(hit) == 3 and hit[:2] == stamp:
            return st.st_size, hit[2]
        sha = file_sha256(out / rel)
        self.entries[rel] = [*stamp, sha]
        self.changed = True
        return st.st_size, sha

    def remember(self, stamps: dict[str, list]) -> None:
        """Take [size, mtime_ns, SHA-256] by relative path from whoever wrote the files (a Dask
        worker): ``sha256`` then trusts them while size and mtime still match."""
        self.entries.update(stamps)
        self.changed = True

    def save(self) -> None:
        if self.changed:
            try:
                write_atomic_bytes(self.path, json.dumps(self.entries).encode())
            except OSError:
                pass  # only a cache: the next read hashes again
            self.changed = False


def _shard_ok(out: Path, rel: str, manifest: dict, hashes: _HashCache) -> bool:
    rec = manifest["shards"].get(rel)
    if not rec or not (out / rel).is_file():
        return False
    size, sha = hashes.sha256(out, rel)
    return size == rec.get("size") and sha == rec.get("sha256")


def _shard_owner(path: Path, wanted: dict) -> list[str] | None:
    """The spec keys in which a stored shard's metadata differs from this run (empty: it is this
    run's), or None when it cannot be read (truncated, not Parquet)."""
    try:
        meta = pl.read_parquet_metadata(path)
        stored = {k: json.loads(meta[k]) for k in wanted if k in meta}
    except Exception:  # noqa: BLE001  (any unreadable file is a damaged shard)
        return None
    return _same_spec(stored, {k: v for k, v in wanted.items() if k in stored}) if stored else ["metadata"]


def _check_stray_files(out: Path, spec: BatchSpec) -> None:
    """Refuse files under the shard folders that no chunk of this run writes; remove leftover
    temporary files (a run interrupted while writing)."""
    for table in ("deals", "games"):
        folder = out / table
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if _TMP_MARK in path.name and path.name.startswith("."):
                path.unlink(missing_ok=True)
                continue
            name = path.name
            known = (table in _tables(spec.mode) and name.startswith("part-") and name.endswith(".parquet")
                     and name[5:-8].isdigit() and int(name[5:-8]) < spec.n_chunks and len(name) == 18)
            if not known:
                raise RunDirError(f"{path} is not a shard of this run (it has {spec.n_chunks} chunks of "
                                  f"{', '.join(_tables(spec.mode))}); remove it or choose another --out")


def check_output_dir(out: Path) -> None:
    """Create the output directory ``out`` if needed, refusing (one line, naming it) a path that
    is a file or lies under one, and a directory that cannot be written."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunDirError(f"--out {out}: a part of the path is a file, not a directory") from None
    except PermissionError:
        raise RunDirError(f"--out {out}: no permission to create the directory") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise RunDirError(f"--out {out}: the directory is not writable")


def _prepare_dir(spec: BatchSpec, out: Path, command: list[str] | None) -> dict:
    """Create the run directory, or check that an existing one holds this very run; return its
    manifest."""
    check_output_dir(out)
    run_file = out / RUN_FILE
    wanted = spec.metadata()
    if run_file.exists():
        diff = _same_spec(_read_json(run_file, "run spec"), wanted)
        if diff:
            raise RunDirError(
                f"{out} holds another run (differs in: {', '.join(diff)}); choose another --out or remove it"
            )
        if (out / MANIFEST_FILE).exists():
            manifest = load_manifest(out)
            diff = _same_spec(manifest.get("spec", {}), wanted)
            if diff:
                raise RunDirError(f"{out / MANIFEST_FILE} describes another run (differs in: {', '.join(diff)}); "
                                  "choose another --out or remove the directory")
            return manifest
        manifest = _new_manifest(spec, command)  # a run of an older version: its shards are verified below
    else:
        if any(p.name != VERIFIED_FILE for p in out.iterdir()):
            raise RunDirError(f"{out} is not empty and holds no {RUN_FILE}; choose an empty or new directory")
        write_atomic_bytes(run_file, json.dumps(wanted, indent=2).encode())
        manifest = _new_manifest(spec, command)
    _save_manifest(out, manifest)
    return manifest


def _verify_for_resume(spec: BatchSpec, out: Path, manifest: dict, hashes: _HashCache) -> tuple[list[int], list[str]]:
    """(chunks still to play, shards found damaged or unrecorded and removed). A file that belongs
    to another run is refused."""
    _check_stray_files(out, spec)
    wanted = spec.metadata()
    todo, removed = [], []
    for i in range(spec.n_chunks):
        complete = True
        for table in _tables(spec.mode):
            rel = _rel(table, i)
            if _shard_ok(out, rel, manifest, hashes):
                continue
            complete = False
            path = out / rel
            if path.exists():
                owner = _shard_owner(path, wanted)
                if owner:
                    raise RunDirError(f"{path} belongs to another run (differs in: {', '.join(owner)}); "
                                      "remove it or choose another --out")
                path.unlink()  # this run's, but damaged or never recorded: played again
                removed.append(rel)
            manifest["shards"].pop(rel, None)
        if not complete:
            todo.append(i)
    return todo, removed


def _record_chunk(out: Path, manifest: dict, hashes: _HashCache, rows: dict[str, int]) -> None:
    for rel, n in rows.items():
        size, sha = hashes.sha256(out, rel)
        manifest["shards"][rel] = {"rows": n, "size": size, "sha256": sha}
    _save_manifest(out, manifest)


# ---- running -----------------------------------------------------------------------------------------
def run_chunk_to_disk(spec: BatchSpec, out: Path, index: int) -> dict[str, int]:
    """Play one chunk and store its shard(s); returns the rows stored by shard (relative path)."""
    return store_chunk(spec, out, index, *play_chunk(spec, index))


def store_chunk(spec: BatchSpec, out: Path, index: int, deals: pl.DataFrame,
                games: pl.DataFrame | None) -> dict[str, int]:
    """Store chunk ``index``'s shard(s) atomically with the run's metadata; returns the rows stored
    by shard (relative path). The one writer of shards, wherever the chunk was played."""
    first, size = spec.chunk_bounds(index)
    meta = {k: json.dumps(v) for k, v in spec.metadata().items()}
    meta.update(chunk=str(index), chunk_first=str(first), chunk_size_actual=str(size))
    write_parquet_atomic(deals, shard_path(out, "deals", index), meta)
    rows = {_rel("deals", index): deals.height}
    if games is not None:
        write_parquet_atomic(games, shard_path(out, "games", index), meta)
        rows[_rel("games", index)] = games.height
    return rows


def play_chunk_remote(spec: BatchSpec, out: str, index: int, token_name: str, token: str) -> tuple:
    """A chunk on a Dask worker. When the run's directory ``out`` (an absolute path) is visible
    there, a shared disk or the same machine, which the token the command wrote into it proves,
    the worker stores the chunk itself and returns ("stored", rows by shard, [size, mtime, SHA-256]
    by shard), so the command only records it; otherwise it returns ("rows", deals, games) for the
    command to store. Either way the same writer makes the same bytes."""
    folder = Path(out)
    try:
        seen = (folder / token_name).read_text(encoding="utf-8") == token
    except OSError:
        seen = False
    if not seen:
        return ("rows", *play_chunk(spec, index))
    rows = run_chunk_to_disk(spec, folder, index)
    stamps = {}
    for rel in rows:
        st = (folder / rel).stat()
        stamps[rel] = [st.st_size, st.st_mtime_ns, file_sha256(folder / rel)]
    return ("stored", rows, stamps)


def run_batch(spec: BatchSpec, out: Path, *, workers: int | None = None,
              on_chunk: Callable[[int], None] | None = None, command: list[str] | None = None,
              backend=None) -> RunResult:
    """Play every chunk not yet stored (and verified) in ``out``: on ``backend`` (``sim.backend``;
    None: ``workers`` threads of this process, the kernels releasing the GIL). ``on_chunk(units)``
    is called as each chunk lands (units = deals or games). Ctrl-C stops at once: what landed
    stays, the chunks in flight are abandoned, and a rerun resumes. On a remote backend the chunk
    is played there and its shard written here, by the same writer."""
    from sim.backend import ThreadBackend

    backend = backend or ThreadBackend(workers)
    out = Path(out)
    manifest = _prepare_dir(spec, out, command)
    hashes = _HashCache(out)
    todo, removed = _verify_for_resume(spec, out, manifest, hashes)
    _save_manifest(out, manifest)
    result = RunResult(out=out, chunks_total=spec.n_chunks, chunks_run=0, redone=removed)

    def landed(item, value):
        index = item[2]
        if not backend.remote:
            rows = value
        elif value[0] == "stored":  # the worker wrote the shards here; its hashes spare a second read
            rows = value[1]
            hashes.remember(value[2])
        else:
            rows = store_chunk(spec, out, index, *value[1:])
        _record_chunk(out, manifest, hashes, rows)
        result.chunks_run += 1
        if on_chunk:
            on_chunk(spec.chunk_bounds(index)[1])

    token_file = None
    try:
        if backend.remote:
            import secrets

            token = secrets.token_hex(16) if getattr(backend, "shared_disk", True) else ""
            token_file = out / f".dask-token-{token or 'none'}"
            if token:
                write_atomic_bytes(token_file, token.encode())
            items = ((spec, str(out.resolve()), index, token_file.name, token or "-") for index in todo)
            backend.map(play_chunk_remote, items, landed)
        else:
            backend.map(run_chunk_to_disk, ((spec, out, index) for index in todo), landed)
    except KeyboardInterrupt:
        # The chunks in flight are abandoned (a compiled kernel cannot be stopped); what landed is
        # recorded, and a rerun plays the rest.
        result.interrupted = True
    finally:
        hashes.save()
        if token_file is not None:
            token_file.unlink(missing_ok=True)
    return result


def play_runs(runs: dict[Path, BatchSpec], *, progress: bool = False, desc: str = "", backend=None) -> None:
    """Play (or resume) several runs, each into its directory, under one progress bar, on
    ``backend`` (None: threads). Ctrl-C raises KeyboardInterrupt once what landed is recorded."""
    import sys

    from tqdm import tqdm

    total = sum(spec.n for spec in runs.values())
    done = sum(stored_units(spec, path) for path, spec in runs.items() if (path / RUN_FILE).exists())
    unit = next(iter(runs.values())).mode[:-1]
    with tqdm(total=total, initial=done, unit=unit, unit_scale=True, disable=not progress, desc=desc,
              file=sys.stderr, dynamic_ncols=True) as bar:
        for path, spec in runs.items():
            if run_batch(spec, path, on_chunk=bar.update, backend=backend).interrupted:
                raise KeyboardInterrupt


def stored_units(spec: BatchSpec, out: Path) -> int:
    """Deals or games already stored for this run (for a resumed progress bar): the chunks whose
    shards the manifest records."""
    try:
        recorded = load_manifest(out)["shards"]
    except RunDirError:
        return 0
    return sum(spec.chunk_bounds(i)[1] for i in range(spec.n_chunks)
               if all(_rel(t, i) in recorded for t in _tables(spec.mode)))


# ---- reading ---------------------------------------------------------------------------------------
def read_run_metadata(out: Path) -> dict:
    path = Path(out) / RUN_FILE
    if not path.is_file():
        raise RunDirError(f"{out} holds no stored run ({RUN_FILE} is missing)")
    return _read_json(path, "run spec")


def verify_run(out: Path, *, partial: bool = False) -> dict[str, list[Path]]:
    """The shards of a stored run by table, each checked against the manifest (present, same size
    and SHA-256). An incomplete or damaged run is refused, naming what is wrong, unless
    ``partial``: then only the verified shards are returned."""
    out = Path(out)
    manifest = load_manifest(out)
    plan = manifest.get("chunk_plan", {})
    chunks, tables = int(plan.get("chunks", 0)), list(plan.get("tables", []))
    hashes = _HashCache(out)
    good: dict[str, list[Path]] = {t: [] for t in tables}
    bad = []
    for i in range(chunks):
        for table in tables:
            rel = _rel(table, i)
            if _shard_ok(out, rel, manifest, hashes):
                good[table].append(out / rel)
            else:
                bad.append(rel + (" missing" if not (out / rel).exists() else " damaged"))
    hashes.save()
    if bad and not partial:
        shown = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
        raise RunDirError(f"run {out} is incomplete or damaged ({shown}); run the same thousand simulate command "
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


# ---- combining runs --------------------------------------------------------------------------------
# What runs must share to be combined: they are then one sample of the same experiment.
COMBINE_KEYS = ("mode", "rules", "players", "heuristic_params", "chunk_size", "max_deals_per_game")


def run_seeds(meta: dict) -> list[int]:
    """The root seeds a run was played from (one; several for a combined run)."""
    return list(meta["seeds"]) if "seeds" in meta else [meta["seed"]]


def combine_runs(sources: list[Path], out: Path, *, command: list[str] | None = None) -> dict:
    """One run in ``out`` made of the complete, verified runs ``sources``, which must share
    COMBINE_KEYS (the same rules, players and parameters, mode and chunking) and have disjoint seeds.
    Their shards are copied source after source, renumbered, with game numbers offset by the games
    before them so that every game keeps a number of its own; the combined run has a manifest like
    any other (``verify_run`` and every analysis read it), its spec lists the sources and their
    seeds. Built in a temporary folder and renamed: never half a run. Returns the spec."""
    sources = [Path(s) for s in sources]
    out = Path(out)
    if len(sources) < 2:
        raise RunDirError("give two or more runs to combine")
    if len({s.resolve() for s in sources}) < len(sources):
        raise RunDirError("a run is given twice: its deals would count twice")
    metas = [read_run_metadata(s) for s in sources]
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
    tables = list(_tables(metas[0]["mode"]))
    spec = {**{k: metas[0][k] for k in COMBINE_KEYS}, "thousand_version": __version__,
            "sample_size": sum(m["sample_size"] for m in metas), "seed": seeds[0], "seeds": seeds,
            "combined_from": [{"run": str(s), "seeds": run_seeds(m), "sample_size": m["sample_size"],
                               "manifest_sha256": file_sha256(s / MANIFEST_FILE)}
                              for s, m in zip(sources, metas, strict=True)]}
    check_output_dir(out.parent if str(out.parent) else Path("."))
    tmp = out.with_name(f".{out.name}{_TMP_MARK}{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        manifest = {"format": MANIFEST_FORMAT, "command": command if command is not None else list(sys.argv),
                    "spec": spec, "chunk_plan": {"chunks": sum(len(s[tables[0]]) for s in shards),
                                                 "chunk_size": spec["chunk_size"], "tables": tables},
                    "versions": _versions(), "shards": {}}
        hashes = _HashCache(tmp)
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
                    rows[_rel(table, index)] = frame.height
                _record_chunk(tmp, manifest, hashes, rows)
                index += 1
            offset += meta["sample_size"]
        hashes.save()
        write_atomic_bytes(tmp / RUN_FILE, json.dumps(spec, indent=2).encode())
        if out.exists():
            out.rmdir()  # the empty directory checked above
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return spec
