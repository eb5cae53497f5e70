"""Stored results: when a stored table may be reused, and the one line that says why not.

A stored table (``bids.parquet``, ``marriages.parquet``, the parts of an unfinished bid table) is
reused, resumed or read only when it was made by the code that would make it now (its code
fingerprint, ``sim.fingerprint``) from the same arguments (the rules, seed, sizes and players),
all recorded in its metadata; a table that is reused is also checked byte for byte against the
SHA-256 of its manifest, a small JSON file beside it (``bids.json`` for ``bids.parquet``) written
after the table. Anything else is refused with one line naming what differs
(``StaleResultError``), the old files left as they are, unless the user asks with ``--fresh`` to
redo the work into the same folder.
"""

from __future__ import annotations

import errno
import functools
import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sim import InputError, arguments
from sim.fingerprint import describe_difference, file_sha256
from sim.runs import RunLock, check_path_name, write_atomic_bytes

__all__ = [
    "FINGERPRINT", "MANIFEST_FORMAT", "StaleResultError", "differences", "refusal", "manifest_path", "write_manifest",
    "manifest_problem", "holds_out",
]

F = TypeVar("F", bound=Callable[..., Any])  # the decorated analysis, its signature kept

FINGERPRINT = "code_fingerprint"  # the metadata key of the code fingerprint
MANIFEST_FORMAT = 1
_SHOWN = 3  # differing options named in a refusal; the rest counted


class StaleResultError(InputError):
    """A stored result that cannot be reused as asked: made by other code, with other arguments,
    or damaged. The message names the option concerned, what differs and how to redo it."""


def _flat(value: object, prefix: str = "") -> dict[str, object]:
    """A nested metadata value as {dotted path: leaf}: dictionaries are opened, the rest kept."""
    if isinstance(value, dict) and value:
        out: dict[str, object] = {}
        for key, item in value.items():
            out.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def _shown(value: object) -> str:
    return "none" if value is None else json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) \
        else str(value)


def differences(stored: dict, wanted: dict, fields: dict[str, tuple[str, str | None]]) -> list[str]:
    """What differs between a stored result's metadata and the one asked for, in the words of a
    refusal, one item per group of ``fields`` (key: (group, the option that sets it or None)): e.g.
    "the sizes (--deals: 500 stored, 3000 asked)", "the rules (min_bid: 100 stored, 125 asked)".
    Only the keys of ``fields`` are compared; the code fingerprint is left to ``refusal``."""
    groups: dict[str, list[str]] = {}
    for key, (group, option) in fields.items():
        if key == FINGERPRINT or stored.get(key) == wanted.get(key):
            continue
        a, b = _flat(stored.get(key)), _flat(wanted.get(key))
        paths = [p for p in dict.fromkeys([*a, *b]) if a.get(p) != b.get(p)]
        items = groups.setdefault(group, [])
        for path in paths:
            name = option if option and not path else f"{option} {path}" if option else path or key
            items.append(f"{name}: {_shown(a.get(path))} stored, {_shown(b.get(path))} asked")
    out = []
    for group, items in groups.items():
        more = f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
        out.append(f"{group} ({'; '.join(items[:_SHOWN])}{more})")
    return out


def refusal(what: str, stored: dict, wanted: dict, fields: dict[str, tuple[str, str | None]],
            remedy: str) -> str | None:
    """The one line refusing a stored result ``what`` (e.g. "the bid table in --out t") whose
    metadata ``stored`` differs from ``wanted`` in the code or in ``fields``, ending with
    ``remedy``; None when nothing differs."""
    other = differences(stored, wanted, fields)
    code = stored.get(FINGERPRINT) != wanted.get(FINGERPRINT)
    if not code and not other:
        return None
    line = describe_difference(what, stored.get(FINGERPRINT), str(wanted.get(FINGERPRINT))) if code else \
        f"{what} was made"
    if other:
        line += f"{' and' if code else ''} with other arguments: it differs in " + ", ".join(other)
    return f"{line}; {remedy}"


# ---- the manifest: the SHA-256 of a table, written after it ----------------------------------------
def manifest_path(table: Path) -> Path:
    return Path(table).with_suffix(".json")


def write_manifest(table: Path) -> None:
    """Record the size and SHA-256 of ``table`` beside it (atomically, after the table is in place):
    a reuse then checks the bytes, not only the metadata."""
    table = Path(table)
    record = {"format": MANIFEST_FORMAT, "file": table.name, "bytes": table.stat().st_size,
              "sha256": file_sha256(table)}
    write_atomic_bytes(manifest_path(table), json.dumps(record, indent=1).encode())


def manifest_problem(table: Path) -> str | None:
    """Why ``table`` cannot be trusted byte for byte (its manifest missing, unreadable or of
    another file, or its size or SHA-256 not those recorded); None when it is intact."""
    table, path = Path(table), manifest_path(table)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"its manifest {path.name} is missing, so its content cannot be verified"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return f"its manifest {path.name} cannot be read"
    if not isinstance(record, dict) or record.get("format") != MANIFEST_FORMAT or record.get("file") != table.name:
        return f"its manifest {path.name} is not the manifest of {table.name}"
    if record.get("bytes") != table.stat().st_size or record.get("sha256") != file_sha256(table):
        return f"its content is not the one {path.name} records (SHA-256): the file was changed or damaged"
    return None


def holds_out(option: str = "out", flag: str = "--out",
              default: Callable[[], Path] | None = None) -> Callable[[F], F]:
    """Decorate a keyword-only analysis that stores results in the folder given as ``option``: it
    runs holding that folder's lock (``sim.runs.RunLock``), so that a second command on the same
    folder is refused in one line naming the first one's PID instead of colliding with its
    temporary files. A folder the call had to create is removed again when the call fails before
    storing anything in it; a read-only folder is used without a lock (nothing can be written
    there, and a write that is needed says so). ``default()``: the folder when the option is None
    (the report's default data folder)."""
    def decorate(func: F) -> F:
        declared = inspect.signature(func).parameters[option].default

        @functools.wraps(func)
        def wrapper(**kwargs):
            folder = kwargs.get(option, declared)
            if folder is None and default is not None:
                folder = default()
            if folder is None:
                return func(**kwargs)
            folder = arguments.path(option, folder)  # a wrong type refused before a folder is made
            check_path_name(folder, flag)
            if folder.exists() and not folder.is_dir():
                return func(**kwargs)  # a file: the analysis's own check words it
            created = not folder.exists()
            # the outermost folder this call makes (``out`` of the report's out/report-VERSION): a
            # call that fails before storing anything leaves none of them behind
            made_from = folder
            while not made_from.parent.exists() and made_from.parent != made_from:
                made_from = made_from.parent
            if created:
                try:
                    folder.mkdir(parents=True)
                except OSError:
                    return func(**kwargs)  # the analysis's own check words why the folder cannot be made
            try:
                lock = RunLock(folder, folder, flag).acquire()
            except OSError as exc:
                if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                    raise
                lock = None
            try:
                return func(**kwargs)
            except BaseException:
                if lock is not None:
                    lock.release()
                    lock = None
                if created:
                    _remove_empty_chain(folder, made_from)
                raise
            finally:
                if lock is not None:
                    lock.release()
        return wrapper  # type: ignore[return-value]
    return decorate


def _remove_empty_chain(folder: Path, outermost: Path) -> None:
    """Remove ``folder`` and its parents up to ``outermost``, each only while it is empty."""
    current = folder
    while True:
        try:
            current.rmdir()  # only an empty folder: anything stored meanwhile stays
        except OSError:
            return
        if current == outermost or current.parent == current:
            return
        current = current.parent
