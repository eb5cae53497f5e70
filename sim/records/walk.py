"""A record walked move by move with the rules' own functions (``sim.game.bids_nb``,
``sim.game.play_nb``, the engine's ``auction_nb`` helpers): whose turn each call and card is, which
calls and cards the rules allow (the first that is not is refused in one line naming the record's
line, the seat and the move), who declares, what each seat has seen, and the actions in the order
the engine asks for them, which ``sim.records.replay`` hands to the engine's scripted deal for the
verdict and the scores.

It reads a record's fields only (``rules``, ``hands``, ``talon``, ``auction``, ``gifts``,
``contract``, ``conceded``, ``tricks``, ``before``, ``golden``, ``view`` and ``line``), so that the
record's own module can call it without a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim import InputError
from sim.engine import GameState
from sim.engine.auction_nb import accumulates, anyone_on_barrel, free_talon_seat, talon_shown_to_defenders
from sim.engine.enums import ACCUMULATE_BID_CAP, DARK_CONTRACT, GOLDEN_CONTRACT
from sim.engine.schema import BID_DARK, BID_GOLDEN, BID_NORMAL, BID_UNDARKED
from sim.game import rules_layout as R
from sim.game.bids_nb import allowed_value, bid_range, contract_cap, forced_bid, forced_seat, legal_bid, legal_contract
from sim.game.cards import (
    ACE,
    FULL_DECK,
    KING,
    QUEEN,
    RANKS,
    SUIT_MASK,
    SUITS,
    format_card,
    mask_to_cards,
)
from sim.game.play_nb import (
    LEAD_WITHOUT_DECLARING,
    beats,
    declaration,
    declaring_ranks,
    givable_cards,
    legal_follows,
    legal_leads,
    marriage_total,
)
from sim.game.rules import HouseRules, load_rules
from sim.game.state_layout import G_SCORE
from sim.records.parts import PASS, Call

__all__ = ["DEALER", "RecordError", "Walk", "house_rules", "game_state", "state_of", "walk", "talon_seen",
           "gifts_face_up", "walk_auction"]

DEALER = 2  # the record's seats are first, second, third: the dealer is the third
N = 3
_NAMES = ("first", "second", "third")
_SUIT_WORDS = ("spades", "clubs", "diamonds", "hearts")


class RecordError(InputError):
    """A record written wrongly or describing an impossible deal: one line naming the record's line
    and, for a move, the seat and the move."""


@dataclass
class Walk:
    """What a walk found: the engine's actions in the order it asks for them (each with the record
    part it comes from), the auction's declarer (None: nobody yet, or all passed), winning bid and
    kind (``sim.engine.schema.BID_*``), whether the auction is over, the seat of every card played,
    and how far the record goes."""

    actions: list[tuple[int, str]] = field(default_factory=list)
    declarer: int | None = None
    high: int = 0
    mode: int = BID_NORMAL
    auction_over: bool = False
    all_passed: bool = False
    to_bid: int | None = None  # whose call is next when the auction is not over
    seats: list[list[int]] = field(default_factory=list)
    calls: list[Any] = field(default_factory=list)  # the calls asked of the players (a trace)
    marks: list[bool] = field(default_factory=list)  # with infer_marks: whether each trick's lead declares
    uncontested: bool = False  # the forced seat won the talon with its uncontested forced bid
    contract: int | None = None


def house_rules(rec: Any, base: Path | None = None) -> HouseRules:
    """The record's rules: a preset, or a rules file (a relative path read from ``base``, the
    record file's folder, when it is there). Only the 3-player game is recorded."""
    spec = rec.rules
    if base is not None and not Path(spec).is_absolute() and (base / spec).is_file():
        spec = str(base / spec)
    try:
        rules = load_rules(spec)
    except InputError as exc:
        raise RecordError(f"{rec.line('rules')}{exc}") from None
    if rules.players != N:
        raise RecordError(f"{rec.line('rules')}the rules are for {rules.players} players; a record holds a 3-player "
                        "deal (players = 2 and 4 are not recorded)")
    return rules


