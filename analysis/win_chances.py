"""Win chances by score situation: each seat's chance of winning the game from the scores at the
start of a deal, learned from whole games of realistic play (the ``win`` objective of
``analysis.bids.value``).

**Data.** Whole games are played under the rules asked for (``sim.runs``, stored under
``out/win-runs``, resumable). Every played deal of a finished game gives three observations, one a
seat: the **situation** at the start of the deal from that seat's point of view (its own score and
whether it sits on the barrel; the same of the two opponents) and whether the seat went on to win
the game. Thrown-in deals repeat the situation of the deal after them and are left out; unfinished
games have no winner and are left out.

**Situation cells.** A score is put in a bin of ``BIN_WIDTH`` points from ``FLOOR`` (scores below
it go to the lowest bin) up to the barrel (the target without a barrel; scores beyond go to the
highest bin); a seat on the barrel is a state of its own, above every bin. The opponents are
**sorted**: the leading one (the higher state) and the trailing one. Two things were measured on
held-out games (20,000 games of the learned player under classic rules) and left out of the cell:
which opponent sits left or right (keeping them apart was worse on held-out games: log-loss 0.5989
against 0.5983 sorted) and who deals (the dealer's edge is +0.03 in logit, about 0.7 percentage
points, and a cell by dealer did not predict held-out games better: log-loss 0.59826 against
0.59829). The seat's counters are not in the cell but in additive terms over it (below); falls
counted toward the reset to zero are in neither.

**Estimate.** Observations of one game share its outcome, so cells are thin where it matters. The
estimate is a two-level smoothing:

1. a **smooth fit**: a logistic model of the win on the three states, additive (one free value a
   state for own, leading and trailing opponent, each curve penalised by its second differences,
   ``SMOOTHNESS``) plus an interaction of own and leading states on blocks of ``BLOCK_BINS`` bins
   (ridge ``INTERACTION_RIDGE``), fitted by Newton's method on the cell counts;
2. **shrinkage** of each cell's win share toward that fit: (wins + m · fit) / (observations + m),
   m = ``PRIOR_STRENGTH`` observations; a dense cell keeps its own share, a thin one the fit's.

The constants were chosen on held-out games (20% of 20,000, by Brier score and log-loss); the
differences between neighbouring choices (bins of 20 to 50 points, m from 300 to infinity) were in
the fourth decimal of the Brier score. m is large because the cells' own shares mostly add noise:
tables from the first N games of one run (learned player, classic) against the table of an
independent run of 50,000 games differ in end-game situations by 0.92 / 0.64 / 0.35 points on
average with the smooth fit alone (N = 2,000 / 5,000 / 20,000), 0.94 / 0.67 / 0.40 with m = 5,000
and 1.09 / 0.88 / 0.75 with m = 1,000, for the same Brier score on the independent games.

**Counters** (``counters``, ``Term``). What the scores do not say, rebuilt for every seat at the
start of every deal from the stored deals (the deals table holds no counter; no stored column was
added): the barrel **attempts** already used by a sitter, the **bolts** counted toward their
penalty (``bolt_count`` cumulative or consecutive) and, under ``bolt_on = three_passes``, the
**passes**: deals in a row without declaring (the third brings a bolt; online: 120 off). Each
enters as an additive term, a logit adjustment by the seat's own count (attempts: for a sitter only)
over the table's chance of its cell, fitted by a penalised logistic fit (ridge ``TERM_RIDGE``) with
that chance as an offset. A term is judged on held-out games: fitted on the fitted games over the
table fitted on them, and scored on the held-out ones against that table alone (log-loss and Brier,
the paired difference with its 95% interval clustered by game); it is **kept** when its log-loss
difference is below 0 with Holm's p over the table's terms below ``TERM_ALPHA``, and a kept term is
then fitted again on all games (the kept ones together). ``WinChanceTable.chance`` reads a kept
term when its counter is given (``own_attempts``, ``own_bolts``, ``own_passes``); without, the chance
is the cell's, averaged over the counts. Measured on the shipped tables (20,000 games of the learned
player, seed 0, 4,000 held out; logit adjustments at counts 0 / 1 / 2; held-out log-loss difference
with the term [95%], Holm p):

- classic, attempts: +0.095 / -0.011 / -0.200 (a sitter against 600 and 200: 57.4%, 54.7%, 50.0%
  on the first, second and third attempt; 55.0% averaged), log-loss 0.60077 against 0.60088,
  -0.000104 [-0.000131, -0.000078], Brier -0.000051 [-0.000064, -0.000039], p 2e-14: kept;
- classic, bolts: +0.053 / -0.005 / -0.075 (at 500 against 600 and 300: 33.6%, 32.4%, 30.8%),
  log-loss -0.000304 [-0.000450, -0.000159], Brier -0.000123 [-0.000186, -0.000060], p 4e-5: kept;
- online, attempts: +0.075 / -0.019 / -0.195, log-loss -0.000089 [-0.000120, -0.000057], Brier
  -0.000043 [-0.000059, -0.000028], p 3e-8: kept;
- online, passes: +0.044 / -0.010 / -0.075 (at 500 against 600 and 300: 34.1%, 32.9%, 31.5%),
  log-loss -0.000246 [-0.000292, -0.000201], Brier -0.000110 [-0.000130, -0.000090], p < 1e-15:
  kept.

The gains are small on all deals (the counters move a chance by a few points, in a minority of
situations) but certain; the table without them stays the cell's average.

**Shipped tables** (``SHIPPED``, ``shipped_table``): the tables of every preset,
20,000 games of the learned player each, lie in ``analysis/win_tables/`` with their provenance in
their metadata (version, games, seed, players, the learned weights' hash, rules, method and the code
fingerprint at their making); ``thousand bid`` reads one when the rules, the learned weights and the
method match (the code fingerprint is recorded, not compared), else builds its table as before.
``benchmarks/ship_win_tables.py`` (``ship_tables``) remakes them.

**Validation** (``Validation``): the table is fitted again on the games whose id is not a multiple
of 5 and scored on the others: Brier score and log-loss against two baselines (a chance of 1/3 for
everybody; "the leader wins": 1 for the seat with the highest score, shared on ties), with the
paired difference's 95% interval clustered by game, the same on end-game situations (somebody at
``END_GAME`` points or more), and calibration by deciles of the predicted chance (observed win share
with its 95% interval clustered by game). **Checks** (``Checks``): every chance lies in [0, 1]; the
three seats' chances of one situation sum to about 1; the chance rises with one's own score and
falls with an opponent's between neighbouring dense cells.

**One file.** The module stays whole though it is longer than the ~600 lines a module is cut at:
its parts (the grid, the observations and counters, the fit, the validation and the checks, the
counters' terms, the study, the shipped tables) are the
steps of one estimate, sharing its cell layout (``Grid``, ``_cell``) and the constants above, and
the study is their one caller outside the tests; cut apart, each file would need the others'
layout, and this account of the method would have no one place.
"""

from __future__ import annotations

import dataclasses
import math
import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.analysis_dir import NoResultError, read_table_metadata, rules_folder, rules_label
from analysis.measures import clustered_mean
from analysis.players import learned_weights
from analysis.stats import Z95, Estimate, estimate_field, holm, stored_row, two_sided_p
from analysis.stored import FINGERPRINT, StaleResultError, holds_out
from analysis.study import Plan, Played, identity, run_study
from sim import InputError, ThousandError, __version__
from sim.engine import BatchSpec
from sim.engine.schema import EV_BARREL_ON, EV_BARREL_STAY, EV_BOLT_PENALTY, EV_REDEAL_PENALTY
from sim.fingerprint import code_fingerprint
from sim.game.rules import PRESETS, HouseRules, load_rules, recorded_rules_are
from sim.players.learned.win_table import WIN_TABLES_DIR, save_win_table
from sim.players.registry import parse_players
from sim.runs import read_shard, verify_run, write_bytes_if_different

