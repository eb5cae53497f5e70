"""Bid-success tables: how often a 7-card hand makes each contract, by hand class.

``build_bid_tables`` plays N random deals. In each, seat 0 is the declarer-to-be: he takes the
talon and plays every contract level from the minimum bid up. Per deal it stores his 7-card hand's
features (card points, aces, tens, marriages by suit, longest suit), the talon, and the points he
takes under each method: ``dd`` (the exact best-discard double-dummy value), ``heuristic`` (every
seat the heuristic player) and, on the first ``pimc_deals`` deals, ``pimc``; a contract b is made
when those points reach b, and the stored ``*_made`` arrays hold that for every level. The table is
one Parquet file written atomically with the rules, seed, sizes, version and code fingerprint as
metadata, and beside it its manifest ``bids.json`` (its SHA-256, written after it). It is played
in parts stored as they finish under ``.bids-parts`` (with the same metadata), so that Ctrl-C
loses at most the parts in flight; the parts are kept once the table is made.

A stored table is reused only when its metadata equals the one asked for (``analysis.stored``: the
same code, rules, seed and sizes) and its bytes match its manifest. A table or parts of other code
or arguments are refused with one line (``StaleResultError``) unless ``fresh``; a damaged table
(its SHA-256 not the recorded one, or unreadable) is rebuilt from its verified parts, the damaged
parts played again: a bit flip never changes a printed make-rate.

``summarize_bid_table`` reads it lazily with Polars into a ``BidTable``: make-rates by hand class
with 95% intervals, the declarers compared and the cheat sheets (``tables_bids`` builds, then
summarises). It draws and prints nothing: ``analysis.present`` does (``text.bid_table_lines``,
``plots.plot_bid_make_rates`` and ``plots.plot_bid_methods``).
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

from analysis.advisor import SEATS, check_three_player_deal, fail_loss, made_gain
from analysis.stats import Rate, mean_interval, wilson_rate
from analysis.stored import FINGERPRINT, StaleResultError, holds_out, manifest_problem, refusal, write_manifest
from sim import InputError, __version__
from sim.engine.playouts import ADVICE_WORLDS, Situation, dd_exact_values, pass_results, played_points
from sim.engine.playouts import CHUNK as ADVICE_CHUNK
from sim.fingerprint import code_fingerprint, describe_difference, file_sha256
from sim.game.cards import CARD_POINTS
from sim.game.play_nb import bid_cap
from sim.game.rules import HouseRules, load_rules
from sim.players import MAX_PIMC_WORLDS
from sim.runs import check_output_dir, write_atomic_bytes, write_parquet_atomic

if TYPE_CHECKING:
    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "METHODS", "COMPARE_LEVELS", "random_deals", "hand_features", "MAX_TABLE_DEALS",
    "levels_for", "build_bid_tables", "PASS_SEAT", "IDENTITY", "TABLE_PART", "PARTS_DIR", "PARTS_SPEC", "parts_kept",
    "play_part", "read_metadata", "TABLE_COLUMNS", "open_bid_table", "MARRIAGE_CLASSES", "ACE_CLASSES",
    "MakeRate", "ClassCurve", "ComparisonRow", "RiskBid", "CheatRow", "MethodRate", "METHOD_GROUPS", "BID_TABLES",
    "BidTable", "comparison", "METHODS_PLOT_FILE", "PLOT_MAX_LEVEL", "method_rates", "class_curves", "CHEAT_RISKS",
    "cheat_sheet", "summarize_bid_table", "tables_bids",
]

TABLE_FILE = "bids.parquet"
PLOT_FILE = "bid_make_rates.png"
METHODS = ("dd", "heuristic", "pimc")
COMPARE_LEVELS = (100, 110, 120, 140)


def random_deals(n: int, seed: int) -> np.ndarray:
    """(n, 4) masks: seat 0's 7 cards, the talon, seat 1's 7, seat 2's 7; deal i from
    ``SeedSequence(seed, spawn_key=(i // 1000,))`` so the first deals never depend on n."""
    out = np.zeros((n, 4), dtype=np.int64)
    weights = np.int64(1) << np.arange(24, dtype=np.int64)
    for lo in range(0, n, 1000):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(lo // 1000,)))
        for i in range(lo, min(n, lo + 1000)):
            p = rng.permutation(24)
            out[i] = [weights[p[0:7]].sum(), weights[p[7:10]].sum(), weights[p[10:17]].sum(), weights[p[17:24]].sum()]
    return out


def hand_features(hands: np.ndarray, rules: HouseRules) -> dict[str, np.ndarray]:
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


# The table holds about 150 bytes a deal and the play a few arrays of it: a million deals stay
# within a few hundred MiB.
MAX_TABLE_DEALS = 1_000_000


def levels_for(rules: HouseRules) -> list[int]:
    return list(range(rules.min_bid, rules.max_contract + 1, rules.bid_step))


@holds_out()
def build_bid_tables(*, deals: int, rules: str | HouseRules | None = "classic", seed: int = 0,
                     out: Path = Path("out/tables"), pimc_deals: int = 100, worlds: int = ADVICE_WORLDS,
                     threads: int | None = None, progress: Progress | None = None,
                     backend: Backend | None = None, fresh: bool = False) -> Path:
    """Play the deals and store the table; returns its path. The deals are played in parts of
    TABLE_PART deals, each stored as it is finished under ``out/.bids-parts``: an interrupted
    build resumes with the parts already played, and the table is the same as one played in one go
    (a part draws the random streams it would draw in the whole). A stored table (or parts) of
    other code or arguments is refused (``StaleResultError``) unless ``fresh``, which replaces it;
    the old table stays in place until the new one is complete.

    ``progress(stage, done, total)`` counts parts: ``total`` the table's parts, ``done`` those
    stored (played now or kept from an earlier build). Its stage says in a sentence what is done:
    the stored table reused (done = total, nothing played), why a stored table is rebuilt or
    replaced, then the parts played (how many were already played), reported again as each part
    is stored."""
    rec = rules if isinstance(rules, HouseRules) else load_rules(rules)
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
        "rules": rec.to_dict(),
        "declarer": "seat 0 of each random deal plays every contract from the talon on",
        "pass_line": f"seat 0 as {PASS_SEAT} hand passes at every turn, the others bid and everybody plays as the "
                     "heuristic player; pass_points is his result (rounded defence points or a concession's payout)",
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
    stage = (f"{deals:,} deals in {n_parts} parts of {TABLE_PART:,} ({done[0]} already played): double dummy and "
             f"heuristic play, pimc on the first {pimc_deals:,} ({worlds} worlds a decision)")
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
    parts = _parts_dir(out, meta, fresh)
    n_parts = -(-deals // TABLE_PART)
    todo = [k for k in range(n_parts) if not _part_done(parts, k)]
    if damage:
        say(damage)
    say(f"{deals:,} deals in {n_parts} parts of {TABLE_PART:,} ({n_parts - len(todo)} already played): double "
        f"dummy and heuristic play, pimc on the first {pimc_deals:,} ({worlds} worlds a decision)")
    d = random_deals(deals, seed) if todo else None
    items = [(d[k * TABLE_PART:(k + 1) * TABLE_PART], k * TABLE_PART, rec, seed, pimc_deals, worlds, threads, levels)
             for k in todo]
    if backend is not None and backend.remote:
        # Each part a task of the cluster; its rows come back and are stored here.
        def landed(item, frame):
            k = item[1] // TABLE_PART
            _store_part(parts, k, frame)
            say(f"part {k + 1} of {n_parts} stored")

        backend.map(play_part, items, landed)
    else:
        for item in items:
            k = item[1] // TABLE_PART
            _store_part(parts, k, play_part(*item))
            say(f"part {k + 1} of {n_parts} stored")
    df = pl.concat([pl.read_parquet(parts / f"part-{k:05d}.parquet") for k in range(n_parts)])
    write_parquet_atomic(df, path, {k: json.dumps(v) for k, v in meta.items()})
    write_manifest(path)  # after the table: a table without its manifest is rebuilt from the parts
    return path


# The seat of the pass line: the hand that may pass (first hand is forced to bid the minimum).
PASS_SEAT = "second"
# What identifies a bid table: its metadata keys (besides the code fingerprint), each with what a
# refusal calls it and the option that sets it. The version is not among them: the fingerprint is
# what says which code made a table.
IDENTITY = {"table": ("the kind of table", None), "sample_size": ("the sizes", "--deals"),
            "pimc_deals": ("the sizes", "--pimc-deals"), "worlds": ("the sizes", "--worlds"),
            "seed": ("the seed", "--seed"), "rules": ("the rules", None), "levels": ("the rules", None),
            "declarer": ("the declarer", None), "pass_line": ("the pass line", None)}
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


# Deals a stored part holds: a multiple of the playouts' chunk of samples, so that a part draws
# the random streams it would draw in the whole table.
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


def play_part(d: np.ndarray, first: int, rec: HouseRules, seed: int, pimc_deals: int, worlds: int,
              threads: int | None, levels: list[int]) -> pl.DataFrame:
    """Deals ``first`` .. ``first + len(d)`` of the table, as table rows: a pure function of its
    arguments, so that any thread or Dask worker may play any part."""
    n = len(d)
    hand10 = d[:, 0] | d[:, 1]
    samples = np.stack([hand10, d[:, 2], d[:, 3]], axis=1)  # column 0 = all ten cards, hand 0
    dd = dd_exact_values(0, samples, rec, threads)
    plays = np.stack([d[:, 1], d[:, 2], d[:, 3]], axis=1)
    chunk0 = first // ADVICE_CHUNK
    heur = played_points(0, plays, rec, "heuristic", seed, threads=threads, hands=d[:, 0], first_chunk=chunk0)
    passed = pass_results(0, plays, rec, SEATS[PASS_SEAT], Situation(), seed, threads, hands=d[:, 0],
                          first_chunk=chunk0)
    pimc = np.full(n, -1, dtype=np.int64)
    n_pimc = max(0, min(n, pimc_deals - first))
    if n_pimc:
        pimc[:n_pimc] = played_points(0, plays[:n_pimc], rec, "pimc", seed, worlds=worlds, threads=threads,
                                      hands=d[:n_pimc, 0], first_chunk=chunk0)
    lv = np.array(levels)
    cols: dict[str, object] = {"deal": np.arange(first, first + n), "hand": d[:, 0].astype(np.uint32),
                               "talon": d[:, 1].astype(np.uint32), "left": d[:, 2].astype(np.uint32),
                               "right": d[:, 3].astype(np.uint32)}
    cols.update(hand_features(d[:, 0], rec))
    arr = rec.to_array()
    cols["bid_cap"] = np.array([bid_cap(int(h), arr) for h in d[:, 0]], dtype=np.int16)
    df = pl.DataFrame(cols).with_columns(
        pass_points=pl.Series(passed[:, 0], dtype=pl.Int16),
        dd_points=pl.Series(dd, dtype=pl.Int16),
        heuristic_points=pl.Series(heur, dtype=pl.Int16),
        pimc_points=pl.Series([int(x) if x >= 0 else None for x in pimc], dtype=pl.Int16),
    )
    for m, pts in (("dd", dd), ("heuristic", heur)):
        df = df.with_columns(pl.Series(f"{m}_made", pts[:, None] >= lv[None, :], dtype=pl.Array(pl.Boolean, len(lv))))
    pimc_made = [list(map(bool, x >= lv)) if x >= 0 else None for x in pimc]
    return df.with_columns(pl.Series("pimc_made", pimc_made, dtype=pl.Array(pl.Boolean, len(lv))))


def read_metadata(path: Path) -> dict:
    import pyarrow.parquet as pq

    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): json.loads(v) for k, v in raw.items() if k.decode() != "ARROW:schema"}


# The columns a reader of a bid table needs (``analysis.marriages.marriage_worth``, the summaries).
TABLE_COLUMNS = ("hand", "talon", "aces", "marriage_value", "bid_cap", "pass_points", "dd_points", "heuristic_points",
                 "pimc_points")


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


MARRIAGE_CLASSES = ("no marriage", "marriage <100", "marriage 100", "marriages >100")
ACE_CLASSES = ("0", "1", "2", "3+")


def _marriage_class_expr() -> pl.Expr:
    mv = pl.col("marriage_value")
    return (pl.when(mv == 0).then(pl.lit(MARRIAGE_CLASSES[0])).when(mv < 100).then(pl.lit(MARRIAGE_CLASSES[1]))
            .when(mv == 100).then(pl.lit(MARRIAGE_CLASSES[2])).otherwise(pl.lit(MARRIAGE_CLASSES[3])))


def _aces_class_expr() -> pl.Expr:
    return pl.col("aces").clip(0, 3).cast(pl.String).str.replace("3", "3+")


def _class_expr() -> pl.Expr:
    """A hand's class: the marriages it holds (by value) and its aces, e.g. "marriage 100, aces 2"."""
    return _marriage_class_expr() + pl.lit(", aces ") + _aces_class_expr()


# ---- the result: make-rates by hand class, the declarers compared, the cheat sheets ------------------------


@dataclasses.dataclass(frozen=True)
class MakeRate:
    """How often one declarer made one contract in one hand class.

    - ``contract``: the contract (points);
    - ``k``: the deals on which the declarer's points reached it, of ``n`` deals;
    - ``p``: ``k / n`` (NaN when ``n`` is 0);
    - ``ci_low``, ``ci_high``: its Wilson 95% interval (NaN when ``n`` is 0).
    """

    contract: int
    k: int
    n: int
    p: float
    ci_low: float
    ci_high: float


@dataclasses.dataclass(frozen=True)
class ClassCurve:
    """The make-rate curves of one hand class (the marriages held, by value, and the aces of the 7
    cards, e.g. "marriage 100, aces 2").

    - ``hand_class``: its name;
    - ``n``: the deals of the class; ``n_pimc``: those pimc played too;
    - ``bidding_cap``: the lowest bidding cap among its hands (what the rules let them bid);
    - ``dd``, ``heuristic``, ``pimc``: each declarer's ``MakeRate`` for every contract of the
      table, lowest first (pimc's over the deals it played).
    """

    hand_class: str
    n: int
    n_pimc: int
    bidding_cap: int
    dd: tuple[MakeRate, ...]
    heuristic: tuple[MakeRate, ...]
    pimc: tuple[MakeRate, ...]

    def rates(self, method: str) -> tuple[MakeRate, ...]:
        """The make-rates of ``method`` (one of METHODS)."""
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        return getattr(self, method)

    def to_dict(self) -> dict:
        return {"hand_class": self.hand_class, "n": self.n, "n_pimc": self.n_pimc, "bidding_cap": self.bidding_cap,
                "methods": {m: [dataclasses.asdict(r) for r in self.rates(m)] for m in METHODS}}


@dataclasses.dataclass(frozen=True)
class ComparisonRow:
    """The three declarers on the same deals (those pimc played) at one contract, or pooled over a
    range of contracts.

    - ``contract``: the contract ("100") or the range pooled ("100-200": every contract of the
      table up to 200; the rate is the mean over deals of the share of those contracts made);
    - ``n``: the deals;
    - ``dd``, ``heuristic``, ``pimc``: each one's make-rate with its 95% interval: Wilson's for a
      contract, and for the range a normal interval clustered by deal (a deal's contracts are not
      independent trials).
    """

    contract: str
    n: int
    dd: Rate
    heuristic: Rate
    pimc: Rate

    def to_dict(self) -> dict:
        return {"contract": self.contract, "n": self.n, "dd": self.dd, "heuristic": self.heuristic,
                "pimc": self.pimc}


@dataclasses.dataclass(frozen=True)
class RiskBid:
    """The highest bid a hand class makes at least ``1 - risk`` of the time, and the range of bids
    the 95% intervals allow. Every bid None when no bid qualifies (pass).

    - ``risk``: the failure chance accepted;
    - ``bid``: the highest bid whose make-rate is at least ``1 - risk``;
    - ``low``: the highest whose whole interval lies at or above ``1 - risk``;
    - ``high``: the highest whose interval reaches ``1 - risk``.
    """

    risk: float
    bid: int | None
    low: int | None
    high: int | None


@dataclasses.dataclass(frozen=True)
class CheatRow:
    """One hand class's line of a cheat sheet (``cheat_sheet``): what to bid with it.

    - ``hand_class``, ``method`` (the declarer whose make-rates it uses), ``n`` (its deals; pimc:
      those pimc played), ``bidding_cap`` (the class's lowest cap: no bid above it);
    - ``bids``: a ``RiskBid`` for each risk (CHEAT_RISKS), in that order;
    - ``first_hand_bid`` (None: pass), ``first_hand_ev`` and its 95% interval ``first_hand_ev_ci``:
      first hand's bid of best expected score (forced to bid under ``forced_first_bid``);
    - ``pass_ev`` and ``pass_ev_ci``: the expected score of passing (measured as PASS_SEAT hand);
    - ``later_hand_bid`` (None: pass) and ``later_hand_ev``: a later hand's choice, a bid only
      when it beats passing.

    Scores are from a zero score off the barrel: +b made, -b failed.
    """

    hand_class: str
    method: str
    n: int
    bidding_cap: int
    bids: tuple[RiskBid, ...]
    first_hand_bid: int | None
    first_hand_ev: float
    first_hand_ev_ci: tuple[float, float]
    pass_ev: float
    pass_ev_ci: tuple[float, float]
    later_hand_bid: int | None
    later_hand_ev: float

    def at_risk(self, risk: float) -> RiskBid:
        """The ``RiskBid`` of ``risk`` (one of the risks the sheet was made for)."""
        for b in self.bids:
            if b.risk == risk:
                return b
        raise ValueError(f"this cheat sheet was made for the risks {[b.risk for b in self.bids]}, not {risk}")

    def to_dict(self) -> dict:
        row: dict = {"hand_class": self.hand_class, "method": self.method, "n": self.n,
                     "bidding_cap": self.bidding_cap}
        for b in self.bids:
            key = f"bid_at_risk_{b.risk:g}"
            row[key], row[key + "_low"], row[key + "_high"] = b.bid, b.low, b.high
        row.update(first_hand_bid=self.first_hand_bid, first_hand_ev=self.first_hand_ev,
                   first_hand_ev_ci=list(self.first_hand_ev_ci), pass_ev=self.pass_ev,
                   pass_ev_ci=list(self.pass_ev_ci), later_hand_bid=self.later_hand_bid,
                   later_hand_ev=self.later_hand_ev)
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
BID_TABLES = ("classes", "comparison", "cheat_sheet", "methods", "deals")


@dataclasses.dataclass(frozen=True)
class BidTable:
    """What ``thousand tables bids`` finds in a stored bid table (``tables_bids``,
    ``summarize_bid_table``).

    - ``table_file``: the stored table (one row a deal: ``bids.parquet``);
    - ``provenance``: the metadata stored with it, as stored (version, code fingerprint, rules,
      seed, sizes, levels, the declarer and the pass line);
    - ``rules``: the house rules the deals were played under;
    - ``deals``, ``seed``, ``pimc_deals`` (the first deals, also played by pimc), ``worlds`` (a
      pimc decision's), ``levels`` (the contracts, lowest first): how the table was made;
    - ``min_n``: the deals a hand class needs to appear in the summary and the cheat sheets;
    - ``classes``: the make-rate curves of every hand class (``ClassCurve``), by name;
    - ``comparison``: the three declarers on the deals pimc played, at COMPARE_LEVELS and pooled
      (``ComparisonRow``; their ``n`` is 0 when pimc played none);
    - ``cheat_sheet``: the cheat sheets of every method (``CheatRow``), METHODS in order, each
      class of at least ``min_n`` deals;
    - ``method_rates``: the declarers' make-rates up to PLOT_MAX_LEVEL on the deals pimc played,
      without and with a marriage (``MethodRate``; empty when pimc played none), for the plot;
    - ``plot_file``: where the make-rate curves are drawn (beside the table);
      ``methods_plot_file``: where the declarers compared are (None when pimc played no deal).

    ``to_dict()`` is what ``--json`` prints (the plots' data and paths are not in it).
    ``to_polars(table=...)`` gives one table as a DataFrame: "classes" (the default: one row a
    class, method and contract), "comparison", "cheat_sheet", "methods" (``method_rates``) or
    "deals" (the stored table itself, read from ``table_file``).
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
    classes: tuple[ClassCurve, ...]
    comparison: tuple[ComparisonRow, ...]
    cheat_sheet: tuple[CheatRow, ...]
    method_rates: tuple[MethodRate, ...]
    plot_file: Path
    methods_plot_file: Path | None

    def curve(self, hand_class: str) -> ClassCurve | None:
        """The curves of ``hand_class`` (None: no deal of it)."""
        return next((c for c in self.classes if c.hand_class == hand_class), None)

    def cheat_sheet_of(self, method: str) -> tuple[CheatRow, ...]:
        """The cheat sheet of one method."""
        return tuple(r for r in self.cheat_sheet if r.method == method)

    @property
    def plot_files(self) -> tuple[Path, ...]:
        """The plots of this table: the curves, and the declarers compared when pimc played."""
        return (self.plot_file,) + ((self.methods_plot_file,) if self.methods_plot_file is not None else ())

    def to_dict(self) -> dict:
        return {**self.provenance, "table_file": str(self.table_file), "min_n": self.min_n,
                "classes": [c.to_dict() for c in self.classes],
                "comparison": [r.to_dict() for r in self.comparison],
                "cheat_sheet": {m: [r.to_dict() for r in self.cheat_sheet_of(m)] for m in METHODS}}

    def to_polars(self, table: str = "classes") -> pl.DataFrame:
        """One of BID_TABLES as a DataFrame (see the class's docstring)."""
        if table == "classes":
            schema = {"hand_class": pl.String, "n_class": pl.Int64, "n_pimc": pl.Int64, "bidding_cap": pl.Int64,
                      "method": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64, "p": pl.Float64,
                      "ci_low": pl.Float64, "ci_high": pl.Float64}
            rows = [(c.hand_class, c.n, c.n_pimc, c.bidding_cap, m, *dataclasses.astuple(r))
                    for c in self.classes for m in METHODS for r in c.rates(m)]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "comparison":
            schema = {"contract": pl.String, "n": pl.Int64}
            for m in METHODS:
                schema.update({m: pl.Float64, f"{m}_ci_low": pl.Float64, f"{m}_ci_high": pl.Float64})
            rows = [(r.contract, r.n, *(x for m in METHODS for x in getattr(r, m))) for r in self.comparison]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "cheat_sheet":
            risks = self.cheat_sheet[0].bids if self.cheat_sheet else ()
            schema = {"hand_class": pl.String, "method": pl.String, "n": pl.Int64, "bidding_cap": pl.Int64}
            for b in risks:
                key = f"bid_at_risk_{b.risk:g}"
                schema.update({key: pl.Int64, key + "_low": pl.Int64, key + "_high": pl.Int64})
            schema.update({"first_hand_bid": pl.Int64, "first_hand_ev": pl.Float64,
                           "first_hand_ev_ci_low": pl.Float64, "first_hand_ev_ci_high": pl.Float64,
                           "pass_ev": pl.Float64, "pass_ev_ci_low": pl.Float64, "pass_ev_ci_high": pl.Float64,
                           "later_hand_bid": pl.Int64, "later_hand_ev": pl.Float64})
            rows = [(r.hand_class, r.method, r.n, r.bidding_cap, *(x for b in r.bids for x in (b.bid, b.low, b.high)),
                     r.first_hand_bid, r.first_hand_ev, *r.first_hand_ev_ci, r.pass_ev, *r.pass_ev_ci,
                     r.later_hand_bid, r.later_hand_ev) for r in self.cheat_sheet]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "methods":
            schema = {"group": pl.String, "method": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64,
                      "p": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
            return pl.DataFrame([dataclasses.astuple(r) for r in self.method_rates], schema=schema, orient="row")
        if table == "deals":
            return pl.read_parquet(self.table_file)
        raise ValueError(f"table must be one of {', '.join(BID_TABLES)}, not {table!r}")


def comparison(path: Path) -> tuple[ComparisonRow, ...]:
    """Make-rates of the three declarers on the deals pimc played, at COMPARE_LEVELS and over all."""
    meta = read_metadata(path)
    df = pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null()).collect()
    rows = []
    for lv in COMPARE_LEVELS:
        rates = {}
        for m in METHODS:
            k = int((df[f"{m}_points"] >= lv).sum()) if df.height else 0
            rates[m] = wilson_rate(k, df.height)
        rows.append(ComparisonRow(contract=str(lv), n=df.height, **rates))
    # Every contract from 100 to 200 over the same deals: the levels of one deal are one cluster,
    # not independent trials. The rate is the mean over deals of the share of levels made, and
    # its interval comes from the spread of that share between deals.
    pooled = [lv for lv in meta["levels"] if lv <= 200]
    rates = {}
    for m in METHODS:
        pts = df[f"{m}_points"].to_numpy()
        share = np.mean([pts >= lv for lv in pooled], axis=0) if df.height else np.zeros(0)
        mean = float(share.mean()) if df.height else math.nan
        lo, hi = mean_interval(mean, float(share.std(ddof=1)) if df.height > 1 else math.nan, df.height)
        rates[m] = (mean, max(0.0, lo), min(1.0, hi)) if df.height > 1 else (mean, lo, hi)
    rows.append(ComparisonRow(contract=f"{pooled[0]}-{pooled[-1]}", n=df.height, **rates))
    return tuple(rows)


METHODS_PLOT_FILE = "bid_methods.png"
PLOT_MAX_LEVEL = 220


def method_rates(path: Path) -> tuple[MethodRate, ...]:
    """The make-rate of every contract up to PLOT_MAX_LEVEL for the three declarers on the deals
    pimc played, hands without a marriage and hands with one (METHOD_GROUPS), each with its Wilson
    95% interval; empty when pimc played no deal."""
    levels = [lv for lv in read_metadata(path)["levels"] if lv <= PLOT_MAX_LEVEL]
    df = pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null()).select(
        "marriage_value", *[f"{m}_points" for m in METHODS]).collect()
    if not df.height:
        return ()
    out = []
    for group, part in zip(METHOD_GROUPS, (df.filter(pl.col("marriage_value") == 0),
                                           df.filter(pl.col("marriage_value") > 0)), strict=True):
        for m in METHODS:
            pts = part[f"{m}_points"].to_numpy()
            for lv in levels:
                k = int((pts >= lv).sum())
                out.append(MethodRate(group, m, lv, k, part.height, *wilson_rate(k, part.height)))
    return tuple(out)


# ---- curves and the cheat sheet ------------------------------------------------------------------------
def class_curves(path: Path, levels: list[int] | None = None) -> tuple[ClassCurve, ...]:
    """Per hand class, by name: its deals (``n``, ``n_pimc``), the lowest bidding cap among them,
    and per method the make-rate of every contract in ``levels`` with its Wilson 95% interval (pimc
    on the deals it played). Read lazily with Polars."""
    meta = read_metadata(path)
    levels = levels or meta["levels"]
    lf = pl.scan_parquet(path).with_columns(hand_class=_class_expr())
    exprs = [pl.len().alias("n"), pl.col("pimc_points").is_not_null().sum().alias("n_pimc"),
             pl.col("bid_cap").min().alias("cap")]
    for lv in levels:
        for m in METHODS:
            exprs.append((pl.col(f"{m}_points") >= lv).sum().alias(f"{m}_{lv}"))
    out = []
    for r in lf.group_by("hand_class").agg(exprs).sort("hand_class").collect().iter_rows(named=True):
        methods = {}
        for m in METHODS:
            n = r["n_pimc"] if m == "pimc" else r["n"]
            methods[m] = tuple(MakeRate(lv, r[f"{m}_{lv}"], n, *wilson_rate(r[f"{m}_{lv}"], n)) for lv in levels)
        out.append(ClassCurve(hand_class=r["hand_class"], n=r["n"], n_pimc=r["n_pimc"], bidding_cap=r["cap"],
                              **methods))
    return tuple(out)


CHEAT_RISKS = (0.3, 0.5)


def cheat_sheet(path: Path, *, method: str = "heuristic", risks: tuple[float, ...] = CHEAT_RISKS,
                min_n: int = 30, curves: tuple[ClassCurve, ...] | None = None) -> tuple[CheatRow, ...]:
    """For each hand class of at least ``min_n`` deals (pimc: deals it played): the highest bid
    made at least 1 - risk of the time, with the range of bids the 95% intervals allow (the highest
    whose interval lies wholly above 1 - risk, the highest whose interval reaches it); the bid of
    best expected score for first hand and for later hands (a bid only when it beats passing, whose
    expected score is measured on the same deals: ``pass_points``); all up to the class's bidding
    cap. First hand, forced to bid (``forced_first_bid``), always bids: the minimum bid when it is
    above his cap (a hand without a marriage under ``min_bid = 125``), the only bid he may make;
    not forced, he bids only when it beats passing, like later hands. A bid the hand cannot make
    is None (pass). Scores from a zero score off the barrel: +b made, -b failed. ``curves``: the
    table's ``class_curves``, when the caller has them."""
    meta = read_metadata(path)
    rules = HouseRules.from_dict(meta["rules"])
    sit = Situation()
    curves = curves if curves is not None else class_curves(path)
    passes = (pl.scan_parquet(path).with_columns(hand_class=_class_expr()).group_by("hand_class")
              .agg(mean=pl.col("pass_points").cast(pl.Float64).mean(),
                   sd=pl.col("pass_points").cast(pl.Float64).std(), n=pl.len()).collect())
    pass_by = {r["hand_class"]: r for r in passes.iter_rows(named=True)}

    def expected(r: MakeRate, n: int) -> tuple:
        gain, loss = made_gain(r.contract, rules, sit), fail_loss(r.contract, rules, sit)
        ev = r.p * gain - (1 - r.p) * loss
        sd = math.sqrt(r.p * (1 - r.p)) * (gain + loss) * math.sqrt(n / max(1, n - 1))
        return (r.contract, ev, *mean_interval(ev, sd, n))

    rows = []
    for c in curves:
        n = c.n_pimc if method == "pimc" else c.n
        if n < min_n:
            continue
        rates = [r for r in c.rates(method) if r.contract <= c.bidding_cap]
        bids = []
        for risk in risks:
            need = 1 - risk
            bids.append(RiskBid(risk=risk, bid=max((r.contract for r in rates if r.p >= need), default=None),
                                low=max((r.contract for r in rates if r.ci_low >= need), default=None),
                                high=max((r.contract for r in rates if r.ci_high >= need), default=None)))
        p = pass_by[c.hand_class]
        passing = (None, p["mean"], *mean_interval(p["mean"], p["sd"], p["n"]))
        best = max((expected(r, n) for r in rates), key=lambda e: (e[1], -e[0]), default=None)
        if rules.forced_first_bid:
            first = best or expected(next(r for r in c.rates(method) if r.contract == rules.min_bid), n)
        else:
            first = best if best is not None and best[1] > p["mean"] else passing
        rows.append(CheatRow(
            hand_class=c.hand_class, method=method, n=n, bidding_cap=c.bidding_cap, bids=tuple(bids),
            first_hand_bid=first[0], first_hand_ev=first[1], first_hand_ev_ci=(first[2], first[3]),
            pass_ev=p["mean"], pass_ev_ci=(passing[2], passing[3]),
            later_hand_bid=best[0] if best is not None and best[1] > p["mean"] else None,
            later_hand_ev=max(best[1], p["mean"]) if best is not None else p["mean"]))
    return tuple(rows)


def summarize_bid_table(path: Path, *, min_n: int = 30) -> BidTable:
    """The ``BidTable`` of the stored bid table ``path`` (``build_bid_tables``): its make-rate
    curves by hand class (every method, every contract, 95% intervals), the three declarers
    compared on the deals pimc played, and the cheat sheets of heuristic play, pimc and double
    dummy, for the classes of at least ``min_n`` deals. Read lazily with Polars."""
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    path = Path(path)
    meta = read_metadata(path)
    curves = class_curves(path)  # read once for the summary, the cheat sheets and the plot
    compared = comparison(path)
    return BidTable(
        table_file=path, provenance=meta, rules=HouseRules.from_dict(meta["rules"], source=f"the bid table {path}"),
        deals=meta["sample_size"], seed=meta["seed"], pimc_deals=meta["pimc_deals"], worlds=meta["worlds"],
        levels=tuple(meta["levels"]), min_n=min_n, classes=curves, comparison=compared,
        cheat_sheet=tuple(r for m in METHODS for r in cheat_sheet(path, method=m, min_n=min_n, curves=curves)),
        method_rates=method_rates(path), plot_file=path.with_name(PLOT_FILE),
        methods_plot_file=path.with_name(METHODS_PLOT_FILE) if compared[0].n else None)


def tables_bids(*, deals: int, rules: str = "classic", seed: int = 0, out: Path = Path("out/tables"),
                pimc_deals: int = 100, worlds: int | None = None, threads: int | None = None,
                progress: Progress | None = None, min_n: int = 30, backend: Backend | None = None,
                fresh: bool = False) -> BidTable:
    """What ``thousand tables bids`` does: build the table (or reuse the stored one made with the
    same arguments by the same code; ``fresh``: replace one of other code or arguments), then
    summarise it (``worlds`` None is the advisor's ADVICE_WORLDS). ``progress`` follows the parts
    played (``build_bid_tables``)."""
    worlds = ADVICE_WORLDS if worlds is None else worlds
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    path = build_bid_tables(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                            threads=threads, progress=progress, backend=backend, fresh=fresh)
    return summarize_bid_table(path, min_n=min_n)
