"""Bid-success tables: how often a 7-card hand makes each contract, by hand class.

``build_bid_tables`` plays N random deals. In each, seat 0 is the declarer-to-be: he takes the
talon and plays every contract level from the minimum bid up. Per deal it stores his 7-card hand's
features (card points, aces, tens, marriages by suit, longest suit), the talon, and the points he
takes under each method: ``dd`` (the exact best-discard double-dummy value), ``heuristic`` (every
seat the heuristic player) and, on the first ``pimc_deals`` deals, ``pimc``; a contract b is made
when those points reach b, and the stored ``*_made`` arrays hold that for every level. The table is
one Parquet file written atomically with the rules, seed, version and sample size as metadata;
it is played in parts stored as they finish, so that Ctrl-C loses at most the parts in flight.
``summarize_bid_tables`` reads it lazily with Polars, prints make-rates by hand class with 95%
intervals and plots make-rate against the contract.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl

from analysis.advisor import ADVICE_WORLDS, check_three_player_deal, dd_exact_values, played_points
from analysis.advisor import CHUNK as ADVICE_CHUNK
from analysis.stats import wilson_interval
from sim import __version__
from sim.game.cards import CARD_POINTS
from sim.game.rules import HouseRules, load_rules
from sim.runner import check_output_dir, file_sha256, write_atomic_bytes, write_parquet_atomic

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


def build_bid_tables(*, deals: int, rules: str | HouseRules | None = "classic", seed: int = 0,
                     out: Path = Path("out/tables"), pimc_deals: int = 100, worlds: int = ADVICE_WORLDS,
                     threads: int | None = None, progress=None) -> Path:
    """Play the deals and store the table; returns its path. ``progress(stage)`` is called
    before each stage. The deals are played in parts of TABLE_PART deals, each stored as it is
    finished under ``out/.bids-parts``: an interrupted build resumes with the parts already
    played, and the table is the same as one played in one go (a part draws the random streams it
    would draw in the whole)."""
    rec = rules if isinstance(rules, HouseRules) else load_rules(rules)
    check_three_player_deal(rec)
    if not 1 <= deals <= MAX_TABLE_DEALS:
        raise ValueError(f"--deals must be from 1 to {MAX_TABLE_DEALS:,}, not {deals}")
    if pimc_deals < 0:
        raise ValueError(f"--pimc-deals must be 0 or more, not {pimc_deals}")
    if worlds < 1:
        raise ValueError(f"--worlds must be at least 1, not {worlds}")
    if seed < 0:
        raise ValueError(f"--seed must be 0 or more, not {seed}")
    out = Path(out)
    check_output_dir(out)
    pimc_deals = min(pimc_deals, deals)
    levels = levels_for(rec)
    meta = {
        "thousand_version": __version__, "table": "bids", "sample_size": deals, "seed": seed,
        "pimc_deals": pimc_deals, "worlds": worlds, "levels": levels, "rules": rec.to_dict(),
        "declarer": "seat 0 of each random deal plays every contract from the talon on",
    }
    parts = _parts_dir(out, meta)
    d = random_deals(deals, seed)
    n_parts = -(-deals // TABLE_PART)
    todo = [k for k in range(n_parts) if not _part_done(parts, k)]
    say = progress or (lambda _stage: None)
    say(f"{deals:,} deals in {n_parts} parts of {TABLE_PART:,} ({n_parts - len(todo)} already played): double "
        f"dummy and heuristic play, pimc on the first {pimc_deals:,} ({worlds} worlds a decision)")
    for k in todo:
        lo, hi = k * TABLE_PART, min(deals, (k + 1) * TABLE_PART)
        frame = _play_part(d[lo:hi], lo, rec, seed, pimc_deals, worlds, threads, levels)
        _store_part(parts, k, frame)
        say(f"part {k + 1} of {n_parts} stored")
    df = pl.concat([pl.read_parquet(parts / f"part-{k:05d}.parquet") for k in range(n_parts)])
    path = out / TABLE_FILE
    write_parquet_atomic(df, path, {k: json.dumps(v) for k, v in meta.items()})
    shutil.rmtree(parts)
    return path


# Deals a stored part holds: a multiple of the advisor's chunk of samples, so that a part draws
# the random streams it would draw in the whole table.
TABLE_PART = 1000
assert TABLE_PART % ADVICE_CHUNK == 0
PARTS_DIR = ".bids-parts"


def _parts_dir(out: Path, meta: dict) -> Path:
    """The folder of the parts of this very table; parts of a table built with other arguments are
    thrown away."""
    parts = out / PARTS_DIR
    spec = json.dumps({k: v for k, v in meta.items() if k != "thousand_version"}, sort_keys=True)
    spec_file = parts / "spec.json"
    if parts.exists() and (not spec_file.is_file() or spec_file.read_text(encoding="utf-8") != spec):
        shutil.rmtree(parts)
    if not parts.exists():
        parts.mkdir()
        write_atomic_bytes(spec_file, spec.encode())
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


def _play_part(d: np.ndarray, first: int, rec: HouseRules, seed: int, pimc_deals: int, worlds: int,
               threads: int | None, levels: list[int]) -> pl.DataFrame:
    """Deals ``first`` .. ``first + len(d)`` of the table, as table rows."""
    n = len(d)
    hand10 = d[:, 0] | d[:, 1]
    samples = np.stack([hand10, d[:, 2], d[:, 3]], axis=1)  # column 0 = all ten cards, hand 0
    dd = dd_exact_values(0, samples, rec, threads)
    plays = np.stack([d[:, 1], d[:, 2], d[:, 3]], axis=1)
    chunk0 = first // ADVICE_CHUNK
    heur = played_points(0, plays, rec, "heuristic", seed, threads=threads, hands=d[:, 0], first_chunk=chunk0)
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
    df = pl.DataFrame(cols).with_columns(
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


def _class_expr() -> pl.Expr:
    mv = pl.col("marriage_value")
    return (pl.when(mv == 0).then(pl.lit("no marriage")).when(mv < 100).then(pl.lit("marriage <100"))
            .when(mv == 100).then(pl.lit("marriage 100")).otherwise(pl.lit("marriages >100"))
            + pl.lit(", aces ") + pl.col("aces").clip(0, 3).cast(pl.String).str.replace("3", "3+"))


def make_rates(path: Path, levels: list[int] | None = None) -> pl.DataFrame:
    """Make-rates by hand class and level for dd and heuristic (and pimc where played)."""
    meta = read_metadata(path)
    levels = levels or [lv for lv in meta["levels"] if lv <= 200]
    lf = pl.scan_parquet(path).with_columns(hand_class=_class_expr())
    exprs = [pl.len().alias("n"), pl.col("pimc_points").is_not_null().sum().alias("n_pimc")]
    for lv in levels:
        for m in METHODS:
            exprs.append((pl.col(f"{m}_points") >= lv).sum().alias(f"{m}_{lv}"))
    return lf.group_by("hand_class").agg(exprs).sort("hand_class").collect()


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


def summarize_bid_tables(path: Path, *, plot: Path | None = None, min_n: int = 30) -> list[str]:
    meta = read_metadata(path)
    shown = [100, 110, 120, 130, 140, 160]
    shown = [lv for lv in shown if lv in meta["levels"]]
    rates = make_rates(path, shown)
    lines = [f"bid-success tables: {meta['sample_size']:,} deals (seed {meta['seed']}), pimc on "
             f"{meta['pimc_deals']:,}; seat 0 declares every contract; make-rates by hand class"]
    head = f"{'hand class':<26}{'n':>7}  " + "  ".join(f"{'dd ' + str(lv):>10}" for lv in shown) + "  " + \
        "  ".join(f"{'heur ' + str(lv):>10}" for lv in shown)
    lines.append(head)
    for r in rates.iter_rows(named=True):
        if r["n"] < min_n:
            continue
        cells = [f"{r[f'dd_{lv}'] / r['n']:>10.3f}" for lv in shown]
        cells += [f"{r[f'heuristic_{lv}'] / r['n']:>10.3f}" for lv in shown]
        lines.append(f"{r['hand_class']:<26}{r['n']:>7}  " + "  ".join(cells))
    if meta["pimc_deals"]:
        lines.append(f"declarers compared on the {meta['pimc_deals']:,} deals pimc played (make-rate [95%]):")
        for row in comparison(path):
            cells = "  ".join(f"{m} {row[m][0]:.3f} [{row[m][1]:.3f}, {row[m][2]:.3f}]" for m in METHODS)
            lines.append(f"  {str(row['contract']):>10}: {cells}")
    if plot is not None:
        _plot(path, meta, plot)
        lines.append(f"plot: {plot}")
    return lines


def _plot(path: Path, meta: dict, out: Path) -> None:
    from analysis.plots import pyplot, save

    plt = pyplot()

    levels = [lv for lv in meta["levels"] if lv <= 220]
    rates = make_rates(path, levels)
    fig, ax = plt.subplots(figsize=(9, 6))
    biggest = rates.sort("n", descending=True).head(8).sort("hand_class")
    left_out = rates.height - biggest.height
    for i, r in enumerate(biggest.iter_rows(named=True)):
        color = f"C{i}"
        ax.plot(levels, [r[f"dd_{lv}"] / r["n"] for lv in levels], color=color, label=f"{r['hand_class']} (n={r['n']})")
        ax.plot(levels, [r[f"heuristic_{lv}"] / r["n"] for lv in levels], color=color, linestyle="--")
    ax.set_xlabel("contract (points)")
    ax.set_ylabel("make-rate")
    title = f"Make-rate by hand class: dd solid, heuristic dashed ({meta['sample_size']:,} deals)"
    if left_out:
        n_out = int(rates.sort("n", descending=True).tail(left_out)["n"].sum())
        title += f"\nthe {biggest.height} largest classes; {left_out} smaller ones ({n_out:,} deals) left out"
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    out.parent.mkdir(parents=True, exist_ok=True)
    save(fig, out, tight=False)


def tables_bids(*, deals: int, rules: str = "classic", seed: int = 0, out: Path = Path("out/tables"),
                pimc_deals: int = 100, worlds: int | None = None, threads: int | None = None,
                progress=None) -> list[str]:
    """What ``thousand tables bids`` does: build the table, then summarise and plot it (``worlds``
    None is the advisor's ADVICE_WORLDS)."""
    worlds = ADVICE_WORLDS if worlds is None else worlds
    path = build_bid_tables(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                            threads=threads, progress=progress)
    return [f"table: {path}"] + summarize_bid_tables(path, plot=Path(out) / PLOT_FILE)
