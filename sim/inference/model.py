"""The model the likelihood reads: the learned player's bidding (its parameter rows, its packed
nets, its scratch) under a record's rules and standing, and a record's auction as the arrays of
``likelihood_nb`` (which calls the seats chose, and what stood before each)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.game import rules_layout as R
from sim.game.amounts import DARK_CONTRACT
from sim.game.bids_nb import forced_bid, forced_seat
from sim.game.rules import HouseRules
from sim.game.state_layout import G_SCORE
from sim.players.learned.cards_nb import new_learned_buffers
from sim.players.params import default_params, learned_nets, params_matrix
from sim.records.parts import DARK, PASS
from sim.records.record import Record
from sim.records.walk import DEALER, state_of

__all__ = ["Model", "Auction", "learned_model", "auction_arrays"]

SEATS = 3


@dataclass(frozen=True)
class Model:
    """The learned player's bidding as the kernels read it: ``rules`` (the rules array), ``prm``
    (a parameter row a seat, each seat's net the first row), ``net`` (the packed weights), ``lbuf``
    (scratch: one a thread, see ``scratch``), ``gs`` (the game state before the deal)."""

    rules: np.ndarray
    prm: np.ndarray
    net: np.ndarray
    gs: np.ndarray
    weights: str

    def scratch(self) -> np.ndarray:
        """A new scratch of the learned player's nets (one a thread)."""
        return new_learned_buffers(self.net)[1]


@dataclass(frozen=True)
class Auction:
    """A record's calls as the arrays of ``likelihood_nb``: each call's seat, bid (0 a pass), the
    standing bid and its seat before it, whether the dark game stood, and whether the seat had no
    choice (the forced opening, the dark call, the dealer forced when all passed, silence)."""

    seat: np.ndarray
    bid: np.ndarray
    high: np.ndarray
    high_seat: np.ndarray
    dark: np.ndarray
    free: np.ndarray

    def chosen(self, viewer: int) -> int:
        """How many calls of the seats other than ``viewer`` were their choices (the ones weighted)."""
        return int(((self.free == 0) & (self.seat != viewer)).sum())


def learned_model(rec: Record, rules: HouseRules, weights: str | Path | None = None) -> Model:
    """The learned player (``weights``: a weights file; None the shipped ones) under ``rules``, with
    the record's standing before the deal."""
    name = "learned" if weights is None else f"learned:{weights}"
    r = rules.to_array()
    prm = params_matrix(default_params(), rules)
    net = learned_nets([name] * SEATS, prm, SEATS, rules)
    return Model(rules=r, prm=prm, net=np.ascontiguousarray(net, dtype=np.float32), gs=state_of(rec),
                 weights=name)


def auction_arrays(rec: Record, rules: HouseRules) -> Auction:
    """The record's auction (already walked: its calls are legal and in turn) as arrays."""
    r = rules.to_array()
    gs = state_of(rec)
    calls = list(rec.auction)
    rows: list[tuple[int, int, int, int, int, int]] = []
    opener = int(forced_seat(DEALER, SEATS, r))
    i = 0
    dark = False
    high, high_seat = 0, -1
    if calls and calls[0].bid == DARK:
        rows.append((calls[0].seat, 0, 0, -1, 0, 1))
        dark = True
        high, high_seat = DARK_CONTRACT, opener
        i = 1
    elif r[R.FORCED_FIRST_BID] and calls:
        high, high_seat = int(forced_bid(gs, r, opener)), opener
        rows.append((calls[0].seat, calls[0].bid, 0, -1, 0, 1))
        i = 1
    active = [True] * SEATS
    n_active = SEATS
    for call in calls[i:]:
        p = call.seat
        forced = high_seat < 0 and n_active == 1 and bool(r[R.ALL_PASS])
        silenced = bool(r[R.SILENCE_ON]) and gs[G_SCORE + p] < r[R.SILENCE_BELOW]
        rows.append((p, call.bid, high, high_seat, int(dark), int(forced or silenced)))
        if call.bid == PASS:
            active[p] = False
            n_active -= 1
        else:
            high, high_seat = call.bid, p
            dark = False
    a = np.array(rows, dtype=np.int64).reshape(-1, 6)
    return Auction(*(np.ascontiguousarray(a[:, k]) for k in range(6)))
