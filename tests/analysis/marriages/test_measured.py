"""Marriage odds in random deals: the simulated counterparts against the exact values, and the
exact-odds check of all rows together (passing on random deals, failing on counts a few percent
off)."""

from __future__ import annotations

import dataclasses
from statistics import NormalDist

import numpy as np
import pytest

from analysis.marriages import exact, measured
from analysis.stats import Estimate, wilson_interval
from sim.game.rules import HouseRules

VALUES = (40, 60, 80, 100)


def test_simulated_values_agree_with_the_exact_ones():
    rows = measured.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    # Family-wise 95%: each interval at 1 - 0.05 / (number of quantities) (Bonferroni).
    z = _z(1 - 0.05 / (2 * len(rows)))
    bounds = {r.quantity: wilson_interval(r.k, r.n, z) for r in rows}
    outside = [r.quantity for r in rows if not bounds[r.quantity][0] <= r.p <= bounds[r.quantity][1]]
    assert not outside
    assert all(r.n > 0 for r in rows)


def test_the_exact_odds_check_passes_on_random_deals_and_tests_each_quantity_once():
    rows = measured.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    check = measured.odds_check(rows, VALUES)
    assert check.consistent and check.p >= check.level and check.worst is not None
    assert all(r.df >= 1 and r.p == r.p for r in check.rows)
    tested = [q for r in check.rows for stratum in r.quantities for q in stratum]
    dropped = dict(check.dropped)
    assert len(tested) == len(set(tested))  # each quantity in one distribution only
    assert sorted(tested + list(dropped)) == sorted(r.quantity for r in rows)  # and every row accounted for
    assert {"hand: at least one marriage", "deal: no marriage in any hand", "hand: ♠ marriage"} <= set(dropped)
    # A stratum's quantities partition its deals: their chances sum to at most 1.
    by = {r.quantity: r for r in rows}
    for r in check.rows:
        for stratum in r.quantities:
            assert sum(by[q].exact for q in stratum) <= 1 and len({by[q].n for q in stratum}) == 1


def _rows_of(counts: dict[str, int], n: int) -> tuple:
    chances = exact.exact_odds(HouseRules())
    return tuple(measured.OddsRow(quantity=q, exact=chances[q], p=float(chances[q]), k=k, n=n,
                                  simulated=Estimate(k / n, 0.0, 1.0, n=n), inside=True) for q, k in counts.items())


@pytest.mark.parametrize("bias", [0.0, 0.02])
def test_the_exact_odds_check_fails_on_counts_a_few_percent_off(bias):
    """Counts of the number of marriages in a hand at n = 2,000,000, drawn from the exact chances,
    or from chances 2% off (the share of hands without a marriage 2% lower, the rest scaled up)."""
    names = [f"hand: marriages = {m}" for m in range(4)]
    chances = exact.exact_odds(HouseRules())
    p = np.array([float(chances[q]) for q in names])
    p[0] *= 1 - bias
    p[1:] *= (1 - p[0]) / p[1:].sum()
    n = 2_000_000
    counts = np.random.default_rng(5).multinomial(n, p)
    check = measured.odds_check(_rows_of(dict(zip(names, counts.tolist(), strict=True)), n), VALUES)
    assert [r.distribution for r in check.rows] == ["hand: marriages held"]
    assert check.consistent is (bias == 0)
    if bias:
        assert check.p < 1e-6 and check.worst == "hand: marriages held"


def test_the_exact_odds_check_fails_on_a_biased_simulation():
    """Real random deals with one quantity made 3% too common (as a biased dealer would): the check
    rejects, and names that distribution."""
    rows = measured.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    by = {r.quantity: r for r in rows}
    moved = round(0.03 * by["10 cards: marriages = 1"].k)
    biased = tuple(dataclasses.replace(r, k=r.k + moved) if r.quantity == "10 cards: marriages = 1" else
                   dataclasses.replace(r, k=r.k - moved) if r.quantity == "10 cards: marriages = 0" else r
                   for r in rows)
    check = measured.odds_check(biased, VALUES)
    assert not check.consistent and check.worst == "10 cards: marriages held"


def _z(q: float) -> float:
    return NormalDist().inv_cdf(q)


def test_same_seed_same_numbers_and_rules_values():
    a = measured.marriage_table(deals=3000, seed=9)
    b = measured.marriage_table(deals=3000, seed=9)
    assert a == b
    rich = exact.exact_odds(HouseRules(marriage_values=(100, 100, 100, 100)))
    assert rich["hand: marriage points = 100"] == exact.exact_odds(HouseRules())["hand: marriages = 1"]
