"""Batch runs: chunks played in parallel threads, each stored as its own Parquet shard, and a
manifest that makes a stored run impossible to read wrongly.

A run directory holds ``run.json`` (the spec that made it, with the code fingerprint of
``sim.fingerprint``), ``manifest.json`` and the shards ``deals/part-NNNNN.parquet`` (plus
``games/part-NNNNN.parquet`` for whole games). The manifest holds the command, the spec, the chunk
plan, the versions and, for every shard that has landed, its rows, size and SHA-256. Shards are
written to a temporary name and renamed, so a directory never holds a partial file under a shard's
name.

Saving is incremental: each landed shard is appended to ``manifest.journal`` (one JSON line,
flushed to disk), and the journal is folded into the manifest whenever it has grown as large as
the manifest, at the end of a command and when a run is resumed, so that the bookkeeping of a run
costs time in proportion to its chunks, not to their square. Readers fold the journal too; a torn
last line (a process killed while appending) is ignored, its shard being verified or played again
like any unrecorded file. The chunks to play are planned lazily: nothing is built per chunk up
front, so a run of ten billion games starts as fast as one of ten.

A rerun of the same spec verifies every shard against the manifest: a finished chunk is kept, a
missing or damaged one (truncated, changed, replaced) is played again, a file that belongs to
another run (another spec, or made by other code) is refused with its name, and leftover temporary
files are removed. A directory holding another run (other rules, players, seed, sizes, or code) is
refused in one line naming what differs, before anything in it is touched; ``fresh`` redoes the
run instead, atomically (``run_batch``). While a command writes into a run directory it holds an
exclusive lock on its ``.lock`` file: a second command is refused, naming the holder's PID. A
complete run is reused without writing anything, so that it may be read from a read-only mount.

Readers (``scan_deals``, ``scan_games``) read only the shards the manifest lists and verifies, and
refuse an incomplete or damaged run unless asked for partial data. Hashes are remembered in
``.verified.json`` by the file's size, modification time, status-change time and inode: ``touch``
can set a file's times back after an edit but not its status-change time (the kernel sets it on
every write), so an edited shard is always hashed again, while an unchanged run is hashed once, not
at every read.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import platform
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from sim import InputError, __version__
from sim.engine import BatchSpec, play_chunk
from sim.fingerprint import code_fingerprint, describe_difference, file_sha256

RUN_FILE = "run.json"
MANIFEST_FILE = "manifest.json"
JOURNAL_FILE = "manifest.journal"
VERIFIED_FILE = ".verified.json"
LOCK_FILE = ".lock"
FINGERPRINT = "code_fingerprint"
MANIFEST_FORMAT = 1
_TMP_MARK = ".tmp-"  # temporary files are ".<name>.tmp-<pid>-<thread>", a combine's folder ".<name>.tmp-<pid>"
_TOKEN_PREFIX = ".dask-token-"
_FRESH_SUFFIX = ".fresh"  # a run redone with fresh is played in ".<name>.fresh" beside it
_REPLACED_MARK = ".replaced-"  # the run it replaces, for the moment of the swap: ".<name>.replaced-<pid>"
# What a run directory may hold; anything else is someone else's file, which fresh never deletes.
_RUN_ENTRIES = {RUN_FILE, MANIFEST_FILE, JOURNAL_FILE, VERIFIED_FILE, LOCK_FILE, "deals", "games"}
_SHARD_NAME = re.compile(r"part-(\d{5,})\.parquet")
_HINT = "give --fresh to redo it there, or choose another --out"


class RunDirError(InputError):
    """The output directory holds something else than this run, or a run that cannot be read as
    asked (incomplete, damaged, locked by another process); the message names the file and what
    to do."""


class StorageError(RunDirError):
    """The disk refused a write: full, read-only, or not ours to write. The message names the file."""


@dataclass
class RunResult:
    out: Path
    chunks_total: int
    chunks_run: int  # chunks played in this call (the rest were already stored)
    interrupted: bool = False
    redone: list[str] = field(default_factory=list)  # shards found missing or damaged and played again
    played_in: Path | None = None  # where the chunks were played: ``out``, or the folder of a redo (fresh)


# ---- files ----------------------------------------------------------------------------------------
def shard_path(out: Path, table: str, index: int) -> Path:
    return out / table / f"part-{index:05d}.parquet"


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}{_TMP_MARK}{os.getpid()}-{threading.get_ident()}")


# Errors of the disk that are the machine's state, not a bug: reported as one line naming the file.
_WRITE_ERRORS = {
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
}


def _errno_of(exc: BaseException) -> int | None:
    """The OS error number of a failed write: an OSError's own, or the one Polars quotes in the
    message of the error it raises instead ("... (os error 28)")."""
    if isinstance(exc, OSError) and exc.errno:
        return exc.errno
    found = re.search(r"os error (\d+)", str(exc))
    return int(found.group(1)) if found else None


_FULL_BELOW = 1 << 20  # free bytes under which a write that failed without saying why failed for space


def _no_space_at(path: Path) -> bool:
    folder = Path(path).parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free < _FULL_BELOW
    except OSError:
        return False


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Turn a full disk, a read-only file system or a refused permission while writing ``path``
    into one line naming it (StorageError); any other error passes through as it is."""
    try:
        yield
    except (OSError, pl.exceptions.ComputeError) as exc:
        code = _errno_of(exc)
        if code is None and _no_space_at(path):
            # Polars can lose the OS error on the way (a full disk met while writing the footer
            # reads "Invalid thrift: transport error"): the disk, still full, says why. Checked
            # before the temporary file is removed, which frees its space.
            code = errno.ENOSPC
        reason = _WRITE_ERRORS.get(code)
        if reason is None:
            raise
        if code in (errno.ENOSPC, errno.EDQUOT):
            raise StorageError(f"{reason} writing {path}; free some space and run the same command again "
                               "(what was stored is kept)") from None
        raise StorageError(f"cannot write {path}: {reason}") from None


