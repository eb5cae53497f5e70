"""The summaries read from a stored bid table, by hand class: ``summarize_bid_table`` → ``BidTable``.

The hand classes in players' terms (``class_expr``: the marriage held by suit, the aces, refined
by the tens or the longest suit, ``GROUPINGS``); per class the make-rate curves of every declarer
(``class_curves``) and the cheat sheet (``cheat_sheet``: per seat, the auction lines of seat 0
valued by ``analysis.bids.value`` and the bid they recommend; the make levels at 70% and 50% as
risk information); the learned player checked against pimc on the deals pimc played
(``comparison``, ``method_rates``). Everything is read lazily with Polars from the stored table;
nothing is drawn or printed here (``analysis.present`` does).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import polars as pl

from analysis.analysis_dir import read_table_metadata
from analysis.bids.hand import forced_seat_name
from analysis.bids.parts import LINE_FIELDS, SEAT_NAMES, line_limits
from analysis.bids.results import (
    CHEAT_RISKS,
    METHOD_GROUPS,
    METHODS,
    BidTable,
    CheatRow,
    ClassCurve,
    ComparisonRow,
    MakeRate,
    MethodRate,
    RiskBid,
    SeatAdvice,
)
from analysis.bids.value import OBJECTIVES, line_outcome, line_values, plateau, settled
from analysis.measures import clustered_mean
from analysis.stats import Z95, Estimate, holm, two_sided_p
from sim import InputError
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE
from sim.game.rules import HouseRules

__all__ = [
    "PLOT_FILE", "METHODS_PLOT_FILE", "PLOT_MAX_LEVEL", "COMPARE_LEVELS", "POOLED_TOP", "MARRIAGE_CLASSES",
    "ACE_CLASSES", "TEN_CLASSES", "LONG_CLASSES", "GROUPINGS", "MAIN_GROUPING", "class_expr", "line_array",
    "comparison", "method_rates", "class_curves", "cheat_sheet", "summarize_bid_table",
]

PLOT_FILE = "bid_make_rates.png"
METHODS_PLOT_FILE = "bid_methods.png"
PLOT_MAX_LEVEL = 220
COMPARE_LEVELS = (100, 110, 120, 140, 160)
POOLED_TOP = 200  # the pooled row of the comparison: every contract from the minimum bid up to this


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
    the raw results are not stored and read 0 (no objective of ``analysis.bids.value`` but ``win``
    reads the scores, none the results)."""
    out = np.zeros((part.height, m, len(LINE_COLUMNS)), dtype=np.int64)
    for f in LINE_FIELDS:
        values = part[f"{seat}_{f}"].list.head(m).list.to_array(m).to_numpy()
        out[:, :, LINE_COLUMNS.index(f)] = values
        if f.startswith("change"):
            out[:, :, LINE_COLUMNS.index("score" + f[-1])] = values
    return out


def _pooled(made: np.ndarray, deals: np.ndarray) -> Estimate:
    """The mean of a (deals, levels) array of 0/1 (or differences), every deal's levels one cluster:
    ``clustered_mean`` over the deal-level rows."""
    return Estimate(*clustered_mean(made.ravel().astype(np.float64), np.repeat(deals, made.shape[1])),
                    n=made.size, clusters=len(np.unique(deals)))


def comparison(path: Path) -> tuple[ComparisonRow, ...]:
    """Make-rates of the declarers on the deals pimc played, at COMPARE_LEVELS and pooled from the
    minimum bid to POOLED_TOP; the learned player's minus pimc's, paired by deal, with Holm-corrected
    p-values. Empty when pimc played no deal."""
    meta = read_table_metadata(path)
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
        rates = {m: Estimate.share(int(made[m][:, j].sum()), df.height) for m in METHODS}
        rows.append((str(lv), rates, _pooled(made["learned"][:, [j]] - made["pimc"][:, [j]], deals)))
    pooled = [j for j, lv in enumerate(levels) if lv <= POOLED_TOP]
    if len(pooled) > 1:
        # Every contract up to POOLED_TOP over the same deals: the levels of one deal are one cluster.
        rates = {}
        for m in METHODS:
            e = _pooled(made[m][:, pooled], deals)
            rates[m] = dataclasses.replace(e, low=max(0.0, e.low), high=min(1.0, e.high)) if df.height > 1 else e
        rows.append((f"{levels[pooled[0]]}-{levels[pooled[-1]]}", rates,
                     _pooled(made["learned"][:, pooled] - made["pimc"][:, pooled], deals)))
    ps = [two_sided_p(d.value, (d.high - d.value) / Z95) if not math.isnan(d.low) else math.nan for _, _, d in rows]
    adjusted = holm(ps)
    return tuple(ComparisonRow(contract=label, n=df.height, **rates, diff=diff, p_holm=p,
                               differ=bool(not math.isnan(p) and p < 0.05))
                 for (label, rates, diff), p in zip(rows, adjusted, strict=True))