def game_state(rec: Any) -> GameState:
    """The game before the deal (``sim.engine.GameState``) from the record's ``before`` and ``golden``."""
    b = rec.before
    return GameState(scores=tuple(s.score for s in b), on_barrel=tuple(s.barrel for s in b),
                     attempts=tuple(s.attempts for s in b), falls=tuple(s.falls for s in b),
                     bolts=tuple(s.bolts for s in b), quiet=tuple(s.passes for s in b),
                     no_wins=tuple(s.nowins for s in b), concessions=tuple(s.concessions for s in b),
                     golden_left=rec.golden)


def state_of(rec: Any) -> np.ndarray:
    """The game state array before the deal (``sim.game.state_layout``)."""
    return game_state(rec).to_array()


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _cards_text(mask: int) -> str:
    return " ".join(format_card(c) for c in sorted(mask_to_cards(mask), key=lambda c: (-(c // 6), -(c % 6))))


def _fail(rec: Any, key: str, text: str) -> RecordError:
    return RecordError(f"{rec.line(key)}{text}")


def walk(rec: Any, rules: HouseRules, *, infer_marks: bool = False) -> Walk:
    """Walk the record through the auction, the talon and gifts, the contract and the tricks as
    far as it goes; raise RecordError at the first move the rules refuse. A seat's view is walked
    as far as its known cards let (a hidden hand's cards are not checked). ``infer_marks`` (a
    full record of the engine's own deal, ``sim.records.trace``): a lead marked ``+`` is one the
    engine took undeclined, and ``Walk.marks`` says which of them declare."""
    r = rules.to_array()
    gs = state_of(rec)
    w = Walk()
    _walk_auction(rec, r, gs, w)
    if not w.auction_over or w.all_passed:
        for key, what in (("gift0", "gifts"), ("contract", "contract"), ("trick0", "play")):
            if key in rec.lines or (key == "gift0" and rec.gifts) or (key == "trick0" and rec.tricks):
                why = "every seat passed: the deal is thrown in" if w.all_passed else \
                    f"the auction is not over ({_NAMES[w.to_bid]} is to call)"
                raise _fail(rec, key, f"{what} before the auction's end: {why}")
        if rec.contract is not None or rec.conceded:
            raise _fail(rec, "contract", "a contract before the auction's end")
        return w
    hands = _walk_talon(rec, r, gs, w)
    if hands is None:
        return w
    _walk_tricks(rec, r, w, hands, infer_marks)
    return w


# ---- the auction -------------------------------------------------------------------------------
def walk_auction(rec: Any, rules: HouseRules, w: Walk, ask: Any) -> None:
    """The record's auction with its calls asked of the players (``ask``: ``_walk_auction``)."""
    _walk_auction(rec, rules.to_array(), state_of(rec), w, ask)


def _walk_auction(rec: Any, r: np.ndarray, gs: np.ndarray, w: Walk, ask: Any = None) -> None:
    """The auction of the record; with ``ask`` (``sim.records.trace``) the calls are not read from
    the record but asked of the players as the engine asks them (``ask.dark(seat)``,
    ``ask.bid(seat, least, cap, high_seat, dark)``, in the record's seats) and kept in ``w.calls``."""
    calls = list(rec.auction) if ask is None else w.calls
    hands = [h if _count(h) == 7 else None for h in rec.hands]
    opener = int(forced_seat(DEALER, N, r))
    mode = BID_NORMAL
    i = 0  # the next call of the record

    def have(k: int, make) -> bool:  # whether call k exists; asked of the players first when tracing
        if ask is not None and k == len(calls):
            calls.append(make())
        return k < len(calls)

    if rec.golden > 0:
        mode = BID_GOLDEN
    elif r[R.DARK_GAME] and not anyone_on_barrel(gs) and (
            not r[R.DARK_MIN_ON] or gs[G_SCORE + opener] >= r[R.DARK_MIN_SCORE]):
        if ask is not None:
            dark = bool(ask.dark(opener))
        else:
            dark = bool(calls) and calls[0].seat == opener and calls[0].bid == -1
        w.actions.append((1 if dark else 0, "call0"))
        if dark:
            mode = BID_DARK
    for k, call in enumerate(calls):
        if call.bid == -1 and not (k == 0 and mode == BID_DARK):
            why = ("only the forced seat (" + _NAMES[opener] + "), as its first call," if call.seat != opener or k
                   else "not under these rules or in this situation (dark_game, dark_min_score, a seat on the barrel, "
                        "the golden round)")
            raise _fail(rec, f"call{k}", f"{_NAMES[call.seat]} goes dark: {why} may go dark")
    w.mode = mode
    if mode == BID_GOLDEN:
        if calls:
            raise _fail(rec, "call0", f"a golden-round deal has no auction: {_NAMES[(DEALER + 1) % N]} plays "
                                      f"{GOLDEN_CONTRACT}, doubled")
        w.declarer, w.high, w.auction_over = (DEALER + 1) % N, GOLDEN_CONTRACT, True
        return
    free = int(free_talon_seat(gs, r))
    if free >= 0 and mode != BID_DARK:
        if calls:
            raise _fail(rec, "call0", f"{_NAMES[free]} sits on the barrel and takes the talon without an auction "
                                      "(barrel_talon_free, barrel_forced_last): there are no calls")
        high = int(r[R.BARREL_MIN_CONTRACT])
        if accumulates(gs, r, free):
            high = min(high, ACCUMULATE_BID_CAP)
        w.declarer, w.high, w.auction_over = free, high, True
        return
    active = [True] * N
    n_active = N
    high, high_seat = 0, -1
    still_dark = mode == BID_DARK
    p = (DEALER + 1) % N
    if still_dark or r[R.FORCED_FIRST_BID]:
        high = DARK_CONTRACT if still_dark else int(forced_bid(gs, r, opener))
        high_seat = opener
        want = -1 if still_dark else high
        if not have(0, lambda: Call(opener, want)):
            w.to_bid = opener
            return
        if calls[0].seat != opener or calls[0].bid != want:
            raise _fail(rec, "call0", f"the auction opens with {_NAMES[opener]}'s forced bid {high} "
                                      f"(forced_first_bid), not {_NAMES[calls[0].seat]} {_bid_word(calls[0].bid)}")
        i = 1
        p = (opener + 1) % N
    while n_active > 1 or (n_active == 1 and high_seat < 0):
        if active[p]:
            if high_seat < 0 and n_active == 1 and r[R.ALL_PASS]:
                high, high_seat = int(forced_bid(gs, r, p)), p
                if have(i, lambda p=p, high=high: Call(p, high)):
                    if calls[i].seat != p or calls[i].bid != high:
                        raise _fail(rec, f"call{i}", f"the others passed: {_NAMES[p]} (the dealer) plays at his "
                                                     f"forced bid {high} (all_pass = dealer_plays), not "
                                                     f"{_NAMES[calls[i].seat]} {_bid_word(calls[i].bid)}")
                    i += 1
                break
            hand = hands[p] if hands[p] is not None else FULL_DECK
            least, cap = (int(x) for x in bid_range(hand, p, high, high_seat, still_dark, gs, r))
            silenced = r[R.SILENCE_ON] and gs[G_SCORE + p] < r[R.SILENCE_BELOW]
            def ask_bid(p=p, least=least, cap=cap, high_seat=high_seat, dark=still_dark, silenced=silenced):
                return (Call(p, PASS if silenced else int(ask.bid(p, least, cap, high_seat, dark))))
            if not have(i, ask_bid):
                w.to_bid = p
                w.high = high
                return
            call = calls[i]
            key = f"call{i}"
            if call.seat != p:
                raise _fail(rec, key, f"{_NAMES[call.seat]} calls {_bid_word(call.bid)} out of turn: it is "
                                      f"{_NAMES[p]}'s turn")
            bid = call.bid
            if silenced:
                if bid != 0:
                    raise _fail(rec, key, f"{_NAMES[p]} bids {bid}, but a seat below silence_below "
                                          f"({r[R.SILENCE_BELOW]}) always passes")
            elif bid != 0:
                if not legal_bid(bid, least, cap, r):
                    raise _fail(rec, key, f"{_NAMES[p]} bids {bid}: " + _bid_fault(bid, least, cap, hand, still_dark,
                                                                                    hands[p] is None, r))
                w.actions.append((bid, key))
            else:
                w.actions.append((0, key))
            i += 1
            if bid == 0:
                active[p] = False
                n_active -= 1
                if n_active == 0:
                    w.all_passed = w.auction_over = True
                    break
            else:
                high, high_seat = bid, p
                still_dark = False
        p = (p + 1) % N
    if i < len(calls):
        over = "every seat passed" if w.all_passed else f"{_NAMES[high_seat]} won it with {high}"
        raise _fail(rec, f"call{i}", f"{_NAMES[calls[i].seat]} calls {_bid_word(calls[i].bid)} after the auction "
                                     f"is over ({over})")
    w.auction_over = True
    if not w.all_passed:
        w.declarer, w.high = high_seat, high
        if mode == BID_DARK and not still_dark:
            w.mode = BID_UNDARKED
        w.uncontested = bool(r[R.FORCED_FIRST_BID]) and high_seat == opener and high == forced_bid(gs, r, opener)


def _bid_word(bid: int) -> str:
    return "pass" if bid == 0 else "dark" if bid == -1 else str(bid)


def _bid_fault(bid: int, least: int, cap: int, hand: int, dark: bool, hidden: bool, r: np.ndarray) -> str:
    if dark and marriage_total(hand, r) == 0 and not hidden:
        return "only a hand holding a marriage may overbid a dark game"
    if bid < least:
        return f"below the least bid {least} allowed here"
    if bid > cap:
        return f"above the cap {cap} of the hand (120 + the marriages held" + (
            ", at most bid_ceiling_before_talon" if r[R.BID_CEILING_BEFORE_TALON] else "") + ")"
    if r[R.NO_JUMP_BIDS]:
        return f"a raise is exactly one step here: {least} (no_jump_bids)"
    if not allowed_value(bid, r):
        return f"from {r[R.BID_STEP_10_FROM]} on a bid is a multiple of 10 (bid_step_10_from)"
    return f"off the step: bids go up by {r[R.BID_STEP]} from {least}"


# ---- the talon, the gifts and the contract ----------------------------------------------------
def talon_seen(rec: Any, seat: int, rules: HouseRules) -> bool:
    """Whether ``seat`` saw the talon: once the auction is over, the declarer (he takes it), the
    defenders unless the dark game, the golden round or the rules hide it
    (``auction_nb.talon_shown_to_defenders``)."""
    w = Walk()
    _walk_auction(rec, rules.to_array(), state_of(rec), w)
    if not w.auction_over or w.all_passed:
        return False
    return seat == w.declarer or talon_shown_to_defenders(rules.to_array(), w.mode, np.int64(1), w.uncontested) != 0


def gifts_face_up(rules: HouseRules) -> bool:
    """Whether each defender sees both gifts (not under discard_face_down)."""
    return not rules.discard_face_down


def _walk_talon(rec: Any, r: np.ndarray, gs: np.ndarray, w: Walk) -> list[int] | None:
    """The declarer takes the talon and gives a card to each opponent; then the final contract.
    Returns the hands before the first lead (known cards only in a view), or None when the
    record stops before the play."""
    d = w.declarer
    left, right = (d + 1) % N, (d + 2) % N
    known = rec.talon is not None and _count(rec.hands[d]) == 7
    hand10 = rec.hands[d] | (rec.talon or 0)
    gifts = rec.gifts
    if len(gifts) > 2:
        raise _fail(rec, "gift2", f"a third gift: {_NAMES[d]} gives one card to each opponent")
    for k, g in enumerate(gifts):
        if g.to == d:
            raise _fail(rec, f"gift{k}", f"{_NAMES[d]} gives {_card_word(g.card)} to himself: the declarer gives one "
                                         f"card to each opponent ({_NAMES[left]}, {_NAMES[right]})")
        if k == 1 and g.to == gifts[0].to:
            raise _fail(rec, "gift1", f"a second gift to {_NAMES[g.to]}: the declarer gives one card to each "
                                      "opponent")
        if g.card >= 0:
            if known and not (hand10 >> g.card) & 1:
                raise _fail(rec, f"gift{k}", f"{_NAMES[d]} gives {format_card(g.card)}, which he does not hold (his "
                                             f"hand and the talon: {_cards_text(hand10)})")
            if (rec.hands[g.to] >> g.card) & 1:
                raise _fail(rec, f"gift{k}", f"{format_card(g.card)} is given to {_NAMES[g.to]}, who holds it already")
            if not (givable_cards(np.int64(1) << g.card, r) >> g.card) & 1:
                raise _fail(rec, f"gift{k}", f"{_NAMES[d]} gives {format_card(g.card)}: the rules forbid giving an "
                                             "ace or a ten (no_aces_tens_in_discard)")
    if len(gifts) < 2:
        if rec.contract is not None or rec.conceded or rec.tricks:
            key = "contract" if "contract" in rec.lines else "trick0"
            raise _fail(rec, key, f"{_NAMES[d]}'s gifts are not all given ({len(gifts)} of 2) before the "
                                  + ("contract" if key == "contract" else "play"))
        return None
    by_seat = {g.to: g.card for g in gifts}
    w.actions.append((by_seat[left], f"gift{[g.to for g in gifts].index(left)}"))
    w.actions.append((by_seat[right], f"gift{[g.to for g in gifts].index(right)}"))
    hands = list(rec.hands)
    hands[d] = hand10
    for g in gifts:
        if g.card >= 0:
            hands[d] &= ~(1 << g.card)
            hands[g.to] |= 1 << g.card
    doubled = w.mode in (BID_DARK, BID_GOLDEN)
    if doubled:
        if rec.conceded:
            raise _fail(rec, "contract", f"{_NAMES[d]} concedes a {'dark' if w.mode == BID_DARK else 'golden'} "
                                         "game: it is played, never conceded")
        if rec.contract is not None and rec.contract != w.high:
            raise _fail(rec, "contract", f"the contract of a {'dark' if w.mode == BID_DARK else 'golden'} game is "
                                         f"{w.high}, not {rec.contract}")
        w.contract = w.high
    elif rec.conceded:
        w.actions.append((-1, "contract"))
        w.contract = w.high
    elif rec.contract is not None or rec.tricks:
        contract = w.high if rec.contract is None else rec.contract
        cap = int(contract_cap(hands[d], w.high, r)) if known else 10**6
        if known and accumulates(gs, r, d):
            cap = min(cap, ACCUMULATE_BID_CAP)
        if not legal_contract(contract, w.high, cap, r):
            raise _fail(rec, "contract", f"{_NAMES[d]}'s contract {contract}: " + _contract_fault(contract, w.high,
                                                                                                   cap, r))
        w.actions.append((contract, "contract"))
        w.contract = contract
    else:
        return None
    return hands


def _card_word(card: int) -> str:
    return "?" if card < 0 else format_card(card)


def _contract_fault(contract: int, high: int, cap: int, r: np.ndarray) -> str:
    if contract < high:
        return f"below the winning bid {high}"
    if r[R.NO_RAISE_AFTER_TALON]:
        return f"the contract is the winning bid {high} (no_raise_after_talon)"
    if contract > cap:
        return f"above the cap {cap} of his hand after the talon (120 + the marriages he holds)"
    if not allowed_value(contract, r):
        return f"from {r[R.BID_STEP_10_FROM]} on a contract is a multiple of 10 (bid_step_10_from)"
    return "a contract is a multiple of 5"


# ---- the tricks --------------------------------------------------------------------------------
def _walk_tricks(rec: Any, r: np.ndarray, w: Walk, hands: list[int], infer_marks: bool = False) -> None:
    full = rec.view is None and rec.talon is not None and all(_count(h) == 7 for h in rec.hands)
    if rec.conceded:
        if rec.tricks:
            raise _fail(rec, "trick0", f"{_NAMES[w.declarer]} conceded: no card is played")
        return
    n_tricks = 8
    leader = w.declarer
    trump, trump_owner = -1, -1
    won = [0] * N
    lead_declares = int(declaring_ranks(r))
    last_declaring = n_tricks - r[R.MARRIAGE_MIN_CARDS]
    trump_later = r[R.MARRIAGE_TRUMP_FROM] != 0
    played: dict[int, int] = {}
    # A defender whose gift the viewer did not see (discard_face_down) got one of the declarer's ten
    # cards: a talon card the viewer saw, played by him, was that gift.
    face_down = {g.to for g in rec.gifts if g.card < 0}
    talon = rec.talon or 0
    for t, trick in enumerate(rec.tricks):
        key = f"trick{t}"
        if t >= n_tricks:
            raise _fail(rec, key, f"a trick {t + 1}: a deal has {n_tricks}")
        seats = []
        win_card, win_seat, led_suit = -1, -1, -1
        pending = -1
        for k, play in enumerate(trick):
            p = (leader + k) % N
            c = play.card
            seats.append(p)
            hand = hands[p]
            where = f"trick {t + 1}, {_NAMES[p]}: "
            if c in played:
                raise _fail(rec, key, f"{where}{format_card(c)} was played already in trick {played[c] + 1}")
            played[c] = t
            if not full and p in face_down and (hands[w.declarer] >> c) & 1 and (talon >> c) & 1:
                face_down.discard(p)
                hands[w.declarer] &= ~(1 << c)
                hands[p] |= 1 << c
            if not full and any((hands[q] >> c) & 1 for q in range(N) if q != p):
                holder = next(q for q in range(N) if q != p and (hands[q] >> c) & 1)
                raise _fail(rec, key, f"{where}{format_card(c)} is {_NAMES[holder]}'s card, played out of turn: "
                                      f"it is {_NAMES[p]}'s turn")
            if full and not (hand >> c) & 1:
                holder = next((q for q in range(N) if (hands[q] >> c) & 1), None)
                if holder is not None:
                    raise _fail(rec, key, f"{where}{format_card(c)} is {_NAMES[holder]}'s card, played out of turn: "
                                          f"it is {_NAMES[p]}'s turn")
                raise _fail(rec, key, f"{where}{format_card(c)} is not in {_NAMES[p]}'s hand")
            if full:
                if k == 0:
                    legal = hand
                    if trump >= 0 and (r[R.NO_LEAD_FOREIGN_TRUMP] or r[R.MUST_LEAD_TRUMP]):
                        legal = legal_leads(hand, trump, trump_owner == p, r[R.NO_LEAD_FOREIGN_TRUMP],
                                            r[R.MUST_LEAD_TRUMP])
                else:
                    legal = legal_follows(hand, led_suit, win_card, trump, r[R.MUST_HEAD])
                if not (legal >> c) & 1:
                    raise _fail(rec, key, where + _play_fault(c, k, hand, led_suit, win_card, trump, r))
            if k == 0:
                led_suit, win_card, win_seat = c // 6, c, p
                can_declare = (won[p] > 0 or r[R.MARRIAGE_FIRST_LEAD] != 0) and t <= last_declaring
                if full:
                    bit, new_trump = 0, -1
                    if can_declare and (lead_declares >> c) & 1:
                        _, new_trump, bit = (int(x) for x in declaration(hand, c, r))
                    if infer_marks:
                        w.marks.append(bool(bit) and play.declared)
                        play = type(play)(c, bool(bit) and play.declared)
                    if play.declared and not bit:
                        raise _fail(rec, key, where + f"{format_card(c)}+ declares nothing: "
                                    + _no_declaration(c, hand, won[p], t, last_declaring, r))
                    if bit and not play.declared and not r[R.MARRIAGE_OPTIONAL]:
                        raise _fail(rec, key, where + f"the lead of {format_card(c)} declares the "
                                    f"{_SUIT_WORDS[c // 6]} {_combination(c, hand, r)}: write {format_card(c)}+")
                    declared = bool(bit) and play.declared
                    w.actions.append((c if declared or not bit else c | LEAD_WITHOUT_DECLARING, key))
                else:
                    declared = play.declared
                    if declared and not can_declare:
                        raise _fail(rec, key, where + f"{format_card(c)}+ declares nothing: "
                                    + _no_declaration(c, FULL_DECK, won[p], t, last_declaring, r))
                    new_trump = -1 if c % 6 == ACE else c // 6
                if declared and new_trump >= 0:
                    if trump_later:
                        pending = new_trump
                    else:
                        trump, trump_owner = new_trump, p
            else:
                if play.declared:
                    raise _fail(rec, key, where + f"{format_card(c)}+: only a lead declares")
                if full:
                    w.actions.append((c, key))
                if beats(c, win_card, trump):
                    win_card, win_seat = c, p
            hands[p] = hand & ~(1 << c)
        w.seats.append(seats)
        if len(trick) == N:
            won[win_seat] += 1
            if pending >= 0:
                trump, trump_owner = pending, leader
            leader = win_seat


def _play_fault(c: int, k: int, hand: int, led_suit: int, win_card: int, trump: int, r: np.ndarray) -> str:
    card = format_card(c)
    if k == 0:
        if r[R.NO_LEAD_FOREIGN_TRUMP] and c // 6 == trump:
            return f"leads {card}, a trump another seat declared, while holding other suits (no_lead_foreign_trump)"
        return f"leads {card} while holding trumps ({_SUIT_WORDS[trump]}, must_lead_trump)"
    if hand & SUIT_MASK[led_suit]:
        return (f"plays {card} to a {_SUIT_WORDS[led_suit]} lead while holding {_SUIT_WORDS[led_suit]} "
                f"({_cards_text(hand & SUIT_MASK[led_suit])}): a revoke, following suit is compulsory"
                if c // 6 != led_suit else f"plays {card}, which does not beat {format_card(win_card)} though a "
                                          "card of the suit would (must_head)")
    if trump >= 0 and hand & SUIT_MASK[trump]:
        if c // 6 != trump:
            return (f"plays {card} while void in {_SUIT_WORDS[led_suit]} and holding trumps "
                    f"({_cards_text(hand & SUIT_MASK[trump])}): a revoke, trumping is compulsory")
        return f"plays {card}, which does not beat {format_card(win_card)} though a trump would (must_head)"
    return f"plays {card}, which the rules refuse here"


def _combination(c: int, hand: int, r: np.ndarray) -> str:
    s = c // 6
    if c % 6 == ACE:
        return "four aces"
    if c % 6 in (KING, QUEEN) and (hand >> (6 * s + QUEEN)) & 3 == 3:
        return "marriage"
    return "half marriage"


def _no_declaration(c: int, hand: int, won: int, t: int, last: int, r: np.ndarray) -> str:
    rank = RANKS[c % 6]
    s = c // 6
    if not won and not r[R.MARRIAGE_FIRST_LEAD]:
        return "its leader has won no trick yet (a marriage needs a prior trick; marriage_first_lead)"
    if t > last:
        return f"its leader holds fewer than {r[R.MARRIAGE_MIN_CARDS]} cards (marriage_min_cards)"
    if rank in "KQ" and not (hand >> (6 * s + QUEEN)) & 3 == 3:
        return f"its leader does not hold both the king and the queen of {_SUIT_WORDS[s]}"
    if rank == "A" and r[R.ACE_MARRIAGE]:
        return "its leader does not hold the four aces"
    return f"a {rank}{SUITS[s]} lead declares no combination under these rules"
