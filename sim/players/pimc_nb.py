"""Perfect-information Monte Carlo (PIMC) player, compiled.

A seat that does not see the other hands samples ``n_worlds`` deals of the cards it cannot see,
consistent with what it knows — its own hand, the cards already played, the cards every seat is
known to hold (the talon shown to everybody is in the declarer's hand, the declarer's gifts lie
face up with their receivers), and the suits a seat has shown out of — and scores each of its
legal moves by the double-dummy value (``sim.solver.search_nb``) averaged over those worlds: the
declarer takes the highest average, a defender the lowest. Worlds are drawn uniformly among the
consistent ones (cards of a suit one seat is void in are forced to the other; the rest are
shuffled). Ties go to the first move in the solver's move order.

Both kernels are ``jit_hot`` (no allocation): buffers come from the caller, one set per thread:
``st, work, tt, wbuf = sim.players.seat_buffers(18)``, and ``rng`` a generator state of
``sim.game.rng_nb``. Seats are the engine's (0..2 clockwise).
"""

import numpy as np

from sim.game.bits_nb import lowest_index, popcount
from sim.game.cards import FULL_DECK, SUIT_MASK
from sim.game.rng_nb import below
from sim.numba_config import jit_hot
from sim.solver.search_nb import (
    DECLARE_FLAG,
    ST_PLY,
    ST_REST_POINTS,
    best_discard,
    exact_value,
    generate_moves,
    move_value,
    next_stamp,
    play_follow,
    play_lead,
    set_position,
)

# wbuf layout (int64): shuffle scratch, a world's hands, move codes, per-move sums of values.
WB_DECK = 0
WB_HANDS = 24
WB_MOVES = 32
WB_SUMS = 64
MAX_CANDIDATES = 32
MAX_WORLDS = 64  # the sequential players keep every world's values (worlds beyond are not kept)
WB_VALUES = WB_SUMS + MAX_CANDIDATES  # [world, candidate] values of the sequential players
PIMC_BUFFER = WB_VALUES + MAX_WORLDS * MAX_CANDIDATES
# The sequential stopping rule of the pimc-fast player (``clear_leader``): after at least
# MIN_WORLDS worlds, stop as soon as no other candidate can be shown better than the leader by
# INDIFFERENCE points at one-sided z = Z_STOP. Neither setting measured so far plays as well as
# pimc (docs/pimc.md, "Strength"): 4 worlds, 2 points, z = 1.64 lost 2.1 points a deal; this
# stricter one, with the declarer playing for his contract, 4.2.
MIN_WORLDS = 8
INDIFFERENCE = 1.0
Z_STOP = 2.0
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
def enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner, declarer, won,
                unsecured, rules, st, tt, wbuf):
    """Sample one world consistent with what ``seat`` knows and set the solver on it at the decision
    (a fresh table generation; the trick's cards given back to their players and played again)."""
    own = hands[seat]
    q1 = (seat + 1) % 3
    q2 = (seat + 2) % 3
    k1 = known[q1] & ~played & ~own
    k2 = known[q2] & ~played & ~own & ~k1
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    wh[seat] = own
    wh[q1] = k1
    wh[q2] = k2
    sample_world(rng, FULL_DECK & ~played & ~own & ~k1 & ~k2, q1, popcount(hands[q1]) - popcount(k1), q2,
                 popcount(hands[q2]) - popcount(k2), voids, wh, wbuf)
    for i in range(n_in_trick):
        wh[(leader + i) % 3] |= np.int64(1) << trick[i]
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
        else:
            play_follow(st, trick[i])


