"""The bid table's parts: each deal of the table played, and the folder the parts are kept in.

``play_part`` plays deals ``first`` .. ``first + len(d)`` of the table into its rows: the hand's
features (``hand_features``), the make-rates of every declarer (the learned player each contract
apart, up to ``max_points``; heuristic, double dummy, pimc on the first deals) and the auction
lines of seat 0 as first, second and third hand (``line_limits``). A part is a pure function of
its arguments: its random streams depend on its place in the table, never on the threads or the
worker that plays it.

The parts are stored as they finish under ``.bids-parts`` beside the table (``store_part``, each
with its SHA-256), with a ``spec.json`` naming the table they belong to (``parts_spec``): parts of
another table (other code or arguments, ``IDENTITY``) are refused (``parts_refusal``) or, with
``--fresh``, thrown away (``parts_dir``); parts of two tables are never mixed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl

from analysis.bids.hand import SEATS
from analysis.stored import StaleResultError, refusal
from sim.engine.playouts import CHUNK as ADVICE_CHUNK
from sim.engine.playouts import (
    LINE_COLUMNS,
    PASS_LINE,
    Situation,
    auction_lines,
    contract_points,
    dd_exact_values,
    played_points,
)
from sim.fingerprint import file_sha256
from sim.game.bids_nb import auction_cap, bid_values
from sim.game.cards import CARD_POINTS
from sim.game.rules import HouseRules
from sim.runs import write_atomic_bytes, write_parquet_atomic

__all__ = [
    "LINE_PLAYER", "SEAT_NAMES", "LINE_FIELDS", "hand_features", "max_points", "levels_for", "line_limits",
    "IDENTITY", "TABLE_PART", "PARTS_DIR", "PARTS_SPEC", "parts_spec", "parts_refusal", "parts_dir", "parts_kept",
    "part_done", "store_part", "play_part",
]

LINE_PLAYER = "learned"  # who plays the auction lines, every seat
SEAT_NAMES = ("first", "second", "third")
# The fields of an auction line stored per seat (a list a deal, one entry a line): LINE_COLUMNS
# without the raw results (no objective of the table reads them) and the scores (from a zero
# score the score after the deal is its change).
LINE_FIELDS = ("change0", "change1", "change2", "declarer", "winning_bid", "contract", "made", "conceded")


def hand_features(hands: np.ndarray, rules: HouseRules) -> dict[str, np.ndarray]:
    """The features of 7-card hands (masks): card points, aces, tens, marriages (a bit per suit,
    S C D H), their value under ``rules``, half marriages and the longest suit's length."""
    bits = (hands[:, None] >> np.arange(24)) & 1
    suits = bits.reshape(-1, 4, 6)
    married = (suits[:, :, 2] & suits[:, :, 3]).astype(np.uint8)
    return {
        "card_points": (bits * CARD_POINTS[None, :]).sum(axis=1).astype(np.int16),
        "aces": suits[:, :, 5].sum(axis=1).astype(np.int8),
        "tens": suits[:, :, 4].sum(axis=1).astype(np.int8),
        "marriages": (married * (1 << np.arange(4))[None, :]).sum(axis=1).astype(np.uint8),
        "marriage_value": (married * np.array(rules.marriage_values)[None, :]).sum(axis=1).astype(np.int16),
        "half_marriages": (suits[:, :, 2] ^ suits[:, :, 3]).sum(axis=1).astype(np.int8),
        "longest_suit": suits.sum(axis=2).max(axis=1).astype(np.int8),
    }


def max_points(hand10: np.ndarray, rules: HouseRules) -> np.ndarray:
    """The most points a declarer holding these 10 cards (masks) can take: the 120 card points,
    the marriages among them, and the four-aces marriage and four-nines bonus where the rules
    have them (counted whether held or not: a bound). No contract above it can be made."""
    return (120 + hand_features(hand10, rules)["marriage_value"].astype(np.int64) + rules.ace_marriage
            + rules.four_nines_bonus)


def levels_for(rules: HouseRules) -> list[int]:
    """The contracts of the table: the minimum bid to the highest contract, by the bid step (those
    ``sim.game.bids_nb.bid_values`` allows: multiples of 10 from bid_step_10_from)."""
    return bid_values(rules.min_bid, rules.max_contract, rules.to_array())


def line_limits(cap: int, levels: list[int] | tuple[int, ...]) -> list[int]:
    """Seat 0's bidding lines for a bidding cap: the pass line, then "bid up to b" for every
    contract of ``levels`` up to the cap."""
    return [PASS_LINE] + [b for b in levels if b <= cap]


