"""Player strength checks on small samples (the figures for reports come from full runs)."""

import numpy as np
import polars as pl

from analysis.stats import wilson_interval
from sim.engine import BatchSpec, play_chunk
from sim.engine.workspace import new_game_state
from sim.game.rules import HouseRules, preset
from sim.players.heuristic_nb import heuristic_contract
from sim.players.layout import H_RISK
from sim.players.params import HeuristicParams, params_matrix


def test_heuristic_beats_random_by_a_wide_margin():
    _, games = play_chunk(BatchSpec(mode="games", n=200, seed=5, chunk_size=200,
                                    players=("random", "heuristic", "random")), 0)
    wins = int((games["winner"] == 1).sum())
    lo, _ = wilson_interval(wins, games.height)
    assert lo > 0.9, f"heuristic won {wins} of {games.height}"


def test_heuristic_declarer_makes_most_contracts_it_plays():
    deals, _ = play_chunk(BatchSpec(mode="deals", n=20_000, seed=2, chunk_size=20_000), 0)
    played = deals.filter(~pl.col("conceded"))
    made = int(played["made"].sum())
    lo, hi = wilson_interval(made, played.height)
    # A careful club player makes roughly two contracts in three; a reckless one far fewer.
    assert 0.55 < lo and hi < 0.85, (lo, hi)
    # Contracts above the forced minimum are bid on purpose and should mostly succeed.
    chosen = played.filter(pl.col("contract") >= 110)
    assert chosen["made"].mean() > 0.7


def test_params_record_reaches_every_seat():
    m = params_matrix(HeuristicParams(risk=33.0))
    assert m.shape[0] == 3 and (m[:, H_RISK] == 33.0).all()


def test_params_by_seat_reach_their_seats_in_every_player_count():
    from sim.game.rules import HouseRules

    by_seat = tuple(HeuristicParams(risk=float(s)) for s in range(4))
    m4 = params_matrix(by_seat, HouseRules(players=4))
    assert m4.shape[0] == 12  # a block of three slots for each first hand
    for k in range(4):
        for s in range(3):
            assert m4[3 * k + s, H_RISK] == (s + k) % 4
    m2 = params_matrix(by_seat[:2], HouseRules(players=2))
    assert list(m2[:2, H_RISK]) == [0.0, 1.0]
    assert BatchSpec(mode="deals", n=1, params=(HeuristicParams(),) * 3).params == HeuristicParams()


def test_a_seat_that_never_bids_never_raises_in_the_four_player_game():
    from sim.game.rules import HouseRules

    never = HeuristicParams(risk=1000.0, barrel_risk=1000.0, dark_deficit=1e9)
    spec = BatchSpec(mode="games", n=40, chunk_size=40, seed=3, rules=HouseRules(players=4),
                     params=(HeuristicParams(),) * 3 + (never,))
    deals, _ = play_chunk(spec, 0)
    declared = deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))
    mine = declared.filter(pl.col("declarer") == 3)
    assert mine.height > 0 and (mine["winning_bid"] == spec.rules.min_bid).all()  # only the forced bid
    others = declared.filter(pl.col("declarer") != 3)
    assert (others["winning_bid"] > spec.rules.min_bid).sum() > 50


def test_every_player_plays_the_marriage_timing_options_legally():
    """marriage_min_cards and marriage_trump_from (issue 28 item 10): every player, with three seats
    and with two, plays only legal cards (the engine refuses any other, raising), every deal's card
    points come to 120, and marriages are still declared. (The reference replay of
    tests/engine/test_invariants.py checks each card and declaration of such deals.)"""
    from sim.game.rules import HouseRules

    timing = {"marriage_min_cards": 3, "marriage_trump_from": "next_trick"}
    three = HouseRules.from_dict({**timing, "marriage_optional": True, "half_marriage": True})
    two = HouseRules.from_dict({**timing, "players": 2, "marriage_min_cards": 5})
    runs = [
        (("heuristic", "random", "leadage"), three, 300),
        (("learned", "learned-cards", "random"), three, 100),
        (("dd", "pimc", "pimc"), three, 12),
        (("heuristic", "random"), two, 300),
        (("dd", "pimc"), two, 12),
    ]
    for players, rules, n in runs:
        deals, _ = play_chunk(BatchSpec(mode="deals", n=n, seed=11, chunk_size=n, players=players, rules=rules), 0)
        seats = range(rules.players)
        played = deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0) & ~pl.col("conceded"))
        assert played.height > 0, players
        total = pl.sum_horizontal([pl.col(f"card_points{s}") for s in seats])
        assert (played.select(total)["card_points0"] == 120).all(), players
        declared = sum(int((played[f"marriages{s}"] != 0).sum()) for s in seats)
        assert declared > 0 or n < 50, f"{players}: no marriage declared in {played.height} deals"


