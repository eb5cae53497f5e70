"""The likelihood of a seat's observed cards under the learned player's card net, compiled: each
card a seat played with a choice made a probability by a softmax of the net's outputs over the
legal cards at a temperature T_card in points, P(card) = exp(s * Q(card) / T) / sum over the
legal cards (s = +1 for the declarer, who plays the highest output, -1 for a defender, who plays
the lowest; the outputs are in hundreds of points: ``cards_nb.best_legal``). docs/inference.md.

**The decisions** are rows of the learned player's stored position (``layout.P_*``, the row the
engine fills during play with ``cards_nb.record_position`` and training reads), one a card
played, in play order: the public state of the decision (``P_SEAT``, ``P_DECLARER``, the trick
so far, the trump and its owner, the tallies, the contract, the cards gone and each seat's,
the voids, the declarations, each seat's last bid, whether the lead may declare) and the card
played (``P_CHOSEN``). What a hypothesised world decides is left to the kernel, per world: the
seat's hand at the decision (``P_HAND``), its legal cards (``P_LEGAL``) and what it knew of the
others' hands (``P_KNOWN``: the talon shown, the gifts, the engine's ``play_nb.know_cards``).

A world gives each seat's hand now (``cur``) and the cards each seat has played so far
(``played_now``); the seat's hand at a decision is its hand now and every card it played from
that decision on. The gifts (``gifts[3]``: the card each defender received, a mask; 0 for the
declarer) are the world's: a gift face down that the viewer did not see differs from world to
world, and the declarer knew it.

**Which decisions count**: a card with a choice (more than one legal card in the world's hand),
played by a seat whose model has a net (``prm[seat, H_NET]`` >= 0) while it held more than
``prm[seat, H_SEARCH_CARDS]`` cards: there the learned player plays the net's card. With that
many cards or fewer it searches over sampled worlds (``seat_nb.choose_card``), a choice the net's
outputs do not give: those decisions add no term (docs/inference.md, "The cards"). A card the
world's hand could not have played legally makes the world impossible.

Everything is ``jit_hot``: the scratch (``lbuf``, ``lidx``: ``cards_nb.new_learned_buffers``;
``pos``: int64 of P_N) comes from the caller.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import lowest_index, popcount
from sim.game.play_nb import beats, know_cards, legal_follows, legal_leads
from sim.numba_config import jit_hot
from sim.players.layout import H_NET, H_SEARCH_CARDS
from sim.players.learned.cards_nb import L_DENSE, L_OUT, position_features, q_forward
from sim.players.learned.layout import (
    P_CHOSEN,
    P_DECLARER,
    P_HAND,
    P_KNOWN,
    P_LEGAL,
    P_N,
    P_N_IN_TRICK,
    P_OWNER,
    P_PLAYED_BY,
    P_SEAT,
    P_TRICK,
    P_TRUMP,
)
from sim.players.learned.likelihood_nb import IMPOSSIBLE

OUTPUT_POINTS = 100.0  # the card net's outputs are in hundreds of points


@jit_hot
def decision_legal(row, hand, rules):
    """The cards ``hand`` may play at the decision of position ``row`` (its trick so far, trump
    and leader), as the engine's ``tricks_nb.play_tricks`` allows them."""
    k = row[P_N_IN_TRICK]
    trump = row[P_TRUMP]
    if k == 0:
        if trump >= 0 and (rules[R.NO_LEAD_FOREIGN_TRUMP] or rules[R.MUST_LEAD_TRUMP]):
            return legal_leads(hand, trump, row[P_OWNER] == row[P_SEAT], rules[R.NO_LEAD_FOREIGN_TRUMP],
                               rules[R.MUST_LEAD_TRUMP])
        return hand
    win = row[P_TRICK]
    if k > 1 and beats(row[P_TRICK + 1], win, trump):
        win = row[P_TRICK + 1]
    return legal_follows(hand, row[P_TRICK] // 6, win, trump, rules[R.MUST_HEAD])


@jit_hot
def seat_known(pos, seat, declarer, shown, gifts, face_up, known):
    """``pos[P_KNOWN:P_KNOWN + 3]``: what ``seat`` knew of each seat's hand once the gifts were
    given, its row of the engine's ``play_nb.know_cards`` (computed into ``known``, int64 scratch
    of 9): ``shown`` the talon's cards the defenders saw (0: none), ``gifts`` the card each
    defender received (masks; 0 for the declarer), ``face_up`` 1 when the gifts lay face up."""
    know_cards(known, declarer, shown, lowest_index(gifts[(declarer + 1) % 3]),
               lowest_index(gifts[(declarer + 2) % 3]), face_up != 0)
    for q in range(3):
        pos[P_KNOWN + q] = known[3 * seat + q]


@jit_hot
def card_loglik(pos, rules, prm, net, lbuf, lidx, inv_temperature):
    """log P(the seat of position ``pos`` plays ``pos[P_CHOSEN]``) under the card net at
    1 / T = ``inv_temperature`` (points⁻¹): ``pos`` complete (its hand, legal cards and knowledge
    filled in). 0 for a card without a choice or a seat without a net."""
    legal = pos[P_LEGAL]
    seat = pos[P_SEAT]
    model = np.int64(prm[seat, H_NET])
    if popcount(legal) <= 1 or model < 0:
        return 0.0
    declarer = pos[P_DECLARER]
    n_idx = position_features(pos, rules, lidx, lbuf[L_DENSE])
    q_forward(net, model, lidx, n_idx, lbuf[L_DENSE], (seat - declarer) % 3, lbuf)
    out = lbuf[L_OUT]
    scale = OUTPUT_POINTS * inv_temperature * (1.0 if seat == declarer else -1.0)
    top = -np.inf
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        top = max(top, scale * np.float64(out[c]))
    total = 0.0
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        total += np.exp(scale * np.float64(out[c]) - top)
    return scale * np.float64(out[pos[P_CHOSEN]]) - top - np.log(total)


@jit_hot
def plays_loglik(rows, cur, played_now, gifts, shown, face_up, rules, prm, net, lbuf, lidx, pos, known,
                 inv_temperature):
    """The sum of ``card_loglik`` over the decisions ``rows`` (P_* rows, the module's docstring),
    in a world where seat s holds ``cur[s]`` now, has played ``played_now[s]`` and defender s
    received the gift ``gifts[s]`` (a mask); ``shown`` the talon's cards the defenders saw (0:
    none), ``face_up`` 1 when the gifts lay face up; ``known`` int64 scratch of 9. IMPOSSIBLE when
    a card played was not legal in the world's hand."""
    total = 0.0
    for r in range(rows.shape[0]):
        row = rows[r]
        seat = row[P_SEAT]
        hand = cur[seat] | (played_now[seat] & ~row[P_PLAYED_BY + seat])
        legal = decision_legal(row, hand, rules)
        if not (legal >> row[P_CHOSEN]) & 1:
            return IMPOSSIBLE
        if popcount(legal) <= 1 or popcount(hand) <= prm[seat, H_SEARCH_CARDS]:
            continue
        for i in range(P_N):
            pos[i] = row[i]
        pos[P_HAND + seat] = hand
        pos[P_LEGAL] = legal
        seat_known(pos, seat, row[P_DECLARER], shown, gifts, face_up, known)
        total += card_loglik(pos, rules, prm, net, lbuf, lidx, inv_temperature)
    return total


@jit_hot
def world_hands(declarer, loc_seat, where, pool, deal, played_now, cur, gifts):
    """From a drawn world after the talon (``worlds_nb``: ``where`` the hidden cards of each
    location, ``pool`` each seat's certain cards since the talon, ``deal`` its hands as dealt),
    each seat's hand now into ``cur`` (the viewer's: ``pool`` less his cards played) and each
    defender's gift into ``gifts`` (a mask: his 8 cards after the gifts less his 7 as dealt; 0 for
    the declarer)."""
    for s in range(3):
        cur[s] = pool[s] & ~played_now[s]
    for loc in range(2):
        cur[loc_seat[loc]] |= where[loc]
    for s in range(3):
        gifts[s] = 0 if s == declarer else (cur[s] | played_now[s]) & ~deal[s]
