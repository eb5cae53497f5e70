"""Compiled double-dummy solver of the two-player game (RULES.md §4.1, ``players = 2``): the most
points the declarer (seat 0) can be sure of, all cards visible, against the defender (seat 1) who
minimises them. Semantics in docs/solver.md ("Two players").

The search is ``sim.solver.search_nb``'s for two seats, on the same state array, move rows and table (the
module docstring there explains the parts): fail-soft alpha-beta scouting later moves with
zero-window tests, exact values by one window search after a test of a known bound, a table of
bounds at trick starts, quick bounds, equivalent cards and the same move
ordering. What differs:

- tricks have two cards, so the follower always decides the trick: his equivalent cards are always
  reduced to one, and a lead's trick is decided when the other seat cannot beat it;
- ``last_bonus``: points that the winner of the last trick also takes (the cards of the talon the
  declarer did not take). It is part of the value, of the quick upper bound and of the table key.
  The third hand's slot of the state array holds it;
- the table key holds only the leader's won-trick bit (see ``_tt_keys2``).

All kernels take arrays and scalars; buffers come from the caller (``sim.solver.search_buffers``).
Nothing depends on timing or threads. The players built on it, ``sim.players.dd_nb.dd2_choose_card``
and ``sim.players.pimc2_nb``, call ``best_move2``, ``best_discard2`` and the drivers here.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import lowest_index, popcount
from sim.game.cards import CARD_POINTS, SUIT_MASK
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
from sim.solver.search_nb import (
    DECLARE_FLAG,
    DISCARD_ROW,
    EXACT,
    INFINITE,
    MASTER_PENALTY,
    MAX_MOVES,
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
    VOID_BONUS,
    _add_move,
    _keep_cost,
    _move_score,
    _side,
    _sort_moves,
    _tt_store,
    _unsecured,
    combination_bound,
    improve,
    may_declare,
    next_stamp,
    node_state,
    play_lead,
    restore_node,
    restore_position,
    save_position,
    sort_discards,
    tt_probe,
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
    return (st[ST_REST_POINTS] + st[ST_TRICK_POINTS] * (st[ST_K] > 0) + _unsecured(st) + st[ST_BONUS]
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
    kb = _unsecured(st) | (st[ST_BONUS] << 24)
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
    ``search_nb.generate_moves``); return their number. With ``reduce``, keep one card of each run
    of equivalent cards when the trick's side is decided: always for the follower, for the leader
    when the opponent cannot beat the card."""
    ply = st[ST_PLY]
    k = st[ST_K]
    seat = (st[ST_LEADER] + k) & 1
    hand = st[seat]
    opp = st[seat ^ 1]
    trump = st[ST_TRUMP]
    own = _side(seat)
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
            side = own if beats(c, win_card, trump) else _side(seat ^ 1)
        if (declaring >> c) & 1:
            if can_declare:
                value, new_trump, _ = declaration(hand, c, rules)
                t = new_trump if new_trump >= 0 and not rules[R.MARRIAGE_TRUMP_FROM] else trump
                n = _add_move(work, ply, n, c | DECLARE_FLAG,
                              _move_score(st, seat, c, _lead_side(opp, c, t, own), value))
                if not rules[R.MARRIAGE_OPTIONAL]:
                    continue
            n = _add_move(work, ply, n, c, _move_score(st, seat, c, side, 0))
            continue
        if not reduce or side == 0:
            n = _add_move(work, ply, n, c, _move_score(st, seat, c, side, 0))
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
        n = _add_move(work, ply, n, keep, _move_score(st, seat, keep, side, 0))
    return n