if TYPE_CHECKING:
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "BIN_WIDTH", "FLOOR", "PRIOR_STRENGTH", "SMOOTHNESS", "BLOCK_BINS",
    "INTERACTION_RIDGE", "HOLDOUT_EVERY", "END_GAME", "DENSE", "TYPICAL_THIRD", "COUNTERS", "TERM_RIDGE", "TERM_ALPHA",
    "IDENTITY", "Grid", "situations", "counters", "observations", "fit_table", "Term", "term_counters", "term_record",
    "Calibration", "Versus", "Validation", "validation_record", "Checks", "WinChanceTable",
    "win_chances",
    "BID_OPTIONS", "win_table_for_bid", "SHIPPED_DIR", "SHIPPED", "SHIPPED_GAMES", "shipped_path", "shipped_table",
    "ship_tables", "ship_table",
]

TABLE_FILE = "win_chances.parquet"
PLOT_FILE = "win_chances.png"
BIN_WIDTH = 40  # points a score bin spans
FLOOR = -200  # the lowest bin holds every score below FLOOR + BIN_WIDTH
PRIOR_STRENGTH = 5000.0  # m: a cell of m observations weighs as much as the smooth fit
SMOOTHNESS = 10.0  # penalty on the second differences of the fit's curves (logit units)
BLOCK_BINS = 5  # bins a block of the own x leading-opponent interaction spans (200 points)
INTERACTION_RIDGE = 1.0  # ridge penalty on the interaction's values (logit units)
HOLDOUT_EVERY = 5  # games whose id is a multiple of this are held out for the validation
END_GAME = 600  # a situation where somebody has this score or more (or sits on the barrel) is an end game
DENSE = 200  # observations a cell needs for the monotonicity and sum checks
TYPICAL_THIRD = 200  # the trailing opponent's score in the printed table and the plot (at most the leader's)
COUNTERS = ("attempts", "bolts", "passes")  # a seat's counters at the start of a deal (``counters``)
TERM_RIDGE = 1.0  # ridge penalty on a term's logit adjustments
TERM_ALPHA = 0.05  # a term is kept when it improves held-out games at this family-wise level (Holm)
_DECILES = 10
_EPS = 1e-6  # predictions are kept this far from 0 and 1 in the log-loss
SHIPPED_DIR = Path(__file__).resolve().parent / "win_tables"  # the tables shipped with the package
SHIPPED = tuple(PRESETS)  # the presets whose tables ship: all of them
SHIPPED_GAMES = 20_000  # whole games of the learned player a shipped table learns from


@dataclasses.dataclass(frozen=True)
class Grid:
    """The score states of a rule set: bins of ``width`` points from ``floor`` up to ``top`` (the
    barrel, or the target without one), then the barrel state (index ``states - 1``)."""

    floor: int
    width: int
    top: int
    target: int
    has_barrel: bool
    ranged: bool = False  # the range barrel (barrel_freeze = false): a sitter keeps his score in [top, target)

    @property
    def bins(self) -> int:
        return -(-(self.top - self.floor) // self.width)

    @property
    def states(self) -> int:
        return self.bins + 1

    @property
    def barrel_state(self) -> int:
        return self.bins

    @classmethod
    def of(cls, rules: HouseRules) -> Grid:
        top = rules.barrel if rules.barrel is not None else rules.target
        return cls(floor=FLOOR, width=BIN_WIDTH, top=int(top), target=int(rules.target),
                   has_barrel=rules.barrel is not None, ranged=rules.barrel is not None and not rules.barrel_freeze)

    def state(self, score: np.ndarray, on_barrel: np.ndarray | None = None) -> np.ndarray:
        """The state index of each score; ``on_barrel`` None: a seat sits on the barrel when its score
        is the barrel's (only a sitter holds that score: a climb sets it, a fall and a simultaneous
        climb take the penalty off it); on the range barrel when it is from the barrel to below the
        target (the range is the barrel)."""
        score = np.asarray(score, dtype=np.int64)
        if on_barrel is None and self.ranged:
            on_barrel = (score >= self.top) & (score < self.target)
        elif on_barrel is None:
            on_barrel = (score == self.top) if self.has_barrel else np.zeros(score.shape, dtype=bool)
        idx = (np.clip(score, self.floor, self.top - 1) - self.floor) // self.width
        return np.where(np.asarray(on_barrel, dtype=bool), self.barrel_state, idx)

    def label(self, state: int) -> str:
        """A state as players say it: "barrel" or the bin's first score."""
        return "barrel" if state == self.barrel_state else str(self.floor + state * self.width)


# ---- the observations ---------------------------------------------------------------------------------
def situations(deals: pl.DataFrame, games: pl.DataFrame, ranged: bool = False,
               rules: HouseRules | None = None) -> dict[str, np.ndarray]:
    """Every played deal of the finished games in ``deals`` / ``games`` (frames of one shard of a
    3-player run, whole games): ``game``, ``score`` (deals, 3) the scores at the start of the deal
    (those after the game's previous played deal; 0 at the first), ``on_barrel`` (deals, 3) who sat
    on the barrel then (the previous played deal climbed onto it, not falling off at once by a
    penalty of that deal, or stayed on it; on the range barrel, ``ranged``, a penalty is no fall and
    a climb is read after it), and ``winner`` the game's winner. With ``rules`` (those the games
    were played under) also each seat's counters at the start of the deal (``counters``: barrel
    attempts used, bolts counted toward the penalty, deals in a row without declaring), as the
    engine's game state holds them; without, they are 0."""
    d = deals.filter(deals["redeal"] == 0).sort("game", "deal")
    winner_of = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    game = d["game"].to_numpy().astype(np.int64)
    winner = np.array([winner_of[int(g)] for g in game], dtype=np.int64)
    first = np.r_[True, game[1:] != game[:-1]] if len(game) else np.zeros(0, dtype=bool)
    after = np.stack([d[f"score{p}"].to_numpy().astype(np.int64) for p in range(3)], axis=1)
    ev = np.stack([d[f"events{p}"].to_numpy().astype(np.int64) for p in range(3)], axis=1)
    # A bolt or redeal penalty in the climb's own deal is settled after the climb: off again at once
    # (not on the range barrel, where a penalty is no fall and the climb is read from the score after it).
    fell_at_once = ((ev & (EV_BOLT_PENALTY | EV_REDEAL_PENALTY)) != 0) & (not ranged)
    sits = ((ev & EV_BARREL_STAY) != 0) | (((ev & EV_BARREL_ON) != 0) & ~fell_at_once)
    before = np.zeros_like(after)
    on = np.zeros_like(sits)
    before[1:], on[1:] = after[:-1], sits[:-1]
    before[first], on[first] = 0, False
    done = winner >= 0
    out = {"game": game[done], "score": before[done], "on_barrel": on[done], "winner": winner[done]}
    counted = counters(d, rules) if rules is not None else {c: np.zeros_like(before) for c in COUNTERS}
    return {**out, **{c: v[done] for c, v in counted.items()}}


def counters(played: pl.DataFrame, rules: HouseRules) -> dict[str, np.ndarray]:
    """Each seat's counters at the start of every deal of ``played`` (the played deals of whole
    3-player games under ``rules``, sorted by game and deal), as ``sim.engine.settle_nb`` keeps them
    in the game state (``G_ATTEMPTS``, ``G_BOLTS``, ``G_QUIET``), rebuilt from the stored columns
    (docs/RULES.md: ``bolt_on``, ``bolt_count``), each (deals, 3), 0 at a game's first deal:

    - ``attempts``: barrel attempts used (played deals since the climb that left the seat on the
      barrel: a climb sets it to 0, each deal after which the seat stays on it adds one, any other
      deal sets it to 0);
    - ``bolts``: bolts counted toward the penalty (``bolt_count = cumulative``: each bolt adds one,
      two for a doubled one, and the third clears the count; ``consecutive`` also clears it at a
      played deal without a bolt, unless ``bolt_exempt_keeps_run`` keeps the exempt declarer's run;
      ``each``: nothing is counted, 0);
    - ``passes``: deals in a row without declaring (``bolt_on = three_passes``: declaring or the
      third such deal, which brings the bolt, clears it; 0 under the other ``bolt_on``)."""
    n = len(played)
    game = played["game"].to_numpy().astype(np.int64)
    first = np.r_[True, game[1:] != game[:-1]] if n else np.zeros(0, dtype=bool)
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0)) if n else np.zeros(0, dtype=np.int64)
    pos = np.arange(n) - start
    declarer = played["declarer"].to_numpy().astype(np.int64)
    conceded = played["conceded"].to_numpy().astype(bool)
    col = {name: np.stack([played[f"{name}{p}"].to_numpy().astype(np.int64) for p in range(3)], axis=1)
           for name in ("events", "bolt", "tricks", "card_points", "marriage_points")}
    seat = np.arange(3)[None, :]
    is_declarer = declarer[:, None] == seat
    # bolt_exempt_keeps_run: the declarer whom only bolt_own_game_exempt spared a bolt keeps his run.
    empty = (col["card_points"] + col["marriage_points"] == 0) if rules.bolt_on == "zero_points" else (
        col["tricks"] == 0)
    keeps = rules.bolt_exempt_keeps_run & is_declarer & ~conceded[:, None] & empty
    after = {c: np.zeros((n, 3), dtype=np.int64) for c in COUNTERS}
    for k in range(int(pos.max()) + 1 if n else 0):  # deal k of every game at once
        rows = np.nonzero(pos == k)[0]
        prev = {c: (after[c][rows - 1] if k else np.zeros((len(rows), 3), dtype=np.int64)) for c in COUNTERS}
        ev = col["events"][rows]
        stays = (ev & EV_BARREL_STAY) != 0
        after["attempts"][rows] = np.where(((ev & EV_BARREL_ON) == 0) & stays, prev["attempts"] + 1, 0)
        bolt = col["bolt"][rows]
        if rules.bolt_count != "each":
            run = prev["bolts"]
            if rules.bolt_count == "consecutive":
                run = np.where((bolt == 0) & ~keeps[rows], 0, run)
            run = run + bolt
            after["bolts"][rows] = np.where(run >= 3, 0, run)
        if rules.bolt_on == "three_passes":
            quiet = prev["passes"] + 1
            after["passes"][rows] = np.where(is_declarer[rows] | (quiet >= 3), 0, quiet)
    before = {}
    for c, v in after.items():
        b = np.zeros_like(v)
        if n:
            b[1:] = v[:-1]
            b[first] = 0
        before[c] = b
    return before