def write_atomic_bytes(path: Path, data: bytes) -> None:
    tmp = _tmp_name(path)
    try:
        with _writing(path):
            tmp.write_bytes(data)
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def write_npz_atomic(path: Path, **arrays) -> None:
    """``np.savez`` of ``arrays`` to ``path`` through ``write_atomic_bytes``: never a partial file,
    and a full disk is one line."""
    import io

    import numpy as np

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    write_atomic_bytes(path, buf.getvalue())


def write_parquet_atomic(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    tmp = _tmp_name(path)
    try:
        with _writing(path):
            # One level only: a chunk abandoned on Ctrl-C that lands after its run folder was moved
            # (a redo swapped in) must fail, not make the folder again.
            path.parent.mkdir(exist_ok=True)
            df.write_parquet(tmp, metadata=metadata, compression="zstd")
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


NAME_MAX = 255  # bytes in one file or folder name on every common Linux file system


def check_path_name(path: Path, option: str = "--out") -> None:
    """Refuse a path whose name is not UTF-8 text (a byte from another encoding): Parquet and
    JSON store names as UTF-8, so nothing could be written there. Checked before anything is
    created."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(path).decode("utf-8", "backslashreplace")
        raise RunDirError(f"{option} {shown}: the name holds bytes that are not UTF-8 text; choose a name in "
                          "UTF-8") from None
    longest = max((len(os.fsencode(part)) for part in Path(path).parts), default=0)
    if longest > NAME_MAX:
        raise RunDirError(f"{option} {str(path)[:60]}...: a name in the path is {longest} bytes long, more than the "
                          f"{NAME_MAX} a file system allows")


def _tables(mode: str) -> tuple[str, ...]:
    # In games mode a chunk is complete when both its shards are stored.
    return ("deals", "games") if mode == "games" else ("deals",)


def _rel(table: str, index: int) -> str:
    return f"{table}/part-{index:05d}.parquet"


def _shard_index(name: str) -> int | None:
    """The chunk index of a shard's file name, None for any other name."""
    found = _SHARD_NAME.fullmatch(name)
    return int(found.group(1)) if found and name == f"part-{int(found.group(1)):05d}.parquet" else None


def _rel_index(rel: str) -> tuple[str, int | None]:
    table, _, name = rel.partition("/")
    return table, _shard_index(name)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _only_run_files(folder: Path) -> bool:
    """Whether ``folder`` holds nothing but what a run writes (so that it may be deleted)."""
    return not _foreign_entries(folder)


def _foreign_entries(folder: Path) -> list[Path]:
    """What ``folder`` holds that no run writes (a user's own files)."""
    foreign = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if name.startswith(_TOKEN_PREFIX) or (name.startswith(".") and _TMP_MARK in name):
            continue
        if name not in _RUN_ENTRIES:
            foreign.append(path)
        elif name in ("deals", "games"):
            if not path.is_dir():
                foreign.append(path)
                continue
            foreign += [p for p in sorted(path.iterdir()) if _shard_index(p.name) is None
                        and not (p.name.startswith(".") and _TMP_MARK in p.name)]
    return foreign


def _abandoned(folder: Path) -> bool:
    """Whether nobody holds the lock of ``folder`` any more (its writer ended, however it ended):
    the kernel releases a lock with its process, on this machine or, through the file server, on
    another one sharing the disk."""
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def _clean_stale_dirs(parent: Path) -> None:
    """Remove what commands killed mid-way left in ``parent``: a combine's temporary run
    ``.NAME.tmp-PID`` and a replaced run ``.NAME.replaced-PID``, when the process of that PID is no
    longer alive, nobody holds the folder's lock, and it holds nothing but a run's files."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for path in entries:
        name = path.name
        if not name.startswith("."):
            continue
        for mark in (_TMP_MARK, _REPLACED_MARK):
            head, found, pid = name.rpartition(mark)
            if found and head and pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)) \
                    and path.is_dir() and not path.is_symlink() and _abandoned(path) and _only_run_files(path):
                shutil.rmtree(path, ignore_errors=True)
                break


# ---- the lock --------------------------------------------------------------------------------------
class RunLock:
    """An exclusive lock on a run directory, held while a command writes into it: ``flock`` on its
    ``.lock`` file, which holds the holder's PID. The kernel releases it when the process ends,
    however it ends; the file is removed on release."""

    def __init__(self, folder: Path, label: Path | None = None, option: str = "--out"):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_FILE
        self.label = label or self.folder  # the directory the user named, for the message
        self.option = option  # the option that named it
        self.fd: int | None = None

    def acquire(self) -> RunLock:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                raise RunDirError(_locked_message(self.label, holder, self.option)) from None
            # The holder may have released and removed the file between our open and our lock: we
            # then hold a file nobody else will open; lock the one at the path instead.
            try:
                current = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                current = False
            if current:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == os.fstat(self.fd).st_ino:
                os.unlink(self.path)  # still ours (a swapped run's lock is another file by now)
        os.close(self.fd)
        self.fd = None


def _locked_message(label: Path, holder: str, option: str = "--out") -> str:
    who = f"another process (PID {holder})" if holder.isdigit() else "another process"
    return f"{label} is being written by {who}, which holds its lock; wait for it to finish, or choose another {option}"


def _lock_or_none(folder: Path, label: Path | None = None) -> RunLock | None:
    """The lock of ``folder``, created if needed; None when the folder exists but cannot be
    written (a read-only mount): only a complete run can then be used."""
    label = label or folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunDirError(f"--out {label}: a part of the path is a file, not a directory") from None
    except OSError as exc:
        if folder.is_dir() and _errno_of(exc) in _WRITE_ERRORS:
            return None
        reason = _WRITE_ERRORS.get(_errno_of(exc)) or (exc.strerror or str(exc)).lower()
        raise StorageError(f"--out {label}: cannot create the directory: {reason}") from None
    try:
        return RunLock(folder, label).acquire()
    except OSError as exc:
        if _errno_of(exc) in (errno.EROFS, errno.EACCES, errno.EPERM):
            return None
        with _writing(folder / LOCK_FILE):
            raise


# ---- the manifest ---------------------------------------------------------------------------------
def _versions() -> dict[str, str]:
    import numba
    import numpy

    return {"thousand": __version__, "python": platform.python_version(), "numba": numba.__version__,
            "numpy": numpy.__version__, "polars": pl.__version__}


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return json.dumps(value) if isinstance(value, dict) else str(value)


def _changed_options(a: object, b: object) -> list[str]:
    """Options (keys of two dictionaries) whose values differ, each with both values."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return [f"{_shown(a)} stored, {_shown(b)} asked"]
    return [f"{k}: {_shown(a.get(k))} stored, {_shown(b.get(k))} asked"
            for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]


def _listed(items: list[str], shown: int = 3) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return "; ".join(items[:shown]) + more


def spec_differences(stored: dict, wanted: dict) -> list[str]:
    """What differs between a stored run's spec and the one asked for, in words: the code that
    made it, the rules (which options), the players, the seed, the sizes; empty when it is this
    very run (the version that wrote it does not count: the code fingerprint does)."""
    found = []
    if stored.get(FINGERPRINT) != wanted.get(FINGERPRINT):
        found.append(describe_difference("it", stored.get(FINGERPRINT), str(wanted.get(FINGERPRINT))))
    if stored.get("rules") != wanted.get("rules"):
        found.append(f"its rules differ ({_listed(_changed_options(stored.get('rules'), wanted.get('rules')))})")
    if stored.get("players") != wanted.get("players"):
        found.append(f"its players differ ({_shown(stored.get('players'))} stored, {_shown(wanted.get('players'))} "
                     "asked)")
    if stored.get("heuristic_params") != wanted.get("heuristic_params"):
        found.append("its players' parameters differ "
                     f"({_listed(_changed_options(stored.get('heuristic_params'), wanted.get('heuristic_params')))})")
    if stored.get("seed") != wanted.get("seed"):
        found.append(f"its seed differs ({_shown(stored.get('seed'))} stored, {_shown(wanted.get('seed'))} asked)")
    sizes = []
    mode = wanted.get("mode")
    if stored.get("mode") != mode:
        sizes.append(f"{_shown(stored.get('mode'))} stored, {_shown(mode)} asked")
    for key, words in (("sample_size", f"--{mode}"), ("chunk_size", "--chunk-size"),
                       ("max_deals_per_game", "deals a game at most")):
        if stored.get(key) != wanted.get(key):
            sizes.append(f"{words}: {_shown(stored.get(key))} stored, {_shown(wanted.get(key))} asked")
    if sizes:
        found.append(f"its sizes differ ({'; '.join(sizes)})")
    known = {FINGERPRINT, "rules", "players", "heuristic_params", "seed", "mode", "sample_size", "chunk_size",
             "max_deals_per_game", "thousand_version"}
    other = sorted(k for k in (set(stored) | set(wanted)) - known if stored.get(k) != wanted.get(k))
    if other:
        found.append(f"its spec differs in {', '.join(other)}")
    return found


def _read_json(path: Path, what: str) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RunDirError(f"{path} is not valid JSON ({what}); remove the run directory or choose another "
                          "--out") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{path} is not a {what}; remove the run directory or choose another --out")
    return data


def read_journal(out: Path) -> dict[str, dict]:
    """The shards recorded in the journal since the manifest was last saved, by relative path. A
    line that does not parse (the last one, torn by a process killed while appending) is ignored:
    its shard is then unrecorded, and verified or played again like any unrecorded file."""
    try:
        data = (Path(out) / JOURNAL_FILE).read_bytes()
    except FileNotFoundError:
        return {}
    found = {}
    for line in data.split(b"\n"):
        try:
            rec = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("shard"), str) and {"rows", "size", "sha256"} <= set(rec):
            found[rec["shard"]] = {"rows": rec["rows"], "size": rec["size"], "sha256": rec["sha256"]}
    return found


