"""The strategy's sections (``analysis.strategy.sections``) on deals played here: the range
barrel's sitter against a count deal by deal, and the seat that holds the forced opening as the
engine, the advisor and the report name it."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.bids.hand import forced_seat_name
from analysis.strategy.arrays import load_deals
from analysis.strategy.sections import forced_opening, forced_place, score_stats
from sim.engine import BatchSpec, play_chunk
from sim.engine.schema import EV_BARREL_ON, EV_BARREL_STAY
from sim.game.rules import PRESETS, HouseRules, preset


def test_range_barrel_sitter_contracts_are_measured_against_his_need():
    """The range barrel (barrel_freeze = false; docs/RULES.md "Barrel variants"): a sitter's contract is
    below, at or above what his score lacks to the target (rounded up to 5, at least min_bid), counted
    deal by deal from the rows."""
    rules = HouseRules(barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False)
    deals, games = play_chunk(BatchSpec(mode="games", n=150, seed=8, players=("heuristic",) * 3, rules=rules), 0)
    sc = score_stats(load_deals(deals), rules, int((games["winner"] >= 0).sum()))
    assert not sc.barrel_freeze and sc.target == 1000
    rows = deals.sort("game", "deal").filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0)).to_dicts()
    count = {"below": 0, "at": 0, "above": 0}
    for prev, row in zip([None] + rows[:-1], rows, strict=True):
        seat = row["declarer"]
        if prev is None or prev["game"] != row["game"] or not prev[f"events{seat}"] & (EV_BARREL_ON | EV_BARREL_STAY):
            continue
        need = max(rules.min_bid, -(-(1000 - prev[f"score{seat}"]) // 5) * 5)
        count["below" if row["contract"] < need else "at" if row["contract"] == need else "above"] += 1
    declared = sum(count.values())
    assert declared > 0 and count["at"] > 0
    for key in count:
        assert sc.sitter[f"{key} the minimum"].value == pytest.approx(count[key] / declared)


def test_the_forced_place_is_named_as_the_report_words_it():
    """Who holds the forced opening (strategy.forced_place), which the summary's finding on the seats
    names (its words: tests/analysis/present/test_strategy.py)."""
    assert forced_place(HouseRules()) == "first hand"
    assert forced_place(preset("tysyacha_1000")) == "third hand (dealer)"
    assert forced_place(preset("mekedron")) is None


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_analysis_names_the_engines_forced_seat(name):
    # The forced opening as RULES.md words it: first hand, or the dealer under forced_bid_seat = dealer;
    # nobody without forced_first_bid. The engine's seat, the advisor's and the report's must say the same.
    rules = preset(name)
    expected = None if not rules.forced_first_bid else 0 if rules.forced_bid_seat == "dealer" else 1
    assert rules.forced_position() == expected
    assert forced_seat_name(rules) == {None: None, 0: "third", 1: "first"}[expected]
    assert forced_place(rules) == {None: None, 0: "third hand (dealer)", 1: "first hand"}[expected]
    if expected is not None:
        assert forced_opening(rules)[0] == expected
