"""Playing a run into its folder: each chunk played (on threads or a Dask cluster) and stored as
its shard(s) by the one writer of shards, the manifest and journal kept as they land; a rerun
verifies what is stored and plays only what is missing or damaged; a folder holding another run
is refused, or with ``fresh`` redone beside it and swapped in once complete."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from sim.engine import BatchSpec, play_chunk
from sim.fingerprint import file_sha256
from sim.runs.backend import Backend, ThreadBackend
from sim.runs.folder import (
    FINGERPRINT,
    LOCK_FILE,
    MANIFEST_FILE,
    RUN_FILE,
    VERIFIED_FILE,
    RunDirError,
    RunLock,
    StorageError,
    check_lock_file,
    check_path_name,
    clean_stale_dirs,
    foreign_entries,
    fresh_sibling,
    is_temporary,
    lock_or_none,
    parse_shard_rel,
    replaced_sibling,
    shard_index,
    shard_path,
    shard_rel,
    shard_tables,
    storage_errors,
    token_path,
    write_atomic_bytes,
    write_parquet_atomic,
)
from sim.runs.manifest import (
    HashCache,
    Journal,
    load_manifest,
    new_manifest,
    read_json_object,
    save_manifest,
    shard_records,
    shard_verified,
    spec_differences,
)
from sim.runs.read import verify_run

if TYPE_CHECKING:
    from sim.progress import Progress

__all__ = [
    "RunResult", "run_chunk_to_disk", "store_chunk", "play_chunk_remote", "run_batch", "check_run_dir", "play_runs",
    "stored_units", "FRESH_REMEDY",
]

# The remedy a refusal of what --out holds offers, here and in every analysis (analysis.study).
FRESH_REMEDY = "give --fresh to redo it there, or choose another --out"


@dataclass
class RunResult:
    out: Path
    chunks_total: int
    chunks_run: int  # chunks played in this call (the rest were already stored)
    interrupted: bool = False
    redone: list[str] = field(default_factory=list)  # shards found missing or damaged and played again
    played_in: Path | None = None  # where the chunks were played: ``out``, or the folder of a redo (fresh)


# ---- resuming ----------------------------------------------------------------------------------------
def _shard_owner(path: Path, wanted: dict) -> list[str] | None:
    """What differs between a stored shard's metadata and this run, in words (empty: it is this
    run's), or None when it cannot be read (truncated, not Parquet). A shard without a code
    fingerprint was made by older code: another run."""
    try:
        meta = pl.read_parquet_metadata(path)
        stored = {k: json.loads(meta[k]) for k in wanted if k in meta}
    except Exception:  # noqa: BLE001  (any unreadable file is a damaged shard)
        return None
    if not stored:
        return ["it holds no run metadata"]
    return spec_differences(stored, {k: v for k, v in wanted.items() if k in stored or k == FINGERPRINT})


def _listed_shards(out: Path, spec: BatchSpec) -> tuple[set[str], list[Path]]:
    """(the shards present, by relative path; the leftover temporary files). A file under the shard
    folders that no chunk of this run writes is refused, before anything is removed."""
    present, temps = set(), []
    for table in ("deals", "games"):
        folder = out / table
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if is_temporary(path.name):
                temps.append(path)
                continue
            index = shard_index(path.name)
            if table in shard_tables(spec.mode) and index is not None and index < spec.n_chunks:
                present.add(shard_rel(table, index))
                continue
            raise RunDirError(f"{path} is not a shard of this run (it has {spec.n_chunks:,} chunks of "
                              f"{', '.join(shard_tables(spec.mode))}); remove it or choose another --out")
    return present, temps


def _refuse_other_run(spec: BatchSpec, out: Path) -> bool:
    """Refuse (one line naming what differs, nothing written) a directory ``out`` that holds
    another run, or files and no run; True when it holds this very run, False when it is new or
    empty."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    if not out.is_dir():
        return False
    wanted = spec.metadata()
    if (out / RUN_FILE).exists():
        found = spec_differences(read_json_object(out / RUN_FILE, "run spec"), wanted)
        if found:
            raise RunDirError(f"{out} holds another run: {'; '.join(found)}; {FRESH_REMEDY}")
        if (out / MANIFEST_FILE).exists():
            found = spec_differences(load_manifest(out).get("spec", {}), wanted)
            if found:
                raise RunDirError(f"{out / MANIFEST_FILE} describes another run: {'; '.join(found)}; {FRESH_REMEDY}")
        return True
    if any(p.name not in (VERIFIED_FILE, LOCK_FILE) for p in out.iterdir()):
        raise RunDirError(f"{out} is not empty and holds no {RUN_FILE}; choose an empty or new directory")
    return False


