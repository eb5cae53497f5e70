"""The score-aware learned player (``learned-win``), compiled: the learned player's ladders (the
chance of making each contract, ``bidding_nb``) weighed by the chance of winning the game after the
deal instead of by points. Each option of a bid or a final contract is valued

    p x W(the scores if made) + (1 - p) x W(the scores if failed)

against W(the scores after defending) or W(the scores after conceding), W the chance of winning
the game from the scores at the start of a deal: a cube own x leading opponent x trailing opponent
of score states (``layout``'s win block, appended to the seat's model row: the
``analysis.win_chances`` table of the rule set). The scores after the deal follow the rules'
settlement (``sim.engine.settle_nb``) for the seat: the dump truck, climbing onto the barrel and
knocking a sitter off (``barrel_collision``), winning from it, falls (failed contract, attempts
used up, the n-th fall to zero), and a bolt penalty when ``bolt_on = three_passes`` makes one due
(the third deal in a row without declaring).

Approximations (docs/learned.md, "The score-aware player"): a made contract scores the contract
(under declarer_scores = points his points when more, read from the ladder; not a dark or golden
doubling); a
defender scores the ladder's defence value (net B: one defender's points before the talon; net C:
the defenders' points, halved for each); when the seat bids, each opponent gains net B's defence
value whether the seat declares or defends (the declarer's result is not guessed: only the seat's
own score tells its options apart), except that passing to a sitter who has bid the barrel's
contract loses with chance SITTER_MAKES; only three_passes bolts are foreseen (bolts for a deal
without a trick are not); opponents climbing onto the barrel together, their attempts and falls, and the barrel variants
barrel_accumulate and the range barrel's sitter (where the plain learned player decides) are not
modelled. The dark game (``learned_win_dark``) is weighed the same way from the playouts' two
figures of the weights file: the dark game made (+240) at the chance its mean result implies, or
failed (-240), against a normal deal's mean result; each opponent gains that mean either way, and an
opponent undarking is not foreseen.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.amounts import DARK_CONTRACT
from sim.game.bids_nb import next_raise
from sim.game.play_nb import barrel_need, concession_gain, concession_loss
from sim.game.state_layout import G_ATTEMPTS, G_BOLTS, G_CONCESSIONS, G_FALLS, G_ON_BARREL, G_QUIET, G_SCORE
from sim.numba_config import jit_hot
from sim.players.heuristic_nb import barrel_raise
from sim.players.layout import H_NET
from sim.players.learned.bidding_nb import (
    has_bidding_nets,
    ladder_forward,
    ladder_inputs,
    learned_bid,
    learned_contract,
    learned_dark,
    made_chance,
)
from sim.players.learned.cards_nb import L_DENSE, L_OUT
from sim.players.learned.layout import (
    B_N_IN,
    BH_DARK_VALUE,
    BH_FIRST_VALUE,
    BH_HIDDEN_B,
    BH_HIDDEN_C,
    BID_HEADER,
    C_N_IN,
    LADDER_LO,
    LADDER_STEP,
    N_LADDER,
    N_LADDER_OUT,
    NET_BIDDING,
    WIN_HEADER,
    WN_FLOOR,
    WN_HAS_BARREL,
    WN_STATES,
    WN_TARGET,
    WN_TOP,
    WN_WIDTH,
)

# Passing to a sitter on the barrel who has bid its contract: the chance he wins the game this deal
# (he makes the contract). From the barrel the learned player leaves upward about half the time per
# attempt (analysis.win_chances: 55%, 54%, 49% on the first, second and third attempt).
SITTER_MAKES = 0.5


@jit_hot
def win_offset(net, model):
    """Where model row ``model`` of ``net`` holds its win-chance block (``layout``: after the bidding
    blob), or -1 when it holds none (no bidding nets, or the row of a seat that is not learned-win)."""
    if not has_bidding_nets(net, model):
        return -1
    w = net[model]
    base = np.int64(w[NET_BIDDING])
    hb = np.int64(w[base + BH_HIDDEN_B])
    hc = np.int64(w[base + BH_HIDDEN_C])
    off = (base + BID_HEADER + B_N_IN * hb + hb + hb * N_LADDER_OUT + N_LADDER_OUT
           + C_N_IN * hc + hc + hc * N_LADDER_OUT + N_LADDER_OUT)
    if off + WIN_HEADER > w.size or w[off + WN_STATES] <= 0:
        return -1
    return off


@jit_hot
def score_states(w, off, score, on_barrel):
    """(state, next state, weight of the next) of ``score`` in the win block at ``w[off]``: the score
    read linearly between the centres of the two bins around it (a bin's chance stands for its
    centre; below the first centre and above the last, that bin alone), or the barrel state. A
    table's bins are 40 points wide: read as steps, every contract within one bin would look alike."""
    states = np.int64(w[off + WN_STATES])
    if on_barrel:
        return states - 1, states - 1, 0.0
    bins = states - 1
    floor = np.float64(w[off + WN_FLOOR])
    s = min(max(np.float64(score), floor), np.float64(w[off + WN_TOP]))
    t = (s - floor) / np.float64(w[off + WN_WIDTH]) - 0.5
    if t <= 0.0:
        return 0, 0, 0.0
    i = np.int64(np.floor(t))
    if i >= bins - 1:
        return bins - 1, bins - 1, 0.0
    return i, i + 1, t - i


