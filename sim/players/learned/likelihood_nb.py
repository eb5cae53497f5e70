"""The likelihood of a seat's observed calls under the learned player's bidding, compiled: each
decision of ``learned_bid_margin`` made a probability by a logistic of its margin in points over
a temperature T, P(the model's call) = sigmoid(margin / T) (docs/inference.md).

An auction is given as arrays, one entry a call, in the record's seats (the dealer is seat 2, as
the engine plays a record): ``call_seat``, ``call_bid`` (the call observed: a bid, or 0 a pass),
``call_high`` and ``call_high_seat`` (the standing bid and its seat before the call; -1: none),
``call_dark`` (1: the forced seat went dark and nobody has undarked) and ``call_free`` (1: a call
the seat did not choose: the forced opening bid, the dealer forced when all passed, a seat
silenced by silence_below; it adds no term). The least raise and the cap of a call are
``bids_nb.bid_range``'s for the hypothesised hand (the cap counts its marriages), so a hand that
could not have made an observed bid has likelihood 0 (log -inf), and a pass the rules force (the
least raise above the cap) adds nothing. A raise observed is compared with the model's raise as
raise against pass: a jump is read as a raise.

Everything is ``jit_hot``: buffers (``lbuf``, the learned player's scratch) come from the caller.
"""

import numpy as np

from sim.game.bids_nb import bid_range, legal_bid
from sim.numba_config import jit_hot, jit_inline
from sim.players.learned.bidding_nb import learned_bid_margin

# The temperature of the calls' logistic, in points: fitted by the held-out log-loss of the true
# card locations on self-play of the learned player (seed 31337; benchmarks/infer_calibration.py,
# docs/inference.md "The temperature").
TEMPERATURE = 1.0
# The temperature of the cards' softmax (``play_likelihood_nb``), in points, fitted alike (the
# held-out log-loss of the true card places at tricks 2, 4 and 6 of the same self-play, the least
# of the grid 0.01-4; docs/inference.md "The cards' temperature"): the learned player's cards are
# its net's best, so a world whose hands would have made the net play otherwise is all but ruled out.
CARD_TEMPERATURE = 0.01
# The temperatures of the declarer's gifts (a softmax of his gift candidates' values) and of his
# final contract and concession (a logistic of each decision's margin), in points
# (``deal_likelihood_nb``), fitted alike (the log-loss of the true card places seen by the
# defenders after the talon and at tricks 2 and 4 of the same self-play, the least of the grid
# 0.03-10 for each; docs/inference.md "The gifts' and the contract's temperatures"): the learned
# declarer's gifts and contract are his nets' best, as his cards are.
GIFT_TEMPERATURE = 0.03
CONTRACT_TEMPERATURE = 0.03
# The gifts' share drawn uniformly from every pair the declarer could give (docs/inference.md):
# another player's gifts are not the learned player's, and a pair outside his candidates keeps it
# (0 would refuse a record whose gifts no learned declarer would give; on self-play it costs 0.0006
# nats a card).
GIFT_FLOOR = 0.05
IMPOSSIBLE = -np.inf  # the log-likelihood of a call the hypothesised hand could not have made


@jit_hot
def log_sigmoid(x):
    """log(1 / (1 + exp(-x))), accurate for large |x|."""
    if x >= 0.0:
        return -np.log1p(np.exp(-x))
    return x - np.log1p(np.exp(x))


@jit_hot
def call_loglik(observed, seat, hand, high, high_seat, dark, gs, rules, prm, net, lbuf, inv_temperature):
    """log P(``seat`` holding the 7 cards ``hand`` calls ``observed`` (a bid, 0 a pass)), the
    standing bid ``high`` by ``high_seat`` (-1: none) and ``dark`` (1: a dark game not undarked):
    log sigmoid(margin * ``inv_temperature``) when the model's call (``learned_bid_margin``) agrees
    (raise or pass), log(1 - sigmoid(...)) otherwise; 0 for a pass the rules force; IMPOSSIBLE for
    a bid the hand may not make. ``inv_temperature`` 1 / T (points⁻¹); 0: every call uninformative."""
    least, cap = bid_range(hand, seat, high, high_seat, dark != 0, gs, rules)
    if least > cap:
        return 0.0 if observed == 0 else IMPOSSIBLE
    if observed != 0 and not legal_bid(observed, least, cap, rules):
        return IMPOSSIBLE
    call, margin = learned_bid_margin(seat, hand, high_seat, least, cap, gs, rules, prm, net, lbuf)
    x = margin * inv_temperature
    if (call != 0) == (observed != 0):
        return log_sigmoid(x)
    return log_sigmoid(-x)


@jit_hot
def auction_loglik(seat, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules, prm,
                   net, lbuf, inv_temperature):
    """The sum of ``call_loglik`` over ``seat``'s chosen calls of the auction (arrays: the module's
    docstring), ``seat`` holding ``hand`` (its 7 cards before the talon); IMPOSSIBLE as soon as one
    call is."""
    total = 0.0
    for i in range(call_seat.size):
        if call_seat[i] != seat or call_free[i]:
            continue
        v = call_loglik(call_bid[i], seat, hand, call_high[i], call_high_seat[i], call_dark[i], gs, rules, prm, net,
                        lbuf, inv_temperature)
        if v == IMPOSSIBLE:
            return IMPOSSIBLE
        total += v
    return total


@jit_hot
def auction_possible(seat, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules):
    """Whether ``seat`` holding ``hand`` could have made each of its chosen calls (a bid within the
    hand's cap: the certain part of the auction, what uniform worlds keep)."""
    for i in range(call_seat.size):
        if call_seat[i] != seat or call_free[i] or call_bid[i] == 0:
            continue
        least, cap = bid_range(hand, seat, call_high[i], call_high_seat[i], call_dark[i] != 0, gs, rules)
        if not legal_bid(call_bid[i], least, cap, rules):
            return False
    return True


@jit_inline
def seat_loglik(seat, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules, prm, net,
                lbuf, inv_temperature):
    """One seat's term of ``others_loglik``: the log-likelihood of its chosen calls holding the 7
    cards ``hand``; with ``inv_temperature`` 0 only whether it could have made them (0 or
    IMPOSSIBLE, ``auction_possible``)."""
    if inv_temperature == 0.0:
        ok = auction_possible(seat, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs,
                              rules)
        return 0.0 if ok else IMPOSSIBLE
    return auction_loglik(seat, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules,
                          prm, net, lbuf, inv_temperature)


@jit_hot
def others_loglik(viewer, hands, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules,
                  prm, net, lbuf, inv_temperature):
    """The log-likelihood of the calls of the two seats other than ``viewer``, seat s holding
    ``hands[s]`` (its 7 cards before the talon): the sum of their ``auction_loglik``; with
    ``inv_temperature`` 0 (uniform worlds) only the certain part: 0, or IMPOSSIBLE when a seat could
    not have made one of its calls (``auction_possible``). The weight both the inference's worlds
    and pimc-inf's read."""
    total = 0.0
    for s in range(3):
        if s == viewer:
            continue
        v = seat_loglik(s, hands[s], call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules,
                        prm, net, lbuf, inv_temperature)
        if v == IMPOSSIBLE:
            return IMPOSSIBLE
        total += v
    return total