def _holds_this_run(spec: BatchSpec, out: Path) -> bool:
    try:
        return _refuse_other_run(spec, out)
    except RunDirError:
        return False


def _prepare_dir(spec: BatchSpec, out: Path, command: list[str] | None) -> dict:
    """Check (under the lock) that ``out`` is new, empty or holds this very run, refusing
    anything else before writing; write the spec of a new run; return the manifest (its journal
    folded in)."""
    if _refuse_other_run(spec, out):
        if (out / MANIFEST_FILE).exists():
            return load_manifest(out)
        return new_manifest(spec, command)  # its manifest was lost: its shards are verified below
    write_atomic_bytes(out / RUN_FILE, json.dumps(spec.metadata(), indent=2).encode())
    return new_manifest(spec, command)


def _verify_for_resume(spec: BatchSpec, out: Path, manifest: dict, hashes: HashCache, *,
                       replace_foreign: bool = False) -> tuple[Iterator[int], list[str]]:
    """(the chunks still to play, lazily; the shards found damaged or unrecorded and removed).
    Only the shards present or recorded are looked at, so that planning costs nothing per chunk
    still to play. A file that belongs to another run is refused, before anything is removed,
    unless ``replace_foreign`` (a run redone with fresh): it is then removed and played again."""
    present, temps = _listed_shards(out, spec)
    wanted = spec.metadata()
    tables = shard_tables(spec.mode)
    seen: set[int] = set()
    for rel in list(present) + list(manifest["shards"]):
        table, index = parse_shard_rel(rel)
        if table in tables and index is not None and index < spec.n_chunks:
            seen.add(index)
    complete: set[int] = set()
    remove: list[str] = []
    verified: set[str] = set()
    for index in sorted(seen):
        whole = True
        for table in tables:
            rel = shard_rel(table, index)
            if rel in present and shard_verified(out, rel, manifest, hashes):
                verified.add(rel)
                continue
            whole = False
            if rel in present:
                owner = _shard_owner(out / rel, wanted)
                if owner and not replace_foreign:
                    raise RunDirError(f"{out / rel} belongs to another run: {'; '.join(owner)}; give --fresh to "
                                      "play that chunk again, or choose another --out")
                remove.append(rel)  # this run's, but damaged or never recorded: played again
        if whole:
            complete.add(index)
    for rel in [r for r in manifest["shards"] if r not in verified]:
        del manifest["shards"][rel]  # missing, damaged, or of no chunk of this run: recorded again when played
    for rel in remove:
        with storage_errors(out / rel):
            (out / rel).unlink()
    for path in temps:
        path.unlink(missing_ok=True)  # a run interrupted while writing (we hold the lock)
    return (i for i in range(spec.n_chunks) if i not in complete), remove


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
    rows = {shard_rel("deals", index): deals.height}
    if games is not None:
        write_parquet_atomic(games, shard_path(out, "games", index), meta)
        rows[shard_rel("games", index)] = games.height
    return rows


def play_chunk_remote(spec: BatchSpec, out: str, index: int, token_name: str, token: str) -> tuple:
    """A chunk on a Dask worker. When the run's directory ``out`` (an absolute path) is visible
    there, a shared disk or the same machine, which the token the command wrote into it proves,
    the worker stores the chunk itself and returns ("stored", rows by shard, [size, mtime, ctime,
    inode, SHA-256] by shard), so the command only records it; otherwise it returns ("rows",
    deals, games) for the command to store. Either way the same writer makes the same bytes."""
    folder = Path(out)
    try:
        seen = (folder / token_name).read_text(encoding="utf-8") == token
    except OSError:
        seen = False
    if not seen:
        return ("rows", *play_chunk(spec, index))
    rows = run_chunk_to_disk(spec, folder, index)
    stamps = {rel: [*HashCache.stamp(folder / rel), file_sha256(folder / rel)] for rel in rows}
    return ("stored", rows, stamps)