# ---- playing a card ------------------------------------------------------------------------------
@jit_hot
def play_follow2(st, card):
    """The follower plays ``card``, completing the trick: give it to its winner and return the
    declarer's points from it (its cards, his unsecured marriages on his first trick, the bonus on
    the last trick), and put a pending trump in force (marriage_trump_from = next_trick). Leads are
    ``search_nb.play_lead``. The caller restores leader, trump, owner, pending trump, won bits and
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
        gain = st[ST_TRICK_POINTS] + _unsecured(st)
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
    return CARD_POINTS[first] + CARD_POINTS[second] + _unsecured(st) + st[ST_BONUS]


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
    _sort_moves(work, ply, n, tt_move)
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
        # a wide window, later moves are scouted first (as search_nb.search).
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
        _tt_store(tt, st[ST_STAMP], ka, kb, lower, upper, best_move, popcount(st[0]))
    return best


@jit_hot
def exact_value2(st, rules, tt, work, lo):
    """The exact value, known to be at least ``lo`` (as ``search_nb.exact_value``)."""
    return exact_between2(st, rules, tt, work, lo, INFINITE)


@jit_hot
def exact_between2(st, rules, tt, work, lo, hi):
    """The exact value of a position known to lie in [``lo``, ``hi``]: a known bound tested
    first, then one window search (as ``search_nb.exact_between``)."""
    cap = upper_bound2(st, rules)
    known_upper = hi < cap
    hi = min(hi, cap)  # an int64 whatever the caller passed (a literal would compile search2 twice)
    if lo >= hi:
        return lo
    if lo > 0:
        r = search2(st, rules, tt, work, lo, lo + 1)
        if r <= lo:
            return lo
        lo = r
    elif known_upper:
        r = search2(st, rules, tt, work, hi - 1, hi)
        if r >= hi:
            return hi
        hi = r
    if lo >= hi:
        return lo
    return search2(st, rules, tt, work, lo - 1, hi + 1)


@jit_hot
def at_least2(st, rules, tt, work, target):
    """Can the declarer be sure of ``target`` points to come?"""
    if target <= 0:
        return True
    return search2(st, rules, tt, work, target - 1, target) >= target


# ---- what callers need: batches, per-card values, best moves, discards, the DD player ----------
@jit_hot
def solve_positions2(hands, leaders, trumps, owners, won, unsecured, bonus, targets, rules, mode, out, nodes,
                     st, work, tt):
    """Trick-start positions of the two-seat game (row i: ``hands[i]`` = masks of seats 0 and 1 and
    the per-row state, ``bonus[i]`` the last trick's bonus): the exact value (mode EXACT) or 1/0
    for "at least ``targets[i]``" into ``out[i]``, nodes searched into ``nodes[i]``. Each position
    is solved from a fresh table generation."""
    for i in range(hands.shape[0]):
        next_stamp(st, tt)
        set_position2(st, hands[i, 0], hands[i, 1], leaders[i], trumps[i], owners[i], won[i], unsecured[i], bonus[i])
        st[ST_NODES] = 0
        if mode == EXACT:
            out[i] = exact_value2(st, rules, tt, work, 0)
        else:
            out[i] = at_least2(st, rules, tt, work, targets[i])
        nodes[i] = st[ST_NODES]


@jit_hot
def move_search2(st, rules, tt, work, move, alpha, beta):
    """``search2`` of the position after the mover plays ``move``, its immediate points included
    (as ``search_nb.move_search``)."""
    saved = save_position(st)
    ply = st[ST_PLY]
    gain = play_lead(st, rules, move) if st[ST_K] == 0 else play_follow2(st, move)
    st[ST_PLY] = ply + 1
    r = gain if gain >= beta else gain + search2(st, rules, tt, work, alpha - gain, beta - gain)
    restore_position(st, saved, ply)
    return r


@jit_hot
def move_exact2(st, rules, tt, work, move, lo, hi):
    """Exact value of the position after the mover plays ``move`` (its immediate points included),
    known to lie in [``lo``, ``hi``] (``exact_between2``)."""
    saved = save_position(st)
    ply = st[ST_PLY]
    gain = play_lead(st, rules, move) if st[ST_K] == 0 else play_follow2(st, move)
    st[ST_PLY] = ply + 1
    v = gain + exact_between2(st, rules, tt, work, max(0, lo - gain), hi - gain)
    restore_position(st, saved, ply)
    return v


@jit_hot
def move_value2(st, rules, tt, work, move):
    """Exact value of the position after the mover plays ``move`` (its immediate points included)."""
    return move_exact2(st, rules, tt, work, move, 0, INFINITE)




@jit_hot
def lead_values2(st, rules, tt, work, out):
    """For a trick start: ``out[c]`` = the value if the seat on lead leads card c (with the
    declaration choice best for him where marriages are optional), -1 for cards he may not lead."""
    out[:] = -1
    n = generate_moves2(st, rules, work, False)
    seat = st[ST_LEADER]
    ply = st[ST_PLY]
    for i in range(n):
        move = work[ply, i]
        v = move_value2(st, rules, tt, work, move)
        generate_moves2(st, rules, work, False)  # the same list again: deeper searches used the row
        c = move & 31
        if out[c] < 0 or (v > out[c] if seat == 0 else v < out[c]):
            out[c] = v


@jit_hot
def best_move2(st, rules, tt, work):
    """(move, value) for the mover at any node: the first move in search order whose value equals
    the position's value."""
    value = exact_value2(st, rules, tt, work, 0)
    k = st[ST_K]
    maximise = ((st[ST_LEADER] + k) & 1) == 0
    ply = st[ST_PLY]
    saved = save_position(st)
    n = generate_moves2(st, rules, work, True)
    _sort_moves(work, ply, n, -1)
    for i in range(n):
        move = work[ply, i]
        gain = play_lead(st, rules, move) if k == 0 else play_follow2(st, move)
        st[ST_PLY] = ply + 1
        if maximise:
            ok = gain + search2(st, rules, tt, work, value - gain - 1, value - gain) >= value
        else:
            ok = gain + search2(st, rules, tt, work, value - gain, value - gain + 1) <= value
        restore_position(st, saved, ply)
        if ok:
            return move, value
        n = generate_moves2(st, rules, work, True)
        _sort_moves(work, ply, n, -1)
    return -1, value  # not reached: some move always attains the value


@jit_hot
def principal_variation2(st, rules, tt, work, out):
    """Play the position out with best moves; ``out[i]`` = move code, ``out[24 + i]`` = the seat
    that played it. Returns the number of cards played. The state is left as it was."""
    saved = save_position(st)
    ply = st[ST_PLY]
    n = 0
    while st[0] | st[1]:
        move, _ = best_move2(st, rules, tt, work)
        out[n] = move
        out[24 + n] = (st[ST_LEADER] + st[ST_K]) & 1
        n += 1
        if st[ST_K] == 0:
            play_lead(st, rules, move)
        else:
            play_follow2(st, move)
    restore_position(st, saved, ply)
    return n


# ---- the discard -------------------------------------------------------------------------------------
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
    """Order in which discards are searched, as ``search_nb._discard_order_cost`` for up to three
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