def load_manifest(out: Path) -> dict:
    """A run's manifest with the shards of its journal folded in."""
    path = Path(out) / MANIFEST_FILE
    if not path.exists():
        raise RunDirError(f"{out} has no {MANIFEST_FILE}: not a run of this version of thousand (or not a run)")
    manifest = _read_json(path, "run manifest")
    if manifest.get("format") != MANIFEST_FORMAT or not isinstance(manifest.get("shards"), dict):
        raise RunDirError(f"{path}: unknown manifest format; remove the run directory or choose another --out")
    manifest["shards"].update(read_journal(out))
    return manifest


def _manifest_bytes(manifest: dict) -> bytes:
    return json.dumps(manifest, indent=1, sort_keys=True).encode()


def _save_manifest(out: Path, manifest: dict) -> None:
    """Write the manifest (atomically) if it differs from the one stored, then drop the journal it
    now holds: a complete run is rewritten never, and a read-only one is not written to."""
    data = _manifest_bytes(manifest)
    path = out / MANIFEST_FILE
    try:
        same = path.read_bytes() == data
    except OSError:
        same = False
    if not same:
        write_atomic_bytes(path, data)
    if (out / JOURNAL_FILE).exists():
        with _writing(out / JOURNAL_FILE):
            (out / JOURNAL_FILE).unlink(missing_ok=True)


