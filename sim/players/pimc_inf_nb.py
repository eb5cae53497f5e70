"""The ``pimc-inf`` player, compiled: PIMC (``pimc_nb``) whose worlds are weighed by what the auction
said. It bids and goes dark as ``pimc`` does (the heuristic player's), and gives its gifts and plays
its cards by PIMC over the same number of worlds; only the worlds differ. Its final contract and
concession are those of best mean result over its discard's weighted worlds (``contract_rule`` 1,
the default; ``pimc_inf_contract``: each world's exact value of the chosen gifts, less a margin),
or the heuristic's (``contract_rule`` 0, as ``pimc``). At each decision it draws ``factor`` times as many
candidate worlds as ``pimc`` would, uniformly among those consistent with everything certain
(``pimc_nb.draw_world``, ``discard_world``), weighs each by the likelihood of the two other seats'
calls given their 7-card hands before the talon in that world
(``sim.players.learned.likelihood_nb.auction_loglik``: the learned player's bidding decisions made
probabilities at a temperature, OPPONENT_TEMPERATURE by default; a world where a seat bid above his
hand's cap, or where the declarer's eight cards could not reach his final contract, weighs nothing),
and resamples the PIMC world count from them by systematic resampling, from the seat's own stream. A
decision where no other seat made a call of its own (every call forced, or none recorded) draws its
worlds exactly as ``pimc`` does.

A seat's 7-card hand before the talon, in a world (``seven_card_hands``): a defender's is what he
holds now and has played, less the card the declarer gave him; the declarer's is what he holds
and has played, with the two cards he gave, less the talon. What the viewing seat does not know
of these (the other defender's gift when the gifts lie face down, the talon when it was not
shown) is drawn in each world among what is consistent with it, uniformly.

Buffers (``new_inference_buffers``, the seat tuple's ``solver[8:11]``): ``ibuf`` int64 (the
candidate worlds, the resampled ones, the game state before the deal, the 7-card hands, the last
discard's world values), ``lw``
float64 (the candidates' log-weights), ``mprm`` float64 (3, N_HEURISTIC_COLUMNS): the parameter
rows the model of the other seats' bidding reads (the seats' own rows, with the learned nets of
the viewing seat). Everything is ``jit_hot``: no allocation.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.auction_layout import (
    A_CALLS,
    A_FACTS,
    A_GS,
    C_CALL,
    C_DARK,
    C_FORCED,
    C_HIGH,
    C_HIGH_SEAT,
    C_SEAT,
    F_CALLS,
    F_DECLARER,
    F_FACE_UP,
    F_GIFT_LEFT,
    F_GIFT_RIGHT,
    F_SHOWN,
    F_TALON,
)
from sim.game.bids_nb import contract_at_least, contract_cap, next_raise
from sim.game.bits_nb import lowest_index, popcount
from sim.game.play_nb import (
    barrel_need,
    concession_gain,
    concession_loss,
    declarer_gain,
    declarer_total,
    marriage_total,
    nth_card,
)
from sim.game.rng_nb import below, uniform
from sim.game.state_layout import G_CONCESSIONS, G_ON_BARREL, G_SCORE, N_GAME_STATE
from sim.numba_config import jit_hot
from sim.players.heuristic_nb import heuristic_contract
from sim.players.layout import (
    CONTRACT_WORLDS,
    H_CONTRACT_MARGIN,
    H_CONTRACT_RULE,
    H_NET,
    H_OPPONENT_WEIGHT,
    N_HEURISTIC_COLUMNS,
)
from sim.players.learned.bidding_nb import MADE_AT_LEAST
from sim.players.learned.likelihood_nb import IMPOSSIBLE, others_loglik
from sim.players.pimc_nb import (
    CANDIDATE_WORLDS,
    MAX_WORLDS,
    WB_HANDS,
    WB_MOVES,
    discard_values,
    discard_world,
    draw_world,
    pimc_choose_card_given,
    score_discards,
)

# The temperature (points) at which a pimc-inf seat reads the other seats' calls, by default (the
# parameter inference_temperature): the one of greatest likelihood of the calls of players bidding
# as the heuristic player, pimc's and pimc-inf's own bidding (benchmarks/bench_pimc_inf.py
# --fit-only; docs/pimc.md, "pimc-inf"). The inference's TEMPERATURE (likelihood_nb) is fitted on
# the learned player's own calls, which follow the model exactly: far colder, and wrong for these.
OPPONENT_TEMPERATURE = 20.0
# Candidate worlds drawn for each world PIMC searches, by default (the parameter
# inference_candidates; docs/pimc.md, "pimc-inf": chosen by the effective sample size and the cost
# measured there).
CANDIDATES_PER_WORLD = 10
# The points a pimc-inf declarer takes off each world's double-dummy value when he chooses his
# contract by the worlds (the parameter contract_margin): PIMC's double-dummy values are optimistic.
CONTRACT_MARGIN = 2.0
# The card points of the deck, which the tricks share (worlds_defence).
DECK_POINTS = 120
# The most candidate worlds of one decision (the discard draws two sets: its candidates' worlds
# and its scoring worlds); a larger factor or world count is cut to fit.
MAX_CANDIDATES = 1024
IB_POOL = 0  # candidate worlds, three hands each
IB_CHOSEN = IB_POOL + 3 * MAX_CANDIDATES  # the resampled worlds, three hands each
IB_GS = IB_CHOSEN + 3 * MAX_CANDIDATES  # the game state before the deal
IB_SEVEN = IB_GS + N_GAME_STATE  # a world's 7-card hands before the talon, by seat
IB_NOTHING = IB_SEVEN + 3  # three zeros: the cards played before the first trick
# The declarer's last discard: how many worlds it valued its chosen gifts in (0: none, under the
# heuristic's contract rule), then their exact double-dummy values (his points), for the contract.
IB_N_VALUES = IB_NOTHING + 3
IB_VALUES = IB_N_VALUES + 1
IB_SIZE = IB_VALUES + MAX_WORLDS


@jit_hot
def inverse_temperature(temperature):
    """1 / ``temperature`` (points); 0 for a temperature of 0: the calls' certain part only."""
    return 1.0 / temperature if temperature > 0.0 else 0.0