def method_rates(path: Path) -> tuple[MethodRate, ...]:
    """The make-rate of every contract up to PLOT_MAX_LEVEL for every declarer on the deals pimc
    played, hands without a marriage and hands with one (METHOD_GROUPS), each with its Wilson 95%
    interval; empty when pimc played no deal."""
    levels = [lv for lv in read_table_metadata(path)["levels"] if lv <= PLOT_MAX_LEVEL]
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
                out.append(MethodRate(group, m, lv, k, part.height, Estimate.share(k, part.height)))
    return tuple(out)


# ---- curves and the cheat sheet ------------------------------------------------------------------------
def class_curves(path: Path, grouping: str = MAIN_GROUPING) -> tuple[ClassCurve, ...]:
    """Per hand class of ``grouping`` (GROUPINGS), in a player's order: its deals (``n``,
    ``n_pimc``), the lowest bidding cap among them, and per declarer the make-rate of every
    contract of the table with its Wilson 95% interval (pimc on the deals it played). Read lazily
    with Polars."""
    levels = read_table_metadata(path)["levels"]
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
            methods[m] = tuple(MakeRate(lv, r[f"{m}_{j}"], n, Estimate.share(r[f"{m}_{j}"], n))
                               for j, lv in enumerate(levels))
        out.append(ClassCurve(hand_class=r["hand_class"], grouping=grouping, n=r["n"], n_pimc=r["n_pimc"],
                              bidding_cap=r["cap"], **methods))
    return tuple(out)


def _risk_bids(rates: list[MakeRate], risks: tuple[float, ...]) -> tuple[RiskBid, ...]:
    out = []
    for risk in risks:
        need = 1 - risk
        out.append(RiskBid(risk=risk, bid=Estimate(
            max((r.contract for r in rates if r.make.value >= need), default=math.nan),
            max((r.contract for r in rates if r.make.low >= need), default=math.nan),
            max((r.contract for r in rates if r.make.high >= need), default=math.nan))))
    return tuple(out)


def _seat_advice(part: pl.DataFrame, seat: str, limits: list[int], objective: str, forced: bool) -> SeatAdvice:
    lines = line_array(part, seat, len(limits))
    clusters = part["deal"].to_numpy()
    values = line_values(lines, limits, objective=objective, clusters=clusters)
    plat = plateau(values, line_outcome(lines, objective), objective=objective, clusters=clusters)
    verdict = settled(values, plat)
    v, w, top = verdict.line, verdict.beyond, plat.beyond
    passing = values[limits.index(PASS_LINE)]
    return SeatAdvice(seat=seat, forced=forced, n=part.height, bid=verdict.bid,
                      gain=v.gain if v else Estimate.none(part.height), reached=v.reached if v else 0,
                      beyond=w.limit if w else None, beyond_gain=w.gain.value if w else math.nan,
                      untested_from=verdict.untested_from, passing=passing.mean,
                      plateau_low=plat.low, plateau_high=plat.high, plateau_pass=plat.includes_pass,
                      plateau_settled=plat.settled, plateau_beyond=top.limit if top else None,
                      plateau_loss=top.diff.value if top else math.nan, plateau_open=plat.open_top, lines=values)


def cheat_sheet(path: Path, *, grouping: str = MAIN_GROUPING, objective: str = "race",
                risks: tuple[float, ...] = CHEAT_RISKS, min_n: int = 30,
                curves: tuple[ClassCurve, ...] | None = None) -> tuple[CheatRow, ...]:
    """For each hand class of ``grouping`` with at least ``min_n`` deals, in a player's order: per
    seat (first, second, third hand), the auction lines of seat 0 on the class's deals (pass, and
    bid up to each contract from the minimum bid to the class's bidding cap; the learned player in
    every seat, from a zero score) valued under ``objective`` (race: your score change minus the
    opponents' mean; own: yours), the plateau of the lines not shown to lose more than the margin
    against the best and the recommendation of the settled rule (``analysis.bids.value.plateau``,
    ``settled``, clustered by deal); and, as risk information, the highest
    contract the learned declarer makes at least 1 - risk of the time. ``curves``: the table's
    ``class_curves`` of ``grouping``, when the caller has them."""
    if objective not in OBJECTIVES or objective == "win":
        raise InputError(f"--objective must be race or own for the bid table, not {objective!r}")
    meta = read_table_metadata(path)
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
    meta = read_table_metadata(path)
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