@jit_hot
def win_chance(w, off, own, own_on, a, a_on, b, b_on):
    """The seat's chance of winning the game from its score ``own`` and its opponents' ``a`` and
    ``b`` (``*_on``: sitting on the barrel) at the start of a deal, the table's cells read linearly
    between bin centres in each of the three scores (``score_states``): with a barrel, a score at
    the target is the game's end (1 for the seat, 0 for an opponent)."""
    if w[off + WN_HAS_BARREL] > 0:
        target = np.float64(w[off + WN_TARGET])
        if own >= target:
            return 1.0
        if a >= target or b >= target:
            return 0.0
    s = np.int64(w[off + WN_STATES])
    o0, o1, fo = score_states(w, off, own, own_on)
    x0, x1, fx = score_states(w, off, a, a_on)
    y0, y1, fy = score_states(w, off, b, b_on)
    total = 0.0
    for i in range(2):
        o, wo = (o0, 1.0 - fo) if i == 0 else (o1, fo)
        for j in range(2):
            x, wx = (x0, 1.0 - fx) if j == 0 else (x1, fx)
            for k in range(2):
                y, wy = (y0, 1.0 - fy) if k == 0 else (y1, fy)
                weight = wo * wx * wy
                if weight > 0.0:
                    total += weight * np.float64(w[off + WIN_HEADER + (o * s + max(x, y)) * s + min(x, y)])
    return total


@jit_hot
def after_fall(gs, rules, seat, score):
    """A score after a counted fall from the barrel (the penalty taken): zero on the
    barrel_falls_to_zero-th fall."""
    n = rules[R.BARREL_FALLS_TO_ZERO]
    if n > 0 and gs[G_FALLS + seat] + 1 >= n:
        return 0.0
    return score


@jit_hot
def bolt_due(seat, gs, rules, declaring):
    """Whether a deal the seat does not declare costs it the bolt penalty: bolt_on = three_passes and
    its third deal in a row without declaring, the bolt counted each time or its third (the
    penalty > 0). Other bolts (a deal without a trick or a point) cannot be foreseen and are not."""
    if rules[R.BOLT_ON] != R.BOLT_ON_THREE_PASSES or declaring or rules[R.BOLT_PENALTY] <= 0:
        return False
    if gs[G_QUIET + seat] + 1 < 3:
        return False
    return rules[R.BOLT_COUNT] == R.BOLT_COUNT_EACH or gs[G_BOLTS + seat] + 1 >= 3


