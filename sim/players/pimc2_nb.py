"""The perfect-information Monte Carlo (PIMC) player of the two-player game (``players = 2``), compiled.

As ``sim.players.pimc_nb`` for two seats: the seat samples ``n_worlds`` worlds of what it cannot see — the
opponent's hand, the other talon (whose points go to the last trick's winner) and the buried cards
— consistent with what it knows (its own hand, the cards played, the cards known to lie in each of
those three places, the suits the opponent has shown out of), and scores each legal move by the
double-dummy value averaged over the worlds, each world's last_bonus being the points of its other
talon. The declarer takes the highest average, the defender the lowest; ties go to the first move
in the solver's move order. Worlds are uniform among the consistent ones: the opponent's cards are
drawn among the unseen cards of suits he may still hold, then the other talon's among the rest,
the buried cards are what remains. Buffers as ``sim.players.pimc_nb`` (``wbuf = pimc_nb.new_pimc_buffer()``),
``rng`` a generator state of ``sim.game.rng_nb``.
"""

import numpy as np

from sim.game.bits_nb import popcount
from sim.game.cards import CARD_POINTS, FULL_DECK
from sim.game.play_nb import mask_points
from sim.numba_config import jit_hot
from sim.players.pimc_nb import (
    CANDIDATE_WORLDS,
    WB_HANDS,
    WB_MOVES,
    WB_SUMS,
    best_candidate,
    sample_world,
    take_candidates,
)
from sim.solver.search2_nb import (
    best_discard2,
    decode_discard,
    encode_discard,
    exact_value2,
    first_guess,
    generate_moves2,
    move_value2,
    set_position2,
)
from sim.solver.search_nb import (
    ST_PLY,
    next_stamp,
    play_lead,
)

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
