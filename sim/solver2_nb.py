# TEMPORARY local scaffold (not committed): the real module comes from branch two-player-solver.
import numpy as np

from sim.bits_nb import lowest_index
from sim.numba_config import jit_hot


@jit_hot
def dd2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                    last_bonus, rules, st, work, tt):
    return lowest_index(legal), True


@jit_hot
def best_discard2(hand12, defender_hand, other_talon, to_talon, givable, rules, st, work, tt):
    b1 = lowest_index(givable)
    g = givable & (givable - 1)
    b2 = lowest_index(g)
    g &= g - 1
    t = lowest_index(g) if to_talon else -1
    return b1, b2, t, 0


@jit_hot
def pimc2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                      played, voids, known, counts, n_worlds, rules, rng, st, work, tt, wbuf):
    return lowest_index(legal), True


@jit_hot
def pimc2_choose_discard(hand12, to_talon, givable, n_worlds, rules, rng, st, work, tt, wbuf):
    b1 = lowest_index(givable)
    g = givable & (givable - 1)
    b2 = lowest_index(g)
    g &= g - 1
    t = lowest_index(g) if to_talon else -1
    return b1, b2, t