def new_inference_buffers():
    """(ibuf, lw, mprm): the pimc-inf seat's scratch (the module's docstring)."""
    return (np.zeros(IB_SIZE, dtype=np.int64), np.zeros(MAX_CANDIDATES, dtype=np.float64),
            np.zeros((3, N_HEURISTIC_COLUMNS), dtype=np.float64))


@jit_hot
def informative_calls(log, viewer):
    """How many calls of the auction's record ``log`` another seat than ``viewer`` chose (0 when
    the record overflowed): the calls a world's weight reads."""
    n = log[A_FACTS, F_CALLS]
    k = 0
    for i in range(max(0, n)):
        row = log[A_CALLS + i]
        if row[C_SEAT] != viewer and row[C_FORCED] == 0:
            k += 1
    return k


@jit_hot
def viewer_facts(log, viewer):
    """What ``viewer`` knows of the talon and the gifts: (declarer, talon or 0 when he did not see
    it, the gift to the seat after the declarer, the gift to the one after that; -1 a gift not made
    yet or not seen)."""
    facts = log[A_FACTS]
    declarer = facts[F_DECLARER]
    if viewer == declarer:
        return declarer, facts[F_TALON], facts[F_GIFT_LEFT], facts[F_GIFT_RIGHT]
    shown = max(facts[F_SHOWN], 0)
    left = (declarer + 1) % 3
    g_left = facts[F_GIFT_LEFT]
    g_right = facts[F_GIFT_RIGHT]
    if facts[F_FACE_UP] != 1:  # face down (or not given yet): a defender sees only his own
        if viewer == left:
            g_right = -1
        else:
            g_left = -1
    return declarer, shown, g_left, g_right


@jit_hot
def pick_card(rng, cards):
    """A card of the mask ``cards`` (not empty), uniformly."""
    return nth_card(cards, below(rng, popcount(cards)))


