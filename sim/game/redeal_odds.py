"""The exact chance that a deal survives the redeal rules (RULES.md §4.2), so that rules under which
(almost) every deal is redealt can be refused before anything is played.

Every redeal condition that does not depend on the players' choices looks only at how many cards
of each rank a hand or the taken talon holds (card points, nines, jacks, aces), never at the suits.
So deals are counted by their rank-count vectors: a hand is a vector ``v`` of six counts (9 J Q K T
A, each 0..4), and the deals whose hands, talon and other talon have the vectors ``h1..hk, t, o``
number ``(4!)^6 * g(h1) ... g(hk) g(t) g(o)`` with ``g(v) = 1 / prod(v_r!)`` (the suits of each rank
shared out among the parts). Summing ``g`` over the passing hands is a polynomial in six variables;
its k-th power, taken at the cards the talon leaves, counts the deals in which no hand asks.
"""

from __future__ import annotations

import itertools
import math
from functools import cache, lru_cache

import numpy as np

from sim.game.cards import RANK_POINTS

__all__ = ["NINE", "JACK", "ACE", "points", "deal_shape", "played_share", "poorest_hand_most", "richest_talon"]

NINE, JACK, ACE = 0, 1, 5  # positions in a rank-count vector (the order of RANK_POINTS: 9 J Q K T A)
_SHAPE = (5,) * 6  # a polynomial's coefficients: the power of each rank's variable, 0..4


@cache
def _vectors(size: int) -> tuple[tuple[int, ...], ...]:
    """Every rank-count vector of ``size`` cards."""
    return tuple(v for v in itertools.product(range(5), repeat=6) if sum(v) == size)


def _g(v: tuple[int, ...]) -> float:
    return 1.0 / math.prod(math.factorial(a) for a in v)


def points(v: tuple[int, ...]) -> int:
    return sum(a * p for a, p in zip(v, RANK_POINTS, strict=True))


def _polynomial(vectors) -> np.ndarray:
    a = np.zeros(_SHAPE)
    for v in vectors:
        a[v] += _g(v)
    return a


def _times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b, dropping every power above 4 (no rank has more than four cards)."""
    out = np.zeros(_SHAPE)
    for v in map(tuple, np.argwhere(a)):
        out[tuple(slice(x, 5) for x in v)] += a[v] * b[tuple(slice(0, 5 - x) for x in v)]
    return out


def deal_shape(players: int, two_player_talon: int) -> tuple[int, int, int, int]:
    """(hands with cards, cards a hand, cards of the taken talon, cards of the other talon)."""
    if players == 2:
        return 2, 12 - two_player_talon, two_player_talon, two_player_talon
    return 3, 7, 3, 0  # four players: the dealer gets no cards


@lru_cache(maxsize=256)
def played_share(players: int, two_player_talon: int, hand_points_below: int, four_nines: bool, three_nines: bool,
                 four_aces: bool, talon_points_below: int, talon_two_nines: bool, talon_three_jacks: bool) -> float:
    """The share of deals that no hand condition (before the bidding: a hand under
    ``hand_points_below`` card points, four or three nines, four aces) and no talon condition
    (the taken talon under ``talon_points_below``, two nines, three jacks) throws in. Pass only
    the conditions that are asked for every deal; 0.0 exactly when no deal escapes them."""
    hands, hand_size, talon_size, other_size = deal_shape(players, two_player_talon)

    def hand_asks(v):
        return (points(v) < hand_points_below or (four_nines and v[NINE] == 4)
                or (three_nines and v[NINE] >= 3) or (four_aces and v[ACE] == 4))

    def talon_asks(t):
        return points(t) < talon_points_below or (talon_two_nines and t[NINE] >= 2) or (
            talon_three_jacks and t[JACK] == 3)

    passing = _polynomial(v for v in _vectors(hand_size) if not hand_asks(v))
    rest = passing  # the product of every part but the first hand
    for _ in range(hands - 2):
        rest = _times(rest, passing)
    if other_size:
        rest = _times(rest, _polynomial(_vectors(other_size)))
    count = 0.0
    for t in _vectors(talon_size):
        if talon_asks(t):
            continue
        left = tuple(4 - x for x in t)  # the cards of each rank the hands and the other talon share
        box = tuple(slice(0, x + 1) for x in left)
        flipped = tuple(slice(x, None, -1) for x in left)  # rest at left - h for every h <= left
        count += _g(t) * float((passing[box] * rest[flipped]).sum())
    sizes = [hand_size] * hands + [talon_size] + ([other_size] if other_size else [])
    all_deals = math.factorial(24) / math.prod(math.factorial(s) for s in sizes)
    return count * math.factorial(4) ** 6 / all_deals


def poorest_hand_most(players: int, two_player_talon: int) -> int:
    """The most card points the poorest hand can hold: the talons hold at least their size in the
    cheapest cards, and the rest is shared among the hands (the bound is reached)."""
    hands, hand_size, talon_size, other_size = deal_shape(players, two_player_talon)
    cheapest = sorted(p for p in RANK_POINTS for _ in range(4))[:talon_size + other_size]
    return (120 - sum(cheapest)) // hands


def richest_talon(players: int, two_player_talon: int) -> int:
    """The most card points the taken talon can hold (its size in aces)."""
    return RANK_POINTS[ACE] * deal_shape(players, two_player_talon)[2]