def _new_manifest(spec: BatchSpec, command: list[str] | None) -> dict:
    return {
        "format": MANIFEST_FORMAT,
        "command": command if command is not None else list(sys.argv),
        "spec": spec.metadata(),
        "chunk_plan": {"chunks": spec.n_chunks, "chunk_size": spec.chunk_size, "tables": list(_tables(spec.mode))},
        "versions": _versions(),
        "shards": {},
    }


class _Journal:
    """The shards landed since the manifest was last saved, appended one JSON line each and
    flushed to disk (fsync) before the chunk counts as stored; folded into the manifest whenever it
    holds as many shards as the manifest does (so that saving costs time in proportion to the
    chunks: each record is rewritten a bounded number of times on average), and at the end."""

    def __init__(self, out: Path, manifest: dict):
        self.out, self.manifest = out, manifest
        self.path = out / JOURNAL_FILE
        self.file = None
        self.count = 0  # records appended since the last fold

    def append(self, records: dict[str, dict]) -> None:
        data = "".join(json.dumps({"shard": rel, **rec}, sort_keys=True) + "\n" for rel, rec in records.items())
        with _writing(self.path):
            if self.file is None:
                self.file = open(self.path, "ab")  # noqa: SIM115  (kept open while chunks land)
            self.file.write(data.encode())
            self.file.flush()
            os.fsync(self.file.fileno())
        self.manifest["shards"].update(records)
        self.count += len(records)
        if self.count >= max(1, len(self.manifest["shards"]) - self.count):
            self.fold()

    def fold(self) -> None:
        """Save the manifest with every landed shard and drop the journal."""
        if self.file is not None:
            self.file.close()
            self.file = None
        _save_manifest(self.out, self.manifest)
        self.count = 0

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class _HashCache:
    """SHA-256 of files remembered by (size, modification time, status-change time, inode): a file
    is hashed again when any of them changes. Any write sets the status-change time, and nothing
    but the kernel's clock can set it back (``touch -r`` restores only the other times)."""

    def __init__(self, out: Path):
        self.path = out / VERIFIED_FILE
        try:
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}
        self.changed = False

    @staticmethod
    def stamp(path: Path) -> list[int]:
        st = path.stat()
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]

    def sha256(self, out: Path, rel: str) -> tuple[int, str]:
        stamp = self.stamp(out / rel)
        hit = self.entries.get(rel)
        if isinstance(hit, list) and len(hit) == len(stamp) + 1 and hit[:-1] == stamp:
            return stamp[0], hit[-1]
        sha = file_sha256(out / rel)
        self.entries[rel] = [*stamp, sha]
        self.changed = True
        return stamp[0], sha

    def remember(self, stamps: dict[str, list]) -> None:
        """Take [size, mtime_ns, ctime_ns, inode, SHA-256] by relative path from whoever wrote the
        files (a Dask worker): ``sha256`` then trusts them while the file's stamp still matches."""
        self.entries.update(stamps)
        self.changed = True

    def save(self) -> None:
        if self.changed:
            try:
                write_atomic_bytes(self.path, json.dumps(self.entries).encode())
            except (OSError, StorageError):
                pass  # only a cache (a read-only run, a full disk): the next read hashes again
            self.changed = False