def observations(sit: dict[str, np.ndarray], grid: Grid) -> dict[str, np.ndarray]:
    """The three seats' points of view of every situation: ``own``, ``lead``, ``trail`` (states;
    the opponents sorted, the leader the higher state), ``won``, ``game``, ``seat``, the seat's own
    counters (``COUNTERS``: 0 where ``sit`` has none), and for the
    baselines ``top`` (the seat has the highest score, barrel counted as its score, on the range
    barrel the sitter's own) and ``ties``
    (seats sharing the highest score), ``end`` (an end-game situation, ``END_GAME``)."""
    states = grid.state(sit["score"], sit["on_barrel"])
    scores = sit["score"] if grid.ranged else np.where(sit["on_barrel"], grid.top, sit["score"])
    high = scores.max(axis=1) if len(scores) else np.zeros(0, dtype=np.int64)
    ties = (scores == high[:, None]).sum(axis=1)
    end = (high >= END_GAME) | sit["on_barrel"].any(axis=1)
    out: dict[str, list[np.ndarray]] = {k: [] for k in ("own", "lead", "trail", "won", "game", "seat", "top",
                                                         "ties", "end", "situation", *COUNTERS)}
    s = grid.states
    for p in range(3):
        left, right = states[:, (p + 1) % 3], states[:, (p + 2) % 3]
        out["own"].append(states[:, p])
        out["lead"].append(np.maximum(left, right))
        out["trail"].append(np.minimum(left, right))
        out["won"].append((sit["winner"] == p).astype(np.int64))
        out["game"].append(sit["game"])
        out["seat"].append(np.full(len(states), p, dtype=np.int64))
        out["top"].append(scores[:, p] == high)
        out["ties"].append(ties)
        out["end"].append(end)
        out["situation"].append((states[:, 0] * s + states[:, 1]) * s + states[:, 2])
        for c in COUNTERS:
            out[c].append(sit[c][:, p] if c in sit else np.zeros(len(states), dtype=np.int64))
    return {k: np.concatenate(v) if v else np.zeros(0, dtype=np.int64) for k, v in out.items()}


def _cell(own: np.ndarray, lead: np.ndarray, trail: np.ndarray, states: int) -> np.ndarray:
    return (own * states + lead) * states + trail


