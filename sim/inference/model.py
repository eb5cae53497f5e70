"""The model the likelihood reads: the learned player's bidding and card play (its parameter rows,
its packed nets, its scratch) under a record's rules and standing, a record's auction as the
arrays of ``likelihood_nb`` (which calls the seats chose, and what stood before each), and the
cards the other seats played before a seat's decision as the position rows of
``play_likelihood_nb`` (the public state of each of their decisions)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.engine.auction_nb import accumulates, anyone_on_barrel
from sim.engine.schema import BID_DARK, BID_GOLDEN
from sim.game import rules_layout as R
from sim.game.amounts import ACCUMULATE_BID_CAP, DARK_CONTRACT
from sim.game.bids_nb import forced_bid, forced_seat
from sim.game.cards import ACE, CARD_POINTS, JACK, KING, QUEEN
from sim.game.play_nb import DECLARED_BIT_ACES, DECLARED_BIT_HALF, beats
from sim.game.rules import HouseRules
from sim.game.state_layout import G_CONCESSIONS, G_SCORE
from sim.players.layout import H_SEARCH_CARDS
from sim.players.learned.cards_nb import new_learned_buffers
from sim.players.learned.layout import (
    P_CAN_DECLARE,
    P_CARD_POINTS,
    P_CHOSEN,
    P_CONTRACT,
    P_DECLARER,
    P_LAST_BID,
    P_LEADER,
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
)
from sim.players.params import default_params, learned_nets, params_matrix
from sim.records.parts import DARK, PASS
from sim.records.record import Record
from sim.records.walk import DEALER, gifts_face_up, state_of, talon_seen, walk
from sim.solver.core_nb import new_work

__all__ = ["Model", "Auction", "Plays", "DealTerms", "learned_model", "auction_arrays", "play_rows", "deal_terms",
           "last_bids", "NO_PLAYS", "NO_DEAL_TERMS", "NO_CAP"]

SEATS = 3
NO_CAP = 10_000  # DealTerms.cap_limit where nothing but the declarer's cards caps his contract


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

    def card_scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A new scratch of the card net (one a thread): ``lbuf``, ``lidx`` and a position row."""
        _, lbuf, lidx, _ = new_learned_buffers(self.net)
        return lbuf, lidx, np.zeros(P_N, dtype=np.int64)

    def gift_scratch(self) -> np.ndarray:
        """A new scratch of the declarer's gift candidates (one a thread): the solver's work rows."""
        return new_work()[1]


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


@dataclass(frozen=True)
class Plays:
    """The cards the seats other than ``viewer`` played before the view's point, as the kernel
    ``play_likelihood_nb.plays_loglik`` reads them: ``rows`` one position row (``layout.P_*``) a
    card, its public state with the card played in ``P_CHOSEN`` (the hand, legal cards and
    knowledge left 0: each world fills them in); ``played_now`` the cards each seat has played so
    far; ``shown`` the talon's cards the defenders saw (0: none); ``face_up`` 1 when the gifts lay
    face up. ``half_queens``: declared queens whose combination the view cannot name (under
    half_marriage a queen led declaring is the marriage's or the half marriage's, as the hand
    holds): read as the marriage."""

    viewer: int
    rows: np.ndarray
    played_now: np.ndarray
    shown: int
    face_up: int
    half_queens: int = 0

    def weighable(self, prm: np.ndarray) -> int:
        """How many of the cards were played while the seat held more cards than its
        ``search_cards`` (those the net chose, when the seat had a choice; ``play_likelihood_nb``)."""
        return sum(int(8 - bin(int(row[P_PLAYED_BY + row[P_SEAT]])).count("1") > prm[row[P_SEAT], H_SEARCH_CARDS])
                   for row in self.rows)


NO_PLAYS = Plays(viewer=-1, rows=np.zeros((0, P_N), dtype=np.int64), played_now=np.zeros(SEATS, dtype=np.int64),
                 shown=0, face_up=1)


def _declared(c: int, r: np.ndarray) -> tuple[int, int, int]:
    """(value, new trump or -1, ``marriages`` bit) of a lead of ``c`` that declared, read from the
    card alone (``play_nb.declaration`` reads the hand: a queen under half_marriage is taken as
    the marriage's)."""
    s, rank = c // 6, c % 6
    if rank == ACE and r[R.ACE_MARRIAGE]:
        return int(r[R.ACE_MARRIAGE]), -1, 1 << DECLARED_BIT_ACES
    if rank == JACK and r[R.HALF_MARRIAGE]:
        return int(r[R.MARRIAGE_VALUE + s]) // 2, s, 1 << (DECLARED_BIT_HALF + s)
    if rank in (KING, QUEEN):
        return int(r[R.MARRIAGE_VALUE + s]), s, 1 << s
    return 0, -1, 0