def _shard_ok(out: Path, rel: str, manifest: dict, hashes: _HashCache) -> bool:
    rec = manifest["shards"].get(rel)
    if not rec or not (out / rel).is_file():
        return False
    size, sha = hashes.sha256(out, rel)
    return size == rec.get("size") and sha == rec.get("sha256")


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
            if _TMP_MARK in path.name and path.name.startswith("."):
                temps.append(path)
                continue
            index = _shard_index(path.name)
            if table in _tables(spec.mode) and index is not None and index < spec.n_chunks:
                present.add(_rel(table, index))
                continue
            raise RunDirError(f"{path} is not a shard of this run (it has {spec.n_chunks:,} chunks of "
                              f"{', '.join(_tables(spec.mode))}); remove it or choose another --out")
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
        found = spec_differences(_read_json(out / RUN_FILE, "run spec"), wanted)
        if found:
            raise RunDirError(f"{out} holds another run: {'; '.join(found)}; {_HINT}")
        if (out / MANIFEST_FILE).exists():
            found = spec_differences(load_manifest(out).get("spec", {}), wanted)
            if found:
                raise RunDirError(f"{out / MANIFEST_FILE} describes another run: {'; '.join(found)}; {_HINT}")
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
        return _new_manifest(spec, command)  # its manifest was lost: its shards are verified below
    write_atomic_bytes(out / RUN_FILE, json.dumps(spec.metadata(), indent=2).encode())
    return _new_manifest(spec, command)


