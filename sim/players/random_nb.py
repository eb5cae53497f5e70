"""The random player, compiled: a uniformly random legal action at every decision (a baseline and
a fuzzer of the engine). Every draw comes from the seat's generator state (``sim.game.rng_nb``)."""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bids_nb import count_raises, nth_raise
from sim.game.bits_nb import popcount
from sim.game.play_nb import LEAD_WITHOUT_DECLARING, declaration, nth_card
from sim.game.rng_nb import below
from sim.numba_config import jit_hot


@jit_hot
def random_dark(rng):
    """Go dark (1) or not (0), a coin toss."""
    return below(rng, 2)


@jit_hot
def random_bid(min_raise, cap, rules, rng):
    """Pass (0) or one of the allowed raises from ``min_raise`` (<= ``cap``), each equally likely."""
    step = rules[R.BID_STEP]
    top = min_raise if rules[R.NO_JUMP_BIDS] else cap
    n_raises = count_raises(min_raise, top, step, rules)
    k = below(rng, n_raises + 1)
    return 0 if k == n_raises else nth_raise(min_raise, k, step, rules)


@jit_hot
def random_discard(givable, rng):
    """Two different cards of ``givable``: to the next seat, then to the one after."""
    n = popcount(givable)
    i = below(rng, n)
    j = below(rng, n - 1)
    if j >= i:
        j += 1
    return nth_card(givable, i), nth_card(givable, j)


@jit_hot
def random_burial(givable, to_talon, rng):
    """players = 2: two cards of ``givable`` to bury (lower first) and with ``to_talon`` a third for
    the untaken talon (else -1)."""
    b1 = nth_card(givable, below(rng, popcount(givable)))
    rest = givable & ~(np.int64(1) << b1)
    b2 = nth_card(rest, below(rng, popcount(rest)))
    rest &= ~(np.int64(1) << b2)
    t = nth_card(rest, below(rng, popcount(rest))) if to_talon else -1
    return min(b1, b2), max(b1, b2), t


@jit_hot
def random_contract(contract, cap, can_concede, rules, rng):
    """The bid or one of the allowed raises up to ``cap`` (in steps of bid_step), or -1 (a concession)
    where allowed."""
    step = rules[R.BID_STEP]
    top = max(contract, cap)
    n = count_raises(contract, top, step, rules)
    k = below(rng, n + (1 if can_concede else 0))
    return -1 if k == n else nth_raise(contract, k, step, rules)


@jit_hot
def random_card(seat, hands, legal, n_in_trick, can_declare, rules, rng):
    """A legal card; on a lead that would declare, under marriage_optional, a coin decides whether
    it declares (``card | LEAD_WITHOUT_DECLARING`` declines)."""
    card = nth_card(legal, below(rng, popcount(legal)))
    if n_in_trick == 0 and can_declare and rules[R.MARRIAGE_OPTIONAL] and below(rng, 2):
        if declaration(hands[seat], card, rules)[2]:
            return card | LEAD_WITHOUT_DECLARING
    return card
