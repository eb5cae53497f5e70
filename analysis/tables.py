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

``summarize_bid_tables`` reads it lazily with Polars, prints make-rates by hand class with 95%
intervals and plots make-rate against the contract.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.advisor import SEATS, check_three_player_deal, fail_loss, made_gain
from analysis.stats import json_ready, mean_interval, wilson_interval
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
    from collections.abc import Callable

    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "METHODS", "COMPARE_LEVELS", "random_deals", "hand_features", "MAX_TABLE_DEALS",
    "levels_for", "build_bid_tables", "PASS_SEAT", "IDENTITY", "TABLE_PART", "PARTS_DIR", "PARTS_SPEC", "parts_kept",
    "play_part", "read_metadata", "TABLE_COLUMNS", "open_bid_table", "MARRIAGE_CLASSES", "ACE_CLASSES", "comparison",
    "summarize_bid_tables", "METHODS_PLOT_FILE", "PLOT_MAX_LEVEL", "METHOD_STYLE", "class_curves", "CHEAT_RISKS",
    "cheat_sheet", "bid_table_summary", "format_cheat_sheet", "tables_bids",
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
                     threads: int | None = None, progress: Callable[[str], None] | None = None,
                     backend: Backend | None = None, fresh: bool = False) -> Path:
    """Play the deals and store the table; returns its path. ``progress(stage)`` is called
    before each stage. The deals are played in parts of TABLE_PART deals, each stored as it is
    finished under ``out/.bids-parts``: an interrupted build resumes with the parts already
    played, and the table is the same as one played in one go (a part draws the random streams it
    would draw in the whole). A stored table (or parts) of other code or arguments is refused
    (``StaleResultError``) unless ``fresh``, which replaces it; the old table stays in place until
    the new one is complete."""
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
    say = progress or (lambda _stage: None)
    damage = _stored_table_problem(path, meta, out, fresh)
    if damage is None:
        say(f"{path} holds this very table ({deals:,} deals, seed {seed}, code {meta[FINGERPRINT]}; its SHA-256 "
            "verified): reused, nothing played")
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


def comparison(path: Path) -> list[dict]:
    """Make-rates of the three declarers on the deals pimc played, at COMPARE_LEVELS and over all."""
    meta = read_metadata(path)
    df = pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null()).collect()
    rows = []
    for lv in COMPARE_LEVELS:
        row = {"contract": lv, "n": df.height}
        for m in METHODS:
            k = int((df[f"{m}_points"] >= lv).sum()) if df.height else 0
            row[m] = (k / df.height if df.height else float("nan"), *wilson_interval(k, df.height))
        rows.append(row)
    pooled = [lv for lv in meta["levels"] if lv <= 200]
    row = {"contract": f"{pooled[0]}-{pooled[-1]}", "n": df.height * len(pooled)}
    for m in METHODS:
        k = int(sum((df[f"{m}_points"] >= lv).sum() for lv in pooled)) if df.height else 0
        row[m] = (k / row["n"] if row["n"] else float("nan"), *wilson_interval(k, row["n"]))
    rows.append(row)
    return rows


def summarize_bid_tables(path: Path, *, plot: Path | None = None, min_n: int = 30,
                         curves: dict[str, dict] | None = None) -> list[str]:
    """The printed summary: make-rates by hand class, the declarers compared, the cheat sheet of
    heuristic play; with ``plot`` the curves (and the declarers compared, beside it) as PNG.
    ``curves``: the table's ``class_curves``, when the caller has them."""
    meta = read_metadata(path)
    shown = [100, 110, 120, 130, 140, 160]
    shown = [lv for lv in shown if lv in meta["levels"]]
    curves = curves if curves is not None else class_curves(path)
    lines = [f"bid-success tables: {meta['sample_size']:,} deals (seed {meta['seed']}), pimc on "
             f"{meta['pimc_deals']:,}; seat 0 declares every contract; make-rates by hand class"]
    head = f"{'hand class':<26}{'n':>7}  " + "  ".join(f"{'dd ' + str(lv):>10}" for lv in shown) + "  " + \
        "  ".join(f"{'heur ' + str(lv):>10}" for lv in shown)
    lines.append(head)
    for c in curves.values():
        if c["n"] < min_n:
            continue
        cells = [f"{r['p']:>10.3f}" for m in ("dd", "heuristic") for r in c["methods"][m] if r["contract"] in shown]
        lines.append(f"{c['hand_class']:<26}{c['n']:>7}  " + "  ".join(cells))
    if meta["pimc_deals"]:
        lines.append(f"declarers compared on the {meta['pimc_deals']:,} deals pimc played (make-rate [95%]):")
        for row in comparison(path):
            cells = "  ".join(f"{m} {row[m][0]:.3f} [{row[m][1]:.3f}, {row[m][2]:.3f}]" for m in METHODS)
            lines.append(f"  {str(row['contract']):>10}: {cells}")
    lines.append(f"cheat sheet (heuristic play; classes of {min_n} deals or more; bids up to the class's lowest "
                 "bidding cap; expected scores from a zero score: +b made, -b failed; passing measured as "
                 f"{PASS_SEAT} hand):")
    lines += format_cheat_sheet(cheat_sheet(path, min_n=min_n, curves=curves))
    if plot is not None:
        lines += [f"plot: {p}" for p in _plots(path, meta, plot, min_n, curves)]
    return lines