def _verify_for_resume(spec: BatchSpec, out: Path, manifest: dict, hashes: _HashCache, *,
                       replace_foreign: bool = False) -> tuple[Iterator[int], list[str]]:
    """(the chunks still to play, lazily; the shards found damaged or unrecorded and removed).
    Only the shards present or recorded are looked at, so that planning costs nothing per chunk
    still to play. A file that belongs to another run is refused, before anything is removed,
    unless ``replace_foreign`` (a run redone with fresh): it is then removed and played again."""
    present, temps = _listed_shards(out, spec)
    wanted = spec.metadata()
    tables = _tables(spec.mode)
    seen: set[int] = set()
    for rel in list(present) + list(manifest["shards"]):
        table, index = _rel_index(rel)
        if table in tables and index is not None and index < spec.n_chunks:
            seen.add(index)
    complete: set[int] = set()
    remove: list[str] = []
    verified: set[str] = set()
    for index in sorted(seen):
        whole = True
        for table in tables:
            rel = _rel(table, index)
            if rel in present and _shard_ok(out, rel, manifest, hashes):
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
        with _writing(out / rel):
            (out / rel).unlink()
    for path in temps:
        path.unlink(missing_ok=True)  # a run interrupted while writing (we hold the lock)
    return (i for i in range(spec.n_chunks) if i not in complete), remove


def _shard_record(out: Path, hashes: _HashCache, rows: dict[str, int]) -> dict[str, dict]:
    records = {}
    for rel, n in rows.items():
        size, sha = hashes.sha256(out, rel)
        records[rel] = {"rows": n, "size": size, "sha256": sha}
    return records


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
    stamps = {rel: [*_HashCache.stamp(folder / rel), file_sha256(folder / rel)] for rel in rows}
    return ("stored", rows, stamps)


def run_batch(spec: BatchSpec, out: Path, *, workers: int | None = None,
              on_chunk: Callable[[int], None] | None = None, command: list[str] | None = None,
              backend=None, fresh: bool = False) -> RunResult:
    """Play every chunk not yet stored (and verified) in ``out``: on ``backend`` (``sim.backend``;
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
    from sim.backend import ThreadBackend

    backend = backend or ThreadBackend(workers)
    out = Path(out)
    check_path_name(out)
    _clean_stale_dirs(out.parent)
    play = {"command": command, "backend": backend, "on_chunk": on_chunk}
    if fresh and not _holds_this_run(spec, out):
        return _run_fresh(spec, out, **play)
    _refuse_other_run(spec, out)  # before the lock file is made: a refused command writes nothing
    lock = _lock_or_none(out)
    if lock is None:
        return _reuse_read_only(spec, out)
    try:
        return _play_into(spec, out, replace_foreign=fresh, **play)
    finally:
        lock.release()


def check_run_dir(spec: BatchSpec, out: Path, *, fresh: bool = False) -> None:
    """Refuse at once, writing nothing, what ``run_batch`` would refuse before playing: a name
    that is not UTF-8, a file, a folder holding another run (without ``fresh``) or files that are not
    a run's (with ``fresh``). For a command to say so before loading the engine."""
    out = Path(out)
    check_path_name(out)
    if not fresh:
        _refuse_other_run(spec, out)
    elif out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    elif out.is_dir() and not _holds_this_run(spec, out):
        _refuse_foreign_files(out)


