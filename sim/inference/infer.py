"""``infer``: the weighted worlds of one seat's view of a record at a decision point, and each
hidden card's probability of lying with the seat's left, its right or in the talon
(docs/inference.md).

Candidate worlds are drawn uniformly among the deals the view allows (``view``, ``worlds_nb``),
in chunks of CHUNK worlds, each chunk from its own stream (``sim.streams.INFER_WORLDS``: the seed
and the chunk's number), so the same seed gives the same worlds on any number of threads. Each
world is weighted by the likelihood of the two other seats' calls under the learned player's
bidding at temperature T (``likelihood_nb``), of the cards they played under its card net at
T_card (``play_likelihood_nb``) and, seen by a defender, of the declarer's gifts and final contract
or concession at T_gift and T_contract (``deal_likelihood_nb``). Where the effective sample size (sum w)^2 / sum w^2
falls below ESS_FLOOR of the worlds asked, as many again are drawn, up to MAX_DRAWS times the
worlds asked; a result still below the floor says so (``collapsed``). Where the weights collapse
and the view's deals are few enough (``world_count``, ``sweep_limit``), they are swept instead:
each weighed once (``worlds_nb.enumerate_worlds``), the exact answer (``exact``). Where the view
leaves nothing open beyond the places a placement of the hidden cards is one deal; a gift face
down (``hidden_gift``) makes it up to GIFT_SLOTS deals, each weighed (every term reads which card
it was); a talon the defender never saw is summed out of each one's weight
(``worlds_nb.sum_talons``: only the declarer's calls read it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim import InputError, __version__
from sim.arguments import integer, number, refused
from sim.fingerprint import code_fingerprint
from sim.game.cards import format_card, mask_to_cards
from sim.game.rng_nb import state_from_sequence
from sim.inference.model import NO_DEAL_TERMS, NO_PLAYS, auction_arrays, deal_terms, learned_model, play_rows
from sim.inference.view import View, view_facts
from sim.inference.worlds_nb import GIFT_SLOTS, HIDDEN_GIFT, TALONS, draw_worlds, enumerate_worlds, sum_talons
from sim.parallel import run_chunks
from sim.players.learned.likelihood_nb import (
    CARD_TEMPERATURE,
    CONTRACT_TEMPERATURE,
    GIFT_FLOOR,
    GIFT_TEMPERATURE,
    TEMPERATURE,
)
from sim.players.learned.weights import DEFAULT_WEIGHTS, weights_identity
from sim.records import Record, parse_record_text, read_records
from sim.records.record import SEAT_NAMES, seat_index
from sim.records.walk import house_rules
from sim.streams import INFER_WORLDS, sequence

__all__ = ["TEMPERATURE", "CARD_TEMPERATURE", "GIFT_TEMPERATURE", "CONTRACT_TEMPERATURE", "ESS_FLOOR", "MAX_DRAWS",
           "CHUNK", "MAX_WORLDS", "Inference", "infer", "world_count", "hidden_gift"]

ESS_FLOOR = 0.05  # draw more when the effective sample size falls below this share of the worlds asked
MAX_DRAWS = 16  # ... up to this many times the worlds asked
CHUNK = 250  # worlds a chunk (one stream each)
MAX_WORLDS = 1_000_000
SCRATCH = 48  # int64 scratch of ``draw_worlds`` and ``enumerate_worlds`` (at least 39)
PLACES = ("left", "right", "talon")


@dataclass(frozen=True)
class Inference:
    """The weighted worlds of ``seat``'s view at ``at``. ``where[i]``: world i's hidden cards at the
    seat's left, its right and in the talon (masks); ``deals[i]``: its deal as dealt (the three
    seats' 7 cards in the record's seats, then the talon); ``weights`` normalised to sum 1;
    ``ess`` the effective sample size (sum w)^2 / sum w^2 of ``weights``; ``draws`` the worlds
    weighed (more than asked when the ESS fell below the floor: the worlds drawn, and where the
    view was swept, the first worlds drawn and then the sweep's); ``exact``: the weights collapsed
    and every deal the view allows was weighed once (``where``, ``deals`` and ``weights`` are the
    sweep's worlds, the first draws left out: each placement of the hidden cards, and each card a
    gift face down may have been; a talon never seen summed out of the weight, and drawn from its
    posterior in ``deals``), so the answer is the exact posterior, without sampling error (``ess``
    then says only how many equally likely worlds it is worth); ``collapsed``: still below the
    floor at the end (never when exact); ``hidden`` the hidden cards (indices); ``facts`` the
    deductions the view allowed, in words."""

    seat: int
    at: str
    asked: int
    draws: int
    temperature: float
    card_temperature: float
    gift_temperature: float
    contract_temperature: float
    where: np.ndarray
    deals: np.ndarray
    weights: np.ndarray
    ess: float
    collapsed: bool
    exact: bool
    hidden: tuple[int, ...]
    talon_place: bool
    calls_weighted: int
    cards_weighted: int
    gifts_weighted: bool
    contract_weighted: bool
    facts: tuple[str, ...]
    provenance: dict[str, Any]

    @property
    def left(self) -> int:
        return (self.seat + 1) % 3

    @property
    def right(self) -> int:
        return (self.seat + 2) % 3

    def probabilities(self) -> np.ndarray:
        """(len(hidden), 3): each hidden card's probability of lying left, right, in the talon."""
        cards = np.array(self.hidden, dtype=np.int64)
        out = np.zeros((cards.size, 3))
        for k in range(3):
            bits = (self.where[:, k:k + 1] >> cards[None, :]) & 1
            out[:, k] = self.weights @ bits
        return out

    def to_polars(self):
        """One row a hidden card: ``card``, ``left``, ``right``, ``talon`` (its probabilities)."""
        p = self.probabilities()
        return pl.DataFrame({"card": [format_card(c) for c in self.hidden], "left": p[:, 0], "right": p[:, 1],
                             "talon": p[:, 2]})

    def to_dict(self) -> dict[str, Any]:
        p = self.probabilities()
        return {
            "seat": SEAT_NAMES[self.seat], "at": self.at, "left": SEAT_NAMES[self.left],
            "right": SEAT_NAMES[self.right], "worlds": self.asked, "draws": self.draws,
            "temperature": self.temperature, "card_temperature": self.card_temperature,
            "gift_temperature": self.gift_temperature, "contract_temperature": self.contract_temperature,
            "ess": self.ess, "collapsed": self.collapsed, "exact": self.exact,
            "calls_weighted": self.calls_weighted, "cards_weighted": self.cards_weighted,
            "gifts_weighted": self.gifts_weighted, "contract_weighted": self.contract_weighted,
            "facts": list(self.facts),
            "cards": [{"card": format_card(c), "left": float(p[i, 0]), "right": float(p[i, 1]),
                       "talon": float(p[i, 2])} for i, c in enumerate(self.hidden)],
            "worlds_drawn": [{"weight": float(self.weights[i]),
                              **{place: _hand(self.where[i, k]) for k, place in enumerate(PLACES)},
                              "dealt": {**{SEAT_NAMES[q]: _hand(self.deals[i, q]) for q in range(3)},
                                        "talon": _hand(self.deals[i, 3])}} for i in range(len(self.weights))],
            "provenance": self.provenance,
        }


def _hand(mask: int) -> str:
    return " ".join(format_card(c) for c in mask_to_cards(int(mask)))


def _record(record: Any) -> tuple[Record, Path | None]:
    if isinstance(record, Record):
        return record, None
    if isinstance(record, Path) or (isinstance(record, str) and "\n" not in record and not record.lstrip().startswith(
            "{")):
        if not Path(record).is_file():
            what = "is a folder, not a record file" if Path(record).is_dir() else "is no record file"
            raise InputError(f"record: {str(record)!r} {what}")
        records = read_records(path=record)
        if len(records) != 1:
            raise InputError(f"record: {str(record)!r} holds {len(records)} records; give one")
        return records[0], Path(record).parent
    if isinstance(record, str):
        return parse_record_text(text=record), None
    raise refused("record", "a Record, the path of a record file or a record's text", record)


def infer(record: Record | str | Path, *, seat: int | str, at: str, worlds: int = 2000, seed: int = 0,
          temperature: float | None = None, card_temperature: float | None = None,
          gift_temperature: float | None = None, contract_temperature: float | None = None,
          gift_floor: float | None = None, sweep_limit: int | None = None, threads: int | None = None) -> Inference:
    """The weighted worlds of ``seat``'s view of ``record`` (a Record, a path, or a record's text)
    at ``at`` (``auction``, ``talon`` or ``trick:N``): ``worlds`` candidates (more when the weights
    collapse), drawn from ``seed``; ``temperature`` in points (None: TEMPERATURE; ``math.inf``: no
    weighting, the uniform worlds of today's players); ``card_temperature`` the temperature of
    the cards the other seats played, in points (None: CARD_TEMPERATURE; ``math.inf``: the cards
    weigh nothing, the calls alone; with ``temperature=math.inf`` nothing is weighted whatever
    this is); ``gift_temperature`` and ``contract_temperature`` the temperatures of the declarer's
    gifts and of his final contract or concession, weighed where ``seat`` defends (None:
    GIFT_TEMPERATURE, CONTRACT_TEMPERATURE; ``math.inf``: that term weighs nothing);
    ``gift_floor`` the gifts' share drawn uniformly from every pair the declarer could give (None:
    GIFT_FLOOR; 0: a pair outside his candidates rules the world out); ``sweep_limit`` the most
    worlds swept where the weights collapse (``world_count``; None:
    (MAX_DRAWS - 1) * ``worlds``, the draws the cap leaves, so that it never weighs more worlds
    than drawing to the cap; 0: never, draw more as before); ``threads`` (None: one per
    core) changes nothing but the time."""
    rec, base = _record(record)
    n = integer("worlds", worlds)
    if not 1 <= n <= MAX_WORLDS:
        raise InputError(f"worlds must be from 1 to {MAX_WORLDS:,}, not {n}")
    s = integer("seed", seed)
    if s < 0:
        raise InputError(f"seed must be 0 or more, not {s}")
    t = TEMPERATURE if temperature is None else number("temperature", temperature)
    if not t > 0:
        raise InputError(f"temperature must be above 0 (points; inf: no weighting), not {t}")
    tc = CARD_TEMPERATURE if card_temperature is None else number("card_temperature", card_temperature)
    if not tc > 0:
        raise InputError(f"card_temperature must be above 0 (points; inf: the cards weigh nothing), not {tc}")
    tg = _temperature("gift_temperature", gift_temperature, GIFT_TEMPERATURE, "the gifts weigh nothing")
    tk = _temperature("contract_temperature", contract_temperature, CONTRACT_TEMPERATURE,
                      "the final contract weighs nothing")
    floor = GIFT_FLOOR if gift_floor is None else number("gift_floor", gift_floor)
    if not 0 <= floor <= 1:
        raise InputError(f"gift_floor must be from 0 to 1 (the uniform share of the gifts), not {floor}")
    limit = (MAX_DRAWS - 1) * n if sweep_limit is None else integer("sweep_limit", sweep_limit)
    if limit < 0:
        raise InputError(f"sweep_limit must be 0 or more (worlds; 0: draw more where the weights collapse), not "
                         f"{limit}")
    rules = house_rules(rec, base)
    who = seat_index(seat, what="seat", view=rec.view)
    facts = view_facts(rec, who, at, rules)
    model = learned_model(rec, rules)
    auction = auction_arrays(rec.cut("auction"), rules)
    weigh = math.isfinite(t)
    weigh_cards = weigh and math.isfinite(tc)
    plays = NO_PLAYS
    terms = NO_DEAL_TERMS
    defends = facts.stage == 1 and facts.declarer != who
    weigh_gifts = weigh and defends and math.isfinite(tg)
    weigh_contract = weigh and defends and math.isfinite(tk)
    if facts.stage == 1 and (weigh_cards or weigh_gifts or weigh_contract):
        view = rec.cut(facts.at, seat=who, rules=rules).seen_by(who, rules=rules)
        if weigh_cards:
            plays = play_rows(view, who, rules)
        if weigh_gifts or weigh_contract:
            terms = deal_terms(view, rules, model.gs)
    weigh_contract = weigh_contract and terms.final != 0
    inv = (1.0 / t if weigh else 0.0, 1.0 / tc if weigh_cards else 0.0, 1.0 / tg if weigh_gifts else 0.0,
           1.0 / tk if weigh_contract else 0.0)
    where = np.zeros((0, 3), dtype=np.int64)
    deals = np.zeros((0, 4), dtype=np.int64)
    logw = np.zeros(0)
    rounds = 0
    exact = False
    count = world_count(facts)
    draws = 0
    while True:
        w, d, lw = _draw(facts, model, auction, plays, terms, n, s, rounds * _chunks(n), inv, floor, threads)
        where, deals, logw = np.concatenate([where, w]), np.concatenate([deals, d]), np.concatenate([logw, lw])
        rounds += 1
        draws += n
        ess = _ess(logw)
        if ess >= ESS_FLOOR * n or rounds >= MAX_DRAWS:
            break
        if count <= limit:  # exact, and no dearer than drawing to the cap
            first = MAX_DRAWS * _chunks(n)  # the sweep's streams follow every stream the draws may take
            where, deals, logw = _sweep(facts, model, auction, plays, terms, count, s, first, inv, floor, threads)
            draws += count
            ess = _ess(logw)
            exact = True
            break
    if not np.isfinite(logw.max()):
        if weigh_gifts and floor == 0:
            raise InputError(f"gift_floor: 0 leaves no deal drawn ({len(logw):,}): in none would the learned "
                             "declarer consider the gifts given; give gift_floor above 0")
        raise InputError(f"record: no deal drawn ({len(logw):,}) is consistent with the auction: the bids need "
                         "marriages the hidden cards cannot make, or the view is inconsistent")
    weights = np.exp(logw - logw.max())
    weights /= weights.sum()
    provenance = {"version": __version__, "code": code_fingerprint(), "weights": weights_identity(DEFAULT_WEIGHTS),
                  "seed": s, "worlds": n, "temperature": t, "card_temperature": tc, "gift_temperature": tg,
                  "contract_temperature": tk, "gift_floor": floor, "sweep_limit": limit, "record": rec.label}
    return Inference(seat=who, at=facts.at, asked=n, draws=draws, temperature=t, card_temperature=tc,
                     gift_temperature=tg, contract_temperature=tk, where=where, deals=deals,
                     weights=weights, ess=ess, collapsed=not exact and ess < ESS_FLOOR * n, exact=exact,
                     hidden=tuple(
                         int(c) for c in range(24) if (facts.hidden >> c) & 1), talon_place=facts.talon_place,
                     calls_weighted=auction.chosen(who) if weigh else 0, cards_weighted=plays.weighable(model.prm),
                     gifts_weighted=weigh_gifts, contract_weighted=weigh_contract, facts=facts.facts,
                     provenance=provenance)


def hidden_gift(facts: View) -> bool:
    """Whether a gift lay face down in ``facts`` (which of the other defender's cards it was is
    open: ``worlds_nb.world_deal``)."""
    return facts.stage == 1 and bool((facts.gift == HIDDEN_GIFT).any())


def world_count(facts: View) -> int:
    """How many worlds a sweep of ``facts`` weighs: the placements of the hidden cards
    (``worlds_nb.nth_world``), times GIFT_SLOTS where a gift lay face down (the cards it may have
    been; a placement's slots beyond them weigh nothing)."""
    m = facts.free.size
    places = math.comb(m, int(facts.takes[0])) * math.comb(m - int(facts.takes[0]), int(facts.takes[1]))
    return places * (GIFT_SLOTS if hidden_gift(facts) else 1)


def _temperature(name: str, value: float | None, default: float, off: str) -> float:
    """A temperature argument: None the default; above 0 (points), inf switching its term off."""
    t = default if value is None else number(name, value)
    if not t > 0:
        raise InputError(f"{name} must be above 0 (points; inf: {off}), not {t}")
    return t


def _chunks(n: int) -> int:
    return (n + CHUNK - 1) // CHUNK


def _ess(logw: np.ndarray) -> float:
    if not np.isfinite(logw.max()):
        return 0.0
    w = np.exp(logw - logw.max())
    return float(w.sum() ** 2 / (w * w).sum())


def _kernel_views(facts: View, model, auction, plays, terms, inv: tuple[float, float, float, float],
                  floor: float) -> tuple:
    """The arguments ``draw_worlds`` and ``enumerate_worlds`` share, from ``free`` to
    ``contract_inv_temperature``, as two tuples: ``lbuf`` (one a thread) goes between them."""
    inv_t, card_inv_t, gift_inv_t, contract_inv_t = inv
    return ((facts.free, facts.placed, facts.takes, facts.loc_seat, facts.pool, facts.stage, facts.declarer,
             facts.viewer, facts.talon, facts.gift, facts.contract, facts.high, auction.seat, auction.bid,
             auction.high, auction.high_seat, auction.dark, auction.free, model.gs, model.rules, model.prm,
             model.net),
            (inv_t, plays.rows, plays.played_now, plays.shown, plays.face_up, card_inv_t, terms.last_bid,
             terms.final, terms.can_concede, terms.cap_limit, gift_inv_t, floor, contract_inv_t))


def _draw(facts: View, model, auction, plays, terms, n: int, seed: int, first_chunk: int,
          inv: tuple[float, float, float, float], floor: float,
          threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` worlds, chunk k (numbered from ``first_chunk``) drawn from its own stream; ``inv`` the
    inverse temperatures of the calls, the cards, the gifts and the contract (0: not weighed)."""
    where = np.zeros((n, 3), dtype=np.int64)
    deals = np.zeros((n, 4), dtype=np.int64)
    logw = np.zeros(n)
    head, tail = _kernel_views(facts, model, auction, plays, terms, inv, floor)

    def work(i: int, lo: int, hi: int) -> None:
        state = state_from_sequence(sequence(INFER_WORLDS, seed, first_chunk + i))
        lbuf, lidx, pos = model.card_scratch()
        draw_worlds(state, hi - lo, *head, lbuf, *tail, lidx, pos, model.gift_scratch(),
                    np.zeros(SCRATCH, dtype=np.int64), where[lo:hi], deals[lo:hi], logw[lo:hi])

    run_chunks(n, work, size=CHUNK, threads=threads)
    return where, deals, logw


def _sweep(facts: View, model, auction, plays, terms, count: int, seed: int, first_chunk: int,
           inv: tuple[float, float, float, float], floor: float,
           threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every world of a sweep of ``facts`` weighed once (``_enumerate``, chunk k's stream numbered
    from ``first_chunk``); a talon the defender never saw summed out of each weight
    (``sum_talons``, the next ``_chunks(count)`` streams)."""
    if not (facts.stage == 1 and facts.talon < 0):
        return _enumerate(facts, model, auction, plays, terms, count, seed, first_chunk, inv, floor, threads)
    others = replace(auction, free=auction.free | (auction.seat == facts.declarer))  # his calls: summed below
    where, deals, logw = _enumerate(facts, model, others, plays, terms, count, seed, first_chunk, inv, floor, threads)
    if not np.isfinite(logw.max()):
        return where, deals, logw
    best = float(logw.max())
    after = first_chunk + _chunks(count)
    # The cards that may be the declarer's 10: all but the viewer's 7 as dealt (his gift among them)
    dealt = int(facts.pool[facts.viewer]) & ~(1 << int(facts.gift[facts.viewer]))
    maybe = [c for c in range(24) if not (dealt >> c) & 1]
    index_in = np.zeros(24, dtype=np.int64)
    index_in[maybe] = np.arange(len(maybe))
    memo = np.full(math.comb(len(maybe), 7), np.nan)

    def work(i: int, lo: int, hi: int) -> None:
        state = state_from_sequence(sequence(INFER_WORLDS, seed, after + i))
        sum_talons(state, hi - lo, best, facts.declarer, auction.seat, auction.bid, auction.high, auction.high_seat,
                   auction.dark, auction.free, model.gs, model.rules, model.prm, model.net, model.card_scratch()[0],
                   inv[0], index_in, memo, np.zeros(TALONS), np.zeros(TALONS, dtype=np.int64), deals[lo:hi],
                   logw[lo:hi])

    run_chunks(count, work, size=CHUNK, threads=threads)
    return where, deals, logw


def _enumerate(facts: View, model, auction, plays, terms, count: int, seed: int, first_chunk: int,
               inv: tuple[float, float, float, float], floor: float,
               threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every one of the ``count`` worlds of a sweep of ``facts`` (``world_count``), weighed as
    ``_draw`` weighs drawn worlds, chunk by chunk; a talon never seen drawn from chunk k's own
    stream (numbered from ``first_chunk``), so the same seed gives the same worlds on any number of
    threads."""
    where = np.zeros((count, 3), dtype=np.int64)
    deals = np.zeros((count, 4), dtype=np.int64)
    logw = np.zeros(count)
    head, tail = _kernel_views(facts, model, auction, plays, terms, inv, floor)
    slots = GIFT_SLOTS if hidden_gift(facts) else 1

    def work(i: int, lo: int, hi: int) -> None:
        state = state_from_sequence(sequence(INFER_WORLDS, seed, first_chunk + i))
        lbuf, lidx, pos = model.card_scratch()
        enumerate_worlds(state, lo, hi - lo, slots, *head, lbuf, *tail, lidx, pos, model.gift_scratch(),
                         np.zeros(SCRATCH, dtype=np.int64), where[lo:hi], deals[lo:hi], logw[lo:hi])

    run_chunks(count, work, size=CHUNK, threads=threads)
    return where, deals, logw
