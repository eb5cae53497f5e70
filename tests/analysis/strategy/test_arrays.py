"""The strategy's clustered estimates (``analysis.strategy.arrays``): clustering widens a share's
interval, and a difference carries its interval as an ``Estimate`` spelled under the old names."""

from __future__ import annotations

import math

import numpy as np

from analysis.stats import Estimate, stored_row
from analysis.strategy.arrays import MIN_ROWS, Clusters, Difference, within


def test_clustered_share_widens_with_clustering():
    """A share whose rows come in identical blocks of 10 (one cluster each) gets a wider interval
    than the same rows taken one by one; the value is the same."""
    rng = np.random.default_rng(0)
    block = rng.random(200) < 0.3
    rows = np.repeat(block, 10)
    alone = Clusters(np.arange(len(rows))).share(rows)
    grouped = Clusters(np.repeat(np.arange(200), 10)).share(rows)
    assert alone.value == grouped.value
    assert grouped.high - grouped.low > 2.5 * (alone.high - alone.low)


def test_a_difference_carries_its_interval_as_an_estimate():
    """A paired difference (``Clusters.difference``) and one within the same rows (``within``) give
    ``diff`` as an ``Estimate`` over their clusters, its bounds about its value; too few rows give
    no interval (NaN) and no p-value. Stored, it reads as before: a, b, diff, low, high, p, p_holm,
    clusters."""
    rng = np.random.default_rng(1)
    games = np.repeat(np.arange(60), 5)
    values = rng.normal(size=len(games))
    side = rng.random(len(games)) < 0.5
    c = Clusters(games)
    for x in (c.difference(values, ~side, side), within(c, values, values + rng.normal(size=len(games)))):
        assert isinstance(x, Difference) and isinstance(x.diff, Estimate)
        assert x.diff.clusters == x.clusters == 60
        assert x.diff.low < x.diff.value < x.diff.high
        assert math.isclose(x.diff.value, x.b - x.a, abs_tol=1e-12)
        assert list(stored_row(x)) == ["a", "b", "diff", "low", "high", "p", "p_holm", "clusters"]
    few = c.difference(values, side & (games < 2), ~side & (games < 2))
    assert len(values[games < 2]) < 2 * MIN_ROWS
    assert math.isnan(few.diff.low) and math.isnan(few.diff.high) and math.isnan(few.p)
