"""Compiled double-dummy node search of the three-seat game: the most points the declarer (seat 0)
can be sure of, with all cards visible, against two defenders (seats 1 and 2) who both minimise
them. Semantics in docs/solver.md; what both searches share (state, table, ordering, leads) is in
``core_nb``, the questions asked of a search (exact values, thresholds, best moves...) in
``drivers_nb``.

Search. One self-recursive, fail-soft alpha-beta over single card plays (Numba cannot run mutual
recursion between jitted functions); the value of a node is the declarer's points still to come,
including the cards already on the table if he wins the trick. In a wide window every move after
a node's first is scouted by a zero-window test against the best so far and searched again only
when it beats it (principal-variation search). What makes it fast:

- a transposition table at trick starts holding lower and upper bounds, keyed by the three hands
  (so work is shared between positions that reach the same state, e.g. across discards) and by
  only the parts of leader / trump / owner / won-trick state that can still matter;
- quick bounds: 0 below, and above the points left + the marriages the declarer still holds;
  at a trick start, the points the seat on lead is sure to take by cashing cards nobody can beat
  (``sure_points``) raise the lower bound when he is the declarer and lower the upper one when he
  is a defender;
- equivalent cards: two cards of one hand adjacent in rank among the live cards are
  interchangeable for the rest of the deal except for their points. When the side that wins the
  current trick no longer depends on later plays, the mover's best choice among them is known:
  the highest-point card if his side wins the trick, the lowest otherwise (swapping the two cards
  mirrors every continuation and changes the payoff by (p(x) - p(y)) * (W_now - W_later), whose
  sign is then fixed). Cards that can declare a marriage are never merged;
- move ordering: the table's best lead first, then sure winners for the mover's side with most
  points, then undecided tricks, then sure losers with fewest points;
- the last two tricks are searched by a small routine on local copies of the state (no move
  lists, ordering or table work), the last trick scored directly: about 6% faster overall.

All kernels take arrays and scalars; buffers come from the caller so that search allocates nothing.
Nothing depends on timing or threads: the same inputs always give the same answers and node counts.
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
)
from sim.numba_config import jit_hot
from sim.solver.core_nb import (
    DECLARE_FLAG,
    INFINITE,
    ST_HAND,
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


# ---- bounds and positions ------------------------------------------------------------------------
@jit_hot
def upper_bound(st, rules):
    """Declarer's points to come can be no more than everything left plus his combinations."""
    return st[ST_REST_POINTS] + st[ST_TRICK_POINTS] * (st[ST_K] > 0) + unsecured_points(st) + combination_bound(
        st[ST_HAND], rules
    )


@jit_hot
def sure_points(st, rules):
    """Card points the seat on lead at a trick start is sure to take by leading, one trick after
    another, cards that no other hand can beat: in each suit the cards above every card the other
    hands hold of it, and in a suit other than trump at most as many as the shortest holding of it
    among the other hands that hold a trump (a hand void in the led suit must trump, so it never
    discards, and its holding shrinks only when the suit is led; a hand without trumps never wins
    the trick). Plus, in the one suit run first, the lowest cards the others must follow with (a
    hand without trumps may throw away its cards of the later suits meanwhile). Cards that can
    declare are left out (their lead would change the trump); as nobody else leads, the trump
    stays for the whole run. 0 under ``must_lead_trump`` and ``no_lead_foreign_trump``, which can
    forbid the order."""
    if rules[R.MUST_LEAD_TRUMP] or rules[R.NO_LEAD_FOREIGN_TRUMP]:
        return 0
    seat = st[ST_LEADER]
    o1 = st[(seat + 1) % 3]
    o2 = st[(seat + 2) % 3]
    others = o1 | o2
    trump = st[ST_TRUMP]
    hand = st[seat]
    cash = hand & ~declaring_cards(hand, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE])
    total = 0
    best_follow = 0
    for s in range(4):
        mine = cash & SUIT_MASK[s]
        if mine == 0:
            continue
        theirs = others & SUIT_MASK[s]
        while theirs & (theirs - 1):  # keep their highest card
            theirs &= theirs - 1
        masters = mine & ~((theirs << 1) - 1) if theirs else mine
        if masters == 0:
            continue
        n = popcount(masters)
        if trump >= 0 and s != trump:
            if o1 & SUIT_MASK[trump]:
                n = min(n, popcount(o1 & SUIT_MASK[s]))
            if o2 & SUIT_MASK[trump]:
                n = min(n, popcount(o2 & SUIT_MASK[s]))
        for _ in range(popcount(masters) - n):  # cash the strongest (most points) first
            masters &= masters - 1
        while masters:
            total += CARD_POINTS[lowest_index(masters)]
            masters &= masters - 1
        # Each other hand follows suit while it can, with its lowest cards at best; only in one
        # suit, led first (a hand without trumps may discard the others' cards meanwhile).
        follow = 0
        for follower in (o1, o2):
            m = follower & SUIT_MASK[s]
            for _ in range(n):
                if m == 0:
                    break
                follow += CARD_POINTS[lowest_index(m)]
                m &= m - 1
        best_follow = max(best_follow, follow)
    return total + best_follow


