"""The value of bidding lines (``analysis.bids.value``): objectives, the paired gain over passing
and the recommendation rule (the clustered interval it uses: tests/analysis/test_measures.py)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_bid_value import advised_bid, first_above

from analysis.bids.value import MIN_REACHED, TESTED_SHARE, LineValue, line_outcome, line_values, recommended
from analysis.stats import Estimate, stored_row
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE

C = {name: i for i, name in enumerate(LINE_COLUMNS)}


def _lines(rows):
    """(samples, limits, columns) from per-line lists of (change0, change1, change2, declarer, contract,
    winning bid, made)."""
    out = np.zeros((len(rows[0]), len(rows), len(LINE_COLUMNS)), dtype=np.int64)
    for k, line in enumerate(rows):
        for i, row in enumerate(line):
            c0, c1, c2, d, contract, bid, made = (*row, -1, 0, 0, 0)[:7]
            out[i, k, [C["change0"], C["change1"], C["change2"]]] = (c0, c1, c2)
            out[i, k, [C["score0"], C["score1"], C["score2"]]] = (c0, c1, c2)
            out[i, k, [C["declarer"], C["contract"], C["winning_bid"], C["made"]]] = (d, contract, bid, made)
    return out


def test_race_objective_and_the_recommendation_beats_passing():
    # Two deals. Pass: you defend for 20 / 30 while the declarer scores 120 / -100.
    # Up to 120: you declare both, make 120 once and fail 140 (raised from 120) once.
    # Up to 160: you declare at 160 and fail both.
    lines = _lines([
        [(20, 120, 10, 1, 120, 120, 1), (30, -100, 20, 1, 100, 100, 0)],
        [(120, 20, 10, 0, 120, 120, 1), (-140, 30, 20, 0, 140, 120, 0)],
        [(-160, 20, 10, 0, 160, 160, 0), (-160, 30, 20, 0, 160, 160, 0)],
    ])
    race = line_outcome(lines, "race")
    assert race[0, 1] == 120 - 15 and race[1, 0] == 30 - (-100 + 20) / 2
    assert (line_outcome(lines, "own") == lines[..., C["change0"]]).all()
    values = line_values(lines, [PASS_LINE, 120, 160])
    by = {v.limit: v for v in values}
    assert by[PASS_LINE].gain.value == 0 and by[PASS_LINE].declares.value == 0
    assert by[120].declares.value == 1 and by[120].made.value == 0.5 and by[120].raised.value == 0.5
    assert by[120].contract == 130
    assert by[120].gain.value == pytest.approx(((105 - (-45)) + (-165 - 70)) / 2)


def _stepped(gains, start=100, n=40):
    """``n`` deals; the pass line scores 0 everywhere; line k (limits ``start``, ``start`` + 5, ...)
    adds ``gain`` to the line below it on the deals of its ``reached`` set: (reached deals, gain) per
    line (a line reached in no deal plays every deal as the one below)."""
    limits = [PASS_LINE] + [start + 5 * k for k in range(len(gains))]
    out = np.zeros((n, len(limits), len(LINE_COLUMNS)), dtype=np.int64)
    out[:, :, C["declarer"]] = 1
    for k, (reached, gain) in enumerate(gains, start=1):
        out[:, k] = out[:, k - 1]
        out[:reached, k, C["change0"]] += gain
        out[:reached, k, C["declarer"]] = 0
        out[:reached, k, C["winning_bid"]] = limits[k]
    return out, limits


def _check_against_the_twin(values):
    """The verdict is the twin's, X's line gain is positive and the highest of the tested lines,
    and ``beyond`` is the first tested level above X, its line gain at most X's."""
    verdict = recommended(values)
    data = {v.limit: (v.reached, v.gain.value) for v in values if v.limit > 0}
    need = max(MIN_REACHED, TESTED_SHARE * values[0].n)  # a level is tested from this many deals
    assert verdict.bid == advised_bid(data, need)
    tested = [v for v in values if v.tested]
    if verdict.line is not None:
        assert verdict.line.tested and verdict.line.gain.value > 0
        assert all(v.gain.value <= verdict.line.gain.value for v in tested)
    assert (None if verdict.beyond is None else verdict.beyond.limit) == first_above(data, need, verdict.bid)
    if verdict.beyond is not None:
        assert verdict.beyond.gain.value <= (verdict.line.gain.value if verdict.line is not None else 0)
    return verdict


def test_the_recommendation_is_the_tested_line_that_gains_most_over_passing():
    # 100 gains everywhere, 105 gains on the 35 deals that reach it, 110 loses where reached, 115 gains
    # on every deal: the line to 115 gains most (30 + 350/40 - 160/40 + 50).
    lines, limits = _stepped([(40, 30), (35, 10), (32, -5), (40, 50)])
    values = line_values(lines, limits, objective="own")
    by = {v.limit: v for v in values}
    assert (by[105].reached, by[105].step_gain.value) == (35, 10)
    assert by[115].gain.value == pytest.approx(30 + 10 * 35 / 40 - 5 * 32 / 40 + 50)
    verdict = _check_against_the_twin(values)
    assert verdict.bid == 115 and verdict.beyond is None and verdict.untested_from is None
    # The line gains add up the step gains, weighted by how often each level is reached.
    for v in values:
        if v.limit > 100:
            below = by[v.limit - 5]
            assert v.gain.value - below.gain.value == pytest.approx(v.step_gain.value * v.reached / v.n)
    # A loss on a level reached often enough stops there: 105 gains most, 110 beyond it gains less.
    lines, limits = _stepped([(40, 30), (35, 10), (32, -5), (40, -50)])
    verdict = _check_against_the_twin(line_values(lines, limits, objective="own"))
    assert verdict.bid == 105 and verdict.beyond.limit == 110 and verdict.beyond.step_gain.value == -5
    # A level reached in too few deals is never advised, though it counts inside the lines above it;
    # nothing tested above X: untested.
    lines, limits = _stepped([(40, 30), (5, -50), (40, 10), (3, 100)])
    verdict = _check_against_the_twin(line_values(lines, limits, objective="own"))
    assert verdict.bid == 110 and verdict.beyond is None and verdict.untested_from == 115
    # No tested line gains: pass, the lowest tested level beyond.
    lines, limits = _stepped([(40, -1), (40, 1)])
    verdict = _check_against_the_twin(line_values(lines, limits, objective="own"))
    assert verdict.line is None and verdict.bid is None and verdict.beyond.limit == 100
    # Equal gains: the lowest level (105 is reached in no deal and is no decision at all).
    lines, limits = _stepped([(40, 20), (0, 0), (40, 0)])
    verdict = _check_against_the_twin(line_values(lines, limits, objective="own"))
    assert verdict.bid == 100 and verdict.beyond.limit == 110 and verdict.untested_from is None


