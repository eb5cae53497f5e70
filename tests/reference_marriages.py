"""Naive twins of analysis.marriages.exact's odds, computed another way: card by card.

``hand_distribution`` walks the 24 cards one at a time, each either taken or not, and keeps the
number of ways to reach every (cards taken, K/Q held per suit) state; ``deal_distribution`` places
the 8 marriage cards one after another, each into a place with the chance that place's free room
gives it (places fill uniformly at random, so any order of dealing gives the same law).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from math import comb

MARRIAGE_CARDS = [(s, r) for s in range(4) for r in (2, 3)]  # (suit, rank): Q and K


def hand_distribution(n_cards: int) -> dict[tuple[int, ...], Fraction]:
    """Law of (K/Q held in each suit) for a uniformly random n-card set of the 24 cards."""
    ways: dict[tuple[int, tuple[int, ...]], int] = {(0, (0, 0, 0, 0)): 1}
    for card in range(24):
        s, r = divmod(card, 6)
        nxt: dict = defaultdict(int)
        for (taken, held), w in ways.items():
            nxt[(taken, held)] += w  # not taken
            if taken < n_cards:
                h = list(held)
                if r in (2, 3):
                    h[s] += 1
                nxt[(taken + 1, tuple(h))] += w
        ways = nxt
    total = comb(24, n_cards)
    return {held: Fraction(w, total) for (taken, held), w in ways.items() if taken == n_cards}


def hand_quantities(n_cards: int, values: tuple[int, ...]) -> dict[str, Fraction]:
    law = hand_distribution(n_cards)
    out: dict[str, Fraction] = defaultdict(Fraction)
    for held, p in law.items():
        out[f"marriages = {held.count(2)}"] += p
        out[f"half marriages = {held.count(1)}"] += p
        out[f"marriage points = {sum(v for v, h in zip(values, held, strict=True) if h == 2)}"] += p
        if 2 in held:
            out["at least one marriage"] += p
        for s in range(4):
            if held[s] == 2:
                out[f"{'♠♣♦♥'[s]} marriage"] += p
    return dict(out)


def talon_any_hand() -> dict[str, Fraction]:
    """Over a random 7-card hand and a talon of 3 of the other 17: the talon completes a held half
    marriage; the talon holds both halves of a suit the hand has neither of. Hands and talons are
    enumerated by which marriage cards they hold."""
    out = {"completes": Fraction(0), "whole": Fraction(0)}
    total = comb(24, 7) * comb(17, 3)
    for k in range(0, 8):
        for hand_m in itertools.combinations(range(8), k):
            if k > 7:
                continue
            hand_ways = comb(16, 7 - k)
            rest_m = [c for c in range(8) if c not in hand_m]
            others_left = 16 - (7 - k)
            for t in range(0, 4):
                for talon_m in itertools.combinations(rest_m, t):
                    w = hand_ways * comb(others_left, 3 - t)
                    held = [sum(1 for c in hand_m if c // 2 == s) for s in range(4)]
                    got = [sum(1 for c in talon_m if c // 2 == s) for s in range(4)]
                    if any(held[s] == 1 and got[s] == 1 for s in range(4)):
                        out["completes"] += Fraction(w, total)
                    if any(held[s] == 0 and got[s] == 2 for s in range(4)):
                        out["whole"] += Fraction(w, total)
    return out


def deal_distribution() -> dict[tuple[int, ...], Fraction]:
    """Law of the places (0..2 the hands, 3 the talon) of the 8 marriage cards in a random deal."""
    law: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _card in range(8):
        nxt: dict = defaultdict(Fraction)
        for places, p in law.items():
            room = [7 - places.count(0), 7 - places.count(1), 7 - places.count(2), 3 - places.count(3)]
            left = sum(room)
            for place in range(4):
                if room[place]:
                    nxt[places + (place,)] += p * Fraction(room[place], left)
        law = nxt
    return law
