"""Compiled double-dummy solver of the two-player game (RULES.md §4.1, ``players = 2``): the most
points the declarer (seat 0) can be sure of, all cards visible, against the defender (seat 1) who
minimises them; and the PIMC player built on it (last section). Semantics in docs/solver.md ("Two
players").

The search is ``sim.solver_nb``'s for two seats, on the same state array, move rows and table (the
module docstring there explains the parts): fail-soft zero-window alpha-beta, exact values by
bisection, a table of bounds at trick starts, quick bounds, equivalent cards and the same move
ordering. What differs:

- tricks have two cards, so the follower always decides the trick: his equivalent cards are always
  reduced to one, and a lead's trick is decided when the other seat cannot beat it;
- ``last_bonus``: points that the winner of the last trick also takes (the cards of the talon the
  declarer did not take). It is part of the value, of the quick upper bound and of the table key.
  The third hand's slot of the state array holds it;
- the table key holds only the leader's won-trick bit (see ``_tt_keys2``).

All kernels take arrays and scalars; buffers come from the caller (``solver_nb.new_work``,
``solver_nb.new_table``, ``pimc_nb.new_pimc_buffer``). Nothing depends on timing or threads. The
engine's entry points: ``dd2_choose_card``, ``best_discard2``, ``pimc2_choose_card``,
``pimc2_choose_discard`` (seats are the engine's, 0 and 1).
"""

import numpy as np

from sim import rules_layout as R
from sim.bits_nb import lowest_index, popcount
from sim.numba_config import jit_hot
from sim.pimc_nb import (
    CANDIDATE_WORLDS,
    WB_HANDS,
    WB_MOVES,
    WB_SUMS,
    best_candidate,
    sample_world,
    take_candidates,
)
from sim.play_nb import (
    CARD_POINTS,
    FULL_DECK,
    SUIT_MASK,
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
from sim.solver_nb import (
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
    next_stamp,
    node_state,
    play_lead,
    restore_node,
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
    ``solver_nb.generate_moves``); return their number. With ``reduce``, keep one card of each run
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
        can_declare = (st[ST_WON] >> seat) & 1 or rules[R.MARRIAGE_FIRST_LEAD]
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
                t = new_trump if new_trump >= 0 else trump
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
    the last trick). Leads are ``solver_nb.play_lead``. The caller restores leader, won bits and
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
        # A gain that already reaches beta needs no search below (the rest is never negative).
        v = gain if gain >= b else gain + search2(st, rules, tt, work, a - gain, b - gain)
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
def exact_value2(st, rules, tt, work, lo, guess):
    """The exact value, known to be at least ``lo``: zero-window tests at ``guess``, then at the
    middle of the remaining interval (as ``solver_nb.exact_value``)."""
    hi = upper_bound2(st, rules)
    beta = guess
    while lo < hi:
        beta = max(lo + 1, min(hi, beta))
        r = search2(st, rules, tt, work, beta - 1, beta)
        if r >= beta:
            lo = r
        else:
            hi = r
        beta = (lo + hi + 1) // 2
    return lo


@jit_hot
def at_least2(st, rules, tt, work, target):
    """Can the declarer be sure of ``target`` points to come?"""
    if target <= 0:
        return True
    return search2(st, rules, tt, work, target - 1, target) >= target


@jit_hot
def first_guess(st):
    """First test of exact_value2: half of what is left."""
    return (st[ST_REST_POINTS] + st[ST_BONUS]) // 2


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
            out[i] = exact_value2(st, rules, tt, work, 0, first_guess(st))
        else:
            out[i] = at_least2(st, rules, tt, work, targets[i])
        nodes[i] = st[ST_NODES]


@jit_hot
def _save(st):
    """The state fields below ST_PLY (hands, bonus, leader, trump, owner, won, unsecured, trick)."""
    return (st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10], st[11], st[12],
            st[13])


@jit_hot
def _restore(st, saved, ply):
    """Put back the fields of ``_save`` and the ply."""
    for j in range(ST_PLY):
        st[j] = saved[j]
    st[ST_PLY] = ply


