"""Slow, plainly written twins for the inference of the hidden hands (``sim.inference``):

- ``old_learned_bid``: a frozen copy of the learned player's bid as it was before
  ``learned_bid_margin`` (0.13.0), from the compiled helpers it calls, so that the refactor is
  proven to leave every call as it was;
- ``exact_posterior``: every deal a seat's view allows, enumerated (the two other hands as dealt,
  each 7-card split of the cards the seat does not know, the talon known), each checked by
  replaying the whole record through the record walk with the rules' own functions (a deal that
  breaks any rule the record's moves imply is refused there), and weighted exactly by the other
  seats' calls under the same likelihood (``likelihood_nb.auction_loglik``). Where each hidden card
  lies now follows from the deal by the gifts, written here from the rules, not from ``view``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from sim.game import rules_layout as R
from sim.game.cards import FULL_DECK, mask_to_cards
from sim.game.play_nb import barrel_need
from sim.game.state_layout import G_ON_BARREL, G_SCORE
from sim.inference.model import auction_arrays, learned_model
from sim.players.heuristic_nb import barrel_raise, heuristic_bid
from sim.players.layout import H_BLOCK_MARGIN, H_NET
from sim.players.learned.bidding_nb import (
    MADE_AT_LEAST,
    contract_value,
    has_bidding_nets,
    ladder_forward,
    ladder_inputs,
    made_chance,
)
from sim.players.learned.cards_nb import L_DENSE, L_OUT
from sim.players.learned.layout import N_LADDER
from sim.players.learned.likelihood_nb import auction_loglik
from sim.records.record import Record
from sim.records.walk import RecordError, walk


def old_learned_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf):
    """``learned_bid``'s body at 0.13.0, line for line."""
    model = np.int64(prm[seat, H_NET])
    if not has_bidding_nets(net, model):
        return heuristic_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm)
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, 0, x)
    ladder_forward(net, model, 0, x, lbuf)
    ladder = lbuf[L_OUT]
    defence = ladder[N_LADDER]
    if rules[R.BARREL] > 0:
        if gs[G_ON_BARREL + seat]:
            want = barrel_raise(min_raise, barrel_need(gs[G_SCORE + seat], rules), rules)
            if want <= cap and (rules[R.BARREL_FAILED_STAYS] or made_chance(ladder, want) >= MADE_AT_LEAST):
                return want
            if rules[R.BARREL_FREEZE]:
                return 0
            return min_raise if contract_value(ladder, min_raise, rules) >= 0.0 else 0
        if high_seat >= 0 and high_seat != seat and gs[G_ON_BARREL + high_seat]:
            defence -= prm[seat, H_BLOCK_MARGIN]
    return min_raise if contract_value(ladder, min_raise, rules) >= defence else 0


def _bits(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def exact_posterior(rec: Record, seat: int, at: str, rules, temperature: float) -> tuple[dict[int, np.ndarray], int]:
    """({card: [P(left), P(right), P(talon)]} for every card ``seat`` neither holds nor has seen
    played at ``at``, the number of deals its view allows). The talon must be known to the seat
    (a talon it never saw is not enumerated here) and the gifts seen. ``temperature`` math.inf:
    every deal the walk allows weighs the same."""
    full = rec
    cut = full.cut(at, seat=seat, rules=rules)
    view = cut.seen_by(seat, rules=rules)
    assert view.talon is not None, "the exact twin needs the talon known to the seat"
    assert all(g.card >= 0 for g in view.gifts), "the exact twin needs the gifts seen"
    left, right = (seat + 1) % 3, (seat + 2) % 3
    mine = view.hands[seat]
    talon = view.talon
    unknown = sorted(mask_to_cards(FULL_DECK & ~mine & ~talon))
    played = {p.card for t in view.tricks for p in t}
    model = learned_model(full, rules)
    auction = auction_arrays(full.cut("auction"), rules)
    lbuf = model.scratch()
    totals: dict[int, np.ndarray] = {}
    weight_sum = 0.0
    n = 0
    stage_auction = at == "auction"
    for lcards in itertools.combinations(unknown, 7):
        lmask = _bits(lcards)
        rmask = _bits(c for c in unknown if c not in lcards)
        hands = [0, 0, 0]
        hands[seat], hands[left], hands[right] = mine, lmask, rmask
        deal = Record(**{**cut.__dict__, "hands": tuple(hands), "talon": talon, "view": None, "lines": {}})
        try:
            w = walk(deal, rules)
        except RecordError:
            continue
        n += 1
        if math.isinf(temperature):
            weight = 1.0
        else:
            logw = sum(auction_loglik(s, np.int64(hands[s]), auction.seat, auction.bid, auction.high,
                                      auction.high_seat, auction.dark, auction.free, model.gs, model.rules,
                                      model.prm, model.net, lbuf, 1.0 / temperature) for s in (left, right))
            weight = math.exp(logw)
        weight_sum += weight
        # where each card lies now: its hand as dealt, the talon with the declarer once taken, a
        # gift with its receiver
        now = {}
        for p in range(3):
            for c in mask_to_cards(hands[p]):
                now[c] = p
        for c in mask_to_cards(talon):
            now[c] = 3 if stage_auction else w.declarer
        for g in deal.gifts:
            now[g.card] = g.to
        for c in unknown:
            if c in played or now[c] == seat:
                continue
            place = {left: 0, right: 1, 3: 2}[now[c]]
            totals.setdefault(c, np.zeros(3))[place] += weight
    return {c: v / weight_sum for c, v in totals.items()}, n
