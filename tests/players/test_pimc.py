"""The sequential PIMC player (``pimc-fast``) against the exact one (``pimc``): with no more
worlds than the sequential rule's minimum they decide identically (every value either computes
is exact), both play legally, and the stopping rule stops exactly when the leader is clear."""

from __future__ import annotations

import numpy as np
import polars as pl
import reference_game as ref

from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules
from sim.players import HeuristicParams
from sim.players.pimc_nb import (
    INDIFFERENCE,
    MAX_CANDIDATES,
    MIN_WORLDS,
    PIMC_BUFFER,
    WB_SUMS,
    WB_VALUES,
    clear_leader,
)


def buffer_with(values: np.ndarray) -> np.ndarray:
    """A PIMC buffer holding ``values[world, candidate]`` and their sums."""
    wbuf = np.zeros(PIMC_BUFFER, dtype=np.int64)
    worlds, n = values.shape
    for w in range(worlds):
        wbuf[WB_VALUES + w * MAX_CANDIDATES:WB_VALUES + w * MAX_CANDIDATES + n] = values[w]
    wbuf[WB_SUMS:WB_SUMS + n] = values.sum(axis=0)
    return wbuf


def test_clear_leader_stops_when_no_candidate_can_be_better_by_the_indifference():
    rng = np.random.default_rng(0)
    dominant = np.stack([rng.integers(40, 60, 4), rng.integers(0, 20, 4), rng.integers(0, 20, 4)], axis=1)
    assert clear_leader(buffer_with(dominant), 3, 4, True)
    assert clear_leader(buffer_with(60 - dominant), 3, 4, False)  # a defender minimises the declarer's value
    equal = np.full((4, 3), 50)
    assert clear_leader(buffer_with(equal), 3, 4, True)  # no difference at all: nothing to gain
    # The second candidate trails by 1 point on average but with a wide spread: it may be better.
    noisy = np.array([[50, 30], [50, 70], [50, 20], [50, 76]])
    assert not clear_leader(buffer_with(noisy), 2, 4, True)
    # A steady lead of less than the indifference is clear.
    close = np.array([[50, 50 - int(INDIFFERENCE) + 1]] * 4) + np.arange(4)[:, None]
    assert clear_leader(buffer_with(close), 2, 4, True)


def test_with_the_minimum_worlds_and_no_contract_the_fast_player_plays_exactly_as_the_exact_one(engine_compiled):
    """Without a contract (the advisor's playouts: the declarer maximises his points) and with
    MIN_WORLDS worlds, the sequential rule never stops early and both compute exact values."""
    from sim.engine import playouts_nb
    from sim.engine.schema import N_PLAYS
    from sim.engine.workspace import new_workspace
    from sim.game.cards import parse_hand
    from sim.game.rng_nb import state_from_seed
    from sim.players import params_matrix, player_codes, seat_tuple
    from sim.solver import TABLE_LOG2_ROWS

    rules = HouseRules()
    hand = parse_hand("AH TH KH QH AS 9C JD")
    deck = np.zeros(24, dtype=np.int64)
    samples = np.zeros((6, 3), dtype=np.int64)
    playouts_nb.sample_deals(state_from_seed(1, (0,)), (1 << 24) - 1 & ~hand, 0, 0, 0, 6, samples, deck)
    prm = params_matrix(HeuristicParams(pimc_worlds=float(MIN_WORLDS)), rules)
    results = {}
    for name in ("pimc", "pimc-fast"):
        out = np.zeros(6, dtype=np.int64)
        plays = np.zeros((1, N_PLAYS), dtype=np.int8)
        playouts_nb.play_samples(player_codes((name,) * 3), samples, hand, rules.to_array(), prm,
                                 state_from_seed(2, (0,)), out, new_workspace(), plays, np.zeros(64, dtype=np.int64),
                                 seat_tuple(TABLE_LOG2_ROWS))
        results[name] = out
    assert (results["pimc"] == results["pimc-fast"]).all()


def test_the_fast_declarer_plays_for_his_contract(engine_compiled):
    """In deals the fast player's declarer plays for the contract (a zero-window test per card and
    world), not for the most points: it makes about as many contracts as the exact player."""
    deals = {}
    for name in ("pimc", "pimc-fast"):
        deals[name], _ = play_chunk(BatchSpec(mode="deals", n=30, seed=8, chunk_size=30, players=name), 0)
    played = {k: d.filter((pl.col("declarer") >= 0) & ~pl.col("conceded") & (pl.col("redeal") == 0))
              for k, d in deals.items()}
    assert played["pimc"]["hand0"].equals(played["pimc-fast"]["hand0"])  # the same deals and bids
    assert not deals["pimc"]["plays"].equals(deals["pimc-fast"]["plays"])
    assert played["pimc-fast"]["made"].sum() >= played["pimc"]["made"].sum() - 3


def test_both_pimc_players_play_legal_deals(engine_compiled):
    for players in ("pimc-fast", "pimc", "pimc-fast,pimc,heuristic"):
        deals, _ = play_chunk(BatchSpec(mode="deals", n=8, seed=2, chunk_size=8, players=players), 0)
        for row in deals.iter_rows(named=True):
            ref.replay_deal(row, HouseRules())