# What identifies a bid table: its metadata keys (besides the code fingerprint), each with what a
# refusal calls it and the option that sets it. The version is not among them: the fingerprint is
# what says which code made a table.
IDENTITY = {"table": ("the kind of table", None), "sample_size": ("the sizes", "--deals"),
            "pimc_deals": ("the sizes", "--pimc-deals"), "worlds": ("the sizes", "--worlds"),
            "seed": ("the seed", "--seed"), "rules": ("the rules", None), "levels": ("the rules", None),
            "part_size": ("the part size", None), "declarer": ("the declarer", None),
            "lines": ("the auction lines", None)}


# Deals a stored part holds: a multiple of the playouts' chunk of samples. Within a part the deals
# are grouped by the plays they need (the learned player's contracts, the auction lines up to the
# bidding cap), each group on streams of its own keyed by the part's index: the table depends on
# the part size (recorded in its metadata), never on the threads or the order parts are played.
TABLE_PART = 1000
assert TABLE_PART % ADVICE_CHUNK == 0
PARTS_DIR = ".bids-parts"
PARTS_SPEC = "spec.json"


def parts_spec(meta: dict) -> dict:
    """What identifies the parts of a table: its metadata without the version (JSON types)."""
    return json.loads(json.dumps({k: v for k, v in meta.items() if k != "thousand_version"}))


