"""The learned player's bids, final contract, concession and dark game, compiled: two ladder nets
(``layout``: B before the talon, C after the gifts) give the chance that the seat, declaring,
makes each contract under its own play, and the decisions are the rules' arithmetic over those
chances. A weights file without the bidding nets bids, raises and concedes as the heuristic player
does. The nets' inputs ride in the card net's scratch (``cards_nb``: ``lbuf`` rows ``L_DENSE``,
``L_H1``, ``L_OUT``). Everything is ``jit_hot``: no allocation.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bids_nb import contract_at_least, next_raise
from sim.game.bits_nb import lowest_index
from sim.game.play_nb import barrel_need, concession_gain, concession_loss
from sim.game.state_layout import G_CONCESSIONS, G_ON_BARREL, G_SCORE
from sim.numba_config import jit_hot
from sim.players.heuristic_nb import barrel_raise, heuristic_bid, heuristic_contract, heuristic_dark
from sim.players.layout import H_BLOCK_MARGIN, H_NET, H_OPPONENT_WEIGHT
from sim.players.learned.cards_nb import L_DENSE, L_H1, L_OUT, RULE_OFFSETS
from sim.players.learned.layout import (
    B_N_IN,
    BH_DARK_VALUE,
    BH_FIRST_VALUE,
    BH_HIDDEN_B,
    BH_HIDDEN_C,
    BID_HEADER,
    C_N_IN,
    L_ACE_MARRIAGE,
    L_HAND,
    L_MARRIAGE_VALUE,
    L_RULES,
    L_VALUE,
    LADDER_LO,
    LADDER_STEP,
    N_LADDER,
    N_LADDER_OUT,
    NET_BIDDING,
)

# ---- bidding, the final contract, concession and the dark game -------------------------------------
# Two ladder nets (layout) give the chance that the seat, declaring, makes each contract
# under its own play, as fitted to playouts of the learned player (sim.training.bidding). The
# decisions are the rules' arithmetic over those chances. A weights file without the bidding nets
# bids, raises and concedes as the heuristic player does.
MADE_AT_LEAST = 0.5  # on the barrel: take the barrel's minimum contract when it is at least this likely made
# The margin of a call the rules leave the seat no choice over (points; far beyond any decision's
# margin, so that a model's probability of it is 1 at any temperature in use).
NO_CHOICE_MARGIN = 10000.0


@jit_hot
def has_bidding_nets(net, model):
    """Whether model row ``model`` of ``net`` holds the bidding nets."""
    return model >= 0 and net[model, NET_BIDDING] > 0


@jit_hot
def ladder_inputs(hand, rules, value, x):
    """The inputs of a ladder net into ``x[:C_N_IN]`` (net B reads the first B_N_IN): the cards of
    ``hand``, the play rules, and for net C ``value``, the card net's value of the deal (points)."""
    for i in range(C_N_IN):
        x[i] = 0.0
    m = hand
    while m:
        x[L_HAND + lowest_index(m)] = 1.0
        m &= m - 1
    for i in range(RULE_OFFSETS.size):
        if rules[RULE_OFFSETS[i]] != 0:
            x[L_RULES + i] = 1.0
    for s in range(4):
        x[L_MARRIAGE_VALUE + s] = rules[R.MARRIAGE_VALUE + s] / 100.0
    x[L_ACE_MARRIAGE] = rules[R.ACE_MARRIAGE] / 100.0
    x[L_VALUE] = value / 100.0


@jit_hot
def ladder_forward(net, model, which, x, lbuf):
    """Net B (``which`` 0) or C (1) of model row ``model`` on the inputs ``x``, into
    ``lbuf[L_OUT]``: the first N_LADDER entries the chances that contracts LADDER_LO, LADDER_LO +
    LADDER_STEP, ... are made (made non-increasing: a higher contract is never likelier), then the
    net's value in points (B: the seat's points as a defender; C: the defenders' together). One
    fixed order of every sum, as in ``q_forward``."""
    w = net[model]
    base = np.int64(w[NET_BIDDING])
    hb = np.int64(w[base + BH_HIDDEN_B])
    o = base + BID_HEADER
    n_in = B_N_IN
    h = hb
    if which == 1:
        o += B_N_IN * hb + hb + hb * N_LADDER_OUT + N_LADDER_OUT
        n_in = C_N_IN
        h = np.int64(w[base + BH_HIDDEN_C])
    o_b1 = o + n_in * h
    o_w2 = o_b1 + h
    o_b2 = o_w2 + h * N_LADDER_OUT
    h1 = lbuf[L_H1]
    b1 = w[o_b1:o_b1 + h]
    for j in range(h):
        h1[j] = b1[j]
    for i in range(n_in):
        v = x[i]
        if v != 0:
            row = w[o + i * h:o + (i + 1) * h]
            for j in range(h):
                h1[j] += v * row[j]
    out = lbuf[L_OUT]
    b2 = w[o_b2:o_b2 + N_LADDER_OUT]
    for k in range(N_LADDER_OUT):
        out[k] = b2[k]
    for j in range(h):
        a = h1[j]
        if a > 0:
            row = w[o_w2 + j * N_LADDER_OUT:o_w2 + (j + 1) * N_LADDER_OUT]
            for k in range(N_LADDER_OUT):
                out[k] += a * row[k]
    low = np.float32(1.0)
    for i in range(N_LADDER):
        p = np.float32(1.0) / (np.float32(1.0) + np.exp(-out[i]))
        if p < low:
            low = p
        out[i] = low
    out[N_LADDER] *= np.float32(100.0)


