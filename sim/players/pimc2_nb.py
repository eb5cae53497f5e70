"""The perfect-information Monte Carlo (PIMC) player of the two-player game (``players = 2``), compiled.

As ``sim.players.pimc_nb`` for two seats: the seat samples ``n_worlds`` worlds of what it cannot see — the
opponent's hand, the other talon (whose points go to the last trick's winner) and the buried cards
— consistent with what it knows (its own hand, the cards played, the cards known to lie in each of
those three places, the suits the opponent has shown out of), and scores each legal move by the
double-dummy value averaged over the worlds, each world's last_bonus being the points of its other
talon. The declarer takes the highest average, the defender the lowest; ties go to the first move
in the solver's move order. Worlds are uniform among the consistent ones: the opponent's cards are
drawn among the unseen cards of suits he may still hold, then the other talon's among the rest,
the buried cards are what remains. The choice is proven from bounds, as ``sim.players.pimc_nb``
proves it, without computing most values (the same choice as every value summed). Buffers as
``sim.players.pimc_nb`` (``wbuf = pimc_nb.new_pimc_buffer()``), ``rng`` a generator state of
``sim.game.rng_nb``.
"""

import numpy as np

from sim.game.bits_nb import popcount
from sim.game.cards import FULL_DECK
from sim.game.play_nb import mask_points
from sim.numba_config import jit_hot
from sim.players.pimc_nb import (
    CANDIDATE_DISCARD2,
    CANDIDATE_MOVE2,
    CANDIDATE_WORLDS,
    MAX_WORLDS,
    NO_HAND,
    W_BURIED,
    W_OPP,
    W_TALON,
    W_VOIDS,
    WB_DECK,
    WB_HANDS,
    WB_MOVES,
    WB_WORLDS,
    best_candidate,
    next_refinement,
    proven_discard,
    refine,
    reset_bounds,
    sample_world,
    score_discard_world,
    score_world,
    take_candidates,
)
from sim.solver.core_nb import DECLARE_FLAG, ST_PENDING, ST_PLY, next_stamp, play_lead
from sim.solver.discard_nb import best_discard2, decode_discard, encode_discard
from sim.solver.search2_nb import generate_moves2, set_position2


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
def pimc2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                      unsecured, played, voids, known, counts, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC player's card in the two-player game: (card, declare), arguments as
    ``dd2_choose_card`` (without last_bonus) plus what the seat knows. Only ``hands[seat]`` is
    read. ``played``: every card played so far in the deal (this trick's included). ``voids``:
    int64 (2,), bit s = the seat has shown out of suit s. ``known``: int64 (4,) cards the seat
    knows to be in the opponent's hand, in the other talon, buried (the declarer knows his buried
    cards and, with two_player_talon = 3, the card he put into the talon), and (4th) in the
    opponent's hand or buried (the taken talon, shown to the defender); played cards are
    ignored. ``counts``: int64 (3,) the sizes of those three now (the opponent's hand without his
    card on the table); the buried cards take what the other two leave of the unseen cards, so
    counts[2] is implied. ``n_worlds`` worlds are sampled with ``rng``. The card of best exact
    value summed over the worlds, proven from bounds as ``pimc_nb.pimc_choose_card`` proves it."""
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
    worlds = max(1, n_worlds)
    for w in range(worlds):
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
        # The solver's position of the world: the declarer's and the defender's cards, the bonus.
        slot = WB_WORLDS + 3 * w if w < MAX_WORLDS else WB_DECK  # beyond the kept worlds: the shuffle's scratch
        wbuf[slot] = h_seat if seat == declarer else h_opp
        wbuf[slot + 1] = h_opp if seat == declarer else h_seat
        wbuf[slot + 2] = mask_points(world[W_TALON])
        set_world2(wbuf, slot, leader ^ declarer, trump, rel_owner, pending, rel_won, unsecured, trick, n_in_trick,
                   rules, st, tt)
        if w == 0:
            n = take_candidates(work, st[ST_PLY], generate_moves2(st, rules, work, False), legal, wbuf)
            if n == 1:
                return best_candidate(wbuf, n, legal, maximise)
            reset_bounds(wbuf, n)
        score_world(w, n, maximise, CANDIDATE_MOVE2, NO_HAND, rules, st, work, tt, wbuf)
    while True:
        target, w, best = next_refinement(wbuf, n, worlds, maximise)
        if target < 0:
            break
        set_world2(wbuf, WB_WORLDS + 3 * w, leader ^ declarer, trump, rel_owner, pending, rel_won, unsecured, trick,
                   n_in_trick, rules, st, tt)
        refine(wbuf, w, target, CANDIDATE_MOVE2, NO_HAND, rules, st, work, tt)
    move = wbuf[WB_MOVES + best]
    return move & 31, (move & DECLARE_FLAG) != 0


@jit_hot
def set_world2(wbuf, slot, leader, trump, owner, pending, won, unsecured, trick, n_in_trick, rules, st, tt):
    """Set the solver on the world kept at ``wbuf[slot:slot + 3]`` (the declarer's cards, the
    defender's, the other talon's points) at the decision: a fresh table generation, the trick's
    lead played again (``pending``: the trump it declared under marriage_trump_from = next_trick,
    -1 none). ``leader``, ``owner``, ``won`` relative to the declarer."""
    next_stamp(st, tt)
    set_position2(st, wbuf[slot], wbuf[slot + 1], leader, trump, owner, won, unsecured, wbuf[slot + 2])
    if n_in_trick == 1:
        play_lead(st, rules, trick[0])  # its declaration is already in trump and points
        st[ST_PENDING] = pending


@jit_hot
def pimc2_choose_discard(hand12, to_talon, givable, n_worlds, rules, rng, st, work, tt, wbuf):
    """The PIMC declarer's discard in the two-player game: (b1, b2, t) as ``best_discard2``
    (t = -1 without ``to_talon``). He knows only his 12 cards; the 12 others are the defender's
    hand (10, or 9 with ``to_talon``) and the other talon (2, or 3). Candidates are the
    double-dummy best discards of the first CANDIDATE_WORLDS sampled worlds (at most that many,
    out of 66 or 220); the choice is the candidate of best value (buried points + the play's
    double-dummy value, the world's talon and t making the bonus) summed over ``n_worlds`` fresh
    worlds (the first on ties), proven from bounds as ``pimc_nb.pimc_choose_card`` proves a card."""
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
            n += 1
    best = 0
    if n > 1:
        reset_bounds(wbuf, n)
        worlds = max(1, n_worlds)
        for w in range(worlds):
            world[:] = 0
            sample_world2(rng, pool, 0, need_opp, n_talon, 0, wbuf)
            score_discard_world(w, n, CANDIDATE_DISCARD2, hand12, rules, st, work, tt, wbuf)
        best = proven_discard(n, worlds, CANDIDATE_DISCARD2, hand12, rules, st, work, tt, wbuf)
    return decode_discard(wbuf[WB_MOVES + best])
