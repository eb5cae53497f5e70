"""Running and storing chunks. Batch runs: chunks played in parallel threads (or on a Dask cluster),
each stored as its own Parquet shard, and a manifest that makes a stored run impossible to read
wrongly.

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

Its modules:

- ``sim.runs.folder``: a run folder on disk: the names of its files, its shards and the folders
  beside it, the atomic writers, the path and output-folder checks, the cleaning of what killed
  commands left, and the run lock.
- ``sim.runs.manifest``: the manifest, its journal, the cache of the shards' hashes, the check of
  a shard against its record and the differences between a stored spec and the one asked for.
- ``sim.runs.play``: playing (or resuming) a run into its folder (``run_batch``, ``play_runs``),
  the one writer of shards (``store_chunk``) and the chunk of a Dask worker.
- ``sim.runs.read``: reading a stored run, verified (``verify_run``, ``scan_deals``, ``scan_games``).
- ``sim.runs.combine``: one run made of several (``thousand runs combine``).
- ``sim.runs.backend``: where the chunks run, threads or a Dask cluster, whose workers warm up
  through ``sim.runs.dask_worker`` (imported only where Dask is installed).
- ``sim.runs.simulate``: ``thousand simulate``'s function (import it from there: its name is the
  module's).

Only public names cross these files (``tests/test_structure.py`` checks it): what one module needs
of another is in that module's ``__all__``.
"""

from sim.runs.backend import (
    INSTALL_HINT,
    BackendError,
    DaskBackend,
    ThreadBackend,
    check_options,
    open_backend,
)
from sim.runs.combine import (
    COMBINE_KEYS,
    combine_runs,
    run_seeds,
)
from sim.runs.folder import (
    FINGERPRINT,
    JOURNAL_FILE,
    LOCK_FILE,
    MANIFEST_FILE,
    MANIFEST_FORMAT,
    NAME_MAX,
    RUN_FILE,
    VERIFIED_FILE,
    RunDirError,
    RunLock,
    StorageError,
    check_output_dir,
    check_parent_writable,
    check_path_name,
    shard_path,
    write_atomic_bytes,
    write_bytes_if_different,
    write_npz_atomic,
    write_parquet_atomic,
)
from sim.runs.manifest import (
    load_manifest,
    read_journal,
    spec_differences,
)
from sim.runs.play import (
    FRESH_REMEDY,
    RunResult,
    check_run_dir,
    play_chunk_remote,
    play_runs,
    run_batch,
    run_chunk_to_disk,
    store_chunk,
    stored_units,
)
from sim.runs.read import (
    read_run_metadata,
    read_shard,
    scan_deals,
    scan_games,
    verify_run,
)

__all__ = [
    "BackendError", "COMBINE_KEYS", "FRESH_REMEDY", "DaskBackend", "FINGERPRINT", "INSTALL_HINT", "JOURNAL_FILE",
    "LOCK_FILE",
    "MANIFEST_FILE", "MANIFEST_FORMAT", "NAME_MAX", "RUN_FILE", "RunDirError", "RunLock", "RunResult",
    "StorageError", "ThreadBackend", "VERIFIED_FILE", "check_options", "check_output_dir",
    "check_parent_writable", "check_path_name",
    "check_run_dir", "combine_runs", "load_manifest", "open_backend", "play_chunk_remote", "play_runs",
    "read_journal", "read_run_metadata", "read_shard", "run_batch", "run_chunk_to_disk", "run_seeds", "scan_deals",
    "scan_games", "shard_path", "spec_differences", "store_chunk", "stored_units", "verify_run",
    "write_atomic_bytes", "write_bytes_if_different", "write_npz_atomic", "write_parquet_atomic",
]
