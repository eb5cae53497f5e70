"""The sequential PIMC player (``pimc-fast``) against the exact one (``pimc``): with no more
worlds than the sequential rule's minimum they decide identically (the guessed searches are
exact), both play legally, and the stopping rule stops exactly when the leader is clear."""

from __future__ import annotations

import numpy as np
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


def test_with_the_minimum_worlds_the_fast_player_plays_exactly_as_the_exact_one(engine_compiled):
    prm = HeuristicParams(pimc_worlds=float(MIN_WORLDS))
    spec = dict(mode="deals", n=10, seed=6, chunk_size=10, params=prm)
    fast, _ = play_chunk(BatchSpec(players="pimc-fast", **spec), 0)
    exact, _ = play_chunk(BatchSpec(players="pimc", **spec), 0)
    assert fast.equals(exact)


def test_both_pimc_players_play_legal_deals(engine_compiled):
    for players in ("pimc-fast", "pimc", "pimc-fast,pimc,heuristic"):
        deals, _ = play_chunk(BatchSpec(mode="deals", n=8, seed=2, chunk_size=8, players=players), 0)
        for row in deals.iter_rows(named=True):
            ref.replay_deal(row, HouseRules())