@jit_hot
def seven_card_hands(wh, played_by, viewer, declarer, talon, g_left, g_right, discarded, rng, out):
    """The 7-card hands before the talon of the two seats other than ``viewer`` in the world ``wh``
    (every seat's cards now, this trick's included; ``played_by`` each seat's cards played, this
    trick's included) into ``out[seat]``; False when the world cannot be (it would need two
    hidden gifts to one seat). ``talon``: the talon as the viewer knows it (0: not seen);
    ``g_left``, ``g_right``: the gifts to the seats after the declarer as he knows them (-1:
    unseen); ``discarded``: the declarer has given his gifts. Before the gifts the world's hands
    are the 7-card hands. What the viewer does not know is drawn uniformly: the other defender's
    gift among that defender's cards (the talon's card the declarer no longer holds, when one is
    missing), the talon among the declarer's ten."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    if not discarded or (g_left < 0 and g_right < 0):  # no gift known (a record without them): none counted
        for q in range(3):
            out[q] = wh[q] | played_by[q]
        return True
    had_left = wh[left] | played_by[left]
    had_right = wh[right] | played_by[right]
    had_declarer = wh[declarer] | played_by[declarer]
    if g_left < 0 or g_right < 0:  # the viewer is a defender and the other gift lay face down
        mine = g_left if g_left >= 0 else g_right
        other = had_right if g_left >= 0 else had_left
        # A talon card shown that neither the declarer holds nor the viewer got went to the other.
        missing = talon & ~had_declarer & ~(np.int64(1) << mine)
        if popcount(missing) > 1 or (missing & ~other) != 0:
            return False
        gift = lowest_index(missing) if missing else pick_card(rng, other)
        if g_left < 0:
            g_left = gift
        else:
            g_right = gift
    gifts = (np.int64(1) << g_left) | (np.int64(1) << g_right)
    ten = had_declarer | gifts
    if talon == 0:  # not seen: three of his ten
        for _ in range(3):
            talon |= np.int64(1) << pick_card(rng, ten & ~talon)
    out[declarer] = ten & ~talon
    out[left] = had_left & ~(np.int64(1) << g_left)
    out[right] = had_right & ~(np.int64(1) << g_right)
    return True


@jit_hot
def winning_bid(log):
    """The highest bid of the auction's record (0: none)."""
    high = 0
    for i in range(max(0, log[A_FACTS, F_CALLS])):
        high = max(high, log[A_CALLS + i, C_CALL])
    return high


