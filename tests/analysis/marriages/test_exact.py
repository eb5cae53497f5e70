"""Marriage odds by counting: every exact number against an independent computation
(tests/reference_marriages), card by card."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
import reference_marriages as ref

from analysis.marriages import exact

VALUES = (40, 60, 80, 100)


@pytest.mark.parametrize("n_cards", [7, 10])
@pytest.mark.parametrize("values", [VALUES, (100, 80, 60, 40), (50, 50, 50, 50)])
def test_hand_odds_match_card_by_card_counting(n_cards, values):
    counted = exact.hand_odds(n_cards, values)
    twin = ref.hand_quantities(n_cards, values)
    assert {k: v for k, v in counted.items() if v} == {k: v for k, v in twin.items() if v}


def test_talon_odds_match_enumeration():
    t = exact.talon_odds()
    twin = ref.talon_any_hand()
    assert t["completes a half marriage (any hand)"] == twin["completes"]
    assert t["brings a whole marriage (any hand)"] == twin["whole"]
    # Given counts: every 3-card talon of the 17 unseen cards, enumerated.

    talons = list(itertools.combinations(range(17), 3))
    for j in range(1, 5):
        hits = sum(1 for tal in talons if any(c < j for c in tal))  # cards 0..j-1: the partners
        assert t[f"completes one of {j} half marriages"] == Fraction(hits, len(talons))
        assert t[f"brings an ace, {j} not held"] == Fraction(hits, len(talons))
    for m in range(1, 5):  # suit i's K and Q are unseen cards 2i and 2i + 1
        hits = sum(1 for tal in talons if any(2 * i in tal and 2 * i + 1 in tal for i in range(m)))
        assert t[f"brings a whole marriage, {m} suits unheld"] == Fraction(hits, len(talons))
    assert t["brings an ace (any hand)"] == 1 - Fraction(math.comb(20, 3), math.comb(24, 3))


def test_deal_odds_match_sequential_placement():
    d = exact.deal_odds()
    law = ref.deal_distribution()

    def p(pred):
        return sum((q for pl, q in law.items() if pred(pl)), Fraction(0))

    def together(pl, s):
        return pl[2 * s] if pl[2 * s] == pl[2 * s + 1] else -1

    assert d["no marriage in any hand"] == p(lambda pl: all(together(pl, s) in (-1, 3) for s in range(4)))
    assert d["a suit's K and Q in one given hand"] == p(lambda pl: together(pl, 2) == 1) == Fraction(7, 92)
    assert d["a suit's K and Q both in the talon"] == p(lambda pl: together(pl, 3) == 3) == Fraction(1, 92)
    for m in range(5):
        assert d.get(f"marriages in the three hands = {m}", 0) == p(
            lambda pl, m=m: sum(together(pl, s) in (0, 1, 2) for s in range(4)) == m)
