"""Known-answer tests: hand-written deals and game situations whose expected results were
computed by hand from RULES.md and docs/RULES.md (never from the engine), read from
``tests/known_answers/*.toml`` and run through the engine's known-answer API.

``deals.toml`` is a library of deals (hands, talon, dealer) and play scripts (the 24 cards in
play order) that the case files name; every other file holds ``[[case]]`` tables. A case's
``kind`` says what it runs: ``deal`` (play_scripted_deal), ``deals`` (scripted deals in a row, each
from the game state the one before left, each checked), ``game`` (settle_deal over one or more
deals, each checked), ``legal`` (legal_cards) or ``cap`` (bidding_cap). Expected values name only
what the case is about; per-seat columns of a deal record are written as lists of one entry per seat
(three, four with players = 4, two with players = 2)
(``marriages`` as letters: S C D H a marriage, s c d h a half marriage, A the four aces; the masks
``talon``, ``other_talon``, ``buried`` as cards, ``talon_card`` as a card, "" for none). A
2-player deal of the library also names its ``other_talon``; its play script holds 20 cards (18
with two_player_talon = 3).
Every completed scripted deal is also replayed by the reference of tests/reference_game.py (a
``deals`` case's rows are also settled by it, from the same game state). A ``game`` step may give
``card_points``, ``marriage_points`` and ``tricks`` (what each seat took), for the rules that read them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import reference_game as ref

from sim.engine import GameState, IllegalAction, bidding_cap, legal_cards, play_scripted_deal, settle_deal
from sim.engine.schema import EVENT_NAMES
from sim.game.cards import SUITS, parse_card, parse_cards, parse_hand
from sim.game.rules import HouseRules

HERE = Path(__file__).parent.parent / "known_answers"
LIBRARY = tomllib.loads((HERE / "deals.toml").read_text(encoding="utf-8"))
EVENT_BITS = {name: bit for bit, name in EVENT_NAMES.items()}


def _load_cases() -> list:
    cases, seen = [], set()
    for path in sorted(HERE.glob("*.toml")):
        if path.name == "deals.toml":
            continue
        for case in tomllib.loads(path.read_text(encoding="utf-8")).get("case", []):
            name = case["name"]
            assert name not in seen, f"duplicate case name {name!r} in {path.name}"
            seen.add(name)
            marks = [pytest.mark.xfail(strict=True, reason=case["xfail"])] if "xfail" in case else []
            cases.append(pytest.param(case, id=name, marks=marks))
    return cases


def _rules(case: dict) -> HouseRules:
    return HouseRules.from_dict(case.get("rules", {}), source=case.get("name", "case"))


def _state(values: dict | None) -> GameState:
    return GameState(**{key: tuple(v) if isinstance(v, list) else v for key, v in (values or {}).items()})


def _events(names: list[list[str]]) -> list[int]:
    return [sum(EVENT_BITS[n] for n in seat) for seat in names]


def _check_state(got: GameState, want: dict, where: str) -> None:
    for key, value in want.items():
        got_value = getattr(got, key)
        assert (list(got_value) if isinstance(value, list) else got_value) == value, f"{where}: state {key}"


def _card_or_none(value) -> int:
    return -1 if value in ("", -1) else parse_card(value)


def _marriage_bits(text: str) -> int:
    """The ``marriages`` column from letters: a suit letter (S C D H) its marriage (bit s), a
    lowercase one its half marriage (bit 4 + s), ``A`` the four aces (bit 8)."""
    bits = 0
    for letter in text:
        if letter == "A":
            bits |= 1 << 8
        elif letter in SUITS:
            bits |= 1 << SUITS.index(letter)
        else:
            bits |= 1 << (4 + SUITS.index(letter.upper()))
    return bits


# Per-seat record columns whose file notation differs from the stored integers.
_SEAT_CONVERT = {
    "gift": _card_or_none,
    "marriages": _marriage_bits,
    "bolt": int,
}
# Record columns of one value written as cards: masks as hands, the talon card as a card ("" = -1).
_SCALAR_CONVERT = {
    "talon": parse_hand,
    "other_talon": parse_hand,
    "buried": parse_hand,
    "talon_card": _card_or_none,
}


def _script(case: dict) -> list:
    actions = list(case.get("actions", []))
    if "play" in case:
        actions += parse_cards(LIBRARY["plays"][case["play"]].replace("|", " "))
    if "swap" in case:
        step, action = case["swap"]
        actions[step] = action
    return actions


def _cards_played(rules: HouseRules) -> int:
    """Cards of a played deal: 24, or with two players ten (nine) tricks of two."""
    return 2 * (12 - rules.two_player_talon) if rules.players == 2 else 24


def _deal_kwargs(case: dict, state: GameState | None = None) -> dict:
    """play_scripted_deal's arguments for a deal case (the library's deal, the case's script), from
    ``state`` or else the case's own."""
    deal = LIBRARY["deals"][case["deal"]]
    return dict(hands=deal["hands"], talon=deal["talon"], other_talon=deal.get("other_talon"),
                dealer=case.get("dealer", deal["dealer"]), actions=_script(case), rules=_rules(case),
                state=_state(case.get("state")) if state is None else state)