@jit_hot
def move_value2(st, rules, tt, work, move):
    """Exact value of the position after the mover plays ``move`` (its immediate points included)."""
    saved = _save(st)
    ply = st[ST_PLY]
    gain = play_lead(st, rules, move) if st[ST_K] == 0 else play_follow2(st, move)
    st[ST_PLY] = ply + 1
    v = gain + exact_value2(st, rules, tt, work, 0, 0)
    _restore(st, saved, ply)
    return v




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
    value = exact_value2(st, rules, tt, work, 0, 0)
    k = st[ST_K]
    maximise = ((st[ST_LEADER] + k) & 1) == 0
    ply = st[ST_PLY]
    saved = _save(st)
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
        _restore(st, saved, ply)
        if ok:
            return move, value
        n = generate_moves2(st, rules, work, True)
        _sort_moves(work, ply, n, -1)
    return -1, value  # not reached: some move always attains the value


@jit_hot
def principal_variation2(st, rules, tt, work, out):
    """Play the position out with best moves; ``out[i]`` = move code, ``out[24 + i]`` = the seat
    that played it. Returns the number of cards played. The state is left as it was."""
    saved = _save(st)
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
    _restore(st, saved, ply)
    return n


@jit_hot
def dd2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                    last_bonus, rules, st, work, tt):
    """The double-dummy player's card in the two-player game, seeing both hands: (card, declare).
    Seats are the engine's (0, 1); ``hands[0]``, ``hands[1]`` their cards not yet played, ``trick[0]``
    the led card when ``n_in_trick`` is 1, ``trump`` the trump in force for this trick (-1 none),
    ``trump_owner`` the seat that declared it (-1 none), ``won`` a bit per seat that has won a
    trick, ``unsecured`` the declarer's marriage points waiting for his first trick (burning rule),
    ``last_bonus`` the points the last trick's winner also takes (the unused talon). ``declare``
    as in ``solver_nb.dd_choose_card``. The declarer maximises his points to come, the defender
    minimises them; ties go to the first move in search order; a new table generation per call."""
    next_stamp(st, tt)
    rel_won = 0
    for s in range(2):
        if (won >> s) & 1:
            rel_won |= 1 << (s ^ declarer)
    rel_owner = -1 if trump_owner < 0 else trump_owner ^ declarer
    h0 = hands[declarer]
    h1 = hands[declarer ^ 1]
    if n_in_trick == 1:  # the led card goes back to its player and is led again on the solver's state
        if leader == declarer:
            h0 |= np.int64(1) << trick[0]
        else:
            h1 |= np.int64(1) << trick[0]
    set_position2(st, h0, h1, leader ^ declarer, trump, rel_owner, rel_won, unsecured, last_bonus)
    if n_in_trick == 1:
        play_lead(st, rules, trick[0])  # already declared if it did: trump is the one in force
    move, _ = best_move2(st, rules, tt, work)
    card = move & 31
    if move < 0 or not (legal >> card) & 1:
        return lowest_index(legal), False  # not reached when the engine's rules match the solver's
    return card, (move & DECLARE_FLAG) != 0


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
    """Order in which discards are searched, as ``solver_nb._discard_order_cost`` for up to three
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
            v = buried + exact_value2(st, rules, tt, work, r, r)
        else:
            v = buried + exact_value2(st, rules, tt, work, 0, first_guess(st))
        best = v
        best_code = code
    b1, b2, t = decode_discard(best_code)
    return b1, b2, t, best


# ---- the PIMC player ---------------------------------------------------------------------------------
# As ``sim.pimc_nb`` for two seats: the seat samples ``n_worlds`` worlds of what it cannot see — the
# opponent's hand, the other talon (whose points go to the last trick's winner) and the buried cards
# — consistent with what it knows (its own hand, the cards played, the cards known to lie in each of
# those three places, the suits the opponent has shown out of), and scores each legal move by the
# double-dummy value averaged over the worlds, each world's last_bonus being the points of its other
# talon. The declarer takes the highest average, the defender the lowest; ties go to the first move
# in the solver's move order. Worlds are uniform among the consistent ones: the opponent's cards are
# drawn among the unseen cards of suits he may still hold, then the other talon's among the rest,
# the buried cards are what remains. Buffers as ``sim.pimc_nb`` (``wbuf = pimc_nb.new_pimc_buffer()``),
# ``rng`` a generator state of ``sim.rng_nb``.

# wbuf[WB_HANDS:WB_HANDS + 6]: a world (the opponent's hand, the other talon, the buried cards),
# then the void bits sample_world reads for those three places (only the opponent has any).
W_OPP, W_TALON, W_BURIED = 0, 1, 2
W_VOIDS = 3


@jit_hot
def sample_world2(rng, pool, either, need_opp, need_talon, opp_voids, wbuf):
    """Deal the ``pool`` of unseen cards and ``either``, cards known to be the opponent's or buried
    (the taken talon a defender saw): ``need_opp`` more to the opponent (never a card of a suit
    he is void in, where the voids leave a choice), ``need_talon`` more to the other talon (never
    one of ``either``), the rest to the buried cards (added to the world's places, which hold the
    known cards). Uniform over the consistent deals when ``either`` is empty (every choice of the
    opponent's cards leaves as many ways to split the rest); otherwise the other talon is drawn
    first, uniformly, then the opponent's cards, which is uniform too unless his voids bind."""
    world = wbuf[WB_HANDS:WB_HANDS + W_VOIDS]
    voids = wbuf[WB_HANDS + W_VOIDS:WB_HANDS + W_VOIDS + 3]
    voids[W_OPP] = opp_voids
    voids[W_TALON] = 0
    voids[W_BURIED] = 0
    rest_known = world[W_BURIED]
    world[W_BURIED] = 0
    if either == 0:
        # The talon's and the buried cards first go to the buried place together, then are split.
        sample_world(rng, pool, W_OPP, need_opp, W_BURIED, popcount(pool) - need_opp, voids, world, wbuf)
        rest = world[W_BURIED]
        world[W_BURIED] = rest_known
        sample_world(rng, rest, W_TALON, need_talon, W_BURIED, popcount(rest) - need_talon, voids, world, wbuf)
    else:
        sample_world(rng, pool, W_TALON, need_talon, W_BURIED, popcount(pool) - need_talon, voids, world, wbuf)
        rest = world[W_BURIED] | either
        world[W_BURIED] = rest_known
        sample_world(rng, rest, W_OPP, need_opp, W_BURIED, popcount(rest) - need_opp, voids, world, wbuf)


@jit_hot
def pimc2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                      played, voids, known, counts, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC player's card in the two-player game: (card, declare), arguments as
    ``dd2_choose_card`` (without last_bonus) plus what the seat knows. Only ``hands[seat]`` is
    read. ``played``: every card played so far in the deal (this trick's included). ``voids``:
    int64 (2,), bit s = the seat has shown out of suit s. ``known``: int64 (4,) cards the seat
    knows to be in the opponent's hand, in the other talon, buried (the declarer knows his buried
    cards and, with two_player_talon = 3, the card he put into the talon), and (4th) in the
    opponent's hand or buried (the taken talon, shown to the defender); played cards are
    ignored. ``counts``: int64 (3,) the sizes of those three now (the opponent's hand without his
    card on the table); the buried cards take what the other two leave of the unseen cards, so
    counts[2] is implied. ``n_worlds`` worlds are sampled with ``rng``."""
    own = hands[seat]
    opp = seat ^ 1
    k_opp = known[0] & ~played & ~own
    k_talon = known[1] & ~played & ~own & ~k_opp
    k_buried = known[2] & ~played & ~own & ~k_opp & ~k_talon
    k_either = known[3] & ~played & ~own & ~k_opp & ~k_talon & ~k_buried
    pool = FULL_DECK & ~played & ~own & ~k_opp & ~k_talon & ~k_buried & ~k_either
    need_opp = counts[0] - popcount(k_opp)
    need_talon = counts[1] - popcount(k_talon)
    rel_won = 0
    for s in range(2):
        if (won >> s) & 1:
            rel_won |= 1 << (s ^ declarer)
    rel_owner = -1 if trump_owner < 0 else trump_owner ^ declarer
    maximise = seat == declarer
    world = wbuf[WB_HANDS:WB_HANDS + W_VOIDS]
    n = 0
    for w in range(max(1, n_worlds)):
        world[W_OPP] = k_opp
        world[W_TALON] = k_talon
        world[W_BURIED] = k_buried
        sample_world2(rng, pool, k_either, need_opp, need_talon, voids[opp], wbuf)
        h_seat = own
        h_opp = world[W_OPP]
        if n_in_trick == 1:  # the led card goes back to its player and is led again on the solver's state
            if leader == seat:
                h_seat |= np.int64(1) << trick[0]
            else:
                h_opp |= np.int64(1) << trick[0]
        next_stamp(st, tt)
        if seat == declarer:
            set_position2(st, h_seat, h_opp, leader ^ declarer, trump, rel_owner, rel_won, unsecured,
                          mask_points(world[W_TALON]))
        else:
            set_position2(st, h_opp, h_seat, leader ^ declarer, trump, rel_owner, rel_won, unsecured,
                          mask_points(world[W_TALON]))
        if n_in_trick == 1:
            play_lead(st, rules, trick[0])  # its declaration is already in trump and points
        if w == 0:
            n = take_candidates(work, st[ST_PLY], generate_moves2(st, rules, work, False), legal, wbuf)
            if n == 1:
                break
        for i in range(n):
            wbuf[WB_SUMS + i] += move_value2(st, rules, tt, work, wbuf[WB_MOVES + i])
    return best_candidate(wbuf, n, legal, maximise)


@jit_hot
def pimc2_choose_discard(hand12, to_talon, givable, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC declarer's discard in the two-player game: (b1, b2, t) as ``best_discard2``
    (t = -1 without ``to_talon``). He knows only his 12 cards; the 12 others are the defender's
    hand (10, or 9 with ``to_talon``) and the other talon (2, or 3). Candidates are the
    double-dummy best discards of the first CANDIDATE_WORLDS sampled worlds (at most that many,
    out of 66 or 220); each candidate is then scored by its value (buried points + the play's
    double-dummy value, the world's talon and t making the bonus) averaged over ``n_worlds`` fresh
    worlds."""
    pool = FULL_DECK & ~hand12
    n_talon = 3 if to_talon else 2
    need_opp = popcount(pool) - n_talon
    world = wbuf[WB_HANDS:WB_HANDS + W_VOIDS]
    n = 0
    for _w in range(min(max(1, n_worlds), CANDIDATE_WORLDS)):
        world[:] = 0
        sample_world2(rng, pool, 0, need_opp, n_talon, 0, wbuf)
        b1, b2, t, _ = best_discard2(hand12, world[W_OPP], world[W_TALON], to_talon, givable, rules, st, work, tt)
        code = encode_discard(b1, b2, t)
        new = True
        for i in range(n):
            if wbuf[WB_MOVES + i] == code:
                new = False
        if new:
            wbuf[WB_MOVES + n] = code
            wbuf[WB_SUMS + n] = 0
            n += 1
    if n > 1:
        for _w in range(max(1, n_worlds)):
            world[:] = 0
            sample_world2(rng, pool, 0, need_opp, n_talon, 0, wbuf)
            talon_points = mask_points(world[W_TALON])
            next_stamp(st, tt)
            for i in range(n):
                b1, b2, t = decode_discard(wbuf[WB_MOVES + i])
                gone = (np.int64(1) << b1) | (np.int64(1) << b2)
                bonus = talon_points
                if t >= 0:
                    gone |= np.int64(1) << t
                    bonus += CARD_POINTS[t]
                set_position2(st, hand12 & ~gone, world[W_OPP], 0, -1, -1, 0, 0, bonus)
                wbuf[WB_SUMS + i] += CARD_POINTS[b1] + CARD_POINTS[b2] + exact_value2(st, rules, tt, work, 0,
                                                                                      first_guess(st))
    best = 0
    for i in range(1, n):
        if wbuf[WB_SUMS + i] > wbuf[WB_SUMS + best]:
            best = i
    return decode_discard(wbuf[WB_MOVES + best])