@jit_hot
def set_position(st, h0, h1, h2, leader, trump, owner, won, unsecured):
    """A trick-start position into the state array (the stamp and node count are kept)."""
    st[0] = h0
    st[1] = h1
    st[2] = h2
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
    rest = 0
    m = h0 | h1 | h2
    while m:
        low = m & -m
        rest += CARD_POINTS[lowest_index(low)]
        m ^= low
    st[ST_REST_POINTS] = rest
    st[ST_PLY] = 0


# ---- transposition table ---------------------------------------------------------------------
@jit_hot
def _tt_keys(st, rules):
    """Keys of a trick-start state, leaving out what can no longer change the value: the owner of
    the trump without no_lead_foreign_trump, won-trick bits of seats holding no combination (and
    all of them under marriage_first_lead, but the declarer's with the burning rule)."""
    won = st[ST_WON]
    if rules[R.MARRIAGE_FIRST_LEAD]:
        key_won = won & 1 if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] else 0
    else:
        key_won = 0
        for s in range(3):
            if (won >> s) & 1 and combination_bound(st[s], rules) > 0:
                key_won |= 1 << s
    owner = st[ST_OWNER] if rules[R.NO_LEAD_FOREIGN_TRUMP] else -1
    ka = (st[0] | (st[1] << 24) | (st[ST_LEADER] << 48) | ((st[ST_TRUMP] + 1) << 50) | (key_won << 53)
          | ((owner + 1) << 56))
    kb = st[2] | (unsecured_points(st) << 24)
    return ka, kb


