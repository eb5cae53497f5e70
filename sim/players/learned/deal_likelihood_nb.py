"""The likelihood of the declarer's gifts, his final contract and his concession under the learned
player's own decisions, compiled (docs/inference.md, "The gifts and the contract").

**The gifts.** The learned declarer values the first ``prm[declarer, H_GIFT_CANDIDATES]`` ordered
pairs of the solver's cheapest-first order (``discard_nb.cheapest_discards``) by his card net's
value of his first lead after them (``cards_nb.gift_value``) and gives the best
(``cards_nb.learned_discard``). Made a probability: a softmax of the candidates' values (points)
at a temperature T_gift, mixed with the share GIFT_FLOOR of every ordered pair the rules let him
give, uniformly: P(a, b) = (1 - GIFT_FLOOR) * softmax(a, b) + GIFT_FLOOR / (g (g - 1)), g his
givable cards (a pair outside the candidates has the floor alone: another player's gifts are not
the learned player's). A pair the rules do not let him give is impossible.

**The final contract and the concession** (``bidding_nb.learned_contract_margin``): two
decisions, each made a probability by a logistic of its margin at a temperature T_contract:
concede or play (when he may concede), then which contract he plays; P(the observed) is their
product (a concession only the first). The deal's value net C reads is the value of the gifts he
gave (``gift_value`` of the observed pair), as the engine passes it.

Everything is ``jit_hot``: the scratch (``lbuf``, ``lidx``: ``cards_nb.new_learned_buffers``;
``work``: the solver's work rows, ``core_nb.new_work``) comes from the caller.
"""

import numpy as np

from sim.game.bids_nb import contract_cap
from sim.game.bits_nb import popcount
from sim.game.play_nb import givable_cards
from sim.numba_config import jit_hot
from sim.players.layout import H_GIFT_CANDIDATES, H_NET
from sim.players.learned.bidding_nb import learned_contract_margin
from sim.players.learned.cards_nb import VALUE_POINTS, gift_value, value_points
from sim.players.learned.likelihood_nb import IMPOSSIBLE, log_sigmoid
from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES
from sim.solver.discard_nb import cheapest_discards


@jit_hot
def gifts_loglik(declarer, ten, a, b, contract, last_bid, rules, prm, net, lbuf, lidx, work, inv_temperature, floor,
                 want_value):
    """(log P(the declarer holding the 10 cards ``ten`` gives ``a`` to the seat after him and
    ``b`` to the seat after that), the net's value of the deal after those gifts in points, as
    ``learned_discard`` rounds it, when ``want_value``, else 0): the module's docstring, at
    1 / T_gift = ``inv_temperature`` (points⁻¹) and the uniform share ``floor``. ``contract`` the
    bid, ``last_bid`` each seat's last bid (as the engine passed them). A declarer without a net:
    (0, 0), no term. A pair outside the candidates costs no candidate's forward pass (most worlds'
    pair: their share is the floor's alone)."""
    model = np.int64(prm[declarer, H_NET])
    givable = givable_cards(ten, rules)
    if a == b or not (givable >> a) & 1 or not (givable >> b) & 1:
        return IMPOSSIBLE, np.int64(0)
    if model < 0:
        return 0.0, np.int64(0)
    g = popcount(givable)
    k = cheapest_discards(ten, rules, work, max(1, np.int64(prm[declarer, H_GIFT_CANDIDATES])))
    observed = a * 24 + b
    listed = False
    for i in range(k):
        listed = listed or work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES] == observed
    p = floor / (g * (g - 1))
    if not listed:
        if p == 0.0:
            return IMPOSSIBLE, np.int64(0)
        value = np.int64(0)
        if want_value:
            value = gift_deal_value(declarer, ten, a, b, contract, last_bid, rules, prm, net, lbuf, lidx)
        return np.log(p), value
    top = -np.inf  # the softmax's log-sum-exp in one pass: the largest exponent so far, and the sum below it
    total = 0.0
    mine = 0.0
    out = np.float32(0.0)
    for i in range(k):
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        v32 = gift_value(declarer, ten, code // 24, code % 24, contract, last_bid, rules, model, net, lbuf, lidx)
        v = VALUE_POINTS * inv_temperature * np.float64(v32)
        if v > top:
            total = total * np.exp(top - v) + 1.0
            top = v
        else:
            total += np.exp(v - top)
        if code == observed:
            mine = v
            out = v32
    p += (1.0 - floor) * np.exp(mine - top) / total
    return np.log(p), value_points(out)


@jit_hot
def gift_deal_value(declarer, ten, a, b, contract, last_bid, rules, prm, net, lbuf, lidx):
    """The net's value of the deal after the gifts ``a`` and ``b`` in points, as ``gifts_loglik``
    returns it, without the gifts' likelihood (0 for a declarer without a net)."""
    model = np.int64(prm[declarer, H_NET])
    if model < 0:
        return np.int64(0)
    return value_points(gift_value(declarer, ten, a, b, contract, last_bid, rules, model, net, lbuf, lidx))


@jit_hot
def contract_loglik(declarer, hand, high, cap_limit, can_concede, deal_value, observed, gs, rules, prm, net, lbuf,
                    inv_temperature):
    """log P(the declarer holding the 8 cards ``hand`` after his gifts calls ``observed`` (a final
    contract, or -1 a concession)), the winning bid ``high``, his cap his cards' (``contract_cap``)
    or ``cap_limit`` when lower, ``can_concede`` 1 when the rules let him, ``deal_value`` the net's
    value of the deal after his gifts (points): the module's docstring, at 1 / T_contract =
    ``inv_temperature`` (points⁻¹). IMPOSSIBLE for a concession he could not make."""
    if observed < 0 and not can_concede:
        return IMPOSSIBLE
    cap = min(contract_cap(hand, high, rules), cap_limit)
    call, play, play_margin, concede_margin = learned_contract_margin(declarer, hand, high, cap, can_concede != 0,
                                                                      deal_value, observed, gs, rules, prm, net,
                                                                      lbuf)
    total = 0.0
    if can_concede:
        x = concede_margin * inv_temperature
        total += log_sigmoid(x if (call < 0) == (observed < 0) else -x)
    if observed >= 0:
        x = play_margin * inv_temperature
        total += log_sigmoid(x if play == observed else -x)
    return total
