"""Marriage odds by counting: the 7-card hand, the declarer's 10 cards, the talon and the whole deal.

A marriage is the king and queen of one suit in one hand; a half marriage one of the two without
the other. The exact odds count deals: the 24 cards are 8 marriage cards (K and Q of each suit)
and 16 others, and a set of n cards is described by its *pattern*, how many of each suit's K and
Q it holds (0, 1 or 2). The number of n-card sets of pattern (a_S, a_C, a_D, a_H) is
``prod C(2, a_s) * C(16, n - sum a_s)`` out of ``C(24, n)``; every quantity about the hand is a sum
over patterns. For the talon, the hand's unseen cards are 17 and the talon is 3 of them, uniformly:
a held half's partner lies in the talon with chance 3/17, both halves of a suit with 15/680. For
the whole deal (three hands of 7 and a talon of 3) the 8 marriage cards' places are enumerated
(4^8 ways), each weighted by the ways to fill the rest with the 16 other cards.

``exact_odds`` names every quantity as ``analysis.marriages.measured.measure`` measures it in
random deals; docs/analyses.md defines each. Only the dealt cards matter here (no play): marriage
values come from the rules.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from sim.game.cards import SUIT_SYMBOLS
from sim.game.rules import HouseRules

__all__ = ["HAND", "TALON", "UNSEEN", "KQ", "pattern_counts", "hand_odds", "talon_odds", "deal_odds", "exact_odds"]

HAND, TALON, UNSEEN = 7, 3, 17
# Bits of the marriage cards: (Q, K) of each suit (ranks 2 and 3), suit by suit.
KQ = [(1 << (6 * s + 2), 1 << (6 * s + 3)) for s in range(4)]


def pattern_counts(n_cards: int) -> dict[tuple[int, ...], int]:
    """The number of n-card sets (of 24) by pattern: how many of each suit's K and Q they hold."""
    out = {}
    for pattern in itertools.product(range(3), repeat=4):
        rest = n_cards - sum(pattern)
        if 0 <= rest <= 16:
            out[pattern] = math.prod(math.comb(2, a) for a in pattern) * math.comb(16, rest)
    return out


def hand_odds(n_cards: int, values: tuple[int, ...]) -> dict[str, Fraction]:
    """Exact odds of a uniformly random n-card set: the number of marriages (0..4), a marriage of
    each suit, at least one, the number of half marriages, and the marriage points held."""
    total = math.comb(24, n_cards)
    counts = pattern_counts(n_cards)
    out: dict[str, Fraction] = {}
    for m in range(5):
        p = Fraction(sum(w for pat, w in counts.items() if pat.count(2) == m), total)
        if p:
            out[f"marriages = {m}"] = p
    out["at least one marriage"] = 1 - Fraction(sum(w for pat, w in counts.items() if 2 not in pat), total)
    for s in range(4):
        out[f"{SUIT_SYMBOLS[s]} marriage"] = Fraction(sum(w for pat, w in counts.items() if pat[s] == 2), total)
    for h in range(5):
        p = Fraction(sum(w for pat, w in counts.items() if pat.count(1) == h), total)
        if p:
            out[f"half marriages = {h}"] = p
    points: dict[int, int] = {}
    for pat, w in counts.items():
        v = sum(values[s] for s in range(4) if pat[s] == 2)
        points[v] = points.get(v, 0) + w
    for v in sorted(points):
        out[f"marriage points = {v}"] = Fraction(points[v], total)
    return out


def _talon_any(k: int) -> Fraction:
    """The chance that a 3-card talon from the 17 unseen cards holds at least one of k given cards."""
    return 1 - Fraction(math.comb(UNSEEN - k, TALON), math.comb(UNSEEN, TALON))


def talon_odds() -> dict[str, Fraction]:
    """Exact odds of what the talon brings a 7-card hand: given j half marriages held, at least one
    completed; given m suits of which no half is held, a whole new marriage; given u aces (tens)
    not held, at least one of them; and the same averaged over random hands."""
    total = math.comb(24, HAND)
    counts = pattern_counts(HAND)
    out: dict[str, Fraction] = {"completes a given half marriage": Fraction(TALON, UNSEEN)}
    for j in range(1, 5):
        out[f"completes one of {j} half marriages"] = _talon_any(j)
    whole = Fraction(UNSEEN - 2, math.comb(UNSEEN, TALON))  # both halves and one of the other 15
    for m in range(1, 5):
        out[f"brings a whole marriage, {m} suits unheld"] = m * whole  # two whole ones need 4 cards
    for u in range(1, 5):
        out[f"brings an ace, {u} not held"] = _talon_any(u)
    # Averaged over random hands: the hand's pattern fixes j and m; aces are independent of it.
    halves = sum(Fraction(w, total) * (_talon_any(pat.count(1)) if pat.count(1) else 0) for pat, w in counts.items())
    out["completes a half marriage (any hand)"] = halves
    out["brings a whole marriage (any hand)"] = sum(Fraction(w, total) * pat.count(0) * whole
                                                   for pat, w in counts.items())
    out["brings an ace (any hand)"] = 1 - Fraction(math.comb(20, TALON), math.comb(24, TALON))
    out["brings a ten (any hand)"] = out["brings an ace (any hand)"]
    return out


def deal_odds() -> dict[str, Fraction]:
    """Exact odds over whole deals (three hands of 7, a talon of 3): nobody holds a marriage in the
    7-card hands; where each suit's K and Q lie; how many marriages the hands hold together."""
    sizes = (HAND, HAND, HAND, TALON)  # places 0..2 the hands, 3 the talon
    total = math.factorial(24) // (math.factorial(HAND) ** 3 * math.factorial(TALON))
    weight: dict[tuple[int, ...], int] = {}
    for places in itertools.product(range(4), repeat=8):  # K, Q of S, then of C, D, H
        used = [places.count(p) for p in range(4)]
        if any(u > c for u, c in zip(used, sizes, strict=True)):
            continue
        rest = [c - u for u, c in zip(used, sizes, strict=True)]
        weight[places] = math.factorial(16) // math.prod(math.factorial(r) for r in rest)
    assert sum(weight.values()) == total
    out: dict[str, Fraction] = {}

    def p(pred) -> Fraction:
        return Fraction(sum(w for pl, w in weight.items() if pred(pl)), total)

    def together(pl, s):  # the place holding both K and Q of suit s, or -1
        return pl[2 * s] if pl[2 * s] == pl[2 * s + 1] else -1

    out["no marriage in any hand"] = p(lambda pl: all(together(pl, s) in (-1, 3) for s in range(4)))
    out["a suit's K and Q in one given hand"] = p(lambda pl: together(pl, 0) == 0)
    out["a suit's K and Q both in the talon"] = p(lambda pl: together(pl, 0) == 3)
    out["a suit's K and Q split"] = p(lambda pl: together(pl, 0) == -1)
    for m in range(5):
        q = p(lambda pl, m=m: sum(together(pl, s) in (0, 1, 2) for s in range(4)) == m)
        if q:
            out[f"marriages in the three hands = {m}"] = q
    return out


def exact_odds(rules: HouseRules) -> dict[str, Fraction]:
    """Every exact quantity, named as in ``measure``."""
    values = tuple(rules.marriage_values)
    out = {f"hand: {k}": v for k, v in hand_odds(HAND, values).items()}
    out.update({f"10 cards: {k}": v for k, v in hand_odds(HAND + TALON, values).items()})
    out.update({f"talon: {k}": v for k, v in talon_odds().items()})
    out.update({f"deal: {k}": v for k, v in deal_odds().items()})
    return out