def _refuse_foreign_files(out: Path) -> None:
    foreign = _foreign_entries(out)
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
    missing = spec.n_chunks * len(_tables(spec.mode)) - sum(len(v) for v in shards.values())
    if missing:
        raise StorageError(f"--out {out}: the directory is not writable, and {missing:,} shard(s) of the run are "
                           "missing or damaged and must be played")
    return RunResult(out=out, chunks_total=spec.n_chunks, chunks_run=0)


def _play_into(spec: BatchSpec, out: Path, *, command, backend, on_chunk, replace_foreign: bool,
               label: Path | None = None) -> RunResult:
    """Play the chunks of ``spec`` still missing in ``out``, whose lock the caller holds."""
    manifest = _prepare_dir(spec, out, command)
    hashes = _HashCache(out)
    todo, removed = _verify_for_resume(spec, out, manifest, hashes, replace_foreign=replace_foreign)
    _save_manifest(out, manifest)
    journal = _Journal(out, manifest)
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
        journal.append(_shard_record(out, hashes, rows))
        result.chunks_run += 1
        if on_chunk:
            on_chunk(spec.chunk_bounds(index)[1])

    token_file = None
    finished = False
    try:
        if backend.remote:
            import secrets

            token = secrets.token_hex(16) if getattr(backend, "shared_disk", True) else ""
            token_file = out / f"{_TOKEN_PREFIX}{token or 'none'}"
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


def _fresh_dir(out: Path) -> Path:
    out = out if out.name else Path(os.path.abspath(out))  # "." or "..": the folder's own name
    return out.with_name(f".{out.name}{_FRESH_SUFFIX}")


