"""One pipeline for every study that plays its own runs and stores a table in its ``--out`` folder
(``compare``, ``tournament``, ``tables barrel``, ``tables strategy``, ``tables win-chances``,
``tables marriages``): a ``Plan`` (the runs, the table's provenance and identity, the folder) and
``run_study(plan, measure)``, which checks what the folder holds (reuse, refuse, or with ``fresh``
redo beside and swap in), plays, requires finished games, hands the runs to the study's ``measure``
and stores the table it returns (and the tables beside it: ``Plan.beside``) with its provenance and
manifest. A study supplies its plan and its measure; the
folder's rules below are written here once.

Such a folder holds the study's table (``compare.parquet``, ...), whose metadata records the
arguments and the code fingerprint of the study (``sim.fingerprint``), and the runs it plays
(``runs/NAME``: folders the user never named, named by ``analysis.analysis_dir``). A rerun with the
same arguments by the same code resumes the runs and computes the table again from them (so a
damaged table does not outlive a rerun), or, for a study whose table holds its whole result
(``Plan.reuse``: the win-chance table), reads an intact one back without a run read. Anything else
is refused in one line naming what differs (the rules, the sizes, the players, the code:
``FIELD_WORDS``), before a run is touched or a progress bar drawn, the old files left as they are;
unless ``fresh``: then each run that is not the one asked for is redone (``sim.runs.run_batch``: the
old run stays whole until the new one is complete) and the table is replaced, written atomically.

A redo with ``fresh`` keeps the old result whole until the new one is complete (``Study``): what
the study owns in ``--out`` (its table and manifest, its run folders, its plots) is played and
stored anew in ``OUT/.NAME.fresh``, then swapped in. The swap is committed first (a list of what
moves and what goes, written atomically), so that a command killed half-way through it is finished
by the next command on that folder, whatever its arguments: a reader never meets a mix of the old
result and the new. A redo killed before its commit is resumed by the same command with ``fresh``
and discarded by any other; the old result is read meanwhile. Runs of the old result that are the
very runs asked for are carried into the redo (hard links), not played again.

A stored table has its manifest beside it (``analysis.stored``). A table that cannot be read, or
whose bytes are not those its manifest records, is damaged, not "of other arguments": it is
rebuilt from its runs, as the same command would make it. A rerun that computes the very bytes
stored writes nothing (``store_table``), so that a result on a read-only mount is read, not
rewritten.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import polars as pl

from analysis.analysis_dir import NoResultError, check_out, read_table_metadata, worded_for
from analysis.stats import json_ready
from analysis.stored import StaleResultError, manifest_path, manifest_problem, refusal, write_manifest
from sim.runs import (
    FRESH_REMEDY,
    LOCK_FILE,
    MANIFEST_FILE,
    RUN_FILE,
    VERIFIED_FILE,
    RunDirError,
    check_output_dir,
    check_run_dir,
    play_runs,
    scan_games,
    write_atomic_bytes,
    write_bytes_if_different,
)

if TYPE_CHECKING:
    from sim.engine import BatchSpec
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "REMEDY", "FIELD_WORDS", "Fields", "identity", "compared_on", "table_damage", "check_stored", "refuse_spec_lost",
    "store_table", "STAGING_SUFFIX", "PLAN_FILE", "COMMIT_FILE", "Study", "finished_games", "require_finished",
    "PlayedResult", "Plan", "Played", "run_study",
]

# The remedy a refusal of what --out holds offers: one sentence for every study, the runs' own.
REMEDY = FRESH_REMEDY

# What identifies a stored table: metadata key -> (what a refusal calls it, the option that sets it).
Fields = dict[str, tuple[str, str | None]]

# What a refusal calls each metadata key that identifies a stored table, for every study.
FIELD_WORDS = {
    "table": "the kind of table", "mode": "the sizes", "games": "the sizes", "deals": "the sizes",
    "chunk_size": "the sizes", "seed": "the seed", "seed_offsets": "the seed", "players": "the players",
    "player_types": "the players", "player_params": "the players' parameters",
    "learned_weights": "the players (the learned players' weights, SHA-256)", "rule_sets": "the rule sets",
    "rules": "the rules",
}


def identity(**options: str | None) -> Fields:
    """The fields that identify a study's stored table (besides the code fingerprint, which every
    refusal compares): each metadata key given, with what a refusal calls it (``FIELD_WORDS``) and
    the option that sets it (None: no single option)."""
    return {key: (FIELD_WORDS[key], option) for key, option in options.items()}


def compared_on(asked: dict, fields: Fields, by: str = "rule_sets", of: str = "rules") -> Callable[[dict], Fields]:
    """The fields a stored table is to be compared on, as a function of its metadata: all of
    ``fields``, but without ``of`` (every option of every rule set, or player) when the names
    ``by`` differ already, which says it better."""
    return lambda stored: fields if stored.get(by) == asked.get(by) else {k: v for k, v in fields.items() if k != of}


def table_damage(table: Path) -> str | None:
    """Why the stored ``table`` is damaged, in words: its bytes are not those its manifest records
    (or the manifest cannot be read), or, without a manifest, its metadata cannot be read. None
    when it is intact, or when only its manifest is missing and its metadata reads (a table of
    older code, or of a command killed before its manifest: the metadata says whose it is)."""
    problem = manifest_problem(table)
    if problem is None or manifest_path(table).exists():
        return problem
    try:
        read_table_metadata(table)
    except (OSError, ValueError):
        return "it cannot be read"
    return None


def check_stored(out: Path, table: Path, meta: dict, fields: Fields | Callable[[dict], Fields], *, what: str,
                 runs: dict, fresh: bool, stored_identity: Callable[[dict], dict] | None = None) -> bool:
    """Refuse (one line, nothing touched) what ``out`` holds that this analysis cannot reuse: a
    stored ``table`` made by other code or with other arguments than ``meta`` says (compared on
    ``fields``, or on the fields a function of the stored metadata gives); a run folder of ``runs``
    ({path: BatchSpec}, all in one folder under ``out``, or none) holding another run, or a run
    that lost its spec. A damaged table (``table_damage``) is no refusal: it is computed again from
    its runs. ``stored_identity``: the stored metadata in the words of ``meta``, when the table
    records its identity otherwise (``Plan.stored_identity``). With ``fresh`` only what fresh
    cannot replace is refused (a run folder holding files that are not a run's). Returns whether
    the result must be redone apart (``Study``): with ``fresh``, what ``out`` holds is not the
    result asked for."""
    check_out(out)
    inner = next(iter(runs)).parent if runs else out
    try:
        if table.exists() and table_damage(table) is None:
            wanted = json.loads(json.dumps(json_ready(meta)))
            stored = read_table_metadata(table)
            if stored_identity is not None:
                stored = stored_identity(stored)
            line = refusal(what, stored, wanted, fields(stored) if callable(fields) else fields, REMEDY)
            if line:
                raise StaleResultError(line)
        with worded_for(out, inner):
            for path, spec in runs.items():
                refuse_spec_lost(path, out, what)
                check_run_dir(spec, path)
    except (StaleResultError, RunDirError) as exc:
        if not fresh or "--fresh" not in str(exc):
            raise  # not a refusal of what is stored (a user's files in a run folder): --fresh would not help
        with worded_for(out, inner):
            for path, spec in runs.items():
                check_run_dir(spec, path, fresh=True)
        return True
    return False


def refuse_spec_lost(run: Path, out: Path, what: str) -> None:
    """Refuse a run folder of ``out`` that holds a run's files but no run spec (its ``run.json``
    deleted): what it holds cannot be verified, and the user never named the folder."""
    if run.is_dir() and not (run / RUN_FILE).exists() and ((run / MANIFEST_FILE).exists() or (run / "deals").is_dir()):
        raise StaleResultError(f"{what} has a damaged run, {run.relative_to(out)} (its {RUN_FILE} is missing, so "
                               f"what it holds cannot be verified); give --fresh to play it again, or choose another "
                               "--out")


def store_table(frame: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    """Store ``frame`` as the Parquet table ``path`` with ``metadata`` (each value JSON text), as
    ``sim.runs.write_parquet_atomic`` writes it, then its manifest. Nothing is written when ``path``
    and its manifest hold these very bytes already: a current result is read, not rewritten (a
    read-only mount will do)."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, metadata=metadata, compression="zstd")
    written = write_bytes_if_different(path, buffer.getvalue())
    if written or manifest_problem(path) is not None:
        write_manifest(path)


