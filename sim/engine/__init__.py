"""The engine: one deal phase by phase, in compiled kernels, and its Python face.

The kernels: ``deal_nb`` (dealing, redeals), ``auction_nb`` (bidding, the talon, what each seat
knows), ``tricks_nb``, ``settle_nb`` (scores, barrel, bolts), ``deals_nb`` (one deal of 3, 4 or 2
seats through those phases), ``chunks_nb`` (the runners' kernels) and ``playouts_nb`` (the bid
advisor's fixed-deal playouts); ``workspace`` and ``enums`` hold their scratch rows and named
constants, ``schema`` the stored tables. Seats decide through ``sim.players.seat_nb``.

This face gives validated inputs, seeds, and one batch chunk as a pure function of (rules, players,
seed, chunk index, size) returning Polars frames; and the known-answer API (``play_scripted_deal``,
``settle_deal``, ``legal_cards``, ``bidding_cap``). ``playouts`` is the face of ``playouts_nb``
that the bid advisor and the bid tables call: sampling the unseen cards, the double-dummy levels,
fixed-deal play by one method, the pass line, on a thread pool with their random streams.

Chunk ``i`` of a run with root seed ``s`` draws its players' and its deals' generator states
from ``sim.streams.CHUNK_PLAYERS`` and ``CHUNK_DEALS`` under ``s`` and ``i``; results therefore
depend on the seed and the chunk size, never on how many threads or workers run the chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from sim import InputError, __version__
from sim.engine.chunks_nb import run_deals, run_games
from sim.engine.deals_nb import play_hands2, play_hands3, play_hands4
from sim.engine.enums import ILLEGAL
from sim.engine.schema import (
    D_BOLT,
    D_CHANGE,
    D_EVENTS,
    D_SCORE,
    D_TRICKS,
    KERNEL_DEAL_INDEX,
    N_DEAL_COLUMNS,
    N_GAME_COLUMNS,
    N_PLAYS,
    deal_columns,
    deals_frame,
    games_frame,
)
from sim.engine.settle_nb import apply_deal, rotate_seats
from sim.engine.workspace import (
    W_CARD_POINTS,
    W_HANDS,
    W_MARRIAGE_POINTS,
    W_RESULT,
    W_SEATS,
    new_game_state,
    new_workspace,
)
from sim.fingerprint import code_fingerprint, file_sha256
from sim.game.bids_nb import auction_cap
from sim.game.cards import CardError, parse_card, parse_hand
from sim.game.play_nb import beats, legal_follows
from sim.game.rng_nb import state_from_sequence
from sim.game.rules import HouseRules
from sim.game.state_layout import (
    G_ATTEMPTS,
    G_BOLTS,
    G_CONCESSIONS,
    G_FALLS,
    G_GOLDEN_LEFT,
    G_NO_WINS,
    G_ON_BARREL,
    G_QUIET,
    G_SCORE,
    G_WINNER,
    SLOTS,
)
from sim.players.layout import PLAYER_SCRIPTED
from sim.players.learned.weights import weights_identity
from sim.players.learned.win_table import win_table_for
from sim.players.params import HeuristicParams, learned_nets, params_matrix, score_aware_block, seat_params
from sim.players.registry import (
    SEARCHING_PLAYERS,
    is_learned,
    learned_weights_files,
    parse_players,
    player_codes,
    player_type,
    reads_nets,
    reads_win_table,
)
from sim.players.seat_nb import seat_tuple
from sim.solver import PIMC_TABLE_LOG2_ROWS, TABLE_LOG2_ROWS
from sim.streams import CHUNK_DEALS, CHUNK_PLAYERS, Stream, sequence

if TYPE_CHECKING:  # the kernels' users (the advisor) need not load Polars
    import polars as pl

__all__ = [
    "DEAL_STREAM", "MAX_DEALS_PER_GAME", "DEFAULT_CHUNK", "MAX_CHUNK", "MAX_SAMPLE", "EngineError", "BatchSpec",
    "chunk_rng", "solver_buffers", "play_chunk", "GameState", "IllegalAction", "play_scripted_deal", "settle_deal",
    "legal_cards", "bidding_cap", "deals_frame", "ChunkStart", "chunk_start",
]

DEAL_STREAM = CHUNK_DEALS  # chunk_rng stream of the deals (the players draw from CHUNK_PLAYERS)
MAX_DEALS_PER_GAME = 2000  # a game still running after this many deals is stored unfinished
# Deals or games a chunk holds by default, by the slowest player at the table: a chunk takes a few
# seconds at most, so that the progress bar moves and Ctrl-C loses little (a heuristic deal takes
# about 1.5 us, a dd deal milliseconds, a pimc deal a tenth of a second or more).
DEFAULT_CHUNK = {
    "deals": {"random": 50_000, "heuristic": 50_000, "leadage": 50_000, "dd": 500, "pimc": 10, "learned": 5_000,
              "learned-cards": 50, "learned-win": 5_000, "pimc-inf": 10, "learned-inf": 1_000},
    "games": {"random": 500, "heuristic": 500, "leadage": 500, "dd": 10, "pimc": 1, "learned": 50, "learned-cards": 2,
              "learned-win": 50, "pimc-inf": 1, "learned-inf": 10},
}
# The largest chunk: its record buffers (about 280 bytes a deal, room for 40 deals a game) stay
# within about 300 MiB per thread, before the frame made from them.
MAX_CHUNK = {"deals": 1_000_000, "games": 25_000}
MAX_SAMPLE = 10**10  # deals or games in one run: far beyond a day's computing, refused before anything starts


class EngineError(RuntimeError):
    """The engine met an illegal action from a player: a bug, reported with its seed."""


@dataclass(frozen=True)
class BatchSpec:
    """Everything that determines a run's results."""

    mode: str  # "deals" (independent deals from a zero score) or "games" (whole games)
    n: int
    rules: HouseRules = field(default_factory=HouseRules)
    players: tuple[str, ...] = ("heuristic",)  # one for every seat, or one per seat (rules.players)
    seed: int = 0
    chunk_size: int = 0  # 0: the default for the mode
    # One parameter record for every seat, or one per seat; None: the defaults for rules.players
    # (players.default_params). Per-seat records that are all equal become one.
    params: HeuristicParams | tuple[HeuristicParams, ...] | None = None
    max_deals_per_game: int = MAX_DEALS_PER_GAME

    def __post_init__(self):
        if self.mode not in DEFAULT_CHUNK:
            raise InputError(f"mode must be 'deals' or 'games', not {self.mode!r}")
        if not 1 <= self.n <= MAX_SAMPLE:
            raise InputError(f"--{self.mode} must be from 1 to {MAX_SAMPLE:,}, not {self.n}")
        if not 0 <= self.seed < 2**63:
            raise InputError(f"--seed must be from 0 to 2**63 - 1, not {self.seed}")
        if not 0 <= self.chunk_size <= MAX_CHUNK[self.mode]:
            raise InputError(f"--chunk-size must be from 1 to {MAX_CHUNK[self.mode]:,} {self.mode} (0: the default), "
                             f"not {self.chunk_size}")
        self.rules.validate()
        object.__setattr__(self, "players", parse_players(self.players, self.rules.players))
        if any(reads_win_table(name) for name in self.players):
            score_aware_block(self.rules, self.rules.players)  # one line when there is no table for these rules
        if not self.chunk_size:
            slowest = min(DEFAULT_CHUNK[self.mode][player_type(name)] for name in self.players)
            object.__setattr__(self, "chunk_size", slowest)
        per_seat = seat_params(self.params, self.rules.players)
        object.__setattr__(self, "params", per_seat[0] if len(set(per_seat)) == 1 else per_seat)

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
            "code_fingerprint": code_fingerprint(),  # a run is resumed and read only by the code that made it
            "mode": self.mode,
            "sample_size": self.n,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            # one record for every seat, or a list by seat
            "heuristic_params": (self.params.to_dict() if isinstance(self.params, HeuristicParams)
                                 else [p.to_dict() for p in self.params]),
            "max_deals_per_game": self.max_deals_per_game,
            # what the learned seats play of their weights files, by SHA-256 (weights_identity: the npz
            # and what its manifest makes of it; the shipped ones are also covered by the code
            # fingerprint, which hashes sim/'s data files): a run of other weights is never reused
            **({"learned_weights": [weights_identity(p) for p in learned_weights_files(self.players)]}
               if any(reads_nets(p) for p in self.players) else {}),
            # the win-chance table a score-aware seat reads, by SHA-256 (a shipped file: the code
            # fingerprint covers it too)
            **({"win_table": file_sha256(win_table_for(self.rules))}
               if any(reads_win_table(p) for p in self.players) else {}),
        }


