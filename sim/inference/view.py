"""What a seat's view of a record says for certain about the hidden cards (docs/inference.md):
where each hidden card may lie now (its own hand, the talon shown, the gifts known, the cards
played, the suits a seat has shown out of, the partners of the marriages declared and of the
leads that declared none), how many each place holds, and what the kernel ``worlds_nb`` needs to
rebuild the deal as dealt from a world. A view no deal can satisfy is refused in one line naming
the facts that conflict (``InputError``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim import InputError
from sim.engine.schema import BID_DARK, BID_GOLDEN
from sim.game import rules_layout as R
from sim.game.cards import ACE, FULL_DECK, JACK, KING, QUEEN, SUIT_MASK, format_card, mask_to_cards
from sim.game.play_nb import beats
from sim.game.rules import HouseRules
from sim.inference.worlds_nb import HIDDEN_GIFT, NO_GIFT
from sim.records.parts import UNKNOWN
from sim.records.record import SEAT_NAMES, Record, cut_point
from sim.records.walk import walk

__all__ = ["View", "view_facts"]

SEATS = 3
HAND = 7
AFTER_TALON = 8  # each seat's cards once the declarer has given his two
_SUIT_WORDS = ("spades", "clubs", "diamonds", "hearts")


@dataclass(frozen=True)
class View:
    """The certain facts of ``viewer``'s view at ``at``, as the kernel reads them (``worlds_nb``):
    ``free`` the hidden cards to shuffle, ``placed``/``takes`` (left, right, talon), ``loc_seat``,
    ``pool``, ``stage``, ``declarer``, ``talon`` (-1 unseen), ``gift``; ``hidden`` every hidden card
    (free or placed), ``locations`` the names of the places (``left``, ``right``, ``talon``), and
    ``facts`` the deductions made, in words."""

    viewer: int
    at: str
    stage: int
    declarer: int
    free: np.ndarray
    placed: np.ndarray
    takes: np.ndarray
    loc_seat: np.ndarray
    pool: np.ndarray
    talon: int
    gift: np.ndarray
    hidden: int
    contract: int  # the final contract to check against the declarer's cap (0: none)
    high: int  # the winning bid
    talon_place: bool  # the talon is a place of hidden cards (before it is taken, unseen)
    facts: tuple[str, ...] = field(default=())


def _bits(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in sorted(mask_to_cards(mask), key=lambda c: (-(c // 6), -(c % 6))))


def view_facts(rec: Record, seat: int, at: str, rules: HouseRules) -> View:
    """The facts of ``seat``'s view of ``rec`` cut at ``at`` (the record may be full or that
    seat's view)."""
    kind, n = cut_point(at)
    at = kind if kind != "trick" else f"trick:{n}"
    cut = rec.cut(at, seat=seat, rules=rules)
    view = cut.seen_by(seat, rules=rules)
    hand = view.hands[seat]
    if _count(hand) != HAND:
        raise InputError(f"seat: the record holds {_count(hand)} of {SEAT_NAMES[seat]}'s cards; inference needs "
                         f"the seat's own {HAND}")
    w = walk(view, rules)
    left, right = (seat + 1) % SEATS, (seat + 2) % SEATS
    if kind == "auction":
        return _before_talon(view, seat, at, left, right)
    if not w.auction_over or w.all_passed or w.declarer is None:
        raise InputError(f"at: {at} lies beyond the record: " + ("every seat passed" if w.all_passed else
                                                                  "its auction is not over"))
    if len(view.gifts) < 2:
        raise InputError(f"at: {at} lies beyond the record: its gifts are not given ({len(view.gifts)} of 2)")
    contract = 0 if view.conceded or w.contract is None or w.mode in (BID_DARK, BID_GOLDEN) else int(w.contract)
    return _after_talon(view, seat, at, left, right, w.declarer, w.seats, rules, contract, int(w.high))