@jit_hot
def made_chance(ladder, contract):
    """The ladder's chance that ``contract`` is made (a contract below the ladder's first as likely
    as the first; one above its last, never)."""
    if contract <= LADDER_LO:
        return ladder[0]
    i = (contract - LADDER_LO + LADDER_STEP - 1) // LADDER_STEP
    return ladder[i] if i < N_LADDER else np.float32(0.0)


@jit_hot
def contract_value(ladder, contract, rules):
    """The declarer's expected result of playing ``contract``: won or lost, at the ladder's chance.
    With declarer_scores = points a made contract scores his points when more, which adds the
    expected surplus E[(points - contract)+]: the sum over the ladder's contracts above ``contract``
    of LADDER_STEP times the chance of reaching each (the ladder read as points in steps of 5; none
    counted beyond its last contract)."""
    value = contract * (2.0 * made_chance(ladder, contract) - 1.0)
    if rules[R.DECLARER_SCORES_POINTS]:
        level = (contract // LADDER_STEP + 1) * LADDER_STEP
        while level < LADDER_LO + LADDER_STEP * N_LADDER:
            value += LADDER_STEP * made_chance(ladder, level)
            level += LADDER_STEP
    return value


@jit_hot
def learned_bid_margin(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf):
    """``learned_bid``'s call with how far the decision lies from its boundary: (call, margin),
    ``call`` a raise or 0 to pass (exactly ``learned_bid``'s), ``margin`` >= 0 in points. Normally
    |value of declaring at ``min_raise`` - the seat's defence|; on the barrel, for the contract that
    takes him off, want * |2 p - 1| (p its chance, MADE_AT_LEAST = 0.5 its boundary), the nearer of
    two boundaries where two tests decide; a call the rules leave no choice (barrel_failed_contract
    = stays: the sitter always bids it) NO_CHOICE_MARGIN. Without the bidding nets the heuristic's
    call with margin 0: uninformative (``sim.players.learned.likelihood_nb``)."""
    model = np.int64(prm[seat, H_NET])
    if not has_bidding_nets(net, model):
        return np.int64(heuristic_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm)), 0.0
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, 0, x)
    ladder_forward(net, model, 0, x, lbuf)
    ladder = lbuf[L_OUT]
    defence = ladder[N_LADDER]
    if rules[R.BARREL] > 0:
        if gs[G_ON_BARREL + seat]:
            want = barrel_raise(min_raise, barrel_need(gs[G_SCORE + seat], rules), rules)
            off = NO_CHOICE_MARGIN  # how far the sitter is from bidding ``want``
            if want <= cap:
                if rules[R.BARREL_FAILED_STAYS]:
                    return np.int64(want), NO_CHOICE_MARGIN
                p = made_chance(ladder, want)
                off = abs(want * (2.0 * p - 1.0))
                if p >= MADE_AT_LEAST:
                    return np.int64(want), off
            if rules[R.BARREL_FREEZE]:
                return np.int64(0), off
            # The range barrel: a smaller contract counts, his defence does not (worth nothing to him).
            v = contract_value(ladder, min_raise, rules)
            call = min_raise if v >= 0.0 else 0
            return np.int64(call), min(off, abs(v))
        if high_seat >= 0 and high_seat != seat and gs[G_ON_BARREL + high_seat]:
            defence -= prm[seat, H_BLOCK_MARGIN]
    v = contract_value(ladder, min_raise, rules)
    call = min_raise if v >= defence else 0
    return np.int64(call), abs(v - defence)


@jit_hot
def learned_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf):
    """A raise to ``min_raise`` or 0 to pass: raise while declaring at it is worth at least what the
    seat expects as a defender (net B: the chance of making each contract with the talon unseen,
    and the points as a defender). On the barrel only a contract that takes him off, when at least
    MADE_AT_LEAST likely (with barrel_failed_contract = stays always; on the range barrel, else any
    contract worth more than nothing); against a sitter about to win, the block margin more.
    ``learned_bid_margin``'s call."""
    return learned_bid_margin(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf)[0]