def test_heuristic_on_the_barrel_under_the_barrel_variants():
    # docs/RULES.md "Barrel variants": the sitter's need is barrel_min_contract, on the range barrel what his
    # score lacks to the target; with barrel_failed_contract = stays he bids it whenever his cap allows; on the
    # range barrel short of it he bids as anybody.
    import numpy as np

    from sim.engine.workspace import new_game_state
    from sim.game.rules import HouseRules
    from sim.game.state_layout import G_ON_BARREL, G_SCORE
    from sim.players.heuristic_nb import heuristic_bid, heuristic_contract

    timid = params_matrix(HeuristicParams(risk=1000.0, barrel_risk=1000.0))  # never sure of anything
    bold = params_matrix(HeuristicParams(risk=-1000.0, barrel_risk=1000.0))  # bids as anybody, never the need
    hand = np.int64(0b111)  # 9, J and Q of spades
    gs = new_game_state()
    gs[G_ON_BARREL] = 1
    gs[G_SCORE] = 880
    classic = HouseRules().to_array()
    stays = HouseRules(barrel_failed_contract="stays").to_array()
    ranged = HouseRules(barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False).to_array()
    assert heuristic_bid(0, hand, -1, 100, 120, gs, classic, timid) == 0
    assert heuristic_bid(0, hand, -1, 100, 120, gs, stays, timid) == 120  # nothing to lose: the need
    assert heuristic_bid(0, hand, -1, 100, 120, gs, classic, bold) == 0  # frozen: only the need is worth it
    assert heuristic_bid(0, hand, -1, 100, 120, gs, ranged, bold) == 100  # range: any contract counts
    assert heuristic_contract(0, hand, 100, 120, False, gs, stays, timid) == 120
    assert heuristic_contract(0, hand, 100, 120, False, gs, classic, timid) == 100
    gs[G_SCORE] = 905  # the range barrel: 95 lacking, so 100 takes him off
    assert heuristic_bid(0, hand, -1, 100, 120, gs, HouseRules(
        barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False,
        barrel_failed_contract="stays").to_array(), timid) == 100


def test_every_player_keeps_the_winning_bid_under_no_raise_after_talon():
    """Issue 45, the polish preset: no raise after the talon (every final contract is the winning bid,
    whoever declares: the engine refuses any other, and the reference replay of
    tests/engine/test_invariants.py checks it too) and the free throw at 100 (a concession of
    min_bid scores 0 for everybody). Without the rule the same players raise: the rule bites."""
    polish = preset("polish")
    raising = HouseRules.from_dict({**polish.changes_from(HouseRules()), "no_raise_after_talon": False})
    runs = [(("heuristic", "random", "leadage"), 400), (("learned", "learned-cards", "random"), 150),
            (("dd", "pimc", "heuristic"), 12)]
    thrown = 0
    for players, n in runs:
        for rules, fixed in ((polish, True), (raising, False)):
            spec = BatchSpec(mode="deals", n=n, seed=12, chunk_size=n, players=players, rules=rules)
            deals, _ = play_chunk(spec, 0)
            taken = deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))
            assert taken.height > 0, players
            raised = int((taken["contract"] > taken["winning_bid"]).sum())
            assert raised == 0 if fixed else (raised > 0 or n < 50), (players, fixed, raised)
            if fixed:
                free = taken.filter(pl.col("conceded") & (pl.col("contract") == polish.min_bid))
                thrown += free.height
                for s in range(3):
                    assert (free[f"result{s}"] == 0).all(), players
    assert thrown > 0, "no free throw at 100 in the sample"


def test_heuristic_throws_a_free_contract_whenever_short():
    # concede_free_at_min_bid: a throw at min_bid costs nothing, so the heuristic player throws whenever his
    # estimate falls short of the contract, without the concede margin; above min_bid the margin stands.
    never = params_matrix(HeuristicParams(concede_margin=1000.0))  # by the margin it would never concede
    hand = np.int64(0b111)  # 9, J and Q of spades: an estimate far below 100
    gs = new_game_state()
    free = HouseRules(concede_free_at_min_bid=True).to_array()
    assert heuristic_contract(0, hand, 100, 120, True, gs, HouseRules().to_array(), never) == 100
    assert heuristic_contract(0, hand, 100, 120, True, gs, free, never) == -1
    assert heuristic_contract(0, hand, 110, 120, True, gs, free, never) == 110
    assert heuristic_contract(0, hand, 100, 120, False, gs, free, never) == 100  # conceding not allowed
