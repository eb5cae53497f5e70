"""Dealing and redeals: the shuffle, the hands and talon(s) dealt from a deal stream, the reasons a
hand or a talon may be thrown in (RULES.md §4.2), and the record of a deal that is not played.
"""

import numpy as np

from sim.engine.enums import REDEAL
from sim.engine.schema import (
    D_BURIED,
    D_CONTRACT,
    D_DECLARER,
    D_GIFT,
    D_OTHER_TALON,
    D_REDEAL,
    D_SCORE,
    D_TALON_CARD,
    REDEAL_FOUR_ACES,
    REDEAL_FOUR_NINES,
    REDEAL_HAND_POINTS,
    REDEAL_TALON_POINTS,
    REDEAL_TALON_THREE_JACKS,
    REDEAL_TALON_TWO_NINES,
    REDEAL_THREE_NINES,
)
from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.cards import ACE, JACK, NINE, RANK_MASK
from sim.game.play_nb import mask_points
from sim.game.rng_nb import below
from sim.game.state_layout import G_REDEALS, G_SCORE
from sim.numba_config import jit_hot


@jit_hot
def _shuffle(rng, deck):
    """A uniformly random order of the 24 cards in ``deck``."""
    for i in range(24):
        deck[i] = i
    for i in range(23, 0, -1):
        j = below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@jit_hot
def _cards(deck, start, count):
    h = np.int64(0)
    for k in range(start, start + count):
        h |= np.int64(1) << deck[k]
    return h


@jit_hot
def deal_cards(rng, hands, deck):
    """Shuffle ``deck`` (24 slots) and deal 7 cards to each seat; return the 3-card talon mask."""
    _shuffle(rng, deck)
    for p in range(3):
        hands[p] = _cards(deck, 7 * p, 7)
    return _cards(deck, 21, 3)


@jit_hot
def deal_cards2(rng, hands, deck, talon_size):
    """players = 2: shuffle and deal 12 - ``talon_size`` cards to each of two seats; return the
    two talons of ``talon_size`` cards (the first is the one the declarer takes)."""
    _shuffle(rng, deck)
    per_hand = 12 - talon_size
    hands[0] = _cards(deck, 0, per_hand)
    hands[1] = _cards(deck, per_hand, per_hand)
    return _cards(deck, 2 * per_hand, talon_size), _cards(deck, 2 * per_hand + talon_size, talon_size)


@jit_hot
def hand_redeal(hands, dealer, rules, n):
    """Why the deal is redealt before the bidding (the ``redeal`` code), or 0: four aces force it;
    a poor hand or the nines allow a player to ask (redeal_policy = always asks). ``n`` seats."""
    for k in range(n):
        hand = hands[(dealer + 1 + k) % n]
        if rules[R.REDEAL_FOUR_ACES] and hand & RANK_MASK[ACE] == RANK_MASK[ACE]:
            return REDEAL_FOUR_ACES
        if not rules[R.REDEAL_ASK]:
            continue
        if mask_points(hand) < rules[R.REDEAL_HAND_POINTS_BELOW]:
            return REDEAL_HAND_POINTS
        nines = popcount(hand & RANK_MASK[NINE])
        if rules[R.REDEAL_FOUR_NINES] and nines == 4:
            return REDEAL_FOUR_NINES
        if rules[R.REDEAL_THREE_NINES] and nines >= 3:
            return REDEAL_THREE_NINES
    return 0


@jit_hot
def talon_redeal(talon, uncontested, rules):
    """Why the declarer may ask for a redeal on seeing the talon, or 0."""
    if not rules[R.REDEAL_ASK]:
        return 0
    if mask_points(talon) < rules[R.REDEAL_TALON_POINTS_BELOW] and (
            uncontested or not rules[R.REDEAL_TALON_ONLY_AT_100]):
        return REDEAL_TALON_POINTS
    if rules[R.REDEAL_TALON_TWO_NINES] and popcount(talon & RANK_MASK[NINE]) >= 2:
        return REDEAL_TALON_TWO_NINES
    if rules[R.REDEAL_TALON_THREE_JACKS] and popcount(talon & RANK_MASK[JACK]) == 3:
        return REDEAL_TALON_THREE_JACKS
    return 0


@jit_hot
def limit_reached(gs, rules):
    """redeal_limit_penalty: this would be the dealer's third redeal in a row, so the deal is
    played as it lies and the dealer pays (in apply_deal)."""
    return rules[R.REDEAL_LIMIT_PENALTY] and gs[G_REDEALS] >= 2


@jit_hot
def redeal(gs, rec, row, plays, reason):
    gs[G_REDEALS] += 1
    return thrown_in(gs, rec, row, plays, reason)


@jit_hot
def thrown_in(gs, rec, row, plays, reason):
    """Record a deal that is not played (the same dealer deals again): no declarer, nothing
    scored, the scores as they were; with players = 2 the other talon as dealt, nothing buried and
    no talon card."""
    for col in range(D_CONTRACT, D_OTHER_TALON):  # the 2-player columns come last
        rec[row, col] = 0
    rec[row, D_BURIED] = 0
    rec[row, D_TALON_CARD] = -1
    for q in range(3):
        rec[row, D_GIFT + q] = -1
        rec[row, D_SCORE + q] = gs[G_SCORE + q]
    rec[row, D_DECLARER] = -1
    rec[row, D_REDEAL] = reason
    plays[row, :] = -1
    return REDEAL
