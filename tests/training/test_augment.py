"""Suit permutations are an exact symmetry: the solver's labels of a permuted position are the
permuted labels, and a permutation followed by its inverse gives the position back."""

from __future__ import annotations

import numpy as np
import pytest

from sim.game.rules import HouseRules, preset
from sim.training.augment import PERMUTATIONS, permute_suits
from sim.training.labels import label
from sim.training.positions import generate_positions


class _Rules:  # label() reads only the rules array
    def __init__(self, arr):
        self.arr = arr

    def to_array(self):
        return self.arr


@pytest.fixture(scope="module", params=["classic", "half-aces"])
def recorded(request):
    rules = preset("classic") if request.param == "classic" else HouseRules(
        half_marriage=True, ace_marriage=200, marriage_first_lead=True, marriage_burns_without_trick=True,
        marriage_values=(40, 100, 60, 80))
    pos, deals = generate_positions(rules, 21, 0, 20, None, -1, 0.2)
    values, _ = label(pos, rules, 0, 1, threads=1)
    return pos, values, rules.to_array(), deals


@pytest.mark.parametrize("perm", [PERMUTATIONS[3], PERMUTATIONS[10], PERMUTATIONS[22]])
def test_the_solver_values_a_permuted_position_as_the_permuted_labels(recorded, perm):
    pos, values, arr, _ = recorded
    p, v, r = permute_suits(pos, values, arr, perm)
    assert not np.array_equal(p, pos)
    relabelled, _ = label(p, _Rules(r), 0, 1, threads=1)
    assert np.array_equal(relabelled, v)


def test_a_permutation_then_its_inverse_is_the_identity(recorded):
    pos, values, arr, _ = recorded
    for perm in PERMUTATIONS:
        inverse = tuple(int(i) for i in np.argsort(perm))
        p, v, r = permute_suits(*permute_suits(pos, values, arr, perm), inverse)
        assert np.array_equal(p, pos) and np.array_equal(v, values) and np.array_equal(r, arr)