def chunk_rng(seed: int, index: int, stream: Stream = CHUNK_PLAYERS) -> np.ndarray:
    """Generator state of chunk ``index``'s ``stream`` (``sim.streams``): by default the players'
    decisions; ``DEAL_STREAM`` the deals."""
    return state_from_sequence(sequence(stream, seed, index))


def solver_buffers(players: Sequence[str], net: np.ndarray | None = None, rec_rows: int = 1) -> tuple[np.ndarray, ...]:
    """The seats' buffers (``sim.players.seat_nb.seat_tuple``): the search buffers of double-dummy and PIMC
    seats (a token table when no seat searches), and the learned seats' packed nets
    (``sim.players.params.learned_nets``) and position record."""
    if "dd" in players:
        return seat_tuple(TABLE_LOG2_ROWS, net, rec_rows)  # 2**18 rows (6 MiB) per chunk
    searching = any(name in SEARCHING_PLAYERS or is_learned(name) for name in players)
    return seat_tuple(PIMC_TABLE_LOG2_ROWS if searching else 1, net,
                      rec_rows)


class ChunkStart(NamedTuple):
    """What the chunk kernels start chunk ``index`` of a run from: its first deal or game id and
    size, its two streams, the rules, players and buffers (``chunk_start``)."""

    first: int
    size: int
    rng: np.ndarray
    deal_rng: np.ndarray
    rules: np.ndarray
    codes: np.ndarray
    prm: np.ndarray
    ws: np.ndarray
    gs: np.ndarray
    no_script: np.ndarray
    solver: tuple