# ---- a redo kept apart until it is complete ------------------------------------------------------
STAGING_SUFFIX = ".fresh"  # a redo is played and stored in "OUT/.NAME.fresh"
PLAN_FILE = "plan.json"  # in a redo's folder: the metadata of the result it makes (what resumes it)
COMMIT_FILE = "commit.json"  # in a redo's folder once it is complete: what the swap moves in and removes
REPLACED_SUFFIX = ".replaced"  # "OUT/.NAME.replaced": the old result's entries, for the moment of the swap


@dataclasses.dataclass(frozen=True)
class Study:
    """What one analysis owns in its ``--out`` folder, and where it plays and stores (``home``):
    ``out`` itself, or for a redo with ``fresh`` the folder ``OUT/.NAME.fresh``, swapped in once
    complete (``commit``), so that ``out`` holds the old result, whole, until the new one is.

    - ``out``: the folder the user gave; ``name``: the analysis ("compare"), naming its redo folder;
    - ``tables``: its stored tables, relative to ``out`` (each with its manifest beside it);
    - ``runs``: {run folder relative to ``out``: its ``BatchSpec``};
    - ``drawn``: the files drawn from the tables (plots): removed by a swap, drawn again after it.

    Several analyses may share one ``--out`` (the default ``out/tables``): each swaps only its own
    entries."""

    out: Path
    name: str
    tables: tuple[str, ...]
    runs: dict[str, BatchSpec]
    drawn: tuple[str, ...] = ()

    @property
    def staging(self) -> Path:
        return self.out / f".{self.name}{STAGING_SUFFIX}"

    def owned(self) -> list[str]:
        """What a swap moves, in its order: the runs, then each table's manifest and the table."""
        return [*self.runs, *(name for table in self.tables for name in (manifest_path(Path(table)).as_posix(),
                                                                           table))]

    def settle(self) -> None:
        """Finish the swap of a redo that a killed command had committed (a reader must never meet
        a mix of two results); an uncommitted redo is left for ``home`` to resume or discard."""
        try:
            record = json.loads((self.staging / COMMIT_FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError):
            return  # written atomically: unreadable means damaged, so the redo is not trusted (home discards it)
        self._swap(record["moved"], record["removed"])

    def home(self, meta: dict, fields: Fields | Callable[[dict], Fields], *, what: str, fresh: bool,
             stored_identity: Callable[[dict], dict] | None = None) -> Path:
        """Check what ``out`` holds (``check_stored``, refusing what cannot be reused) and return
        where this command plays and stores: ``out``, or (``fresh``, and ``out`` not holding the
        result asked for) the redo folder, resumed when a redo of the same ``meta`` was left
        unfinished, else begun empty, the old result's runs that are the very runs asked for
        carried in. ``stored_identity``: as ``check_stored`` takes it."""
        self.settle()
        runs = {self.out / rel: spec for rel, spec in self.runs.items()}
        redo = check_stored(self.out, self.out / self.tables[0], meta, fields, what=what, runs=runs, fresh=fresh,
                            stored_identity=stored_identity)
        return self.redo_folder(meta) if redo else self.out

    def redo_folder(self, meta: dict) -> Path:
        """The redo's folder, for the result ``meta`` describes: resumed when a redo of the same
        ``meta`` was left unfinished, else begun empty, the old result's runs that are the very
        runs asked for carried in. For an analysis that checks ``out`` itself (after ``settle``)."""
        plan = json.loads(json.dumps(json_ready(meta)))
        try:
            begun = json.loads((self.staging / PLAN_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            begun = None
        if begun != plan and self.staging.exists():
            shutil.rmtree(self.staging)  # a redo of other arguments or code, left unfinished
        self.staging.mkdir(exist_ok=True)
        if begun != plan:
            write_atomic_bytes(self.staging / PLAN_FILE, json.dumps(plan, sort_keys=True).encode())
        for rel, spec in self.runs.items():
            _carry_run(self.out / rel, self.staging / rel, spec)
        return self.staging

    def commit(self, home: Path) -> None:
        """Swap the redo made in ``home`` in (nothing to do when ``home`` is ``out``): the list of
        what moves in and what goes is written first, atomically, so that a command killed during
        the swap leaves it for the next command to finish (``settle``)."""
        if home == self.out:
            return
        moved = [rel for rel in self.owned() if (home / rel).exists()]
        removed = [rel for rel in [*self.owned(), *self.drawn] if rel not in moved]
        write_atomic_bytes(home / COMMIT_FILE, json.dumps({"moved": moved, "removed": removed}).encode())
        self._swap(moved, removed)

    def _swap(self, moved: list[str], removed: list[str]) -> None:
        """Move each entry of ``moved`` from the redo folder into ``out`` (the old one set aside
        first) and delete those of ``removed``; each step may be taken again after a kill."""
        aside = self.out / f".{self.name}{REPLACED_SUFFIX}"
        for rel in removed:
            _remove(self.out / rel)
        for rel in moved:
            new, old = self.staging / rel, self.out / rel
            if not new.exists():
                continue  # moved in already
            if old.exists() or old.is_symlink():
                _remove(aside / rel)
                (aside / rel).parent.mkdir(parents=True, exist_ok=True)
                os.rename(old, aside / rel)
            old.parent.mkdir(parents=True, exist_ok=True)
            os.rename(new, old)
        shutil.rmtree(aside, ignore_errors=True)
        shutil.rmtree(self.staging)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _carry_run(old: Path, new: Path, spec: BatchSpec) -> None:
    """Begin the redo's run ``new`` from the old result's run ``old`` when that is the very run
    asked for (complete or not): its shards hard-linked (they are never written in place: a
    damaged one is replaced by a new file), its spec and manifest copied, through a temporary
    folder so that ``new`` is never half made. The redo's run verifies them as any resumed run."""
    if new.exists() or not (old / RUN_FILE).is_file():
        return
    try:
        check_run_dir(spec, old)
    except RunDirError:
        return  # another run: played anew

    def link(src: str, dst: str) -> None:
        if src.endswith(".parquet"):
            try:
                os.link(src, dst)
                return
            except OSError:
                pass  # another file system, or no hard links there: copied
        shutil.copy2(src, dst)

    tmp = new.with_name(f".{new.name}.tmp-{os.getpid()}")
    _remove(tmp)
    new.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(old, tmp, copy_function=link, ignore=shutil.ignore_patterns(LOCK_FILE, VERIFIED_FILE, ".*.tmp-*"))
    os.rename(tmp, new)


def finished_games(runs: dict[str, Path]) -> dict[str, tuple[int, int]]:
    """{label: (finished games, games)} of stored games runs."""
    counts = {}
    for label, run in runs.items():
        row = scan_games(run).select((pl.col("winner") >= 0).sum().alias("done"), pl.len().alias("n")).collect()
        counts[label] = (int(row["done"][0]), int(row["n"][0]))
    return counts


def require_finished(runs: dict[str, Path], *, what: str, limit: int) -> dict[str, tuple[int, int]]:
    """Refuse (NoResultError) runs of which ``what`` (e.g. "rule set") has no finished game: no
    winner, no result. ``limit``: the deals after which a game is stopped unfinished."""
    counts = finished_games(runs)
    for label, (done, n) in counts.items():
        if not done:
            raise NoResultError(f"{what} {label}: 0 of {n:,} games finished (each was stopped unfinished after "
                                f"{limit:,} deals), so there is no result to show; check its rules")
    return counts


# ---- the pipeline ---------------------------------------------------------------------------------
class PlayedResult(Protocol):
    """What every result of a played study offers: what made it (``provenance``, stored as the
    table's metadata, each value as JSON text) and ``to_polars()``, the table stored."""

    provenance: dict

    def to_polars(self) -> pl.DataFrame: ...


Result = TypeVar("Result", bound=PlayedResult)


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a played study makes, resolved from its arguments before anything is written or played.

    - ``out``: the folder the user gave; ``name``: the study ("compare"), naming its redo folder;
    - ``table``: the file of its stored table in ``out``; ``drawn``: the files drawn from it (plots);
    - ``beside``: the other tables it stores in ``out`` ({file: its frame from the result}), with
      the same metadata, after ``table``; a frame None: no such table this time (one an earlier
      command left is removed, with its manifest);
    - ``runs``: {label: its ``BatchSpec``}, played in the order given (none: a study that plays
      nothing this time); ``stage`` names them on the progress bar ("rule sets"), or {label: its
      stage}, each stage's runs played together in turn; ``folders``: {label: its folder relative
      to ``out``, under ``runs_dir`` ("": in ``out`` itself)};
    - ``provenance``: what makes the table, stored as its metadata (the study's measure may add
      what it counts, the finished games, say); ``identity``: the fields a stored table is compared
      on (``identity``, or a function of the stored metadata: ``compared_on``); ``stored_identity``:
      for a table whose metadata records what identifies it otherwise than ``provenance`` asks it,
      the stored metadata in ``provenance``'s words (None: as stored);
    - ``what``: the table as a refusal names it ("the comparison");
    - ``each_finishes``: what a run is called when each must have a finished game ("rule set"), or
      None when the measure judges the finished games itself;
    - ``reuse``: for a study whose table holds its whole result, a function reading the table (its
      path) back as the result, or None when it holds too little to be read back; a current table
      (the one asked for, intact, and no ``fresh``) is then returned as it is, no run read or
      played. None (the default): every rerun measures the runs again;
    - ``metadata``: the table's metadata for a result, when it stores more than the result's
      provenance (what ``reuse`` reads back besides the rows); None: the provenance;
    - ``strict``: each metadata value stored as strict JSON (``analysis.stats.json_ready``: a number
      that is not finite as null); False: as ``json.dumps`` writes it (NaN), for a table stored so
      before the pipeline (the marriage tables).
    """

    out: Path
    name: str
    table: str
    runs: dict[str, BatchSpec]
    folders: dict[str, str]
    provenance: dict
    identity: Fields | Callable[[dict], Fields]
    what: str
    stage: str | dict[str, str]
    runs_dir: str = "runs"
    drawn: tuple[str, ...] = ()
    each_finishes: str | None = None
    reuse: Callable[[Path], PlayedResult | None] | None = None
    metadata: Callable[[PlayedResult], dict] | None = None
    beside: dict[str, Callable[[PlayedResult], pl.DataFrame | None]] = dataclasses.field(default_factory=dict)
    stored_identity: Callable[[dict], dict] | None = None
    strict: bool = True

    def study(self) -> Study:
        """What the study owns in ``out``: its tables, its plots and its runs."""
        runs = {self.folders[label]: spec for label, spec in self.runs.items()}
        return Study(self.out, self.name, (self.table, *self.beside), runs, drawn=self.drawn)


@dataclasses.dataclass(frozen=True)
class Played:
    """The runs of a ``Plan`` as played, for its measure: ``dirs`` {label: where its run was played
    (in ``out``, or in a redo's folder)}; ``finished`` {label: (finished games, games)} when the
    plan requires each run to have one, else None."""

    dirs: dict[str, Path]
    finished: dict[str, tuple[int, int]] | None


def run_study(plan: Plan, measure: Callable[[Played], Result], *, progress: Progress | None = None,
              backend: Backend | None = None, fresh: bool = False) -> Result:
    """Make the table ``plan`` describes: refuse what ``out`` holds that cannot be reused (unless
    ``fresh``, which redoes it beside the old result) and an ``out`` that cannot hold it, all
    before anything is written or played; read a current table back when the plan can
    (``Plan.reuse``); else play the runs (those stored are reused); require finished games
    (``Plan.each_finishes``); ``measure`` them; store the result's table with its metadata
    (``Plan.metadata``, by default its provenance) and manifest; swap a redo in. Errors about a
    run name it as the user would, under ``--out``."""
    study = plan.study()
    home = study.home(plan.provenance, plan.identity, what=f"{plan.what} stored in --out {plan.out}", fresh=fresh,
                      stored_identity=plan.stored_identity)
    table = plan.out / plan.table
    if plan.reuse is not None and home == plan.out and not fresh and table.exists() and manifest_problem(table) is None:
        stored = plan.reuse(table)
        if stored is not None:
            return stored
    check_output_dir(plan.out)
    dirs = {label: home / plan.folders[label] for label in plan.runs}
    with worded_for(plan.out, home / plan.runs_dir):
        stages = plan.stage if isinstance(plan.stage, dict) else dict.fromkeys(plan.runs, plan.stage)
        for stage in dict.fromkeys(stages.values()):
            play_runs({dirs[label]: spec for label, spec in plan.runs.items() if stages[label] == stage},
                      progress=progress, stage=stage, backend=backend, fresh=fresh)
        finished = None
        if plan.each_finishes is not None:
            limit = next(iter(plan.runs.values())).max_deals_per_game
            finished = require_finished(dirs, what=plan.each_finishes, limit=limit)
        result = measure(Played(dirs=dirs, finished=finished))
    metadata = result.provenance if plan.metadata is None else plan.metadata(result)
    encoded = {k: json.dumps(json_ready(v) if plan.strict else v) for k, v in metadata.items()}
    store_table(result.to_polars(), home / plan.table, encoded)
    for name, frame_of in plan.beside.items():
        frame = frame_of(result)
        if frame is None:  # a table left by an earlier command would not be this result's
            (home / name).unlink(missing_ok=True)
            manifest_path(home / name).unlink(missing_ok=True)
        else:
            store_table(frame, home / name, encoded)
    study.commit(home)
    return result
