"""The learned player's card play, compiled: what a seat sees as the inputs of a small net
(``card_features``), the net's forward pass (``q_forward``), and the card it plays
(``learned_card``). The net Q maps a seat's information state to 24 values, one per card: the
declarer's points still to come after that card is played (in hundreds), as the exact solver
values them (``labels_nb``). The declarer plays the legal card of highest value, a defender the
lowest; ties go to the lowest card index. The gifts are chosen with the same net
(``learned_discard``); the bids, contract and dark game are ``bidding_nb``'s. Layouts are in
``layout``.

The learned seat's buffers ride in the seat's solver tuple (``sim.players.seat_nb.seat_tuple``):
``net`` float32 (models, size) packed weights, ``lbuf`` float32 scratch, ``lidx`` int64
scratch (MAX_ACTIVE feature indices, then GIFT_SCRATCH for the gifts), and ``rec`` int64
(rows, P_N) positions recorded for training, its cursor in ``rec[0, 0]`` (a one-row ``rec``
records nothing). Everything is ``jit_hot``: no allocation.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import lowest_index, popcount
from sim.game.cards import ACES_MASK, CARD_POINTS, FULL_DECK, JACK, KING, QUEEN, SUIT_MASK
from sim.game.play_nb import LEAD_WITHOUT_DECLARING, beats, nth_card, points_to_make
from sim.game.rng_nb import below, uniform
from sim.numba_config import jit_hot, jit_inline
from sim.players.heuristic_nb import heuristic_card, heuristic_discard
from sim.players.layout import H_EPSILON, H_GIFT_CANDIDATES, H_NET
from sim.players.learned.layout import (
    D_ACE_MARRIAGE,
    D_BANKED,
    D_CONTRACT,
    D_DEFENDER1,
    D_DEFENDER2,
    D_LAST_BID,
    D_MARRIAGE_VALUE,
    D_NEED,
    D_SUIT_OUT,
    D_TABLE,
    D_UNSECURED,
    F_CAN_DECLARE,
    F_DECLARED,
    F_DENSE,
    F_FLAGS,
    F_HAND,
    F_KNOWN,
    F_LEADER,
    F_LEGAL,
    F_MASTER,
    F_ME,
    F_OWNER,
    F_PLAYED,
    F_RULES,
    F_TRICK,
    F_TRICK_NO,
    F_TRUMP,
    F_UNSEEN,
    F_VOID,
    F_WINS,
    F_WON,
    MAX_ACTIVE,
    N_DENSE,
    N_IN,
    NET_H1,
    NET_H2,
    NET_HEADER,
    P_CAN_DECLARE,
    P_CARD_POINTS,
    P_CHOSEN,
    P_CONTRACT,
    P_DECLARER,
    P_HAND,
    P_KNOWN,
    P_LAST_BID,
    P_LEADER,
    P_LEGAL,
    P_MARRIAGE_POINTS,
    P_MARRIAGES,
    P_N,
    P_N_IN_TRICK,
    P_OWNER,
    P_PLAYED,
    P_PLAYED_BY,
    P_SEAT,
    P_TRICK,
    P_TRICKS,
    P_TRUMP,
    P_VOIDS,
    RULE_FLAGS,
)
from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES
from sim.solver.discard_nb import cheapest_discards

RULE_OFFSETS = np.array([getattr(R, name) for name in RULE_FLAGS], dtype=np.int64)
LBUF_WIDTH = 512  # scratch row width: the widest hidden layer a net may have
L_DENSE, L_H1, L_H2, L_OUT = 0, 1, 2, 3  # rows of lbuf
LBUF_ROWS = 4
GIFT_SCRATCH = 26  # int64 after lidx's MAX_ACTIVE feature indices: the first lead's position of a gift
VALUE_POINTS = 100.0  # the card net's values are in hundreds of points


def new_learned_buffers(net: np.ndarray | None = None, rec_rows: int = 1):
    """(net, lbuf, lidx, rec) for a seat tuple: ``net`` the packed weights (a 1-row token when no
    seat is learned), scratch, and a position record of ``rec_rows`` rows (1: none recorded)."""
    if net is None:
        net = np.zeros((1, NET_HEADER), dtype=np.float32)
    return (np.ascontiguousarray(net, dtype=np.float32), np.zeros((LBUF_ROWS, LBUF_WIDTH), dtype=np.float32),
            np.zeros(MAX_ACTIVE + GIFT_SCRATCH, dtype=np.int64), np.zeros((max(1, rec_rows), P_N), dtype=np.int64))


@jit_hot
def _could_declare(cards, hand, played, me):
    """Whether the declarer may still hold and declare the combination ``cards``, as the seat of
    role ``me`` holding ``hand`` can tell."""
    if played & cards:
        return False
    return (hand & cards) == cards if me == 0 else (hand & cards) == 0


@jit_hot
def card_features(seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks, card_points,
                  marriage_points, marriages, contract, played, played_by, voids, known, last_bid, can_declare, rules,
                  idx, val):
    """The card net's inputs for ``seat``: the indices of its set bits into ``idx`` (their count is
    returned) and the N_DENSE dense values into ``val``. Arguments as ``seat_nb.choose_card``
    gives them (engine seats), plus ``marriages`` (each seat's declaration bits), ``played_by``
    (the cards each seat has played, this trick's included), ``known`` the seat's row of
    ``know_cards`` (what it knows each seat holds) and ``last_bid`` (each seat's last bid). Only
    what the seat may see is read: ``hands[seat]``, never another hand."""
    n = 0
    hand = hands[seat]
    on_table = np.int64(0)
    table_points = 0
    for i in range(n_in_trick):
        on_table |= np.int64(1) << trick[i]
        table_points += CARD_POINTS[trick[i]]
    me = (seat - declarer) % 3
    m = hand
    while m:
        idx[n] = F_HAND + lowest_index(m)
        n += 1
        m &= m - 1
    known_any = np.int64(0)
    for q in range(3):
        role = (q - declarer) % 3
        m = played_by[q] & ~on_table
        while m:
            idx[n] = F_PLAYED + 24 * role + lowest_index(m)
            n += 1
            m &= m - 1
        if q != seat:
            m = known[q] & ~played & ~hand
            known_any |= m
            while m:
                idx[n] = F_KNOWN + 24 * role + lowest_index(m)
                n += 1
                m &= m - 1
        if tricks[q] > 0:
            idx[n] = F_WON + role
            n += 1
        for s in range(4):
            if (voids[q] >> s) & 1:
                idx[n] = F_VOID + 4 * role + s
                n += 1
        for b in range(9):
            if (marriages[q] >> b) & 1:
                idx[n] = F_DECLARED + 9 * role + b
                n += 1
    for i in range(n_in_trick):
        idx[n] = F_TRICK + 24 * ((leader + i - declarer) % 3) + trick[i]
        n += 1
    m = FULL_DECK & ~played & ~hand & ~known_any
    while m:
        idx[n] = F_UNSEEN + lowest_index(m)
        n += 1
        m &= m - 1
    m = legal
    while m:
        idx[n] = F_LEGAL + lowest_index(m)
        n += 1
        m &= m - 1
    live_out = FULL_DECK & ~played & ~hand  # cards that may still beat one of the seat's
    m = hand
    while m:
        c = lowest_index(m)
        m &= m - 1
        above = SUIT_MASK[c // 6] & ~((np.int64(1) << (c + 1)) - 1)
        if (above & live_out) == 0:
            idx[n] = F_MASTER + c
            n += 1
    if n_in_trick > 0:
        win = trick[0]
        for i in range(1, n_in_trick):
            if beats(trick[i], win, trump):
                win = trick[i]
        m = legal
        while m:
            c = lowest_index(m)
            m &= m - 1
            if beats(c, win, trump):
                idx[n] = F_WINS + c
                n += 1
    idx[n] = F_ME + me
    idx[n + 1] = F_LEADER + (leader - declarer) % 3
    idx[n + 2] = F_TRUMP + (trump if trump >= 0 else 4)
    idx[n + 3] = F_OWNER + ((trump_owner - declarer) % 3 if trump_owner >= 0 else 3)
    idx[n + 4] = F_TRICK_NO + min(7, popcount(played & ~on_table) // 3)
    n += 5
    if can_declare:
        idx[n] = F_CAN_DECLARE
        n += 1
    for i in range(RULE_OFFSETS.shape[0]):
        if rules[RULE_OFFSETS[i]] != 0:
            idx[n] = F_RULES + i
            n += 1
    burning = rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and tricks[declarer] == 0
    unsecured = marriage_points[declarer] if burning else 0
    banked = card_points[declarer] + marriage_points[declarer] - unsecured
    need = 0
    if contract >= 0:
        idx[n] = F_RULES + RULE_OFFSETS.shape[0]
        n += 1
        need = points_to_make(contract, banked, rules)
        # What could still come: the points not yet won, and every combination (marriage, half
        # marriage, the four aces) whose cards are unplayed and could be the declarer's: in this
        # seat's hand when it is the declarer, none of them in its hand otherwise.
        rest = 120 - card_points[0] - card_points[1] - card_points[2]
        for s in range(4):
            pair = (np.int64(1) << (6 * s + KING)) | (np.int64(1) << (6 * s + QUEEN))
            if _could_declare(pair, hand, played, me):
                rest += rules[R.MARRIAGE_VALUE + s]
            half = (np.int64(1) << (6 * s + QUEEN)) | (np.int64(1) << (6 * s + JACK))
            if rules[R.HALF_MARRIAGE] and _could_declare(half, hand, played, me):
                rest += rules[R.MARRIAGE_VALUE + s] // 2
        if rules[R.ACE_MARRIAGE] and _could_declare(ACES_MASK, hand, played, me):
            rest += rules[R.ACE_MARRIAGE]
        if need == 0:
            idx[n] = F_FLAGS
            n += 1
        elif need > rest + unsecured:
            idx[n] = F_FLAGS + 1
            n += 1
    if unsecured > 0:
        idx[n] = F_FLAGS + 2
        n += 1
    d1 = (declarer + 1) % 3
    d2 = (declarer + 2) % 3
    val[D_BANKED] = banked / 100.0
    val[D_NEED] = need / 100.0
    val[D_CONTRACT] = max(0, contract) / 100.0
    val[D_DEFENDER1] = (card_points[d1] + marriage_points[d1]) / 100.0
    val[D_DEFENDER2] = (card_points[d2] + marriage_points[d2]) / 100.0
    val[D_TABLE] = table_points / 30.0
    for q in range(3):
        val[D_LAST_BID + (q - declarer) % 3] = last_bid[q] / 100.0
    for s in range(4):
        val[D_MARRIAGE_VALUE + s] = rules[R.MARRIAGE_VALUE + s] / 100.0
    val[D_ACE_MARRIAGE] = rules[R.ACE_MARRIAGE] / 100.0
    val[D_UNSECURED] = unsecured / 100.0
    for s in range(4):
        val[D_SUIT_OUT + s] = popcount(live_out & SUIT_MASK[s]) / 6.0
    return n


@jit_hot
def q_forward(net, model, idx, n_idx, val, role, lbuf):
    """The card net's 24 outputs for ``role`` into ``lbuf[L_OUT, :24]``: the net is row ``model``
    of the packed weights ``net``, its inputs the ``n_idx`` set bits ``idx`` and the dense
    ``val``. Every sum runs in one fixed order (float32, no reassociation), so the same inputs
    give the same bits on any thread count."""
    w = net[model]
    h1n = np.int64(w[NET_H1])
    h2n = np.int64(w[NET_H2])
    o_w1 = NET_HEADER
    o_b1 = o_w1 + N_IN * h1n
    o_w2 = o_b1 + h1n
    o_b2 = o_w2 + h1n * h2n
    o_w3 = o_b2 + h2n
    o_b3 = o_w3 + 3 * h2n * 24
    h1 = lbuf[L_H1]
    h2 = lbuf[L_H2]
    out = lbuf[L_OUT]
    # Each weight row is taken as a slice and indexed by the loop counter alone: an index such as
    # base + j could be negative as far as Numba knows, and its wraparound check stops LLVM from
    # vectorising the loop (4x slower).
    b1 = w[o_b1:o_b1 + h1n]
    for j in range(h1n):
        h1[j] = b1[j]
    for a in range(n_idx):
        row = w[o_w1 + idx[a] * h1n:o_w1 + (idx[a] + 1) * h1n]
        for j in range(h1n):
            h1[j] += row[j]
    for d in range(N_DENSE):
        v = val[d]
        if v != 0:
            row = w[o_w1 + (F_DENSE + d) * h1n:o_w1 + (F_DENSE + d + 1) * h1n]
            for j in range(h1n):
                h1[j] += v * row[j]
    b2 = w[o_b2:o_b2 + h2n]
    for k in range(h2n):
        h2[k] = b2[k]
    for j in range(h1n):
        x = h1[j]
        if x > 0:
            row = w[o_w2 + j * h2n:o_w2 + (j + 1) * h2n]
            for k in range(h2n):
                h2[k] += x * row[k]
    b3 = w[o_b3 + 24 * role:o_b3 + 24 * role + 24]
    for c in range(24):
        out[c] = b3[c]
    for k in range(h2n):
        x = h2[k]
        if x > 0:
            row = w[o_w3 + (role * h2n + k) * 24:o_w3 + (role * h2n + k + 1) * 24]
            for c in range(24):
                out[c] += x * row[c]


@jit_hot
def best_legal(out, legal, maximise):
    """The legal card of highest ``out`` (``maximise``) or lowest; the lowest index on ties."""
    best = -1
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        if best < 0 or (out[c] > out[best] if maximise else out[c] < out[best]):
            best = c
    return best


@jit_hot
def net_margin(out, legal, maximise):
    """How far the best legal card's output is ahead of the second best's (0 with one legal card:
    nothing to choose)."""
    best = best_legal(out, legal, maximise)
    rest = legal & ~(np.int64(1) << best)
    if rest == 0:
        return 0.0
    second = best_legal(out, rest, maximise)
    return out[best] - out[second] if maximise else out[second] - out[best]


@jit_hot
def record_position(rec, seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks,
                    card_points, marriage_points, marriages, contract, played, played_by, voids, known, last_bid,
                    can_declare):
    """Append the decision to ``rec`` (a ``P_*`` row); its row number, or -1 when ``rec`` is full."""
    r = rec[0, 0] + 1
    if r >= rec.shape[0]:
        return -1
    rec[0, 0] = r
    row = rec[r]
    for q in range(3):
        row[P_HAND + q] = hands[q]
        row[P_TRICKS + q] = tricks[q]
        row[P_CARD_POINTS + q] = card_points[q]
        row[P_MARRIAGE_POINTS + q] = marriage_points[q]
        row[P_MARRIAGES + q] = marriages[q]
        row[P_PLAYED_BY + q] = played_by[q]
        row[P_VOIDS + q] = voids[q]
        row[P_KNOWN + q] = known[q]
        row[P_LAST_BID + q] = last_bid[q]
    row[P_SEAT] = seat
    row[P_DECLARER] = declarer
    row[P_LEADER] = leader
    row[P_N_IN_TRICK] = n_in_trick
    row[P_TRICK] = trick[0] if n_in_trick > 0 else -1
    row[P_TRICK + 1] = trick[1] if n_in_trick > 1 else -1
    row[P_TRUMP] = trump
    row[P_OWNER] = trump_owner
    row[P_CONTRACT] = contract
    row[P_PLAYED] = played
    row[P_LEGAL] = legal
    row[P_CAN_DECLARE] = 1 if can_declare else 0
    row[P_CHOSEN] = -1
    return r


@jit_hot
def position_features(row, rules, idx, val):
    """``card_features`` of a stored position row (training computes its inputs with this, so the
    features of training and of play are one code)."""
    return card_features(row[P_SEAT], row[P_HAND:P_HAND + 3], row[P_LEGAL], row[P_TRICK:P_TRICK + 2],
                         row[P_N_IN_TRICK], row[P_LEADER], row[P_TRUMP], row[P_OWNER], row[P_DECLARER],
                         row[P_TRICKS:P_TRICKS + 3], row[P_CARD_POINTS:P_CARD_POINTS + 3],
                         row[P_MARRIAGE_POINTS:P_MARRIAGE_POINTS + 3], row[P_MARRIAGES:P_MARRIAGES + 3],
                         row[P_CONTRACT], row[P_PLAYED], row[P_PLAYED_BY:P_PLAYED_BY + 3], row[P_VOIDS:P_VOIDS + 3],
                         row[P_KNOWN:P_KNOWN + 3], row[P_LAST_BID:P_LAST_BID + 3], row[P_CAN_DECLARE] != 0, rules,
                         idx, val)


@jit_hot
def learned_card(seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks, card_points,
                 marriage_points, marriages, contract, played, played_by, voids, known, last_bid, can_declare, rules,
                 prm, rng, net, lbuf, lidx, rec):
    """The learned seat's card. Its model is ``prm[seat, H_NET]`` (-1: the heuristic player's card,
    which the first round of training records); with probability ``prm[seat, H_EPSILON]`` it
    plays a uniformly drawn legal card instead (training explores). It always declares what its
    lead can declare. With a recording ``rec`` every decision with a choice is appended."""
    choices = popcount(legal)
    r = -1
    if rec.shape[0] > 1 and choices > 1:
        r = record_position(rec, seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks,
                            card_points, marriage_points, marriages, contract, played, played_by, voids, known,
                            last_bid, can_declare)
    model = np.int64(prm[seat, H_NET])
    if choices == 1:
        card = lowest_index(legal)
    elif model < 0:
        card = heuristic_card(seat, hands, legal, trick, n_in_trick, leader, trump, declarer, played, voids,
                              can_declare, rules) & ~LEAD_WITHOUT_DECLARING
    else:
        n_idx = card_features(seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks,
                              card_points, marriage_points, marriages, contract, played, played_by, voids, known,
                              last_bid, can_declare, rules, lidx, lbuf[L_DENSE])
        q_forward(net, model, lidx, n_idx, lbuf[L_DENSE], (seat - declarer) % 3, lbuf)
        card = best_legal(lbuf[L_OUT], legal, seat == declarer)
    epsilon = prm[seat, H_EPSILON]
    if epsilon > 0 and choices > 1 and uniform(rng) < epsilon:
        card = nth_card(legal, below(rng, choices))
    if r > 0:
        rec[r, P_CHOSEN] = card
    return card


@jit_hot
def features_rows(pos, rules_table, rules_of, sparse, dense, lidx, lval):
    """The card net's inputs of stored positions as dense rows, training's input: ``sparse[i, f]``
    = 1 for each set bit (uint8, N_SPARSE wide, zeroed by the caller), ``dense[i]`` the N_DENSE
    values (float32); row i's rules are ``rules_table[rules_of[i]]``."""
    for i in range(pos.shape[0]):
        n = position_features(pos[i], rules_table[rules_of[i]], lidx, lval)
        for a in range(n):
            sparse[i, lidx[a]] = 1
        for d in range(N_DENSE):
            dense[i, d] = lval[d]


@jit_inline
def value_points(value):
    """A card net's value (hundreds of points) in whole points, as the gifts' value of a deal is
    passed on to net C and to the inference."""
    return np.int64(np.round(VALUE_POINTS * value))


@jit_hot
def gift_value(declarer, hand10, a, b, contract, last_bid, rules, model, net, lbuf, lidx):
    """The net's value of the declarer's first lead after he gives ``a`` to the seat after him and
    ``b`` to the seat after that from his 10 cards ``hand10``: the best legal lead's output (his
    points to come, in hundreds), knowing where his two gifts went. ``contract`` the bid (-1 where
    none is set), ``last_bid`` each seat's last bid, ``model`` the net's row; ``lidx`` the card
    net's scratch (its GIFT_SCRATCH tail holds the first lead's position)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    # The first lead's position: nothing played, won or declared yet, no trump.
    s = lidx[MAX_ACTIVE:MAX_ACTIVE + GIFT_SCRATCH]
    idx = lidx[:MAX_ACTIVE]
    for j in range(GIFT_SCRATCH):
        s[j] = 0
    seat_hands, tricks, card_points, marriage_points = s[0:3], s[3:6], s[6:9], s[9:12]
    marriages, played_by, voids, known, trick = s[12:15], s[15:18], s[18:21], s[21:24], s[24:26]
    no_card = np.int64(-1)
    nothing = np.int64(0)
    can_declare = rules[R.MARRIAGE_FIRST_LEAD] != 0
    hand8 = hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b)
    seat_hands[declarer] = hand8
    known[left] = np.int64(1) << a
    known[right] = np.int64(1) << b
    n_idx = card_features(declarer, seat_hands, hand8, trick, nothing, declarer, no_card, no_card, declarer,
                          tricks, card_points, marriage_points, marriages, contract, nothing, played_by, voids,
                          known, last_bid, can_declare, rules, idx, lbuf[L_DENSE])
    q_forward(net, model, idx, n_idx, lbuf[L_DENSE], 0, lbuf)
    return lbuf[L_OUT, best_legal(lbuf[L_OUT], hand8, True)]


@jit_hot
def learned_discard(declarer, hands, givable, contract, last_bid, rules, prm, work, net, lbuf, lidx):
    """The learned declarer's gifts: (card to the seat after him, card to the seat after that, the
    net's value of the deal after them, in points). The candidates are the first
    ``prm[declarer, H_GIFT_CANDIDATES]`` ordered pairs of the solver's cheapest-first order
    (``discard_nb.cheapest_discards``: what the cards are worth keeping, voids made, masters kept). Each
    is valued as the net values the declarer's first lead after it (``gift_value``): the best
    legal lead's output, his points to come, knowing where his two gifts went. The best value
    wins, the first listed on ties. ``contract`` is the bid (-1 where none is set), ``last_bid``
    each seat's last bid. Without a model (training's round 0) the heuristic player's gifts,
    valued 0."""
    model = np.int64(prm[declarer, H_NET])
    if model < 0:
        g1, g2 = heuristic_discard(hands[declarer], givable)
        return g1, g2, np.int64(0)
    hand10 = hands[declarer]
    k = cheapest_discards(hand10, rules, work, max(1, np.int64(prm[declarer, H_GIFT_CANDIDATES])))
    best_value = np.float32(0.0)
    best_code = np.int64(-1)
    for i in range(k):
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        value = gift_value(declarer, hand10, code // 24, code % 24, contract, last_bid, rules, model, net, lbuf, lidx)
        if best_code < 0 or value > best_value:
            best_value = value
            best_code = code
    return best_code // 24, best_code % 24, value_points(best_value)
