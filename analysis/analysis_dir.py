"""The names and words of an analysis's ``--out`` folder: how the runs it plays are named (after
presets and player types or short hashes, never after the user's file names, which may be too long
for a folder name or hold bytes that are not text), how a rule set or a file is labelled, and how
an error about a run is reworded for the folder the user gave. What the folder may hold, and how a
result is played and stored in it, is ``analysis.study``'s.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow.parquet as pq

from sim import InputError
from sim.game.rules import PRESETS
from sim.runs import RunDirError, check_path_name

if TYPE_CHECKING:
    from sim.game.rules import HouseRules

__all__ = [
    "RULE_SPECS", "NoResultError", "short_hash", "file_label", "rules_label", "rules_folder", "short_label",
    "same_rules", "read_table_metadata", "check_out", "worded_for", "reworded",
]

# What a list of rule sets (compare's, tables barrel's, the report's) holds, as its refusal says it.
RULE_SPECS = "presets or TOML files"


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
    return f"{index + 1}-{spec if spec in PRESETS else file_label(spec)}"


def rules_folder(index: int, spec: str, rules: HouseRules) -> str:
    """The folder name of the run of the rule set at ``index``: its preset's name, or for a file a
    hash of its effective rules (an edited file meets no run of its old rules)."""
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
    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): json.loads(v) for k, v in raw.items() if k.decode() != "ARROW:schema"}


def check_out(out: Path) -> None:
    """Refuse, creating nothing, an ``--out`` whose name is not UTF-8 text or that is a file."""
    check_path_name(out)
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file, not a directory")

@contextmanager
def worded_for(out: Path, inner: Path) -> Iterator[None]:
    """Errors of the runs in ``inner`` (a folder of ``out``), ``sim.runs.RunDirError`` naming the
    run's own folder, reworded to name the ``--out`` the user gave and the runs relative to it."""
    try:
        yield
    except RunDirError as exc:
        raise type(exc)(reworded(str(exc), Path(out), Path(inner))) from None


def reworded(message: str, out: Path, inner: Path) -> str:
    """``message`` about a run in ``inner`` (a folder of ``out``) as the user would say it:
    "--out OUT: runs/X ..." (a run in ``out`` itself, ``inner`` being ``out``: "--out OUT: X ...");
    a message that names nothing in ``inner`` is left as it is."""
    inside = f"{inner}{os.sep}"
    if inside not in message:
        return message
    text = message.replace(f"--out {inside}", inside).replace(f"run {inside}", f"the run {inside}")
    rel = inner.relative_to(out)
    text = text.replace(inside, f"{rel}{os.sep}" if rel.parts else "")
    # A run of an analysis is redone by the analysis's command, not by simulate.
    text = text.replace("run the same thousand simulate command again", "run the same command again")
    return f"--out {out}: {text}"
