"""The Python face of ``playouts_nb``: the bid advisor's fixed-deal playouts.

What the bid advisor (``analysis.advisor``) and the bid-success tables (``analysis.tables``) ask
of the engine, for a 7-card hand of the 3-player deal whose holder is seat 0 (the declarer-to-be),
seat 1 playing after him (his left), seat 2 after seat 1:

- ``sample_unseen``: samples of the 17 cards he cannot see (talon 3, the two opponents 7 + 7),
  cards known to lie somewhere (``Known``) kept there;
- ``dd_levels`` and ``dd_exact_values``: the best discard's double-dummy value of each sample,
  as the highest contract level it reaches or exactly;
- ``played_points``: his points when every seat plays by one method (heuristic, pimc or dd) from
  the talon on;
- ``pass_results``: the pass-and-defend line, in a score situation (``Situation``).

Samples are drawn in chunks of ``CHUNK`` from ``SeedSequence(seed, spawn_key=(chunk,))``; the
methods' own random streams from ``spawn_key=(chunk, method)`` (``METHOD_IDS``). Results depend on
the seed and the sample count only, never on the number of threads. The kernels run on worker
threads (``sim.parallel``), one set of buffers per thread, while the calling thread only waits, so
Ctrl-C and progress stay prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim import InputError
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.game.cards import FULL_DECK
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.game.state_layout import G_ON_BARREL, G_SCORE, G_WINNER, N_GAME_STATE
from sim.parallel import Tally, run_chunks, thread_buffers
from sim.players import MAX_PIMC_WORLDS
from sim.players.layout import PLAYER_CODES, PLAYER_HEURISTIC, PLAYER_SCRIPTED
from sim.solver import PIMC_TABLE_LOG2_ROWS

__all__ = [
    "CHUNK", "SEARCH_CHUNK", "METHOD_IDS", "ADVICE_WORLDS", "AdvisorError", "Known", "Situation",
    "sample_unseen", "dd_levels", "dd_exact_values", "played_points", "pass_results",
]

CHUNK = 50
SEARCH_CHUNK = 10  # samples per task of the double-dummy searches (no random stream to keep)
METHOD_IDS = {"dd": 1, "pimc": 2, "heuristic": 3, "pass": 4, "sample": 0}
# Fewer worlds than a game's PIMC seat (sim.players.PIMC_WORLDS): the advisor plays every sampled deal
# with every seat searching, and its answer is an average over many deals.
ADVICE_WORLDS = 16


class AdvisorError(InputError):
    """Bad advisor input (hand, known cards, seat, risk, sizes); the message says what is wrong."""


@dataclass(frozen=True)
class Known:
    """Cards known to lie with the left opponent (seat 1, plays after you), the right one, or in
    the talon."""

    left: int = 0
    right: int = 0
    talon: int = 0


@dataclass(frozen=True)
class Situation:
    """The score situation: your score and whether you sit on the barrel."""

    score: int = 0
    on_barrel: bool = False


def _rng(seed: int, chunk: int, method: str) -> np.ndarray:
    return state_from_seed(seed, (chunk,) if method == "sample" else (chunk, METHOD_IDS[method]))


def _buffers():
    """The calling thread's buffers: a searching seat's (solver state, moves, table, PIMC worlds),
    the engine's workspace and game state, a record row and a script."""
    return thread_buffers("advisor", _new_buffers)


def _new_buffers() -> dict:
    from sim.engine.workspace import new_workspace
    from sim.players import seat_tuple

    # its searches' results never depend on the table; no advisor seat is learned (yet)
    return {
        "solver": seat_tuple(PIMC_TABLE_LOG2_ROWS),
        "ws": new_workspace(), "gs": np.zeros(2 * N_GAME_STATE, dtype=np.int64),
        "rec": np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32),
        "plays": np.zeros((1, N_PLAYS), dtype=np.int8), "script": np.zeros(64, dtype=np.int64),
    }


def _run_counted(n: int, work: Callable[[int, int, int, Tally], None], *, size: int, threads: int | None,
                 progress: Callable[[int], None] | None) -> None:
    """``run_chunks`` of ``work(i, lo, hi, tally)``, which adds the samples it finished to ``tally``;
    ``progress(samples done)`` is called from this thread while it waits, and once at the end."""
    tally = Tally()
    run_chunks(n, lambda i, a, b: work(i, a, b, tally), size=size, threads=threads,
               on_wait=None if progress is None else lambda: progress(tally.value))
    if progress is not None:
        progress(n)


def sample_unseen(hand: int, known: Known, n: int, seed: int) -> np.ndarray:
    """``n`` samples (talon, left 7, right 7) of the unseen cards, chunk by chunk."""
    from sim.engine import playouts_nb

    free = FULL_DECK & ~(hand | known.left | known.right | known.talon)
    out = np.zeros((n, 3), dtype=np.int64)
    deck = np.zeros(24, dtype=np.int64)
    for i, lo in enumerate(range(0, n, CHUNK)):
        hi = min(n, lo + CHUNK)
        playouts_nb.sample_deals(_rng(seed, i, "sample"), free, known.talon, known.left, known.right, hi - lo,
                                 out[lo:hi], deck)
    return out


