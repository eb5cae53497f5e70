"""The summaries of a stored bid table (``analysis.bids.classes``): make-rates falling with the
contract, clustered pooled intervals, every cheat-sheet advice recomputed from the stored table,
the summary and the plots."""

import math

import numpy as np
import polars as pl
import pytest
from reference_bid_value import levels_tested, settled_twin

from analysis.bids.classes import (
    GROUPINGS,
    MARRIAGE_CLASSES,
    METHODS_PLOT_FILE,
    PLOT_FILE,
    POOLED_TOP,
    class_curves,
    class_expr,
    comparison,
    summarize_bid_table,
)
from analysis.bids.parts import LINE_FIELDS, line_limits
from analysis.bids.results import METHOD_GROUPS, METHODS
from analysis.bids.table import build_bid_tables, read_metadata
from analysis.bids.value import MIN_REACHED, PLATEAU_ALPHA, SETTLE_MARGIN, TESTED_SHARE


def test_make_rates_fall_with_the_contract(table):
    """The declarers who play once (heuristic, dd, pimc) make a contract only if they make every
    lower one, deal by deal, so their class make-rates never rise with the contract. The learned
    declarer plays each contract apart: deal by deal he may make 125 after failing 120 (his net reads
    the contract, and his search draws other worlds for another contract), so over all deals his
    make-rate falls from 100 to the top, and at no step of 10 points does it rise by more than a deal
    or two of the table's."""
    _, path = table
    df = pl.read_parquet(path)
    for m in ("heuristic", "dd", "pimc"):
        made = np.array([x for x in df[f"{m}_made"].to_list() if x is not None], dtype=int)
        assert np.all(np.diff(made, axis=1) <= 0)
    for c in class_curves(path):
        for m in ("heuristic", "dd", "pimc"):
            ks = [r.k for r in c.rates(m)]
            assert ks == sorted(ks, reverse=True)
    learned = np.array(df["learned_made"].to_list()).mean(axis=0)[::2]  # 100, 110, 120, ...
    assert np.all(np.diff(learned) <= 2 / df.height) and learned[0] > learned[-1]


def test_summary_and_plot(table, tmp_path):
    from analysis.present.bids import bid_table_lines, plot_bid_make_rates, plot_bid_methods

    out, path = table
    result = summarize_bid_table(path, min_n=1)
    lines = bid_table_lines(result, None)
    text = "\n".join(lines)
    assert "learned×3" in text and "checked against pimc" in text and "cheat sheet" in text
    # Every class row and every seat row of the cheat sheet names its players.
    rows = [ln for ln in lines if ln.startswith(tuple(MARRIAGE_CLASSES)) and " deals, bidding cap" not in ln]
    seat_rows = [ln for ln in lines if ln.strip().startswith(("first hand:", "second hand:", "third hand:"))]
    assert rows and seat_rows and all("learned×3" in ln for ln in rows + seat_rows)
    assert len(seat_rows) == 3 * len(result.cheat_sheet)
    assert lines[-2:] == [f"plot: {out / PLOT_FILE}", f"plot: {out / METHODS_PLOT_FILE}"]
    plot_bid_make_rates(result, tmp_path / "rates.png")
    plot_bid_methods(result, tmp_path / "methods.png")
    assert (tmp_path / "rates.png").stat().st_size > 1000 and (tmp_path / "methods.png").stat().st_size > 1000
    cmp = comparison(path)
    assert cmp == result.comparison and cmp[0].contract == "100" and cmp[0].n == 3
    # The declarers compared on the deals pimc played, as the plot draws them: 3 deals in two groups.
    groups = {r.group: r.n for r in result.method_rates}
    assert sum(groups.values()) == 3 and set(groups) <= set(METHOD_GROUPS)
    # The classes are a player's: marriage by suit and aces, all deals in one class each.
    assert sum(c.n for c in result.classes) == 80
    assert all(c.hand_class.split(", ")[0] in MARRIAGE_CLASSES for c in result.classes)


def test_the_pooled_contracts_are_clustered_by_deal(tmp_path):
    """The 100-200 row counts each deal once: the mean over deals of the share of the contracts it
    made, with a normal interval from the spread between deals (a deal's 21 contracts are one
    cluster), here counted deal by deal; it is wider than the interval that takes the 21 levels of
    a deal as independent trials. The paired difference learned minus pimc likewise."""
    import statistics

    from analysis.stats import wilson_interval

    path = build_bid_tables(deals=60, seed=8, out=tmp_path, pimc_deals=40, worlds=2)
    df = pl.read_parquet(path).filter(pl.col("pimc_points").is_not_null())
    levels = read_metadata(path)["levels"]
    pooled = [j for j, lv in enumerate(levels) if lv <= POOLED_TOP]
    row = comparison(path)[-1]
    assert row.contract == f"{levels[0]}-{levels[pooled[-1]]}" and row.n == df.height == 40
    z = 1.959963984540054
    shares = {}
    for m in METHODS:
        made = [[bool(x[j]) for j in pooled] for x in df[f"{m}_made"].to_list()]
        share = [sum(x) / len(x) for x in made]
        shares[m] = share
        mean = sum(share) / len(share)
        half = z * statistics.stdev(share) / math.sqrt(len(share))
        e = getattr(row, m)
        assert (e.value, e.low, e.high) == pytest.approx((mean, max(0.0, mean - half), min(1.0, mean + half)))
        k = sum(sum(x) for x in made)
        lo, hi = wilson_interval(k, len(made) * len(pooled))  # the 21 levels taken as independent: too narrow
        if 0 < mean < 1:
            assert hi - lo < e.high - e.low
    diff = [a - b for a, b in zip(shares["learned"], shares["pimc"], strict=True)]
    mean = sum(diff) / len(diff)
    half = z * statistics.stdev(diff) / math.sqrt(len(diff))
    assert (row.diff.value, row.diff.low, row.diff.high) == pytest.approx((mean, mean - half, mean + half))