@jit_hot
def opponent_after(gs, rules, q, gain):
    """(score, on the barrel) of opponent ``q`` after a deal that gives him ``gain`` points (a
    sitter's defence does not count; a climb sits at the barrel)."""
    score = np.float64(gs[G_SCORE + q])
    on = gs[G_ON_BARREL + q] != 0
    barrel = rules[R.BARREL]
    if on or gain == 0:
        return score, on
    score += gain
    if barrel > 0 and score >= barrel:
        if rules[R.BARREL_FREEZE]:
            return np.float64(barrel), True
        return score, score < rules[R.TARGET]
    return score, False


@jit_hot
def chance_after(seat, gs, rules, w, off, declaring, made, contract, change, opponent_gain):
    """The seat's chance of winning the game after this deal: it declared ``contract`` (``declaring``)
    and made it or not (a concession: not made), or defended; its raw result is ``change`` points
    (+contract, -contract, -the concession's cost, a defender's points) and each opponent's
    ``opponent_gain``. The settlement's rules for the seat (``settle_nb.settle``): the barrel (its
    win, falls, attempts, a climb and the knock-off), the target, a bolt penalty due, the dump truck."""
    barrel = rules[R.BARREL]
    target = rules[R.TARGET]
    penalty = rules[R.BARREL_PENALTY]
    freeze = barrel > 0 and rules[R.BARREL_FREEZE] != 0
    left = (seat + 1) % 3
    right = (seat + 2) % 3
    a, a_on = opponent_after(gs, rules, left, opponent_gain)
    b, b_on = opponent_after(gs, rules, right, opponent_gain)
    own = np.float64(gs[G_SCORE + seat])
    on = gs[G_ON_BARREL + seat] != 0
    if on and freeze:
        if declaring and made and contract >= rules[R.BARREL_MIN_CONTRACT]:
            return 1.0
        if declaring and not made and not rules[R.BARREL_FAILED_STAYS]:
            own = after_fall(gs, rules, seat, own + change)
            on = False
        elif gs[G_ATTEMPTS + seat] + 1 >= rules[R.BARREL_ATTEMPTS]:
            own = after_fall(gs, rules, seat, own - penalty)
            on = False
    elif on:  # the range barrel
        if declaring and (made or not rules[R.BARREL_FAILED_STAYS]):
            own += change
        if own >= target:
            return 1.0
        on = own >= barrel
    else:
        own += change
        if barrel > 0:
            if own >= target and rules[R.BARREL_JUMP_WINS]:
                return 1.0
            if own >= barrel and not freeze:
                on = own < target
            elif own >= barrel:
                own = np.float64(barrel)
                on = True
                collision = rules[R.BARREL_COLLISION]
                for q in range(2):
                    opp = left if q == 0 else right
                    if not rules[R.BARREL_KNOCK_OFF] or not gs[G_ON_BARREL + opp]:
                        continue
                    if collision != R.COLLISION_SITTER_STAYS:  # the sitter falls
                        fallen = after_fall(gs, rules, opp, np.float64(gs[G_SCORE + opp]) - penalty)
                        if q == 0:
                            a, a_on = fallen, False
                        else:
                            b, b_on = fallen, False
                    if collision != R.COLLISION_NEWCOMER_STAYS and on:  # the newcomer is sent back
                        own = after_fall(gs, rules, seat, np.float64(barrel - penalty))
                        on = False
        elif own >= target and ((declaring and made) or not rules[R.WIN_ONLY_AS_DECLARER]):
            return 1.0
    if bolt_due(seat, gs, rules, declaring):
        own -= rules[R.BOLT_PENALTY]
        if on and freeze:
            own = after_fall(gs, rules, seat, own)
            on = False
    truck = rules[R.DUMP_TRUCK_VALUE]
    if (rules[R.DUMP_TRUCK] and own == truck) or (rules[R.DUMP_TRUCK_NEGATIVE] and own == -truck):
        own = 0.0
    return win_chance(w, off, own, on, a, a_on, b, b_on)