def dd_levels(hand: int, samples: np.ndarray, rules: HouseRules, lo: int, hi: int, threads: int | None = None,
              step: int | None = None, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Per sample, the highest level lo, lo + step, ..., hi that the best discard's double-dummy
    value reaches (lo - step if none). ``progress(samples done)`` as in ``_run_counted``."""
    from sim.engine import playouts_nb

    step = step or rules.bid_step
    arr = rules.to_array()
    out = np.zeros(len(samples), dtype=np.int64)

    def work(_i, a, b, tally):
        bf = _buffers()
        playouts_nb.dd_levels(samples[a:b], hand, arr, lo, hi, step, out[a:b], *bf["solver"][:3])
        tally.add(b - a)

    _run_counted(len(samples), work, size=SEARCH_CHUNK, threads=threads, progress=progress)
    return out


def dd_exact_values(hand: int, samples: np.ndarray, rules: HouseRules, threads: int | None = None,
                    progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Per sample, the exact best-discard double-dummy value."""
    from sim.engine import playouts_nb

    arr = rules.to_array()
    out = np.zeros(len(samples), dtype=np.int64)

    def work(_i, a, b, tally):
        bf = _buffers()
        playouts_nb.dd_values(samples[a:b], hand, arr, out[a:b], *bf["solver"][:3])
        tally.add(b - a)

    _run_counted(len(samples), work, size=SEARCH_CHUNK, threads=threads, progress=progress)
    return out


def played_points(hand: int, samples: np.ndarray, rules: HouseRules, method: str, seed: int, *,
                  worlds: int = ADVICE_WORLDS, threads: int | None = None,
                  hands: np.ndarray | None = None, first_chunk: int = 0,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The declarer's points (card points + marriages) when every seat plays by ``method``
    (``heuristic``, ``pimc`` or ``dd``) from the talon on. ``hands``: per-sample 7-card hands
    instead of one ``hand`` for all. ``first_chunk``: the index of the first CHUNK of samples in a
    longer sequence (``samples`` starting at ``first_chunk * CHUNK`` of it), so that a part played
    alone draws the random streams it would draw in the whole. ``progress(samples done)`` as in
    ``_run_counted``; PIMC deals, which can take minutes each, count one by one."""
    from sim.engine import playouts_nb
    from sim.players import HeuristicParams, params_matrix

    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise AdvisorError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not {worlds}")
    codes = np.full(3, PLAYER_CODES[method], dtype=np.int64)
    arr = rules.to_array()
    prm = params_matrix(HeuristicParams(pimc_worlds=worlds), rules)
    out = np.zeros(len(samples), dtype=np.int64)
    # A chunk's deals draw from one random stream in turn, so playing them one call each gives the
    # same deals as one call for all: slow deals are played (and counted) one by one.
    step = 1 if method != "heuristic" else CHUNK

    def work(i, a, b, tally):
        bf = _buffers()
        rng = _rng(seed, first_chunk + i, method)
        solver = bf["solver"]
        if hands is None:
            for lo in range(a, b, step):
                hi = min(b, lo + step)
                playouts_nb.play_samples(codes, samples[lo:hi], hand, arr, prm, rng, out[lo:hi], bf["ws"],
                                         bf["plays"], bf["script"], solver)
                tally.add(hi - lo)
        else:
            for j in range(a, b):
                out[j] = playouts_nb.play_from_talon(codes, int(hands[j]) | int(samples[j, 0]), samples[j, 1],
                                                     samples[j, 2], samples[j, 0], arr, prm, rng, bf["ws"], bf["plays"],
                                                     bf["script"], solver)[0]
                tally.add(1)

    _run_counted(len(samples), work, size=CHUNK, threads=threads, progress=progress)
    return out


def pass_results(hand: int, samples: np.ndarray, rules: HouseRules, dealer: int, situation: Situation, seed: int,
                 threads: int | None = None, *, hands: np.ndarray | None = None, first_chunk: int = 0,
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """(seat 0's raw result, the declarer) per sample on the pass-and-defend line: seat 0 passes at
    every turn (as first hand under forced_first_bid: the forced minimum bid, then passes), the other
    two seats bid and everybody plays as the heuristic player, from ``situation``'s score, ``dealer``
    dealing (``playouts_nb.pass_line``). ``hands``, ``first_chunk`` and ``progress`` as in
    ``played_points``."""
    from sim.engine import playouts_nb
    from sim.players import params_matrix

    codes = np.full(3, PLAYER_HEURISTIC, dtype=np.int64)
    bid_codes = codes.copy()
    bid_codes[0] = PLAYER_SCRIPTED  # seat 0 passes: its script is all zeros
    arr = rules.to_array()
    prm = params_matrix(rules=rules)
    out = np.zeros((len(samples), 2), dtype=np.int64)
    hands7 = np.full(len(samples), hand, dtype=np.int64) if hands is None else np.asarray(hands, dtype=np.int64)

    def work(i, a, b, tally):
        bf = _buffers()
        gs = bf["gs"]  # the situation, then room for the copy each deal is settled on
        gs[:] = 0
        gs[G_SCORE] = situation.score
        gs[G_ON_BARREL] = situation.on_barrel
        gs[G_WINNER] = -1
        playouts_nb.pass_samples(samples[a:b], hands7[a:b], dealer, arr, codes, bid_codes, prm, gs,
                                 _rng(seed, first_chunk + i, "pass"),
                                 out[a:b], bf["ws"], bf["rec"], bf["plays"], bf["script"],
                                 bf["solver"])
        tally.add(b - a)

    _run_counted(len(samples), work, size=CHUNK, threads=threads, progress=progress)
    return out
