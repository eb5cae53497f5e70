"""The records of simulated deals: a chunk of a run played again deal by deal (the chunk kernels
called one deal at a time, from the chunk's own seeds, so the same deals and decisions as the
stored run), each deal turned into its record. A deal's row holds all but the order of the calls
of its auction (each seat's last bid only); the calls are asked again of the same players with
the players' generator as it stood when the deal began (the auction is the first thing a deal
draws from it), through the record walk's auction (``sim.records.walk``), and every record is
replayed (``sim.records.replay.check``) to prove it the deal the engine played.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from sim.engine import BatchSpec, EngineError, chunk_start
from sim.engine.chunks_nb import run_deals, run_games
from sim.engine.enums import DARK_CONTRACT, ILLEGAL
from sim.engine.schema import (
    KERNEL_DEAL_INDEX,
    N_DEAL_COLUMNS,
    N_GAME_COLUMNS,
    N_PLAYS,
    REDEAL_FOUR_ACES,
    REDEAL_HAND_POINTS,
)
from sim.game import rules_layout as R
from sim.game.play_nb import LEAD_WITHOUT_DECLARING
from sim.game.rules import PRESETS, HouseRules, preset
from sim.game.state_layout import (
    G_ATTEMPTS,
    G_BOLTS,
    G_CONCESSIONS,
    G_DEALER,
    G_DEALS,
    G_FALLS,
    G_FIRST_DEALER,
    G_GOLDEN_LEFT,
    G_GOLDEN_ROUNDS,
    G_NO_WINS,
    G_ON_BARREL,
    G_QUIET,
    G_SCORE,
    G_WINNER,
)
from sim.players.seat_nb import choose_bid, choose_dark
from sim.records.parts import DARK, PASS, Gift, Play, SeatState
from sim.records.record import Record
from sim.records.replay import check
from sim.records.walk import Walk, walk, walk_auction

__all__ = ["rules_name", "trace_chunk", "trace_run"]

_N = 3


def rules_name(rules: HouseRules) -> str | None:
    """The preset ``rules`` are, by name, or None: a record names its rules as a preset (or a file)."""
    return next((name for name in PRESETS if preset(name) == rules), None)


class _Asker:
    """The players of the run asked for the calls of one deal's auction, in the engine's seats,
    from a copy of the players' generator as it stood when the deal began."""

    def __init__(self, rng, rules, codes, prm, gs, hands, dealer, script, solver):
        self.rng, self.rules, self.codes, self.prm, self.gs = rng, rules, codes, prm, gs
        self.hands, self.dealer, self.script, self.solver = hands, dealer, script, solver

    def seat(self, p: int) -> int:
        return (self.dealer + 1 + p) % _N

    def dark(self, opener: int) -> bool:
        e = self.seat(opener)
        return int(choose_dark(self.codes[e], e, self.gs, self.rules, self.prm, self.rng, self.script,
                               self.solver[4])) == 1

    def bid(self, p: int, least: int, cap: int, high_seat: int, dark: bool) -> int:
        e = self.seat(p)
        high_e = self.seat(high_seat) if high_seat >= 0 else -1
        return int(choose_bid(self.codes[e], e, np.int64(self.hands[e]), np.int64(high_e), np.int64(least),
                              np.int64(cap), self.gs, self.rules, self.prm, self.rng, self.script, self.solver[4],
                              self.solver[5]))


def _standing(gs: np.ndarray, dealer: int) -> tuple[tuple[SeatState, ...], int]:
    """Each record seat's standing (record seat p is engine seat dealer + 1 + p) and the golden
    deals left."""
    out = []
    for p in range(_N):
        e = (dealer + 1 + p) % _N
        out.append(SeatState(int(gs[G_SCORE + e]), bool(gs[G_ON_BARREL + e]), int(gs[G_ATTEMPTS + e]),
                             int(gs[G_FALLS + e]), int(gs[G_BOLTS + e]), int(gs[G_QUIET + e]),
                             int(gs[G_NO_WINS + e]), int(gs[G_CONCESSIONS + e])))
    return tuple(out), int(gs[G_GOLDEN_LEFT])


