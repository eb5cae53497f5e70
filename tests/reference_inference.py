"""Slow, plainly written twins for the inference of the hidden hands (``sim.inference``):

- ``old_learned_bid``: a frozen copy of the learned player's bid as it was before
  ``learned_bid_margin`` (0.13.0), from the compiled helpers it calls, so that the refactor is
  proven to leave every call as it was;
- ``old_learned_contract``: the learned player's final contract as it was before
  ``learned_contract_margin`` (0.15.0), line for line, so that the split is proven to leave every
  contract and concession as it was;
- ``exact_posterior``: every deal a seat's view allows, enumerated (the two other hands as dealt,
  each 7-card split of the cards the seat does not know, the talon known), each checked by
  replaying the whole record through the record walk with the rules' own functions (a deal that
  breaks any rule the record's moves imply is refused there), and weighted exactly by the other
  seats' calls under the same likelihood (``likelihood_nb.auction_loglik``) and, with a card
  temperature, by the cards they played (``naive_cards_loglik``). Where each hidden card lies now
  follows from the deal by the gifts, written here from the rules, not from ``view``;
- ``naive_deal_loglik``: the log-likelihood of the declarer's gifts and of his final contract or
  concession, written here from the learned player's rule (the first gift candidates of the
  solver's full cheapest-first list ``list_discards``, each valued by the card net's best first
  lead after it with its features built here; the softmax and the uniform share in float64; the
  contracts' values, the concession's worth and the two logistics in plain Python), not from
  ``deal_likelihood_nb`` or ``learned_contract_margin``;
- ``naive_cards_loglik``: the log-likelihood of the cards the other seats played with a choice,
  the deal replayed trick by trick in plain Python from the hands as dealt (the gifts given, the
  tallies, voids, declarations and knowledge kept here as the engine keeps them, not read from
  ``model.play_rows``), the card net's features and forward pass called at each decision and the
  softmax over the legal cards taken here, in float64.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from sim.engine.schema import BID_DARK, BID_GOLDEN
from sim.game import rules_layout as R
from sim.game.amounts import DARK_CONTRACT
from sim.game.bids_nb import contract_at_least, contract_cap, next_raise
from sim.game.cards import ACE, CARD_POINTS, FULL_DECK, JACK, KING, QUEEN, RANK_MASK, mask_to_cards
from sim.game.play_nb import (
    barrel_need,
    beats,
    concession_gain,
    concession_loss,
    declaration,
    givable_cards,
    legal_follows,
    legal_leads,
)
from sim.game.state_layout import G_CONCESSIONS, G_ON_BARREL, G_SCORE
from sim.inference.model import auction_arrays, learned_model
from sim.players.heuristic_nb import barrel_raise, heuristic_bid, heuristic_contract
from sim.players.layout import H_BLOCK_MARGIN, H_GIFT_CANDIDATES, H_NET, H_OPPONENT_WEIGHT, H_SEARCH_CARDS
from sim.players.learned.bidding_nb import (
    MADE_AT_LEAST,
    contract_value,
    has_bidding_nets,
    ladder_forward,
    ladder_inputs,
    made_chance,
)
from sim.players.learned.cards_nb import L_DENSE, L_OUT, card_features, q_forward
from sim.players.learned.layout import MAX_ACTIVE, N_LADDER
from sim.players.learned.likelihood_nb import auction_loglik
from sim.records.parts import DARK
from sim.records.record import Record
from sim.records.walk import RecordError, talon_seen, walk
from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES, new_work
from sim.solver.discard_nb import list_discards


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


def old_learned_contract(seat, hand, contract, cap, can_concede, deal_value, gs, rules, prm, net, lbuf):
    """``learned_contract``'s body at 0.15.0, line for line."""
    model = np.int64(prm[seat, H_NET])
    if not has_bidding_nets(net, model):
        return heuristic_contract(seat, hand, contract, cap, can_concede, gs, rules, prm)
    x = lbuf[L_DENSE]
    ladder_inputs(hand, rules, deal_value, x)
    ladder_forward(net, model, 1, x, lbuf)
    ladder = lbuf[L_OUT]
    step = rules[R.BID_STEP]
    top = max(contract, cap)
    best = contract
    best_value = contract_value(ladder, contract, rules)
    c = next_raise(contract, step, rules)
    while c <= top:
        v = contract_value(ladder, c, rules)
        if v > best_value:
            best, best_value = c, v
        c = next_raise(c, step, rules)
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = contract_at_least(barrel_need(gs[G_SCORE + seat], rules), rules)
        if best < need <= top and (rules[R.BARREL_FAILED_STAYS] or made_chance(ladder, need) >= MADE_AT_LEAST):
            best = need
            best_value = contract_value(ladder, best, rules)
    if can_concede:
        loss = concession_loss(contract, gs[G_CONCESSIONS + seat] + 1, rules)
        gain = concession_gain(contract, rules)
        weight = prm[seat, H_OPPONENT_WEIGHT]
        if -loss - weight * gain > best_value - weight * 0.5 * ladder[N_LADDER]:
            return -1
    return best