def _before_talon(view: Record, seat: int, at: str, left: int, right: int) -> View:
    hand = view.hands[seat]
    talon = view.talon
    hidden = FULL_DECK & ~hand & ~(talon or 0)
    pool = np.zeros(SEATS, dtype=np.int64)
    pool[seat] = hand
    return View(viewer=seat, at=at, stage=0, declarer=-1, free=np.array(sorted(mask_to_cards(hidden)), dtype=np.int64),
                placed=np.zeros(3, dtype=np.int64),
                takes=np.array([HAND, HAND, 3 if talon is None else 0], dtype=np.int64),
                loc_seat=np.array([left, right, -1], dtype=np.int64), pool=pool,
                talon=-1 if talon is None else talon, gift=np.full(SEATS, NO_GIFT, dtype=np.int64), hidden=hidden,
                contract=0, high=0, talon_place=talon is None)


def _after_talon(view: Record, seat: int, at: str, left: int, right: int, declarer: int, seats: list[list[int]],
                 rules: HouseRules, contract: int, high: int) -> View:
    r = rules.to_array()
    hand = view.hands[seat]
    talon = view.talon
    gift = np.full(SEATS, NO_GIFT, dtype=np.int64)
    for g in view.gifts:
        gift[g.to] = HIDDEN_GIFT if g.card == UNKNOWN else g.card
    known_gifts = _bits(int(g) for g in gift if g >= 0)
    played = [0] * SEATS
    for trick, who in zip(view.tricks, seats, strict=False):
        for play, p in zip(trick, who, strict=False):
            played[p] |= 1 << play.card
    all_played = played[0] | played[1] | played[2]
    pool = np.zeros(SEATS, dtype=np.int64)
    if seat == declarer:
        pool[seat] = (hand | talon) & ~known_gifts
    else:
        pool[seat] = hand | (1 << int(gift[seat]))
    facts: list[str] = []
    for p in (left, right):
        m = played[p]
        if gift[p] >= 0:
            m |= 1 << int(gift[p])
        if p == declarer and talon is not None and HIDDEN_GIFT not in gift:
            m |= talon & ~known_gifts  # the talon's cards not given are his (one may be a gift face down)
        pool[p] = m
    certain = [int(pool[p]) & ~played[p] for p in range(SEATS)]
    hidden = FULL_DECK & ~int(pool[seat]) & ~all_played & ~certain[left] & ~certain[right]
    # Where each hidden card may lie: bans (voids, must_head, a lead that declared nothing) and
    # forced places (a declared marriage's partner).
    banned = {left: 0, right: 0}
    forced = {left: 0, right: 0}
    why: dict[tuple[int, int], str] = {}

    def ban(p: int, cards: int, reason: str) -> None:
        if p == seat:
            return
        new = cards & hidden & ~banned[p]
        for c in mask_to_cards(new):
            why[(p, c)] = reason
        banned[p] |= new

    def force(p: int, cards: int, reason: str) -> None:
        if p == seat:
            return
        new = cards & hidden & ~forced[p]
        for c in mask_to_cards(new):
            why[(p, -1 - c)] = reason
        forced[p] |= new

    trump, pending, won = -1, -1, [0] * SEATS
    last_declaring = 8 - int(r[R.MARRIAGE_MIN_CARDS])
    for t, (trick, who) in enumerate(zip(view.tricks, seats, strict=False)):
        win_card, win_seat, led = -1, -1, -1
        for k, (play, p) in enumerate(zip(trick, who, strict=False)):
            c = play.card
            if k == 0:
                led, win_card, win_seat = c // 6, c, p
                can_declare = (won[p] > 0 or r[R.MARRIAGE_FIRST_LEAD] != 0) and t <= last_declaring
                _lead_facts(c, play.declared, bool(can_declare), p, t, r, ban, force)
                if play.declared and c % 6 != ACE:
                    if r[R.MARRIAGE_TRUMP_FROM]:
                        pending = c // 6
                    else:
                        trump = c // 6
                continue
            s = c // 6
            where = f"trick {t + 1}"
            if s != led:
                ban(p, int(SUIT_MASK[led]), f"{SEAT_NAMES[p]} showed out of {_SUIT_WORDS[led]} ({where})")
                if trump >= 0 and s != trump:
                    ban(p, int(SUIT_MASK[trump]), f"{SEAT_NAMES[p]} did not trump ({where}): no {_SUIT_WORDS[trump]}")
            if r[R.MUST_HEAD] and not beats(c, win_card, trump) and (s == led or s == trump):
                higher = _bits(x for x in mask_to_cards(int(SUIT_MASK[s])) if beats(x, win_card, trump))
                ban(p, higher, f"{SEAT_NAMES[p]} did not beat {format_card(win_card)} ({where}, must_head)")
            if beats(c, win_card, trump):
                win_card, win_seat = c, p
        if len(trick) == SEATS:
            won[win_seat] += 1
            if pending >= 0:
                trump, pending = pending, -1
    locs = (left, right)
    placed = np.zeros(3, dtype=np.int64)
    free: list[int] = []
    for c in mask_to_cards(hidden):
        ok = [p for p in locs if not (banned[p] >> c) & 1 and not any((forced[q] >> c) & 1 for q in locs if q != p)]
        if not ok:
            reasons = [why[(p, c)] for p in locs if (p, c) in why] + [why[(q, -1 - c)] for q in locs
                                                                        if (q, -1 - c) in why]
            raise InputError(f"record: no deal satisfies the view: {format_card(c)} can lie nowhere ("
                             + "; ".join(reasons) + ")")
        if len(ok) == 1:
            placed[locs.index(ok[0])] |= 1 << c
        else:
            free.append(c)
    takes = np.zeros(3, dtype=np.int64)
    for i, p in enumerate(locs):
        size = AFTER_TALON - _count(played[p]) - _count(certain[p])
        takes[i] = size - _count(int(placed[i]))
        if takes[i] < 0:
            reasons = sorted({why.get((p, c), why.get((locs[1 - i], c), "")) for c in mask_to_cards(int(placed[i]))}
                             - {""})
            raise InputError(f"record: no deal satisfies the view: {SEAT_NAMES[p]} holds {size} hidden cards now, "
                             f"but {_count(int(placed[i]))} can lie only there ({'; '.join(reasons)})")
    if takes[0] + takes[1] != len(free):
        raise InputError(f"record: no deal satisfies the view: {len(free)} hidden cards for "
                         f"{takes[0] + takes[1]} places")
    facts.extend(reason for _, reason in sorted(why.items()))
    return View(viewer=seat, at=at, stage=1, declarer=declarer, free=np.array(free, dtype=np.int64), placed=placed,
                takes=takes, loc_seat=np.array([left, right, -1], dtype=np.int64), pool=pool,
                talon=-1 if talon is None else talon, gift=gift, hidden=hidden, contract=contract, high=high,
                talon_place=False,
                facts=tuple(dict.fromkeys(facts)))


