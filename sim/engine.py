"""Python face of the compiled engine: validated inputs, seeds, and one batch chunk as a pure
function of (rules, players, seed, chunk index, size) returning Polars frames.

Chunk ``i`` of a run with root seed ``s`` draws its generator state from
``SeedSequence(s, spawn_key=(i,))``; results therefore depend on the seed and the chunk size,
never on how many threads or workers run the chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim import __version__
from sim import layout as Y
from sim.engine_nb import ILLEGAL, new_game_state, new_workspace, run_deals, run_games
from sim.players import HeuristicParams, params_matrix, parse_players, player_codes
from sim.rng_nb import seed_state
from sim.rules import HouseRules

MAX_DEALS_PER_GAME = 2000  # a game still running after this many deals is stored unfinished
DEFAULT_CHUNK = {"deals": 50_000, "games": 500}


class EngineError(RuntimeError):
    """The engine met an illegal action from a player: a bug, reported with its seed."""


@dataclass(frozen=True)
class BatchSpec:
    """Everything that determines a run's results."""

    mode: str  # "deals" (independent deals from a zero score) or "games" (whole games)
    n: int
    rules: HouseRules = field(default_factory=HouseRules)
    players: tuple[str, str, str] = ("heuristic", "heuristic", "heuristic")
    seed: int = 0
    chunk_size: int = 0  # 0: the default for the mode
    params: HeuristicParams = field(default_factory=HeuristicParams)
    max_deals_per_game: int = MAX_DEALS_PER_GAME

    def __post_init__(self):
        if self.mode not in DEFAULT_CHUNK:
            raise ValueError(f"mode must be 'deals' or 'games', not {self.mode!r}")
        if self.n < 1:
            raise ValueError(f"the number of {self.mode} must be at least 1, not {self.n}")
        if self.seed < 0:
            raise ValueError(f"the seed must be a non-negative integer, not {self.seed}")
        if self.chunk_size < 0:
            raise ValueError("the chunk size must be positive")
        if not self.chunk_size:
            object.__setattr__(self, "chunk_size", DEFAULT_CHUNK[self.mode])
        object.__setattr__(self, "players", parse_players(self.players))
        self.rules.validate()
        self.rules.check_implemented()

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def chunk_bounds(self, index: int) -> tuple[int, int]:
        """(id of the chunk's first deal or game, number of them)."""
        first = index * self.chunk_size
        return first, min(self.chunk_size, self.n - first)

    def metadata(self) -> dict[str, object]:
        return {
            "thousand_version": __version__,
            "mode": self.mode,
            "sample_size": self.n,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "heuristic_params": self.params.to_dict(),
            "max_deals_per_game": self.max_deals_per_game,
        }


def chunk_rng(seed: int, index: int) -> np.ndarray:
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)
    return seed_state(words)


_DEAL_DTYPES = {
    "game": pl.Int64, "deal": pl.Int32, "dealer": pl.Int8, "hand": pl.UInt32, "talon": pl.UInt32,
    "bid": pl.Int16, "bid_turns": pl.Int16, "declarer": pl.Int8, "winning_bid": pl.Int16,
    "contract": pl.Int16, "conceded": pl.Boolean, "made": pl.Boolean, "gift": pl.Int8,
    "card_points": pl.Int16, "marriage_points": pl.Int16, "marriages": pl.UInt8, "tricks": pl.Int8,
    "result": pl.Int16, "change": pl.Int16, "score": pl.Int32, "bolt": pl.Boolean, "events": pl.UInt16,
}
_GAME_DTYPES = {"game": pl.Int64, "deals": pl.Int32, "winner": pl.Int8, "first_dealer": pl.Int8,
                "score": pl.Int32}


def _dtype(name: str, table: dict) -> pl.DataType:
    return table.get(name, table.get(name.rstrip("012"), pl.Int16))


def deals_frame(rec: np.ndarray, plays: np.ndarray) -> pl.DataFrame:
    """Deal records (kernel layout) → a typed frame; ``plays`` holds the 24 cards in play order
    (-1 for a conceded deal)."""
    cols = {name: pl.Series(name, rec[:, j]).cast(_dtype(name, _DEAL_DTYPES))
            for j, name in enumerate(Y.DEAL_COLUMNS)}
    cols["plays"] = pl.Series("plays", plays, dtype=pl.Array(pl.Int8, Y.N_PLAYS))
    return pl.DataFrame(cols)


def games_frame(grec: np.ndarray) -> pl.DataFrame:
    cols = {name: pl.Series(name, grec[:, j]).cast(_dtype(name, _GAME_DTYPES))
            for j, name in enumerate(Y.GAME_COLUMNS)}
    df = pl.DataFrame(cols)
    return df.with_columns(finished=pl.col("winner") >= 0)


def play_chunk(spec: BatchSpec, index: int) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Chunk ``index`` of a run: (deal rows, game rows or None in deals mode). A pure function
    of the spec and the index, so any executor may run any chunk."""
    first, size = spec.chunk_bounds(index)
    rng = chunk_rng(spec.seed, index)
    rules = spec.rules.to_array()
    codes = player_codes(spec.players)
    prm = params_matrix(spec.params)
    ws = new_workspace()
    gs = new_game_state()
    if spec.mode == "deals":
        rec = np.zeros((size, Y.N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((size, Y.N_PLAYS), dtype=np.int8)
        if run_deals(rng, rules, codes, prm, first, size, rec, plays, gs, ws) == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        return deals_frame(rec, plays), None
    grec = np.zeros((size, Y.N_GAME_COLUMNS), dtype=np.int32)
    done = np.zeros(1, dtype=np.int64)
    parts = []
    capacity = size * 40
    while done[0] < size:
        rec = np.zeros((capacity, Y.N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((capacity, Y.N_PLAYS), dtype=np.int8)
        rows = run_games(rng, rules, codes, prm, gs, first, size, spec.max_deals_per_game, rec, plays, grec,
                         done, ws)
        if rows == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        parts.append(deals_frame(rec[:rows], plays[:rows]))
    return pl.concat(parts), games_frame(grec)