@jit_hot
def learned_contract_margin(seat, hand, contract, cap, can_concede, deal_value, observed, gs, rules, prm, net, lbuf):
    """``learned_contract``'s call with how far its two decisions lie from ``observed`` (a final
    contract, or -1 a concession): (call, play, play_margin, concede_margin). ``call`` is exactly
    ``learned_contract``'s; ``play`` the contract the seat plays when it does not concede (``call``
    unless it concedes). Each contract c is worth its expected result ``contract_value`` (the
    defenders' expected points, the same for every contract, aside); ``play_margin`` >= 0 (points)
    is how far ``play`` is from ``observed``: with ``observed`` == ``play`` its value less the best
    other contract's (NO_CHOICE_MARGIN when there is none), else |its value - observed's|; on the
    barrel, where the barrel's minimum decides (taken at a chance of at least MADE_AT_LEAST), the
    nearer of that boundary, want * |2 p - 1|, and the other (the boundary alone, or
    NO_CHOICE_MARGIN under barrel_failed_contract = stays, where the rule takes it). 0 for an
    observed concession. ``concede_margin`` >= 0: |the concession's worth - playing's| when the
    seat may concede, else NO_CHOICE_MARGIN. Without the bidding nets the heuristic's call with
    margins 0: uninformative (``sim.players.learned.deal_likelihood_nb``)."""
    model = np.int64(prm[seat, H_NET])
    if not has_bidding_nets(net, model):
        call = np.int64(heuristic_contract(seat, hand, contract, cap, can_concede, gs, rules, prm))
        return call, call, 0.0, 0.0
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, deal_value, x)
    ladder_forward(net, model, 1, x, lbuf)
    ladder = lbuf[L_OUT]
    step = rules[R.BID_STEP]
    top = max(contract, cap)
    best = contract
    best_value = contract_value(ladder, contract, rules)
    second = -np.inf  # the best value among the other contracts
    c = next_raise(contract, step, rules)
    while c <= top:
        v = contract_value(ladder, c, rules)
        if v > best_value:
            second = max(second, best_value)
            best, best_value = c, v
        else:
            second = max(second, v)
        c = next_raise(c, step, rules)
    barrel = NO_CHOICE_MARGIN  # how far the barrel's rule is from deciding otherwise
    by_rule = False
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = contract_at_least(barrel_need(gs[G_SCORE + seat], rules), rules)
        if best < need <= top:
            if rules[R.BARREL_FAILED_STAYS]:
                by_rule = True
            else:
                p = made_chance(ladder, need)
                barrel = abs(need * (2.0 * p - 1.0))
                by_rule = p >= MADE_AT_LEAST
        if by_rule:
            best = need
            best_value = contract_value(ladder, best, rules)
    if by_rule:
        play_margin = barrel
    elif observed == best:
        play_margin = min(best_value - second, NO_CHOICE_MARGIN, barrel)
    else:
        play_margin = min(abs(best_value - contract_value(ladder, observed, rules)), barrel)
    if observed < 0:
        play_margin = 0.0
    concede_margin = NO_CHOICE_MARGIN
    call = best
    if can_concede:
        loss = concession_loss(contract, gs[G_CONCESSIONS + seat] + 1, rules)
        gain = concession_gain(contract, rules)
        weight = prm[seat, H_OPPONENT_WEIGHT]
        conceding = -loss - weight * gain
        playing = best_value - weight * 0.5 * ladder[N_LADDER]
        concede_margin = abs(conceding - playing)
        if conceding > playing:
            call = -1
    return np.int64(call), np.int64(best), np.float64(play_margin), np.float64(concede_margin)


@jit_hot
def learned_contract(seat, hand, contract, cap, can_concede, deal_value, gs, rules, prm, net, lbuf):
    """The final contract (>= the bid ``contract``, <= ``cap`` when raising) or -1 to concede. Net C
    reads the 8 cards kept and the card net's value of the deal (``deal_value``, from the gifts):
    the contract of best expected result is played, unless conceding costs less. A concession is
    weighed with its payment to the defenders, each weighted ``prm[seat, H_OPPONENT_WEIGHT]``
    against the defenders' points of a played deal (1: the seat's result less the opponents' mean,
    what a duplicate match compares). On the barrel, the barrel's minimum when it is at least
    MADE_AT_LEAST likely made. ``learned_contract_margin``'s call."""
    return learned_contract_margin(seat, hand, contract, cap, can_concede, deal_value, contract, gs, rules, prm, net,
                                   lbuf)[0]


@jit_hot
def learned_dark(seat, gs, rules, prm, net):
    """1 if first hand goes dark (the caller checks it is allowed): when the playouts' dark game is
    worth more to a first hand than a normal deal bid by ``learned_bid`` (two figures of the
    weights file), or, as the heuristic player does, when far behind."""
    model = np.int64(prm[seat, H_NET])
    if not has_bidding_nets(net, model):
        return heuristic_dark(seat, gs, rules, prm)
    base = np.int64(net[model, NET_BIDDING])
    if net[model, base + BH_DARK_VALUE] > net[model, base + BH_FIRST_VALUE]:
        return 1
    return heuristic_dark(seat, gs, rules, prm)


@jit_hot
def ladder_rows(hands, values, rules_table, rules_of, x):
    """``ladder_inputs`` of many rows into ``x`` (n, C_N_IN): hand ``hands[i]``, value ``values[i]``,
    rules ``rules_table[rules_of[i]]`` (training computes the inputs with the players' own code)."""
    for i in range(hands.shape[0]):
        ladder_inputs(hands[i], rules_table[rules_of[i]], values[i], x[i])
