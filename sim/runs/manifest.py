"""A run's bookkeeping: the manifest (the command, the spec, the chunk plan, the versions and every
landed shard's rows, size and SHA-256), the journal that records each shard as it lands and is
folded into the manifest, the cache of the shards' hashes (``.verified.json``) and the check of a
shard against its record, the reading of a run's JSON files, and the differences between a stored
spec and the one asked for, in words. Where these files lie is ``sim.runs.folder``'s to say."""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path

import numba
import numpy as np
import polars as pl

from sim import __version__
from sim.engine import BatchSpec
from sim.fingerprint import describe_difference, file_sha256
from sim.runs.folder import (
    FINGERPRINT,
    JOURNAL_FILE,
    MANIFEST_FILE,
    MANIFEST_FORMAT,
    VERIFIED_FILE,
    RunDirError,
    StorageError,
    shard_tables,
    storage_errors,
    write_atomic_bytes,
    write_bytes_if_different,
)

__all__ = [
    "library_versions", "spec_differences", "read_json_object", "read_journal", "load_manifest", "save_manifest",
    "manifest_record", "new_manifest", "Journal", "HashCache", "shard_verified", "shard_records",
]


# ---- the manifest ---------------------------------------------------------------------------------
def library_versions() -> dict[str, str]:
    """The versions of thousand, Python and the libraries that compute and store a run, recorded
    in its manifest (they do not decide reuse: the code fingerprint does)."""
    return {"thousand": __version__, "python": platform.python_version(), "numba": numba.__version__,
            "numpy": np.__version__, "polars": pl.__version__}


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


def read_json_object(path: Path, what: str) -> dict:
    """The JSON object stored in ``path`` (a run's spec or manifest, named ``what`` in the
    refusal); a file that is not valid JSON, or holds no object, is refused in one line."""
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
    manifest = read_json_object(path, "run manifest")
    if manifest.get("format") != MANIFEST_FORMAT or not isinstance(manifest.get("shards"), dict):
        raise RunDirError(f"{path}: unknown manifest format; remove the run directory or choose another --out")
    manifest["shards"].update(read_journal(out))
    return manifest


def _manifest_bytes(manifest: dict) -> bytes:
    return json.dumps(manifest, indent=1, sort_keys=True).encode()


def save_manifest(out: Path, manifest: dict) -> None:
    """Write the manifest (atomically) if it differs from the one stored, then drop the journal it
    now holds: a complete run is rewritten never, and a read-only one is not written to."""
    write_bytes_if_different(out / MANIFEST_FILE, _manifest_bytes(manifest))
    if (out / JOURNAL_FILE).exists():
        with storage_errors(out / JOURNAL_FILE):
            (out / JOURNAL_FILE).unlink(missing_ok=True)


def manifest_record(spec: dict, chunk_plan: dict, command: list[str] | None) -> dict:
    """A manifest with no shard yet: its format, the ``command`` that makes the run (None: this
    process's), the run's ``spec`` and ``chunk_plan`` (chunks, chunk size, tables) and the
    versions."""
    return {
        "format": MANIFEST_FORMAT,
        "command": command if command is not None else list(sys.argv),
        "spec": spec,
        "chunk_plan": chunk_plan,
        "versions": library_versions(),
        "shards": {},
    }


def new_manifest(spec: BatchSpec, command: list[str] | None) -> dict:
    """The manifest of a run of ``spec`` about to be played, no shard landed yet."""
    return manifest_record(spec.metadata(), {"chunks": spec.n_chunks, "chunk_size": spec.chunk_size,
                                             "tables": list(shard_tables(spec.mode))}, command)


class Journal:
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
        with storage_errors(self.path):
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
        save_manifest(self.out, self.manifest)
        self.count = 0

    def close(self) -> None:
        """Close the journal's file without folding it: the next command folds what it holds."""
        if self.file is not None:
            self.file.close()
            self.file = None


class HashCache:
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
        """[size, modification time, status-change time, inode] of ``path``: what must not change
        for a remembered hash to hold."""
        st = path.stat()
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]

    def sha256(self, out: Path, rel: str) -> tuple[int, str]:
        """(size, SHA-256) of the file ``rel`` of the run folder ``out``, remembered or hashed."""
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
        """Store the remembered hashes (atomically), if any changed; a refused write is ignored."""
        if self.changed:
            try:
                write_atomic_bytes(self.path, json.dumps(self.entries).encode())
            except (OSError, StorageError):
                pass  # only a cache (a read-only run, a full disk): the next read hashes again
            self.changed = False


def shard_verified(out: Path, rel: str, manifest: dict, hashes: HashCache) -> bool:
    """Whether the shard ``rel`` of the run folder ``out`` is present and is the one ``manifest``
    records (its size and SHA-256)."""
    rec = manifest["shards"].get(rel)
    if not rec or not (out / rel).is_file():
        return False
    size, sha = hashes.sha256(out, rel)
    return size == rec.get("size") and sha == rec.get("sha256")


def shard_records(out: Path, hashes: HashCache, rows: dict[str, int]) -> dict[str, dict]:
    """The manifest's records (rows, size, SHA-256) of the shards just stored in ``out``, from
    their rows by relative path."""
    records = {}
    for rel, n in rows.items():
        size, sha = hashes.sha256(out, rel)
        records[rel] = {"rows": n, "size": size, "sha256": sha}
    return records
