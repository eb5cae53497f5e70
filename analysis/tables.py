"""Bid-success tables: what a 7-card hand makes and what bidding it is worth, by hand class.

``build_bid_tables`` plays N random deals. In each, seat 0 holds the 7-card hand. Per deal it
stores the hand's features (card points, aces, tens, marriages by suit, longest suit, bidding
cap), the talon and the opponents' cards, and two kinds of results:

- **make-rates**: seat 0 takes the talon and plays a contract. The ``learned`` player (the
  default, every seat) plays each contract apart, as that contract (``contract_points``: its net
  plays the contract it is given), from the minimum bid up to the most points his 10 cards allow;
  ``heuristic`` (every seat the heuristic player), ``dd`` (the exact best-discard double-dummy
  value) and, on the first ``pimc_deals`` deals, ``pimc`` (every seat pimc) play once for points.
  A contract b is made when the declarer's points reach b (``*_made``, one boolean per level).
- **auction lines**: the whole deal played by the learned player in all three seats, once per
  bidding line of seat 0 (``auction_lines``: pass at every turn, or "bid up to b" for every b
  from the minimum bid to the hand's bidding cap), seat 0 as first, second and third hand. Every
  seat's score change, the declarer, the winning bid, the final contract (raised after the talon
  as the learned declarer does), made and conceded are stored per line.

The table is one Parquet file written atomically with the rules, seed, sizes, version and code
fingerprint as metadata, and beside it its manifest ``bids.json`` (its SHA-256, written after it).
It is played in parts stored as they finish under ``.bids-parts`` (with the same metadata), so
that Ctrl-C loses at most the parts in flight; the parts are kept once the table is made.

A stored table is reused only when its metadata equals the one asked for (``analysis.stored``: the
same code, rules, seed and sizes) and its bytes match its manifest. A table or parts of other code
or arguments are refused with one line (``StaleResultError``) unless ``fresh``; a damaged table
(its SHA-256 not the recorded one, or unreadable) is rebuilt from its verified parts, the damaged
parts played again: a bit flip never changes a printed number.

``summarize_bid_table`` reads it lazily with Polars into a ``BidTable``: make-rates by hand class
(marriage by suit and aces) with 95% intervals for every player, the learned player checked
against pimc on the same deals (paired, Holm-corrected), and the cheat sheet: per hand class and
seat, the bid to stop at, bidding each level against passing where the auction reached it
(``analysis.bid_value``, objective ``race`` by default), with its gain and interval; the make
levels at 70% and 50% as risk information. It draws and prints nothing: ``analysis.present`` does.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.advisor import SEATS, check_three_player_deal, forced_seat_name
from analysis.bid_value import OBJECTIVES, LineValue, line_values, recommended
from analysis.stats import Rate, holm, two_sided_p, wilson_rate
from analysis.stored import FINGERPRINT, StaleResultError, holds_out, manifest_problem, refusal, write_manifest
from sim import InputError, __version__, arguments
from sim.engine.playouts import (
    ADVICE_WORLDS,
    LINE_COLUMNS,
    PASS_LINE,
    Situation,
    auction_lines,
    contract_points,
    dd_exact_values,
    played_points,
)
from sim.engine.playouts import CHUNK as ADVICE_CHUNK
from sim.fingerprint import code_fingerprint, describe_difference, file_sha256
from sim.game.bids_nb import auction_cap, bid_values
from sim.game.cards import CARD_POINTS
from sim.game.rules import HouseRules, load_rules
from sim.players.params import MAX_PIMC_WORLDS
from sim.runs import check_output_dir, write_atomic_bytes, write_parquet_atomic
from sim.streams import BID_TABLE_DEALS, generator

if TYPE_CHECKING:
    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "METHODS", "PLAYERS", "PLAYERS_SHORT", "LINE_PLAYER", "SEAT_NAMES", "LINE_FIELDS",
    "COMPARE_LEVELS", "POOLED_TOP", "random_deals", "hand_features", "max_points", "MAX_TABLE_DEALS", "levels_for",
    "line_limits", "build_bid_tables", "IDENTITY", "TABLE_PART", "PARTS_DIR", "PARTS_SPEC", "parts_kept",
    "play_part", "read_metadata", "TABLE_COLUMNS", "open_bid_table", "MARRIAGE_CLASSES", "ACE_CLASSES",
    "TEN_CLASSES", "LONG_CLASSES", "GROUPINGS", "MAIN_GROUPING", "class_expr", "line_array", "MakeRate",
    "ClassCurve", "ComparisonRow", "RiskBid", "SeatAdvice", "CheatRow", "MethodRate", "METHOD_GROUPS",
    "BID_TABLES", "BidTable", "comparison", "METHODS_PLOT_FILE", "PLOT_MAX_LEVEL", "method_rates", "class_curves",
    "CHEAT_RISKS", "cheat_sheet", "summarize_bid_table", "tables_bids",
]

TABLE_FILE = "bids.parquet"
PLOT_FILE = "bid_make_rates.png"
# The declarers, the default first: each plays all three seats.
METHODS = ("learned", "heuristic", "dd", "pimc")
# Who produced each method's numbers, in words (every printed number names them).
PLAYERS = {"learned": "learned player, all three seats", "heuristic": "heuristic player, all three seats",
           "dd": "double dummy: every seat sees every card", "pimc": "pimc, all three seats"}
PLAYERS_SHORT = {"learned": "learned×3", "heuristic": "heuristic×3", "dd": "double dummy", "pimc": "pimc×3"}
LINE_PLAYER = "learned"  # who plays the auction lines, every seat
SEAT_NAMES = ("first", "second", "third")
# The fields of an auction line stored per seat (a list a deal, one entry a line): LINE_COLUMNS
# without the raw results (no objective of the table reads them) and the scores (from a zero
# score the score after the deal is its change).
LINE_FIELDS = ("change0", "change1", "change2", "declarer", "winning_bid", "contract", "made", "conceded")
COMPARE_LEVELS = (100, 110, 120, 140, 160)
POOLED_TOP = 200  # the pooled row of the comparison: every contract from the minimum bid up to this


def random_deals(n: int, seed: int) -> np.ndarray:
    """(n, 4) masks: seat 0's 7 cards, the talon, seat 1's 7, seat 2's 7; deal i from
    ``sim.streams.BID_TABLE_DEALS`` of chunk ``i // 1000`` so the first deals never depend on n."""
    out = np.zeros((n, 4), dtype=np.int64)
    weights = np.int64(1) << np.arange(24, dtype=np.int64)
    for lo in range(0, n, 1000):
        rng = generator(BID_TABLE_DEALS, seed, lo // 1000)
        for i in range(lo, min(n, lo + 1000)):
            p = rng.permutation(24)
            out[i] = [weights[p[0:7]].sum(), weights[p[7:10]].sum(), weights[p[10:17]].sum(), weights[p[17:24]].sum()]
    return out


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


# The table holds a few hundred bytes a deal (the auction lines most of them) and the play a few
# arrays of it: a million deals stay within a few hundred MiB.
MAX_TABLE_DEALS = 1_000_000


def levels_for(rules: HouseRules) -> list[int]:
    """The contracts of the table: the minimum bid to the highest contract, by the bid step (those
    ``sim.game.bids_nb.bid_values`` allows: multiples of 10 from bid_step_10_from)."""
    return bid_values(rules.min_bid, rules.max_contract, rules.to_array())


def line_limits(cap: int, levels: list[int] | tuple[int, ...]) -> list[int]:
    """Seat 0's bidding lines for a bidding cap: the pass line, then "bid up to b" for every
    contract of ``levels`` up to the cap."""
    return [PASS_LINE] + [b for b in levels if b <= cap]


@holds_out()
def build_bid_tables(*, deals: int, rules: str | HouseRules | None = "classic", seed: int = 0,
                     out: Path = Path("out/tables"), pimc_deals: int = 100, worlds: int = ADVICE_WORLDS,
                     threads: int | None = None, progress: Progress | None = None,
                     backend: Backend | None = None, fresh: bool = False) -> Path:
    """Play the deals and store the table; returns its path. The deals are played in parts of
    TABLE_PART deals, each stored as it is finished under ``out/.bids-parts``: an interrupted
    build resumes with the parts already played, and gives the table played in one go (a part's
    random streams depend on its place in the table, never on the threads). A stored table (or
    parts) of other code or arguments is refused (``StaleResultError``) unless ``fresh``, which
    replaces it; the old table stays in place until the new one is complete.

    ``progress(stage, done, total)`` counts parts: ``total`` the table's parts, ``done`` those
    stored (played now or kept from an earlier build). Its stage says in a sentence what is done:
    the stored table reused (done = total, nothing played), why a stored table is rebuilt or
    replaced, then the parts played (how many were already played), reported again as each part
    is stored."""
    rec = load_rules(rules)
    check_three_player_deal(rec)
    if not 1 <= deals <= MAX_TABLE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_TABLE_DEALS:,}, not {deals}")
    if pimc_deals < 0:
        raise InputError(f"--pimc-deals must be 0 or more, not {pimc_deals}")
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise InputError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS:,}, not {worlds}")
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    out = Path(out)
    check_output_dir(out)
    pimc_deals = min(pimc_deals, deals)
    levels = levels_for(rec)
    meta = {
        "thousand_version": __version__, FINGERPRINT: code_fingerprint("tables"), "table": "bids",
        "sample_size": deals, "seed": seed, "pimc_deals": pimc_deals, "worlds": worlds, "levels": levels,
        "rules": rec.to_dict(), "part_size": TABLE_PART,
        "declarer": "seat 0 of each random deal takes the talon and plays each contract: the learned player (every "
                    "seat) each contract apart, up to the most points his 10 cards allow; heuristic, double dummy "
                    "and pimc (every seat; pimc on the first pimc_deals deals) once for points",
        "lines": f"the whole deal played by the {LINE_PLAYER} player in every seat from a zero score, once per "
                 "bidding line of seat 0 (pass at every turn, then bid up to each contract from the minimum bid to "
                 "the hand's bidding cap), seat 0 as first, second and third hand",
    }
    path = out / TABLE_FILE
    say = progress or (lambda _stage, _done, _total: None)
    n_parts = -(-deals // TABLE_PART)
    damage = _stored_table_problem(path, meta, out, fresh)
    if damage is None:
        say(f"{path} holds this very table ({deals:,} deals, seed {seed}, code {meta[FINGERPRINT]}; its SHA-256 "
            "verified): reused, nothing played", n_parts, n_parts)
        return path
    parts = _parts_dir(out, meta, fresh)
    todo = [k for k in range(n_parts) if not _part_done(parts, k)]
    done = [n_parts - len(todo)]
    if damage:
        say(damage, done[0], n_parts)
    stage = (f"{deals:,} deals in {n_parts} parts of {TABLE_PART:,} ({done[0]} already played): the learned "
             f"player's contracts and auction lines (three seats), double dummy and heuristic play, pimc on the "
             f"first {pimc_deals:,} ({worlds} worlds a decision)")
    say(stage, done[0], n_parts)
    d = random_deals(deals, seed) if todo else None
    items = [(d[k * TABLE_PART:(k + 1) * TABLE_PART], k * TABLE_PART, rec, seed, pimc_deals, worlds, threads, levels)
             for k in todo]

    def stored(k: int, frame: pl.DataFrame) -> None:
        _store_part(parts, k, frame)
        done[0] += 1
        say(stage, done[0], n_parts)

    if backend is not None and backend.remote:
        # Each part a task of the cluster; its rows come back and are stored here.
        backend.map(play_part, items, lambda item, frame: stored(item[1] // TABLE_PART, frame))
    else:
        for item in items:
            stored(item[1] // TABLE_PART, play_part(*item))
    df = pl.concat([pl.read_parquet(parts / f"part-{k:05d}.parquet") for k in range(n_parts)])
    write_parquet_atomic(df, path, {k: json.dumps(v) for k, v in meta.items()})
    write_manifest(path)  # after the table: a table without its manifest is rebuilt from the parts
    return path


# What identifies a bid table: its metadata keys (besides the code fingerprint), each with what a
# refusal calls it and the option that sets it. The version is not among them: the fingerprint is
# what says which code made a table.
IDENTITY = {"table": ("the kind of table", None), "sample_size": ("the sizes", "--deals"),
            "pimc_deals": ("the sizes", "--pimc-deals"), "worlds": ("the sizes", "--worlds"),
            "seed": ("the seed", "--seed"), "rules": ("the rules", None), "levels": ("the rules", None),
            "part_size": ("the part size", None), "declarer": ("the declarer", None),
            "lines": ("the auction lines", None)}
_REPLACE = "give --fresh to replace it, or choose another --out"


def _stored_table_problem(path: Path, meta: dict, out: Path, fresh: bool) -> str | None:
    """None when ``path`` is this very table, intact (reuse it); otherwise why it is built, in
    words ("" when none is stored): damaged (rebuilt from the parts kept with it) or replaced
    (``fresh``). A table of other code or arguments, or one that cannot be read and has no parts of
    this table to rebuild it from, is refused unless ``fresh``."""
    if not path.exists():
        return ""
    try:
        stored = read_metadata(path)
    except (OSError, ValueError):
        stored = None
    if stored is None:
        if not fresh and (not (out / PARTS_DIR).exists() or _parts_refusal(out, meta) is not None):
            raise StaleResultError(f"--out {out}: {path} cannot be read (damaged, or not a bid table) and no parts of "
                                   f"this table are kept to rebuild it from; {_REPLACE}")
        return f"{path} cannot be read (damaged): rebuilt from the parts kept with it"
    line = refusal(f"the bid table in --out {out} ({path})", stored, json.loads(json.dumps(meta)), IDENTITY, _REPLACE)
    if line:
        if not fresh:
            raise StaleResultError(line)
        return f"{path} was made by other code or with other arguments: replaced (--fresh)"
    problem = manifest_problem(path)
    return None if problem is None else f"{path}: {problem}; rebuilt from the parts kept with it"


# Deals a stored part holds: a multiple of the playouts' chunk of samples. Within a part the deals
# are grouped by the plays they need (the learned player's contracts, the auction lines up to the
# bidding cap), each group on streams of its own keyed by the part's index: the table depends on
# the part size (recorded in its metadata), never on the threads or the order parts are played.
TABLE_PART = 1000
assert TABLE_PART % ADVICE_CHUNK == 0
PARTS_DIR = ".bids-parts"
PARTS_SPEC = "spec.json"


def _parts_spec(meta: dict) -> dict:
    """What identifies the parts of a table: its metadata without the version (JSON types)."""
    return json.loads(json.dumps({k: v for k, v in meta.items() if k != "thousand_version"}))


def _stored_parts_spec(out: Path) -> dict | None:
    """The spec of the parts kept in ``out`` (None: no parts, or a spec that cannot be read)."""
    try:
        spec = json.loads((out / PARTS_DIR / PARTS_SPEC).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return spec if isinstance(spec, dict) else None


def _parts_refusal(out: Path, meta: dict) -> str | None:
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
    return refusal(f"the parts of a bid table kept in --out {out} ({parts})", stored, _parts_spec(meta), IDENTITY,
                   remedy)


def _parts_dir(out: Path, meta: dict, fresh: bool) -> Path:
    """The folder of the parts of this very table. Parts of a table of other code or arguments
    (an interrupted build, or the parts of the table being replaced) are refused unless
    ``fresh``, which throws them away: parts of two tables are never mixed."""
    parts = out / PARTS_DIR
    line = _parts_refusal(out, meta)
    if line is not None:
        if not fresh:
            raise StaleResultError(line)
        shutil.rmtree(parts)
    if not parts.exists():
        parts.mkdir()
        write_atomic_bytes(parts / PARTS_SPEC, json.dumps(_parts_spec(meta), sort_keys=True).encode())
    return parts


def parts_kept(out: Path) -> int:
    """Finished parts of an interrupted table build in ``out``."""
    parts = Path(out) / PARTS_DIR
    return len(list(parts.glob("part-*.sha256"))) if parts.is_dir() else 0




def _part_done(parts: Path, k: int) -> bool:
    path, digest = parts / f"part-{k:05d}.parquet", parts / f"part-{k:05d}.sha256"
    return path.is_file() and digest.is_file() and digest.read_text() == file_sha256(path)


def _store_part(parts: Path, k: int, frame: pl.DataFrame) -> None:
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


def read_metadata(path: Path) -> dict:
    import pyarrow.parquet as pq

    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): json.loads(v) for k, v in raw.items() if k.decode() != "ARROW:schema"}


# The columns a reader of a bid table needs (``analysis.marriages.marriage_worth``, the summaries).
TABLE_COLUMNS = ("deal", "hand", "talon", "aces", "tens", "marriages", "marriage_value", "longest_suit", "bid_cap",
                 "dd_points", "heuristic_points", "pimc_points", "learned_points", "learned_made",
                 *(f"{seat}_{f}" for seat in SEAT_NAMES for f in LINE_FIELDS))
def open_bid_table(path: Path, *, rules: HouseRules | None = None, rules_name: str = "", option: str = "--bids"
                   ) -> dict:
    """The metadata of the stored bid table ``path`` (given by the user as ``option``), refusing
    with one line a file that is not a bid table, one made by other code, one whose bytes are not
    those its manifest records, and, with ``rules`` (given as ``--rules rules_name``), one of other
    rules, naming both."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.is_file():
        raise InputError(f"{option} {path}: no such bid table (make one with thousand tables bids)")
    try:
        meta = read_metadata(path)
        columns = set(pq.read_schema(path).names)
    except (OSError, ValueError):
        meta, columns = {}, set()
    if meta.get("table") != "bids" or not set(TABLE_COLUMNS) <= columns or not isinstance(meta.get("rules"), dict):
        raise StaleResultError(f"{option} {path} is not a bid table (thousand tables bids makes one)")
    current = code_fingerprint("tables")
    if meta.get(FINGERPRINT) != current:
        made = describe_difference("the bid table", meta.get(FINGERPRINT), current)
        raise StaleResultError(f"{option} {path}: {made}; make it again with this code (the thousand tables bids "
                               "command that made it, with --fresh)")
    problem = manifest_problem(path)
    if problem is not None:
        raise StaleResultError(f"{option} {path}: {problem}; rerun the thousand tables bids command that made it to "
                               "rebuild it")
    if rules is not None:
        stored = HouseRules.from_dict(meta["rules"], source=f"the bid table {path}")
        changed = list(stored.changes_from(rules))
        if changed:
            shown = "; ".join(f"{k} {getattr(stored, k)!r} in the table, {getattr(rules, k)!r} in {rules_name}"
                              for k in changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            raise StaleResultError(f"{option} {path} is a bid table of other rules than --rules {rules_name} "
                                   f"({shown}); make one with thousand tables bids --rules {rules_name}")
    return meta


# ---- hand classes, in players' terms ---------------------------------------------------------------------
MARRIAGE_CLASSES = ("no marriage", "spades marriage", "clubs marriage", "diamonds marriage", "hearts marriage",
                    "two marriages")
ACE_CLASSES = ("no ace", "1 ace", "2 aces", "3+ aces")
TEN_CLASSES = ("no ten", "1 ten", "2+ tens")
LONG_CLASSES = ("longest suit 2-3", "a 4-card suit", "a 5+ card suit")
# The hand classes of the cheat sheet (MAIN_GROUPING) and of its refinements: each a list of the
# dimensions a class is made of, named as the class names join them ("hearts marriage, 2 aces").
GROUPINGS = {"marriage, aces": ("marriage", "aces"), "marriage, aces, tens": ("marriage", "aces", "tens"),
             "marriage, aces, longest suit": ("marriage", "aces", "longest")}
MAIN_GROUPING = "marriage, aces"


def _dimension(name: str) -> tuple[pl.Expr, tuple[str, ...]]:
    """A class dimension's index expression over the stored features, and the names of its values."""
    if name == "marriage":
        m = pl.col("marriages").cast(pl.Int32)
        count = sum((m // (1 << s)) % 2 for s in range(4))
        index = (pl.when(count == 0).then(0).when(count >= 2).then(5).when(m == 1).then(1).when(m == 2).then(2)
                 .when(m == 4).then(3).otherwise(4))
        return index, MARRIAGE_CLASSES
    if name == "aces":
        return pl.col("aces").cast(pl.Int32).clip(0, 3), ACE_CLASSES
    if name == "tens":
        return pl.col("tens").cast(pl.Int32).clip(0, 2), TEN_CLASSES
    if name == "longest":
        return pl.col("longest_suit").cast(pl.Int32).clip(3, 5) - 3, LONG_CLASSES
    raise ValueError(f"unknown class dimension {name!r}")


def class_expr(grouping: str = MAIN_GROUPING) -> pl.Expr:
    """A hand's class under ``grouping`` (GROUPINGS), e.g. "hearts marriage, 2 aces": the marriage
    held by suit ("two marriages": two or three), the aces, and the tens or the longest suit."""
    parts = []
    for name in GROUPINGS[grouping]:
        index, names = _dimension(name)
        parts.append(index.replace_strict(dict(enumerate(names)), return_dtype=pl.String))
    return pl.concat_str(parts, separator=", ")


def _order_expr(grouping: str) -> pl.Expr:
    """A number that sorts the classes of ``grouping`` as a player reads them: by marriage (none,
    spades .. hearts, two), then aces, then the refinement."""
    order = pl.lit(0)
    for name in GROUPINGS[grouping]:
        order = order * 10 + _dimension(name)[0]
    return order


def line_array(part: pl.DataFrame, seat: str, m: int) -> np.ndarray:
    """(deals, m, LINE_COLUMNS) int64: the first ``m`` auction lines of each deal of ``part`` (rows
    of a bid table, each with at least ``m`` lines) with seat 0 as ``seat`` hand, as
    ``auction_lines`` returns them. The scores are the changes (the lines start from a zero score);
    the raw results are not stored and read 0 (no objective of ``analysis.bid_value`` but ``win``
    reads the scores, none the results)."""
    out = np.zeros((part.height, m, len(LINE_COLUMNS)), dtype=np.int64)
    for f in LINE_FIELDS:
        values = part[f"{seat}_{f}"].list.head(m).list.to_array(m).to_numpy()
        out[:, :, LINE_COLUMNS.index(f)] = values
        if f.startswith("change"):
            out[:, :, LINE_COLUMNS.index("score" + f[-1])] = values
    return out


# ---- the result: make-rates by hand class, the learned player checked, the cheat sheet ---------------------


@dataclasses.dataclass(frozen=True)
class MakeRate:
    """How often one declarer made one contract in one hand class.

    - ``contract``: the contract (points);
    - ``k``: the deals on which the declarer's points reached it, of ``n`` deals;
    - ``p``: ``k / n`` (NaN when ``n`` is 0);
    - ``ci_low``, ``ci_high``: its Wilson 95% interval (NaN when ``n`` is 0; the deals of a class
      are independent).
    """

    contract: int
    k: int
    n: int
    p: float
    ci_low: float
    ci_high: float


@dataclasses.dataclass(frozen=True)
class ClassCurve:
    """The make-rate curves of one hand class (e.g. "hearts marriage, 2 aces").

    - ``hand_class``: its name; ``grouping``: the GROUPINGS it belongs to;
    - ``n``: the deals of the class; ``n_pimc``: those pimc played too;
    - ``bidding_cap``: the lowest bidding cap among its hands (what the rules let them bid);
    - ``learned``, ``heuristic``, ``dd``, ``pimc``: each declarer's ``MakeRate`` for every contract
      of the table, lowest first (pimc's over the deals it played); PLAYERS says who played.
    """

    hand_class: str
    grouping: str
    n: int
    n_pimc: int
    bidding_cap: int
    learned: tuple[MakeRate, ...]
    heuristic: tuple[MakeRate, ...]
    dd: tuple[MakeRate, ...]
    pimc: tuple[MakeRate, ...]

    def rates(self, method: str) -> tuple[MakeRate, ...]:
        """The make-rates of ``method`` (one of METHODS)."""
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        return getattr(self, method)

    def to_dict(self) -> dict:
        return {"hand_class": self.hand_class, "grouping": self.grouping, "n": self.n, "n_pimc": self.n_pimc,
                "bidding_cap": self.bidding_cap,
                "methods": {m: {"players": PLAYERS[m], "rates": [dataclasses.asdict(r) for r in self.rates(m)]}
                            for m in METHODS}}


@dataclasses.dataclass(frozen=True)
class ComparisonRow:
    """The declarers on the same deals (those pimc played) at one contract, or pooled over a range
    of contracts: the learned player's make-rate checked against pimc's.

    - ``contract``: the contract ("100") or the range pooled ("100-200": every contract of the
      table from the minimum bid to POOLED_TOP; the rate is the mean over deals of the share of
      those contracts made);
    - ``n``: the deals;
    - ``learned``, ``pimc``, ``heuristic``, ``dd``: each one's make-rate with its 95% interval:
      Wilson's for a contract; for the range a normal interval clustered by deal (a deal's
      contracts are not independent trials);
    - ``diff``: learned minus pimc, (mean, low, high), paired on the same deals (clustered by deal);
    - ``p_holm``: its two-sided p-value, Holm-corrected over the rows; ``differ``: below 0.05.
    """

    contract: str
    n: int
    learned: Rate
    pimc: Rate
    heuristic: Rate
    dd: Rate
    diff: tuple[float, float, float]
    p_holm: float
    differ: bool

    def to_dict(self) -> dict:
        return {"contract": self.contract, "n": self.n, "learned": self.learned, "pimc": self.pimc,
                "heuristic": self.heuristic, "dd": self.dd, "diff": self.diff, "p_holm": self.p_holm,
                "differ": self.differ}


@dataclasses.dataclass(frozen=True)
class RiskBid:
    """Risk information: the highest contract a hand class's learned declarer makes at least
    ``1 - risk`` of the time (playing it as that contract), and the range the 95% intervals allow.
    Every bid None when no contract qualifies. Not a recommendation: what a bid is worth is in the
    seats' ``SeatAdvice``.

    - ``risk``: the failure chance accepted;
    - ``bid``: the highest contract whose make-rate is at least ``1 - risk``;
    - ``low``: the highest whose whole interval lies at or above ``1 - risk``;
    - ``high``: the highest whose interval reaches ``1 - risk``.
    """

    risk: float
    bid: int | None
    low: int | None
    high: int | None


@dataclasses.dataclass(frozen=True)
class SeatAdvice:
    """What to bid with a hand class in one seat: the auction lines of seat 0 on the class's deals
    (``analysis.bid_value``), the learned player in every seat, from a zero score.

    - ``seat``: "first", "second" or "third" hand; ``forced``: the seat holding the forced bid
      (first hand under forced_first_bid, the dealer, third hand, under forced_bid_seat = dealer),
      whose pass line is the forced minimum bid, then passing;
    - ``n``: the deals (each one row: no deal counts twice);
    - ``bid``: the recommendation X (``analysis.bid_value.recommended``): the tested level whose
      line "bid up to X" gains most over always passing, if it gains; None: pass (no tested line
      gains);
    - ``gain``, ``gain_low``, ``gain_high``: X's line against always passing over all the class's
      deals, its mean difference with the 95% interval clustered by deal: the expected gain a deal
      from following the advice rather than passing (NaN when passing); ``reached``: the deals in
      which the auction reached X (X's line differs from the line one step lower there);
    - ``beyond``: the first tested level above X (the lowest tested level when passing; None: none
      is tested above X); ``beyond_gain`` its line's gain over passing, at most X's (at most 0);
      ``untested_from``: the lowest level above X reached in fewer than ``MIN_REACHED`` deals when
      none above X is tested;
    - ``pass_value``, ``pass_low``, ``pass_high``: passing's mean result and interval;
    - ``lines``: every line's ``LineValue``, the pass line first, then bid up to each contract.
    Results are under the BidTable's ``objective``.
    """

    seat: str
    forced: bool
    n: int
    bid: int | None
    gain: float
    gain_low: float
    gain_high: float
    reached: int
    beyond: int | None
    beyond_gain: float
    untested_from: int | None
    pass_value: float
    pass_low: float
    pass_high: float
    lines: tuple[LineValue, ...]

    def to_dict(self) -> dict:
        row = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "lines"}
        row["lines"] = [dataclasses.asdict(v) for v in self.lines]
        return row


@dataclasses.dataclass(frozen=True)
class CheatRow:
    """One hand class's line of the cheat sheet (``cheat_sheet``).

    - ``hand_class``, ``grouping`` (GROUPINGS), ``n`` (its deals), ``bidding_cap`` (the class's
      lowest cap: no line goes above it);
    - ``risks``: a ``RiskBid`` for each risk (CHEAT_RISKS), from the learned make-rates: risk
      information only;
    - ``seats``: the ``SeatAdvice`` of first, second and third hand, in that order.
    """

    hand_class: str
    grouping: str
    n: int
    bidding_cap: int
    risks: tuple[RiskBid, ...]
    seats: tuple[SeatAdvice, ...]

    def at_risk(self, risk: float) -> RiskBid:
        """The ``RiskBid`` of ``risk`` (one of the risks the sheet was made for)."""
        for b in self.risks:
            if b.risk == risk:
                return b
        raise ValueError(f"this cheat sheet was made for the risks {[b.risk for b in self.risks]}, not {risk}")

    def seat(self, name: str) -> SeatAdvice:
        """The advice of ``name`` hand (one of SEAT_NAMES)."""
        for s in self.seats:
            if s.seat == name:
                return s
        raise ValueError(f"seat must be one of {', '.join(SEAT_NAMES)}, not {name!r}")

    def to_dict(self) -> dict:
        row: dict = {"hand_class": self.hand_class, "grouping": self.grouping, "n": self.n,
                     "bidding_cap": self.bidding_cap}
        for b in self.risks:
            key = f"bid_at_risk_{b.risk:g}"
            row[key], row[key + "_low"], row[key + "_high"] = b.bid, b.low, b.high
        row["seats"] = [s.to_dict() for s in self.seats]
        return row


@dataclasses.dataclass(frozen=True)
class MethodRate:
    """A declarer's make-rate on the deals pimc played, in one of two groups of hands.

    - ``group``: "hands without a marriage" or "hands with a marriage" (in the 7 cards);
    - ``method``: the declarer (one of METHODS);
    - ``contract``, ``k`` of ``n`` deals (``n``: the group's deals), ``p`` (NaN when ``n`` is 0),
      ``ci_low``, ``ci_high``: as in ``MakeRate``.
    """

    group: str
    method: str
    contract: int
    k: int
    n: int
    p: float
    ci_low: float
    ci_high: float


METHOD_GROUPS = ("hands without a marriage", "hands with a marriage")
BID_TABLES = ("classes", "comparison", "cheat_sheet", "lines", "methods", "deals")


@dataclasses.dataclass(frozen=True)
class BidTable:
    """What ``thousand tables bids`` finds in a stored bid table (``tables_bids``,
    ``summarize_bid_table``).

    - ``table_file``: the stored table (one row a deal: ``bids.parquet``);
    - ``provenance``: the metadata stored with it, as stored (version, code fingerprint, rules,
      seed, sizes, levels, the declarer and the auction lines);
    - ``rules``: the house rules the deals were played under;
    - ``deals``, ``seed``, ``pimc_deals`` (the first deals, also played by pimc), ``worlds`` (a
      pimc decision's), ``levels`` (the contracts, lowest first): how the table was made;
    - ``min_n``: the deals a hand class needs to appear in the summary and the cheat sheet;
    - ``objective``: the result the auction lines are valued by (``analysis.bid_value.OBJECTIVES``:
      race or own);
    - ``classes``: the make-rate curves of every hand class of MAIN_GROUPING (``ClassCurve``), in a
      player's order (marriage, then aces);
    - ``comparison``: the learned player checked against pimc (and heuristic and dd beside) on the
      deals pimc played, at COMPARE_LEVELS and pooled (``ComparisonRow``; empty when pimc played none);
    - ``cheat_sheet``: the cheat sheet (``CheatRow``), each class of MAIN_GROUPING of at least
      ``min_n`` deals; ``detail``: the same for the refined GROUPINGS (tens, the longest suit);
    - ``method_rates``: the declarers' make-rates up to PLOT_MAX_LEVEL on the deals pimc played,
      without and with a marriage (``MethodRate``; empty when pimc played none), for the plot;
    - ``plot_file``: where the make-rate curves are drawn (beside the table);
      ``methods_plot_file``: where the declarers compared are (None when pimc played no deal).

    ``to_dict()`` is what ``--json`` prints (the plots' data and paths are not in it).
    ``to_polars(table=...)`` gives one table as a DataFrame: "classes" (the default: one row a
    class, method and contract), "comparison", "cheat_sheet" (one row a class and seat, the
    refinements included), "lines" (one row a class, seat and line), "methods" (``method_rates``)
    or "deals" (the stored table itself, read from ``table_file``).
    """

    table_file: Path
    provenance: dict
    rules: HouseRules
    deals: int
    seed: int
    pimc_deals: int
    worlds: int
    levels: tuple[int, ...]
    min_n: int
    objective: str
    classes: tuple[ClassCurve, ...]
    comparison: tuple[ComparisonRow, ...]
    cheat_sheet: tuple[CheatRow, ...]
    detail: tuple[CheatRow, ...]
    method_rates: tuple[MethodRate, ...]
    plot_file: Path
    methods_plot_file: Path | None

    def curve(self, hand_class: str) -> ClassCurve | None:
        """The curves of ``hand_class`` (None: no deal of it)."""
        return next((c for c in self.classes if c.hand_class == hand_class), None)

    @property
    def plot_files(self) -> tuple[Path, ...]:
        """The plots of this table: the curves, and the declarers compared when pimc played."""
        return (self.plot_file,) + ((self.methods_plot_file,) if self.methods_plot_file is not None else ())

    def to_dict(self) -> dict:
        return {**self.provenance, "table_file": str(self.table_file), "min_n": self.min_n,
                "objective": self.objective, "line_players": PLAYERS[LINE_PLAYER],
                "classes": [c.to_dict() for c in self.classes],
                "comparison": [r.to_dict() for r in self.comparison],
                "cheat_sheet": [r.to_dict() for r in self.cheat_sheet],
                "detail": [r.to_dict() for r in self.detail]}

    def to_polars(self, table: str = "classes") -> pl.DataFrame:
        """One of BID_TABLES as a DataFrame (see the class's docstring)."""
        if table == "classes":
            schema = {"hand_class": pl.String, "n_class": pl.Int64, "n_pimc": pl.Int64, "bidding_cap": pl.Int64,
                      "method": pl.String, "players": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64,
                      "p": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
            rows = [(c.hand_class, c.n, c.n_pimc, c.bidding_cap, m, PLAYERS[m], *dataclasses.astuple(r))
                    for c in self.classes for m in METHODS for r in c.rates(m)]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "comparison":
            schema = {"contract": pl.String, "n": pl.Int64}
            for m in METHODS:
                schema.update({m: pl.Float64, f"{m}_ci_low": pl.Float64, f"{m}_ci_high": pl.Float64})
            schema.update({"diff": pl.Float64, "diff_ci_low": pl.Float64, "diff_ci_high": pl.Float64,
                           "p_holm": pl.Float64, "differ": pl.Boolean})
            rows = [(r.contract, r.n, *(x for m in METHODS for x in getattr(r, m)), *r.diff, r.p_holm, r.differ)
                    for r in self.comparison]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "cheat_sheet":
            schema = {"grouping": pl.String, "hand_class": pl.String, "n": pl.Int64, "bidding_cap": pl.Int64}
            for risk in CHEAT_RISKS:
                key = f"bid_at_risk_{risk:g}"
                schema.update({key: pl.Int64, key + "_low": pl.Int64, key + "_high": pl.Int64})
            fields = [f for f in dataclasses.fields(SeatAdvice) if f.name != "lines"]
            kinds = {"seat": pl.String, "forced": pl.Boolean, "n": pl.Int64, "bid": pl.Int64, "best": pl.Int64}
            schema.update({("n_seat" if f.name == "n" else f.name): kinds.get(f.name, pl.Float64) for f in fields})
            schema.update({"objective": pl.String, "players": pl.String})
            rows = [(r.grouping, r.hand_class, r.n, r.bidding_cap,
                     *(x for risk in CHEAT_RISKS for b in (r.at_risk(risk),) for x in (b.bid, b.low, b.high)),
                     *(getattr(s, f.name) for f in fields), self.objective, PLAYERS[LINE_PLAYER])
                    for r in self.cheat_sheet + self.detail for s in r.seats]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "lines":
            schema = {"grouping": pl.String, "hand_class": pl.String, "seat": pl.String, "limit": pl.Int64,
                      "n": pl.Int64, "mean": pl.Float64, "low": pl.Float64, "high": pl.Float64, "gain": pl.Float64,
                      "gain_low": pl.Float64, "gain_high": pl.Float64, "declares": pl.Float64, "made": pl.Float64,
                      "conceded": pl.Float64, "contract": pl.Float64, "raised": pl.Float64}
            rows = [(r.grouping, r.hand_class, s.seat, v.limit, v.n, v.mean, v.low, v.high, v.gain, v.gain_low,
                     v.gain_high, v.declares[0], v.made[0], v.conceded[0], v.contract, v.raised[0])
                    for r in self.cheat_sheet + self.detail for s in r.seats for v in s.lines]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "methods":
            schema = {"group": pl.String, "method": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64,
                      "p": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
            return pl.DataFrame([dataclasses.astuple(r) for r in self.method_rates], schema=schema, orient="row")
        if table == "deals":
            return pl.read_parquet(self.table_file)
        raise ValueError(f"table must be one of {', '.join(BID_TABLES)}, not {table!r}")


def _pooled(made: np.ndarray, deals: np.ndarray) -> tuple[float, float, float]:
    """The mean of a (deals, levels) array of 0/1 (or differences), every deal's levels one cluster:
    (mean, low, high) of ``clustered_mean`` over the deal-level rows."""
    from analysis.bid_value import clustered_mean

    return clustered_mean(made.ravel().astype(np.float64), np.repeat(deals, made.shape[1]))


def comparison(path: Path) -> tuple[ComparisonRow, ...]:
    """Make-rates of the declarers on the deals pimc played, at COMPARE_LEVELS and pooled from the
    minimum bid to POOLED_TOP; the learned player's minus pimc's, paired by deal, with Holm-corrected
    p-values. Empty when pimc played no deal."""
    meta = read_metadata(path)
    levels = meta["levels"]
    df = (pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null())
          .select("deal", *[f"{m}_made" for m in METHODS]).collect())
    if not df.height:
        return ()
    made = {m: df[f"{m}_made"].to_numpy().astype(np.float64) for m in METHODS}
    deals = df["deal"].to_numpy()
    rows = []
    for lv in [lv for lv in COMPARE_LEVELS if lv in levels]:
        j = levels.index(lv)
        rates = {m: wilson_rate(int(made[m][:, j].sum()), df.height) for m in METHODS}
        rows.append((str(lv), rates, _pooled(made["learned"][:, [j]] - made["pimc"][:, [j]], deals)))
    pooled = [j for j, lv in enumerate(levels) if lv <= POOLED_TOP]
    if len(pooled) > 1:
        # Every contract up to POOLED_TOP over the same deals: the levels of one deal are one cluster.
        rates = {}
        for m in METHODS:
            mean, lo, hi = _pooled(made[m][:, pooled], deals)
            rates[m] = (mean, max(0.0, lo), min(1.0, hi)) if df.height > 1 else (mean, lo, hi)
        rows.append((f"{levels[pooled[0]]}-{levels[pooled[-1]]}", rates,
                     _pooled(made["learned"][:, pooled] - made["pimc"][:, pooled], deals)))
    ps = [two_sided_p(d[0], (d[2] - d[0]) / 1.959963984540054) if not math.isnan(d[1]) else math.nan
          for _, _, d in rows]
    adjusted = holm(ps)
    return tuple(ComparisonRow(contract=label, n=df.height, **rates, diff=diff, p_holm=p,
                               differ=bool(not math.isnan(p) and p < 0.05))
                 for (label, rates, diff), p in zip(rows, adjusted, strict=True))


METHODS_PLOT_FILE = "bid_methods.png"
PLOT_MAX_LEVEL = 220


def method_rates(path: Path) -> tuple[MethodRate, ...]:
    """The make-rate of every contract up to PLOT_MAX_LEVEL for every declarer on the deals pimc
    played, hands without a marriage and hands with one (METHOD_GROUPS), each with its Wilson 95%
    interval; empty when pimc played no deal."""
    levels = [lv for lv in read_metadata(path)["levels"] if lv <= PLOT_MAX_LEVEL]
    df = pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null()).select(
        "marriage_value", *[f"{m}_made" for m in METHODS]).collect()
    if not df.height:
        return ()
    out = []
    for group, part in zip(METHOD_GROUPS, (df.filter(pl.col("marriage_value") == 0),
                                           df.filter(pl.col("marriage_value") > 0)), strict=True):
        for m in METHODS:
            made = part[f"{m}_made"].to_numpy() if part.height else np.zeros((0, len(levels)), dtype=bool)
            for j, lv in enumerate(levels):
                k = int(made[:, j].sum())
                out.append(MethodRate(group, m, lv, k, part.height, *wilson_rate(k, part.height)))
    return tuple(out)


# ---- curves and the cheat sheet ------------------------------------------------------------------------
def class_curves(path: Path, grouping: str = MAIN_GROUPING) -> tuple[ClassCurve, ...]:
    """Per hand class of ``grouping`` (GROUPINGS), in a player's order: its deals (``n``,
    ``n_pimc``), the lowest bidding cap among them, and per declarer the make-rate of every
    contract of the table with its Wilson 95% interval (pimc on the deals it played). Read lazily
    with Polars."""
    levels = read_metadata(path)["levels"]
    lf = pl.scan_parquet(path).with_columns(hand_class=class_expr(grouping), order=_order_expr(grouping))
    exprs = [pl.len().alias("n"), pl.col("pimc_points").is_not_null().sum().alias("n_pimc"),
             pl.col("bid_cap").min().alias("cap"), pl.col("order").first()]
    for m in METHODS:
        exprs += [pl.col(f"{m}_made").arr.get(j).cast(pl.Int64).sum().alias(f"{m}_{j}") for j in range(len(levels))]
    out = []
    for r in lf.group_by("hand_class").agg(exprs).sort("order").collect().iter_rows(named=True):
        methods = {}
        for m in METHODS:
            n = r["n_pimc"] if m == "pimc" else r["n"]
            methods[m] = tuple(MakeRate(lv, r[f"{m}_{j}"], n, *wilson_rate(r[f"{m}_{j}"], n))
                               for j, lv in enumerate(levels))
        out.append(ClassCurve(hand_class=r["hand_class"], grouping=grouping, n=r["n"], n_pimc=r["n_pimc"],
                              bidding_cap=r["cap"], **methods))
    return tuple(out)


CHEAT_RISKS = (0.3, 0.5)


def _risk_bids(rates: list[MakeRate], risks: tuple[float, ...]) -> tuple[RiskBid, ...]:
    out = []
    for risk in risks:
        need = 1 - risk
        out.append(RiskBid(risk=risk, bid=max((r.contract for r in rates if r.p >= need), default=None),
                           low=max((r.contract for r in rates if r.ci_low >= need), default=None),
                           high=max((r.contract for r in rates if r.ci_high >= need), default=None)))
    return tuple(out)


def _seat_advice(part: pl.DataFrame, seat: str, limits: list[int], objective: str, forced: bool) -> SeatAdvice:
    values = line_values(line_array(part, seat, len(limits)), limits, objective=objective,
                         clusters=part["deal"].to_numpy())
    verdict = recommended(values)
    v, w = verdict.line, verdict.beyond
    passing = values[limits.index(PASS_LINE)]
    return SeatAdvice(seat=seat, forced=forced, n=part.height, bid=verdict.bid,
                      gain=v.gain if v else math.nan, gain_low=v.gain_low if v else math.nan,
                      gain_high=v.gain_high if v else math.nan, reached=v.reached if v else 0,
                      beyond=w.limit if w else None, beyond_gain=w.gain if w else math.nan,
                      untested_from=verdict.untested_from,
                      pass_value=passing.mean, pass_low=passing.low, pass_high=passing.high, lines=values)


def cheat_sheet(path: Path, *, grouping: str = MAIN_GROUPING, objective: str = "race",
                risks: tuple[float, ...] = CHEAT_RISKS, min_n: int = 30,
                curves: tuple[ClassCurve, ...] | None = None) -> tuple[CheatRow, ...]:
    """For each hand class of ``grouping`` with at least ``min_n`` deals, in a player's order: per
    seat (first, second, third hand), the auction lines of seat 0 on the class's deals (pass, and
    bid up to each contract from the minimum bid to the class's bidding cap; the learned player in
    every seat, from a zero score) valued under ``objective`` (race: your score change minus the
    opponents' mean; own: yours), and the recommendation (``analysis.bid_value.recommended``): the
    tested line "bid up to X" that gains most over always passing, if it gains; and, as risk information, the highest
    contract the learned declarer makes at least 1 - risk of the time. ``curves``: the table's
    ``class_curves`` of ``grouping``, when the caller has them."""
    if objective not in OBJECTIVES or objective == "win":
        raise InputError(f"--objective must be race or own for the bid table, not {objective!r}")
    meta = read_metadata(path)
    rules = HouseRules.from_dict(meta["rules"])
    levels = meta["levels"]
    curves = curves if curves is not None else class_curves(path, grouping)
    shown = [c for c in curves if c.n >= min_n]
    if not shown:
        return ()
    names = [c.hand_class for c in shown]
    cols = ["deal", *(f"{seat}_{f}" for seat in SEAT_NAMES for f in LINE_FIELDS)]
    df = (pl.scan_parquet(path).with_columns(hand_class=class_expr(grouping))
          .filter(pl.col("hand_class").is_in(names)).select("hand_class", *cols).collect())
    parts = {key[0]: frame for key, frame in df.partition_by("hand_class", as_dict=True).items()}
    rows = []
    for c in shown:
        part = parts[c.hand_class]
        limits = line_limits(c.bidding_cap, levels)
        seats = tuple(_seat_advice(part, seat, limits, objective, seat == forced_seat_name(rules))
                      for seat in SEAT_NAMES)
        rows.append(CheatRow(hand_class=c.hand_class, grouping=grouping, n=c.n, bidding_cap=c.bidding_cap,
                             risks=_risk_bids([r for r in c.learned if r.contract <= c.bidding_cap], risks),
                             seats=seats))
    return tuple(rows)


def summarize_bid_table(path: Path, *, min_n: int = 30, objective: str = "race") -> BidTable:
    """The ``BidTable`` of the stored bid table ``path`` (``build_bid_tables``): its make-rate
    curves by hand class (every declarer, every contract, 95% intervals), the learned player checked
    against pimc on the deals pimc played, and the cheat sheet (with its refinements by tens and
    the longest suit) for the classes of at least ``min_n`` deals, its lines valued under
    ``objective``. Read lazily with Polars."""
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    if objective not in ("race", "own"):
        raise InputError(f"--objective must be race or own, not {objective!r}")
    path = Path(path)
    meta = read_metadata(path)
    curves = class_curves(path)  # read once for the summary, the cheat sheet and the plot
    compared = comparison(path)
    detail = tuple(r for g in GROUPINGS if g != MAIN_GROUPING
                   for r in cheat_sheet(path, grouping=g, objective=objective, min_n=min_n))
    return BidTable(
        table_file=path, provenance=meta, rules=HouseRules.from_dict(meta["rules"], source=f"the bid table {path}"),
        deals=meta["sample_size"], seed=meta["seed"], pimc_deals=meta["pimc_deals"], worlds=meta["worlds"],
        levels=tuple(meta["levels"]), min_n=min_n, objective=objective, classes=curves, comparison=compared,
        cheat_sheet=cheat_sheet(path, objective=objective, min_n=min_n, curves=curves), detail=detail,
        method_rates=method_rates(path), plot_file=path.with_name(PLOT_FILE),
        methods_plot_file=path.with_name(METHODS_PLOT_FILE) if compared else None)


def tables_bids(*, deals: int, rules: str | HouseRules = "classic", seed: int = 0, out: Path = Path("out/tables"),
                pimc_deals: int = 100, worlds: int | None = None, threads: int | None = None,
                progress: Progress | None = None, min_n: int = 30, objective: str = "race",
                backend: Backend | None = None, fresh: bool = False) -> BidTable:
    """What ``thousand tables bids`` does: build the table (or reuse the stored one made with the
    same arguments by the same code; ``fresh``: replace one of other code or arguments), then
    summarise it (``worlds`` None is the advisor's ADVICE_WORLDS). ``rules``: a preset, a TOML file
    or a ``HouseRules`` (validated as a file's are). ``progress`` follows the parts played
    (``build_bid_tables``). Arguments of the wrong type are refused (``sim.arguments``) before
    anything is written."""
    deals, seed = arguments.integer("deals", deals), arguments.integer("seed", seed)
    out, pimc_deals = arguments.path("out", out), arguments.integer("pimc_deals", pimc_deals)
    worlds = arguments.integer("worlds", worlds, optional=True)
    threads = arguments.integer("threads", threads, optional=True)
    progress, min_n = arguments.function("progress", progress), arguments.integer("min_n", min_n)
    objective, fresh = arguments.text("objective", objective), arguments.flag("fresh", fresh)
    worlds = ADVICE_WORLDS if worlds is None else worlds
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    if objective not in ("race", "own"):
        raise InputError(f"--objective must be race or own, not {objective!r}")
    path = build_bid_tables(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                            threads=threads, progress=progress, backend=backend, fresh=fresh)
    return summarize_bid_table(path, min_n=min_n, objective=objective)