# ---- move generation ----------------------------------------------------------------------------
@jit_hot
def trick_side(st, seat, card, trump):
    """Side (1 declarer, 2 defenders) that wins the current trick once ``seat`` plays ``card``
    whatever the later players do, or 0 if they can still change it. A later player can beat the
    trick exactly when a card of ``follow_allowed`` can (must_head only picks which one)."""
    k = st[ST_K]
    if k == 0:
        mine = side_of(seat)
        for j in (1, 2):
            f = (seat + j) % 3
            if side_of(f) != mine and beaters(follow_allowed(st[f], card // 6, trump), card, trump):
                return 0
        return mine
    win_card = st[ST_WIN_CARD]
    win_seat = st[ST_WIN_SEAT]
    if beats(card, win_card, trump):
        win_card = card
        win_seat = seat
    if k == 1:
        last = (st[ST_LEADER] + 2) % 3
        if side_of(last) != side_of(win_seat) and beaters(follow_allowed(st[last], st[ST_LED], trump), win_card, trump):
            return 0
    return side_of(win_seat)


@jit_hot
def generate_moves(st, rules, work, reduce):
    """Fill row ``ply`` of ``work`` with the mover's moves and their ordering scores; return their
    number. With ``reduce``, keep one card of each run of equivalent cards when the trick's side
    is already decided (see the module docstring). For a plain card the side comes from what is
    fixed for the whole node (as ``trick_side``, which declarations use): at a lead, the cards the
    other side's followers may play in its suit; later, the winning card and the last player's
    cards (must_head changes which card he plays, not whether he can beat: see ``trick_side``)."""
    ply = st[ST_PLY]
    k = st[ST_K]
    seat = (st[ST_LEADER] + k) % 3
    hand = st[seat]
    trump = st[ST_TRUMP]
    own = side_of(seat)
    declaring = declaring_cards(hand, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE])
    win_card = -1
    win_seat = -1
    threat1 = 0
    threat2 = 0
    last_allowed = 0
    last_side = 0
    if k == 0:
        legal = legal_leads(hand, trump, st[ST_OWNER] == seat, rules[R.NO_LEAD_FOREIGN_TRUMP],
                            rules[R.MUST_LEAD_TRUMP])
        can_declare = may_declare(st[ST_WON], seat, hand, rules)
        live = st[0] | st[1] | st[2]
        # The followers of the other side (an own-side follower threatens nothing).
        f1 = (seat + 1) % 3
        f2 = (seat + 2) % 3
        threat1 = st[f1] if side_of(f1) != own else 0
        threat2 = st[f2] if side_of(f2) != own else 0
    else:
        win_card = st[ST_WIN_CARD]
        win_seat = st[ST_WIN_SEAT]
        legal = legal_follows(hand, st[ST_LED], win_card, trump, rules[R.MUST_HEAD])
        can_declare = False
        live = st[0] | st[1] | st[2] | (np.int64(1) << win_card)
        if k == 1:
            last = (st[ST_LEADER] + 2) % 3
            last_allowed = follow_allowed(st[last], st[ST_LED], trump)
            last_side = side_of(last)
    n = 0
    m = legal
    suit = -1
    threat = 0
    while m:
        c = lowest_index(m)
        m &= m - 1
        if (declaring >> c) & 1:
            if can_declare:
                value, new_trump, _ = declaration(hand, c, rules)
                t = new_trump if new_trump >= 0 and not rules[R.MARRIAGE_TRUMP_FROM] else trump
                n = add_move(work, ply, n, c | DECLARE_FLAG,
                              move_score(st, seat, c, trick_side(st, seat, c, t), value))
                if not rules[R.MARRIAGE_OPTIONAL]:
                    continue
            n = add_move(work, ply, n, c, move_score(st, seat, c, trick_side(st, seat, c, trump), 0))
            continue
        # The run of equivalent cards starting at c: live cards of the suit adjacent upward that
        # the mover holds and could play, none able to declare.
        top = c
        run = np.int64(1) << c
        if reduce:
            while True:
                above = live & above_in_suit(top)
                if above == 0:
                    break
                nxt = lowest_index(above)
                if not (legal >> nxt) & 1 or (declaring >> nxt) & 1:
                    break
                top = nxt
                run |= np.int64(1) << nxt
        if k == 0:
            if c // 6 != suit:
                suit = c // 6
                threat = follow_allowed(threat1, suit, trump) | follow_allowed(threat2, suit, trump)
            side = 0 if beaters(threat, c, trump) else own
        else:
            ws = seat if beats(c, win_card, trump) else win_seat
            if k == 1 and last_side != side_of(ws) and beaters(last_allowed, c if ws == seat else win_card, trump):
                side = 0
            else:
                side = side_of(ws)
        if top == c or side == 0:
            r = run
            while r:
                x = lowest_index(r)
                r &= r - 1
                n = add_move(work, ply, n, x, move_score(st, seat, x, side, 0))
        else:
            keep = top if side == own else c
            n = add_move(work, ply, n, keep, move_score(st, seat, keep, side, 0))
        m &= ~run
    return n


# ---- playing a follower's card ---------------------------------------------------------------------
@jit_hot
def play_follow(st, card):
    """Play ``card`` as the next follower; when it completes the trick, give the trick to its
    winner and return the declarer's points from it (its cards, and his unsecured marriages on his
    first trick), and put a pending trump in force. The caller restores leader, trump, owner,
    pending trump, won bits and the trick fields from its own copies."""
    k = st[ST_K]
    seat = (st[ST_LEADER] + k) % 3
    points = CARD_POINTS[card]
    st[seat] ^= np.int64(1) << card
    st[ST_REST_POINTS] -= points
    st[ST_TRICK_POINTS] += points
    if beats(card, st[ST_WIN_CARD], st[ST_TRUMP]):
        st[ST_WIN_CARD] = card
        st[ST_WIN_SEAT] = seat
    if k == 1:
        st[ST_K] = 2
        return 0
    winner = st[ST_WIN_SEAT]
    gain = 0
    if winner == 0:
        gain = st[ST_TRICK_POINTS] + unsecured_points(st)
    if st[ST_PENDING] >= 0:  # marriage_trump_from = next_trick: the trump the lead declared
        st[ST_TRUMP] = st[ST_PENDING]
        st[ST_OWNER] = st[ST_LEADER]
        st[ST_PENDING] = -1
    st[ST_K] = 0
    st[ST_LEADER] = winner
    st[ST_WON] |= 1 << winner
    return gain


# ---- the last two tricks, searched on local copies ----------------------------------------------------
@jit_hot
def _trick_winner(leader, first, second, third, trump):
    """Seat that wins a trick in which ``leader`` plays ``first`` and the next two seats ``second``
    and ``third``."""
    win_card = first
    win_seat = leader
    if beats(second, win_card, trump):
        win_card = second
        win_seat = (leader + 1) % 3
    if beats(third, win_card, trump):
        win_seat = (leader + 2) % 3
    return win_seat


@jit_hot
def _last_trick(st):
    """Value of a trick start where everyone holds one card (no combination fits in one card)."""
    leader = st[ST_LEADER]
    first = lowest_index(st[leader])
    second = lowest_index(st[(leader + 1) % 3])
    third = lowest_index(st[(leader + 2) % 3])
    if _trick_winner(leader, first, second, third, st[ST_TRUMP]) != 0:
        return 0
    return CARD_POINTS[first] + CARD_POINTS[second] + CARD_POINTS[third] + unsecured_points(st)


@jit_hot
def _better(v, best, maximise):
    """Whether ``v`` improves on ``best`` for the side to move."""
    return v > best if maximise else v < best


@jit_hot
def _cutoff(best, alpha, beta, maximise):
    """Whether ``best`` already fails the window: high for the maximiser, low for the minimiser."""
    return best >= beta if maximise else best <= alpha


@jit_hot
def _last_two(c, leader, rest_l, h1, h2, trump, last_trump, won0, unsecured, must_head, alpha, beta):
    """Declarer's points from a penultimate trick led with ``c`` by ``leader`` (who keeps
    ``rest_l``), the followers holding two cards each (``h1`` left of the leader, ``h2`` next),
    played under ``trump``, and the last trick, under ``last_trump`` (another than ``trump`` when
    the lead declared one under marriage_trump_from = next_trick); fail-soft alpha-beta over the
    followers' choices."""
    s1 = (leader + 1) % 3
    s2 = (leader + 2) % 3
    led = c // 6
    p0 = CARD_POINTS[c]
    max1 = s1 == 0
    best1 = -INFINITE if max1 else INFINITE
    m1 = legal_follows(h1, led, c, trump, must_head)
    while m1:
        c1 = lowest_index(m1)
        m1 &= m1 - 1
        wc1, ws1 = (c1, s1) if beats(c1, c, trump) else (c, leader)
        max2 = s2 == 0
        best2 = -INFINITE if max2 else INFINITE
        m2 = legal_follows(h2, led, wc1, trump, must_head)
        while m2:
            c2 = lowest_index(m2)
            m2 &= m2 - 1
            w = s2 if beats(c2, wc1, trump) else ws1
            v = 0
            won = won0
            if w == 0:
                v = p0 + CARD_POINTS[c1] + CARD_POINTS[c2] + (0 if won else unsecured)
                won = True
            # The last trick: each seat's remaining card, w leading.
            last_l = lowest_index(rest_l)
            last_1 = lowest_index(h1 ^ (np.int64(1) << c1))
            last_2 = lowest_index(h2 ^ (np.int64(1) << c2))
            if w == leader:
                first, second, third = last_l, last_1, last_2
            elif w == s1:
                first, second, third = last_1, last_2, last_l
            else:
                first, second, third = last_2, last_l, last_1
            if _trick_winner(w, first, second, third, last_trump) == 0:
                v += CARD_POINTS[first] + CARD_POINTS[second] + CARD_POINTS[third] + (0 if won else unsecured)
            if _better(v, best2, max2):
                best2 = v
            if _cutoff(best2, alpha, beta, max2):
                break
        if _better(best2, best1, max1):
            best1 = best2
        if _cutoff(best1, alpha, beta, max1):
            break
    return best1


@jit_hot
def _two_tricks(st, rules, alpha, beta):
    """Value of a trick start where every hand holds two cards (the last two tricks), by
    fail-soft alpha-beta on local copies of the state (no combination fits in the last card)."""
    leader = st[ST_LEADER]
    hand = st[leader]
    trump = st[ST_TRUMP]
    won0 = (st[ST_WON] & 1) == 1
    unsecured = st[ST_UNSECURED]
    must_head = rules[R.MUST_HEAD]
    declaring = declaring_cards(hand, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE])
    h1 = st[(leader + 1) % 3]
    h2 = st[(leader + 2) % 3]
    legal = legal_leads(hand, trump, st[ST_OWNER] == leader, rules[R.NO_LEAD_FOREIGN_TRUMP],
                        rules[R.MUST_LEAD_TRUMP])
    can_declare = may_declare(st[ST_WON], leader, hand, rules)
    trump_later = rules[R.MARRIAGE_TRUMP_FROM] != 0
    maximise = leader == 0
    best = -INFINITE if maximise else INFINITE
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        rest = hand ^ (np.int64(1) << c)
        declares = can_declare and (declaring >> c) & 1
        for variant in range(2):
            t = trump
            t_last = trump
            gain = 0
            unsec = unsecured
            if variant == 0:
                if not declares:
                    continue
                value, new_trump, _ = declaration(hand, c, rules)
                if new_trump >= 0:
                    t_last = new_trump
                    if not trump_later:
                        t = new_trump
                if leader == 0:
                    if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and not won0:
                        unsec += value
                    else:
                        gain = value
            elif declares and not rules[R.MARRIAGE_OPTIONAL]:
                continue
            v = gain + _last_two(c, leader, rest, h1, h2, t, t_last, won0, unsec, must_head, alpha - gain,
                                 beta - gain)
            if _better(v, best, maximise):
                best = v
            if _cutoff(best, alpha, beta, maximise):
                return best
    return best