def play_rows(view: Record, viewer: int, rules: HouseRules) -> Plays:
    """The decisions of the seats other than ``viewer`` in ``view`` (a record cut at the point and
    seen by ``viewer``, already walked legal): each card they played, with the public state the
    engine gave the player when it chose it (``tricks_nb.play_tricks``: the trick so far, the
    trump in force, the tallies, the cards gone, the voids shown, the declarations, each seat's
    last bid, whether the lead may declare)."""
    if not view.tricks:
        return NO_PLAYS
    r = rules.to_array()
    w = walk(view, rules)
    d = int(w.declarer)
    contract = int(w.contract) if w.contract is not None else int(w.high)
    last_bid = last_bids(view)
    defender = (d + 1) % SEATS
    shown = int(view.talon) if view.talon is not None and talon_seen(view, defender, rules) else 0
    leader, trump, owner = d, -1, -1
    tricks, card_points, marriage_points = [0] * SEATS, [0] * SEATS, [0] * SEATS
    marriages, voids, played_by = [0] * SEATS, [0] * SEATS, [0] * SEATS
    played = 0
    last_declaring = 8 - int(r[R.MARRIAGE_MIN_CARDS])
    rows: list[np.ndarray] = []
    half_queens = 0
    for t, (trick, seats) in enumerate(zip(view.tricks, w.seats, strict=False)):
        win_card, win_seat, pending, points = -1, -1, -1, 0
        cards: list[int] = []
        for k, (play, p) in enumerate(zip(trick, seats, strict=False)):
            c = play.card
            can_declare = k == 0 and (tricks[p] > 0 or r[R.MARRIAGE_FIRST_LEAD] != 0) and t <= last_declaring
            if p != viewer:
                row = np.zeros(P_N, dtype=np.int64)
                row[P_SEAT], row[P_DECLARER], row[P_LEADER], row[P_N_IN_TRICK] = p, d, leader, k
                row[P_TRICK] = cards[0] if k > 0 else -1
                row[P_TRICK + 1] = cards[1] if k > 1 else -1
                row[P_TRUMP], row[P_OWNER], row[P_CONTRACT], row[P_PLAYED] = trump, owner, contract, played
                for q in range(SEATS):
                    row[P_TRICKS + q] = tricks[q]
                    row[P_CARD_POINTS + q] = card_points[q]
                    row[P_MARRIAGE_POINTS + q] = marriage_points[q]
                    row[P_MARRIAGES + q] = marriages[q]
                    row[P_PLAYED_BY + q] = played_by[q]
                    row[P_VOIDS + q] = voids[q]
                    row[P_LAST_BID + q] = last_bid[q]
                row[P_CAN_DECLARE] = int(can_declare)
                row[P_CHOSEN] = c
                rows.append(row)
            if k == 0:
                win_card, win_seat = c, p
                if play.declared:
                    value, new_trump, bit = _declared(c, r)
                    half_queens += int(c % 6 == QUEEN and bool(r[R.HALF_MARRIAGE]))
                    marriage_points[p] += value
                    marriages[p] |= bit
                    if new_trump >= 0:
                        if r[R.MARRIAGE_TRUMP_FROM]:
                            pending = new_trump
                        else:
                            trump, owner = new_trump, p
            else:
                led = cards[0] // 6
                if c // 6 != led:
                    voids[p] |= 1 << led
                    if trump >= 0 and c // 6 != trump:
                        voids[p] |= 1 << trump
                if beats(c, win_card, trump):
                    win_card, win_seat = c, p
            cards.append(c)
            points += int(CARD_POINTS[c])
            played |= 1 << c
            played_by[p] |= 1 << c
        if len(trick) == SEATS:
            tricks[win_seat] += 1
            card_points[win_seat] += points
            if pending >= 0:
                trump, owner = pending, leader
            leader = win_seat
    return Plays(viewer=viewer, rows=np.array(rows, dtype=np.int64).reshape(-1, P_N),
                 played_now=np.array(played_by, dtype=np.int64), shown=shown,
                 face_up=int(gifts_face_up(rules)), half_queens=half_queens)


def last_bids(view: Record) -> list[int]:
    """Each seat's last bid in ``view``'s auction (the dark game DARK_CONTRACT; 0: none), as the
    engine gives it to the learned player (``W_LAST_BID``)."""
    last_bid = [0] * SEATS
    for call in view.auction:
        if call.bid == DARK:
            last_bid[call.seat] = DARK_CONTRACT
        elif call.bid > 0:
            last_bid[call.seat] = call.bid
    return last_bid


@dataclass(frozen=True)
class DealTerms:
    """What the declarer's gifts and final contract are weighed with (``deal_likelihood_nb``, as
    the engine gave them to him): ``last_bid`` each seat's last bid; ``final`` the final contract
    observed (-1 a concession; 0 none to weigh: not yet called, or a dark or golden contract, fixed
    by the rules); ``can_concede`` 1 when the rules let him concede (``deals_nb.finish_deal``'s
    test); ``cap_limit`` the barrel's cap on his contract under barrel_accumulate, else NO_CAP."""

    last_bid: np.ndarray
    final: int
    can_concede: int
    cap_limit: int


NO_DEAL_TERMS = DealTerms(last_bid=np.zeros(SEATS, dtype=np.int64), final=0, can_concede=0, cap_limit=NO_CAP)


def deal_terms(view: Record, rules: HouseRules, gs: np.ndarray) -> DealTerms:
    """The declarer's ``DealTerms`` in ``view`` (a record cut at a point after the talon and seen
    by a seat, walked legal; ``gs`` the game state before the deal)."""
    r = rules.to_array()
    w = walk(view, rules)
    d = int(w.declarer)
    doubled = w.mode in (BID_DARK, BID_GOLDEN)
    if doubled or (w.contract is None and not view.conceded):
        final = 0
    else:
        final = -1 if view.conceded else int(w.contract)
    limit = int(r[R.CONCEDE_LIMIT])
    can = (not doubled and bool(r[R.CONCEDE]) and (bool(r[R.CONCEDE_ON_BARREL]) or not anyone_on_barrel(gs))
           and (limit == 0 or gs[G_CONCESSIONS + d] < limit))
    cap = ACCUMULATE_BID_CAP if accumulates(gs, r, d) else NO_CAP
    return DealTerms(last_bid=np.array(last_bids(view), dtype=np.int64), final=final, can_concede=int(can),
                     cap_limit=cap)