def _lead_facts(c: int, declared: bool, can_declare: bool, p: int, t: int, r: np.ndarray, ban, force) -> None:
    """What a lead says of its leader's hand: a declared marriage's partner is his (until he plays
    it); a king or queen led without declaring, where he could have declared and must
    (not marriage_optional), says he held no partner."""
    s, rank = c // 6, c % 6
    half = bool(r[R.HALF_MARRIAGE])
    where = f"trick {t + 1}"
    if declared:
        if rank == KING:
            force(p, 1 << (6 * s + QUEEN), f"{SEAT_NAMES[p]} declared the {_SUIT_WORDS[s]} marriage ({where})")
        elif rank == QUEEN and not half:
            force(p, 1 << (6 * s + KING), f"{SEAT_NAMES[p]} declared the {_SUIT_WORDS[s]} marriage ({where})")
        elif rank == JACK and half:
            force(p, 1 << (6 * s + QUEEN), f"{SEAT_NAMES[p]} declared the {_SUIT_WORDS[s]} half marriage ({where})")
        elif rank == ACE and r[R.ACE_MARRIAGE]:
            force(p, _bits(6 * x + ACE for x in range(4)), f"{SEAT_NAMES[p]} declared the four aces ({where})")
        return
    if not can_declare or r[R.MARRIAGE_OPTIONAL]:
        return
    reason = f"{SEAT_NAMES[p]} led {format_card(c)} declaring nothing ({where})"
    if rank == KING:
        ban(p, 1 << (6 * s + QUEEN), reason)
    elif rank == QUEEN:
        ban(p, (1 << (6 * s + KING)) | ((1 << (6 * s + JACK)) if half else 0), reason)
    elif rank == JACK and half:
        ban(p, 1 << (6 * s + QUEEN), reason)