def _check_deal(row: dict, plays: list[int], state: GameState, kwargs: dict, expect: dict, where: str) -> None:
    for key, want in expect.get("row", {}).items():
        if isinstance(want, list):
            convert = _SEAT_CONVERT.get(key, lambda v: v)
            want_ints = _events(want) if key == "events" else [convert(v) for v in want]
            assert [row[f"{key}{p}"] for p in range(len(want))] == want_ints, f"{where}: column {key}"
        else:
            assert row[key] == _SCALAR_CONVERT.get(key, lambda v: v)(want), f"{where}: column {key}"
    # Every completed deal: the record's plays are the scripted cards (then -1s with two players),
    # or none for a concession.
    n = _cards_played(kwargs["rules"])
    cards = [a if isinstance(a, int) else parse_card(a) for a in kwargs["actions"][-n:]] + [-1] * (24 - n)
    assert plays == ([-1] * 24 if row["conceded"] or row["redeal"] else cards), f"{where}: plays"
    _check_state(state, expect.get("state", {}), where)


def run_deal(case: dict) -> None:
    kwargs = _deal_kwargs(case)
    expect = case["expect"]
    if "illegal_step" in expect:
        with pytest.raises(IllegalAction) as info:
            play_scripted_deal(**kwargs)
        assert info.value.step == expect["illegal_step"], str(info.value)
        return
    row, plays, state = play_scripted_deal(**kwargs)
    _check_deal(row, plays, state, kwargs, expect, "after the deal")


def run_deals(case: dict) -> None:
    """``[[case.step]]`` deals (each a deal case's ``deal``, ``actions``, ``play``, ``expect``) under
    the case's rules, the first from the case's state, each next one from the state the last left.
    The reference settles the same rows from the same state (its own bolt, pass and barrel counts)."""
    rules, state = _rules(case), _state(case.get("state"))
    seats = [ref.SeatState(score=state.scores[p], on_barrel=state.on_barrel[p], attempts=state.attempts[p],
                           falls=state.falls[p], bolts=state.bolts[p], quiet=state.quiet[p],
                           no_wins=state.no_wins[p])
             for p in range(rules.players)]
    game = ref.GameCounters()
    for i, step in enumerate(case["step"]):
        kwargs = _deal_kwargs({**step, "rules": case.get("rules", {})}, state)
        row, plays, state = play_scripted_deal(**kwargs)
        _check_deal(row, plays, state, kwargs, step["expect"], f"deal {i + 1}")
        record = {"game": 0, "deal": i, **row, "plays": plays}
        ref.replay_deal(record, rules)
        ref.settle_deal(record, seats, rules, game)


def run_game(case: dict) -> None:
    rules, state = _rules(case), _state(case.get("state"))
    for i, step in enumerate(case["step"]):
        bolts = step.get("bolts")
        state, out = settle_deal(state=state, declarer=step["declarer"], contract=step["contract"],
                                 made=step["made"], results=tuple(step["results"]),
                                 bolts=None if bolts is None else tuple(bolts),
                                 conceded=step.get("conceded", False), rules=rules, dealer=step.get("dealer"),
                                 card_points=_optional_tuple(step.get("card_points")),
                                 marriage_points=_optional_tuple(step.get("marriage_points")),
                                 tricks=_optional_tuple(step.get("tricks")))
        want = step["expect"]
        where = f"deal {i + 1}"
        assert out["change"] == want["change"], f"{where}: change"
        assert out["score"] == want["score"], f"{where}: score"
        if "events" in want:
            assert out["events"] == _events(want["events"]), f"{where}: events"
        assert out["winner"] == want.get("winner", -1), f"{where}: winner"
        _check_state(state, want.get("state", {}), where)


def _optional_tuple(values: list | None) -> tuple | None:
    return None if values is None else tuple(values)


def run_legal(case: dict) -> None:
    trump = case.get("trump")
    got = legal_cards(case["hand"], trick=case.get("trick", []),
                      trump=None if trump is None else SUITS.index(trump), rules=_rules(case))
    assert got == parse_hand(case["expect"])


def run_cap(case: dict) -> None:
    assert bidding_cap(case["hand"], _rules(case)) == case["expect"]


RUNNERS = {"deal": run_deal, "deals": run_deals, "game": run_game, "legal": run_legal, "cap": run_cap}


@pytest.mark.parametrize("case", _load_cases())
def test_known_answer(case):
    RUNNERS[case["kind"]](case)


def _completed_deals() -> list:
    return [p for p in _load_cases() if p.values[0]["kind"] == "deal" and "illegal_step" not in p.values[0]["expect"]
            and not p.marks]


@pytest.mark.parametrize("case", _completed_deals())
def test_reference_replays_known_deal(case):
    # The pure-Python reference (tests/reference_game.py) must accept every completed scripted deal
    # whose hand-computed answers the engine matches: a check of the reference itself.
    kwargs = _deal_kwargs(case)
    row, plays, _ = play_scripted_deal(**kwargs)
    ref.replay_deal({"game": 0, "deal": 0, **row, "plays": plays}, kwargs["rules"])
