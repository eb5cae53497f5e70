"""The strategy's words (``analysis.present.strategy``): the summary's finding on the seats follows
the forced opening and the Holm-corrected test, nothing else."""

from __future__ import annotations

from analysis.present.strategy import seat_finding
from analysis.stats import Estimate
from analysis.strategy.arrays import Difference


def _diff(value: float, p_holm: float) -> Difference:
    return Difference(a=0.0, b=value, diff=Estimate(value, value - 1, value + 1, clusters=100), p=p_holm,
                      p_holm=p_holm, clusters=100)


def test_the_seat_finding_follows_the_forced_place_and_the_numbers():
    """The summary's heading on first hand against the dealer names who holds the forced opening
    (``analysis.strategy.sections.forced_place``, checked in tests/analysis/strategy/test_sections.py) and claims a
    direction only when the Holm-corrected test does."""
    assert seat_finding("first hand", _diff(-30, 0.001)) == "First hand pays for the forced opening."
    assert seat_finding("first hand", _diff(-30, 0.2)) == "First hand's forced opening costs nothing the numbers show."
    assert seat_finding("third hand (dealer)", _diff(+12, 0.001)) == "The dealer pays for the forced opening."
    assert seat_finding(None, _diff(-5, 0.01)).startswith("First hand loses against the dealer, with nobody forced")
    assert seat_finding(None, _diff(+5, 0.5)) == "First hand and the dealer score alike."
