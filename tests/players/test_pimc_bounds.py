"""The exact PIMC player proves its choice from bounds (``pimc_nb.score_world`` and ``settle``)
instead of computing every candidate's value in every world: it must choose exactly what its
naive twin (``tests/reference_pimc.py``: every value computed and summed) chooses from the same
generator state, for cards and for the discard, whatever the number of worlds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import reference_pimc as naive

from sim.game.play_nb import beats, legal_follows
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules, load_rules
from sim.players.pimc_nb import (
    MAX_CANDIDATES,
    PIMC_BUFFER,
    VALUE_CEILING,
    WB_LOWER,
    WB_SUM_LOWER,
    WB_SUM_UPPER,
    WB_UPPER,
    pimc_choose_card,
    pimc_choose_discard,
    record,
    reset_bounds,
    settle,
)
from sim.players.seat_nb import seat_buffers

KNOWN_ANSWERS = Path(__file__).resolve().parent.parent / "known_answers"


def _mask(cards) -> int:
    return int(sum(1 << int(c) for c in cards))


def random_positions(n: int, seed: int, must_head: bool = False) -> list[dict]:
    """Card decisions with a choice, from random deals (8 cards each after the discard) played
    at random for a few tricks, every seat's view as the engine gives it (voids from showing out)."""
    rng = np.random.default_rng(seed)
    out: list[dict] = []
    while len(out) < n:
        deck = rng.permutation(24)
        hands = [_mask(deck[8 * p:8 * p + 8]) for p in range(3)]
        declarer = int(rng.integers(3))
        leader, played, won, voids = declarer, 0, 0, [0, 0, 0]
        stop_trick, stop_k = int(rng.integers(0, 6)), int(rng.integers(0, 3))
        for t in range(stop_trick + 1):
            trick: list[int] = []
            win_card, win_seat = -1, -1
            for k in range(3):
                p = (leader + k) % 3
                legal = hands[p] if k == 0 else int(legal_follows(np.int64(hands[p]), trick[0] // 6,
                                                                  np.int64(win_card), np.int64(-1), must_head))
                if t == stop_trick and k == stop_k:
                    if legal & (legal - 1):
                        out.append({"hands": np.array(hands, dtype=np.int64), "seat": p, "legal": legal,
                                    "cards": np.array(trick + [0] * (3 - k), dtype=np.int64), "k": k,
                                    "leader": leader, "declarer": declarer, "won": won, "played": played,
                                    "voids": np.array(voids, dtype=np.int64)})
                    break
                options = [c for c in range(24) if legal >> c & 1]
                card = options[int(rng.integers(len(options)))]
                if k > 0 and card // 6 != trick[0] // 6:
                    voids[p] |= 1 << (trick[0] // 6)
                if k == 0 or beats(np.int64(card), np.int64(win_card), np.int64(-1)):
                    win_card, win_seat = card, p
                trick.append(card)
                hands[p] &= ~(1 << card)
                played |= 1 << card
            else:
                won |= 1 << win_seat
                leader = win_seat
                continue
            break
    return out


def _card_args(p: dict) -> tuple:
    return (p["hands"], p["seat"], p["legal"], p["cards"], p["k"], p["leader"], -1, -1, -1, p["declarer"], p["won"], 0,
            p["played"], p["voids"], np.zeros(3, dtype=np.int64))


@pytest.mark.parametrize(("rules_name", "worlds"), [("classic", 20), ("classic", 1), ("classic", 70),
                                                     ("strict", 12)])
def test_the_card_is_the_one_every_value_summed_would_choose(rules_name, worlds):
    """70 worlds: more than the kept ones, whose values are all computed."""
    house = load_rules(rules_name)
    rules = house.to_array()
    buffers = seat_buffers(16)
    positions = random_positions(40 if worlds <= 20 else 8, seed=worlds, must_head=house.must_head)
    for i, p in enumerate(positions):
        card, declare = pimc_choose_card(*_card_args(p), worlds, rules, state_from_seed(i, (7,)), *buffers)
        move = naive.pimc_card(*_card_args(p), worlds, rules, state_from_seed(i, (7,)), *buffers)
        assert (card, declare) == (move & 31, bool(move & 32)), f"position {i}: {p}"


def test_the_discard_is_the_one_every_value_summed_would_choose():
    rules = HouseRules().to_array()
    buffers = seat_buffers(16)
    rng = np.random.default_rng(11)
    for i in range(12):
        hand10 = np.int64(_mask(rng.permutation(24)[:10]))
        got = pimc_choose_discard(hand10, np.int64(0), np.int64(0), 20, rules, state_from_seed(i, (9,)), *buffers)
        want = naive.pimc_discard(hand10, np.int64(0), np.int64(0), 20, rules, state_from_seed(i, (9,)), *buffers)
        assert tuple(int(x) for x in got) == want, f"hand {i}"


def _bounds(lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    wbuf = np.zeros(PIMC_BUFFER, dtype=np.int64)
    worlds, n = lower.shape
    reset_bounds(wbuf, n)
    for w in range(worlds):
        for i in range(n):
            record(wbuf, w, i, lower[w, i], upper[w, i])
    return wbuf


def test_settle_proves_the_first_best_or_names_what_to_compute():
    exact = np.array([[30, 20, 30], [40, 10, 40]])
    # Exact sums 70, 30, 70: the first of the tied best is the choice.
    assert tuple(settle(_bounds(exact, exact), 3, True)) == (-1, 0)
    assert tuple(settle(_bounds(exact, exact), 3, False)) == (-1, 1)
    # A maximiser's rival known only to be at most 30 + 40 = 70, as much as the choice's 70, from
    # later in the order: a tie would still go to the choice, so it is proven.
    lower = np.array([[30, 0, 0], [40, 0, 0]])
    upper = np.array([[30, 20, 30], [40, 10, 40]])
    assert tuple(settle(_bounds(lower, upper), 3, True)) == (-1, 0)
    # The same rival first in the order could tie and win: its values must be computed.
    assert tuple(settle(_bounds(lower[:, ::-1], upper[:, ::-1]), 3, True)) == (0, 2)
    # The pessimistic best has bounds itself: its values come first.
    lower = np.array([[30, 50], [40, 0]])
    upper = np.array([[30, 50], [40, 45]])
    assert tuple(settle(_bounds(lower, upper), 2, True)) == (1, 0)
    # A minimiser: the rival at least 31 + 41 = 72 > 70 is proven worse.
    lower = np.array([[30, 31], [40, 41]])
    upper = np.array([[30, VALUE_CEILING], [40, VALUE_CEILING]])
    wbuf = _bounds(lower, upper)
    assert tuple(settle(wbuf, 2, False)) == (-1, 0)
    assert wbuf[WB_SUM_LOWER + 1] == 72 and wbuf[WB_SUM_UPPER] == 70
    assert wbuf[WB_LOWER + MAX_CANDIDATES + 1] == 41 and wbuf[WB_UPPER + 1] == VALUE_CEILING


def test_pimc_deals_are_played_as_the_player_that_computed_every_value(engine_compiled):
    """Known answers: whole deals through the engine (bidding, discards, every card, what each
    seat knows) under three- and two-player rules, as commit ea4b7e1 played them."""
    sys.path.insert(0, str(KNOWN_ANSWERS))
    import make_pimc_deals as make

    for case in json.loads((KNOWN_ANSWERS / "pimc_deals.json").read_text()):
        got = make.play(case["options"], case["players"], case["deals"])
        assert got["plays"] == case["plays"], case["case"]
        assert got["digest"] == case["digest"], case["case"]