# ---- the search -----------------------------------------------------------------------------------
@jit_hot
def search(st, rules, tt, work, alpha, beta):
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
            return _last_trick(st)
        upper = upper_bound(st, rules)
        if upper <= alpha:
            return upper
        ka, kb = _tt_keys(st, rules)
        settled, v, tt_move = tt_probe(tt, st[ST_STAMP], ka, kb, alpha, beta)
        if settled:
            return v
        if popcount(h0) == 2:
            v = _two_tricks(st, rules, alpha, beta)
            tt_store(tt, st[ST_STAMP], ka, kb, v if v > alpha else 0, v if v < beta else TT_NO_UPPER, -1, 2)
            return v
        sure = sure_points(st, rules)
        if sure:
            if st[ST_LEADER] == 0:
                lower = sure + unsecured_points(st)  # his first trick also secures the unsecured points
                if lower >= beta:
                    return lower
            elif upper - sure <= alpha:
                return upper - sure
    ply = st[ST_PLY]
    n = generate_moves(st, rules, work, True)
    sort_moves(work, ply, n, tt_move)
    seat = (st[ST_LEADER] + k) % 3
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
            gain = play_follow(st, move)
        # A gain that already reaches beta needs no search below (the rest is never negative). In
        # a wide window, a move after the first is scouted by a zero-window test against the best
        # so far and searched again only if it beats it (7% fewer nodes over PIMC deals).
        if gain >= b:
            v = gain
        elif i == 0 or b - a <= 1:
            v = gain + search(st, rules, tt, work, a - gain, b - gain)
        elif maximise:  # a wide window: first a zero-window test against the best so far
            v = gain + search(st, rules, tt, work, a - gain, a - gain + 1)
            if a < v < b:
                v = gain + search(st, rules, tt, work, v - gain, b - gain)
        else:
            v = gain + search(st, rules, tt, work, b - gain - 1, b - gain)
            if a < v < b:
                v = gain + search(st, rules, tt, work, a - gain, v - gain)
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