def chunk_start(spec: BatchSpec, index: int) -> ChunkStart:
    """The chunk kernels' inputs for chunk ``index`` of ``spec``, fresh: ``play_chunk`` plays them,
    and ``sim.records.trace`` plays the same chunk again deal by deal from them."""
    first, size = spec.chunk_bounds(index)
    prm = params_matrix(spec.params, spec.rules)
    net = learned_nets(spec.players, prm, spec.rules.players, spec.rules)
    return ChunkStart(first=first, size=size, rng=chunk_rng(spec.seed, index),
                      deal_rng=chunk_rng(spec.seed, index, DEAL_STREAM), rules=spec.rules.to_array(),
                      codes=player_codes(spec.players), prm=prm, ws=new_workspace(), gs=new_game_state(),
                      no_script=np.zeros(1, dtype=np.int64),  # no seat of a batch is scripted
                      solver=solver_buffers(spec.players, net))


def play_chunk(spec: BatchSpec, index: int) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Chunk ``index`` of a run: (deal rows, game rows or None in deals mode). A pure function
    of the spec and the index, so any executor may run any chunk."""
    first, size, rng, deal_rng, rules, codes, prm, ws, gs, no_script, solver = chunk_start(spec, index)
    if spec.mode == "deals":
        rec = np.zeros((size, N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((size, N_PLAYS), dtype=np.int8)
        if run_deals(rng, deal_rng, rules, codes, prm, first, size, rec, plays, gs, ws, no_script, solver) == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        return deals_frame(rec, plays, spec.rules.players), None
    grec = np.zeros((size, N_GAME_COLUMNS), dtype=np.int32)
    done = np.zeros(1, dtype=np.int64)
    parts = []
    capacity = size * 40
    while done[0] < size:
        rec = np.zeros((capacity, N_DEAL_COLUMNS), dtype=np.int32)
        plays = np.zeros((capacity, N_PLAYS), dtype=np.int8)
        rows = run_games(rng, deal_rng, rules, codes, prm, gs, first, size, spec.max_deals_per_game, rec, plays, grec,
                         done, ws, no_script, solver)
        if rows == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        parts.append(deals_frame(rec[:rows], plays[:rows], spec.rules.players))
    import polars as pl

    return pl.concat(parts), games_frame(grec, spec.rules.players)


# ---- known-answer API: hand-written deals and game situations ----------------------------------
@dataclass(frozen=True)
class GameState:
    """The part of a game carried from deal to deal, per seat (three seats, or four with
    players = 4; a field left at its default fits either)."""

    scores: tuple[int, ...] = (0, 0, 0)
    on_barrel: tuple[bool, ...] = (False, False, False)
    attempts: tuple[int, ...] = (0, 0, 0)  # barrel attempts used
    falls: tuple[int, ...] = (0, 0, 0)  # falls since the score was last set to zero
    bolts: tuple[int, ...] = (0, 0, 0)  # bolts since the last bolt penalty
    quiet: tuple[int, ...] = (0, 0, 0)  # deals in a row without declaring (bolt_on = three_passes)
    no_wins: tuple[int, ...] = (0, 0, 0)  # no-win deals since the last no-win penalty (no_win_penalty)
    concessions: tuple[int, ...] = (0, 0, 0)  # concessions so far in the game (concede_limit, concede_third_penalty)
    golden_left: int = 0  # deals left in the current golden round (golden_round): > 0 makes the deal golden

    @property
    def seats(self) -> int:
        return max(len(v) for v in (self.scores, self.on_barrel, self.attempts, self.falls, self.bolts, self.quiet,
                                    self.no_wins, self.concessions))

    def to_array(self) -> np.ndarray:
        gs = new_game_state()
        for offset, values in ((G_SCORE, self.scores), (G_ON_BARREL, self.on_barrel),
                               (G_ATTEMPTS, self.attempts), (G_FALLS, self.falls), (G_BOLTS, self.bolts),
                               (G_QUIET, self.quiet), (G_NO_WINS, self.no_wins),
                               (G_CONCESSIONS, self.concessions)):
            if len(values) > SLOTS:
                raise InputError(f"a game state has at most {SLOTS} seats")
            for p, v in enumerate(values):
                gs[offset + p] = v
        gs[G_WINNER] = -1
        gs[G_GOLDEN_LEFT] = self.golden_left
        return gs

    @classmethod
    def from_array(cls, gs: np.ndarray, seats: int = 3) -> GameState:
        def per_seat(offset, kind=int):
            return tuple(kind(gs[offset + p]) for p in range(seats))

        return cls(per_seat(G_SCORE), per_seat(G_ON_BARREL, bool), per_seat(G_ATTEMPTS),
                   per_seat(G_FALLS), per_seat(G_BOLTS), per_seat(G_QUIET), per_seat(G_NO_WINS),
                   per_seat(G_CONCESSIONS), int(gs[G_GOLDEN_LEFT]))


class IllegalAction(InputError):
    """A scripted action the rules do not allow; ``step`` is its index in the action list."""

    def __init__(self, step: int, message: str):
        super().__init__(message)
        self.step = step


def _mask(hand: str | int, what: str, count: int | None = None) -> int:
    return parse_hand(hand, count=count, what=what) if isinstance(hand, str) else int(hand)


def play_scripted_deal(*, hands: list[str | int], talon: str | int, dealer: int, actions: list[int | str],
                       rules: HouseRules | None = None, state: GameState | None = None,
                       other_talon: str | int | None = None) -> tuple[dict, list[int], GameState]:
    """Play one hand-written deal through the engine. ``actions`` are every decision in the
    order the engine asks for them: bids after the forced one (0 = pass), the two discards (to
    the seat after the declarer first), the final contract (-1 = concede) and the 24 cards
    (cards may be written as text). With players = 4, ``hands`` has four entries and the dealer's
    is empty ("" or 0): he sits out. With players = 2, ``hands`` has two entries of 10 cards (9
    with two_player_talon = 3), ``talon`` is the talon the declarer takes and ``other_talon`` the
    other one; the discards are the two cards he buries, then with two_player_talon = 3 the card
    he puts into the other talon. Returns (the deal's record as a dict, the cards played, the
    game state after it); an action the rules refuse raises IllegalAction."""
    rules = rules or HouseRules()
    n = rules.players
    if len(hands) != n:
        raise CardError(f"give {n} hands (players = {n})")
    if dealer not in range(n):
        raise InputError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
    if (other_talon is not None) != (n == 2):
        raise CardError("give other_talon exactly when players = 2 (the talon nobody takes)")
    if n == 4:
        if hands[dealer] not in ("", 0, None):
            raise CardError(f"the dealer (seat {dealer}) sits out a 4-player deal: give him an empty hand")
        seats = [(dealer + 1 + s) % 4 for s in range(3)]  # the three players from first hand on
    else:
        seats = list(range(n))
    talon_size = rules.two_player_talon if n == 2 else 3
    masks = [_mask(hands[p], f"hand of seat {p}", 12 - talon_size if n == 2 else 7) for p in seats]
    talon_mask = _mask(talon, "talon", talon_size)
    other_mask = _mask(other_talon, "other talon", talon_size) if n == 2 else 0
    union = talon_mask | other_mask
    for m in masks:
        union |= m
    if bin(union).count("1") != 24:
        raise CardError("hands and talon" + ("s" if n == 2 else "") + " must hold the 24 cards exactly once")
    script = np.array([1] + [parse_card(a) if isinstance(a, str) else int(a) for a in actions], dtype=np.int64)
    ws = new_workspace()
    ws[W_HANDS, :len(masks)] = masks
    gs = (state or GameState()).to_array()
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    codes = np.full(n, PLAYER_SCRIPTED, dtype=np.int64)
    rng = chunk_rng(0, 0)  # unused: every seat is scripted
    args = (rng, rules.to_array(), codes, codes, params_matrix(rules=rules), gs, dealer, ws, talon_mask)
    rest = (rec, 0, plays, script, solver_buffers(()))
    if n == 2:
        status = play_hands2(*args, other_mask, *rest)
    else:
        status = (play_hands4 if n == 4 else play_hands3)(*args, *rest)
    if status == ILLEGAL:
        if script[0] > len(script):
            raise IllegalAction(len(actions), f"the deal needs more than the {len(actions)} actions given")
        step = int(script[0]) - 2  # the cursor has moved past the refused action
        raise IllegalAction(step, f"action {step} ({actions[step]!r}) is not allowed here")
    if script[0] != len(script):
        raise IllegalAction(int(script[0]) - 1, f"{len(script) - script[0]} action(s) left over after the deal")
    row = {name: int(rec[0, KERNEL_DEAL_INDEX[name]]) for name in deal_columns(n)}
    return row, [int(c) for c in plays[0]], GameState.from_array(gs, n)


def settle_deal(*, state: GameState, declarer: int, contract: int, made: bool, results: tuple[int, ...],
                bolts: tuple[bool, ...] | None = None, conceded: bool = False,
                rules: HouseRules | None = None, dealer: int | None = None,
                card_points: tuple[int, ...] | None = None,
                marriage_points: tuple[int, ...] | None = None,
                tricks: tuple[int, ...] | None = None) -> tuple[GameState, dict]:
    """Apply the game rules (barrel, bolts, dump truck) to one deal's raw results. Returns the new
    state and a dict with per-seat ``change``, ``score``, ``events`` and the ``winner`` (-1 if none).
    With players = 4, ``results`` and ``bolts`` have four entries and ``dealer`` names the seat
    sitting out (his result: the talon's points). ``card_points`` and ``marriage_points`` (zeros
    if not given) are what each seat took in play, for the rules that read them beyond the results:
    a sitter's win under ``declarer_scores = points`` and ``barrel_accumulate``; ``tricks`` (one each if
    not given) the tricks each seat won, for ``bolt_exempt_keeps_run``."""
    rules = rules or HouseRules()
    n = rules.players
    bolts = bolts if bolts is not None else (False,) * n
    card_points = card_points if card_points is not None else (0,) * n
    marriage_points = marriage_points if marriage_points is not None else (0,) * n
    tricks = tricks if tricks is not None else (1,) * n
    if (len(results) != n or len(bolts) != n or len(card_points) != n or len(marriage_points) != n
            or len(tricks) != n):
        raise InputError(f"give {n} results and bolts (and points, if any) (players = {n})")
    shift = 0
    if n == 4:
        if dealer not in range(4) or dealer == declarer:
            raise InputError("players = 4: give the dealer, a seat 0..3 other than the declarer")
        shift = (dealer + 1) % 4  # slot s is seat (s + shift) % 4, slot 3 the dealer
    gs = state.to_array()
    rotate_seats(gs, shift)
    ws = new_workspace()
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    for slot in range(n):
        ws[W_RESULT, slot] = results[(slot + shift) % n]
        ws[W_CARD_POINTS, slot] = card_points[(slot + shift) % n]
        ws[W_MARRIAGE_POINTS, slot] = marriage_points[(slot + shift) % n]
        rec[0, D_BOLT + slot] = bolts[(slot + shift) % n]
        rec[0, D_TRICKS + slot] = tricks[(slot + shift) % n]
        ws[W_SEATS, slot] = (slot + shift) % n
    slot_declarer = (declarer - shift) % n
    apply_deal(gs, rules.to_array(), slot_declarer, contract, made, conceded, -1, ws, rec, 0)
    out = {key: [int(rec[0, col + (p - shift) % n]) for p in range(n)]
           for key, col in (("change", D_CHANGE), ("score", D_SCORE), ("events", D_EVENTS))}
    winner = int(gs[G_WINNER])
    out["winner"] = (winner + shift) % n if winner >= 0 else -1
    rotate_seats(gs, (4 - shift) % 4)
    return GameState.from_array(gs, n), out


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
    """The highest bid a hand allows in the auction: 120 + its marriages (``max_contract`` alone under
    no_bid_cap), at most ``max_contract`` and ``bid_ceiling_before_talon`` (``bids_nb.auction_cap``;
    a final contract's cap ignores the ceiling)."""
    return int(auction_cap(_mask(hand, "hand"), (rules or HouseRules()).to_array()))
