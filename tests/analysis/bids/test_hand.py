"""What a hand may bid (``analysis.bids.hand``): the talon's exact chances against closed forms and
with known cards; what making or failing a contract scores on and off the barrel, under the barrel
variants."""

from fractions import Fraction
from math import comb

from analysis.bids.hand import NOTHING_KNOWN, contract_levels, fail_loss, made_gain, talon_chances
from sim.engine import playouts
from sim.game.cards import parse_hand
from sim.game.rules import HouseRules

HAND = "AH TH KH QH AS 9C JD"


def test_talon_chances_match_closed_forms():
    hand = parse_hand("KH AS TS 9C JC 9D JD")  # half marriage KH, aces AS, tens TS
    t = talon_chances(hand)
    assert t.talons == comb(17, 3)
    marriages = {m.suit: m for m in t.marriages}
    assert marriages["H"].p == Fraction(3, 17) and marriages["H"].holding == "KH"  # QH: one of 17 unseen cards
    # Both halves of another suit's marriage arrive together: C(15, 1) / C(17, 3).
    assert marriages["C"].p == Fraction(15, comb(17, 3)) and marriages["C"].holding == ""
    assert [c.card for c in t.aces] == ["AC", "AD", "AH"] and all(c.p == Fraction(3, 17) for c in t.aces)
    assert t.at_least_one_ace == 1 - Fraction(comb(14, 3), comb(17, 3))
    assert sum(t.aces_distribution) == 1 == sum(t.tens_distribution)
    assert t.aces_distribution[3] == Fraction(1, comb(17, 3))
    # Expected talon points: 3/17 of the unseen cards' points.
    unseen_points = 120 - sum((0, 2, 3, 4, 10, 11)[c % 6] for c in range(24) if hand >> c & 1)
    assert t.expected_points == Fraction(3 * unseen_points, 17)


def test_talon_chances_with_known_cards():
    hand = parse_hand("KH AS TS 9C JC 9D JD")
    known = playouts.Known(left=parse_hand("QH"))
    t = talon_chances(hand, known)
    assert "H" not in {m.suit for m in t.marriages}  # the QH is with the left opponent
    assert t.talons == comb(16, 3)
    t2 = talon_chances(hand, playouts.Known(talon=parse_hand("QH")))
    assert {m.suit: m.p for m in t2.marriages}["H"] == 1


def test_made_gain_on_the_barrel_with_points_and_the_capped_win():
    sit = playouts.Situation(score=880, on_barrel=True)
    assert made_gain(120, HouseRules(), sit) == 120
    assert made_gain(120, HouseRules(declarer_scores="points"), sit, 205) == 205
    assert made_gain(150, HouseRules(win_score_capped=True), sit) == 120  # ends on 1000
    assert made_gain(100, HouseRules(declarer_scores="points"), sit, 205) == 0  # below the barrel's minimum
    # Below the barrel, a made contract's points climb to it and no further.
    assert made_gain(100, HouseRules(declarer_scores="points"), playouts.Situation(score=700), 205) == 180


def test_made_gain_and_fail_loss_under_the_barrel_variants():
    # docs/RULES.md "Barrel variants": the range barrel counts a sitter's contracts (capped when it wins with
    # win_score_capped) and a climber keeps his score; a jump to the target is a win, uncapped; a failed
    # contract that stays on the barrel costs nothing.
    ranged = HouseRules(barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False)
    capped = HouseRules(barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False,
                        win_score_capped=True)
    sitter = playouts.Situation(score=950, on_barrel=True)
    assert made_gain(100, ranged, playouts.Situation(score=890, on_barrel=True)) == 100  # 990, still on
    assert made_gain(100, ranged, sitter) == 100
    assert made_gain(100, capped, sitter) == 50  # ends on 1000
    assert made_gain(100, ranged, playouts.Situation(score=800)) == 100  # climbs keeping his score
    assert made_gain(250, HouseRules(barrel_jump_wins=True), playouts.Situation(score=800)) == 250
    assert made_gain(150, HouseRules(barrel_jump_wins=True), playouts.Situation(score=800)) == 80
    assert fail_loss(120, ranged, sitter) == 120
    stays = HouseRules(barrel_failed_contract="stays")
    assert fail_loss(120, stays, playouts.Situation(score=880, on_barrel=True)) == 0
    assert fail_loss(120, stays, playouts.Situation(score=500)) == 120


def test_fail_loss_and_levels_under_the_polish_throw_and_no_raise():
    # Issue 45 (docs/RULES.md "Rules of real tables"): a contract of min_bid may be thrown for nothing where a
    # concession is allowed; under no_raise_after_talon a contract is a bid won, so the levels stop at the
    # bidding cap (120 without a marriage) where raising would reach 120 + a marriage the talon may bring.
    free = HouseRules(concede_free_at_min_bid=True, concede_60=True)
    zero = playouts.Situation(score=0)
    assert (fail_loss(100, free, zero), fail_loss(110, free, zero), fail_loss(100, HouseRules(), zero)) == (0, 110, 100)
    sitter = playouts.Situation(score=880, on_barrel=True)
    assert fail_loss(100, free, sitter) == 100  # no concession while on the barrel (concede_on_barrel off)
    hand = parse_hand("AS TS AC TC KH 9D JD")  # no marriage; a talon may bring two (QH with KD QD: 300)
    levels, cap, top = contract_levels(hand, NOTHING_KNOWN, HouseRules())
    fixed, fixed_cap, fixed_top = contract_levels(hand, NOTHING_KNOWN, HouseRules(no_raise_after_talon=True))
    assert (cap, top, levels[-1]) == (120, 300, 300)
    assert (fixed_cap, fixed_top, fixed) == (120, 120, [100, 105, 110, 115, 120])