def run_batch(spec: BatchSpec, out: Path, *, workers: int | None = None,
              on_chunk: Callable[[int], None] | None = None, command: list[str] | None = None,
              backend: Backend | None = None, fresh: bool = False) -> RunResult:
    """Play every chunk not yet stored (and verified) in ``out``: on ``backend`` (``sim.runs.backend``;
    None: ``workers`` threads of this process, the kernels releasing the GIL). ``on_chunk(units)``
    is called as each chunk lands (units = deals or games). Ctrl-C stops at once: what landed
    stays, the chunks in flight are abandoned, and a rerun resumes. On a remote backend the chunk
    is played there, and its shard written by the same writer: there when the worker sees ``out``,
    here otherwise (``play_chunk_remote``).

    ``out`` must be new, empty, or hold this very run: the same code fingerprint, rules, players,
    seed and sizes. Anything else is refused (RunDirError) in one line naming what differs, before
    anything in ``out`` is touched, unless ``fresh``: then whatever ``out`` holds that is not this
    run (a run of other arguments or of other code) is replaced, atomically. The new run is played
    in the sibling folder ``.NAME.fresh`` (rerunning with ``fresh`` resumes it) and swapped in by
    two renames once complete, so that ``out`` holds the old run, whole and valid, until then.
    ``out`` holding this very run is resumed in place (its results would be the same bytes), with
    any shard of another run in it played again. A folder holding files that are not a run's is
    refused. A complete run is reused without writing anything (a read-only mount will do); a
    second command writing into ``out`` at the same time is refused, naming the PID of the first."""
    backend = backend or ThreadBackend(workers)
    out = Path(out)
    check_path_name(out)
    clean_stale_dirs(out.parent)
    play = {"command": command, "backend": backend, "on_chunk": on_chunk}
    if fresh and not _holds_this_run(spec, out):
        return _run_fresh(spec, out, **play)
    _refuse_other_run(spec, out)  # before the lock file is made: a refused command writes nothing
    lock = lock_or_none(out)
    if lock is None:
        return _reuse_read_only(spec, out)
    try:
        return _play_into(spec, out, replace_foreign=fresh, **play)
    finally:
        lock.release()


def check_run_dir(spec: BatchSpec, out: Path, *, fresh: bool = False) -> None:
    """Refuse at once, writing nothing, what ``run_batch`` would refuse before playing: a name
    that is not UTF-8, a file, a folder holding another run (without ``fresh``) or files that are not
    a run's (with ``fresh``), a ``.lock`` that is not a lock file. For a command to say so before
    loading the engine."""
    out = Path(out)
    check_path_name(out)
    if not fresh:
        _refuse_other_run(spec, out)
    elif out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    elif out.is_dir() and not _holds_this_run(spec, out):
        _refuse_foreign_files(out)
    check_lock_file(out)


def _refuse_foreign_files(out: Path) -> None:
    foreign = foreign_entries(out)
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise RunDirError(f"--fresh would replace {out}, which holds files that are not a run's ({foreign[0]}{more}); "
                          "move them away or choose another --out")


def _reuse_read_only(spec: BatchSpec, out: Path) -> RunResult:
    """A run in a folder that cannot be written: reused when it is complete and intact, refused
    (one line) when anything would have to be written."""
    if not _refuse_other_run(spec, out) or not (out / MANIFEST_FILE).exists():
        raise StorageError(f"--out {out}: the directory is not writable")
    shards = verify_run(out, partial=True)
    missing = spec.n_chunks * len(shard_tables(spec.mode)) - sum(len(v) for v in shards.values())
    if missing:
        raise StorageError(f"--out {out}: the directory is not writable, and {missing:,} shard(s) of the run are "
                           "missing or damaged and must be played")
    return RunResult(out=out, chunks_total=spec.n_chunks, chunks_run=0)


def _play_into(spec: BatchSpec, out: Path, *, command, backend, on_chunk, replace_foreign: bool,
               label: Path | None = None) -> RunResult:
    """Play the chunks of ``spec`` still missing in ``out``, whose lock the caller holds."""
    manifest = _prepare_dir(spec, out, command)
    hashes = HashCache(out)
    todo, removed = _verify_for_resume(spec, out, manifest, hashes, replace_foreign=replace_foreign)
    save_manifest(out, manifest)
    journal = Journal(out, manifest)
    result = RunResult(out=label or out, chunks_total=spec.n_chunks, chunks_run=0, redone=removed, played_in=out)

    def landed(item, value):
        index = item[2]
        if not backend.remote:
            rows = value
        elif value[0] == "stored":  # the worker wrote the shards here; its hashes spare a second read
            rows = value[1]
            hashes.remember(value[2])
        else:
            rows = store_chunk(spec, out, index, *value[1:])
        journal.append(shard_records(out, hashes, rows))
        result.chunks_run += 1
        if on_chunk:
            on_chunk(spec.chunk_bounds(index)[1])

    token_file = None
    finished = False
    try:
        if backend.remote:
            token = secrets.token_hex(16) if getattr(backend, "shared_disk", True) else ""
            token_file = token_path(out, token)
            if token:
                write_atomic_bytes(token_file, token.encode())
            items = ((spec, str(out.resolve()), index, token_file.name, token or "-") for index in todo)
            backend.map(play_chunk_remote, items, landed)
        else:
            backend.map(run_chunk_to_disk, ((spec, out, index) for index in todo), landed)
        finished = True
    except KeyboardInterrupt:
        # The chunks in flight are abandoned (a compiled kernel cannot be stopped); what landed is
        # recorded, and a rerun plays the rest.
        result.interrupted = True
        finished = True
    finally:
        hashes.save()
        if token_file is not None:
            token_file.unlink(missing_ok=True)
        if finished:
            journal.fold()
        else:
            # Another error is on its way (a full disk...): the journal keeps what landed, and
            # the next run folds it; a failure to fold here must not hide that error.
            with contextlib.suppress(OSError, StorageError):
                journal.fold()
            journal.close()
    return result