@jit_hot
def declare_chance(seat, gs, rules, w, off, ladder, contract, opponent_gain):
    """The seat's chance of winning after declaring ``contract``, made at the ladder's chance. With
    declarer_scores = points a made contract scores his points when more: the ladder read as points
    in steps of LADDER_STEP (as ``bidding_nb.contract_value`` reads it), each made score weighed by
    the chance of landing on it, the ladder's last level taking what lies beyond it."""
    p = np.float64(made_chance(ladder, contract))
    failed = (1.0 - p) * chance_after(seat, gs, rules, w, off, True, False, contract, -contract, opponent_gain)
    if not rules[R.DECLARER_SCORES_POINTS]:
        return p * chance_after(seat, gs, rules, w, off, True, True, contract, contract, opponent_gain) + failed
    total = failed
    at_least = p  # the chance of scoring ``score`` or more
    score = contract
    level = (contract // LADDER_STEP + 1) * LADDER_STEP
    while level < LADDER_LO + LADDER_STEP * N_LADDER:
        beyond = min(at_least, np.float64(made_chance(ladder, level)))
        total += (at_least - beyond) * chance_after(seat, gs, rules, w, off, True, True, contract, score,
                                                    opponent_gain)
        at_least, score = beyond, level
        level += LADDER_STEP
    return total + at_least * chance_after(seat, gs, rules, w, off, True, True, contract, score, opponent_gain)


@jit_hot
def best_contract(seat, gs, rules, w, off, ladder, lowest, top, opponent_gain):
    """(the contract from ``lowest`` up to ``top``, by legal raises, that leaves the seat the best
    chance of winning when declared (``declare_chance``), the lowest of equal chances; that chance)."""
    best = lowest
    best_value = declare_chance(seat, gs, rules, w, off, ladder, lowest, opponent_gain)
    step = rules[R.BID_STEP]
    c = next_raise(lowest, step, rules)
    while c <= top:
        v = declare_chance(seat, gs, rules, w, off, ladder, c, opponent_gain)
        if v > best_value:
            best, best_value = c, v
        c = next_raise(c, step, rules)
    return best, best_value


@jit_hot
def plays_plain(off, gs, seat, rules):
    """Whether the seat decides as the plain learned player: no win block, or a barrel variant the
    score arithmetic does not model (barrel_accumulate; a sitter on the range barrel), or not the
    3-player deal the table is of."""
    if off < 0 or rules[R.PLAYERS] != 3 or rules[R.BARREL_ACCUMULATE]:
        return True
    return rules[R.BARREL] > 0 and not rules[R.BARREL_FREEZE] and gs[G_ON_BARREL + seat] != 0


@jit_hot
def learned_win_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf):
    """A raise or 0 to pass (as ``bidding_nb.learned_bid``): raise to ``min_raise`` (a sitter on the
    barrel: to the barrel's contract) when declaring it, made at net B's chance, or, where the
    contract may be raised after the talon, the best contract from it to ``cap``, leaves the seat a
    chance of winning the game at least that of passing (defending for net B's defence value, a bolt
    penalty when one is due, and against a sitter who has bid the barrel's contract, losing with
    chance SITTER_MAKES); either way each opponent gains net B's defence value."""
    model = np.int64(prm[seat, H_NET])
    off = win_offset(net, model) if model >= 0 else -1
    if plays_plain(off, gs, seat, rules):
        return learned_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf)
    w = net[model]
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, 0, x)
    ladder_forward(net, model, 0, x, lbuf)
    ladder = lbuf[L_OUT]
    defence = np.float64(ladder[N_LADDER])
    bid = min_raise
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        bid = barrel_raise(min_raise, barrel_need(gs[G_SCORE + seat], rules), rules)
        if bid > cap:
            return 0
    # Declaring is worth the best contract the winner may still raise to after the talon.
    top = bid if rules[R.NO_RAISE_AFTER_TALON] else cap
    declare = best_contract(seat, gs, rules, w, off, ladder, bid, top, defence)[1]
    stay = chance_after(seat, gs, rules, w, off, False, False, 0, defence, defence)
    if (high_seat >= 0 and high_seat != seat and rules[R.BARREL] > 0 and gs[G_ON_BARREL + high_seat]
            and min_raise > barrel_need(gs[G_SCORE + high_seat], rules)):
        stay *= 1.0 - SITTER_MAKES
    return bid if declare >= stay else 0