@jit_hot
def prepare_model(log, prm, viewer, mprm, ibuf):
    """The model's parameter rows (every seat's own, reading the viewer's nets) into ``mprm`` and
    the game state before the deal into ``ibuf[IB_GS:]``."""
    for q in range(3):
        for j in range(N_HEURISTIC_COLUMNS):
            mprm[q, j] = prm[q, j]
        mprm[q, H_NET] = prm[viewer, H_NET]
    for i in range(N_GAME_STATE):
        ibuf[IB_GS + i] = log[A_GS + i // 24, i % 24]


@jit_hot
def world_loglik(seven, viewer, log, rules, mprm, net, lbuf, ibuf, inv_temperature):
    """The log-likelihood of the other two seats' calls given their 7-card hands ``seven``; with
    ``inv_temperature`` 0 only their certain part: 0, or IMPOSSIBLE for a bid above a hand's cap
    (``auction_possible``)."""
    n = log[A_FACTS, F_CALLS]
    calls = log[A_CALLS:A_CALLS + n]
    return others_loglik(viewer, seven, calls[:, C_SEAT], calls[:, C_CALL], calls[:, C_HIGH], calls[:, C_HIGH_SEAT],
                         calls[:, C_DARK], calls[:, C_FORCED], ibuf[IB_GS:IB_GS + N_GAME_STATE], rules, mprm, net,
                         lbuf, inv_temperature)


@jit_hot
def systematic_resample(rng, lw, first, k, n, ibuf, dst):
    """Resample ``n`` of the ``k`` candidate worlds ``ibuf[IB_POOL + 3 * (first + i)]`` of
    log-weights ``lw[first + i]`` by systematic resampling (one uniform offset from ``rng``) into
    ``ibuf[dst:dst + 3 * n]``, in the candidates' order. Every weight IMPOSSIBLE: all alike."""
    top = IMPOSSIBLE
    for i in range(k):
        top = max(top, lw[first + i])
    total = 0.0
    for i in range(k):
        total += np.exp(lw[first + i] - top) if top != IMPOSSIBLE else 1.0
    u = uniform(rng)
    acc = 0.0
    i = -1
    for j in range(n):
        target = (u + j) / n * total
        while acc <= target and i < k - 1:
            i += 1
            acc += np.exp(lw[first + i] - top) if top != IMPOSSIBLE else 1.0
        for h in range(3):
            ibuf[dst + 3 * j + h] = ibuf[IB_POOL + 3 * (first + i) + h]


@jit_hot
def pimc_inf_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                         unsecured, played, voids, known, played_by, contract, n_worlds, rules, prm, rng, st, work, tt,
                         wbuf, log, net, lbuf, ibuf, lw, mprm, factor, inv_temperature):
    """The pimc-inf player's card, (card, declare): ``pimc_nb.pimc_choose_card`` (its arguments)
    over ``n_worlds`` worlds resampled from ``factor`` times as many candidates weighed by the
    auction's record ``log`` (``world_loglik``: the learned nets ``net``, scratch ``lbuf``, 1 /
    temperature ``inv_temperature``; 0 weighs every world alike) and the final ``contract`` (-1:
    none; ``weigh_worlds``). ``played_by``: the cards each seat has played. No call of another
    seat's own: exactly ``pimc_choose_card``."""
    worlds = max(1, n_worlds)
    if informative_calls(log, seat) == 0:
        return pimc_choose_card_given(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending,
                                      declarer, won, unsecured, played, voids, known, worlds, rules, rng, st, work, tt,
                                      wbuf, wbuf, 0)
    worlds = min(worlds, MAX_CANDIDATES)
    k = min(worlds * max(1, factor), MAX_CANDIDATES)
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    for i in range(k):
        draw_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, wbuf)
        for h in range(3):
            ibuf[IB_POOL + 3 * i + h] = wh[h]
    weigh_worlds(rng, 0, k, seat, played_by, log, rules, prm, net, lbuf, ibuf, lw, mprm, inv_temperature, True,
                 contract)
    systematic_resample(rng, lw, 0, k, worlds, ibuf, IB_CHOSEN)
    return pimc_choose_card_given(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer,
                                  won, unsecured, played, voids, known, worlds, rules, rng, st, work, tt, wbuf,
                                  ibuf[IB_CHOSEN:IB_CHOSEN + 3 * worlds], worlds)


@jit_hot
def weigh_worlds(rng, first, k, seat, played_by, log, rules, prm, net, lbuf, ibuf, lw, mprm, inv_temperature,
                 discarded, contract):
    """The log-weights ``lw[first:first + k]`` of the candidate worlds ``ibuf[IB_POOL + 3 * i]``
    (by seat; ``discarded``: the gifts are given) as ``seat`` sees them. A final ``contract``
    above the winning bid (-1: none set) is certain too: a world where the declarer's eight cards
    after the gifts could not raise to it is ruled out."""
    prepare_model(log, prm, seat, mprm, ibuf)
    declarer, talon, g_left, g_right = viewer_facts(log, seat)
    high = winning_bid(log)
    raised = discarded and seat != declarer and contract > high
    seven = ibuf[IB_SEVEN:IB_SEVEN + 3]
    for i in range(first, first + k):
        wh = ibuf[IB_POOL + 3 * i:IB_POOL + 3 * i + 3]
        if raised and contract_cap(wh[declarer] | played_by[declarer], high, rules) < contract:
            lw[i] = IMPOSSIBLE
        elif seven_card_hands(wh, played_by, seat, declarer, talon, g_left, g_right, discarded, rng, seven):
            lw[i] = world_loglik(seven, seat, log, rules, mprm, net, lbuf, ibuf, inv_temperature)
        else:
            lw[i] = IMPOSSIBLE


