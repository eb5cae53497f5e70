"""The ported tysyacha-1000 bot (``sim/players/leadage_nb.py``) decides as its naive twin
(``tests/reference_leadage.py``, written on card names as the TypeScript source is) on thousands
of random positions: hand value, bid, discard, final contract and concession, lead and follow."""

from __future__ import annotations

import numpy as np
import pytest
from reference_leadage import (
    choose_bid,
    choose_card,
    choose_contract,
    choose_discard,
    estimate_points,
    name,
    names,
)

from sim.game.cards import SUITS
from sim.game.play_nb import legal_follows
from sim.game.rng_nb import state_from_seed, uniform
from sim.game.rules import HouseRules
from sim.game.state_layout import G_ON_BARREL, G_SCORE, N_GAME_STATE
from sim.players.leadage_nb import (
    estimate_points as kernel_estimate,
)
from sim.players.leadage_nb import (
    leadage_bid,
    leadage_card,
    leadage_contract,
    leadage_discard,
)
from sim.players.registry import PlayerError, parse_players

RULE_SETS = [HouseRules(), HouseRules(marriage_values=(100, 80, 60, 40), ace_marriage=200, bid_step=10),
             HouseRules(no_jump_bids=True, concede_no_deduction=True, barrel_min_contract=125)]


def values_of(rules: HouseRules) -> dict[str, int]:
    return dict(zip(SUITS, rules.marriage_values, strict=True))


def random_mask(rng, n, exclude=0):
    free = [i for i in range(24) if not exclude >> i & 1]
    return sum(1 << int(i) for i in rng.choice(free, n, replace=False))


@pytest.mark.parametrize("rules", RULE_SETS, ids=["classic", "values-aces-step10", "nojump-nodeduct-125"])
def test_bidding_discard_and_contract_as_the_source(rules):
    rng = np.random.default_rng(7)
    arr = rules.to_array()
    mv = values_of(rules)
    step = rules.bid_step
    for i in range(1500):
        state = state_from_seed(i, (3,))
        gs = np.zeros(N_GAME_STATE, dtype=np.int64)
        gs[G_SCORE:G_SCORE + 3] = rng.choice([0, 300, 600, 880], 3)
        on_barrel = bool(rng.random() < 0.3)
        gs[G_ON_BARREL] = on_barrel
        totals = [int(x) for x in gs[G_SCORE:G_SCORE + 3]]
        hand7 = random_mask(rng, 7)
        assert kernel_estimate(hand7, True, arr) == pytest.approx(estimate_points(names(hand7), True, mv))
        min_raise = int(rng.choice([100, 105, 120, 150]))
        cap = min_raise + step * int(rng.integers(0, 8))
        allowed = [min_raise] if rules.no_jump_bids else list(range(min_raise, cap + 1, step))
        u = uniform(state.copy())
        want = choose_bid(names(hand7), allowed, u, mv, on_barrel, rules.barrel_min_contract, totals[0], totals[1:])
        got = leadage_bid(0, hand7, min_raise, cap, gs, arr, state)
        assert got == (want or 0), (names(hand7), min_raise, cap, u)

        hand10 = random_mask(rng, 10)
        givable = hand10 & ~random_mask(rng, 3) if rng.random() < 0.3 else hand10
        g1, g2 = leadage_discard(hand10, givable, arr)
        assert [name(g1), name(g2)] == choose_discard(names(hand10), names(givable), mv), names(hand10)

        hand8 = random_mask(rng, 8)
        contract = int(rng.choice([100, 110, 120, 140]))
        cap = contract + step * int(rng.integers(0, 6))
        can_concede = bool(rng.random() < 0.7)
        state = state_from_seed(i, (4,))
        u = uniform(state.copy())
        want = choose_contract(names(hand8), list(range(contract, cap + 1, step)), u, mv, on_barrel,
                               rules.barrel_min_contract, can_concede, contract, rules.concede_no_deduction)
        got = leadage_contract(0, hand8, contract, cap, can_concede, gs, arr, state)
        assert got == (-1 if want is None else want), (names(hand8), contract, cap, u)


@pytest.mark.parametrize("rules", RULE_SETS[:2], ids=["classic", "values-aces"])
def test_card_play_as_the_source(rules):
    rng = np.random.default_rng(11)
    arr = rules.to_array()
    mv = values_of(rules)
    for _ in range(6000):
        done = int(rng.integers(0, 8))  # tricks already played
        played = random_mask(rng, 3 * done)
        hand = random_mask(rng, 8 - done, played)
        n_in_trick = int(rng.integers(0, 3))
        on_table = [int(i) for i in rng.choice([i for i in range(24) if not (played | hand) >> i & 1], n_in_trick,
                                               replace=False)]
        for c in on_table:
            played |= 1 << c
        leader = int(rng.integers(0, 3))
        me = (leader + n_in_trick) % 3
        declarer = int(rng.integers(0, 3))
        trump = int(rng.integers(-1, 4))
        trump_owner = (declarer if rng.random() < 0.7 else int(rng.integers(0, 3))) if trump >= 0 else -1
        can_declare = bool(rng.random() < 0.6)
        if n_in_trick:
            win = on_table[0]
            for c in on_table[1:]:
                if (c // 6 == win // 6 and c > win) or (trump >= 0 and c // 6 == trump and win // 6 != trump):
                    win = c
            legal = legal_follows(hand, on_table[0] // 6, win, trump, False)
        else:
            legal = hand
        trick = np.array(on_table + [0] * (3 - n_in_trick), dtype=np.int64)
        got = leadage_card(me, hand, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, played,
                           can_declare, arr)
        want = choose_card(names(hand), names(legal), names(played), [name(c) for c in on_table], me, leader,
                           declarer, SUITS[trump] if trump >= 0 else None, trump_owner, can_declare, mv,
                           bool(rules.ace_marriage))
        assert name(got) == want, (names(hand), [name(c) for c in on_table], trump, me, declarer)


def test_the_bot_refuses_two_players():
    with pytest.raises(PlayerError, match="3 and 4 players only"):
        parse_players("leadage,heuristic", 2)
    assert parse_players("leadage", 4) == ("leadage",) * 4
