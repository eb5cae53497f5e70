"""The advisor's auction lines (``sim.engine.playouts.auction_lines``): seat 0 bids up to a limit
or passes, the whole deal is played by one player type; and the contract a learned declarer is
given (``contract_points``). Checked against the rules: the line's limit is never passed, a
declarer's result is his contract won or lost, the scores add up, and the same seed gives the same
bytes on any number of threads."""

import numpy as np
import pytest

from sim.engine import playouts
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE, Situation, auction_lines, contract_points, sample_unseen
from sim.game.cards import parse_hand
from sim.game.rules import HouseRules

C = {name: i for i, name in enumerate(LINE_COLUMNS)}
HAND = parse_hand("AH TH KH QH AS 9C JD")


@pytest.fixture(scope="module")
def lines():
    rules = HouseRules()
    samples = sample_unseen(HAND, playouts.Known(), 120, seed=5)
    limits = [PASS_LINE, 0, 100, 120, 150]
    out = {dealer: auction_lines(HAND, samples, rules, dealer, Situation(), limits, 7, player="learned", threads=1)
           for dealer in (0, 2)}
    return rules, samples, limits, out


@pytest.mark.parametrize("dealer", [0, 2])
def test_a_line_never_bids_beyond_its_limit(lines, dealer):
    rules, _, limits, out = lines
    for k, limit in enumerate(limits):
        rows = out[dealer][:, k]
        own = rows[:, C["declarer"]] == 0
        if limit == PASS_LINE:
            first_hand = dealer == 2  # seat 0 is first hand: the forced minimum bid, nothing more
            assert not own.any() or (first_hand and (rows[own, C["winning_bid"]] == rules.min_bid).all())
        elif limit > 0:
            assert (rows[own, C["winning_bid"]] <= limit).all()
        # The declarer raises after the talon, never lowers.
        declared = rows[:, C["declarer"]] >= 0
        assert (rows[declared, C["contract"]] >= rows[declared, C["winning_bid"]]).all()


@pytest.mark.parametrize("dealer", [0, 2])
def test_line_results_follow_the_rules(lines, dealer):
    _, _, limits, out = lines
    rows = out[dealer].reshape(-1, len(LINE_COLUMNS))
    declared = rows[:, C["declarer"]] >= 0
    assert declared.any()
    for r in rows[declared]:
        d = r[C["declarer"]]
        if r[C["conceded"]]:
            continue
        assert r[C["result0"] + d] == (r[C["contract"]] if r[C["made"]] else -r[C["contract"]])
    # From a zero score with no penalty possible in one deal, a score is its change.
    for p in range(3):
        assert (rows[:, C["score0"] + p] == rows[:, C["change0"] + p]).all()
    # Seat 0 bidding further can only make him the declarer more often.
    shares = [(out[dealer][:, k, C["declarer"]] == 0).mean() for k in range(2, len(limits))]
    assert shares == sorted(shares)


def test_lines_give_the_same_bytes_on_any_number_of_threads(lines):
    rules, samples, limits, out = lines
    again = auction_lines(HAND, samples, rules, 2, Situation(), limits, 7, player="learned", threads=2)
    assert np.array_equal(again, out[2])


def test_a_learned_declarer_plays_the_contract_it_is_given():
    rules = HouseRules()
    samples = sample_unseen(HAND, playouts.Known(), 60, seed=1)
    levels = [100, 140, 180]
    learned = contract_points(HAND, samples, rules, "learned", 3, levels, threads=1)
    heuristic = contract_points(HAND, samples, rules, "heuristic", 3, levels, threads=1)
    assert learned.shape == heuristic.shape == (60, 3)
    assert (heuristic == heuristic[:, :1]).all()  # one play for points answers every level
    made = [(learned[:, k] >= b).mean() for k, b in enumerate(levels)]
    assert made == sorted(made, reverse=True) and made[0] > 0.9
    with pytest.raises(ValueError, match="contract"):
        playouts.played_points(HAND, samples, rules, "learned", 3)


def test_the_situations_counters_are_the_engines_on_the_last_attempt_and_the_third_pass():
    """Your counters of the score situation (barrel attempts used, deals in a row without declaring)
    are the engine's state: on the barrel's last attempt the pass line falls by the penalty in every
    deal (second hand, free to pass: dealer seat 1), with no attempt used it stays on the barrel
    unless a climber knocks it off; under online rules the third deal in a row without declaring
    costs the bolt penalty."""
    rules = HouseRules()
    samples = sample_unseen(HAND, playouts.Known(), 60, seed=11)
    limits = [PASS_LINE, 120]

    def own_after(situation: Situation, rec: HouseRules = rules) -> np.ndarray:
        out = auction_lines(HAND, samples, rec, 1, situation, limits, 7, player="learned", threads=1)
        return out[:, 0, C["score0"]]

    last = own_after(Situation(score=880, on_barrel=True, others=(600, 600), attempts=rules.barrel_attempts - 1))
    assert (last == 880 - rules.barrel_penalty).all()
    first = own_after(Situation(score=880, on_barrel=True, others=(600, 600)))
    assert (first == 880).mean() > 0.5 and set(first.tolist()) <= {880, 880 - rules.barrel_penalty}
    online = HouseRules.from_dict({**HouseRules().to_dict(), "bolt_on": "three_passes", "bolt_count": "each"})
    third = own_after(Situation(score=300, others=(300, 300), passes=2), online)
    fresh = own_after(Situation(score=300, others=(300, 300)), online)
    # the same deals played alike (the learned player does not read the counter): the penalty apart
    assert (third == fresh - online.bolt_penalty).all() and (fresh >= 300).all()