@jit_hot
def pimc_inf_choose_discard(declarer, hand10, known1, known2, n_worlds, rules, prm, rng, st, work, tt, wbuf, log,
                            net, lbuf, ibuf, lw, mprm, factor, inv_temperature, values):
    """The pimc-inf declarer's discard: ``pimc_nb.pimc_choose_discard`` (its arguments; the
    engine's seat ``declarer``) whose candidates' worlds (CANDIDATE_WORLDS) and scoring worlds
    (``n_worlds``) are each resampled from ``factor`` times as many candidates weighed as
    ``pimc_inf_choose_card`` weighs them: before the gifts the opponents' hands in a world are
    their 7-card hands. The candidates of both sets
    are drawn first, then the two offsets: with ``factor`` 1 and every weight alike, the worlds are
    ``pimc_choose_discard``'s. With ``values`` (the worlds' contract rule), the chosen gifts'
    exact value in each scoring world goes to ``ibuf[IB_VALUES:]`` (``IB_N_VALUES`` of them,
    ``pimc_nb.discard_values``; a single candidate is valued in worlds drawn after the choice);
    without, ``IB_N_VALUES`` is 0 and the choice draws exactly what it drew before."""
    worlds = max(1, n_worlds)
    ibuf[IB_N_VALUES] = 0
    if informative_calls(log, declarer) == 0:
        return chosen_discard(hand10, known1, known2, worlds, rules, rng, st, work, tt, wbuf, wbuf, 0, wbuf, 0, ibuf,
                              values)
    factor = max(1, factor)
    n_cand = min(worlds, CANDIDATE_WORLDS)
    k_cand = min(n_cand * factor, MAX_CANDIDATES // 2)
    worlds = min(worlds, MAX_CANDIDATES // 2)
    k = min(worlds * factor, MAX_CANDIDATES // 2)
    wh = wbuf[WB_HANDS:WB_HANDS + 3]
    for i in range(k_cand + k):
        discard_world(rng, hand10, known1, known2, wbuf)
        # discard_world's hands are by role (declarer, the seat after him, the one after that)
        for h in range(3):
            ibuf[IB_POOL + 3 * i + (declarer + h) % 3] = wh[h]
    weigh_worlds(rng, 0, k_cand + k, declarer, ibuf[IB_NOTHING:IB_NOTHING + 3], log, rules, prm, net, lbuf, ibuf,
                 lw, mprm, inv_temperature, False, -1)
    # back to discard_world's layout, the roles
    for i in range(k_cand + k):
        a = ibuf[IB_POOL + 3 * i + declarer]
        b = ibuf[IB_POOL + 3 * i + (declarer + 1) % 3]
        c = ibuf[IB_POOL + 3 * i + (declarer + 2) % 3]
        ibuf[IB_POOL + 3 * i] = a
        ibuf[IB_POOL + 3 * i + 1] = b
        ibuf[IB_POOL + 3 * i + 2] = c
    systematic_resample(rng, lw, 0, k_cand, n_cand, ibuf, IB_CHOSEN)
    systematic_resample(rng, lw, k_cand, k, worlds, ibuf, IB_CHOSEN + 3 * n_cand)
    return chosen_discard(hand10, known1, known2, worlds, rules, rng, st, work, tt, wbuf,
                          ibuf[IB_CHOSEN:IB_CHOSEN + 3 * n_cand], n_cand,
                          ibuf[IB_CHOSEN + 3 * n_cand:IB_CHOSEN + 3 * (n_cand + worlds)], worlds, ibuf, values)


@jit_hot
def chosen_discard(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, candidate_worlds,
                   n_candidate_worlds, given, n_given, ibuf, values):
    """``pimc_nb.pimc_choose_discard_given`` (its arguments), with ``values``: the chosen gifts'
    values in its scoring worlds into ``ibuf[IB_VALUES:]`` (``pimc_inf_choose_discard``)."""
    best, n, scored = score_discards(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf,
                                     candidate_worlds, n_candidate_worlds, given, n_given)
    code = wbuf[WB_MOVES + best]
    if values:
        ibuf[IB_N_VALUES] = discard_values(best, n, scored, hand10, known1, known2, n_worlds, rules, rng, st, work,
                                           tt, wbuf, given, n_given, ibuf[IB_VALUES:IB_VALUES + MAX_WORLDS])
    return code // 24, code % 24


@jit_hot
def world_points(value, margin):
    """A world's double-dummy value (the declarer's points) less the margin for PIMC's optimism:
    the points he is taken to make in it (whole points)."""
    return np.int64(np.floor(value - margin))


@jit_hot
def worlds_result(contract, values, n, margin, rules):
    """(the declarer's mean result playing ``contract`` over the ``n`` world ``values``, each less
    ``margin``; the share of worlds in which it is made): made when his points (rounded first
    under round_declarer) reach it, scoring ``declarer_gain``, else minus the contract."""
    total = 0.0
    made = 0
    for w in range(n):
        points = world_points(values[w], margin)
        if declarer_total(points, rules) >= contract:
            total += declarer_gain(contract, points, rules)
            made += 1
        else:
            total -= contract
    return total / n, made / n


@jit_hot
def worlds_defence(hand, values, n, margin, rules):
    """The defenders' card points together, the mean over the worlds: 120 less the declarer's card
    points (his world points, ``world_points``, less the marriages he holds in ``hand``, within 0
    and 120; the defenders' marriages are not counted)."""
    held = marriage_total(hand, rules)
    total = 0.0
    for w in range(n):
        total += DECK_POINTS - min(DECK_POINTS, max(0, world_points(values[w], margin) - held))
    return total / n


@jit_hot
def pimc_inf_contract(seat, hand, contract, cap, can_concede, gs, rules, prm, ibuf):
    """The pimc-inf declarer's final contract (>= the bid ``contract``, <= ``cap`` when raising) or
    -1 to concede. Under CONTRACT_WORLDS with his discard's world values in ``ibuf``
    (``IB_N_VALUES`` > 0): the contract on the rules' grid of best mean result over the worlds
    (``worlds_result``, each world's value less ``H_CONTRACT_MARGIN``; the lowest on ties); on the
    barrel the contract that takes him off when it is made in at least MADE_AT_LEAST of the worlds
    (whenever the cap allows under barrel_failed_contract = stays), as ``heuristic_contract``
    takes it; a concession when it costs less, counted as a duplicate match counts it: his
    result less ``H_OPPONENT_WEIGHT`` times the defenders' mean (a concession pays each
    ``concession_gain``; a played deal gives them their card points, ``worlds_defence``).
    Otherwise ``heuristic_contract``."""
    n = ibuf[IB_N_VALUES]
    if prm[seat, H_CONTRACT_RULE] != CONTRACT_WORLDS or n <= 0:
        return heuristic_contract(seat, hand, contract, cap, can_concede, gs, rules, prm)
    values = ibuf[IB_VALUES:IB_VALUES + n]
    margin = prm[seat, H_CONTRACT_MARGIN]
    step = rules[R.BID_STEP]
    top = max(contract, cap)
    best = contract
    best_value = worlds_result(contract, values, n, margin, rules)[0]
    c = next_raise(contract, step, rules)
    while c <= top:
        v = worlds_result(c, values, n, margin, rules)[0]
        if v > best_value:
            best, best_value = c, v
        c = next_raise(c, step, rules)
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = contract_at_least(barrel_need(gs[G_SCORE + seat], rules), rules)
        if best < need <= top:
            v, made = worlds_result(need, values, n, margin, rules)
            if rules[R.BARREL_FAILED_STAYS] or made >= MADE_AT_LEAST:
                best, best_value = need, v
    if can_concede:
        loss = concession_loss(contract, gs[G_CONCESSIONS + seat] + 1, rules)
        gain = concession_gain(contract, rules)
        weight = prm[seat, H_OPPONENT_WEIGHT]
        if -loss - weight * gain > best_value - weight * 0.5 * worlds_defence(hand, values, n, margin, rules):
            return -1
    return best

