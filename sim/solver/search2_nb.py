"""Compiled double-dummy node search of the two-player game (RULES.md §4.1, ``players = 2``): the
most points the declarer (seat 0) can be sure of, all cards visible, against the defender (seat 1)
who minimises them. Semantics in docs/solver.md ("Two players").

The search is ``search3_nb``'s for two seats, on the same state array, move rows and table of
``core_nb`` (the docstring of ``search3_nb`` explains the parts): fail-soft alpha-beta scouting
later moves with zero-window tests, a table of bounds at trick starts, quick bounds, equivalent
cards and the same move ordering. What differs:

- tricks have two cards, so the follower always decides the trick: his equivalent cards are always
  reduced to one, and a lead's trick is decided when the other seat cannot beat it;
- ``last_bonus``: points that the winner of the last trick also takes (the cards of the talon the
  declarer did not take). It is part of the value, of the quick upper bound and of the table key.
  The third hand's slot of the state array holds it;
- the table key holds only the leader's won-trick bit (see ``_tt_keys2``).

The questions asked of it (exact values, thresholds, best moves...) are ``drivers_nb``'s, the same
for both searches; the discard is ``discard_nb.best_discard2``. All kernels take arrays and
scalars; buffers come from the caller (``sim.solver.search_buffers``). Nothing depends on timing
or threads.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import lowest_index, popcount
from sim.game.cards import CARD_POINTS
from sim.game.play_nb import (
    above_in_suit,
    beaters,
    beats,
    declaration,
    declaring_cards,
    follow_allowed,
    legal_follows,
    legal_leads,
    mask_points,
)
from sim.numba_config import jit_hot
from sim.solver.core_nb import (
    DECLARE_FLAG,
    INFINITE,
    ST_K,
    ST_LEADER,
    ST_LED,
    ST_NODES,
    ST_OWNER,
    ST_PENDING,
    ST_PLY,
    ST_REST_POINTS,
    ST_STAMP,
    ST_TRICK_POINTS,
    ST_TRUMP,
    ST_UNSECURED,
    ST_WIN_CARD,
    ST_WIN_SEAT,
    ST_WON,
    TT_NO_UPPER,
    add_move,
    combination_bound,
    improve,
    may_declare,
    move_score,
    node_state,
    play_lead,
    restore_node,
    side_of,
    sort_moves,
    tt_probe,
    tt_store,
    unsecured_points,
)

ST_BONUS = 2  # two seats leave the third hand's slot free: it holds last_bonus


@jit_hot
def set_position2(st, h0, h1, leader, trump, owner, won, unsecured, bonus):
    """A trick-start position of the two-seat game into the state array (stamp and node count are
    kept): the declarer's and the defender's hands, the seat on lead, trump (-1 none), the seat
    that declared it (-1 none), won-trick bits, the declarer's unsecured marriage points and the
    last trick's bonus."""
    st[0] = h0
    st[1] = h1
    st[ST_BONUS] = bonus
    st[ST_LEADER] = leader
    st[ST_TRUMP] = trump
    st[ST_OWNER] = owner
    st[ST_WON] = won
    st[ST_UNSECURED] = unsecured
    st[ST_K] = 0
    st[ST_WIN_CARD] = -1
    st[ST_WIN_SEAT] = -1
    st[ST_LED] = -1
    st[ST_TRICK_POINTS] = 0
    st[ST_PENDING] = -1
    st[ST_REST_POINTS] = mask_points(h0 | h1)
    st[ST_PLY] = 0


@jit_hot
def upper_bound2(st, rules):
    """Declarer's points to come are at most everything left (the bonus included) plus his
    combinations."""
    return (st[ST_REST_POINTS] + st[ST_TRICK_POINTS] * (st[ST_K] > 0) + unsecured_points(st) + st[ST_BONUS]
            + combination_bound(st[0], rules))


