"""The folk advice tested (analysis.folk, analysis.present.folk): the verdict rule on constructed
cases, Holm over the section's items, the small-cards rule, the clustered effect, the stored table
read back and its verdicts recomputed, and the section rendered."""

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis import folk
from analysis.present.folk import PROVISIONAL, folk_section
from analysis.stats import Z95, Estimate, holm, two_sided_p
from sim.game.cards import parse_hand


def est(value, half, n=500, clusters=400):
    return Estimate(value, value - half, value + half, n=n, clusters=clusters)


def item(key, effect, verdict=""):
    return folk.FolkItem(key, f"measure of {key}", effect, math.nan, math.nan, verdict, "game")


def test_verdict_rule_on_constructed_cases():
    assert folk.verdict(est(5.0, 1.0), 0.001) == folk.SUPPORTED
    assert folk.verdict(est(-5.0, 1.0), 0.001) == folk.CONTRADICTED
    assert folk.verdict(est(0.5, 1.0), 0.6) == folk.NOT_TOLD_APART  # the interval straddles 0
    assert folk.verdict(est(5.0, 1.0), 0.2) == folk.NOT_TOLD_APART  # Holm did not clear it
    assert folk.verdict(Estimate(3.0, math.nan, math.nan, n=4), math.nan) == folk.TOO_FEW


def test_holm_over_the_items_can_leave_a_nominal_effect_not_told_apart():
    # Each of the three nominally significant (p about 0.03), the strongest is not after Holm's x3.
    half = Z95 * 2.0 / 2.17  # an effect of 2 whose interval gives p ≈ 0.03
    items = [item("no_marriage_high", est(2.0, half)), item("aces_tens_safe", est(2.0, half)),
             item("small_gifts", est(-2.0, half)), item("dark", est(0.5, 0.1), folk.NO_ADVICE)]
    out = folk.with_verdicts(items)
    p = two_sided_p(2.0, half / Z95)
    assert 0.01 < p < 0.05
    assert [i.verdict for i in out] == [folk.NOT_TOLD_APART] * 3 + [folk.NO_ADVICE]
    assert out[0].p_holm == holm([p, p, p])[0]
    assert math.isnan(out[3].p_holm)  # untested items stay outside the family
    strong = folk.with_verdicts([item("no_marriage_high", est(2.0, 0.5)), item("small_gifts", est(-2.0, 0.5))])
    assert [i.verdict for i in strong] == [folk.SUPPORTED, folk.CONTRADICTED]


def test_small_gifts_keep_marriages_and_give_the_fewest_points():
    ten = np.array([parse_hand("KH QH 9S JS AS TS AD TD 9C KC")], dtype=np.int64)
    a, b = folk.small_gifts(ten)
    assert {int(a[0]), int(b[0])} == set(np.flatnonzero([(int(parse_hand("9S 9C")) >> c) & 1 for c in range(24)]))
    assert int(a[0]) < int(b[0])
    # A hand whose small cards are all in marriages gives the smallest outside them.
    ten = np.array([parse_hand("KH QH KS QS KC QC KD QD AS TS")], dtype=np.int64)
    a, b = folk.small_gifts(ten)
    assert {int(a[0]), int(b[0])} == set(np.flatnonzero([(int(parse_hand("AS TS")) >> c) & 1 for c in range(24)]))


def test_clustered_effect_is_the_mean_with_an_interval_over_clusters():
    rng = np.random.default_rng(3)
    clusters = np.repeat(np.arange(50), 4)
    values = rng.normal(1.0, 2.0, 200)
    e = folk.clustered_effect(values, clusters)
    assert math.isclose(e.value, values.mean())
    assert e.n == 200 and e.clusters == 50 and e.low < e.value < e.high
    sums = np.bincount(clusters, weights=values)
    se = np.std(sums - 4 * e.value, ddof=1) / math.sqrt(50) / 4
    assert math.isclose((e.high - e.low) / 2, Z95 * se, rel_tol=1e-9)


def _result():
    items = [item(q.key, est(0.8 * (k - 3), 1.0)) for k, q in enumerate(folk.QUOTES)]
    items[-2] = item("barrel_lottery", Estimate(0.4, 0.35, 0.45, n=300, clusters=280), folk.NOT_IN_SEEDS)
    items[-1] = dataclass_with_info(item("dark", Estimate(0.45, 0.4, 0.5, n=900), folk.NO_ADVICE))
    return folk.FolkAdvice(items=folk.with_verdicts(items), provenance={"seed": 0})


def dataclass_with_info(i):
    return folk.FolkItem(i.key, i.measure, i.effect, i.p, i.p_holm, i.verdict, i.reflects, "a figure beside",
                         Estimate(0.3, 0.2, 0.4, n=100))


def test_the_stored_table_reads_back_and_its_verdicts_recompute():
    result = _result()
    frame = result.to_polars()
    back = folk.FolkAdvice.from_polars(frame, result.provenance)
    assert back.to_polars().equals(frame)
    # The verdicts from the stored numbers alone: p from each interval, Holm over the tested rows.
    tested = frame.filter(~pl.col("verdict").is_in([folk.NO_ADVICE, folk.NOT_IN_SEEDS]))
    p = [two_sided_p(r["value"], (r["high"] - r["low"]) / (2 * Z95)) for r in tested.iter_rows(named=True)]
    adjusted = holm(p)
    for r, ph in zip(tested.iter_rows(named=True), adjusted, strict=True):
        assert math.isclose(r["p_holm"], ph)
        assert r["verdict"] == folk.verdict(Estimate(r["value"], r["low"], r["high"]), ph)
    verdicts = set(tested["verdict"])
    assert folk.SUPPORTED in verdicts and folk.CONTRADICTED in verdicts and folk.NOT_TOLD_APART in verdicts


def test_the_section_quotes_each_item_with_its_verdict_and_stamps_quick_sizes():
    result = _result()
    text = "\n".join(folk_section(result, provisional=True))
    for q in folk.QUOTES:
        assert q.advice in text
        if q.original:
            assert q.original in text and q.english in text and f"({q.cite})" in text
    for i in result.items:
        assert f"**Verdict: {i.verdict}**" in text
    assert text.count(PROVISIONAL) == 2 * sum(i.tested for i in result.items) + 1  # and the intro says so
    assert "not in the seeds" in text and "calls the barrel a lottery" in text
    assert PROVISIONAL not in "\n".join(folk_section(result, provisional=False))
    assert folk_section(None) == ["The folk advice was not tested for this report.", ""]


def test_every_quote_is_in_its_seed_file():
    """The originals are quoted verbatim from the seed texts, at the line cited."""
    seeds = Path("/work/shared/seeds")
    if not seeds.is_dir():
        pytest.skip("the seed texts are not on this machine")
    for q in folk.QUOTES:
        if not q.cite:
            continue
        number, line = q.cite.split(":")
        (path,) = seeds.glob(f"{number}_*.txt")
        text = path.read_text(encoding="utf-8").splitlines()[int(line) - 1]
        for part in q.original.split(" … "):
            assert part in text, (q.key, part)
