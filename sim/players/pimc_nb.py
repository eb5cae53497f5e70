"""Perfect-information Monte Carlo (PIMC) player, compiled.

A seat that does not see the other hands samples ``n_worlds`` deals of the cards it cannot see,
consistent with what it knows — its own hand, the cards already played, the cards every seat is
known to hold (the talon shown to everybody is in the declarer's hand, the declarer's gifts lie
face up with their receivers), and the suits a seat has shown out of — and scores each of its
legal moves by the double-dummy value (``sim.solver.drivers_nb``) averaged over those worlds: the
declarer takes the highest average, a defender the lowest. Worlds are drawn uniformly among the
consistent ones (cards of a suit one seat is void in are forced to the other; the rest are
shuffled). Ties go to the first move in the solver's move order.

Both kernels are ``jit_hot`` (no allocation): buffers come from the caller, one set per thread:
``st, work, tt, wbuf = sim.players.seat_nb.seat_buffers(18)``, and ``rng`` a generator state of
``sim.game.rng_nb``. Seats are the engine's (0..2 clockwise).
"""

import numpy as np

from sim.game.bits_nb import lowest_index, popcount
from sim.game.cards import CARD_POINTS, FULL_DECK, SUIT_MASK
from sim.game.play_nb import mask_points
from sim.game.rng_nb import below
from sim.numba_config import jit_hot
from sim.solver.core_nb import DECLARE_FLAG, INFINITE, ST_PENDING, ST_PLY, next_stamp, play_lead
from sim.solver.discard_nb import best_discard, decode_discard
from sim.solver.drivers_nb import (
    exact_between,
    exact_between2,
    move_exact,
    move_exact2,
    move_search,
    move_search2,
)
from sim.solver.search2_nb import search2, set_position2
from sim.solver.search3_nb import generate_moves, play_follow, search, set_position

# wbuf layout (int64): shuffle scratch, a world's hands, move codes, per-move sums of values, then
# [world, candidate] tables of the first MAX_WORLDS worlds (worlds beyond are not kept): the lower
# and upper bounds of the values with their sums per candidate, and the kept worlds (three hands
# each).
WB_DECK = 0
WB_HANDS = 24
WB_MOVES = 32
WB_SUMS = 64
MAX_CANDIDATES = 32
MAX_WORLDS = 64
WB_LOWER = WB_SUMS + MAX_CANDIDATES
WB_UPPER = WB_LOWER + MAX_WORLDS * MAX_CANDIDATES
WB_SUM_LOWER = WB_UPPER + MAX_WORLDS * MAX_CANDIDATES
WB_SUM_UPPER = WB_SUM_LOWER + MAX_CANDIDATES
WB_WORLDS = WB_SUM_UPPER + MAX_CANDIDATES
PIMC_BUFFER = WB_WORLDS + 3 * MAX_WORLDS
# An upper bound on any value (the declarer's points to come: 120 card points and every
# combination a hand can hold come to less), for a value known only from below.
VALUE_CEILING = 1000
CANDIDATE_WORLDS = 6  # worlds whose best discards are the PIMC discard's candidates


def new_pimc_buffer():
    return np.zeros(PIMC_BUFFER, dtype=np.int64)


@jit_hot
def _void_cards(void_bits):
    out = np.int64(0)
    for s in range(4):
        if (void_bits >> s) & 1:
            out |= SUIT_MASK[s]
    return out


@jit_hot
def sample_world(rng, pool, q1, need1, q2, need2, voids, out, wbuf):
    """Deal the ``pool`` of unseen cards: ``need1`` to seat ``q1``, ``need2`` to seat ``q2``
    (added to ``out[q1]``, ``out[q2]``), never a card of a suit a seat is known void in (where the
    voids leave a choice). Uniform over the consistent deals."""
    only1 = pool & _void_cards(voids[q2]) & ~_void_cards(voids[q1])
    only2 = pool & _void_cards(voids[q1]) & ~_void_cards(voids[q2])
    if popcount(only1) > need1 or popcount(only2) > need2:
        only1 = np.int64(0)  # knowledge contradicts itself (cannot happen in play): ignore voids
        only2 = np.int64(0)
    out[q1] |= only1
    out[q2] |= only2
    free = pool & ~only1 & ~only2
    k = 0
    m = free
    while m:
        wbuf[WB_DECK + k] = lowest_index(m)
        m &= m - 1
        k += 1
    give1 = need1 - popcount(only1)
    for j in range(give1):
        r = j + below(rng, k - j)
        c = wbuf[WB_DECK + r]
        wbuf[WB_DECK + r] = wbuf[WB_DECK + j]
        wbuf[WB_DECK + j] = c
        out[q1] |= np.int64(1) << c
    for j in range(give1, k):
        out[q2] |= np.int64(1) << wbuf[WB_DECK + j]


