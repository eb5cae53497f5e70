"""A run folder on disk: the names of its files, its shards and the folders beside it (a redo's,
a combine's, a replaced run's), the atomic writers (a temporary name, then a rename; a full disk or
a refused write as one line naming the file), the checks of a path given for a run or an output,
what a folder holds that no run writes, the cleaning of folders that killed commands left, and the
run lock (``RunLock``). Every name of the layout is made here, so that the writers, the readers and
the cleaners agree on it."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import shutil
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from sim import InputError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "RUN_FILE", "MANIFEST_FILE", "JOURNAL_FILE", "RECORDS_FILE", "RECORDS_RULES_FILE", "VERIFIED_FILE", "LOCK_FILE",
    "FINGERPRINT", "MANIFEST_FORMAT",
    "RunDirError", "StorageError", "shard_path", "shard_rel", "shard_index", "parse_shard_rel", "shard_tables",
    "is_temporary", "token_path", "fresh_sibling", "replaced_sibling", "building_sibling",
    "storage_errors", "write_atomic_bytes", "write_atomic_lines",
    "write_bytes_if_different", "write_npz_atomic", "write_parquet_atomic",
    "NAME_MAX", "check_path_name", "foreign_entries", "clean_stale_dirs", "RunLock", "lock_or_none",
    "check_lock_file", "check_output_dir", "check_parent_writable",
]

RUN_FILE = "run.json"
MANIFEST_FILE = "manifest.json"
JOURNAL_FILE = "manifest.journal"
RECORDS_FILE = "records.jsonl"  # thousand simulate --records: every deal's record (docs/records.md)
RECORDS_RULES_FILE = "rules.toml"  # beside RECORDS_FILE, which names it, when the run's rules are no preset
VERIFIED_FILE = ".verified.json"
LOCK_FILE = ".lock"
FINGERPRINT = "code_fingerprint"
MANIFEST_FORMAT = 1
NAME_MAX = 255  # bytes in one file or folder name on every common Linux file system
_TMP_MARK = ".tmp-"  # temporary files are ".<name>.tmp-<pid>-<thread>", a combine's folder ".<name>.tmp-<pid>"
_TOKEN_PREFIX = ".dask-token-"
_FRESH_SUFFIX = ".fresh"  # a run redone with fresh is played in ".<name>.fresh" beside it
_REPLACED_MARK = ".replaced-"  # the run it replaces, for the moment of the swap: ".<name>.replaced-<pid>"
# What a run directory may hold; anything else is someone else's file, which fresh never deletes.
_RUN_ENTRIES = {RUN_FILE, MANIFEST_FILE, JOURNAL_FILE, VERIFIED_FILE, LOCK_FILE, RECORDS_FILE, RECORDS_RULES_FILE,
                "deals", "games"}
_SHARD_NAME = re.compile(r"part-(\d{5,})\.parquet")


class RunDirError(InputError):
    """The output directory holds something else than this run, or a run that cannot be read as
    asked (incomplete, damaged, locked by another process); the message names the file and what
    to do."""


class StorageError(RunDirError):
    """The disk refused a write: full, read-only, or not ours to write. The message names the file."""


# ---- names ----------------------------------------------------------------------------------------
def shard_tables(mode: str) -> tuple[str, ...]:
    """The tables a chunk of a run in ``mode`` stores, one shard each: in games mode a chunk is
    complete when both its shards are stored."""
    return ("deals", "games") if mode == "games" else ("deals",)


def shard_rel(table: str, index: int) -> str:
    """The path of chunk ``index``'s shard of ``table``, relative to the run folder: the key the
    manifest records it under."""
    return f"{table}/part-{index:05d}.parquet"


def shard_path(out: Path, table: str, index: int) -> Path:
    """Where chunk ``index``'s shard of ``table`` lies in the run folder ``out``."""
    return out / shard_rel(table, index)


def shard_index(name: str) -> int | None:
    """The chunk index of a shard's file name, None for any other name."""
    found = _SHARD_NAME.fullmatch(name)
    return int(found.group(1)) if found and name == f"part-{int(found.group(1)):05d}.parquet" else None


def parse_shard_rel(rel: str) -> tuple[str, int | None]:
    """(table, chunk index) of a shard's relative path (``shard_rel``), the index None when the
    file name is not a shard's."""
    table, _, name = rel.partition("/")
    return table, shard_index(name)