@jit_hot
def _tt_keys2(st, rules):
    """Keys of a trick-start state, leaving out what can no longer change the value. Of the won
    bits only the leader's: a seat leads below the root only after winning the trick before, so the
    other seat's bit will be set by the time he can declare; and the leader's only when he can
    declare (holds a combination) and it decides something (without marriage_first_lead, or for
    the declarer under the burning rule). The owner of the trump only under no_lead_foreign_trump.
    The bonus is part of the key: the value depends on it."""
    leader = st[ST_LEADER]
    key_won = 0
    if combination_bound(st[leader], rules) > 0 and (
            not rules[R.MARRIAGE_FIRST_LEAD] or (rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and leader == 0)):
        key_won = (st[ST_WON] >> leader) & 1
    owner = st[ST_OWNER] if rules[R.NO_LEAD_FOREIGN_TRUMP] else -1
    ka = (st[0] | (st[1] << 24) | (leader << 48) | ((st[ST_TRUMP] + 1) << 50) | (key_won << 53)
          | ((owner + 1) << 56))
    kb = unsecured_points(st) | (st[ST_BONUS] << 24)
    return ka, kb


# ---- move generation ----------------------------------------------------------------------------
@jit_hot
def _lead_side(opp, card, trump, own):
    """Side that wins a trick led with ``card``: the leader's (``own``) unless the opponent may
    play a card beating it (must_head only picks which), then undecided (0)."""
    return 0 if beaters(follow_allowed(opp, card // 6, trump), card, trump) else own


@jit_hot
def generate_moves2(st, rules, work, reduce):
    """Fill row ``ply`` of ``work`` with the mover's moves and their ordering scores (as
    ``search3_nb.generate_moves``); return their number. With ``reduce``, keep one card of each run
    of equivalent cards when the trick's side is decided: always for the follower, for the leader
    when the opponent cannot beat the card."""
    ply = st[ST_PLY]
    k = st[ST_K]
    seat = (st[ST_LEADER] + k) & 1
    hand = st[seat]
    opp = st[seat ^ 1]
    trump = st[ST_TRUMP]
    own = side_of(seat)
    declaring = declaring_cards(hand, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE])
    win_card = -1
    if k == 0:
        legal = legal_leads(hand, trump, st[ST_OWNER] == seat, rules[R.NO_LEAD_FOREIGN_TRUMP],
                            rules[R.MUST_LEAD_TRUMP])
        can_declare = may_declare(st[ST_WON], seat, hand, rules)
        live = hand | opp
    else:
        win_card = st[ST_WIN_CARD]
        legal = legal_follows(hand, st[ST_LED], win_card, trump, rules[R.MUST_HEAD])
        can_declare = False
        live = hand | opp | (np.int64(1) << win_card)
    n = 0
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        if k == 0:
            side = _lead_side(opp, c, trump, own)
        else:
            side = own if beats(c, win_card, trump) else side_of(seat ^ 1)
        if (declaring >> c) & 1:
            if can_declare:
                value, new_trump, _ = declaration(hand, c, rules)
                t = new_trump if new_trump >= 0 and not rules[R.MARRIAGE_TRUMP_FROM] else trump
                n = add_move(work, ply, n, c | DECLARE_FLAG,
                              move_score(st, seat, c, _lead_side(opp, c, t, own), value))
                if not rules[R.MARRIAGE_OPTIONAL]:
                    continue
            n = add_move(work, ply, n, c, move_score(st, seat, c, side, 0))
            continue
        if not reduce or side == 0:
            n = add_move(work, ply, n, c, move_score(st, seat, c, side, 0))
            continue
        # The run of equivalent cards starting at c: live cards of the suit adjacent upward that
        # the mover holds and could play, none able to declare. All of them decide the trick the
        # same way (no live card lies between them), so one is searched: the most points if his
        # side takes the trick, the fewest otherwise.
        top = c
        while True:
            above = live & above_in_suit(top)
            if above == 0:
                break
            nxt = lowest_index(above)
            if not (legal >> nxt) & 1 or (declaring >> nxt) & 1:
                break
            top = nxt
            m &= ~(np.int64(1) << nxt)
        keep = top if side == own else c
        n = add_move(work, ply, n, keep, move_score(st, seat, keep, side, 0))
    return n


# ---- playing a card ------------------------------------------------------------------------------
@jit_hot
def play_follow2(st, card):
    """The follower plays ``card``, completing the trick: give it to its winner and return the
    declarer's points from it (its cards, his unsecured marriages on his first trick, the bonus on
    the last trick), and put a pending trump in force (marriage_trump_from = next_trick). Leads are
    ``core_nb.play_lead``. The caller restores leader, trump, owner, pending trump, won bits and
    the trick fields from its own copies."""
    leader = st[ST_LEADER]
    seat = leader ^ 1
    points = CARD_POINTS[card]
    st[seat] ^= np.int64(1) << card
    st[ST_REST_POINTS] -= points
    st[ST_TRICK_POINTS] += points
    winner = seat if beats(card, st[ST_WIN_CARD], st[ST_TRUMP]) else leader
    gain = 0
    if winner == 0:
        gain = st[ST_TRICK_POINTS] + unsecured_points(st)
        if st[0] == 0:  # hands are equal at trick starts: that was the last trick
            gain += st[ST_BONUS]
    if st[ST_PENDING] >= 0:
        st[ST_TRUMP] = st[ST_PENDING]
        st[ST_OWNER] = leader
        st[ST_PENDING] = -1
    st[ST_K] = 0
    st[ST_LEADER] = winner
    st[ST_WON] |= 1 << winner
    return gain


@jit_hot
def _last_trick2(st):
    """Value of a trick start where both hold one card (no combination fits in one card)."""
    leader = st[ST_LEADER]
    first = lowest_index(st[leader])
    second = lowest_index(st[leader ^ 1])
    winner = leader ^ 1 if beats(second, first, st[ST_TRUMP]) else leader
    if winner != 0:
        return 0
    return CARD_POINTS[first] + CARD_POINTS[second] + unsecured_points(st) + st[ST_BONUS]


# ---- the search -----------------------------------------------------------------------------------
@jit_hot
def search2(st, rules, tt, work, alpha, beta):
    """Fail-soft alpha-beta on the declarer's points to come: a result r <= alpha means the value
    is at most r, r >= beta that it is at least r, otherwise r is the value."""
    st[ST_NODES] += 1
    if beta <= 0:  # the declarer's points to come are never negative
        return 0
    k = st[ST_K]
    ka = 0
    kb = 0
    tt_move = -1
    if k == 0:
        h0 = st[0]
        if h0 == 0:
            return 0
        if h0 & (h0 - 1) == 0:
            return _last_trick2(st)
        upper = upper_bound2(st, rules)
        if upper <= alpha:
            return upper
        ka, kb = _tt_keys2(st, rules)
        settled, v, tt_move = tt_probe(tt, st[ST_STAMP], ka, kb, alpha, beta)
        if settled:
            return v
    ply = st[ST_PLY]
    n = generate_moves2(st, rules, work, True)
    sort_moves(work, ply, n, tt_move)
    seat = (st[ST_LEADER] + k) & 1
    maximise = seat == 0
    best = -INFINITE if maximise else INFINITE
    best_move = -1
    a = alpha
    b = beta
    node = node_state(st)
    hand = st[seat]
    st[ST_PLY] = ply + 1
    for i in range(n):
        move = work[ply, i]
        if k == 0:
            gain = play_lead(st, rules, move)
        else:
            gain = play_follow2(st, move)
        # A gain that already reaches beta needs no search below (the rest is never negative); in
        # a wide window, later moves are scouted first (as search3_nb.search).
        if gain >= b:
            v = gain
        elif i == 0 or b - a <= 1:
            v = gain + search2(st, rules, tt, work, a - gain, b - gain)
        elif maximise:
            v = gain + search2(st, rules, tt, work, a - gain, a - gain + 1)
            if a < v < b:
                v = gain + search2(st, rules, tt, work, v - gain, b - gain)
        else:
            v = gain + search2(st, rules, tt, work, b - gain - 1, b - gain)
            if a < v < b:
                v = gain + search2(st, rules, tt, work, a - gain, v - gain)
        restore_node(st, seat, hand, k, node)
        best, best_move, a, b, cut = improve(v, move, best, best_move, a, b, maximise)
        if cut:
            break
    st[ST_PLY] = ply
    if k == 0:
        lower = best if best > alpha else 0
        upper = best if best < beta else TT_NO_UPPER
        tt_store(tt, st[ST_STAMP], ka, kb, lower, upper, best_move, popcount(st[0]))
    return best