def _old_rule(values):
    """The rule this one replaced: walk up the tested levels, stop at the first whose step gain is
    not positive."""
    bid = None
    for v in sorted((v for v in values if v.tested), key=lambda v: v.limit):
        if not v.step_gain.value > 0:
            break
        bid = v.limit
    return bid


def test_a_rarely_reached_noisy_level_no_longer_stops_the_advice():
    # The full report's "diamonds marriage, 1 ace", first hand: (reached, step gain) by level, the
    # step gains in tenths of a point (so the deals' integer results carry them exactly); 145 was not
    # given and is left unreached. The opponents raise by 10, so the odd levels are rarely reached
    # (here in 3.1% to 3.5% of the deals, just tested: TESTED_SHARE).
    steps = {110: (1607, 123), 115: (70, -41), 120: (1253, 90), 125: (65, 147), 130: (977, 151),
             135: (62, 421), 140: (815, -65), 145: (0, 0), 150: (563, -298)}
    lines, limits = _stepped(list(steps.values()), start=110, n=2000)
    values = line_values(lines, limits, objective="own")
    by = {v.limit: v for v in values}
    assert all((by[b].reached, by[b].step_gain.value) == (r, g) for b, (r, g) in steps.items() if r)
    assert _old_rule(values) == 110  # stopped by 115, reached in 70 deals
    verdict = _check_against_the_twin(values)
    assert verdict.bid == 135 and verdict.beyond.limit == 140
    expected = sum(g * r for b, (r, g) in steps.items() if b <= 135) / 2000
    assert by[135].gain.value == pytest.approx(expected) and by[130].gain.value < by[135].gain.value
    assert by[140].gain.value < by[135].gain.value and by[150].gain.value < by[140].gain.value


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 5, 29, 30, 31, 200]), st.integers(-3, 3)), min_size=1, max_size=8))
def test_the_rule_matches_its_naive_twin(levels):
    """Any (reached, line gain) by level, ties and untested levels among them."""
    values = [_value(PASS_LINE, 0, 0.0)] + [_value(100 + 5 * k, r, float(g)) for k, (r, g) in enumerate(levels)]
    verdict = _check_against_the_twin(values)
    if verdict.beyond is None:
        top = verdict.bid or 0
        few = [v.limit for v in values if v.limit > top and v.reached > 0 and not v.tested]
        assert verdict.untested_from == (few[0] if few else None)
    else:
        assert verdict.untested_from is None


def _value(limit, reached, gain):
    nan, point = Estimate.none(), Estimate(gain, math.nan, math.nan)
    return LineValue(limit=limit, n=1000, mean=point, gain=point, declares=nan, made=nan, conceded=nan,
                     contract=math.nan, raised=nan, reached=reached)


def test_objectives_are_checked():
    lines = _lines([[(0, 0, 0)], [(10, 0, 0)]])
    with pytest.raises(ValueError, match="win chances"):
        line_outcome(lines, "win")
    with pytest.raises(ValueError, match="unknown objective"):
        line_outcome(lines, "score")
    chance = line_outcome(lines, "win", win_chance=lambda a, b, c: (a > b).astype(float))
    assert chance.tolist() == [[0.0, 1.0]]


def test_a_line_is_spelled_under_the_names_the_table_has_always_used():
    """Each interval of a line is an ``Estimate``; its JSON (``to_dict``) keeps the table's keys in
    their order, each share a (share, low, high) triple, and its stored row the flat columns."""
    lines = _lines([[(0, 0, 0), (0, 0, 0), (0, 0, 0)], [(10, 0, 0), (-20, 0, 0), (30, 0, 0)]])
    v = line_values(lines, [PASS_LINE, 120])[1]
    assert isinstance(v.gain, Estimate) and v.declares == Estimate.share(0, 3)
    row = v.to_dict()
    assert list(row) == ["limit", "n", "mean", "low", "high", "gain", "gain_low", "gain_high", "declares", "made",
                         "conceded", "contract", "raised", "reached", "step_gain", "step_low", "step_high"]
    assert (row["gain"], row["gain_low"], row["gain_high"]) == (v.gain.value, v.gain.low, v.gain.high)
    assert row["declares"] == (v.declares.value, v.declares.low, v.declares.high)
    assert row["step_gain"] == v.step_gain.value and v.reached == 3
    flat = stored_row(v)
    assert list(flat)[8:11] == ["declares", "declares_low", "declares_high"] and flat["mean"] == v.mean.value
