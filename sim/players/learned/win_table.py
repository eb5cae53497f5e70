"""The win-chance tables the score-aware learned player (``learned-win``) reads, on disk and as the
block its kernels read (``layout``'s win block, ``win_nb``).

A table is ``NAME.npz`` (``chances``: float32 (states, states, states), own x leading opponent x
trailing opponent; ``grid``: int64 [floor, width, top, target, has_barrel, ranged], the numbers of
``analysis.win_chances.Grid``) beside ``NAME.json`` (the rules it was made under, what made it, and
the npz's SHA-256). The shipped tables live in ``sim/players/weights/win/``, one a rule set
(``tables_for`` finds the one whose rules are the game's); any source of that cube and those
numbers can feed the kernels (``win_block``). ``save_win_table`` writes one;
``analysis.win_chances.ship_table`` writes a stored table of ``thousand tables win-chances`` with
it (docs/learned.md, "The score-aware player").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from sim import InputError
from sim.fingerprint import file_sha256
from sim.game.rules import HouseRules, recorded_rules_are
from sim.players.learned.layout import (
    WIN_HEADER,
    WN_FLOOR,
    WN_HAS_BARREL,
    WN_STATES,
    WN_TARGET,
    WN_TOP,
    WN_WIDTH,
    win_size,
)
from sim.players.learned.weights import WEIGHTS_DIR, write_manifest

__all__ = ["WIN_TABLES_DIR", "WIN_TABLE_FORMAT", "WinTableError", "win_block", "save_win_table", "load_win_table",
           "win_table_for", "has_win_table", "shipped_win_tables"]

WIN_TABLES_DIR = WEIGHTS_DIR / "win"
WIN_TABLE_FORMAT = 1


class WinTableError(InputError):
    """No usable win-chance table (missing, damaged, or none for the rules); the message says which."""


def win_block(chances: np.ndarray, grid: tuple[int, ...] | np.ndarray) -> np.ndarray:
    """The kernels' win block (float32, ``layout.win_size``) of a table: the cube ``chances``
    (states³) and the grid's numbers (floor, width, top, target, has_barrel, ranged)."""
    chances = np.asarray(chances, dtype=np.float64)
    states = chances.shape[0]
    floor, width, top, target, has_barrel, _ranged = (int(v) for v in grid)
    if chances.shape != (states, states, states) or states < 2 or not np.isfinite(chances).all():
        raise WinTableError(f"a win-chance table is a finite cube of chances, not an array of shape {chances.shape}")
    if -(-(top - floor) // width) + 1 != states:
        raise WinTableError(f"a win-chance table of {states} states does not fit its grid (floor {floor}, "
                            f"width {width}, top {top})")
    block = np.zeros(win_size(states), dtype=np.float32)
    block[WN_STATES], block[WN_FLOOR], block[WN_WIDTH] = states, floor, width
    block[WN_TOP], block[WN_TARGET], block[WN_HAS_BARREL] = top, target, has_barrel
    block[WIN_HEADER:] = np.clip(chances, 0.0, 1.0).ravel()
    return block


def save_win_table(npz: str | Path, chances: np.ndarray, grid: tuple[int, ...] | np.ndarray, rules: HouseRules,
                   made: dict) -> str:
    """Write a table (``npz`` and its manifest, each to a temporary name then renamed) for the rule
    set ``rules``; ``made``: what made it (games, seed, players, version, fingerprint). Returns the
    npz's SHA-256."""
    npz = Path(npz)
    block = win_block(chances, grid)  # refuses a table that does not fit
    npz.parent.mkdir(parents=True, exist_ok=True)
    tmp = npz.with_name(npz.name + ".tmp.npz")
    np.savez(tmp, chances=np.asarray(chances, dtype=np.float32), grid=np.asarray(grid, dtype=np.int64))
    sha = file_sha256(tmp)
    os.replace(tmp, npz)
    meta = {"format": WIN_TABLE_FORMAT, "rules": rules.to_dict(), "states": int(block[WN_STATES]), **made,
            "npz_sha256": sha}
    write_manifest(npz.with_suffix(".json"), meta)
    return sha


def load_win_table(npz: str | Path) -> tuple[np.ndarray, dict]:
    """(the win block, the manifest) of the table ``npz``, its SHA-256 checked."""
    npz = Path(npz)
    mpath = npz.with_suffix(".json")
    try:
        meta = json.loads(mpath.read_text(encoding="utf-8"))
        if file_sha256(npz) != meta.get("npz_sha256") or meta.get("format") != WIN_TABLE_FORMAT:
            raise WinTableError(f"win-chance table {str(npz)!r} is damaged or was changed (its SHA-256 or format "
                                "differs from its manifest's)")
        with np.load(npz, allow_pickle=False) as data:
            return win_block(data["chances"], data["grid"]), meta
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        raise WinTableError(f"win-chance table {str(npz)!r} cannot be read: {e}") from None


def shipped_win_tables() -> list[Path]:
    """The shipped tables, by name."""
    return sorted(WIN_TABLES_DIR.glob("*.npz"))


def win_table_for(rules: HouseRules) -> Path:
    """The shipped table made under the rules ``rules`` (the effective rules: ``recorded_rules_are``);
    a ``WinTableError`` naming the rule sets that have one otherwise."""
    for path in shipped_win_tables():
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if recorded_rules_are(meta.get("rules"), rules):
            return path
    have = ", ".join(p.stem for p in shipped_win_tables()) or "none"
    raise WinTableError(f"the score-aware player learned-win has no win-chance table for these rules (tables: {have}); "
                        "play learned, or make one (docs/learned.md, \"The score-aware player\")")


def has_win_table(rules: HouseRules) -> bool:
    """Whether a table made under ``rules`` ships (``win_table_for`` finds one): whether
    ``learned-win`` plays these rules."""
    try:
        win_table_for(rules)
    except WinTableError:
        return False
    return True
