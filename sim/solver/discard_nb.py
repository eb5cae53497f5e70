"""The declarer's discard, searched double-dummy: which cards he gives away (three seats: one to
each defender) or buries (two players: two, and with a talon of three one more card into the
other talon), and the value of the play that follows. Semantics in docs/solver.md.

Discards are listed cheapest first by what the cards are worth keeping (``list_discards``,
``list_discards2``; the learned declarer takes its candidates from the same order through
``cheapest_discards``), then searched in that order sharing one table generation: the first
valued exactly, each later one first cut by the quick upper bound or tested against the best so
far with one zero-window search. The discards' codes and costs live in the discard rows of
``work`` (``core_nb.DISCARD_ROW``), ``MAX_MOVES`` a row.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import lowest_index
from sim.game.cards import CARD_POINTS, SUIT_MASK
from sim.game.play_nb import (
    DECLARE_NONE,
    above_in_suit,
    declaration,
    declaration_kind,
    givable_cards,
    mask_points,
)
from sim.numba_config import jit_hot
from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES, next_stamp
from sim.solver.drivers_nb import exact_value, exact_value2
from sim.solver.search2_nb import search2, set_position2, upper_bound2
from sim.solver.search3_nb import search, set_position, upper_bound


# ---- three seats: one card to each defender ---------------------------------------------------------
@jit_hot
def _keep_cost(hand, card, rules):
    """What a card is worth keeping: its points and the combination it could declare."""
    cost = CARD_POINTS[card]
    if declaration_kind(hand, card, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE]) != DECLARE_NONE:
        cost += declaration(hand, card, rules)[0]
    return cost


VOID_BONUS = 8  # giving away a suit's last card (a void to ruff with) tends to be best
MASTER_PENALTY = 4  # giving away a card no unseen card of its suit can beat tends to be worse


@jit_hot
def _discard_order_cost(hand10, a, b, rules):
    """Order in which discards are searched (only speed depends on it; measured about 15% fewer
    nodes than points alone): what the two cards are worth keeping, less a bonus per suit the
    discard empties, plus a penalty per master given away."""
    cost = _keep_cost(hand10, a, rules) + _keep_cost(hand10, b, rules)
    rest = hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b)
    for c in (a, b):
        if rest & SUIT_MASK[c // 6] == 0:
            cost -= VOID_BONUS
        above = above_in_suit(c)
        if hand10 & above == above:
            cost += MASTER_PENALTY
    return cost


@jit_hot
def list_discards(hand10, rules, work):
    """Every discard the rules allow (code a * 24 + b: a to seat 1, b to seat 2) into the discard
    rows of ``work``, in ``_discard_order_cost`` order (ties by card order, for determinism);
    returns how many. Read code i as ``work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]``."""
    n = _fill_discards(hand10, rules, work)
    sort_discards(work, n)
    return n


@jit_hot
def cheapest_discards(hand10, rules, work, k):
    """The first ``k`` discards of ``list_discards``'s order, into the first ``k`` slots of the
    discard rows of ``work`` (read as there); returns how many, k or all there are when fewer.
    A stable selection: for a few, far cheaper than sorting all 90 (the learned declarer's gift
    candidates)."""
    n = _fill_discards(hand10, rules, work)
    k = min(k, n)
    for i in range(k):
        best = i
        best_cost = work[DISCARD_ROW + i // MAX_MOVES, MAX_MOVES + i % MAX_MOVES]
        for j in range(i + 1, n):
            cost = work[DISCARD_ROW + j // MAX_MOVES, MAX_MOVES + j % MAX_MOVES]
            if cost < best_cost:
                best = j
                best_cost = cost
        code = work[DISCARD_ROW + best // MAX_MOVES, best % MAX_MOVES]
        for j in range(best, i, -1):  # shift the ones between up a slot: they keep their listed order
            work[DISCARD_ROW + j // MAX_MOVES, j % MAX_MOVES] = work[DISCARD_ROW + (j - 1) // MAX_MOVES,
                                                                     (j - 1) % MAX_MOVES]
            work[DISCARD_ROW + j // MAX_MOVES, MAX_MOVES + j % MAX_MOVES] = work[
                DISCARD_ROW + (j - 1) // MAX_MOVES, MAX_MOVES + (j - 1) % MAX_MOVES]
        work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES] = code
        work[DISCARD_ROW + i // MAX_MOVES, MAX_MOVES + i % MAX_MOVES] = best_cost
    return k


@jit_hot
def _fill_discards(hand10, rules, work):
    """Every discard the rules allow, with its ``_discard_order_cost``, into the discard rows of
    ``work`` in card order; returns how many."""
    n = 0
    givable = givable_cards(hand10, rules)
    a_mask = givable
    while a_mask:
        a = lowest_index(a_mask)
        a_mask &= a_mask - 1
        b_mask = givable ^ (np.int64(1) << a)
        while b_mask:
            b = lowest_index(b_mask)
            b_mask &= b_mask - 1
            row = DISCARD_ROW + n // MAX_MOVES
            work[row, n % MAX_MOVES] = a * 24 + b
            work[row, MAX_MOVES + n % MAX_MOVES] = _discard_order_cost(hand10, a, b, rules)
            n += 1
    return n


@jit_hot
def sort_discards(work, n):
    """Insertion sort of the first ``n`` discard codes of ``work``'s discard rows by their costs,
    cheapest first; ties keep their listed order."""
    for i in range(1, n):
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        cost = work[DISCARD_ROW + i // MAX_MOVES, MAX_MOVES + i % MAX_MOVES]
        j = i - 1
        while j >= 0 and work[DISCARD_ROW + j // MAX_MOVES, MAX_MOVES + j % MAX_MOVES] > cost:
            work[DISCARD_ROW + (j + 1) // MAX_MOVES, (j + 1) % MAX_MOVES] = work[DISCARD_ROW + j // MAX_MOVES,
                                                                                 j % MAX_MOVES]
            work[DISCARD_ROW + (j + 1) // MAX_MOVES, MAX_MOVES + (j + 1) % MAX_MOVES] = work[
                DISCARD_ROW + j // MAX_MOVES, MAX_MOVES + j % MAX_MOVES]
            j -= 1
        work[DISCARD_ROW + (j + 1) // MAX_MOVES, (j + 1) % MAX_MOVES] = code
        work[DISCARD_ROW + (j + 1) // MAX_MOVES, MAX_MOVES + (j + 1) % MAX_MOVES] = cost


@jit_hot
def best_discard(hand10, opp1, opp2, rules, st, work, tt):
    """The discard (card to seat 1, card to seat 2) from the declarer's 10 cards that maximises the
    value of the play that follows (declarer on lead, no trump, no trick won), and that value.
    Discards are tried in ``list_discards`` order: the first valued exactly (``exact_value``);
    each later one first tested against the best value so far (one zero-window search, often cut
    at once by the quick upper bound), and all share one table, keyed by the hands, so states
    reached from several discards are solved once. Under no_aces_tens_in_discard only the other
    cards may be given."""
    next_stamp(st, tt)
    n = list_discards(hand10, rules, work)
    # np.int64, not a literal -1: a literal argument would compile search a second time.
    best = np.int64(-1)
    best_a = -1
    best_b = -1
    for i in range(n):
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        a = code // 24
        b = code % 24
        set_position(st, hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b), opp1 | (np.int64(1) << a),
                     opp2 | (np.int64(1) << b), 0, -1, -1, 0, 0)
        if best >= 0:
            if upper_bound(st, rules) <= best:
                continue
            r = search(st, rules, tt, work, best, best + 1)
            if r <= best:
                continue
            v = exact_value(st, rules, tt, work, r)
        else:
            v = exact_value(st, rules, tt, work, 0)
        best = v
        best_a = a
        best_b = b
    return best_a, best_b, best

# ---- two players: two cards buried, with a talon of three one more into the other talon -------------
NO_CARD = -1


@jit_hot
def encode_discard(b1, b2, t):
    return b1 | (b2 << 5) | ((t + 1) << 10)


@jit_hot
def decode_discard(code):
    """(b1, b2, t) of a discard code; t = -1 when no card goes to the other talon."""
    return code & 31, (code >> 5) & 31, (code >> 10) - 1


@jit_hot
def _discard_order_cost2(hand12, b1, b2, t, rules):
    """Order in which discards are searched, as ``_discard_order_cost`` for up to three
    cards: what they are worth keeping, less a bonus per suit emptied, plus a penalty per master
    given away. Only speed depends on it; counting buried points for or against keeping made no
    measurable difference (within 5% of nodes either way)."""
    cost = _keep_cost(hand12, b1, rules) + _keep_cost(hand12, b2, rules)
    gone = (np.int64(1) << b1) | (np.int64(1) << b2)
    if t >= 0:
        cost += _keep_cost(hand12, t, rules)
        gone |= np.int64(1) << t
    rest = hand12 & ~gone
    g = gone
    while g:
        c = lowest_index(g)
        g &= g - 1
        if rest & SUIT_MASK[c // 6] == 0:
            cost -= VOID_BONUS
        above = above_in_suit(c)
        if hand12 & above == above:
            cost += MASTER_PENALTY
    return cost


@jit_hot
def list_discards2(hand12, givable, to_talon, rules, work):
    """Every discard worth searching into the discard rows of ``work`` (codes of ``encode_discard``,
    cheapest ``_discard_order_cost2`` first, ties in card order); returns how many. Without
    ``to_talon``: every pair b1 < b2 of ``givable``. With it: every set of three givable cards, of
    which the one with the fewest points (the lowest such card) goes to the other talon — the
    play depends on the set only through the bonus, and one more bonus point is worth at most one
    more point, so a card with fewer points there is never worse than burying it in its place."""
    n = 0
    m1 = givable
    while m1:
        c1 = lowest_index(m1)
        m1 &= m1 - 1
        m2 = m1
        while m2:
            c2 = lowest_index(m2)
            m2 &= m2 - 1
            m3 = m2 if to_talon else np.int64(1)  # a single pass without a third card
            while m3:
                b1 = c1
                b2 = c2
                t = NO_CARD
                if to_talon:
                    c3 = lowest_index(m3)
                    t = c3
                    # c1 < c2 < c3: the fewest points, the lowest card among equals, goes to the talon.
                    if CARD_POINTS[c1] <= CARD_POINTS[c2] and CARD_POINTS[c1] <= CARD_POINTS[c3]:
                        b1, b2, t = c2, c3, c1
                    elif CARD_POINTS[c2] <= CARD_POINTS[c3]:
                        b1, b2, t = c1, c3, c2
                m3 &= m3 - 1
                row = DISCARD_ROW + n // MAX_MOVES
                work[row, n % MAX_MOVES] = encode_discard(b1, b2, t)
                work[row, MAX_MOVES + n % MAX_MOVES] = _discard_order_cost2(hand12, b1, b2, t, rules)
                n += 1
    sort_discards(work, n)
    return n


@jit_hot
def best_discard2(hand12, defender_hand, other_talon, to_talon, givable, rules, st, work, tt):
    """The declarer's discard in the two-player game and its value: (b1, b2, t, value). From his 12
    cards he buries b1 < b2 (their points are his) and, with ``to_talon`` (two_player_talon = 3),
    puts t into ``other_talon`` (t = -1 otherwise), all from ``givable``; value = points of b1, b2
    + the play's value (declarer on lead, no trump, no trick won, last_bonus = points of the other
    talon with t). Discards are tried in ``list_discards2`` order; each later one is first cut by
    the quick upper bound or tested against the best so far with one zero-window search, and all
    share one table generation. Ties: the first in that order."""
    next_stamp(st, tt)
    n = list_discards2(hand12, givable, to_talon, rules, work)
    talon_points = mask_points(other_talon)
    best = -1
    best_code = -1
    for i in range(n):
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        b1, b2, t = decode_discard(code)
        gone = (np.int64(1) << b1) | (np.int64(1) << b2)
        bonus = talon_points
        if t >= 0:
            gone |= np.int64(1) << t
            bonus += CARD_POINTS[t]
        buried = CARD_POINTS[b1] + CARD_POINTS[b2]
        set_position2(st, hand12 & ~gone, defender_hand, 0, -1, -1, 0, 0, bonus)
        if best >= 0:
            if buried + upper_bound2(st, rules) <= best:
                continue
            r = search2(st, rules, tt, work, best - buried, best - buried + 1)
            if buried + r <= best:
                continue
            v = buried + exact_value2(st, rules, tt, work, r)
        else:
            v = buried + exact_value2(st, rules, tt, work, 0)
        best = v
        best_code = code
    b1, b2, t = decode_discard(best_code)
    return b1, b2, t, best