def is_temporary(name: str) -> bool:
    """Whether a file or folder name is one a writer uses before its rename (a file being written,
    a combine being built): never a finished file, and removed when its writer is gone."""
    return name.startswith(".") and _TMP_MARK in name


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}{_TMP_MARK}{os.getpid()}-{threading.get_ident()}")


def building_sibling(out: Path) -> Path:
    """The folder beside ``out`` in which this process builds a run before renaming it to ``out``
    (a combine): ``.NAME.tmp-PID``, removed by a later command once this process is gone."""
    return out.with_name(f".{out.name}{_TMP_MARK}{os.getpid()}")


def fresh_sibling(out: Path) -> Path:
    """The folder beside ``out`` in which a run redone with ``fresh`` is played, ``.NAME.fresh``,
    until it is complete and swapped in: a rerun with ``fresh`` resumes it."""
    out = out if out.name else Path(os.path.abspath(out))  # "." or "..": the folder's own name
    return out.with_name(f".{out.name}{_FRESH_SUFFIX}")


def replaced_sibling(out: Path) -> Path:
    """Where the run ``out`` held goes for the moment of a fresh redo's swap, ``.NAME.replaced-PID``
    (removed at once, or by a later command if this one is killed between the two renames)."""
    fresh = fresh_sibling(out)  # the same folder, whatever ``out`` was spelt as
    return fresh.with_name(f"{fresh.name.removesuffix(_FRESH_SUFFIX)}{_REPLACED_MARK}{os.getpid()}")


def token_path(out: Path, token: str) -> Path:
    """The file by which a Dask worker recognises the run folder ``out`` as the command's own (it
    holds ``token``; an empty token names the file of a run whose workers never write there)."""
    return out / f"{_TOKEN_PREFIX}{token or 'none'}"


# Errors of the disk that are the machine's state, not a bug: reported as one line naming the file.
_WRITE_ERRORS = {
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
}


# What a refusal of a path lying under a regular file says of it.
_UNDER_A_FILE = "a part of the path is a file, not a directory"


def _system_reason(exc: OSError) -> str:
    """Why the system refused to make a folder, in the words of the refusals (``_WRITE_ERRORS``),
    else its own message: what follows "cannot create ..." in a refusal of ``--out``."""
    return _WRITE_ERRORS.get(_errno_of(exc)) or (exc.strerror or str(exc)).lower()


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
def storage_errors(path: Path) -> Iterator[None]:
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


@contextlib.contextmanager
def _written_atomically(path: Path) -> Iterator[Path]:
    """The temporary name to write ``path`` under; renamed to ``path`` when the block ends well,
    removed when it does not (never a partial file under ``path``), and a full disk or a refused
    write is one line naming ``path`` (StorageError)."""
    tmp = _tmp_name(path)
    try:
        with storage_errors(path):
            yield tmp
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name, then rename it: never a partial file
    under ``path``, and a full disk or a refused write is one line naming it (StorageError)."""
    with _written_atomically(path) as tmp:
        tmp.write_bytes(data)


def write_atomic_lines(path: Path, lines: Iterable[str]) -> None:
    """Write ``lines`` (each without its newline) to ``path`` as they come, under a temporary name,
    then rename it, as ``write_atomic_bytes`` does: a long stream is never held whole in memory,
    and an interrupted one leaves no partial file under ``path``."""
    with _written_atomically(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")


def write_bytes_if_different(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` as ``write_atomic_bytes`` does unless ``path`` holds these very
    bytes already; whether it wrote. A current result is read, never rewritten, so that a rerun
    leaves its files' times alone and a read-only mount will do."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass  # none stored yet, or unreadable: written
    write_atomic_bytes(path, data)
    return True


def write_npz_atomic(path: Path, **arrays: ArrayLike) -> None:
    """``np.savez`` of ``arrays`` to ``path`` through ``write_atomic_bytes``: never a partial file,
    and a full disk is one line."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    write_atomic_bytes(path, buf.getvalue())