def _record(spec: BatchSpec, rules_name: str, row: np.ndarray, plays: np.ndarray, gs: np.ndarray, rng: np.ndarray,
            arrays: tuple) -> Record:
    """The record of the deal in ``row`` (a kernel record row) and ``plays``, played from the game
    state ``gs`` with the players' generator ``rng`` as they stood when it began."""
    col = KERNEL_DEAL_INDEX
    dealer = int(row[col["dealer"]])
    seats = [(dealer + 1 + p) % _N for p in range(_N)]  # record seat p -> engine seat
    before, golden = _standing(gs, dealer)
    hands = tuple(int(row[col[f"hand{e}"]]) for e in seats)
    label = f"seed {spec.seed}, game {int(row[col['game']])}, deal {int(row[col['deal']])}"
    rec = Record(rules=rules_name, hands=hands, talon=int(row[col["talon"]]), before=before, golden=golden,
                 label=label)
    redeal = int(row[col["redeal"]])
    calls = ()
    if not REDEAL_HAND_POINTS <= redeal <= REDEAL_FOUR_ACES:  # a hand redeal comes before the auction
        rules, codes, prm, script, solver = arrays
        w = Walk()
        hands_e = np.array([int(row[col[f"hand{e}"]]) for e in range(_N)], dtype=np.int64)
        walk_auction(rec, spec.rules, w, _Asker(rng.copy(), rules, codes, prm, gs.copy(), hands_e, dealer, script,
                                                solver))
        calls = tuple(w.calls)
        last = [0] * _N
        for call in calls:
            if call.bid != PASS:
                last[call.seat] = DARK_CONTRACT if call.bid == DARK else call.bid
        stored = [int(row[col[f"bid{e}"]]) for e in seats]
        declarer_differs = not redeal and w.declarer is not None and seats[w.declarer] != int(row[col["declarer"]])
        if last != stored or declarer_differs:
            raise EngineError(f"the calls asked again of {label}'s players are not the run's: last bids {last}, "
                              f"the run's {stored}" + (", another declarer" if declarer_differs else ""))  # a bug
    declarer = int(row[col["declarer"]])
    if redeal or declarer < 0:  # thrown in: nobody scores
        return Record(**{**rec.__dict__, "auction": calls, "result": (0, 0, 0), "lines": {}})
    d = seats.index(declarer)
    gifts = tuple(Gift(int(row[col[f"gift{seats[q]}"]]), q) for q in ((d + 1) % _N, (d + 2) % _N))
    conceded = bool(row[col["conceded"]])
    tricks: list[tuple[Play, ...]] = []
    if not conceded:
        for t in range(8):
            trick = []
            for k in range(_N):
                choice = int(plays[_N * t + k])
                card = choice & ~LEAD_WITHOUT_DECLARING
                trick.append(Play(card, False if k else choice == card))
            tricks.append(tuple(trick))
    result = tuple(int(row[col[f"change{e}"]]) for e in seats)
    rec = Record(**{**rec.__dict__, "auction": calls, "gifts": gifts, "conceded": conceded,
                    "contract": None if conceded else int(row[col["contract"]]), "tricks": tuple(tricks),
                    "result": result, "lines": {}})
    # Every lead the engine took undeclined is marked above; the walk keeps the mark where it declares.
    marks = walk(rec, spec.rules, infer_marks=True).marks
    tricks = tuple(tuple(Play(p.card, k == 0 and marks[t]) for k, p in enumerate(trick))
                   for t, trick in enumerate(rec.tricks))
    return Record(**{**rec.__dict__, "tricks": tricks, "lines": {}})


def trace_chunk(spec: BatchSpec, index: int, *, rules_file: str | None = None) -> Iterator[Record]:
    """The records of chunk ``index``'s deals, in the order the run stores them, each replayed
    through the engine (a record the replay refuses, or scores otherwise, is a bug: EngineError).
    The chunk kernels are called one deal at a time from the chunk's seeds, as ``play_chunk``
    plays the whole chunk. A record names its rules by their preset or, for rules that are none,
    by ``rules_file`` (the rules file the caller writes beside the records)."""
    if spec.rules.players != _N:
        raise EngineError(f"records hold 3-player deals; these rules have players = {spec.rules.players}")
    first, size, rng, deal_rng, rules, codes, prm, ws, gs, no_script, solver = chunk_start(spec, index)
    arrays = (rules, codes, prm, no_script, solver)
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    name = rules_name(spec.rules) or rules_file
    if name is None:
        raise EngineError("records name their rules as a preset or a file: these rules are no preset, and no "
                          "rules file was given")
    if spec.mode == "deals":
        for i in range(size):
            at_start = rng.copy()
            if run_deals(rng, deal_rng, rules, codes, prm, first + i, 1, rec, plays, gs, ws, no_script,
                         solver) == ILLEGAL:
                raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
            yield _checked(spec, name, _record(spec, name, rec[0], plays[0], np.zeros_like(gs), at_start, arrays))
        return
    grec = np.zeros((size, N_GAME_COLUMNS), dtype=np.int32)
    done = np.zeros(1, dtype=np.int64)
    while done[0] < size:
        at_start = rng.copy()
        before = gs.copy()
        rows = run_games(rng, deal_rng, rules, codes, prm, gs, first, size, spec.max_deals_per_game, rec, plays, grec,
                         done, ws, no_script, solver)
        if rows == ILLEGAL:
            raise EngineError(f"illegal action in chunk {index} (seed {spec.seed})")
        if before[G_DEALS] == 0:  # a new game: the state run_games starts it from
            dealer = int(rec[0, KERNEL_DEAL_INDEX["dealer"]])
            before[:] = 0
            before[G_WINNER] = -1
            before[G_FIRST_DEALER] = before[G_DEALER] = dealer
            if rules[R.GOLDEN_ROUND]:
                before[G_GOLDEN_LEFT] = _N
                before[G_GOLDEN_ROUNDS] = 1
        yield _checked(spec, name, _record(spec, name, rec[0], plays[0], before, at_start, arrays))


def _checked(spec: BatchSpec, name: str, rec: Record) -> Record:
    try:
        verdict = check(rec, rules=spec.rules)
    except Exception as exc:  # a record of the engine's own deal refused: a bug of the records
        raise EngineError(f"the record of {rec.label} does not replay: {exc}") from None
    if not verdict.recorded and rec.result is not None:
        raise EngineError(f"the record of {rec.label} does not replay: {verdict.line}")
    return rec


def trace_run(spec: BatchSpec, *, rules_file: str | None = None) -> Iterator[Record]:
    """The records of every deal of a run, chunk by chunk (``rules_file``: as ``trace_chunk``)."""
    for index in range(spec.n_chunks):
        yield from trace_chunk(spec, index, rules_file=rules_file)
