"""The Python face of ``playouts_nb``: the bid advisor's fixed-deal playouts.

What the bid advisor (``analysis.bids.advisor``) and the bid-success tables
(``analysis.bids.table``) ask of the engine, for a 7-card hand of the 3-player deal whose holder
is seat 0 (the declarer-to-be), seat 1 playing after him (his left), seat 2 after seat 1:

- ``sample_unseen``: samples of the 17 cards he cannot see (talon 3, the two opponents 7 + 7),
  cards known to lie somewhere (``Known``) kept there;
- ``dd_levels`` and ``dd_exact_values``: the best discard's double-dummy value of each sample,
  as the highest contract level it reaches or exactly;
- ``played_points`` and ``contract_points``: his points when every seat plays by one method
  (learned, heuristic, pimc or dd) from the talon on;
- ``auction_lines``: the whole deal played once for each of seat 0's bidding lines ("bid up to
  b", or pass), every seat's result and score change, the declarer, the contract after the talon
  (the declarer raises or concedes as his player does), from a score situation.

Samples are drawn in chunks of ``CHUNK``, each chunk's unseen cards and each method's decisions from
their own stream (``sim.streams.PLAYOUT_STREAMS``). Results depend on
the seed and the sample count only, never on the number of threads. The kernels run on worker
threads (``sim.parallel``), one set of buffers per thread, while the calling thread only waits, so
Ctrl-C and progress stay prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim import InputError
from sim.compiling import AsideKernel
from sim.engine import playouts_nb
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.engine.workspace import new_workspace
from sim.game.cards import FULL_DECK
from sim.game.rng_nb import state_from_sequence
from sim.game.rules import HouseRules
from sim.game.state_layout import G_ATTEMPTS, G_BOLTS, G_ON_BARREL, G_QUIET, G_SCORE, G_WINNER, N_GAME_STATE
from sim.parallel import Tally, run_chunks, thread_buffers
from sim.players.params import MAX_PIMC_WORLDS, HeuristicParams, learned_nets, params_matrix
from sim.players.registry import is_learned, parse_players, player_codes, player_type
from sim.players.seat_nb import seat_tuple
from sim.solver import PIMC_TABLE_LOG2_ROWS
from sim.streams import PLAYOUT_STREAMS, sequence

# The columns of ``auction_lines``' rows (``playouts_nb.LN_*``): per seat 0, 1, 2 the raw deal result
# (the contract won or lost, defence points, a concession's payout), the score change (with the
# barrel's, bolts' and trucks' effects) and the score after the deal; then the declarer (-1: thrown
# in), the winning bid, the final contract, made (1/0) and conceded (1/0).
LINE_COLUMNS = ("result0", "result1", "result2", "change0", "change1", "change2", "score0", "score1", "score2",
                "declarer", "winning_bid", "contract", "made", "conceded")
PASS_LINE = -1  # the line limit of passing at every turn (first hand under forced_first_bid: the forced bid)

__all__ = [
    "CHUNK", "SEARCH_CHUNK", "ADVICE_WORLDS", "AdvisorError", "Known", "Situation",
    "sample_unseen", "dd_levels", "dd_exact_values", "played_points", "contract_points",
    "LINE_COLUMNS", "PASS_LINE", "auction_lines", "COMPILE_ASIDE",
]

# What a second process compiles while ``thousand bid``'s first run on a cold cache compiles the rest
# (``sim.compiling.compile_aside``, docs/compiling.md): kernels that ``auction_lines`` reaches late in
# its compile and the make-rate table's ``play_samples`` after it, each for the argument types the
# advisor calls it with, in the order the second process compiles them: the kernels this process
# reaches last, mostly, so that the two rarely wait for each other, and about half of the compile
# (with the auction as well, the second process compiled 64 CPU seconds to this one's 44). Copied
# from a log of ``benchmarks/compile_profile.py`` (its ``sig``); a signature the code no longer
# calls is compiled for nothing, and the command compiles what it needs itself
# (tests/test_compiling.py checks that none is left so).
COMPILE_ASIDE: tuple[AsideKernel, ...] = (
    ("sim.players.pimc_nb", "pimc_choose_discard",
     "(int64, int64, int64, int64, Array(int64, 1, 'C'), Array(uint64, 1, 'C'), Array(int64, 1, 'C'), "
     "Array(int64, 2, 'C'), Array(int64, 2, 'C'), Array(int64, 1, 'C'), )"),
    ("sim.engine.settle_nb", "apply_deal34",
     "(Array(int64, 1, 'C'), Array(int64, 1, 'C'), int64, int64, boolean, boolean, int64, Array(int64, 2, "
     "'C'), Array(int32, 2, 'C'), int64, )"),
    ("sim.players.leadage_nb", "leadage_card",
     "(int64, int64, int64, Array(int64, 1, 'C'), int64, int64, int64, int64, int64, int64, boolean, "
     "Array(int64, 1, 'C'), )"),
    ("sim.players.random_nb", "random_card",
     "(int64, Array(int64, 1, 'C'), int64, int64, boolean, Array(int64, 1, 'C'), Array(uint64, 1, 'C'), )"),
    ("sim.players.pimc_nb", "pimc_choose_card",
     "(Array(int64, 1, 'C'), int64, int64, Array(int64, 1, 'C'), int64, int64, int64, int64, int64, int64,"
     " int64, int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), int64, Array(int64, 1, 'C'), "
     "Array(uint64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), Array(int64, 2, 'C'), "
     "Array(int64, 1, 'C'), )"),
    ("sim.players.dd_nb", "dd_choose_card",
     "(Array(int64, 1, 'C'), int64, int64, Array(int64, 1, 'C'), int64, int64, int64, int64, int64, int64,"
     " int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), Array(int64, 2, "
     "'C'), )"),
    ("sim.players.learned.cards_nb", "learned_card",
     "(int64, Array(int64, 1, 'C'), int64, Array(int64, 1, 'C'), int64, int64, int64, int64, int64, "
     "Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 1, 'C'), int64, "
     "int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 1, 'C'), "
     "boolean, Array(int64, 1, 'C'), Array(float64, 2, 'C'), Array(uint64, 1, 'C'), Array(float32, 2, "
     "'C'), Array(float32, 2, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), )"),
    ("sim.players.learned.win_nb", "learned_win_contract",
     "(int64, int64, int64, int64, int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), "
     "Array(float64, 2, 'C'), Array(float32, 2, 'C'), Array(float32, 2, 'C'), )"),
    ("sim.players.learned.bidding_nb", "learned_contract",
     "(int64, int64, int64, int64, int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), "
     "Array(float64, 2, 'C'), Array(float32, 2, 'C'), Array(float32, 2, 'C'), )"),
    ("sim.players.leadage_nb", "leadage_contract",
     "(int64, int64, int64, int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(uint64, 1, "
     "'C'), )"),
    ("sim.players.random_nb", "random_contract",
     "(int64, int64, int64, Array(int64, 1, 'C'), Array(uint64, 1, 'C'), )"),
    ("sim.players.dd_nb", "dd_final_contract",
     "(int64, int64, int64, int64, Array(int64, 1, 'C'), )"),
    ("sim.engine.playouts_nb", "play_samples",
     "(Array(int64, 1, 'C'), Array(int64, 2, 'C'), int64, Array(int64, 1, 'C'), Array(float64, 2, 'C'), "
     "Array(uint64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), Array(int8, 2, 'C'), Array(int64,"
     " 1, 'C'), Tuple((Array(int64, 1, 'C'), Array(int64, 2, 'C'), Array(int64, 2, 'C'), Array(int64, 1, "
     "'C'), Array(float32, 2, 'C'), Array(float32, 2, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), "
     ")), int64, )"),
)

CHUNK = 50
SEARCH_CHUNK = 10  # samples per task of the double-dummy searches (no random stream to keep)
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
    """The score situation: your score and whether you sit on the barrel, and the same of the
    opponents (``others``: the left one, seat 1, who bids and plays after you, then the right one);
    your counters: ``attempts`` (barrel attempts used), ``bolts`` (bolts toward the penalty) and
    ``passes`` (deals in a row without declaring, under bolt_on = three_passes)."""

    score: int = 0
    on_barrel: bool = False
    others: tuple[int, int] = (0, 0)
    others_on_barrel: tuple[bool, bool] = (False, False)
    attempts: int = 0
    bolts: int = 0
    passes: int = 0


FAST_METHODS = ("heuristic", "learned")  # played a chunk a call; the searching players a deal a call


def _seats(player: str, rules: HouseRules, worlds: int = ADVICE_WORLDS) -> tuple[np.ndarray, np.ndarray,
                                                                                  np.ndarray | None]:
    """(codes, parameter rows, packed nets or None) for every seat played by ``player`` (a name
    ``sim.players.parse_players`` takes, one for all three seats)."""
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise AdvisorError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not {worlds}")
    names = parse_players(player, 3)
    prm = params_matrix(HeuristicParams(pimc_worlds=worlds), rules)
    net = learned_nets(names, prm, 3, rules)
    return player_codes(names), prm, net


def _with_net(solver: tuple, net: np.ndarray | None) -> tuple:
    """A thread's seat tuple with the learned seats' packed nets (read only: shared by threads)."""
    return solver if net is None else (*solver[:4], net, *solver[5:])


def _rng(seed: int, chunk: int, method: str) -> np.ndarray:
    """Generator state of playout chunk ``chunk``'s stream of ``method`` (``sim.streams.PLAYOUT_STREAMS``)."""
    return state_from_sequence(sequence(PLAYOUT_STREAMS[method], seed, chunk))