@jit_hot
def enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner, pending,
                declarer, won, unsecured, rules, st, tt, wbuf):
    """Sample one world consistent with what ``seat`` knows into ``wbuf[WB_HANDS:WB_HANDS + 3]``
    (every seat's cards, this trick's included) and set the solver on it (``set_world``)."""
    draw_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, wbuf)
    set_world(wbuf[WB_HANDS:WB_HANDS + 3], trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
              unsecured, rules, st, tt)


@jit_hot
def draw_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, wbuf):
    """``enter_world``'s sample alone: one world consistent with what ``seat`` knows into
    ``wbuf[WB_HANDS:WB_HANDS + 3]`` (every seat's cards, this trick's included), the solver left
    as it is."""
    own = hands[seat]
    q1 = (seat + 1) % 3
    q2 = (seat + 2) % 3
    k1 = known[q1] & ~played & ~own
    k2 = known[q2] & ~played & ~own & ~k1
    # Knowledge that overfills a hand (a face-down gift taken for the declarer's talon card) is
    # dropped: the sample must give every seat exactly its number of cards.
    if popcount(k1) > popcount(hands[q1]):
        k1 = np.int64(0)
    if popcount(k2) > popcount(hands[q2]):
        k2 = np.int64(0)
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    wh[seat] = own
    wh[q1] = k1
    wh[q2] = k2
    sample_world(rng, FULL_DECK & ~played & ~own & ~k1 & ~k2, q1, popcount(hands[q1]) - popcount(k1), q2,
                 popcount(hands[q2]) - popcount(k2), voids, wh, wbuf)
    for i in range(n_in_trick):
        wh[(leader + i) % 3] |= np.int64(1) << trick[i]


@jit_hot
def set_world(wh, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won, unsecured, rules, st, tt):
    """Set the solver on the world ``wh`` (every seat's cards, this trick's included) at the
    decision: a fresh table generation, the trick's cards played again (``pending``: the trump
    its lead declared under marriage_trump_from = next_trick, -1 none)."""
    rel_won = 0
    for s in range(3):
        if (won >> s) & 1:
            rel_won |= 1 << ((s - declarer) % 3)
    rel_owner = -1 if trump_owner < 0 else (trump_owner - declarer) % 3
    next_stamp(st, tt)
    set_position(st, wh[declarer], wh[(declarer + 1) % 3], wh[(declarer + 2) % 3], (leader - declarer) % 3, trump,
                 rel_owner, rel_won, unsecured)
    for i in range(n_in_trick):
        if i == 0:
            play_lead(st, rules, trick[0])  # its declaration is already in trump and points
            st[ST_PENDING] = pending
        else:
            play_follow(st, trick[i])