def _stored_parts_spec(out: Path) -> dict | None:
    """The spec of the parts kept in ``out`` (None: no parts, or a spec that cannot be read)."""
    try:
        spec = json.loads((out / PARTS_DIR / PARTS_SPEC).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return spec if isinstance(spec, dict) else None


def parts_refusal(out: Path, meta: dict) -> str | None:
    """The refusal of the parts kept in ``out`` when they are not parts of this very table (other
    code or arguments, or a spec that cannot be read); None when they are, or when there are none."""
    parts = out / PARTS_DIR
    if not parts.exists():
        return None
    stored = _stored_parts_spec(out)
    remedy = "give --fresh to discard them, or choose another --out"
    if stored is None:
        return (f"--out {out}: {parts} holds parts of an unknown bid table (its {PARTS_SPEC} is missing or "
                f"unreadable); {remedy}")
    return refusal(f"the parts of a bid table kept in --out {out} ({parts})", stored, parts_spec(meta), IDENTITY,
                   remedy)


def parts_dir(out: Path, meta: dict, fresh: bool) -> Path:
    """The folder of the parts of this very table. Parts of a table of other code or arguments
    (an interrupted build, or the parts of the table being replaced) are refused unless
    ``fresh``, which throws them away: parts of two tables are never mixed."""
    parts = out / PARTS_DIR
    line = parts_refusal(out, meta)
    if line is not None:
        if not fresh:
            raise StaleResultError(line)
        shutil.rmtree(parts)
    if not parts.exists():
        parts.mkdir()
        write_atomic_bytes(parts / PARTS_SPEC, json.dumps(parts_spec(meta), sort_keys=True).encode())
    return parts


def parts_kept(out: Path) -> int:
    """Finished parts of an interrupted table build in ``out``."""
    parts = Path(out) / PARTS_DIR
    return len(list(parts.glob("part-*.sha256"))) if parts.is_dir() else 0


def part_done(parts: Path, k: int) -> bool:
    """Whether part ``k`` is stored in the folder ``parts``, its bytes those its SHA-256 records."""
    path, digest = parts / f"part-{k:05d}.parquet", parts / f"part-{k:05d}.sha256"
    return path.is_file() and digest.is_file() and digest.read_text() == file_sha256(path)


def store_part(parts: Path, k: int, frame: pl.DataFrame) -> None:
    """Store part ``k`` (its rows ``frame``) in the folder ``parts``, atomically, then its SHA-256."""
    path = parts / f"part-{k:05d}.parquet"
    write_parquet_atomic(frame, path, {})
    write_atomic_bytes(parts / f"part-{k:05d}.sha256", file_sha256(path).encode())


def _stream(first: int, slot: int, n_levels: int) -> int:
    """The first chunk index (``first_chunk``) of one group's plays in the part starting at deal
    ``first``: distinct for every part and slot, with room for a whole part's chunks after it."""
    slots = 4 * (n_levels + 2)
    return ((first // TABLE_PART) * slots + slot) * (TABLE_PART // ADVICE_CHUNK + 1)


def play_part(d: np.ndarray, first: int, rec: HouseRules, seed: int, pimc_deals: int, worlds: int,
              threads: int | None, levels: list[int]) -> pl.DataFrame:
    """Deals ``first`` .. ``first + len(d)`` of the table, as table rows: a pure function of its
    arguments, so that any thread or Dask worker may play any part."""
    n = len(d)
    nl = len(levels)
    lv = np.array(levels, dtype=np.int64)
    hand10 = d[:, 0] | d[:, 1]
    plays = np.stack([d[:, 1], d[:, 2], d[:, 3]], axis=1)
    dd = dd_exact_values(0, np.stack([hand10, d[:, 2], d[:, 3]], axis=1), rec, threads)
    chunk0 = first // ADVICE_CHUNK
    heur = played_points(0, plays, rec, "heuristic", seed, threads=threads, hands=d[:, 0], first_chunk=chunk0)
    pimc = np.full(n, -1, dtype=np.int64)
    n_pimc = max(0, min(n, pimc_deals - first))
    if n_pimc:
        pimc[:n_pimc] = played_points(0, plays[:n_pimc], rec, "pimc", seed, worlds=worlds, threads=threads,
                                      hands=d[:n_pimc, 0], first_chunk=chunk0)
    # The learned declarer plays each contract apart, up to the most points his 10 cards allow: one
    # call a contract for the deals that need it (each call loads the player's weights).
    top = max_points(hand10, rec)
    learned_pts = np.full((n, nl), -1, dtype=np.int64)
    for j, b in enumerate(levels):
        idx = np.flatnonzero(top >= b)
        if len(idx):
            learned_pts[idx, j] = contract_points(0, plays[idx], rec, LINE_PLAYER, seed, [b], threads=threads,
                                                  hands=d[idx, 0], first_chunk=_stream(first, j + 1, nl))[:, 0]
    learned = [row[row >= 0] for row in learned_pts]
    learned_made = learned_pts >= lv[None, :]
    cols: dict[str, object] = {"deal": np.arange(first, first + n), "hand": d[:, 0].astype(np.uint32),
                               "talon": d[:, 1].astype(np.uint32), "left": d[:, 2].astype(np.uint32),
                               "right": d[:, 3].astype(np.uint32)}
    cols.update(hand_features(d[:, 0], rec))
    arr = rec.to_array()
    caps = np.array([auction_cap(int(h), arr) for h in d[:, 0]], dtype=np.int64)  # bid_ceiling_before_talon too
    cols["bid_cap"] = caps.astype(np.int16)
    cols["max_points"] = top.astype(np.int16)
    df = pl.DataFrame(cols).with_columns(
        dd_points=pl.Series(dd, dtype=pl.Int16),
        heuristic_points=pl.Series(heur, dtype=pl.Int16),
        pimc_points=pl.Series([int(x) if x >= 0 else None for x in pimc], dtype=pl.Int16),
        learned_points=pl.Series([p.tolist() for p in learned], dtype=pl.List(pl.Int16)),
    )
    for m, pts in (("dd", dd), ("heuristic", heur)):
        df = df.with_columns(pl.Series(f"{m}_made", pts[:, None] >= lv[None, :], dtype=pl.Array(pl.Boolean, nl)))
    pimc_made = [list(map(bool, x >= lv)) if x >= 0 else None for x in pimc]
    df = df.with_columns(pl.Series("pimc_made", pimc_made, dtype=pl.Array(pl.Boolean, nl)),
                         pl.Series("learned_made", learned_made, dtype=pl.Array(pl.Boolean, nl)))
    # The auction lines, seat 0 as first, second and third hand; the deals of one bidding cap (so
    # one set of lines) are played together.
    n_lines = np.array([len(line_limits(int(c), levels)) for c in caps])
    col = {f: LINE_COLUMNS.index(f) for f in LINE_FIELDS}
    for s, seat in enumerate(SEAT_NAMES):
        per: dict[str, list] = {f: [None] * n for f in LINE_FIELDS}
        for m in np.unique(n_lines):
            idx = np.flatnonzero(n_lines == m)
            limits = line_limits(int(caps[idx[0]]), levels)
            rows = auction_lines(0, plays[idx], rec, SEATS[seat], Situation(), limits, seed, player=LINE_PLAYER,
                                 worlds=worlds, threads=threads, hands=d[idx, 0],
                                 first_chunk=_stream(first, (1 + s) * (nl + 2) + int(m), nl))
            for f in LINE_FIELDS:
                values = rows[:, :, col[f]]
                for j, i in enumerate(idx):
                    per[f][i] = values[j].tolist()
        df = df.with_columns(pl.Series(f"{seat}_{f}", per[f], dtype=pl.List(_LINE_DTYPES[f])) for f in LINE_FIELDS)
    return df


_LINE_DTYPES = {"change0": pl.Int16, "change1": pl.Int16, "change2": pl.Int16, "declarer": pl.Int8,
                "winning_bid": pl.Int16, "contract": pl.Int16, "made": pl.Int8, "conceded": pl.Int8}