def _buffers():
    """The calling thread's buffers: a searching seat's (solver state, moves, table, PIMC worlds),
    the engine's workspace and game state, a record row and a script."""
    return thread_buffers("advisor", _new_buffers)


def _new_buffers() -> dict:
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
    """``n`` samples (talon, left 7, right 7) of the unseen cards, chunk by chunk: the first ``m``
    of ``n`` samples are the ``m`` samples, whatever ``n``."""
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
                  hands: np.ndarray | None = None, first_chunk: int = 0, contract: int = -1,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The declarer's points (card points + marriages) when every seat plays by ``method``
    (``heuristic``, ``learned`` or ``learned:PATH``, ``pimc`` or ``dd``) from the talon on, the
    declarer playing ``contract`` (-1: none; the learned player plays the contract it is given, the
    others play for points whatever it is: see ``contract_points``).
    ``hands``: per-sample 7-card hands instead of one ``hand`` for all. ``first_chunk``: the index
    of the first CHUNK of samples in a longer sequence (``samples`` starting at ``first_chunk *
    CHUNK`` of it), so that a part played alone draws the random streams it would draw in the
    whole. ``progress(samples done)`` as in ``_run_counted``; PIMC deals, which can take minutes
    each, count one by one."""
    if is_learned(method) and contract < 0:  # its net plays a contract: without one it plays out of its training
        raise ValueError("a learned declarer's points need the contract he plays: use contract_points")
    return _played(_seats(method, rules, worlds), hand, samples, rules, method, seed, threads=threads, hands=hands,
                   first_chunk=first_chunk, contract=contract, progress=progress)


def _played(seats: tuple, hand: int, samples: np.ndarray, rules: HouseRules, method: str, seed: int, *,
            threads: int | None, hands: np.ndarray | None, first_chunk: int, contract: int,
            progress: Callable[[int], None] | None) -> np.ndarray:
    """``played_points`` with its seats resolved (``_seats``: codes, parameter rows, nets), so that
    a caller playing several contracts loads and checks the learned weights once."""
    codes, prm, net = seats
    arr = rules.to_array()
    out = np.zeros(len(samples), dtype=np.int64)
    # A chunk's deals draw from one random stream in turn, so playing them one call each gives the
    # same deals as one call for all: slow deals are played (and counted) one by one.
    step = CHUNK if player_type(method) in FAST_METHODS else 1
    stream = "learned" if is_learned(method) else method

    def work(i, a, b, tally):
        bf = _buffers()
        rng = _rng(seed, first_chunk + i, stream)
        solver = _with_net(bf["solver"], net)
        if hands is None:
            for lo in range(a, b, step):
                hi = min(b, lo + step)
                playouts_nb.play_samples(codes, samples[lo:hi], hand, arr, prm, rng, out[lo:hi], bf["ws"],
                                         bf["plays"], bf["script"], solver, contract)
                tally.add(hi - lo)
        else:
            for j in range(a, b):
                out[j] = playouts_nb.play_from_talon(codes, int(hands[j]) | int(samples[j, 0]), samples[j, 1],
                                                     samples[j, 2], samples[j, 0], arr, prm, rng, bf["ws"], bf["plays"],
                                                     bf["script"], solver, contract)[0]
                tally.add(1)

    _run_counted(len(samples), work, size=CHUNK, threads=threads, progress=progress)
    return out


def contract_points(hand: int, samples: np.ndarray, rules: HouseRules, method: str, seed: int,
                    levels: list[int] | np.ndarray, *, worlds: int = ADVICE_WORLDS, threads: int | None = None,
                    hands: np.ndarray | None = None, first_chunk: int = 0,
                    progress: Callable[[int], None] | None = None,
                    stop: Callable[[int, np.ndarray], bool] | None = None) -> np.ndarray:
    """(samples, levels) the declarer's points when he plays each contract of ``levels``: a learned
    player plays each contract apart (its play aims at the contract it is given), the others play
    once for points (``played_points`` with no contract), that play answering every level. A
    contract b is made where the points reach b. ``progress`` counts samples (a learned player's
    levels one after another: samples × levels). ``stop(b, points)``, asked after each contract a
    learned player plays, ends the play there when true: the columns returned are those played
    (the weights are loaded once for all of them)."""
    levels = [int(b) for b in levels]
    if not is_learned(method):
        pts = played_points(hand, samples, rules, method, seed, worlds=worlds, threads=threads, hands=hands,
                            first_chunk=first_chunk, progress=progress)
        return np.repeat(pts[:, None], len(levels), axis=1)
    out = np.zeros((len(samples), len(levels)), dtype=np.int64)
    n = len(samples)
    seats = _seats(method, rules, worlds)  # the weights are loaded and checked once for every level
    for k, b in enumerate(levels):
        step = None if progress is None else (lambda done, k=k: progress(k * n + done))
        out[:, k] = _played(seats, hand, samples, rules, method, seed, threads=threads, hands=hands,
                            first_chunk=first_chunk, contract=b, progress=step)
        if stop is not None and stop(b, out[:, k]):
            return out[:, :k + 1]
    return out


def auction_lines(hand: int, samples: np.ndarray, rules: HouseRules, dealer: int, situation: Situation,
                  limits: list[int] | np.ndarray, seed: int, *, player: str = "learned", worlds: int = ADVICE_WORLDS,
                  threads: int | None = None, hands: np.ndarray | None = None, first_chunk: int = 0,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Every sample's deal played once for each of seat 0's bidding lines: ``limits[k]`` > 0 raises
    by the least step while the raise is at most that (``H_BID_LIMIT``), ``PASS_LINE`` passes at
    every turn (first hand under forced_first_bid: the forced bid, then passes); 0 bids as the player
    does. The other seats bid, and everybody takes the talon, raises or concedes, gives and plays,
    as ``player`` (one name for all seats: ``learned``, ``heuristic``, ...), from ``situation``'s
    score with ``dealer`` dealing. Returns (samples, limits, ``LINE_COLUMNS``) int64. The lines of
    a sample start from one random state, so they differ by seat 0's bidding alone (a paired
    comparison); ``hands``, ``first_chunk`` and ``progress`` as in ``played_points``."""
    codes, prm, net = _seats(player, rules, worlds)
    arr = rules.to_array()
    lim = np.asarray(limits, dtype=np.float64)
    out = np.zeros((len(samples), len(lim), len(LINE_COLUMNS)), dtype=np.int64)
    hands7 = np.full(len(samples), hand, dtype=np.int64) if hands is None else np.asarray(hands, dtype=np.int64)
    step = CHUNK if player_type(player.strip().lower()) in FAST_METHODS else 1

    def work(i, a, b, tally):
        bf = _buffers()
        gs = bf["gs"]
        _situation_state(gs, situation)
        start = _rng(seed, first_chunk + i, "lines")
        scratch = start.copy()
        rows = prm.copy()  # the kernel sets seat 0's line in its own copy
        solver = _with_net(bf["solver"], net)
        for lo in range(a, b, step):
            hi = min(b, lo + step)
            playouts_nb.line_samples(samples[lo:hi], hands7[lo:hi], lim, dealer, arr, codes, rows, gs, start, scratch,
                                     out[lo:hi], bf["ws"], bf["rec"], bf["plays"], bf["script"], solver)
            tally.add(hi - lo)

    _run_counted(len(samples), work, size=CHUNK, threads=threads, progress=progress)
    if (out[:, :, LINE_COLUMNS.index("declarer")] == playouts_nb.LINE_ILLEGAL).any():
        raise RuntimeError(f"a {player} seat chose an illegal action on an auction line (a bug)")
    return out


def _situation_state(gs: np.ndarray, situation: Situation) -> None:
    """The game state of ``situation`` (every seat's score and barrel seat) into ``gs[:N_GAME_STATE]``;
    the rest of ``gs`` is room for the copy each deal is settled on."""
    gs[:] = 0
    for seat, (score, sits) in enumerate(zip((situation.score, *situation.others),
                                             (situation.on_barrel, *situation.others_on_barrel), strict=True)):
        gs[G_SCORE + seat] = score
        gs[G_ON_BARREL + seat] = sits
    gs[G_ATTEMPTS] = situation.attempts
    gs[G_BOLTS] = situation.bolts
    gs[G_QUIET] = situation.passes
    gs[G_WINNER] = -1