@jit_hot
def learned_win_contract(seat, hand, contract, cap, can_concede, deal_value, gs, rules, prm, net, lbuf):
    """The final contract or -1 to concede (as ``bidding_nb.learned_contract``): of the contracts
    from the bid ``contract`` to ``cap`` (net C's chances after the gifts, each defender gaining half
    net C's defenders' points) and the concession (its cost, the third concession's penalty, each
    defender's payment), the one that leaves the seat the best chance of winning the game."""
    model = np.int64(prm[seat, H_NET])
    off = win_offset(net, model) if model >= 0 else -1
    if plays_plain(off, gs, seat, rules):
        return learned_contract(seat, hand, contract, cap, can_concede, deal_value, gs, rules, prm, net, lbuf)
    w = net[model]
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, deal_value, x)
    ladder_forward(net, model, 1, x, lbuf)
    ladder = lbuf[L_OUT]
    half = 0.5 * np.float64(ladder[N_LADDER])
    best, best_value = best_contract(seat, gs, rules, w, off, ladder, contract, max(contract, cap), half)
    if can_concede:
        loss = concession_loss(contract, gs[G_CONCESSIONS + seat] + 1, rules)
        gain = np.float64(concession_gain(contract, rules))
        if chance_after(seat, gs, rules, w, off, True, False, contract, -loss, gain) > best_value:
            return -1
    return best


@jit_hot
def dark_made_chance(dark_value):
    """The chance a first hand makes the dark game, from its mean result over the playouts (120 made
    or lost, doubled: ``dark_value`` = 2 x 120 x (2p - 1)), within [0, 1]."""
    return min(max(0.5 + dark_value / (4.0 * DARK_CONTRACT), 0.0), 1.0)


@jit_hot
def learned_win_dark(seat, gs, rules, prm, net):
    """1 if first hand goes dark (the caller checks it is allowed; as ``bidding_nb.learned_dark``):
    when the dark game, made (+240) at the chance the playouts' mean dark result implies
    (``dark_made_chance``) or failed (-240), leaves the seat a better chance of winning the game than
    a normal deal worth the playouts' mean first-hand result; each opponent gains that mean result
    either way (only the seat's own score tells the options apart, as for a bid). So a seat far
    behind, for which a normal deal changes little, takes the doubled stakes, and a leader does not;
    the dump truck, the barrel and the target count as for a contract (``chance_after``)."""
    model = np.int64(prm[seat, H_NET])
    off = win_offset(net, model) if model >= 0 else -1
    if plays_plain(off, gs, seat, rules):
        return learned_dark(seat, gs, rules, prm, net)
    w = net[model]
    base = np.int64(w[NET_BIDDING])
    normal = np.float64(w[base + BH_FIRST_VALUE])
    p = dark_made_chance(np.float64(w[base + BH_DARK_VALUE]))
    stakes = 2.0 * DARK_CONTRACT
    dark = (p * chance_after(seat, gs, rules, w, off, True, True, DARK_CONTRACT, stakes, normal)
            + (1.0 - p) * chance_after(seat, gs, rules, w, off, True, False, DARK_CONTRACT, -stakes, normal))
    stay = chance_after(seat, gs, rules, w, off, False, False, 0, normal, normal)
    return 1 if dark > stay else 0