# ---- the fit ------------------------------------------------------------------------------------------
def _design(cells: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """The smooth fit's design matrix on ``cells`` and its penalty matrix."""
    s = states
    trail, lead, own = cells % s, (cells // s) % s, cells // (s * s)
    blocks = (s - 2) // BLOCK_BINS + 2  # the barrel state is a block of its own

    def block(x: np.ndarray) -> np.ndarray:
        return np.where(x == s - 1, blocks - 1, x // BLOCK_BINS)

    eye = np.eye(s)
    x = np.hstack([np.ones((len(cells), 1)), eye[own][:, 1:], eye[lead][:, 1:], eye[trail][:, 1:],
                   np.eye(blocks * blocks)[block(own) * blocks + block(lead)]])
    width = x.shape[1]
    rows = []
    for j in range(3):  # second differences of each curve over the score bins (state 0's value is 0)
        offset = 1 + j * (s - 1)
        for mid in range(1, s - 2):
            row = np.zeros(width)
            for st, c in ((mid - 1, 1.0), (mid, -2.0), (mid + 1, 1.0)):
                if st >= 1:
                    row[offset + st - 1] += c
            rows.append(row)
    diff = np.array(rows).reshape(-1, width)
    penalty = SMOOTHNESS * diff.T @ diff + 1e-6 * np.eye(width)
    inter = np.arange(1 + 3 * (s - 1), width)
    penalty[inter, inter] += INTERACTION_RIDGE
    return x, penalty


def fit_table(wins: np.ndarray, n: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """(chance, smooth) over every cell (flat, ``states``³, own x lead x trail): the smooth fit of
    the win counts ``wins`` of ``n`` observations a cell, and each cell's share shrunk toward it."""
    cells = np.nonzero(n)[0]
    x, penalty = _design(cells, states)
    k, m = wins[cells], n[cells]
    beta = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        grad = x.T @ (k - m * p) - penalty @ beta
        hess = (x * (m * p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    every = np.arange(states ** 3)
    smooth = np.empty(len(every))
    for lo in range(0, len(every), 8192):  # the full design would be states³ x ~130 floats at once
        xa, _ = _design(every[lo:lo + 8192], states)
        smooth[lo:lo + 8192] = 1.0 / (1.0 + np.exp(-(xa @ beta)))
    return (wins + PRIOR_STRENGTH * smooth) / (n + PRIOR_STRENGTH), smooth


# ---- validation and checks -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Calibration:
    """One decile of the held-out predictions: the predicted chances from ``low`` to ``high``,
    their mean ``predicted``, the observed win share ``observed`` with its 95% interval (an
    ``Estimate``, clustered by game, stored as ``observed``, ``ci_low``, ``ci_high``), over ``n``
    observations."""

    decile: int
    low: float
    high: float
    n: int
    predicted: float
    observed: Estimate = estimate_field("observed", "ci_low", "ci_high")


@dataclasses.dataclass(frozen=True)
class Versus:
    """A score of the table against a baseline on the same held-out observations: ``table`` and
    ``baseline`` (mean Brier score or log-loss) and ``diff`` = table - baseline with its 95%
    interval (an ``Estimate``, clustered by game, stored as ``diff``, ``ci_low``, ``ci_high``).
    Lower is better."""

    baseline_name: str
    table: float
    baseline: float
    diff: Estimate = estimate_field("diff", "ci_low", "ci_high")


@dataclasses.dataclass(frozen=True)
class Validation:
    """The table refitted on the games whose id is not a multiple of ``HOLDOUT_EVERY`` and scored
    on the others: ``games`` and ``observations`` held out (``end_game_observations`` of them in
    an end game); ``brier`` and ``log_loss``: the table against each baseline ("1/3 each", "the
    leader wins"), over all held-out observations and (``end_game_brier``) over the end games;
    ``calibration``: by deciles of the predicted chance."""

    games: int
    observations: int
    end_game_observations: int
    brier: tuple[Versus, ...]
    log_loss: tuple[Versus, ...]
    end_game_brier: tuple[Versus, ...]
    calibration: tuple[Calibration, ...]


@dataclasses.dataclass(frozen=True)
class Checks:
    """The table's invariants, measured.

    - ``low``, ``high``: the least and greatest chance in the table;
    - ``sum_mean_abs``: over the observed situations (cells of all three seats' states), weighted by
      their observations, the mean of |the three seats' chances summed - 1|; ``sum_max_abs`` the
      largest over the situations of at least ``DENSE`` observations (``sum_dense``), and
      ``sum_max_z`` the largest of |sum - 1| / its standard error there (each chance's binomial
      standard error over its cell's observations, inflated by ``design_effect``);
    - ``design_effect``: how much the variance of a cell's win share exceeds the binomial one
      because observations of one game share its outcome (the mean over dense cells of the
      clustered variance over the binomial one);
    - ``monotone_pairs``: neighbouring cells (one state apart in own, leading or trailing score,
      both below the barrel, both of at least ``DENSE`` observations) compared; ``monotone_against``:
      those where the chance moves the wrong way (falls as one's own score rises, rises as an
      opponent's does) by more than twice the standard error of the difference of the two cells'
      raw shares; ``worst_against``: the largest wrong-way move (0 when none)."""

    low: float
    high: float
    sum_mean_abs: float
    sum_max_abs: float
    sum_max_z: float
    sum_dense: int
    design_effect: float
    monotone_pairs: int
    monotone_against: int
    worst_against: float


def validation_record(validation: Validation) -> dict:
    """The validation as stored with the table and printed by ``--json``: its counts, and each
    comparison and decile as a row (``stored_row``: an interval under its stored column names)."""
    record = {}
    for f in dataclasses.fields(validation):
        value = getattr(validation, f.name)
        record[f.name] = tuple(map(stored_row, value)) if isinstance(value, tuple) else value
    return record


def _leader_wins(obs: dict[str, np.ndarray]) -> np.ndarray:
    return np.where(obs["top"], 1.0 / obs["ties"], 0.0)


def _losses(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    q = np.clip(p, _EPS, 1 - _EPS)
    return (p - y) ** 2, -(y * np.log(q) + (1 - y) * np.log(1 - q))


def _versus(name: str, table: np.ndarray, base: np.ndarray, games: np.ndarray) -> Versus:
    return Versus(baseline_name=name, table=float(table.mean()), baseline=float(base.mean()),
                  diff=Estimate(*clustered_mean(table - base, games)))


def _validate(held: dict[str, np.ndarray], chance: np.ndarray, states: int) -> Validation:
    p = chance[_cell(held["own"], held["lead"], held["trail"], states)]
    y = held["won"].astype(np.float64)
    games = held["game"]
    bases = {"1/3 each": np.full(len(y), 1.0 / 3.0), "the leader wins": _leader_wins(held)}
    t_brier, t_log = _losses(p, y)
    brier, log_loss, end_brier = [], [], []
    end = held["end"]
    for name, b in bases.items():
        b_brier, b_log = _losses(b, y)
        brier.append(_versus(name, t_brier, b_brier, games))
        log_loss.append(_versus(name, t_log, b_log, games))
        end_brier.append(_versus(name, t_brier[end], b_brier[end], games[end]))
    order = np.argsort(p, kind="stable")
    calibration = []
    for i, part in enumerate(np.array_split(order, _DECILES)):
        if not len(part):
            continue
        calibration.append(Calibration(decile=i + 1, low=float(p[part].min()), high=float(p[part].max()),
                                       n=len(part), predicted=float(p[part].mean()),
                                       observed=Estimate(*clustered_mean(y[part], games[part]))))
    return Validation(games=len(np.unique(games)), observations=len(y), end_game_observations=int(end.sum()),
                      brier=tuple(brier), log_loss=tuple(log_loss), end_game_brier=tuple(end_brier),
                      calibration=tuple(calibration))


def _design_effect(obs: dict[str, np.ndarray], states: int) -> float:
    """The mean, over cells of at least ``DENSE`` observations, of the variance of the cell's win
    share clustered by game over its binomial variance."""
    cell = _cell(obs["own"], obs["lead"], obs["trail"], states)
    n = np.bincount(cell, minlength=states ** 3)
    dense = np.nonzero(n >= DENSE)[0]
    if not len(dense):
        return math.nan
    ratios = []
    keep = np.isin(cell, dense)
    c, g, y = cell[keep], obs["game"][keep], obs["won"][keep].astype(np.float64)
    order = np.lexsort((g, c))
    c, g, y = c[order], g[order], y[order]
    starts = np.r_[0, np.nonzero((c[1:] != c[:-1]) | (g[1:] != g[:-1]))[0] + 1]
    group_cell, group_sum = c[starts], np.add.reduceat(y, starts)
    group_size = np.diff(np.r_[starts, len(y)])
    for cc in dense:
        sel = group_cell == cc
        sums, sizes = group_sum[sel], group_size[sel]
        total = sizes.sum()
        p = sums.sum() / total
        if len(sums) < 2 or p in (0.0, 1.0):
            continue
        clustered = ((sums - p * sizes) ** 2).sum() * len(sums) / (len(sums) - 1) / total ** 2
        ratios.append(clustered / (p * (1 - p) / total))
    return float(np.mean(ratios)) if ratios else math.nan


def _checks(obs: dict[str, np.ndarray], chance: np.ndarray, wins: np.ndarray, n: np.ndarray, states: int) -> Checks:
    s = states
    deff = _design_effect(obs, s)
    inflate = deff if deff == deff and deff > 1 else 1.0
    # Sums over the three seats of each observed situation (seat 0's observations: one per deal).
    first = obs["seat"] == 0
    sit, counts = np.unique(obs["situation"][first], return_counts=True)
    st = np.stack([sit // (s * s), (sit // s) % s, sit % s], axis=1)
    total = np.zeros(len(sit))
    var = np.zeros(len(sit))
    for p in range(3):
        own, left, right = st[:, p], st[:, (p + 1) % 3], st[:, (p + 2) % 3]
        cell = _cell(own, np.maximum(left, right), np.minimum(left, right), s)
        c = chance[cell]
        total += c
        var += c * (1 - c) / (n[cell] + PRIOR_STRENGTH) * inflate
    dev = np.abs(total - 1)
    dense = counts >= DENSE
    z = dev / np.sqrt(np.maximum(var, 1e-12))
    # Monotonicity between neighbouring dense cells below the barrel, on the raw shares' noise.
    grid = n.reshape(s, s, s)
    share = np.divide(wins, n, out=np.zeros_like(wins), where=n > 0).reshape(s, s, s)
    ch = chance.reshape(s, s, s)
    pairs = against = 0
    worst = 0.0
    for axis, sign in ((0, 1.0), (1, -1.0), (2, -1.0)):
        a = [slice(None)] * 3
        b = [slice(None)] * 3
        a[axis], b[axis] = slice(0, s - 2), slice(1, s - 1)  # neighbours among the score bins
        na, nb = grid[tuple(a)], grid[tuple(b)]
        ok = (na >= DENSE) & (nb >= DENSE)
        step = sign * (ch[tuple(b)] - ch[tuple(a)])  # > 0: the expected direction
        pa, pb = share[tuple(a)], share[tuple(b)]
        se = np.sqrt(inflate * (pa * (1 - pa) / np.maximum(na, 1) + pb * (1 - pb) / np.maximum(nb, 1)))
        bad = ok & (step < -2 * se)
        pairs += int(ok.sum())
        against += int(bad.sum())
        if ok.any():
            worst = max(worst, float(-step[ok].min()))
    return Checks(low=float(chance.min()), high=float(chance.max()),
                  sum_mean_abs=float((dev * counts).sum() / counts.sum()) if len(counts) else math.nan,
                  sum_max_abs=float(dev[dense].max()) if dense.any() else math.nan,
                  sum_max_z=float(z[dense].max()) if dense.any() else math.nan, sum_dense=int(dense.sum()),
                  design_effect=deff, monotone_pairs=pairs, monotone_against=against, worst_against=max(0.0, worst))


# ---- the counters' terms --------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Term:
    """An additive term of the chance: a logit adjustment by one of the seat's own counters at the
    start of the deal (``counters``), fitted with the table's chance of the seat's cell as an offset.

    - ``counter``: ``attempts`` (read for a seat on the barrel only), ``bolts`` or ``passes``;
    - ``adjust``: the adjustment (logit units) at each level 0, 1, ... (a higher count takes the
      last level's), fitted on all the games; ``counts``: the observations at each level;
    - ``log_loss``, ``brier``: on the held-out games, the table with the term (both fitted on the
      other games) against the table alone (``Versus``: difference with its 95% interval clustered by
      game; lower is better); ``p``: the log-loss difference's two-sided p-value, ``p_holm`` Holm's
      over the table's terms;
    - ``kept``: the term improves held-out games (log-loss difference below 0, ``p_holm`` below
      ``TERM_ALPHA``); ``WinChanceTable.chance`` reads kept terms only."""

    counter: str
    adjust: tuple[float, ...]
    counts: tuple[int, ...]
    log_loss: Versus
    brier: Versus
    p: float
    p_holm: float
    kept: bool


def term_counters(rules: HouseRules) -> dict[str, int]:
    """The counters a table of ``rules`` fits a term for, with their levels: barrel attempts where
    the barrel limits them (``barrel_attempts`` levels), bolts where they are counted toward a
    penalty (3), deals without declaring under ``bolt_on = three_passes`` with a penalty (3)."""
    out = {}
    if rules.barrel is not None and rules.barrel_attempts > 0:
        out["attempts"] = int(rules.barrel_attempts)
    if rules.bolt_penalty > 0 and rules.bolt_count != "each":
        out["bolts"] = 3
    if rules.bolt_penalty > 0 and rules.bolt_on == "three_passes":
        out["passes"] = 3
    return out


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, _EPS, 1 - _EPS)
    return np.log(q / (1 - q))


def _expit(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _term_rows(obs: dict[str, np.ndarray], counter: str, levels: int, states: int) -> tuple[np.ndarray, np.ndarray]:
    """(applies, level): the observations a term reads (attempts: a seat on the barrel) and their level."""
    applies = obs["own"] == states - 1 if counter == "attempts" else np.ones(len(obs["own"]), dtype=bool)
    return applies, np.clip(obs[counter], 0, levels - 1)


def _fit_terms(obs: dict[str, np.ndarray], offset: np.ndarray, terms: dict[str, int],
               states: int) -> dict[str, np.ndarray]:
    """The adjustments of ``terms`` ({counter: levels}) fitted together on ``obs`` with the logit
    ``offset`` a row: a penalised logistic fit (ridge ``TERM_RIDGE``), each term's levels by Newton's
    method (its Hessian is diagonal), the terms in turn until none moves."""
    y = obs["won"].astype(np.float64)
    rows = {c: _term_rows(obs, c, k, states) for c, k in terms.items()}
    adjust = {c: np.zeros(k) for c, k in terms.items()}

    def total(skip: str | None = None) -> np.ndarray:
        x = offset.copy()
        for c, (applies, level) in rows.items():
            if c != skip:
                x += np.where(applies, adjust[c][level], 0.0)
        return x

    for _ in range(20 if len(terms) > 1 else 1):
        moved = 0.0
        for c, (applies, level) in rows.items():
            base, lv, yy = total(skip=c)[applies], level[applies], y[applies]
            a = adjust[c]
            for _ in range(100):
                p = _expit(base + a[lv])
                grad = np.bincount(lv, weights=yy - p, minlength=len(a)) - TERM_RIDGE * a
                hess = np.bincount(lv, weights=p * (1 - p), minlength=len(a)) + TERM_RIDGE
                step = grad / hess
                a = a + step
                if np.abs(step).max() < 1e-10:
                    break
            moved = max(moved, float(np.abs(a - adjust[c]).max()))
            adjust[c] = a
        if moved < 1e-8:
            break
    return adjust


def _terms(obs: dict[str, np.ndarray], held: np.ndarray, fit_chance: np.ndarray, chance: np.ndarray,
           terms: dict[str, int], states: int) -> tuple[Term, ...]:
    """Each counter's term (``Term``): fitted alone on the fitted games over the table fitted on them
    (``fit_chance``) and scored on the held-out games against that table alone; then the kept terms
    fitted together on all games over the final table (``chance``)."""
    cell = _cell(obs["own"], obs["lead"], obs["trail"], states)
    fitted = {k: v[~held] for k, v in obs.items()}
    test = {k: v[held] for k, v in obs.items()}
    y, games = test["won"].astype(np.float64), test["game"]
    base = _logit(fit_chance[cell[held]])
    b_brier, b_log = _losses(_expit(base), y)
    found = {}
    for c, k in terms.items():
        a = _fit_terms(fitted, _logit(fit_chance[cell[~held]]), {c: k}, states)[c]
        applies, level = _term_rows(test, c, k, states)
        t_brier, t_log = _losses(_expit(base + np.where(applies, a[level], 0.0)), y)
        log_loss = _versus(f"without {c}", t_log, b_log, games)
        se = (log_loss.diff.high - log_loss.diff.low) / (2 * Z95)
        found[c] = (log_loss, _versus(f"without {c}", t_brier, b_brier, games), two_sided_p(log_loss.diff.value, se))
    adjusted = holm([p for *_, p in found.values()])
    keep = {c: adjusted[i] < TERM_ALPHA and found[c][0].diff.value < 0 for i, c in enumerate(found)}
    final = _fit_terms(obs, _logit(chance[cell]), {c: k for c, k in terms.items() if keep[c]}, states)
    out = []
    for i, (c, k) in enumerate(terms.items()):
        applies, level = _term_rows(obs, c, k, states)
        adjust = final[c] if keep[c] else _fit_terms(obs, _logit(chance[cell]), {c: k}, states)[c]
        log_loss, brier, p = found[c]
        out.append(Term(counter=c, adjust=tuple(float(x) for x in adjust),
                        counts=tuple(int(x) for x in np.bincount(level[applies], minlength=k)), log_loss=log_loss,
                        brier=brier, p=p, p_holm=adjusted[i], kept=keep[c]))
    return tuple(out)


def term_record(term: Term) -> dict:
    """A term as stored with the table and printed by ``--json`` (each comparison a ``stored_row``)."""
    record = dataclasses.asdict(term)
    record.update(log_loss=stored_row(term.log_loss), brier=stored_row(term.brier))
    return record


# ---- the result -----------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class WinChanceTable:
    """Each seat's chance of winning the game from the score situation at the start of a deal
    (``win_chances``).

    - ``rules``: the effective rules (a dict); ``games``: whole games played, ``finished`` of them
      with a winner, ``deals`` their played deals; ``seed``; ``players``: who played, one name a seat;
    - ``grid``: the score states (``Grid``); ``chances``, ``smooth``, ``wins``, ``counts``: arrays
      (states, states, states) over own x leading opponent x trailing opponent: the estimate, the
      smooth fit it shrinks toward, the observed wins and observations (cells with the trailing
      opponent above the leader are never asked for);
    - ``validation`` (``Validation``) and ``checks`` (``Checks``);
    - ``run``: the folder of the stored games; ``table_path``: the stored table; ``plot_path``:
      where its plot goes (``analysis.present.win_chances.plot_win_chances`` draws it);
      ``provenance``: the metadata stored with the table.

    ``chance(own, left, right, ...)``: seat 0's chance from the three scores (a
    ``analysis.bids.value.WinChance``). ``to_polars()``: one row a cell (own, lead, trail states with
    their first scores, observations, wins, smooth fit, chance). ``to_dict()``: provenance, checks,
    validation and the table.
    """

    rules: dict
    games: int
    finished: int
    deals: int
    seed: int
    players: tuple[str, ...]
    grid: Grid
    chances: np.ndarray
    smooth: np.ndarray
    wins: np.ndarray
    counts: np.ndarray
    validation: Validation
    checks: Checks
    run: Path
    table_path: Path
    plot_path: Path
    provenance: dict
    terms: tuple[Term, ...] = ()

    def states(self, score: np.ndarray, on_barrel: np.ndarray | None = None) -> np.ndarray:
        """The state index of each score (``Grid.state``)."""
        return self.grid.state(score, on_barrel)

    def chance(self, own: np.ndarray, left: np.ndarray, right: np.ndarray, own_on_barrel: np.ndarray | None = None,
               left_on_barrel: np.ndarray | None = None, right_on_barrel: np.ndarray | None = None, *,
               own_attempts: np.ndarray | None = None, own_bolts: np.ndarray | None = None,
               own_passes: np.ndarray | None = None) -> np.ndarray:
        """Seat 0's chance of winning the game from its score ``own`` and its opponents' ``left`` and
        ``right`` (arrays of one shape, or broadcastable) at the start of a deal, as after the deal
        before it. Who sits on the barrel (``*_on_barrel``) is read from the scores when not given (a
        score equal to the barrel's). With a barrel, a score that reached the target is the game's
        end: 1 for ``own``, 0 for an opponent's. Without a barrel (where a defender may pass the
        target without winning) such scores count in the highest bin.

        ``own_attempts`` (barrel attempts used, read for a seat on the barrel), ``own_bolts`` (bolts
        counted toward the penalty), ``own_passes`` (deals in a row without declaring): seat 0's
        counters at the start of the deal (``counters``); each given one adds its term's logit
        adjustment where the table kept that term (``terms``), and one not given (the default) leaves
        the chance averaged over it, as the cell holds it."""
        own, left, right = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (own, left, right)))
        o = self.grid.state(own, own_on_barrel)
        a = self.grid.state(left, left_on_barrel)
        b = self.grid.state(right, right_on_barrel)
        p = self.chances[o, np.maximum(a, b), np.minimum(a, b)]
        given = {"attempts": own_attempts, "bolts": own_bolts, "passes": own_passes}
        shift = np.zeros(np.shape(p))
        for term in self.terms:
            if term.kept and given[term.counter] is not None:
                level = np.clip(np.asarray(given[term.counter], dtype=np.int64), 0, len(term.adjust) - 1)
                step = np.asarray(term.adjust)[level]
                shift = shift + (np.where(o == self.grid.barrel_state, step, 0.0) if term.counter == "attempts"
                                 else step)
        if np.any(shift != 0):
            p = _expit(_logit(p) + shift)
        if self.grid.has_barrel:
            target = self.grid.target
            p = np.where(own >= target, 1.0, np.where(np.maximum(left, right) >= target, 0.0, p))
        return np.asarray(p, dtype=np.float64)

    def to_polars(self) -> pl.DataFrame:
        """The table as stored: one row a cell with the trailing opponent at most the leader."""
        s = self.grid.states
        own, lead, trail = np.meshgrid(np.arange(s), np.arange(s), np.arange(s), indexing="ij")
        keep = (trail <= lead).ravel()
        o, a, b = own.ravel()[keep], lead.ravel()[keep], trail.ravel()[keep]
        labels = [self.grid.label(i) for i in range(s)]
        return pl.DataFrame({
            "own": o.astype(np.int16), "lead": a.astype(np.int16), "trail": b.astype(np.int16),
            "own_score": [labels[i] for i in o], "lead_score": [labels[i] for i in a],
            "trail_score": [labels[i] for i in b],
            "n": self.counts.ravel()[keep].astype(np.int64), "wins": self.wins.ravel()[keep].astype(np.int64),
            "smooth": self.smooth.ravel()[keep], "chance": self.chances.ravel()[keep]})

    def to_dict(self) -> dict:
        """Provenance, checks, validation and the table's cells (``cells``: the rows of ``to_polars()``),
        as ``--json`` prints them."""
        return {**self.provenance, "finished": self.finished, "deals": self.deals,
                "grid": dataclasses.asdict(self.grid), "checks": dataclasses.asdict(self.checks),
                "validation": validation_record(self.validation), "terms": [term_record(t) for t in self.terms],
                "cells": self.to_polars().to_dicts()}


_PROVENANCE = ("thousand_version", FINGERPRINT, "table", "games", "seed", "players", "learned_weights", "rules",
               "method")

# What identifies a stored table (besides the code fingerprint): metadata key -> (what a refusal
# calls it, the option that sets it).
IDENTITY = identity(table=None, rules="--rules", games="--games", seed="--seed", players="--players",
                    learned_weights="--players")


@holds_out()
def win_chances(*, rules: str = "classic", games: int = 20_000, players: str = "learned", seed: int = 0,
                out: Path = Path("out/tables"), progress: Progress | None = None, backend: Backend | None = None,
                fresh: bool = False) -> WinChanceTable:
    """The win-chance table (``WinChanceTable``) of ``rules`` (a preset or a TOML file of a
    3-player game with a target): ``games`` whole games played by ``players`` (or the stored run of
    the same arguments resumed) under ``out/win-runs``, and the table estimated from them, stored as
    ``out/win_chances.parquet`` with its metadata. A table stored with the same arguments by the same
    code is read back as it is (the cache: no game is read); what ``out`` holds from other
    arguments or other code is refused in one line (``analysis.study``) unless ``fresh``,
    which redoes it. ``progress(stage, games done, games)`` follows the play."""
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if games < 2 * HOLDOUT_EVERY:
        raise InputError(f"--games must be {2 * HOLDOUT_EVERY} or more for a win-chance table (a fifth of the games "
                         f"is held out to validate it), not {games}")
    rec = load_rules(rules)
    if rec.players != 3:
        raise InputError(f"the win-chance table is for the 3-player game; rules {rules!r} have {rec.players} players")
    out = Path(out)
    spec = BatchSpec(mode="games", n=games, rules=rec, players=players, seed=seed)
    run = out / "win-runs" / rules_folder(0, rules, rec)
    label = rules_label(0, rules)
    grid = Grid.of(rec)
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("win_chances"), "table": "win chances",
            "games": games, "seed": seed, "players": list(spec.players),
            "learned_weights": learned_weights(spec.players), "rules": rec.to_dict(), "method": _method()}
    plan = Plan(out=out, name="win_chances", table=TABLE_FILE, runs={label: spec},
                folders={label: run.relative_to(out).as_posix()}, provenance=meta, identity=IDENTITY,
                what="the win-chance table", stage="games", runs_dir="win-runs", drawn=(PLOT_FILE,),
                each_finishes="rule set", metadata=_stored_metadata,
                reuse=lambda table: _read_back(read_table_metadata(table), table, run, out))

    def measure(played: Played) -> WinChanceTable:
        obs, finished, deals = _read_observations(played.dirs[label], grid, rec)
        held = obs["game"] % HOLDOUT_EVERY == 0
        if held.all() or not held.any():
            raise NoResultError(f"the finished games of the run are all {'held out' if held.all() else 'fitted'}; "
                                "play more games")
        s = grid.states
        cell = _cell(obs["own"], obs["lead"], obs["trail"], s)
        wins = np.bincount(cell, weights=obs["won"], minlength=s ** 3)
        n = np.bincount(cell, minlength=s ** 3).astype(np.float64)
        fit_wins = np.bincount(cell[~held], weights=obs["won"][~held], minlength=s ** 3)
        fit_n = np.bincount(cell[~held], minlength=s ** 3).astype(np.float64)
        fit_chance, _ = fit_table(fit_wins, fit_n, s)
        validation = _validate({k: v[held] for k, v in obs.items()}, fit_chance, s)
        chance, smooth = fit_table(wins, n, s)
        chance, smooth = _mirrored(chance, s), _mirrored(smooth, s)
        checks = _checks(obs, chance, wins, n, s)
        terms = _terms(obs, held, _mirrored(fit_chance, s), chance, term_counters(rec), s)
        shape = (s, s, s)
        return WinChanceTable(rules=rec.to_dict(), games=games, finished=finished, deals=deals, seed=seed,
                              players=tuple(spec.players), grid=grid, chances=chance.reshape(shape),
                              smooth=smooth.reshape(shape), wins=wins.reshape(shape), counts=n.reshape(shape),
                              validation=validation, checks=checks, run=run, table_path=out / TABLE_FILE,
                              plot_path=out / PLOT_FILE, provenance=meta, terms=terms)

    return run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)


def _method() -> dict:
    """The estimate's constants, stored with every table (a shipped table is read only under the same)."""
    return {"bin_width": BIN_WIDTH, "floor": FLOOR, "prior_strength": PRIOR_STRENGTH, "smoothness": SMOOTHNESS,
            "block_bins": BLOCK_BINS, "interaction_ridge": INTERACTION_RIDGE, "holdout_every": HOLDOUT_EVERY,
            "term_ridge": TERM_RIDGE, "term_alpha": TERM_ALPHA}


def _mirrored(values: np.ndarray, states: int) -> np.ndarray:
    """The cells with the trailing opponent above the leader (never asked for) set to their mirror's
    value, as the stored table gives them back."""
    cube = values.reshape(states, states, states).copy()
    own, lead, trail = np.meshgrid(*(np.arange(states),) * 3, indexing="ij")
    upper = trail > lead
    cube[upper] = cube[own[upper], trail[upper], lead[upper]]
    return cube.ravel()


def _read_observations(run: Path, grid: Grid, rules: HouseRules) -> tuple[dict[str, np.ndarray], int, int]:
    """Every observation of the stored run of ``rules``, shard by shard; the finished games and their played deals."""
    shards = verify_run(run)
    parts = []
    finished = deals = 0
    for deals_path, games_path in zip(shards["deals"], shards["games"], strict=True):
        d, g = read_shard(deals_path), read_shard(games_path)
        sit = situations(d, g, grid.ranged, rules)
        finished += int((g["winner"] >= 0).sum())
        deals += len(sit["game"])
        parts.append(observations(sit, grid))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, finished, deals


def _stored_metadata(result: WinChanceTable) -> dict:
    """The table's metadata: what made it, and the result's summary (finished games, played deals,
    checks and validation) that ``_read_back`` reads back with the cells."""
    summary = {"finished": result.finished, "deals": result.deals, "checks": dataclasses.asdict(result.checks),
               "validation": validation_record(result.validation), "terms": [term_record(t) for t in result.terms]}
    return {**result.provenance, "result": summary}


# The options of thousand tables win-chances that thousand bid --objective win names otherwise.
BID_OPTIONS = {"--games": "--win-games", "--players": "--line-player", "--seed": "the table's seed, always 0,"}


def win_table_for_bid(*, rules: str, games: int, players: str, out: Path,
                      progress: Progress | None = None) -> WinChanceTable:
    """The win-chance table ``thousand bid --objective win`` reads, or first builds, in its
    ``--win-table`` folder: ``win_chances`` of seed 0, never ``fresh`` (bid has no such option),
    its refusals worded in bid's options. A refusal of ``win_chances`` names ``--out`` and offers
    ``--fresh``, which bid does not have: here it names ``--win-table`` (and ``--win-games``,
    ``--line-player`` for the sizes and players) and says what the user can do: give another
    folder, or rebuild the table in this one with the ``thousand tables win-chances`` command of
    the same arguments and ``--fresh``."""
    try:
        return win_chances(rules=rules, games=games, players=players, seed=0, out=out, progress=progress)
    except ThousandError as exc:
        rebuild = (f"thousand tables win-chances --rules {shlex.quote(str(rules))} --games {games} --players "
                   f"{shlex.quote(players)} --out {shlex.quote(str(out))} --fresh")
        text = str(exc).replace(f"--out {out}", f"--win-table {out}")
        text = re.sub(r"give --fresh to [^,;]*, or choose another --out",
                      f"give another --win-table folder, or rebuild the table in this one: {rebuild}", text)
        text = text.replace("another --out", "another --win-table")
        for option, bid_option in BID_OPTIONS.items():
            text = text.replace(f"({option}:", f"({bid_option}:").replace(f"; {option}:", f"; {bid_option}:")
        raise type(exc)(text) from None


# ---- the shipped tables --------------------------------------------------------------------------------
def shipped_path(preset: str) -> Path:
    """Where the table shipped for ``preset`` lies (``SHIPPED_DIR``)."""
    return SHIPPED_DIR / f"{preset}.parquet"


def shipped_table(rules: str | HouseRules, players: str = "learned") -> WinChanceTable | None:
    """The shipped table (``SHIPPED_DIR``) made under ``rules`` (a preset, a TOML file or a
    ``HouseRules``: the effective rules are compared) by ``players`` (one name for every seat, or
    one a seat) with the learned weights these players play today (``learned_weights``) and this
    module's method, read back as it was stored (its ``provenance``: version, games, seed, players,
    weights, rules and the code fingerprint at its making); None when no shipped table matches. The
    code fingerprint is recorded, not compared: a table stays valid while the rules, the players'
    weights and the method stay, whatever else the code does."""
    rec = rules if isinstance(rules, HouseRules) else load_rules(rules)
    if rec.players != 3:
        return None
    seats = parse_players(players, rec.players)
    want = {"players": list(seats), "learned_weights": learned_weights(seats), "method": _method()}
    for path in sorted(SHIPPED_DIR.glob("*.parquet")):
        stored = read_table_metadata(path)
        # The effective rules: an option added since the table was made reads as its default, which
        # keeps the game the table was played under.
        same = all(stored.get(key) == value for key, value in want.items())
        if same and recorded_rules_are(stored.get("rules"), rec):
            return _read_back(stored, path, path, path.parent)
    return None


def ship_tables(*, work: Path = Path("out/ship-win-tables"), presets: tuple[str, ...] = SHIPPED,
                games: int = SHIPPED_GAMES, progress: Progress | None = None,
                backend: Backend | None = None) -> list[WinChanceTable]:
    """Remake the shipped tables: for each preset of ``presets`` (one at a time), ``win_chances``
    of ``games`` whole games of the learned player, seed 0, in ``work/PRESET`` (stored, resumable and
    reused like any table there; redone when its code or weights changed), then its table copied to
    ``shipped_path(PRESET)`` (only when its bytes differ) and written as the score-aware learned
    player's table (``ship_table``, ``sim/players/weights/win/PRESET.npz``): one source for the advice
    and the player. ``benchmarks/ship_win_tables.py`` runs it."""
    made = []
    for preset in presets:
        folder = Path(work) / preset
        try:
            table = win_chances(rules=preset, games=games, players="learned", seed=0, out=folder, progress=progress,
                                backend=backend)
        except StaleResultError:  # made by other code or weights: redo it (the runs are kept when still valid)
            table = win_chances(rules=preset, games=games, players="learned", seed=0, out=folder, progress=progress,
                                backend=backend, fresh=True)
        SHIPPED_DIR.mkdir(parents=True, exist_ok=True)
        write_bytes_if_different(shipped_path(preset), table.table_path.read_bytes())
        ship_table(shipped_path(preset), WIN_TABLES_DIR / f"{preset}.npz")
        made.append(table)
    return made


def _read_back(stored: dict, table: Path, run: Path, out: Path) -> WinChanceTable | None:
    """The result read back from its stored table (cells and metadata ``stored``), or None when the
    metadata holds no result summary (``_stored_metadata``) to read back."""
    if "result" not in stored:
        return None
    rec = HouseRules.from_dict(stored["rules"])
    grid = Grid.of(rec)
    s = grid.states
    frame = pl.read_parquet(table)
    arrays = {name: np.zeros((s, s, s)) for name in ("chance", "smooth", "wins", "n")}
    o, a, b = (frame[c].to_numpy().astype(np.int64) for c in ("own", "lead", "trail"))
    for name, arr in arrays.items():
        values = frame[name].to_numpy().astype(np.float64)
        arr[o, a, b] = values
        arr[o, b, a] = values  # the mirror cells, never asked for, as the fit made them
    summary = stored["result"]
    v = summary["validation"]

    def nan(x: float | None) -> float:
        return math.nan if x is None else x

    def interval(row: dict, value: str) -> Estimate:
        return Estimate(nan(row[value]), nan(row["ci_low"]), nan(row["ci_high"]))

    def versus(items: list[dict]) -> tuple[Versus, ...]:
        return tuple(Versus(baseline_name=it["baseline_name"], table=nan(it["table"]), baseline=nan(it["baseline"]),
                            diff=interval(it, "diff")) for it in items)

    validation = Validation(games=v["games"], observations=v["observations"],
                            end_game_observations=v["end_game_observations"], brier=versus(v["brier"]),
                            log_loss=versus(v["log_loss"]), end_game_brier=versus(v["end_game_brier"]),
                            calibration=tuple(Calibration(decile=c["decile"], low=nan(c["low"]), high=nan(c["high"]),
                                                          n=c["n"], predicted=nan(c["predicted"]),
                                                          observed=interval(c, "observed"))
                                              for c in v["calibration"]))
    checks = Checks(**{k: nan(x) for k, x in summary["checks"].items()})
    terms = tuple(Term(counter=t["counter"], adjust=tuple(t["adjust"]), counts=tuple(t["counts"]),
                       log_loss=versus([t["log_loss"]])[0], brier=versus([t["brier"]])[0], p=nan(t["p"]),
                       p_holm=nan(t["p_holm"]), kept=t["kept"]) for t in summary.get("terms", ()))
    provenance = {k: stored[k] for k in _PROVENANCE}
    return WinChanceTable(rules=stored["rules"], games=stored["games"], finished=summary["finished"],
                          deals=summary["deals"], seed=stored["seed"], players=tuple(stored["players"]), grid=grid,
                          chances=arrays["chance"], smooth=arrays["smooth"], wins=arrays["wins"], counts=arrays["n"],
                          validation=validation, checks=checks, run=run, table_path=table, plot_path=out / PLOT_FILE,
                          provenance=provenance, terms=terms)


def ship_table(table: str | Path, npz: str | Path) -> str:
    """Write the stored table ``table`` (a ``win_chances.parquet``) as the win-chance table the
    score-aware learned player reads (``sim.players.learned.win_table``: the cube own x leading x
    trailing opponent and the grid's numbers; the shipped ones in ``sim/players/weights/win/``), its
    manifest carrying the rules and what made the table (version, code fingerprint, games, seed,
    players, validation). Returns the npz's SHA-256."""
    meta = read_table_metadata(Path(table))
    rules = HouseRules.from_dict(meta["rules"])
    grid = Grid.of(rules)
    cells = pl.read_parquet(table)
    s = grid.states
    chances = np.full((s, s, s), np.nan)
    own, lead, trail = (cells[c].to_numpy().astype(np.int64) for c in ("own", "lead", "trail"))
    chances[own, lead, trail] = cells["chance"].to_numpy()
    chances[own, trail, lead] = cells["chance"].to_numpy()  # the cube's trail > lead half, never asked for
    made = {k: meta.get(k) for k in ("thousand_version", "code_fingerprint", "games", "seed", "players",
                                     "learned_weights")}
    made["validation"] = meta.get("result", {}).get("validation")
    return save_win_table(npz, chances, (grid.floor, grid.width, grid.top, grid.target, int(grid.has_barrel),
                                         int(grid.ranged)), rules, made)