def _plots(path: Path, meta: dict, plot: Path, min_n: int, curves: dict[str, dict]) -> list[Path]:
    """The curves to ``plot`` and the declarers compared beside it (when pimc played); the paths
    written."""
    _plot(path, meta, plot, min_n=min_n, curves=curves)
    methods_plot = plot.with_name(METHODS_PLOT_FILE)
    return [plot, methods_plot] if _plot_methods(path, meta, methods_plot) else [plot]


def _plot(path: Path, meta: dict, out: Path, min_n: int = 30, curves: dict[str, dict] | None = None) -> None:
    """Make-rate against the contract, one panel per marriage class, one colour per number of
    aces: heuristic play solid with its 95% band, double dummy dashed."""
    from analysis.present.plots import pyplot, save

    plt = pyplot()
    curves = curves if curves is not None else class_curves(path)
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), sharex=True, sharey=True)
    for ax, mclass in zip(axes.flat, MARRIAGE_CLASSES, strict=True):
        shown = 0
        for i, aces in enumerate(ACE_CLASSES):
            c = curves.get(f"{mclass}, aces {aces}")
            if c is None or c["n"] < min_n:
                continue
            shown += 1
            heur, dd = ([r for r in c["methods"][m] if r["contract"] <= PLOT_MAX_LEVEL] for m in ("heuristic", "dd"))
            x = [r["contract"] for r in heur]
            ax.plot(x, [r["p"] for r in heur], color=f"C{i}", label=f"{aces} aces (n={c['n']:,})")
            ax.fill_between(x, [r["ci_low"] for r in heur], [r["ci_high"] for r in heur], color=f"C{i}", alpha=0.15)
            ax.plot(x, [r["p"] for r in dd], color=f"C{i}", linestyle="--", linewidth=1)
        ax.set_title(mclass)
        if not shown:
            ax.text(0.5, 0.5, f"fewer than {min_n} deals\nin every class of aces", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
        ax.grid(alpha=0.3)
        ax.axhline(0.7, color="grey", linewidth=0.7, linestyle=":")
        ax.axhline(0.5, color="grey", linewidth=0.7, linestyle=":")
        if shown:
            ax.legend(fontsize=8, title="aces in the 7 cards", title_fontsize=8)
    for ax in axes[1]:
        ax.set_xlabel("contract (points)")
    for ax in axes[:, 0]:
        ax.set_ylabel("chance of making it")
    fig.suptitle(f"Make-rate by hand class ({meta['sample_size']:,} deals, seed {meta['seed']})\nheuristic play "
                 "solid with its 95% band, double dummy dashed; dotted lines at 70% and 50%")
    out.parent.mkdir(parents=True, exist_ok=True)
    save(fig, out)


METHODS_PLOT_FILE = "bid_methods.png"
PLOT_MAX_LEVEL = 220
METHOD_STYLE = {"dd": ("double dummy (sees every card)", "C3", "--"), "pimc": ("pimc (realistic)", "C0", "-"),
                "heuristic": ("heuristic player", "C2", "-.")}


def _plot_methods(path: Path, meta: dict, out: Path) -> bool:
    """Make-rate against the contract for the three declarers on the deals pimc played, hands
    without a marriage and hands with one in two panels, each curve with its 95% band; False (no
    plot) when pimc played no deal."""
    from analysis.present.plots import pyplot, save

    levels = [lv for lv in meta["levels"] if lv <= PLOT_MAX_LEVEL]
    df = pl.scan_parquet(path).filter(pl.col("pimc_points").is_not_null()).select(
        "marriage_value", *[f"{m}_points" for m in METHODS]).collect()
    if not df.height:
        return False
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
    for ax, (title, part) in zip(axes, (("hands without a marriage", df.filter(pl.col("marriage_value") == 0)),
                                        ("hands with a marriage", df.filter(pl.col("marriage_value") > 0))),
                                 strict=True):
        for m in METHODS:
            label, colour, style = METHOD_STYLE[m]
            pts = part[f"{m}_points"].to_numpy()
            ks = [int((pts >= lv).sum()) for lv in levels]
            cis = [wilson_interval(k, part.height) for k in ks]
            ax.plot(levels, [k / part.height if part.height else math.nan for k in ks], color=colour,
                    linestyle=style, label=label)
            ax.fill_between(levels, [c[0] for c in cis], [c[1] for c in cis], color=colour, alpha=0.15)
        ax.set_title(f"{title} ({part.height:,} deals)")
        ax.set_xlabel("contract (points)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("chance of making it")
    axes[0].legend()
    fig.suptitle(f"The same {df.height:,} deals declared by three players: make-rate with 95% bands "
                 f"(seed {meta['seed']})")
    save(fig, out)
    return True


# ---- curves and the cheat sheet ------------------------------------------------------------------------
def class_curves(path: Path, levels: list[int] | None = None) -> dict[str, dict]:
    """Per hand class: its deals (``n``, ``n_pimc``), the lowest bidding cap among them, and per
    method the make-rate of every contract in ``levels`` with its Wilson 95% interval (pimc on the
    deals it played). Read lazily with Polars."""
    meta = read_metadata(path)
    levels = levels or meta["levels"]
    lf = pl.scan_parquet(path).with_columns(hand_class=_class_expr())
    exprs = [pl.len().alias("n"), pl.col("pimc_points").is_not_null().sum().alias("n_pimc"),
             pl.col("bid_cap").min().alias("cap")]
    for lv in levels:
        for m in METHODS:
            exprs.append((pl.col(f"{m}_points") >= lv).sum().alias(f"{m}_{lv}"))
    out = {}
    for r in lf.group_by("hand_class").agg(exprs).sort("hand_class").collect().iter_rows(named=True):
        methods = {}
        for m in METHODS:
            n = r["n_pimc"] if m == "pimc" else r["n"]
            methods[m] = [{"contract": lv, "k": r[f"{m}_{lv}"], "n": n, "p": r[f"{m}_{lv}"] / n if n else math.nan,
                           **dict(zip(("ci_low", "ci_high"), wilson_interval(r[f"{m}_{lv}"], n), strict=True))}
                          for lv in levels]
        out[r["hand_class"]] = {"hand_class": r["hand_class"], "n": r["n"], "n_pimc": r["n_pimc"],
                                "bidding_cap": r["cap"], "methods": methods}
    return out


CHEAT_RISKS = (0.3, 0.5)


def cheat_sheet(path: Path, *, method: str = "heuristic", risks: tuple[float, ...] = CHEAT_RISKS,
                min_n: int = 30, curves: dict[str, dict] | None = None) -> list[dict]:
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

    def expected(r: dict, n: int) -> tuple:
        gain, loss = made_gain(r["contract"], rules, sit), fail_loss(r["contract"], rules, sit)
        ev = r["p"] * gain - (1 - r["p"]) * loss
        sd = math.sqrt(r["p"] * (1 - r["p"])) * (gain + loss) * math.sqrt(n / max(1, n - 1))
        return (r["contract"], ev, *mean_interval(ev, sd, n))

    rows = []
    for name, c in curves.items():
        n = c["n_pimc"] if method == "pimc" else c["n"]
        if n < min_n:
            continue
        rates = [r for r in c["methods"][method] if r["contract"] <= c["bidding_cap"]]
        row = {"hand_class": name, "method": method, "n": n, "bidding_cap": c["bidding_cap"]}
        for risk in risks:
            need = 1 - risk
            key = f"bid_at_risk_{risk:g}"
            row[key] = max((r["contract"] for r in rates if r["p"] >= need), default=None)
            row[key + "_low"] = max((r["contract"] for r in rates if r["ci_low"] >= need), default=None)
            row[key + "_high"] = max((r["contract"] for r in rates if r["ci_high"] >= need), default=None)
        p = pass_by[name]
        passing = (None, p["mean"], *mean_interval(p["mean"], p["sd"], p["n"]))
        best = max((expected(r, n) for r in rates), key=lambda e: (e[1], -e[0]), default=None)
        if rules.forced_first_bid:
            first = best or expected(next(r for r in c["methods"][method] if r["contract"] == rules.min_bid), n)
        else:
            first = best if best is not None and best[1] > p["mean"] else passing
        row["first_hand_bid"], row["first_hand_ev"], row["first_hand_ev_ci"] = first[0], first[1], list(first[2:])
        row["pass_ev"], row["pass_ev_ci"] = p["mean"], list(passing[2:])
        row["later_hand_bid"] = best[0] if best is not None and best[1] > p["mean"] else None
        row["later_hand_ev"] = max(best[1], p["mean"]) if best is not None else p["mean"]
        rows.append(row)
    return rows


def bid_table_summary(path: Path, *, min_n: int = 30, curves: dict[str, dict] | None = None) -> dict:
    """What ``thousand tables bids --json`` prints: the table's metadata, the make-rate curves by
    hand class (every method, every contract, 95% intervals), the three declarers compared on the
    deals pimc played, and the cheat sheets of heuristic play, pimc and double dummy."""
    meta = read_metadata(path)
    curves = curves if curves is not None else class_curves(path)
    return json_ready({**meta, "table_file": str(path), "min_n": min_n,
                       "classes": list(curves.values()),
                       "comparison": [{**r, "contract": str(r["contract"])} for r in comparison(path)],
                       "cheat_sheet": {m: cheat_sheet(path, method=m, min_n=min_n, curves=curves) for m in METHODS}})


def format_cheat_sheet(rows: list[dict]) -> list[str]:
    def bid(r, risk):
        key = f"bid_at_risk_{risk:g}"
        if r[key] is None:
            return "none"
        lo, hi = r[key + "_low"], r[key + "_high"]
        return f"{r[key]}" + (f" ({lo or 'none'}–{hi})" if (lo, hi) != (r[key], r[key]) else "")

    lines = [f"{'hand class':<28}{'n':>7}{'cap':>5}  {'bid at 70% (95% range)':<24}{'bid at 50%':<18}"
             f"{'first hand: best EV':<22}{'later hands: best EV':<22}pass EV"]
    for r in rows:
        later = f"{r['later_hand_bid']}" if r["later_hand_bid"] is not None else "pass"
        first = f"{r['first_hand_bid'] if r['first_hand_bid'] is not None else 'pass'} ({r['first_hand_ev']:+.1f})"
        later = f"{later} ({r['later_hand_ev']:+.1f})"
        lines.append(f"{r['hand_class']:<28}{r['n']:>7,}{r['bidding_cap']:>5}  {bid(r, 0.3):<24}{bid(r, 0.5):<18}"
                     f"{first:<22}{later:<22}{r['pass_ev']:+.1f}")
    return lines


def tables_bids(*, deals: int, rules: str = "classic", seed: int = 0, out: Path = Path("out/tables"),
                pimc_deals: int = 100, worlds: int | None = None, threads: int | None = None,
                progress: Callable[[str], None] | None = None, as_json: bool = False, min_n: int = 30,
                backend: Backend | None = None, fresh: bool = False) -> list[str]:
    """What ``thousand tables bids`` does: build the table (or reuse the stored one made with the
    same arguments by the same code; ``fresh``: replace one of other code or arguments), then
    summarise and plot it (``worlds`` None is the advisor's ADVICE_WORLDS); ``as_json``:
    ``bid_table_summary`` as JSON."""
    worlds = ADVICE_WORLDS if worlds is None else worlds
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    path = build_bid_tables(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                            threads=threads, progress=progress, backend=backend, fresh=fresh)
    curves = class_curves(path)  # read once for the text (or JSON), the cheat sheets and the plot
    if as_json:
        _plots(path, read_metadata(path), Path(out) / PLOT_FILE, min_n, curves)
        return [json.dumps(bid_table_summary(path, min_n=min_n, curves=curves), ensure_ascii=False, indent=1,
                           allow_nan=False)]
    return [f"table: {path}"] + summarize_bid_tables(path, plot=Path(out) / PLOT_FILE, min_n=min_n, curves=curves)