def _race(changes):
    """Seat 0's race result of a line: his change minus the opponents' mean."""
    return changes[0] - (changes[1] + changes[2]) / 2


@pytest.fixture(scope="module")
def table1500(tmp_path_factory):
    """A table large enough for some levels to be reached in MIN_REACHED deals of a class."""
    return build_bid_tables(deals=1500, seed=5, out=tmp_path_factory.mktemp("t1500"), pimc_deals=0)


@pytest.mark.parametrize("objective", ["race", "own"])
def test_every_advice_beats_passing_by_the_numbers_printed_beside_it(table1500, objective):
    """Recomputed by plain loops over the stored rows: for each class and seat, the plateau and the
    advised bid are the settled rule's naive twin's (tests/reference_bid_value.py), the printed gain
    is the advised line's, its interval above 0; "pass" only where passing is in the plateau and no
    tested line beats passing with its interval above 0."""
    path = table1500
    result = summarize_bid_table(path, min_n=MIN_REACHED, objective=objective)
    assert result.cheat_sheet and result.detail and result.objective == objective
    stored = pl.read_parquet(path)
    rows = {g: stored.with_columns(hand_class=class_expr(g)).to_dicts() for g in GROUPINGS}
    levels = read_metadata(path)["levels"]
    advised = 0
    for r in result.cheat_sheet + result.detail:
        deals = [d for d in rows[r.grouping] if d["hand_class"] == r.hand_class]
        assert len(deals) == r.n >= MIN_REACHED and r.bidding_cap == min(d["bid_cap"] for d in deals)
        limits = line_limits(r.bidding_cap, levels)
        for s in r.seats:
            def value(d, k, seat=s.seat):
                changes = [d[f"{seat}_change{i}"][k] for i in range(3)]
                return _race(changes) if objective == "race" else changes[0]

            # Where the auction reached each level: the deals whose stored row differs from the line
            # one step lower there; bidding the level against passing there.
            fields = list(LINE_FIELDS)
            steps = {}
            for k in range(1, len(limits)):
                reached = [d for d in deals if any(d[f"{s.seat}_{f}"][k] != d[f"{s.seat}_{f}"][k - 1] for f in fields)]
                steps[limits[k]] = (len(reached), sum(value(d, k) - value(d, k - 1) for d in reached) / len(reached)
                                    if reached else math.nan)
            assert [v.limit for v in s.lines] == limits
            assert s.passing.value == pytest.approx(sum(value(d, 0) for d in deals) / len(deals))
            # Each line "bid up to b" against always passing, over all the class's deals.
            gains = {limits[k]: (steps[limits[k]][0], sum(value(d, k) - value(d, 0) for d in deals) / len(deals))
                     for k in range(1, len(limits))}
            assert [v.gain.value for v in s.lines[1:]] == pytest.approx([g for _, g in gains.values()])
            # The twin decides on the table's own gains (equal to the loops' above), so that a tie is
            # not broken by the last bit of a sum taken in another order.
            gains = {v.limit: (gains[v.limit][0], v.gain.value) for v in s.lines[1:]}
            tested = levels_tested(gains, max(MIN_REACHED, TESTED_SHARE * len(deals)))
            outcomes = {limits[k]: [value(d, k) for d in deals] for k in range(len(limits))}
            bid, plateau, beyond = settled_twin(outcomes, {b: steps[b][0] for b in limits[1:]}, MIN_REACHED,
                                                SETTLE_MARGIN[objective], PLATEAU_ALPHA, share=TESTED_SHARE)
            assert s.bid == bid and s.beyond == beyond
            assert (s.plateau_pass, s.plateau_low, s.plateau_high) == (
                -1 in plateau, min((b for b in plateau if b > 0), default=None), max(plateau) if max(plateau) > 0
                else None)
            assert s.plateau_open == (max(plateau) > 0 and not any(b > max(plateau) for b, _ in tested))
            if s.beyond is not None:
                assert s.beyond_gain == pytest.approx(gains[s.beyond][1])
            if s.bid is None:  # pass only where no tested line beats passing with its interval above 0
                assert math.isnan(s.gain.value) and s.plateau_pass
                assert all(v.gain.low <= 0 for v in s.lines[1:] if v.tested)
            else:
                advised += 1
                assert (s.reached, s.gain.value) == (steps[s.bid][0], pytest.approx(gains[s.bid][1]))
                assert s.gain.low > 0 and s.gain.low <= s.gain.value <= s.gain.high
                assert any(b == s.bid for b, _ in tested)
    assert advised  # some class is worth bidding in some seat
