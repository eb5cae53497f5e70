"""The deal record (docs/records.md): one 3-player deal as far as a viewer knows it, in a text
form a player writes by hand and a JSON twin (one object a line in a ``.jsonl``), both read and
written here; a record cut at a decision point (``Record.cut``) and restricted to one seat's view
(``Record.seen_by``).

Seats are named by their place from the dealer: ``first`` (the dealer's left, first hand),
``second`` and ``third`` (the dealer). In a record the seats are 0, 1, 2 in that order, so the
engine plays it with dealer 2. A record keeps the line each part was read from
(``Record.line``), which the replay's one-line refusals name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from sim.game.cards import N_CARDS, CardError, format_card, mask_to_cards, parse_card
from sim.game.rules import HouseRules
from sim.records.parts import DARK, PASS, UNKNOWN, Call, Gift, Play, SeatState
from sim.records.walk import RecordError, gifts_face_up, house_rules, talon_seen, walk

__all__ = [
    "FORMAT_VERSION", "SEAT_NAMES", "PASS", "DARK", "UNKNOWN", "RecordError", "SeatState", "Call", "Gift", "Play",
    "Record", "seat_index", "parse_text", "parse_json", "parse_records", "format_text", "format_json", "to_dict",
    "cut_point",
]

FORMAT_VERSION = 1  # records of another version are refused by name
SEAT_NAMES = ("first", "second", "third")  # first hand (the dealer's left), second hand, the dealer
SEATS = 3
HAND_CARDS = 7
TALON_CARDS = 3
_TEXT_HEADER = "thousand record"
_JSON_KEY = "thousand_record"  # the JSON twin's version key
_COUNTERS = ("attempts", "falls", "bolts", "passes", "nowins", "concessions")


@dataclass(frozen=True)
class Record:
    """One deal. ``hands``: each seat's 7 cards before the talon as masks (in a seat's view, 0 for a
    hand it has not seen; a record may hold fewer than 7 known cards); ``talon``: its mask, or None
    when not shown to the viewer; ``auction`` the calls in order, the forced opening bid included;
    ``gifts`` the declarer's two cards given; ``contract`` the final contract (None: not yet
    declared); ``conceded``; ``tricks`` the cards in play order, trick by trick (the last may be
    incomplete in a cut record); ``result`` each seat's score change as recorded (None: not
    recorded). ``view``: the seat whose view the record is, None for a full record."""

    rules: str = "classic"
    hands: tuple[int, int, int] = (0, 0, 0)
    talon: int | None = None
    auction: tuple[Call, ...] = ()
    gifts: tuple[Gift, ...] = ()
    contract: int | None = None
    conceded: bool = False
    tricks: tuple[tuple[Play, ...], ...] = ()
    result: tuple[int, int, int] | None = None
    before: tuple[SeatState, SeatState, SeatState] = (SeatState(), SeatState(), SeatState())
    golden: int = 0  # deals left in the golden round (golden_round): > 0 makes the deal golden
    view: int | None = None
    label: str = ""
    # the line each part was read from, keyed as ``line`` takes them (not compared: two records of one
    # deal are equal however they were written)
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    # ---- where a part was written ---------------------------------------------------------------
    def line(self, key: str) -> str:
        """``"line N: "`` for the part ``key`` (``rules``, ``hand0``, ``talon``, ``call3``,
        ``gift1``, ``contract``, ``trick2``, ``result``, ...), or ``""`` when it was not read from a
        file."""
        n = self.lines.get(key)
        return f"line {n}: " if n else ""

    # ---- what the record holds -------------------------------------------------------------------
    @property
    def cards_played(self) -> int:
        return sum(len(t) for t in self.tricks)

    @property
    def full(self) -> bool:
        """Every hand and the talon are known (a full record, not a seat's view)."""
        return self.view is None and self.talon is not None and all(
            bin(h).count("1") == HAND_CARDS for h in self.hands)

    def cut(self, at: str, seat: int | str | None = None, *, rules: HouseRules | None = None) -> Record:
        """The record as it stood at decision point ``at``: ``auction`` (the auction over, before
        the talon is taken), ``talon`` (the gifts given and the contract declared, before the
        first lead) or ``trick:N`` (before trick N; with ``seat``, before that seat plays in it:
        the cards of trick N played before his). The result is dropped; a point the record does
        not reach is refused. ``rules``: the record's own (read from ``self.rules``) by default."""
        kind, n = cut_point(at)
        if kind == "auction":
            return replace(self, gifts=(), contract=None, conceded=False, tricks=(), result=None)
        if kind == "talon":
            return replace(self, tricks=(), result=None)
        complete = len(self.tricks) - (1 if self.tricks and len(self.tricks[-1]) < SEATS else 0)
        if n - 1 > complete:
            raise RecordError(f"at: the record holds {complete} whole trick(s); trick:{n} lies beyond it")
        tricks = self.tricks[:n - 1]
        if seat is not None:
            who = seat_index(seat, what="seat")
            seats = self.trick_seats(rules=rules)
            if n - 1 < len(seats):
                order = seats[n - 1]
                cards = self.tricks[n - 1]
                leader_order = [(order[0] + k) % SEATS for k in range(SEATS)]
                keep = leader_order.index(who)
                if keep > len(cards):
                    raise RecordError(f"at: the record stops in trick {n} before {SEAT_NAMES[who]}'s turn")
                tricks = tricks + (cards[:keep],)
        return replace(self, tricks=tuple(t for t in tricks if t), result=None)

    def trick_seats(self, *, rules: HouseRules | None = None) -> list[list[int]]:
        """The seat of each card of each trick: the declarer leads the first, each trick's winner
        the next (``sim.records.walk``, with the rules' own functions)."""
        return walk(self, rules or house_rules(self)).seats

    def seen_by(self, seat: int | str, *, rules: HouseRules | None = None) -> Record:
        """What ``seat`` knows of this record: its own hand; the talon when it was shown to it (the
        declarer sees it once he takes it; the defenders unless the rules or the dark or golden
        deal hide it); of the gifts, the declarer both, a defender his own and, with the gifts face
        up, the other; the auction, contract, tricks and result, which are public."""
        who = seat_index(seat, what="seat")
        if self.view is not None and self.view != who:
            raise RecordError(f"seat: the record is {SEAT_NAMES[self.view]}'s view; it holds nothing of "
                              f"{SEAT_NAMES[who]}'s own")
        rules = rules or house_rules(self)
        hands = tuple(h if p == who else 0 for p, h in enumerate(self.hands))
        talon = self.talon if self.talon is not None and talon_seen(self, who, rules) else None
        up = gifts_face_up(rules)
        declarer = walk(self, rules).declarer
        gifts = tuple(g if who in (declarer, g.to) or up else Gift(UNKNOWN, g.to) for g in self.gifts)
        return replace(self, hands=hands, talon=talon, gifts=gifts, view=who)


def cut_point(at: str) -> tuple[str, int]:
    """``auction``, ``talon`` or ``trick:N`` (N from 1 to 8) → (kind, N or 0)."""
    text = str(at).strip().lower()
    if text in ("auction", "talon"):
        return text, 0
    m = re.fullmatch(r"trick:(\d+)", text)
    if m and 1 <= int(m.group(1)) <= 8:
        return "trick", int(m.group(1))
    raise RecordError(f"at must be auction, talon or trick:N with N from 1 to 8, not {at!r}")


def seat_index(name: int | str, *, what: str = "seat", view: int | None = None) -> int:
    """A seat written as ``first``, ``second``, ``third`` (or ``dealer``), ``left``/``right`` of the
    viewer ``view``, or 0..2 → 0..2."""
    if isinstance(name, bool):
        raise RecordError(f"{what} must be first, second or third, not {name!r}")
    if isinstance(name, int):
        if 0 <= name < SEATS:
            return name
        raise RecordError(f"{what} must be first, second or third (0..2), not {name}")
    text = str(name).strip().lower()
    if text in SEAT_NAMES:
        return SEAT_NAMES.index(text)
    if text == "dealer":
        return 2
    if text in ("left", "right"):
        if view is None:
            raise RecordError(f"{what} {name!r}: left and right name seats only in a view (a 'view' line first)")
        return (view + (1 if text == "left" else 2)) % SEATS
    raise RecordError(f"{what} must be first, second or third (or dealer; left or right of the viewer), not {name!r}")


# ---- the text form -----------------------------------------------------------------------------
def _card(word: str, where: str) -> int:
    try:
        return parse_card(word)
    except CardError as exc:
        raise RecordError(f"{where}{exc}") from None


def _cards(text: str, where: str) -> list[int]:
    return [_card(w, where) for w in text.replace(",", " ").split()]


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _int(word: str, where: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise RecordError(f"{where}{what} must be a whole number, not {word!r}") from None


def _bid(word: str, where: str) -> int:
    w = word.lower()
    if w == "pass":
        return PASS
    if w == "dark":
        return DARK
    value = _int(word, where, "a bid (a number, pass or dark)")
    if value <= 0:
        raise RecordError(f"{where}a bid must be above 0, pass or dark, not {word!r}")
    return value


class _Builder:
    """The parts of a record as they are read, with their lines."""

    def __init__(self):
        self.parts: dict[str, Any] = {}
        self.lines: dict[str, int] = {}

    def once(self, key: str, value: Any, line: int, what: str) -> None:
        if key in self.parts:
            raise RecordError(f"line {line}: a second {what} (the first is on line {self.lines[key]})")
        self.parts[key] = value
        self.lines[key] = line


def parse_text(text: str, *, start_line: int = 1) -> Record:
    """A record in the text form (docs/records.md) → Record; a wrong line is refused naming it."""
    b = _Builder()
    version_seen = False
    hands: dict[int, int] = {}
    auction: list[Call] = []
    gifts: list[Gift] = []
    tricks: list[list[Play]] = []
    view: int | None = None
    for n, raw in enumerate(text.splitlines(), start_line):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"line {n}: "
        if not version_seen:
            m = re.fullmatch(r"thousand\s+record\s+(\S+)", body, re.IGNORECASE)
            if not m:
                raise RecordError(f"{where}a record starts with '{_TEXT_HEADER} {FORMAT_VERSION}', not {body!r}")
            _version(m.group(1), where)
            version_seen = True
            continue
        key, _, rest = body.partition(" ")
        key = key.lower().rstrip(":")
        rest = rest.strip()
        if key == "rules":
            if not rest:
                raise RecordError(f"{where}the rules line names no rules: 'rules classic' (a preset or a rules file)")
            b.once("rules", rest, n, "rules line")
        elif key == "view":
            b.once("view", seat_index(rest, what=f"{where}view"), n, "view line")
            view = b.parts["view"]
        elif key == "label":
            b.once("label", rest, n, "label line")
        elif key == "golden":
            b.once("golden", _int(rest, where, "golden (deals left in the golden round)"), n, "golden line")
        elif key == "before":
            b.once("before", _before(rest, where, view), n, "before line")
        elif key in SEAT_NAMES or key in ("dealer", "left", "right"):
            p = seat_index(key, what=f"{where}seat", view=view)
            if p in hands:
                first = b.lines[f"hand{p}"]
                raise RecordError(f"{where}a second hand of {SEAT_NAMES[p]} (the first is on line {first})")
            hands[p] = _cards(rest, where)
            b.lines[f"hand{p}"] = n
        elif key == "talon":
            b.once("talon", _cards(rest, where), n, "talon line")
        elif key in ("bids", "bid", "auction"):
            for item in filter(None, (s.strip() for s in rest.split(","))):
                words = item.split()
                if len(words) != 2:
                    raise RecordError(f"{where}a call is a seat and a bid ('first 100', 'second pass'), not {item!r}")
                b.lines[f"call{len(auction)}"] = n
                auction.append(Call(seat_index(words[0], what=f"{where}seat", view=view), _bid(words[1], where)))
        elif key in ("gifts", "gift", "give"):
            for item in filter(None, (s.strip() for s in rest.split(","))):
                m = re.fullmatch(r"(\S+)\s+to\s+(\S+)", item, re.IGNORECASE)
                if not m:
                    raise RecordError(f"{where}a gift is 'CARD to SEAT' ('JS to second'; '? to third' unseen), "
                                      f"not {item!r}")
                card = UNKNOWN if m.group(1) == "?" else _card(m.group(1), where)
                b.lines[f"gift{len(gifts)}"] = n
                gifts.append(Gift(card, seat_index(m.group(2), what=f"{where}seat", view=view)))
        elif key == "contract":
            b.once("contract", _int(rest, where, "the contract"), n, "contract or concede line")
        elif key == "concede":
            if rest:
                raise RecordError(f"{where}'concede' stands alone on its line, not with {rest!r}")
            b.once("contract", "concede", n, "contract or concede line")
        elif key in ("play", "tricks"):
            if tricks and len(tricks[-1]) < SEATS:
                raise RecordError(f"{where}trick {len(tricks)} on line {b.lines[f'trick{len(tricks) - 1}']} is "
                                  "incomplete: only the last trick of a record may be")
            groups = rest.split("/")
            for i, group in enumerate(groups):
                plays = []
                for word in group.split():
                    declared = word.endswith("+")
                    plays.append(Play(_card(word.rstrip("+"), where), declared))
                if not plays:
                    raise RecordError(f"{where}an empty trick between '/'")
                if len(plays) > SEATS:
                    raise RecordError(f"{where}trick {len(tricks) + 1} has {len(plays)} cards; a trick has {SEATS}")
                if len(plays) < SEATS and i < len(groups) - 1:
                    raise RecordError(f"{where}trick {len(tricks) + 1} has {len(plays)} cards; only the last trick "
                                      "of a record may be incomplete")
                b.lines[f"trick{len(tricks)}"] = n
                tricks.append(plays)
        elif key == "result":
            b.once("result", _result(rest, where, view), n, "result line")
        else:
            raise RecordError(f"{where}unknown line {key!r}: a line starts with rules, view, label, before, golden, "
                              "first, second, third, talon, bids, gifts, contract, concede, play or result")
    if not version_seen:
        raise RecordError(f"an empty record: it starts with '{_TEXT_HEADER} {FORMAT_VERSION}'")
    return _record(b, hands, auction, gifts, tricks)


def _version(word: str, where: str) -> None:
    if str(word) != str(FORMAT_VERSION):
        raise RecordError(f"{where}record format version {word} is not read by this thousand (it reads version "
                          f"{FORMAT_VERSION})")


def _before(text: str, where: str, view: int | None) -> tuple[SeatState, ...]:
    states = [SeatState()] * SEATS
    seen = set()
    for item in filter(None, (s.strip() for s in text.split(","))):
        words = item.split()
        p = seat_index(words[0], what=f"{where}seat", view=view)
        if p in seen:
            raise RecordError(f"{where}{SEAT_NAMES[p]} twice in 'before'")
        seen.add(p)
        if len(words) < 2:
            raise RecordError(f"{where}'before' gives each seat's score ('first 120'), not {item!r}")
        values: dict[str, Any] = {"score": _int(words[1], where, "a score")}
        i = 2
        while i < len(words):
            w = words[i].lower()
            if w == "barrel":
                values["barrel"] = True
                i += 1
            elif w in _COUNTERS and i + 1 < len(words):
                values[w] = _int(words[i + 1], where, w)
                i += 2
            else:
                raise RecordError(f"{where}unknown word {words[i]!r} in 'before': after a seat's score come barrel, "
                                  + ", ".join(f"{c} N" for c in _COUNTERS))
        states[p] = SeatState(**values)
    return tuple(states)


def _result(text: str, where: str, view: int | None) -> tuple[int, ...]:
    out: dict[int, int] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        words = item.split()
        if len(words) != 2:
            raise RecordError(f"{where}a result is a seat and its score change ('first +120'), not {item!r}")
        p = seat_index(words[0], what=f"{where}seat", view=view)
        if p in out:
            raise RecordError(f"{where}{SEAT_NAMES[p]} twice in the result")
        out[p] = _int(words[1], where, "a score change")
    if len(out) != SEATS:
        raise RecordError(f"{where}the result gives every seat's score change "
                          f"(missing: {', '.join(SEAT_NAMES[p] for p in range(SEATS) if p not in out)})")
    return tuple(out[p] for p in range(SEATS))


def _record(b: _Builder, hands: dict[int, list[int]], auction, gifts, tricks) -> Record:
    parts = b.parts
    lines = dict(b.lines)
    if "rules" not in parts:
        raise RecordError("the record names no rules: add a line 'rules classic' (a preset or a rules file)")
    view = parts.get("view")
    masks = []
    for p in range(SEATS):
        cards = hands.get(p, [])
        where = f"line {lines[f'hand{p}']}: " if f"hand{p}" in lines else ""
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise RecordError(f"{where}{format_card(twice)} twice in {SEAT_NAMES[p]}'s hand")
        if len(cards) > HAND_CARDS or (view is None and len(cards) != HAND_CARDS):
            raise RecordError(f"{where or 'the record: '}{SEAT_NAMES[p]} holds {len(cards)} cards; a hand before "
                              f"the talon holds {HAND_CARDS}" + ("" if p in hands else " (no hand line)"))
        masks.append(_mask(cards))
    talon = None
    if "talon" in parts:
        cards = parts["talon"]
        if len(set(cards)) != len(cards) or len(cards) != TALON_CARDS:
            raise RecordError(f"line {lines['talon']}: the talon holds {TALON_CARDS} different cards, "
                              f"not {' '.join(map(format_card, cards))!r}")
        talon = _mask(cards)
    contract = parts.get("contract")
    rec = Record(
        rules=parts["rules"], hands=tuple(masks), talon=talon, auction=tuple(auction), gifts=tuple(gifts),
        contract=None if contract in (None, "concede") else contract, conceded=contract == "concede",
        tricks=tuple(tuple(t) for t in tricks), result=parts.get("result"),
        before=parts.get("before", (SeatState(),) * SEATS), golden=parts.get("golden", 0), view=view,
        label=parts.get("label", ""), lines=lines)
    _check_cards(rec)
    return rec


def _check_cards(rec: Record) -> None:
    """Every card dealt once: no card in two hands or in the talon and a hand, and in a full record
    none missing (the cards played are the walk's: ``sim.records.walk``)."""
    where_held: dict[int, str] = {}
    for key, mask in [(f"hand{p}", h) for p, h in enumerate(rec.hands)] + [("talon", rec.talon or 0)]:
        for c in mask_to_cards(mask):
            if c in where_held:
                first = where_held[c]
                raise RecordError(f"{rec.line(key)}{format_card(c)} is dealt twice: in {_part_name(first)} "
                                  f"({rec.line(first).rstrip(': ') or 'above'}) and in {_part_name(key)}")
            where_held[c] = key
    if rec.full and len(where_held) != N_CARDS:
        missing = [format_card(c) for c in range(N_CARDS) if c not in where_held]
        raise RecordError(f"{rec.line('talon')}the hands and the talon miss {' '.join(missing)}")


def _part_name(key: str) -> str:
    return "the talon" if key == "talon" else f"{SEAT_NAMES[int(key[-1])]}'s hand"


# ---- writing the text form ---------------------------------------------------------------------
def _hand_text(mask: int) -> str:
    cards = sorted(mask_to_cards(mask), key=lambda c: (-(c // 6), -(c % 6)))
    return " ".join(format_card(c) for c in cards)


def _bid_text(bid: int) -> str:
    return "pass" if bid == PASS else "dark" if bid == DARK else str(bid)


def _state_text(s: SeatState) -> str:
    words = [str(s.score)] + (["barrel"] if s.barrel else [])
    words += [f"{c} {getattr(s, c)}" for c in _COUNTERS if getattr(s, c)]
    return " ".join(words)


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


TRICKS_A_LINE = 4


def format_text(rec: Record) -> str:
    """The record in its text form, the canonical one: ``parse_text`` reads it back equal."""
    out = [f"{_TEXT_HEADER} {FORMAT_VERSION}", f"rules {rec.rules}"]
    if rec.view is not None:
        out.append(f"view {SEAT_NAMES[rec.view]}")
    if rec.label:
        out.append(f"label {rec.label}")
    if rec.before != (SeatState(),) * SEATS:
        out.append("before " + ", ".join(f"{SEAT_NAMES[p]} {_state_text(s)}" for p, s in enumerate(rec.before)))
    if rec.golden:
        out.append(f"golden {rec.golden}")
    for p, h in enumerate(rec.hands):
        if h or rec.view is None:
            out.append(f"{SEAT_NAMES[p]:<6} {_hand_text(h)}".rstrip())
    if rec.talon is not None:
        out.append(f"talon  {_hand_text(rec.talon)}")
    if rec.auction:
        out.append("bids " + ", ".join(f"{SEAT_NAMES[c.seat]} {_bid_text(c.bid)}" for c in rec.auction))
    if rec.gifts:
        out.append("gifts " + ", ".join(f"{'?' if g.card == UNKNOWN else format_card(g.card)} to {SEAT_NAMES[g.to]}"
                                        for g in rec.gifts))
    if rec.conceded:
        out.append("concede")
    elif rec.contract is not None:
        out.append(f"contract {rec.contract}")
    for i in range(0, len(rec.tricks), TRICKS_A_LINE):
        out.append("play " + " / ".join(" ".join(format_card(p.card) + ("+" if p.declared else "") for p in trick)
                                        for trick in rec.tricks[i:i + TRICKS_A_LINE]))
    if rec.result is not None:
        out.append("result " + ", ".join(f"{SEAT_NAMES[p]} {_signed(v)}" for p, v in enumerate(rec.result)))
    return "\n".join(out) + "\n"


# ---- the JSON twin -----------------------------------------------------------------------------
_JSON_KEYS = ("thousand_record", "rules", "view", "label", "before", "golden", "hands", "talon", "bids", "gifts",
              "contract", "tricks", "result")


def to_dict(rec: Record) -> dict[str, Any]:
    """The record's JSON object: every key present (null where the record has nothing)."""
    return {
        _JSON_KEY: FORMAT_VERSION,
        "rules": rec.rules,
        "view": None if rec.view is None else SEAT_NAMES[rec.view],
        "label": rec.label,
        "before": {SEAT_NAMES[p]: {"score": s.score, "barrel": s.barrel,
                                   **{c: getattr(s, c) for c in _COUNTERS}} for p, s in enumerate(rec.before)},
        "golden": rec.golden,
        "hands": {SEAT_NAMES[p]: _hand_text(h) for p, h in enumerate(rec.hands)},
        "talon": None if rec.talon is None else _hand_text(rec.talon),
        "bids": [[SEAT_NAMES[c.seat], c.bid if c.bid > 0 else _bid_text(c.bid)] for c in rec.auction],
        "gifts": [["?" if g.card == UNKNOWN else format_card(g.card), SEAT_NAMES[g.to]] for g in rec.gifts],
        "contract": "concede" if rec.conceded else rec.contract,
        "tricks": [[format_card(p.card) + ("+" if p.declared else "") for p in t] for t in rec.tricks],
        "result": None if rec.result is None else {SEAT_NAMES[p]: v for p, v in enumerate(rec.result)},
    }


def format_json(rec: Record) -> str:
    """The record as one line of JSON (the ``.jsonl`` twin of the text form)."""
    return json.dumps(to_dict(rec), separators=(",", ":"), ensure_ascii=False)


def parse_json(data: str | dict, *, line: int = 1) -> Record:
    """One record's JSON object (or its text) → Record; every part's line is ``line`` (its line in
    a ``.jsonl``)."""
    where = f"line {line}: "
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}a record is a JSON object, not {type(data).__name__}")
    if _JSON_KEY not in data:
        raise RecordError(f"{where}a JSON record holds '{_JSON_KEY}': {FORMAT_VERSION} (its format version)")
    _version(data[_JSON_KEY], where)
    unknown = [k for k in data if k not in _JSON_KEYS]
    if unknown:
        raise RecordError(f"{where}unknown key(s) {', '.join(map(repr, unknown))}; a record's keys are "
                          + ", ".join(_JSON_KEYS))
    b = _Builder()

    def put(key, value, what):
        b.once(key, value, line, what)

    def text(value, what) -> str:
        if not isinstance(value, str):
            raise RecordError(f"{where}{what} must be text, not {value!r}")
        return value

    if data.get("rules") is None:
        raise RecordError(f"{where}the record names no rules ('rules': 'classic', a preset or a rules file)")
    if not text(data["rules"], "rules").strip():
        raise RecordError(f"{where}the record's rules are empty ('rules': 'classic', a preset or a rules file)")
    put("rules", data["rules"], "rules")
    view = None
    if data.get("view") is not None:
        view = seat_index(text(data["view"], "view"), what=f"{where}view")
        put("view", view, "view")
    if data.get("label"):
        put("label", text(data["label"], "label"), "label")
    if data.get("golden"):
        put("golden", _json_int(data["golden"], where, "golden"), "golden")
    if data.get("before") is not None:
        states = [SeatState()] * SEATS
        if not isinstance(data["before"], dict):
            raise RecordError(f"{where}'before' maps each seat to its standing")
        for name, value in data["before"].items():
            p = seat_index(name, what=f"{where}before's seat", view=view)
            if not isinstance(value, dict) or any(k not in ("score", "barrel", *_COUNTERS) for k in value):
                raise RecordError(f"{where}before.{name} holds score, barrel, " + ", ".join(_COUNTERS))
            states[p] = SeatState(**{k: (bool(v) if k == "barrel" else _json_int(v, where, f"before.{name}.{k}"))
                                     for k, v in value.items()})
        put("before", tuple(states), "before")
    hands: dict[int, list[int]] = {}
    for name, value in (data.get("hands") or {}).items():
        p = seat_index(name, what=f"{where}hands' seat", view=view)
        hands[p] = _cards(text(value, f"hands.{name}"), where)
        b.lines[f"hand{p}"] = line
    if data.get("talon") is not None:
        put("talon", _cards(text(data["talon"], "talon"), where), "talon")
    auction = []
    for i, call in enumerate(data.get("bids") or []):
        if not (isinstance(call, list) and len(call) == 2):
            raise RecordError(f"{where}bids[{i}] is [seat, bid], not {call!r}")
        b.lines[f"call{i}"] = line
        auction.append(Call(seat_index(call[0], what=f"{where}bids[{i}]", view=view), _bid(str(call[1]), where)))
    gifts = []
    for i, gift in enumerate(data.get("gifts") or []):
        if not (isinstance(gift, list) and len(gift) == 2):
            raise RecordError(f"{where}gifts[{i}] is [card, seat], not {gift!r}")
        b.lines[f"gift{i}"] = line
        gifts.append(Gift(UNKNOWN if gift[0] == "?" else _card(text(gift[0], f"gifts[{i}]"), where),
                          seat_index(gift[1], what=f"{where}gifts[{i}]", view=view)))
    contract = data.get("contract")
    if contract is not None:
        put("contract", contract if contract == "concede" else _json_int(contract, where, "contract"), "contract")
    tricks = []
    for t, trick in enumerate(data.get("tricks") or []):
        if not isinstance(trick, list) or not 1 <= len(trick) <= SEATS:
            raise RecordError(f"{where}tricks[{t}] is a list of 1 to {SEATS} cards, not {trick!r}")
        if len(trick) < SEATS and t < len(data["tricks"]) - 1:
            raise RecordError(f"{where}trick {t + 1} has {len(trick)} cards; only the last may be incomplete")
        b.lines[f"trick{t}"] = line
        tricks.append([Play(_card(text(w, f"tricks[{t}]").rstrip("+"), where), w.endswith("+")) for w in trick])
    if data.get("result") is not None:
        result = data["result"]
        if not isinstance(result, dict):
            raise RecordError(f"{where}'result' maps each seat to its score change")
        put("result", _result(", ".join(f"{k} {v}" for k, v in result.items()), where, view), "result")
    return _record(b, hands, auction, gifts, tricks)


def _json_int(value: Any, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where}{what} must be a whole number, not {value!r}")
    return value


def parse_records(text: str) -> list[Record]:
    """A file's text → its records: one text-form record (it starts with 'thousand record'), or a
    ``.jsonl`` of one JSON object a line (blank lines skipped)."""
    stripped = text.lstrip("\ufeff")
    first = next((ln.strip() for ln in stripped.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    if first.startswith("{"):
        return [parse_json(ln, line=n) for n, ln in enumerate(stripped.splitlines(), 1) if ln.strip()]
    if not first:
        raise RecordError(f"an empty file: a record starts with '{_TEXT_HEADER} {FORMAT_VERSION}' or is a JSON object")
    return [parse_text(stripped)]
