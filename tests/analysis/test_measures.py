"""The measures of the analysis core (``analysis.measures``): the clustered mean against a naive
computation (the barrel episodes against a deal-by-deal walk: tests/analysis/test_barrel.py)."""

import math

import numpy as np
import pytest

from analysis.measures import clustered_mean
from analysis.stats import Z95


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