@jit_hot
def pimc_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                     unsecured, played, voids, known, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC player's card: (card, declare), arguments as ``sim.players.dd_nb.dd_choose_card`` plus
    what the seat knows. ``hands``: int64 (3,) every seat's cards not yet played; only
    ``hands[seat]`` and the other hands' sizes are read. ``played``: mask of every card played
    so far (this trick's included). ``voids``: int64 (3,) bit s = the seat has shown out of suit
    s. ``known``: int64 (3,) cards each seat is known by ``seat`` to hold (e.g. the talon's cards
    to the declarer, the face-up gifts to their receivers); played cards are ignored.
    ``n_worlds`` worlds are sampled with ``rng``; ``wbuf`` = ``new_pimc_buffer()``.

    The card is the one of best exact value summed over the worlds (the first in the solver's
    move order on ties), but most values are never computed: in each world after the first only
    the leading candidate's value is, and every other candidate gets one zero-window test against
    it, which bounds its value from the side that matters (``score_world``); the bounds' sums then
    prove which card is best, or the worlds are entered again, one at a time, to compute the
    values that decide (``settle``, ``next_refinement``). The card is the same as if every value
    were computed (``tests/reference_pimc.py``), in less than half the searching."""
    return pimc_choose_card_given(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer,
                                  won, unsecured, played, voids, known, n_worlds, rules, rng, st, work, tt, wbuf, wbuf,
                                  0)


@jit_hot
def pimc_choose_card_given(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                           unsecured, played, voids, known, n_worlds, rules, rng, st, work, tt, wbuf, given, n_given):
    """``pimc_choose_card`` over the ``n_given`` worlds ``given[3 * w:3 * w + 3]`` (every seat's
    cards, this trick's included: ``draw_world``'s) instead of ``n_worlds`` sampled ones (``n_given``
    0: sampled, as ``pimc_choose_card``; ``rng`` then unused)."""
    maximise = seat == declarer
    n = 0
    worlds = max(1, n_worlds) if n_given == 0 else n_given
    for w in range(worlds):
        if n_given == 0:
            enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner,
                        pending, declarer, won, unsecured, rules, st, tt, wbuf)
        else:
            copy_hands(given, 3 * w, WB_HANDS, wbuf)
            set_world(wbuf[WB_HANDS:WB_HANDS + 3], trick, n_in_trick, leader, trump, trump_owner, pending, declarer,
                      won, unsecured, rules, st, tt)
        if w == 0:
            n = take_candidates(work, st[ST_PLY], generate_moves(st, rules, work, False), legal, wbuf)
            if n == 1:
                return best_candidate(wbuf, n, legal, maximise)
            reset_bounds(wbuf, n)
        if w < MAX_WORLDS:
            copy_hands(wbuf, WB_HANDS, WB_WORLDS + 3 * w, wbuf)
        score_world(w, n, maximise, CANDIDATE_MOVE, NO_HAND, rules, st, work, tt, wbuf)
    while True:
        target, w, best = next_refinement(wbuf, n, worlds, maximise)
        if target < 0:
            break
        set_world(wbuf[WB_WORLDS + 3 * w:WB_WORLDS + 3 * w + 3], trick, n_in_trick, leader, trump, trump_owner,
                  pending, declarer, won, unsecured, rules, st, tt)
        refine(wbuf, w, target, CANDIDATE_MOVE, NO_HAND, rules, st, work, tt)
    move = wbuf[WB_MOVES + best]
    return move & 31, (move & DECLARE_FLAG) != 0


# ---- the exact PIMC choice from bounds ----------------------------------------------------------
# What a candidate is (``kind``): a move from the position the solver is set on (three players, or
# two: ``sim.players.pimc2_nb``), or a discard whose position is set before each search from the
# declarer's cards ``hand`` and the world in ``wbuf[WB_HANDS:]``: with three players a code
# a * 24 + b (the declarer keeps ``hand`` less a and b, the opponents get the world's hands plus
# a and b); with two a ``discard_nb.encode_discard`` code (the buried cards' points count, the
# other talon's points and a card put into it make the last trick's bonus).
CANDIDATE_MOVE, CANDIDATE_DISCARD, CANDIDATE_MOVE2, CANDIDATE_DISCARD2 = 0, 1, 2, 3
NO_HAND = np.int64(-1)  # the moves' hand argument: unused
# The two-player world in wbuf[WB_HANDS:WB_HANDS + 6] (sim.players.pimc2_nb): the opponent's hand,
# the other talon, the buried cards, then the void bits sample_world reads for those three places.
W_OPP, W_TALON, W_BURIED = 0, 1, 2
W_VOIDS = 3


@jit_hot
def copy_hands(source, src, dst, wbuf):
    """A world's three hands from ``source[src:src + 3]`` to ``wbuf[dst:dst + 3]`` (no allocation)."""
    for j in range(3):
        wbuf[dst + j] = source[src + j]


@jit_hot
def reset_bounds(wbuf, n):
    wbuf[WB_SUM_LOWER:WB_SUM_LOWER + n] = 0
    wbuf[WB_SUM_UPPER:WB_SUM_UPPER + n] = 0


@jit_hot
def record(wbuf, w, i, lower, upper):
    """Bounds on candidate ``i``'s value in world ``w`` (kept for the first MAX_WORLDS worlds)."""
    if w < MAX_WORLDS:
        wbuf[WB_LOWER + w * MAX_CANDIDATES + i] = lower
        wbuf[WB_UPPER + w * MAX_CANDIDATES + i] = upper
    wbuf[WB_SUM_LOWER + i] += lower
    wbuf[WB_SUM_UPPER + i] += upper


@jit_hot
def tighten(wbuf, w, i, value):
    """Candidate ``i``'s exact value in kept world ``w`` replaces its bounds."""
    cell = w * MAX_CANDIDATES + i
    wbuf[WB_SUM_LOWER + i] += value - wbuf[WB_LOWER + cell]
    wbuf[WB_SUM_UPPER + i] += value - wbuf[WB_UPPER + cell]
    wbuf[WB_LOWER + cell] = value
    wbuf[WB_UPPER + cell] = value


@jit_hot
def next_refinement(wbuf, n, worlds, maximise):
    """(candidate, kept world, choice): the value the proof needs next (``settle``'s candidate in
    the first kept world where it has bounds), or (-1, -1, the proven choice)."""
    target, best = settle(wbuf, n, maximise)
    if target >= 0:
        for w in range(min(worlds, MAX_WORLDS)):
            cell = w * MAX_CANDIDATES + target
            if wbuf[WB_LOWER + cell] != wbuf[WB_UPPER + cell]:
                return target, w, best
    return -1, -1, best  # proven (settle names only candidates with bounds left)


@jit_hot
def refine(wbuf, w, i, kind, hand, rules, st, work, tt):
    """Compute candidate ``i``'s exact value in kept world ``w`` (the solver set on that world),
    starting from the bound its test gave."""
    cell = w * MAX_CANDIDATES + i
    lower = wbuf[WB_LOWER + cell]
    upper = wbuf[WB_UPPER + cell]
    tighten(wbuf, w, i, candidate_exact(i, lower, upper, kind, hand, rules, st, work, tt, wbuf))


@jit_hot
def set_discard(kind, hand, code, wbuf, st):
    """Set the solver on a discard candidate in the current world; the points the discard itself
    scores (two players: the buried cards'), which its value includes."""
    if kind == CANDIDATE_DISCARD:
        a = code // 24
        b = code % 24
        set_position(st, hand & ~(np.int64(1) << a) & ~(np.int64(1) << b), wbuf[WB_HANDS + 1] | (np.int64(1) << a),
                     wbuf[WB_HANDS + 2] | (np.int64(1) << b), 0, -1, -1, 0, 0)
        return np.int64(0)
    b1, b2, t = decode_discard(code)
    gone = (np.int64(1) << b1) | (np.int64(1) << b2)
    bonus = mask_points(wbuf[WB_HANDS + W_TALON])
    if t >= 0:
        gone |= np.int64(1) << t
        bonus += CARD_POINTS[t]
    set_position2(st, hand & ~gone, wbuf[WB_HANDS + W_OPP], 0, -1, -1, 0, 0, bonus)
    return CARD_POINTS[b1] + CARD_POINTS[b2]


@jit_hot
def candidate_exact(i, lower, upper, kind, hand, rules, st, work, tt, wbuf):
    """Candidate ``i``'s exact value in the current world, known to lie in [lower, upper]
    (VALUE_CEILING: no upper bound known)."""
    hi = INFINITE if upper >= VALUE_CEILING else upper
    move = wbuf[WB_MOVES + i]
    if kind == CANDIDATE_MOVE:
        return move_exact(st, rules, tt, work, move, lower, hi)
    if kind == CANDIDATE_MOVE2:
        return move_exact2(st, rules, tt, work, move, lower, hi)
    base = set_discard(kind, hand, move, wbuf, st)
    lo = max(0, lower - base)
    top = hi if hi == INFINITE else hi - base
    if kind == CANDIDATE_DISCARD:
        return base + exact_between(st, rules, tt, work, lo, top)
    return base + exact_between2(st, rules, tt, work, lo, top)


@jit_hot
def candidate_test(i, theta, kind, hand, rules, st, work, tt, wbuf):
    """One fail-soft zero-window test at ``theta`` of candidate ``i`` in the current world."""
    move = wbuf[WB_MOVES + i]
    if kind == CANDIDATE_MOVE:
        return move_search(st, rules, tt, work, move, theta - 1, theta)
    if kind == CANDIDATE_MOVE2:
        return move_search2(st, rules, tt, work, move, theta - 1, theta)
    base = set_discard(kind, hand, move, wbuf, st)
    if kind == CANDIDATE_DISCARD:
        return search(st, rules, tt, work, theta - 1, theta)
    return base + search2(st, rules, tt, work, theta - base - 1, theta - base)


@jit_hot
def leading_candidate(wbuf, n, maximise):
    """The candidate that looks best so far, by the middle of its sum's bounds (the first on ties)."""
    best = 0
    for i in range(1, n):
        mid = wbuf[WB_SUM_LOWER + i] + wbuf[WB_SUM_UPPER + i]
        lead = wbuf[WB_SUM_LOWER + best] + wbuf[WB_SUM_UPPER + best]
        if (mid > lead) if maximise else (mid < lead):
            best = i
    return best


@jit_hot
def score_world(w, n, maximise, kind, hand, rules, st, work, tt, wbuf):
    """Bound every candidate's value in the current world ``w``. In the first world, and in
    worlds beyond the kept ones, every value is computed. Otherwise the leading candidate's value
    v is, and each other candidate is tested once against it: a candidate that is better here (a
    maximiser's value above v, a minimiser's below) gets its exact value; one that is not keeps
    the test's fail-soft bound (a maximiser's candidate at most r, between 0 and r; a minimiser's
    at least r, up to VALUE_CEILING)."""
    if w == 0 or w >= MAX_WORLDS:
        for i in range(n):
            v = candidate_exact(i, 0, VALUE_CEILING, kind, hand, rules, st, work, tt, wbuf)
            record(wbuf, w, i, v, v)
        return
    lead = leading_candidate(wbuf, n, maximise)
    v = candidate_exact(lead, 0, VALUE_CEILING, kind, hand, rules, st, work, tt, wbuf)
    record(wbuf, w, lead, v, v)
    for i in range(n):
        if i == lead:
            continue
        if maximise:
            r = candidate_test(i, v + 1, kind, hand, rules, st, work, tt, wbuf)
            if r > v:
                x = candidate_exact(i, r, VALUE_CEILING, kind, hand, rules, st, work, tt, wbuf)
                record(wbuf, w, i, x, x)
            else:
                record(wbuf, w, i, 0, r)
        else:
            r = candidate_test(i, v, kind, hand, rules, st, work, tt, wbuf)
            if r < v:
                x = candidate_exact(i, 0, r, kind, hand, rules, st, work, tt, wbuf)
                record(wbuf, w, i, x, x)
            else:
                record(wbuf, w, i, r, VALUE_CEILING)


@jit_hot
def settle(wbuf, n, maximise):
    """(candidate one of whose values the proof needs, or -1 when the choice is proven; the
    choice). The choice is the candidate of best pessimistic sum (a maximiser's lower bounds, a
    minimiser's upper ones; the first on ties). It is proven when no other candidate's sum can
    beat it, nor equal it from earlier in the order: that is the first best of the exact sums.
    Otherwise the choice's values are needed first if some are bounds, else those of the rival
    whose bounds are widest (``next_refinement`` picks the world)."""
    best = 0
    for i in range(1, n):
        if (wbuf[WB_SUM_LOWER + i] > wbuf[WB_SUM_LOWER + best]) if maximise else (
                wbuf[WB_SUM_UPPER + i] < wbuf[WB_SUM_UPPER + best]):
            best = i
    rival = -1
    widest = -1
    for i in range(n):
        if i == best:
            continue
        if maximise:
            proven = (wbuf[WB_SUM_UPPER + i] < wbuf[WB_SUM_LOWER + best]) if i < best else (
                wbuf[WB_SUM_UPPER + i] <= wbuf[WB_SUM_LOWER + best])
        else:
            proven = (wbuf[WB_SUM_LOWER + i] > wbuf[WB_SUM_UPPER + best]) if i < best else (
                wbuf[WB_SUM_LOWER + i] >= wbuf[WB_SUM_UPPER + best])
        width = wbuf[WB_SUM_UPPER + i] - wbuf[WB_SUM_LOWER + i]
        if not proven and width > widest:
            rival = i
            widest = width
    if rival < 0:
        return -1, best
    if wbuf[WB_SUM_UPPER + best] != wbuf[WB_SUM_LOWER + best]:
        return best, best
    if widest == 0:
        return -1, best  # not reached: with exact sums the pessimistic best is the first best
    return rival, best


@jit_hot
def take_candidates(work, ply, n, legal, wbuf):
    """Copy the ``n`` solver moves of row ``ply`` whose card is in ``legal`` to the candidate
    list of ``wbuf`` (the solver's order, at most MAX_CANDIDATES) with zero sums; their count."""
    m = 0
    for i in range(n):
        move = work[ply, i]
        if (legal >> (move & 31)) & 1 and m < MAX_CANDIDATES:
            wbuf[WB_MOVES + m] = move
            wbuf[WB_SUMS + m] = 0
            m += 1
    return m


@jit_hot
def best_candidate(wbuf, n, legal, maximise):
    """(card, declare) of the candidate with the highest sum (``maximise``) or the lowest, the
    first in order on ties."""
    if n == 0:
        return lowest_index(legal), False  # not reached when the rules match the solver's
    best = 0
    for i in range(1, n):
        if (wbuf[WB_SUMS + i] > wbuf[WB_SUMS + best]) if maximise else (wbuf[WB_SUMS + i] < wbuf[WB_SUMS + best]):
            best = i
    move = wbuf[WB_MOVES + best]
    return move & 31, (move & DECLARE_FLAG) != 0


@jit_hot
def discard_world(rng, hand10, known1, known2, wbuf):
    """A world of the discard into ``wbuf[WB_HANDS:WB_HANDS + 3]``: the declarer's 10 cards, the
    opponents' 7 each (``known1``, ``known2`` and unseen cards); nobody has shown out of a suit."""
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    voids = wbuf[WB_HANDS + 3:WB_HANDS + 6]
    voids[:] = 0
    wh[0] = hand10
    wh[1] = known1
    wh[2] = known2
    sample_world(rng, FULL_DECK & ~hand10 & ~known1 & ~known2, 1, 7 - popcount(known1), 2, 7 - popcount(known2),
                 voids, wh, wbuf)


@jit_hot
def discard_candidates(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, given, n_given):
    """The discard's candidates into ``wbuf[WB_MOVES]`` (code a * 24 + b) with zero sums: the
    double-dummy best discards of the first CANDIDATE_WORLDS worlds (or of the ``n_given`` worlds
    ``given[3 * w:3 * w + 3]``, ``discard_world``'s layout), each once; their count."""
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    n = 0
    for w in range(min(max(1, n_worlds), CANDIDATE_WORLDS) if n_given == 0 else n_given):
        if n_given == 0:
            discard_world(rng, hand10, known1, known2, wbuf)
        else:
            copy_hands(given, 3 * w, WB_HANDS, wbuf)
        a, b, _ = best_discard(hand10, wh[1], wh[2], rules, st, work, tt)
        code = a * 24 + b
        new = True
        for i in range(n):
            if wbuf[WB_MOVES + i] == code:
                new = False
        if new and n < MAX_CANDIDATES:
            wbuf[WB_MOVES + n] = code
            wbuf[WB_SUMS + n] = 0
            n += 1
    return n


@jit_hot
def pimc_choose_discard(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC declarer's discard: (card to the seat after him, card to the seat after that).
    He holds ``hand10`` (his 7 cards and the talon) and knows the opponents hold ``known1`` and
    ``known2`` (usually nothing); the other cards are unseen, 7 to each opponent. Candidates are
    the double-dummy best discards of the first CANDIDATE_WORLDS sampled worlds; the choice is the
    candidate of best exact value summed over ``n_worlds`` fresh worlds (the first on ties),
    proven from bounds as ``pimc_choose_card`` proves a card."""
    return pimc_choose_discard_given(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, wbuf, 0, wbuf,
                                     0)


@jit_hot
def pimc_choose_discard_given(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, candidate_worlds,
                              n_candidate_worlds, given, n_given):
    """``pimc_choose_discard`` whose candidates come from the ``n_candidate_worlds`` worlds
    ``candidate_worlds[3 * w:3 * w + 3]`` and whose choice is scored over the ``n_given`` worlds
    ``given[3 * w:3 * w + 3]`` (``discard_world``'s layout: the declarer's 10 cards, then the
    opponents' 7 each), instead of sampled ones (a count 0: sampled, as ``pimc_choose_discard``)."""
    best, _, _ = score_discards(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, candidate_worlds,
                                n_candidate_worlds, given, n_given)
    return wbuf[WB_MOVES + best] // 24, wbuf[WB_MOVES + best] % 24


@jit_hot
def score_discards(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, candidate_worlds,
                   n_candidate_worlds, given, n_given):
    """``pimc_choose_discard_given``'s search: (the chosen candidate's index in ``wbuf[WB_MOVES]``,
    the candidates' count, the scoring worlds' count: 0 when a single candidate left nothing to
    score). The scored worlds stay in ``wbuf`` (the first MAX_WORLDS: ``discard_values``)."""
    n = discard_candidates(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, candidate_worlds,
                           n_candidate_worlds)
    best = 0
    worlds = 0
    if n > 1:
        reset_bounds(wbuf, n)
        worlds = max(1, n_worlds) if n_given == 0 else n_given
        for w in range(worlds):
            if n_given == 0:
                discard_world(rng, hand10, known1, known2, wbuf)
            else:
                copy_hands(given, 3 * w, WB_HANDS, wbuf)
            score_discard_world(w, n, CANDIDATE_DISCARD, hand10, rules, st, work, tt, wbuf)
        best = proven_discard(n, worlds, CANDIDATE_DISCARD, hand10, rules, st, work, tt, wbuf)
    return best, n, worlds


@jit_hot
def discard_values(best, n, scored, hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, given,
                   n_given, out):
    """The exact double-dummy value (the declarer's points) of the discard candidate ``best`` in
    each scoring world of ``score_discards`` (which returned ``best``, ``n`` and ``scored``; its
    other arguments as there) into ``out``, for the first MAX_WORLDS worlds; their count. Values
    the proof left as bounds are computed; a single candidate (``scored`` 0) is valued in the
    ``n_given`` worlds ``given``, or, with none given, in ``max(1, n_worlds)`` worlds drawn from
    ``rng`` as the scoring would draw them."""
    if scored == 0:
        worlds = min(max(1, n_worlds) if n_given == 0 else n_given, MAX_WORLDS)
        for w in range(worlds):
            if n_given == 0:
                discard_world(rng, hand10, known1, known2, wbuf)
            else:
                copy_hands(given, 3 * w, WB_HANDS, wbuf)
            next_stamp(st, tt)
            out[w] = candidate_exact(best, 0, VALUE_CEILING, CANDIDATE_DISCARD, hand10, rules, st, work, tt, wbuf)
        return worlds
    worlds = min(scored, MAX_WORLDS)
    for w in range(worlds):
        cell = w * MAX_CANDIDATES + best
        if wbuf[WB_LOWER + cell] != wbuf[WB_UPPER + cell]:
            copy_hands(wbuf, WB_WORLDS + 3 * w, WB_HANDS, wbuf)
            next_stamp(st, tt)
            refine(wbuf, w, best, CANDIDATE_DISCARD, hand10, rules, st, work, tt)
        out[w] = wbuf[WB_LOWER + cell]
    return worlds


@jit_hot
def score_discard_world(w, n, kind, hand, rules, st, work, tt, wbuf):
    """``score_world`` for the discard candidates in the world just sampled into
    ``wbuf[WB_HANDS:]`` (kept for ``proven_discard``), from a fresh table generation."""
    next_stamp(st, tt)
    if w < MAX_WORLDS:
        copy_hands(wbuf, WB_HANDS, WB_WORLDS + 3 * w, wbuf)
    score_world(w, n, True, kind, hand, rules, st, work, tt, wbuf)


@jit_hot
def proven_discard(n, worlds, kind, hand, rules, st, work, tt, wbuf):
    """The discard candidate proven best once every world is scored, kept worlds entered again
    for the values that decide."""
    while True:
        target, w, best = next_refinement(wbuf, n, worlds, True)
        if target < 0:
            return best
        copy_hands(wbuf, WB_WORLDS + 3 * w, WB_HANDS, wbuf)
        next_stamp(st, tt)
        refine(wbuf, w, target, kind, hand, rules, st, work, tt)
