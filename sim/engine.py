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
from sim.cards import CardError, parse_card, parse_hand
from sim.engine_nb import (
    ILLEGAL,
    W_HANDS,
    W_RESULT,
    apply_deal,
    bid_cap,
    new_game_state,
    new_workspace,
    play_dealt,
    run_deals,
    run_games,
)
from sim.pimc_nb import new_pimc_buffer
from sim.play_nb import beats, legal_follows
from sim.players import HeuristicParams, params_matrix, parse_players, player_codes
from sim.rng_nb import state_from_seed
from sim.rules import HouseRules
from sim.solver_nb import new_table, new_work

DEAL_STREAM = 1  # chunk_rng stream of the deals (the players draw from stream 0)
DD_TABLE_LOG2 = 18  # 2**18 transposition-table rows (6 MiB) per double-dummy thread
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


def chunk_rng(seed: int, index: int, stream: int = 0) -> np.ndarray:
    """Generator state of a chunk's stream: 0 the players' decisions, 1 the deals."""
    return state_from_seed(seed, (index,) if stream == 0 else (index, stream))


_DEAL_DTYPES = {
    "game": pl.Int64, "deal": pl.Int32, "dealer": pl.Int8, "hand": pl.UInt32, "talon": pl.UInt32,
    "bid": pl.Int16, "bid_turns": pl.Int16, "declarer": pl.Int8, "winning_bid": pl.Int16,
    "contract": pl.Int16, "conceded": pl.Boolean, "made": pl.Boolean, "gift": pl.Int8,
    "card_points": pl.Int16, "marriage_points": pl.Int16, "marriages": pl.UInt16, "tricks": pl.Int8,
    "result": pl.Int16, "change": pl.Int16, "score": pl.Int32, "bolt": pl.Int8, "events": pl.UInt16,
    "bid_kind": pl.Int8, "redeal": pl.Int8,
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


def solver_buffers(players) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search buffers of double-dummy and PIMC seats (state, moves, transposition table, PIMC
    worlds); a token table when no seat searches."""
    st, work = new_work()
    searching = "dd" in players or "pimc" in players
    return st, work, new_table(DD_TABLE_LOG2 if searching else 1), new_pimc_buffer()


def play_chunk(spec: BatchSpec, index: int) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Chunk ``index`` of a run: (deal rows, game rows or None in deals mode). A pure function
    of the spec and the index, so any executor may run any chunk."""
    first, size = spec.chunk_bounds(index)
    rng = chunk_rng(spec.seed, index)
    deal_rng = chunk_rng(spec.seed, index, DEAL_STREAM)
    rules = spec.rules.to_array()
    codes = player_codes(spec.players)
    prm = params_matrix(spec.params, spec.rules)
    ws = new_workspace()
    gs = new_game_state()
    no_script = np.zeros(1, dtype=np.int64)  # no seat of a batch is scripted
    solver = solver_buffers(spec.players)
    if spec.mode == "deals":
        rec = np.zeros((size, Y.N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((size, Y.N_PLAYS), dtype=np.int8)
        if run_deals(rng, deal_rng, rules, codes, prm, first, size, rec, plays, gs, ws, no_script, solver) == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        return deals_frame(rec, plays), None
    grec = np.zeros((size, Y.N_GAME_COLUMNS), dtype=np.int32)
    done = np.zeros(1, dtype=np.int64)
    parts = []
    capacity = size * 40
    while done[0] < size:
        rec = np.zeros((capacity, Y.N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((capacity, Y.N_PLAYS), dtype=np.int8)
        rows = run_games(rng, deal_rng, rules, codes, prm, gs, first, size, spec.max_deals_per_game, rec, plays, grec,
                         done, ws, no_script, solver)
        if rows == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        parts.append(deals_frame(rec[:rows], plays[:rows]))
    return pl.concat(parts), games_frame(grec)


# ---- known-answer API: hand-written deals and game situations ----------------------------------
@dataclass(frozen=True)
class GameState:
    """The part of a game carried from deal to deal, per seat."""

    scores: tuple[int, int, int] = (0, 0, 0)
    on_barrel: tuple[bool, bool, bool] = (False, False, False)
    attempts: tuple[int, int, int] = (0, 0, 0)  # barrel attempts used
    falls: tuple[int, int, int] = (0, 0, 0)  # falls since the score was last set to zero
    bolts: tuple[int, int, int] = (0, 0, 0)  # bolts since the last bolt penalty

    def to_array(self) -> np.ndarray:
        gs = new_game_state()
        for p in range(3):
            gs[Y.G_SCORE + p] = self.scores[p]
            gs[Y.G_ON_BARREL + p] = self.on_barrel[p]
            gs[Y.G_ATTEMPTS + p] = self.attempts[p]
            gs[Y.G_FALLS + p] = self.falls[p]
            gs[Y.G_BOLTS + p] = self.bolts[p]
        gs[Y.G_WINNER] = -1
        return gs

    @classmethod
    def from_array(cls, gs: np.ndarray) -> GameState:
        def seats(offset, kind=int):
            return tuple(kind(gs[offset + p]) for p in range(3))

        return cls(seats(Y.G_SCORE), seats(Y.G_ON_BARREL, bool), seats(Y.G_ATTEMPTS), seats(Y.G_FALLS),
                   seats(Y.G_BOLTS))


class IllegalAction(ValueError):
    """A scripted action the rules do not allow; ``step`` is its index in the action list."""

    def __init__(self, step: int, message: str):
        super().__init__(message)
        self.step = step


def _mask(hand: str | int, what: str, count: int | None = None) -> int:
    return parse_hand(hand, count=count, what=what) if isinstance(hand, str) else int(hand)


def play_scripted_deal(*, hands: list[str | int], talon: str | int, dealer: int, actions: list[int | str],
                       rules: HouseRules | None = None,
                       state: GameState | None = None) -> tuple[dict, list[int], GameState]:
    """Play one hand-written deal through the engine. ``actions`` are every decision in the
    order the engine asks for them: bids after the forced one (0 = pass), the two discards (to
    the seat after the declarer first), the final contract (-1 = concede) and the 24 cards
    (cards may be written as text). Returns (the deal's record as a dict, the cards played, the
    game state after it); an action the rules refuse raises IllegalAction."""
    rules = rules or HouseRules()
    rules.check_implemented()
    masks = [_mask(h, f"hand of seat {p}", 7) for p, h in enumerate(hands)]
    talon_mask = _mask(talon, "talon", 3)
    if len(masks) != 3:
        raise CardError("give three hands")
    union = masks[0] | masks[1] | masks[2] | talon_mask
    if bin(union).count("1") != 24:
        raise CardError("hands and talon must hold the 24 cards exactly once")
    if dealer not in (0, 1, 2):
        raise ValueError(f"dealer must be a seat 0..2, not {dealer}")
    script = np.array([1] + [parse_card(a) if isinstance(a, str) else int(a) for a in actions], dtype=np.int64)
    ws = new_workspace()
    ws[W_HANDS, :3] = masks
    gs = (state or GameState()).to_array()
    rec = np.zeros((1, Y.N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, Y.N_PLAYS), dtype=np.int8)
    codes = np.full(3, Y.PLAYER_SCRIPTED, dtype=np.int64)
    rng = chunk_rng(0, 0)  # unused: every seat is scripted
    status = play_dealt(rng, rules.to_array(), codes, codes, params_matrix(rules=rules), gs, dealer, ws, talon_mask,
                        rec, 0, plays, script, solver_buffers(()))
    if status == ILLEGAL:
        if script[0] > len(script):
            raise IllegalAction(len(actions), f"the deal needs more than the {len(actions)} actions given")
        step = int(script[0]) - 2  # the cursor has moved past the refused action
        raise IllegalAction(step, f"action {step} ({actions[step]!r}) is not allowed here")
    if script[0] != len(script):
        raise IllegalAction(int(script[0]) - 1, f"{len(script) - script[0]} action(s) left over after the deal")
    row = dict(zip(Y.DEAL_COLUMNS, (int(v) for v in rec[0]), strict=True))
    return row, [int(c) for c in plays[0]], GameState.from_array(gs)


def settle_deal(*, state: GameState, declarer: int, contract: int, made: bool, results: tuple[int, int, int],
                bolts: tuple[bool, bool, bool] = (False, False, False), conceded: bool = False,
                rules: HouseRules | None = None) -> tuple[GameState, dict]:
    """Apply the game rules (barrel, bolts, dump truck) to one deal's raw results. Returns the new
    state and a dict with per-seat ``change``, ``score``, ``events`` and the ``winner`` (-1 if none)."""
    rules = rules or HouseRules()
    rules.check_implemented()
    gs = state.to_array()
    ws = new_workspace()
    ws[W_RESULT, :3] = results
    rec = np.zeros((1, Y.N_DEAL_COLUMNS), dtype=np.int32)
    rec[0, Y.D_BOLT:Y.D_BOLT + 3] = bolts
    apply_deal(gs, rules.to_array(), declarer, contract, made, conceded, -1, ws, rec, 0)
    out = {key: [int(rec[0, col + p]) for p in range(3)]
           for key, col in (("change", Y.D_CHANGE), ("score", Y.D_SCORE), ("events", Y.D_EVENTS))}
    out["winner"] = int(gs[Y.G_WINNER])
    return GameState.from_array(gs), out


def legal_cards(hand: str | int, *, trick: list[str | int] = (), trump: int | None = None,
                rules: HouseRules | None = None) -> int:
    """Cards of ``hand`` that may be played to a trick holding ``trick`` (leader first) under the
    trump suit ``trump`` (None = no trump)."""
    rules = rules or HouseRules()
    mask = _mask(hand, "hand")
    cards = [parse_card(c) if isinstance(c, str) else int(c) for c in trick]
    if not cards:
        return mask
    t = -1 if trump is None else int(trump)
    winning = cards[0]
    for c in cards[1:]:
        if beats(c, winning, t):
            winning = c
    return int(legal_follows(mask, cards[0] // 6, winning, t, bool(rules.must_head)))


def bidding_cap(hand: str | int, rules: HouseRules | None = None) -> int:
    """The highest bid a hand allows: 120 + its marriages (at most ``max_contract``)."""
    return int(bid_cap(_mask(hand, "hand"), (rules or HouseRules()).to_array()))
