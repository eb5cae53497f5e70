"""The learned player's bids, final contract, concession and dark game: the ladder nets against
their plain twin (``tests/reference_learned.py``), the decisions against the rules' arithmetic
written out here, the playouts they learn from against the game's invariants, and the weights
file that carries them."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_learned as twin

from sim.engine.workspace import new_game_state
from sim.game import rules_layout as R
from sim.game.amounts import THIRD_CONCESSION_PENALTY
from sim.game.rules import HouseRules, preset
from sim.game.state_layout import G_CONCESSIONS, G_ON_BARREL, G_SCORE
from sim.players.heuristic_nb import heuristic_bid, heuristic_contract
from sim.players.layout import H_NET, H_OPPONENT_WEIGHT
from sim.players.learned import bidding_nb, cards_nb
from sim.players.learned import layout as L
from sim.players.learned.weights import WeightsError, bidding_shapes_of, load_weights, pack, save_weights, shapes_of
from sim.players.params import params_matrix

RULE_SETS = {
    "classic": preset("classic"),
    "online": preset("online"),
    "no deduction": HouseRules.from_dict({"concede_no_deduction": True, "round_declarer": True}, source="test"),
    "third penalty": HouseRules.from_dict({"concede_third_penalty": True, "concede_60": True,
                                           "marriage_values": [60, 100, 40, 80], "ace_marriage": 200},
                                          source="test"),
    "scoring variants": HouseRules.from_dict({"declarer_scores": "points", "concede_payout": "half_floor",
                                              "rounding": "ten", "round_declarer": True}, source="test"),
}


def random_arrays(h1=16, h2=8, hb=12, hc=10, seed=0, level=0.0):
    """Card and bidding weights whose hidden units cut both ways; ``level`` shifts the ladder's
    logits (negative: contracts seldom made)."""
    rng = np.random.default_rng(seed)
    out = {k: (rng.standard_normal(s) * 0.3).astype(np.float32) for k, s in shapes_of(h1, h2).items()}
    for k, s in bidding_shapes_of(hb, hc).items():
        out[k] = (rng.standard_normal(s) * (0.6 if k.endswith("W1") else 0.4)).astype(np.float32)
    out["b_b2"][:L.N_LADDER] += np.float32(level)
    out["c_b2"][:L.N_LADDER] += np.float32(level)
    out["b_W2"][:, L.N_LADDER] *= np.float32(0.1)  # values that vary by tens of points, not hundreds
    out["c_W2"][:, L.N_LADDER] *= np.float32(0.1)
    out["b_b2"][L.N_LADDER] = np.float32(0.4)  # points as a defender around 40
    # the defenders' points together: many where contracts are seldom made (a concession may pay)
    out["c_b2"][L.N_LADDER] = np.float32(0.8 if level >= 0 else 1.6)
    return out


def net_of(arrays, dark=(10.0, 20.0)):
    return pack(arrays, {"dark_value": dark[0], "first_hand_value": dark[1]})[None, :]


def learned_seats(rules):
    """(the rules array, parameter rows whose seats play model row 0, learned scratch)."""
    prm = params_matrix(rules=rules)
    prm[:, H_NET] = 0
    return rules.to_array(), prm, cards_nb.new_learned_buffers()[1]


def random_hands(rng, n, size):
    out = []
    for _ in range(n):
        mask = 0
        for c in rng.choice(24, size=size, replace=False):
            mask |= 1 << int(c)
        out.append(mask)
    return out


def compiled_ladder(net, which, hand, rules_array, value):
    lbuf = cards_nb.new_learned_buffers()[1]
    lbuf[:] = np.nan
    x = lbuf[cards_nb.L_DENSE]
    bidding_nb.ladder_inputs(np.int64(hand), rules_array, np.int64(value), x)
    inputs = x[:L.C_N_IN].copy()
    bidding_nb.ladder_forward(net, np.int64(0), np.int64(which), x, lbuf)
    return inputs, lbuf[cards_nb.L_OUT, :L.N_LADDER_OUT].copy()


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_ladder_inputs_and_forward_are_the_twins(name):
    rules_array = RULE_SETS[name].to_array()
    arrays = random_arrays(seed=len(name))
    net = net_of(arrays)
    rng = np.random.default_rng(1)
    worst = 0.0
    cut = []
    for which, prefix, size in ((0, "b", 7), (1, "c", 8)):
        for hand in random_hands(rng, 200, size):
            value = int(rng.integers(-20, 250)) if which else 0
            inputs, out = compiled_ladder(net, which, hand, rules_array, value)
            want_x = twin.ladder_input_vector(hand, rules_array, value)
            assert np.array_equal(inputs.astype(np.float64), want_x.astype(np.float32).astype(np.float64))
            chances, val = twin.ladder_forward(arrays, prefix, want_x)
            worst = max(worst, float(np.abs(out[:L.N_LADDER] - chances).max()), abs(float(out[-1]) - val) / 100)
            assert all(a >= b for a, b in zip(out[:L.N_LADDER - 1], out[1:L.N_LADDER], strict=True))
            cut.append(np.mean(want_x[:L.B_N_IN if which == 0 else L.C_N_IN]
                               @ arrays[prefix + "_W1"].astype(np.float64) + arrays[prefix + "_b1"] > 0))
    assert worst < 1e-5, worst
    assert 0.1 < np.mean(cut) < 0.9  # the ReLUs cut: both sides exercised


def twin_contract(chances, contract, cap, can_concede, defenders, gs, rules, seat, weight):
    """The final contract by the rules' arithmetic: the contract of best expected result on the
    bid grid up to the cap; the barrel's minimum on the barrel when at least half likely; a
    concession when it costs less, counting what it pays the defenders."""
    step = int(rules[R.BID_STEP])
    options = list(range(contract, max(contract, cap) + 1, step))
    values = [twin.contract_worth(chances, c, rules) for c in options]
    best = options[int(np.argmax(values))]
    # The barrel's minimum; on the range barrel what the score lacks to the target (docs/RULES.md "Barrel
    # variants"); with barrel_failed_contract = stays whatever its chance.
    need = int(rules[R.BARREL_MIN_CONTRACT]) if rules[R.BARREL_FREEZE] else max(
        int(rules[R.MIN_BID]), -(-(int(rules[R.TARGET]) - int(gs[G_SCORE + seat])) // 5) * 5)
    if (rules[R.BARREL] and gs[G_ON_BARREL + seat] and best < need <= max(contract, cap)
            and (rules[R.BARREL_FAILED_STAYS] or twin.chance_of(chances, need) >= bidding_nb.MADE_AT_LEAST)):
        best = need
    play = twin.contract_worth(chances, best, rules)
    if can_concede:
        loss = 0 if rules[R.CONCEDE_NO_DEDUCTION] else contract
        if rules[R.CONCEDE_THIRD_PENALTY] and (gs[G_CONCESSIONS + seat] + 1) % 3 == 0:
            loss += THIRD_CONCESSION_PENALTY
        gain = 60 if rules[R.CONCEDE_60] else contract // 2 if rules[R.CONCEDE_HALF_FLOOR] else (contract + 9) // 10 * 5
        if -loss - weight * gain > play - weight * defenders / 2:
            return -1, values, options
    return best, values, options


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("level", [1.5, -1.5])
def test_the_final_contract_is_the_rules_arithmetic_over_the_twins_ladder(name, level):
    rules_array, prm, lbuf = learned_seats(RULE_SETS[name])
    arrays = random_arrays(seed=7, level=level)
    net = net_of(arrays)
    rng = np.random.default_rng(2)
    kinds = set()
    for k, hand in enumerate(random_hands(rng, 300, 8)):
        gs = new_game_state()
        seat = k % 3
        gs[G_CONCESSIONS + seat] = k % 3
        contract = int(rng.choice([100, 110, 120, 140, 170]))
        cap = int(rng.choice([contract, 120, 160, 220, 300]))
        can_concede = bool(k % 4)
        value = int(rng.integers(40, 200))
        prm[seat, H_OPPONENT_WEIGHT] = (0.0, 1.0, 0.5)[k % 3]
        got = bidding_nb.learned_contract(np.int64(seat), np.int64(hand), np.int64(contract), np.int64(cap),
                                          can_concede, np.int64(value), gs, rules_array, prm, net, lbuf)
        chances, defenders = twin.ladder_forward(arrays, "c", twin.ladder_input_vector(hand, rules_array, value))
        want, values, options = twin_contract(chances, contract, cap, can_concede, defenders, gs, rules_array, seat,
                                              prm[seat, H_OPPONENT_WEIGHT])
        if got != want and got >= 0 and want >= 0:  # only a tie within float32 rounding may go either way
            assert abs(values[options.index(got)] - values[options.index(want)]) < 1e-3, (got, want)
        else:
            assert got == want, (name, hand, contract, cap, got, want)
        kinds.add("concede" if got < 0 else "raise" if got > contract else "bid")
    if RULE_SETS[name].declarer_scores == "points" and level > 0:
        # A made contract scores max(contract, points): raising only adds the risk of failing (the
        # value of c + 5 less that of c is 2c(p' - p) + 5p' - 5 <= 0), so the bid is kept.
        assert kinds == {"bid"}, kinds
        return
    assert "bid" in kinds and ("raise" in kinds if level > 0 else "concede" in kinds), kinds


@pytest.mark.parametrize("name", ["classic", "third penalty", "scoring variants"])
def test_a_bid_is_raised_while_declaring_is_worth_defending(name):
    rules_array, prm, lbuf = learned_seats(RULE_SETS[name])
    arrays = random_arrays(seed=11, level=1.2)
    net = net_of(arrays)
    rng = np.random.default_rng(3)
    answers = set()
    for hand in random_hands(rng, 300, 7):
        gs = new_game_state()
        min_raise = int(rng.choice([100, 105, 120, 150]))
        got = bidding_nb.learned_bid(np.int64(0), np.int64(hand), np.int64(1), np.int64(min_raise), np.int64(300),
                                     gs, rules_array, prm, net, lbuf)
        chances, defence = twin.ladder_forward(arrays, "b", twin.ladder_input_vector(hand, rules_array, 0))
        worth = twin.contract_worth(chances, min_raise, rules_array)
        if abs(worth - defence) > 1e-3:
            assert got == (min_raise if worth >= defence else 0)
        answers.add(got > 0)
    assert answers == {True, False}


def test_on_the_barrel_a_bid_is_the_barrels_minimum_or_a_pass():
    rules = preset("classic")
    rules_array, prm, lbuf = learned_seats(rules)
    arrays = random_arrays(seed=5, level=1.0)
    net = net_of(arrays)
    barrel_min = rules.barrel_min_contract
    gs = new_game_state()
    gs[G_ON_BARREL + 0] = 1
    seen = set()
    for hand in random_hands(np.random.default_rng(4), 200, 7):
        got = bidding_nb.learned_bid(np.int64(0), np.int64(hand), np.int64(-1), np.int64(100), np.int64(300), gs,
                                     rules_array, prm, net, lbuf)
        chances, _ = twin.ladder_forward(arrays, "b", twin.ladder_input_vector(hand, rules_array, 0))
        assert got == (barrel_min if twin.chance_of(chances, barrel_min) >= bidding_nb.MADE_AT_LEAST else 0)
        seen.add(got)
    assert seen == {0, barrel_min}


RANGE = {"barrel_freeze": False, "barrel_knock_off": False, "barrel_simultaneous_penalty": False}


@pytest.mark.parametrize("variant", ["stays", "range", "range stays"])
def test_on_the_barrel_under_the_barrel_variants(variant):
    # barrel_failed_contract = stays: failing costs nothing, so the sitter bids his need whenever the cap
    # allows; the range barrel: his need is what his score lacks to the target (950: 50, so the least bid),
    # and short of it a contract worth more than nothing (his defence counts for nothing).
    changes = {"stays": {"barrel_failed_contract": "stays"}, "range": RANGE,
               "range stays": {**RANGE, "barrel_failed_contract": "stays"}}[variant]
    rules = HouseRules.from_dict(changes, source="test")
    rules_array, prm, lbuf = learned_seats(rules)
    arrays = random_arrays(seed=5, level=0.0)  # nets that find some hands worth a contract short of the need
    net = net_of(arrays)
    gs = new_game_state()
    gs[G_ON_BARREL + 0] = 1
    gs[G_SCORE + 0] = 880 if variant == "stays" else 890
    need = 120 if variant == "stays" else 110  # what 890 lacks to 1000
    seen = set()
    for hand in random_hands(np.random.default_rng(4), 200, 7):
        got = bidding_nb.learned_bid(np.int64(0), np.int64(hand), np.int64(-1), np.int64(100), np.int64(300), gs,
                                     rules_array, prm, net, lbuf)
        chances, _ = twin.ladder_forward(arrays, "b", twin.ladder_input_vector(hand, rules_array, 0))
        if "stays" in variant:
            want = need
        elif twin.chance_of(chances, need) >= bidding_nb.MADE_AT_LEAST:
            want = need
        else:
            worth = twin.contract_worth(chances, 100, rules_array)
            if abs(worth) < 1e-3:
                continue
            want = 100 if worth >= 0 else 0
        assert got == want, (variant, got, want)
        seen.add(got)
    assert seen == ({need} if "stays" in variant else {0, 100, need}), seen


def test_without_bidding_nets_it_bids_and_raises_as_the_heuristic():
    rules_array, prm, lbuf = learned_seats(preset("classic"))
    arrays = {k: v for k, v in random_arrays(seed=3).items() if k.startswith("q_")}
    net = pack(arrays)[None, :]
    gs = new_game_state()
    for hand in random_hands(np.random.default_rng(6), 100, 8):
        h7 = np.int64(hand & ~(1 << (hand.bit_length() - 1)))
        assert bidding_nb.learned_bid(np.int64(0), h7, np.int64(1), np.int64(105), np.int64(300), gs, rules_array,
                                      prm, net, lbuf) == heuristic_bid(0, h7, 1, 105, 300, gs, rules_array, prm)
        assert bidding_nb.learned_contract(np.int64(0), np.int64(hand), np.int64(100), np.int64(200), True,
                                           np.int64(90), gs, rules_array, prm, net, lbuf) == heuristic_contract(
            0, np.int64(hand), 100, 200, True, gs, rules_array, prm)


def test_the_dark_game_follows_the_files_two_figures():
    rules_array, prm, _ = learned_seats(HouseRules.from_dict({"dark_game": True}, source="test"))
    gs = new_game_state()
    arrays = random_arrays(seed=8)
    assert bidding_nb.learned_dark(np.int64(0), gs, rules_array, prm, net_of(arrays, dark=(30.0, 20.0))) == 1
    assert bidding_nb.learned_dark(np.int64(0), gs, rules_array, prm, net_of(arrays, dark=(10.0, 20.0))) == 0


def test_bidding_nets_round_trip_and_a_bad_one_is_refused_in_one_line(tmp_path):
    arrays = random_arrays(seed=4)
    npz = tmp_path / "w.npz"
    save_weights(npz, arrays, {"bidding": {"dark_value": -5.0, "first_hand_value": 12.5}})
    net, meta = load_weights(npz)
    assert np.array_equal(net, pack(arrays, meta["bidding"])) and meta["bidding"]["hidden"] == [12, 10]
    assert net[L.NET_BIDDING] == L.net_size(16, 8) and net.size == L.net_size(16, 8) + L.bidding_size(12, 10)
    wrong = dict(arrays, c_b1=np.zeros(3, dtype=np.float32))
    bad = tmp_path / "bad.npz"
    save_weights(bad, wrong, {"bidding": {"dark_value": 0.0, "first_hand_value": 0.0}})
    manifest = json.loads((tmp_path / "bad.json").read_text())
    assert manifest["bidding"]["hidden"] == [12, 10]
    with pytest.raises(WeightsError) as e:
        load_weights(bad)
    assert "array c_b1" in str(e.value) and "\n" not in str(e.value)


# ---- the playouts ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def playouts():
    from sim.players.learned.weights import DEFAULT_WEIGHTS, weights_matrix
    from sim.training.bidding import generate_playouts

    net = weights_matrix([DEFAULT_WEIGHTS])[0]
    return {name: (rules, generate_playouts(rules, 5, 1, 150, net)) for name, rules in
            (("classic", preset("classic")), ("third penalty", RULE_SETS["third penalty"]))}


def test_playouts_keep_the_games_invariants(playouts):
    from sim.game.play_nb import givable_cards
    from sim.training import bidding_nb as O

    for _, (rules, rows) in playouts.items():
        assert len(rows) == 450
        for d in range(150):
            deal = rows[3 * d:3 * d + 3]
            assert len({int(r[O.O_TALON]) for r in deal}) == 1
            hands = [int(r[O.O_HAND]) for r in deal]
            talon = int(deal[0, O.O_TALON])
            assert sum(h.bit_count() for h in hands) == 21 and (hands[0] | hands[1] | hands[2] | talon) == (1 << 24) - 1
            for r in deal:
                ten = int(r[O.O_HAND]) | talon
                g1, g2 = int(r[O.O_GIFT]), int(r[O.O_GIFT + 1])
                assert g1 != g2 and (givable_cards(np.int64(ten), rules.to_array()) >> g1) & 1
                assert int(r[O.O_KEPT]) == ten & ~(1 << g1) & ~(1 << g2)
                assert r[O.O_CARD_POINTS:O.O_CARD_POINTS + 3].sum() == 120
                assert all(m % 20 == 0 and m >= 0 for m in r[O.O_MARRIAGE_POINTS:O.O_MARRIAGE_POINTS + 3])


def test_playout_targets_are_the_rules_rounding_and_the_defenders_mean(playouts):
    from sim.training import bidding_nb as O
    from sim.training.bidding import LADDER, bidding_rows

    rules, rows = playouts["classic"]
    d = bidding_rows(rows, rules.to_array())
    for i in range(0, 300, 7):
        x = int(rows[i, O.O_CARD_POINTS] + rows[i, O.O_MARRIAGE_POINTS])
        assert list(d["ladder"][i]) == [1.0 if x >= c else 0.0 for c in LADDER]
        deal, seat = divmod(i, 3)
        mine = [twin.round5(int(rows[3 * deal + q, O.O_CARD_POINTS + (seat - q) % 3]
                                + rows[3 * deal + q, O.O_MARRIAGE_POINTS + (seat - q) % 3]))
                for q in range(3) if q != seat]
        assert d["b_value"][i] == pytest.approx(sum(mine) / 2)
        assert d["c_value"][i] == sum(twin.round5(int(rows[i, O.O_CARD_POINTS + k] + rows[i, O.O_MARRIAGE_POINTS + k]))
                                      for k in (1, 2))
    # Under another rounding (docs/RULES.md "Scoring variants") the same rows give its targets.
    polish = HouseRules(rounding="ten", round_declarer=True).to_array()
    d = bidding_rows(rows, polish)
    for i in range(0, 300, 7):
        x = int(rows[i, O.O_CARD_POINTS] + rows[i, O.O_MARRIAGE_POINTS])
        assert list(d["ladder"][i]) == [1.0 if twin.rounded(x, polish) >= c else 0.0 for c in LADDER]
        assert d["c_value"][i] == sum(twin.rounded(int(rows[i, O.O_CARD_POINTS + k] + rows[i, O.O_MARRIAGE_POINTS + k]),
                                                   polish) for k in (1, 2))


def test_playouts_are_a_pure_function_of_their_arguments(playouts):
    from sim.players.learned.weights import DEFAULT_WEIGHTS, weights_matrix
    from sim.training.bidding import generate_playouts

    rules, rows = playouts["classic"]
    again = generate_playouts(rules, 5, 1, 150, weights_matrix([DEFAULT_WEIGHTS])[0])
    assert np.array_equal(rows, again)
