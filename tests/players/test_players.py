"""Player strength checks on small samples (the figures for reports come from full runs)."""

import polars as pl

from analysis.stats import wilson_interval
from sim.engine import BatchSpec, play_chunk
from sim.players import HeuristicParams, params_matrix
from sim.players.layout import H_RISK


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
