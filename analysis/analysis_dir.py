"""The ``--out`` folder of an analysis that plays its own runs (``compare``, ``tournament``,
``tables barrel``): what it may reuse, checked before anything is played, and its refusals worded
for the folder the user gave.

Such a folder holds the analysis's table (``compare.parquet``, ...), whose metadata records the
arguments and the code fingerprint of the analysis (``sim.fingerprint``), and the runs it plays
(``runs/NAME``: folders the user never named). A rerun with the same arguments by the same code
resumes the runs and computes the table again from them (so a damaged table does not outlive a
rerun). Anything else is refused in one line naming what differs (the rules, the sizes, the
players, the code), before a run is touched or a progress bar drawn, the old files left as they
are; unless ``fresh``: then each run that is not the one asked for is redone
(``sim.runs.run_batch``: the old run stays whole until the new one is complete) and the table is
replaced, written atomically.

Run folders are named after presets and player types or short hashes, never after the user's file
names, which may be too long for a folder name or hold bytes that are not text.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.stats import json_ready
from analysis.stored import StaleResultError, refusal
from sim import InputError

if TYPE_CHECKING:
    from sim.game.rules import HouseRules

__all__ = [
    "REMEDY", "RULE_SPECS", "NoResultError", "short_hash", "file_label", "rules_label", "rules_folder", "short_label",
    "same_rules", "read_table_metadata", "check_out", "compared_on", "check_stored", "worded_for", "reworded",
    "finished_games", "require_finished",
]

REMEDY = "give --fresh to redo it there, or choose another --out"
# What a list of rule sets (compare's, tables barrel's, the report's) holds, as its refusal says it.
RULE_SPECS = "presets or TOML files"

# What identifies a stored table: metadata key -> (what a refusal calls it, the option that sets it).
Fields = dict[str, tuple[str, str | None]]


class NoResultError(InputError):
    """The games played cannot give the result asked for (none of them finished, or a quantity
    was never observed): said in one line rather than printed as a table of nothing."""


def short_hash(value: object) -> str:
    """Ten hex digits of SHA-256 over ``value`` as canonical JSON: a folder name part."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:10]


def file_label(spec: str) -> str:
    """A file's name without its folder and suffix, as text: a byte that is not UTF-8 (the name
    came from the command line as it is on disk) shown as an escape, so that it can be printed
    and stored."""
    return os.fsencode(Path(spec).stem).decode("utf-8", "backslashreplace")


def rules_label(index: int, spec: str) -> str:
    """How a rule set given on the command line is shown: its position and preset or file name."""
    from sim.game.rules import PRESETS

    return f"{index + 1}-{spec if spec in PRESETS else file_label(spec)}"


def rules_folder(index: int, spec: str, rules: HouseRules) -> str:
    """The folder name of the run of the rule set at ``index``: its preset's name, or for a file a
    hash of its effective rules (an edited file meets no run of its old rules)."""
    from sim.game.rules import PRESETS

    return f"{index + 1}-{spec}" if spec in PRESETS else f"{index + 1}-rules-{short_hash(rules.to_dict())}"


def short_label(label: str, width: int = 32) -> str:
    """A label cut to ``width`` characters for a plot, whose axes a long file name would squeeze
    to nothing."""
    return label if len(label) <= width else label[:width - 1] + "…"


def same_rules(labelled: dict[str, object]) -> tuple[str, str] | None:
    """The labels of the first two rule sets with the same effective rules, or None."""
    seen: dict[str, str] = {}
    for label, rules in labelled.items():
        key = json.dumps(rules.to_dict(), sort_keys=True)
        if key in seen:
            return seen[key], label
        seen[key] = label
    return None


def read_table_metadata(path: Path) -> dict:
    """The metadata of a stored Parquet table, each value decoded from JSON."""
    import pyarrow.parquet as pq

    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): json.loads(v) for k, v in raw.items() if k.decode() != "ARROW:schema"}


def check_out(out: Path) -> None:
    """Refuse, creating nothing, an ``--out`` whose name is not UTF-8 text or that is a file."""
    from sim.runs import RunDirError, check_path_name

    check_path_name(out)
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")


def compared_on(asked: dict, fields: Fields, by: str = "rule_sets", of: str = "rules") -> Callable[[dict], Fields]:
    """The fields a stored table is to be compared on, as a function of its metadata: all of
    ``fields``, but without ``of`` (every option of every rule set, or player) when the names
    ``by`` differ already, which says it better."""
    return lambda stored: fields if stored.get(by) == asked.get(by) else {k: v for k, v in fields.items() if k != of}


def check_stored(out: Path, table: Path, meta: dict, fields: Fields | Callable[[dict], Fields], *, what: str,
                 runs: dict, fresh: bool) -> None:
    """Refuse (one line, nothing touched) what ``out`` holds that this analysis cannot reuse: a
    stored ``table`` made by other code or with other arguments than ``meta`` says (compared on
    ``fields``, or on the fields a function of the stored metadata gives), or one that cannot be
    read; a run folder of ``runs`` ({path: BatchSpec}, all in one folder under ``out``) holding
    another run. With ``fresh`` only what fresh cannot replace is refused (a run folder holding
    files that are not a run's)."""
    from sim.runs import check_run_dir

    check_out(out)
    if table.exists() and not fresh:
        try:
            stored = read_table_metadata(table)
        except (OSError, ValueError):
            raise StaleResultError(f"{what} ({table}) cannot be read (damaged, or not such a table); "
                                   f"{REMEDY}") from None
        wanted = json.loads(json.dumps(json_ready(meta)))
        line = refusal(what, stored, wanted, fields(stored) if callable(fields) else fields, REMEDY)
        if line:
            raise StaleResultError(line)
    with worded_for(out, next(iter(runs)).parent):
        for path, spec in runs.items():
            check_run_dir(spec, path, fresh=fresh)


@contextmanager
def worded_for(out: Path, inner: Path) -> Iterator[None]:
    """Errors of the runs in ``inner`` (a folder of ``out``), ``sim.runs.RunDirError`` naming the
    run's own folder, reworded to name the ``--out`` the user gave and the runs relative to it."""
    from sim.runs import RunDirError

    try:
        yield
    except RunDirError as exc:
        raise type(exc)(reworded(str(exc), Path(out), Path(inner))) from None


def reworded(message: str, out: Path, inner: Path) -> str:
    """``message`` about a run in ``inner`` (a folder of ``out``) as the user would say it:
    "--out OUT: runs/X ..."; a message that names nothing in ``inner`` is left as it is."""
    inside = f"{inner}{os.sep}"
    if inside not in message:
        return message
    text = message.replace(f"--out {inside}", inside).replace(f"run {inside}", f"the run {inside}")
    text = text.replace(inside, f"{inner.relative_to(out)}{os.sep}")
    # A run of an analysis is redone by the analysis's command, not by simulate.
    text = text.replace("run the same thousand simulate command again", "run the same command again")
    return f"--out {out}: {text}"


def finished_games(runs: dict[str, Path]) -> dict[str, tuple[int, int]]:
    """{label: (finished games, games)} of stored games runs."""
    import polars as pl

    from sim.runs import scan_games

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
