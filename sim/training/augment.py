"""Suit permutations of stored positions: the game is the same under any renaming of the four
suits when the marriage values move with their suits (the net reads them as inputs), so a
permuted position's exact labels are its labels permuted. The fit renames each batch's suits by
a random permutation (``sim.training.fit``); the tests check the symmetry against the solver.
"""

from __future__ import annotations

import itertools

import numpy as np

from sim.game import rules_layout as R
from sim.players.learned.layout import (
    P_CHOSEN,
    P_HAND,
    P_KNOWN,
    P_LEGAL,
    P_MARRIAGES,
    P_PLAYED,
    P_PLAYED_BY,
    P_TRICK,
    P_TRUMP,
    P_VOIDS,
)

__all__ = ["IDENTITY", "PERMUTATIONS", "permute_suits", "permute_rules"]

IDENTITY = (0, 1, 2, 3)
PERMUTATIONS = tuple(p for p in itertools.permutations(range(4)) if p != IDENTITY)
_MASK_COLUMNS = (P_HAND, P_HAND + 1, P_HAND + 2, P_PLAYED, P_PLAYED_BY, P_PLAYED_BY + 1, P_PLAYED_BY + 2, P_KNOWN,
                 P_KNOWN + 1, P_KNOWN + 2, P_LEGAL)
_CARD_COLUMNS = (P_TRICK, P_TRICK + 1, P_CHOSEN)


def _masks(m: np.ndarray, perm: np.ndarray) -> np.ndarray:
    out = np.zeros_like(m)
    for s in range(4):
        out |= ((m >> (6 * s)) & 63) << (6 * perm[s])
    return out


def _bits(b: np.ndarray, perm: np.ndarray, shift: int) -> np.ndarray:
    out = b & ~np.int64(0xF << shift)
    for s in range(4):
        out |= ((b >> (shift + s)) & 1) << (shift + perm[s])
    return out


def permute_suits(pos: np.ndarray, values: np.ndarray, rules: np.ndarray,
                  perm: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, labels, rules array) with suit s renamed ``perm[s]`` everywhere: cards, masks,
    the trump, voids, declarations and the marriage values."""
    p = np.asarray(perm, dtype=np.int64)
    out = pos.copy()
    for col in _MASK_COLUMNS:
        out[:, col] = _masks(pos[:, col], p)
    for col in _CARD_COLUMNS:
        c = pos[:, col]
        safe = np.maximum(c, 0)
        out[:, col] = np.where(c >= 0, 6 * p[safe // 6] + safe % 6, c)
    trump = pos[:, P_TRUMP]
    out[:, P_TRUMP] = np.where(trump >= 0, p[np.maximum(trump, 0)], -1)
    for q in range(3):
        out[:, P_VOIDS + q] = _bits(pos[:, P_VOIDS + q], p, 0)
        out[:, P_MARRIAGES + q] = _bits(_bits(pos[:, P_MARRIAGES + q], p, 0), p, 4)  # marriages, half marriages
    labels = np.empty_like(values)
    cards = np.arange(24)
    labels[:, 6 * p[cards // 6] + cards % 6] = values
    return out, labels, permute_rules(rules, perm)


def permute_rules(rules: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    """A rules array (or a table of them, one a row) with suit s's marriage value moved to
    ``perm[s]``: the only part of the rules that names a suit."""
    out = rules.copy()
    for s in range(4):
        out[..., R.MARRIAGE_VALUE + perm[s]] = rules[..., R.MARRIAGE_VALUE + s]
    return out