@jit_hot
def pimc_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                     played, voids, known, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC player's card: (card, declare), arguments as ``sim.players.dd_nb.dd_choose_card`` plus
    what the seat knows. ``hands``: int64 (3,) every seat's cards not yet played; only
    ``hands[seat]`` and the other hands' sizes are read. ``played``: mask of every card played
    so far (this trick's included). ``voids``: int64 (3,) bit s = the seat has shown out of suit
    s. ``known``: int64 (3,) cards each seat is known by ``seat`` to hold (e.g. the talon's cards
    to the declarer, the face-up gifts to their receivers); played cards are ignored.
    ``n_worlds`` worlds are sampled with ``rng``; ``wbuf`` = ``new_pimc_buffer()``."""
    maximise = seat == declarer
    n = 0
    for w in range(max(1, n_worlds)):
        enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner, declarer,
                    won, unsecured, rules, st, tt, wbuf)
        if w == 0:
            n = take_candidates(work, st[ST_PLY], generate_moves(st, rules, work, False), legal, wbuf)
            if n == 1:
                break
        for i in range(n):
            wbuf[WB_SUMS + i] += move_value(st, rules, tt, work, wbuf[WB_MOVES + i], 0, -1)
    return best_candidate(wbuf, n, legal, maximise)


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
def discard_candidates(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf):
    """The discard's candidates into ``wbuf[WB_MOVES]`` (code a * 24 + b) with zero sums: the
    double-dummy best discards of the first CANDIDATE_WORLDS worlds, each once; their count."""
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    n = 0
    for _w in range(min(max(1, n_worlds), CANDIDATE_WORLDS)):
        discard_world(rng, hand10, known1, known2, wbuf)
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
    the double-dummy best discards of the first CANDIDATE_WORLDS sampled worlds; each candidate is
    then scored by its exact double-dummy value averaged over ``n_worlds`` fresh worlds."""
    n = discard_candidates(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf)
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    if n > 1:
        for _w in range(max(1, n_worlds)):
            discard_world(rng, hand10, known1, known2, wbuf)
            next_stamp(st, tt)
            for i in range(n):
                a = wbuf[WB_MOVES + i] // 24
                b = wbuf[WB_MOVES + i] % 24
                set_position(st, hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b), wh[1] | (np.int64(1) << a),
                             wh[2] | (np.int64(1) << b), 0, -1, -1, 0, 0)
                wbuf[WB_SUMS + i] += exact_value(st, rules, tt, work, 0, st[ST_REST_POINTS] // 2)
    best = 0
    for i in range(1, n):
        if wbuf[WB_SUMS + i] > wbuf[WB_SUMS + best]:
            best = i
    return wbuf[WB_MOVES + best] // 24, wbuf[WB_MOVES + best] % 24


@jit_hot
def clear_leader(wbuf, n, worlds, maximise):
    """Whether the candidate with the best sum over the first ``worlds`` worlds (values in
    ``wbuf[WB_VALUES]``) is clear: for every other candidate the mean advantage over it, plus
    Z_STOP standard errors, stays below INDIFFERENCE points."""
    best = 0
    for i in range(1, n):
        if (wbuf[WB_SUMS + i] > wbuf[WB_SUMS + best]) if maximise else (wbuf[WB_SUMS + i] < wbuf[WB_SUMS + best]):
            best = i
    sign = 1.0 if maximise else -1.0
    for i in range(n):
        if i == best:
            continue
        s1 = 0.0
        s2 = 0.0
        for w in range(worlds):
            d = sign * (wbuf[WB_VALUES + w * MAX_CANDIDATES + i] - wbuf[WB_VALUES + w * MAX_CANDIDATES + best])
            s1 += d
            s2 += d * d
        mean = s1 / worlds
        var = max(0.0, (s2 - worlds * mean * mean) / (worlds - 1))
        if mean + Z_STOP * np.sqrt(var / worlds) >= INDIFFERENCE:
            return False
    return True


@jit_hot
def pimc_fast_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won,
                          unsecured, played, voids, known, need, stake, n_worlds, rules, rng, st, work, tt, wbuf):
    """The sequential PIMC card (player ``pimc-fast``): ``pimc_choose_card`` with worlds added one at a time until
    the best card is clear (``clear_leader``; at most ``n_worlds``, and never more than MAX_WORLDS,
    whose values the buffer keeps), each candidate's search
    starting from its value in the previous world. Arguments as ``pimc_choose_card``, and: the
    declarer, when ``need`` >= 0 (the points to come that make his contract), scores a card in a
    world by whether it still makes the contract (one zero-window test), worth ``stake`` points
    (twice the contract: what he wins or loses), not by its exact value."""
    maximise = seat == declarer
    threshold = maximise and need >= 0
    n = 0
    worlds = min(max(1, n_worlds), MAX_WORLDS)
    for w in range(worlds):
        enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner, declarer,
                    won, unsecured, rules, st, tt, wbuf)
        if w == 0:
            n = take_candidates(work, st[ST_PLY], generate_moves(st, rules, work, False), legal, wbuf)
            if n == 1:
                break
        guess = st[ST_REST_POINTS] // 2
        for i in range(n):
            if w > 0:
                guess = wbuf[WB_VALUES + (w - 1) * MAX_CANDIDATES + i]
            if threshold:
                v = stake * move_value(st, rules, tt, work, wbuf[WB_MOVES + i], 0, need)
            else:
                v = move_value(st, rules, tt, work, wbuf[WB_MOVES + i], guess, -1)
            wbuf[WB_VALUES + w * MAX_CANDIDATES + i] = v
            guess = v
            wbuf[WB_SUMS + i] += v
        if w + 1 >= MIN_WORLDS and clear_leader(wbuf, n, w + 1, maximise):
            break
    return best_candidate(wbuf, n, legal, maximise)