def _run_fresh(spec: BatchSpec, out: Path, **play) -> RunResult:
    """Redo the run ``out`` holds (another spec, or other code) in the sibling ``.NAME.fresh``,
    resumable, and swap it in once complete; ``out`` keeps the old run until then."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    if out.is_dir():
        _refuse_foreign_files(out)
    sibling = _fresh_dir(out)
    locks: list[RunLock] = []
    try:
        if out.is_dir():
            lock = _lock_or_none(out)
            if lock is None:
                raise StorageError(f"--out {out}: the directory is not writable, and --fresh must replace what it "
                                   "holds")
            locks.append(lock)
        lock = _lock_or_none(sibling, out)
        if lock is None:
            raise StorageError(f"cannot write {sibling}: the directory is not writable")
        locks.append(lock)
        if not _holds_this_run(spec, sibling):  # a redo of other arguments, left unfinished: ours to clear
            if _foreign_entries(sibling):
                raise RunDirError(f"{sibling} holds files that are not a run's; move them away")
            for path in sibling.iterdir():
                if path.name != LOCK_FILE:
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
        result = _play_into(spec, sibling, replace_foreign=True, label=out, **play)
        if result.interrupted:
            return result
        result.played_in = out
        replaced = None
        with _writing(out):
            if out.exists():
                replaced = sibling.with_name(f"{sibling.name.removesuffix(_FRESH_SUFFIX)}{_REPLACED_MARK}{os.getpid()}")
                os.rename(out, replaced)
            os.rename(sibling, out)
        lock.folder, lock.path = out, out / LOCK_FILE
        if replaced is not None:
            shutil.rmtree(replaced, ignore_errors=True)
        return result
    finally:
        for lock in locks:
            lock.release()


def play_runs(runs: dict[Path, BatchSpec], *, progress: bool = False, desc: str = "", backend=None,
              fresh: bool = False) -> None:
    """Play (or resume) several runs, each into its directory, under one progress bar, on
    ``backend`` (None: threads). Ctrl-C raises KeyboardInterrupt once what landed is recorded.
    ``fresh``: replace what a directory holds that is not its run (``run_batch``): an analysis
    passes its ``--fresh`` here."""
    import sys

    from tqdm import tqdm

    total = sum(spec.n for spec in runs.values())
    done = sum(stored_units(spec, path, fresh=fresh) for path, spec in runs.items())
    unit = next(iter(runs.values())).mode[:-1]
    with tqdm(total=total, initial=done, unit=unit, unit_scale=True, disable=not progress, desc=desc,
              file=sys.stderr, dynamic_ncols=True) as bar:
        for path, spec in runs.items():
            if run_batch(spec, path, on_chunk=bar.update, backend=backend, fresh=fresh).interrupted:
                raise KeyboardInterrupt


def stored_units(spec: BatchSpec, out: Path, *, fresh: bool = False) -> int:
    """Deals or games already stored for this run (for a resumed progress bar): the chunks whose
    shards the manifest and its journal record, in ``out`` if it holds this run, else (with
    ``fresh``) in the folder where it is being redone."""
    out = Path(out)
    folder = out if not fresh or _holds_this_run(spec, out) else _fresh_dir(out)
    try:
        if not _holds_this_run(spec, folder):
            return 0
        recorded = load_manifest(folder)["shards"]
    except (RunDirError, OSError):
        return 0
    tables = _tables(spec.mode)
    counts: dict[int, int] = {}
    for rel in recorded:
        table, index = _rel_index(rel)
        if table in tables and index is not None and index < spec.n_chunks:
            counts[index] = counts.get(index, 0) + 1
    return sum(spec.chunk_bounds(i)[1] for i, n in counts.items() if n == len(tables))


# ---- reading ---------------------------------------------------------------------------------------
def read_run_metadata(out: Path) -> dict:
    path = Path(out) / RUN_FILE
    if not path.is_file():
        raise RunDirError(f"{out} holds no stored run ({RUN_FILE} is missing)")
    return _read_json(path, "run spec")


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
    hashes = _HashCache(out)
    recorded: dict[str, list[int]] = {t: [] for t in tables}
    for rel in manifest["shards"]:
        table, index = _rel_index(rel)
        if table in recorded and index is not None and index < chunks:
            recorded[table].append(index)
    good: dict[str, list[Path]] = {t: [] for t in tables}
    bad = []  # (chunk, table, what)
    for table in tables:
        for index in sorted(recorded[table]):
            rel = _rel(table, index)
            if _shard_ok(out, rel, manifest, hashes):
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
        words = ", ".join(f"{_rel(t, i)} {what}" for i, t, what in shown)
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


# ---- combining runs --------------------------------------------------------------------------------
# What runs must share to be combined: they are then one sample of the same experiment, made by
# this very code.
COMBINE_KEYS = (FINGERPRINT, "mode", "rules", "players", "heuristic_params", "chunk_size", "max_deals_per_game")


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
    tables = list(_tables(metas[0]["mode"]))
    spec = {**{k: metas[0][k] for k in COMBINE_KEYS}, "thousand_version": __version__,
            "sample_size": sum(m["sample_size"] for m in metas), "seed": seeds[0], "seeds": seeds,
            "combined_from": [{"run": str(s), "seeds": run_seeds(m), "sample_size": m["sample_size"],
                               "manifest_sha256": file_sha256(s / MANIFEST_FILE)}
                              for s, m in zip(sources, metas, strict=True)]}
    parent = out.parent if str(out.parent) else Path(".")
    check_output_dir(parent)
    _clean_stale_dirs(parent)
    tmp = out.with_name(f".{out.name}{_TMP_MARK}{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    with _writing(tmp):
        tmp.mkdir(parents=True)
        lock = RunLock(tmp, out).acquire()  # held while building: a later combine sees it is not abandoned
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
                manifest["shards"].update(_shard_record(tmp, hashes, rows))  # saved once, at the end
                index += 1
            offset += meta["sample_size"]
        hashes.save()
        _save_manifest(tmp, manifest)
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
            with _writing(out):
                raise
    finally:
        lock.release()
        shutil.rmtree(tmp, ignore_errors=True)
    return spec


def check_output_dir(out: Path) -> None:
    """Create the output directory ``out`` if needed, refusing (one line, naming it) a name that is
    not UTF-8, a path that is a file or lies under one, and a directory that cannot be created. An
    existing directory that cannot be written is not refused here: reading or reusing what it
    holds needs no write access, and a write that is needed says so, naming the file
    (StorageError)."""
    out = Path(out)
    check_path_name(out)
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")
    if out.is_dir():
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunDirError(f"--out {out}: a part of the path is a file, not a directory") from None
    except OSError as exc:
        # Anything else the system refuses (a path under /proc, a name too long) is still the
        # user's path: named, with the system's reason.
        reason = _WRITE_ERRORS.get(_errno_of(exc)) or (exc.strerror or str(exc)).lower()
        raise StorageError(f"--out {out}: cannot create the directory: {reason}") from None