def _bits(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def naive_deal_loglik(deal: Record, w, rules, model, gift_temperature: float, contract_temperature: float,
                      floor: float) -> float:
    """log P(the declarer's gifts and final contract or concession in ``deal`` (a full deal cut at
    a point after the gifts, walked: ``w``)) under the learned declarer at the two temperatures
    (math.inf: that term left out) and the gifts' uniform share ``floor``. Not on the barrel, not
    under barrel_accumulate (the records of the tests are neither)."""
    r = model.rules
    d = w.declarer
    left, right = (d + 1) % 3, (d + 2) % 3
    assert not any(model.gs[G_ON_BARREL + q] for q in range(4)), "the naive twin knows no barrel"
    ten = int(deal.hands[d]) | int(deal.talon)
    gift = {g.to: g.card for g in deal.gifts}
    a, b = gift[left], gift[right]
    net_row = np.int64(model.prm[d, H_NET])
    lbuf, lidx, _ = model.card_scratch()
    last_bid = [0, 0, 0]
    for call in deal.auction:
        if call.bid == DARK:
            last_bid[call.seat] = DARK_CONTRACT
        elif call.bid > 0:
            last_bid[call.seat] = call.bid

    def value(ga: int, gb: int) -> float:
        """The net's best first lead's output after giving ``ga`` left and ``gb`` right (hundreds)."""
        hand8 = ten & ~(1 << ga) & ~(1 << gb)
        hands = np.zeros(3, dtype=np.int64)
        hands[d] = hand8
        known = np.zeros(3, dtype=np.int64)
        known[left], known[right] = 1 << ga, 1 << gb
        z = np.zeros(3, dtype=np.int64)
        n_idx = card_features(d, hands, np.int64(hand8), np.full(2, -1, dtype=np.int64), 0, d, -1, -1, d, z, z, z, z,
                              np.int64(w.high), np.int64(0), z, z, known, np.array(last_bid, dtype=np.int64),
                              bool(r[R.MARRIAGE_FIRST_LEAD]), r, lidx[:MAX_ACTIVE], lbuf[L_DENSE])
        q_forward(model.net, net_row, lidx[:MAX_ACTIVE], n_idx, lbuf[L_DENSE], 0, lbuf)
        return max(float(lbuf[L_OUT, c]) for c in mask_to_cards(hand8))

    total = 0.0
    givable = int(givable_cards(np.int64(ten), r))
    assert (givable >> a) & 1 and (givable >> b) & 1
    work = new_work()[1]
    n = list_discards(np.int64(ten), r, work)
    codes = [int(work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]) for i in range(n)]
    candidates = codes[:max(1, int(model.prm[d, H_GIFT_CANDIDATES]))]
    mine = value(a, b)
    if not math.isinf(gift_temperature):
        x = {code: 100.0 * value(code // 24, code % 24) / gift_temperature for code in candidates}
        top = max(x.values())
        g = bin(givable).count("1")
        p = floor / (g * (g - 1))
        if a * 24 + b in x:
            p += (1 - floor) * math.exp(x[a * 24 + b] - top) / sum(math.exp(v - top) for v in x.values())
        total += math.log(p) if p > 0 else -math.inf
    if math.isinf(contract_temperature) or w.mode in (BID_DARK, BID_GOLDEN):
        return total
    # the final contract: net C on the 8 cards kept and the deal's value after the gifts given
    hand8 = ten & ~(1 << a) & ~(1 << b)
    x = np.zeros(64, dtype=np.float32)
    ladder_inputs(np.int64(hand8), r, np.int64(round(100.0 * mine)), x)
    ladder_forward(model.net, net_row, 1, x, lbuf)
    ladder = lbuf[L_OUT]
    high = int(w.high)
    top = max(high, int(contract_cap(np.int64(hand8), high, r)))
    contracts = [high]
    while next_raise(contracts[-1], r[R.BID_STEP], r) <= top:
        contracts.append(int(next_raise(contracts[-1], r[R.BID_STEP], r)))
    worth = {c: float(contract_value(ladder, c, r)) for c in contracts}
    best = max(contracts, key=lambda c: (worth[c], -c))  # the first of the best (the lowest contract)
    observed = -1 if deal.conceded else int(w.contract)
    can_concede = bool(r[R.CONCEDE]) and (r[R.CONCEDE_LIMIT] == 0 or model.gs[G_CONCESSIONS + d] < r[R.CONCEDE_LIMIT])
    if can_concede:
        weight = float(model.prm[d, H_OPPONENT_WEIGHT])
        conceding = -float(concession_loss(high, model.gs[G_CONCESSIONS + d] + 1, r)) - weight * float(
            concession_gain(high, r))
        playing = worth[best] - weight * 0.5 * float(ladder[N_LADDER])
        margin = abs(conceding - playing) / contract_temperature
        total += _log_sigmoid(margin if (conceding > playing) == (observed < 0) else -margin)
    if observed >= 0:
        if observed == best:
            others = [worth[c] for c in contracts if c != best]
            margin = min(worth[best] - max(others), 10000.0) if others else 10000.0
        else:
            margin = abs(worth[best] - float(contract_value(ladder, observed, r)))
        margin /= contract_temperature
        total += _log_sigmoid(margin if observed == best else -margin)
    return total


def naive_cards_loglik(deal: Record, w, seat: int, rules, model, card_temperature: float) -> float:
    """log P(the cards the seats other than ``seat`` played in ``deal``'s tricks (a full deal cut at
    the view's point, walked: ``w``)) under the card net at ``card_temperature`` points: at each
    of their decisions with more than one legal card and more cards in hand than the seat's
    ``search_cards`` (below, the learned player searches), the softmax of the net's outputs (in
    hundreds of points; the declarer's highest, a defender's lowest) over the legal cards."""
    if not deal.tricks:
        return 0.0
    r = model.rules
    d = w.declarer
    left, right = (d + 1) % 3, (d + 2) % 3
    hands = [int(h) for h in deal.hands]
    hands[d] |= int(deal.talon)
    gift = {g.to: g.card for g in deal.gifts}
    for q in (left, right):
        hands[d] &= ~(1 << gift[q])
        hands[q] |= 1 << gift[q]
    shown = int(deal.talon) if talon_seen(deal, left, rules) else 0
    up = not rules.discard_face_down
    known = [[0, 0, 0] for _ in range(3)]  # known[viewer][holder], as the engine's know_cards
    known[d][left], known[d][right] = 1 << gift[left], 1 << gift[right]
    for q in (left, right):
        known[q][d] = shown & ~((1 << gift[left]) | (1 << gift[right]) if up else 1 << gift[q])
        if up:
            known[q][left] |= 1 << gift[left]
            known[q][right] |= 1 << gift[right]
    last_bid = [0, 0, 0]
    for call in deal.auction:
        if call.bid == DARK:
            last_bid[call.seat] = DARK_CONTRACT
        elif call.bid > 0:
            last_bid[call.seat] = call.bid
    contract = w.contract
    tricks, card_points, marriage_points, marriages, voids, played_by = ([0, 0, 0] for _ in range(6))
    played, leader, trump, owner = 0, d, -1, -1
    lbuf, lidx, _ = model.card_scratch()
    total = 0.0
    declaring = RANK_MASK[KING] | RANK_MASK[QUEEN]
    if r[R.HALF_MARRIAGE]:
        declaring |= RANK_MASK[JACK]
    if r[R.ACE_MARRIAGE]:
        declaring |= RANK_MASK[ACE]
    for t, trick in enumerate(deal.tricks):
        cards: list[int] = []
        win_card, win_seat, pending, points = -1, -1, -1, 0
        for k, play in enumerate(trick):
            p = (leader + k) % 3
            c = play.card
            hand = hands[p]
            can_declare = False
            if k == 0:
                legal = hand
                if trump >= 0 and (r[R.NO_LEAD_FOREIGN_TRUMP] or r[R.MUST_LEAD_TRUMP]):
                    legal = int(legal_leads(np.int64(hand), trump, owner == p, r[R.NO_LEAD_FOREIGN_TRUMP],
                                            r[R.MUST_LEAD_TRUMP]))
                can_declare = (tricks[p] > 0 or r[R.MARRIAGE_FIRST_LEAD] != 0) and t <= 8 - r[R.MARRIAGE_MIN_CARDS]
            else:
                legal = int(legal_follows(np.int64(hand), cards[0] // 6, win_card, trump, r[R.MUST_HEAD]))
            assert (legal >> c) & 1
            choices = mask_to_cards(legal)
            if p != seat and len(choices) > 1 and bin(hand).count("1") > model.prm[p, H_SEARCH_CARDS]:
                trick_arr = np.array((cards + [-1, -1])[:2], dtype=np.int64)
                n_idx = card_features(p, np.array(hands, dtype=np.int64), np.int64(legal), trick_arr, k, leader,
                                      trump, owner, d, np.array(tricks, dtype=np.int64),
                                      np.array(card_points, dtype=np.int64), np.array(marriage_points, dtype=np.int64),
                                      np.array(marriages, dtype=np.int64), contract, np.int64(played),
                                      np.array(played_by, dtype=np.int64), np.array(voids, dtype=np.int64),
                                      np.array(known[p], dtype=np.int64), np.array(last_bid, dtype=np.int64),
                                      can_declare, r, lidx, lbuf[L_DENSE])
                q_forward(model.net, np.int64(model.prm[p, H_NET]), lidx, n_idx, lbuf[L_DENSE], (p - d) % 3, lbuf)
                sign = 1.0 if p == d else -1.0
                x = {q: sign * 100.0 * float(lbuf[L_OUT, q]) / card_temperature for q in choices}
                top = max(x.values())
                total += x[c] - top - math.log(sum(math.exp(v - top) for v in x.values()))
            if k == 0:
                win_card, win_seat = c, p
                if can_declare and (declaring >> c) & 1 and play.declared:
                    value, new_trump, bit = (int(v) for v in declaration(np.int64(hand), c, r))
                    marriage_points[p] += value
                    marriages[p] |= bit
                    if new_trump >= 0:
                        if r[R.MARRIAGE_TRUMP_FROM]:
                            pending = new_trump
                        else:
                            trump, owner = new_trump, p
            else:
                if c // 6 != cards[0] // 6:
                    voids[p] |= 1 << (cards[0] // 6)
                    if trump >= 0 and c // 6 != trump:
                        voids[p] |= 1 << trump
                if beats(c, win_card, trump):
                    win_card, win_seat = c, p
            cards.append(c)
            points += int(CARD_POINTS[c])
            hands[p] &= ~(1 << c)
            played |= 1 << c
            played_by[p] |= 1 << c
        if len(trick) == 3:
            tricks[win_seat] += 1
            card_points[win_seat] += points
            if pending >= 0:
                trump, owner = pending, leader
            leader = win_seat
    return total


def exact_posterior(rec: Record, seat: int, at: str, rules, temperature: float,
                    card_temperature: float = math.inf, gift_temperature: float = math.inf,
                    contract_temperature: float = math.inf, floor: float = 0.05) -> tuple[dict[int, np.ndarray], int]:
    """({card: [P(left), P(right), P(talon)]} for every card ``seat`` neither holds nor has seen
    played at ``at``, the number of deals its view allows). The talon must be known to the seat
    (a talon it never saw is not enumerated here) and the gifts seen. ``temperature`` math.inf:
    every deal the walk allows weighs the same; ``card_temperature`` math.inf: the cards played
    weigh nothing; ``gift_temperature``, ``contract_temperature`` (math.inf: not weighed) and
    ``floor``: the declarer's gifts and contract, weighed where ``seat`` defends
    (``naive_deal_loglik``)."""
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
    places: list[tuple[float, int, int]] = []  # (the deal's log-weight, a hidden card, its place now)
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
            logw = 0.0
        else:
            logw = sum(auction_loglik(s, np.int64(hands[s]), auction.seat, auction.bid, auction.high,
                                      auction.high_seat, auction.dark, auction.free, model.gs, model.rules,
                                      model.prm, model.net, lbuf, 1.0 / temperature) for s in (left, right))
            if not math.isinf(card_temperature) and logw > -math.inf:
                logw += naive_cards_loglik(deal, w, seat, rules, model, card_temperature)
            if not stage_auction and w.declarer != seat and logw > -math.inf:
                logw += naive_deal_loglik(deal, w, rules, model, gift_temperature, contract_temperature, floor)
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
            places.append((logw, c, {left: 0, right: 1, 3: 2}[now[c]]))
    # normalised in logs: at a low card temperature a record's cards the net would not play weigh
    # e^-1000 in every deal
    top = max((lw for lw, _, _ in places), default=0.0)
    for lw, c, place in places:
        totals.setdefault(c, np.zeros(3))[place] += math.exp(lw - top)
    return {c: v / v.sum() for c, v in totals.items()}, n