def _run_fresh(spec: BatchSpec, out: Path, **play) -> RunResult:
    """Redo the run ``out`` holds (another spec, or other code) in the sibling ``.NAME.fresh``,
    resumable, and swap it in once complete; ``out`` keeps the old run until then."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    if out.is_dir():
        _refuse_foreign_files(out)
    sibling = fresh_sibling(out)
    locks: list[RunLock] = []
    try:
        if out.is_dir():
            lock = lock_or_none(out)
            if lock is None:
                raise StorageError(f"--out {out}: the directory is not writable, and --fresh must replace what it "
                                   "holds")
            locks.append(lock)
        lock = lock_or_none(sibling, out)
        if lock is None:
            raise StorageError(f"cannot write {sibling}: the directory is not writable")
        locks.append(lock)
        if not _holds_this_run(spec, sibling):  # a redo of other arguments, left unfinished: ours to clear
            if foreign_entries(sibling):
                raise RunDirError(f"{sibling} holds files that are not a run's; move them away")
            for path in sibling.iterdir():
                if path.name != LOCK_FILE:
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
        result = _play_into(spec, sibling, replace_foreign=True, label=out, **play)
        if result.interrupted:
            return result
        result.played_in = out
        replaced = None
        with storage_errors(out):
            if out.exists():
                replaced = replaced_sibling(out)
                os.rename(out, replaced)
            os.rename(sibling, out)
        lock.folder, lock.path = out, out / LOCK_FILE
        if replaced is not None:
            shutil.rmtree(replaced, ignore_errors=True)
        return result
    finally:
        for lock in locks:
            lock.release()


def play_runs(runs: dict[Path, BatchSpec], *, progress: Progress | None = None, stage: str = "",
              backend: Backend | None = None,
              fresh: bool = False) -> None:
    """Play (or resume) several runs, each into its directory, on ``backend`` (None: threads),
    reporting ``progress(stage, units done, units in all)`` (deals or games of all the runs; a
    resumed run starts from what is stored). Ctrl-C raises KeyboardInterrupt once what landed is
    recorded. ``fresh``: replace what a directory holds that is not its run (``run_batch``): an
    analysis passes its ``--fresh`` here."""
    total = sum(spec.n for spec in runs.values())
    done = [sum(stored_units(spec, path, fresh=fresh) for path, spec in runs.items())]

    def on_chunk(units: int) -> None:
        done[0] += units
        if progress is not None:
            progress(stage, done[0], total)

    if progress is not None:
        progress(stage, done[0], total)
    for path, spec in runs.items():
        if run_batch(spec, path, on_chunk=on_chunk, backend=backend, fresh=fresh).interrupted:
            raise KeyboardInterrupt


def stored_units(spec: BatchSpec, out: Path, *, fresh: bool = False) -> int:
    """Deals or games already stored for this run (for a resumed progress bar): the chunks whose
    shards the manifest and its journal record, in ``out`` if it holds this run, else (with
    ``fresh``) in the folder where it is being redone."""
    out = Path(out)
    folder = out if not fresh or _holds_this_run(spec, out) else fresh_sibling(out)
    try:
        if not _holds_this_run(spec, folder):
            return 0
        recorded = load_manifest(folder)["shards"]
    except (RunDirError, OSError):
        return 0
    tables = shard_tables(spec.mode)
    counts: dict[int, int] = {}
    for rel in recorded:
        table, index = parse_shard_rel(rel)
        if table in tables and index is not None and index < spec.n_chunks:
            counts[index] = counts.get(index, 0) + 1
    return sum(spec.chunk_bounds(i)[1] for i, n in counts.items() if n == len(tables))
