"""The value of bidding lines (``analysis.bid_value``): objectives, the clustered interval against a
naive computation, the paired gain over passing and the recommendation rule."""

import math

import numpy as np
import pytest

from analysis.bid_value import clustered_mean, line_outcome, line_values, recommended
from analysis.stats import Z95
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE

C = {name: i for i, name in enumerate(LINE_COLUMNS)}


def _naive_cluster_interval(values, clusters):
    """Cluster means weighted by size, the delta-method interval written out loop by loop."""
    groups = {}
    for v, c in zip(values, clusters, strict=True):
        groups.setdefault(c, []).append(v)
    mean = sum(values) / len(values)
    g = len(groups)
    m = len(values) / g
    resid = [sum(vs) - mean * len(vs) for vs in groups.values()]
    se = math.sqrt(sum(r * r for r in resid) / (g - 1) / g) / m
    return mean, mean - Z95 * se, mean + Z95 * se


def test_clustered_mean_matches_its_naive_twin_and_widens_for_shared_deals():
    rng = np.random.default_rng(1)
    values = rng.normal(size=300)
    clusters = rng.integers(0, 60, size=300)
    assert clustered_mean(values, clusters) == pytest.approx(_naive_cluster_interval(values, clusters))
    # Every deal counted three times: the unclustered interval is too narrow by about sqrt(3).
    tripled, ids = np.repeat(values, 3), np.repeat(np.arange(300), 3)
    m, lo, hi = clustered_mean(tripled, ids)
    m1, lo1, hi1 = clustered_mean(values)
    assert m == pytest.approx(m1) and (hi - lo) == pytest.approx(hi1 - lo1, rel=1e-2)
    assert (hi - lo) / (np.subtract(*clustered_mean(tripled)[2:0:-1])) == pytest.approx(math.sqrt(3), rel=0.02)


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
    assert by[PASS_LINE].gain == 0 and by[PASS_LINE].declares[0] == 0
    assert by[120].declares[0] == 1 and by[120].made[0] == 0.5 and by[120].raised[0] == 0.5
    assert by[120].contract == 130
    assert by[120].gain == pytest.approx(((105 - (-45)) + (-165 - 70)) / 2)


def _stepped(gains):
    """40 deals; the pass line scores 0 everywhere; line k (limits 100, 105, ...) adds ``gain`` to the
    line below it on the deals of its ``reached`` set: (reached deals, gain) per line."""
    n = 40
    limits = [PASS_LINE] + [100 + 5 * k for k in range(len(gains))]
    out = np.zeros((n, len(limits), len(LINE_COLUMNS)), dtype=np.int64)
    out[:, :, C["declarer"]] = 1
    for k, (reached, gain) in enumerate(gains, start=1):
        out[:, k] = out[:, k - 1]
        out[:reached, k, C["change0"]] += gain
        out[:reached, k, C["declarer"]] = 0
        out[:reached, k, C["winning_bid"]] = limits[k]
    return out, limits


def test_the_recommendation_bids_on_while_bidding_beats_passing_in_its_situation():
    # 100 gains everywhere, 105 gains on the 35 deals that reach it, 110 loses where reached.
    lines, limits = _stepped([(40, 30), (35, 10), (32, -5), (40, 50)])
    values = line_values(lines, limits, objective="own")
    by = {v.limit: v for v in values}
    assert (by[105].reached, by[105].step_gain) == (35, 10)
    verdict = recommended(values)
    assert verdict.bid == 105 and verdict.beyond.limit == 110 and verdict.beyond.step_gain == -5
    # Across all deals, 115 still beats passing (gain > 0), but the bidder never gets there by the rule.
    assert by[115].gain > 0
    # A level reached in too few deals neither stops nor counts; nothing tested above: untested.
    lines, limits = _stepped([(40, 30), (5, -50), (40, 10), (3, 100)])
    verdict = recommended(line_values(lines, limits, objective="own"))
    assert verdict.bid == 110 and verdict.beyond is None and verdict.untested_from == 115
    # The first tested level loses: pass.
    lines, limits = _stepped([(40, -1), (40, 10)])
    verdict = recommended(line_values(lines, limits, objective="own"))
    assert verdict.line is None and verdict.bid is None and verdict.beyond.limit == 100


def test_objectives_are_checked():
    lines = _lines([[(0, 0, 0)], [(10, 0, 0)]])
    with pytest.raises(ValueError, match="win chances"):
        line_outcome(lines, "win")
    with pytest.raises(ValueError, match="unknown objective"):
        line_outcome(lines, "score")
    chance = line_outcome(lines, "win", win_chance=lambda a, b, c: (a > b).astype(float))
    assert chance.tolist() == [[0.0, 1.0]]