def write_parquet_atomic(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    """Write ``df`` (zstd) with the key-value ``metadata`` to ``path`` as ``write_atomic_bytes``
    does: a temporary name, then a rename."""
    with _written_atomically(path) as tmp:
        # One level only: a chunk abandoned on Ctrl-C that lands after its run folder was moved
        # (a redo swapped in) must fail, not make the folder again.
        path.parent.mkdir(exist_ok=True)
        df.write_parquet(tmp, metadata=metadata, compression="zstd")



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
    return not foreign_entries(folder)


def foreign_entries(folder: Path) -> list[Path]:
    """What ``folder`` holds that no run writes (a user's own files)."""
    foreign = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if name.startswith(_TOKEN_PREFIX) or is_temporary(name):
            continue
        if name not in _RUN_ENTRIES:
            foreign.append(path)
        elif name in ("deals", "games"):
            if not path.is_dir():
                foreign.append(path)
                continue
            foreign += [p for p in sorted(path.iterdir()) if shard_index(p.name) is None
                        and not is_temporary(p.name)]
    return foreign


def _abandoned(folder: Path) -> bool:
    """Whether nobody holds the lock of ``folder`` any more (its writer ended, however it ended):
    the kernel releases a lock with its process, on this machine or, through the file server, on
    another one sharing the disk."""
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
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


def clean_stale_dirs(parent: Path) -> None:
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
            # Never through a symbolic link (the PID would be written into the file it points to)
            # nor into a folder or a pipe: those are refused in one line (check_lock_file).
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK,
                             0o644)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
                    check_lock_file(self.folder, self.label, self.option)
                raise
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                check_lock_file(self.folder, self.label, self.option)
                continue  # replaced by a regular file meanwhile
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


def check_lock_file(folder: Path, label: Path | None = None, option: str = "--out") -> None:
    """Refuse (one line naming it) a ``.lock`` in ``folder`` that is not a regular file: through a
    symbolic link, taking the lock would truncate the file it points to and write a PID into it, and a
    folder or a special file cannot hold the lock. Writes nothing; a missing ``.lock`` passes."""
    path = Path(folder) / LOCK_FILE
    try:
        mode = os.lstat(path).st_mode
    except OSError:  # none there, or ``folder`` is no folder: the checks of the path say so
        return
    if stat.S_ISREG(mode):
        return
    kind = "a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else "a special file"
    raise RunDirError(f"{option} {label or folder}: {path} is {kind}, not a lock file (a command locks the folder "
                      "with that name, and nothing was written through it); move it away and run the same command "
                      "again")


def _locked_message(label: Path, holder: str, option: str = "--out") -> str:
    who = f"another process (PID {holder})" if holder.isdigit() else "another process"
    return f"{label} is being written by {who}, which holds its lock; wait for it to finish, or choose another {option}"


def lock_or_none(folder: Path, label: Path | None = None) -> RunLock | None:
    """The lock of ``folder``, created if needed; None when the folder exists but cannot be
    written (a read-only mount): only a complete run can then be used."""
    label = label or folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunDirError(f"--out {label}: {_UNDER_A_FILE}") from None
    except OSError as exc:
        if folder.is_dir() and _errno_of(exc) in _WRITE_ERRORS:
            return None
        reason = _system_reason(exc)
        raise StorageError(f"--out {label}: cannot create the directory: {reason}") from None
    try:
        return RunLock(folder, label).acquire()
    except OSError as exc:
        if _errno_of(exc) in (errno.EROFS, errno.EACCES, errno.EPERM):
            return None
        with storage_errors(folder / LOCK_FILE):
            raise


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
        raise RunDirError(f"--out {out}: {_UNDER_A_FILE}") from None
    except OSError as exc:
        # Anything else the system refuses (a path under /proc, a name too long) is still the
        # user's path: named, with the system's reason.
        reason = _system_reason(exc)
        raise StorageError(f"--out {out}: cannot create the directory: {reason}") from None


def check_parent_writable(path: Path, label: Path | None = None, option: str = "--out") -> None:
    """Refuse (one line naming ``label``) a ``path`` that could not be made, or replaced, by a
    command that writes it only at its end (the report): its nearest existing parent must be a
    directory in which a directory can be made. A probe is made there and removed at once, which
    alone tells: a read-only mount refuses it even to root, and a file system that makes nothing
    (``/proc``) says so only when asked."""
    label = label or path
    parent = Path(path).parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise RunDirError(f"{option} {label}: {_UNDER_A_FILE}")
    probe = _tmp_name(parent / Path(path).name)
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as exc:
        reason = _system_reason(exc)
        raise StorageError(f"{option} {label}: cannot create a directory in {parent}: {reason}") from None
