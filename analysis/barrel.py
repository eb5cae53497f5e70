"""Barrel survival: what happens to a player who reaches the barrel, from stored whole-game runs.

A **barrel episode** starts at a deal whose ``events`` bits say the seat climbed onto the barrel
(EV_BARREL_ON) and runs over the played deals after it (thrown-in deals are not played and do not
count) while the seat stays on (EV_BARREL_STAY). The first played deal after the climb without
EV_BARREL_STAY ends it, and its bits say how:

- **up**: the seat won the game (EV_WIN), on attempt k = the played deals it sat through,
  this one included (with four players the deals it sat out as dealer are no attempts);
- **fell**, by cause: a failed contract (EV_FALL_CONTRACT), attempts used up (EV_FALL_ATTEMPTS),
  knocked off by a newcomer (EV_KNOCKED_OFF), a bolt penalty (EV_BOLT_PENALTY), the third no-win
  deal's penalty (EV_NO_WIN_PENALTY, no_win_penalty; after a bolt penalty of the same deal, which
  fells him first), the dealer's redeal penalty (EV_REDEAL_PENALTY), or another (for instance a
  dump truck on a barrel of 555); a fall that set the score to zero (EV_FALL_TO_ZERO) is counted as well;
- **left downward** (the range barrel, ``barrel_freeze = false``; EV_BARREL_OFF): his score went
  below the barrel, by a failed contract or a penalty; no fall (nothing is paid for leaving);
- an episode still running at the game's last deal ended with **another player's win**, or
  **unfinished** when the game hit its deal limit;
- a bolt penalty or the dealer's redeal penalty in the very deal of the climb is settled after it:
  the seat falls at once, an episode of no attempt with that cause (not on the range barrel, where
  a penalty is no fall and a climb is read from the score after it).

Climbs that reached the barrel together with another player (EV_SIMULTANEOUS) never sit; they are
counted apart, as are climbs sent back by a sitter (``barrel_collision`` = sitter_stays or
both_fall: EV_KNOCKED_OFF without EV_BARREL_ON). Everything is read from the verified shards of a
run, one shard at a time, so memory stays flat whatever the number of games. The episodes are
read by ``analysis.measures.episodes``, in the core, which ``analysis.compare`` reads them with too.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.analysis_dir import RULE_SPECS, NoResultError, rules_folder, rules_label, same_rules
from analysis.measures import FALL_CAUSES, LEFT_DOWNWARD, episodes
from analysis.players import common_player, learned_weights
from analysis.stats import (
    Z95,
    Estimate,
    PairedRatioSums,
    RatioOfSums,
    estimate_field,
    holm,
    stored_row,
    two_sided_p,
)
from analysis.stored import FINGERPRINT, holds_out
from analysis.study import Plan, Played, compared_on, identity, run_study
from sim import InputError, __version__, arguments
from sim.engine import BatchSpec
from sim.engine.schema import (
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_KNOCKED_OFF,
    EV_SIMULTANEOUS,
)
from sim.fingerprint import code_fingerprint
from sim.game.rules import load_rules
from sim.runs import read_run_metadata, read_shard, verify_run

if TYPE_CHECKING:
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "FATES", "MAX_ATTEMPT_SHOWN", "TABLE_FILE", "PLOT_FILE", "deals_with_a_sitter",
    "SCORE_STEP", "MIN_GAMES", "score_observations", "wins_from_score", "sitter_deals_by_game", "AttemptTest",
    "ATTEMPTS_TESTED", "simultaneous_climbs", "refused_climbs", "Share", "BarrelSummary",
    "barrel_summary", "LEFT_DOWNWARD", "IDENTITY", "BarrelStats", "tables_barrel",
]

FATES = ("up", *(f"fell: {c}" for c, _ in FALL_CAUSES), "fell: other", LEFT_DOWNWARD, "another player won",
         "unfinished")
MAX_ATTEMPT_SHOWN = 10
TABLE_FILE = "barrel.parquet"
PLOT_FILE = "barrel_survival.png"


def sitter_deals_by_game(deals: pl.DataFrame, n_seats: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, deals with a sitter, played deals), one entry a game of ``deals``: the played deals
    that begin with somebody on the barrel (the previous played deal of the same game left a seat on
    it: EV_BARREL_ON or EV_BARREL_STAY) and all played deals."""
    d = deals.filter(deals["redeal"] == 0).sort("game", "deal")
    on = np.zeros(d.height, dtype=bool)
    for p in range(n_seats):
        on |= (d[f"events{p}"].to_numpy().astype(np.int64) & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
    game = d["game"].to_numpy()
    ids, row_game = np.unique(game, return_inverse=True)
    sitter = np.r_[False, on[:-1] & (game[1:] == game[:-1])]
    return (ids, np.bincount(row_game, weights=sitter, minlength=len(ids)).astype(np.int64),
            np.bincount(row_game, minlength=len(ids)).astype(np.int64))


def deals_with_a_sitter(deals: pl.DataFrame, n_seats: int) -> int:
    """Played deals that begin with somebody on the barrel (``sitter_deals_by_game``, summed)."""
    return int(sitter_deals_by_game(deals, n_seats)[1].sum())


SCORE_STEP = 100  # width of the score classes of the win-from-score table
MIN_GAMES = 30  # a score class is shown from this many games (its observations cluster by game)


def score_observations(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int) -> dict[str, np.ndarray]:
    """The win-from-score observations of finished games: for each seat and each score class
    (SCORE_STEP points, floored) that the seat dealt from in a game, one observation, the first such
    deal: ``cls`` its class, ``game`` its game, ``won`` whether the seat won that game. One per game,
    seat and class; the seats of one game share its outcome (one of them wins), so an interval
    clusters them by ``game``."""
    winner = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    d = deals.sort("game", "deal")
    game = d["game"].to_numpy()
    dealer = d["dealer"].to_numpy()
    played = d["redeal"].to_numpy() == 0
    first = np.r_[True, game[1:] != game[:-1]]
    out: dict[str, list[int]] = {"cls": [], "game": [], "won": []}
    for p in range(n_seats):
        after = d[f"score{p}"].to_numpy().astype(np.int64)
        before = np.where(first, 0, np.r_[0, after[:-1]])
        mine = played & (dealer == p)
        seen: set[tuple[int, int]] = set()
        for g, sc in zip(game[mine], before[mine], strict=True):
            w = winner[int(g)]
            cls = int(sc // SCORE_STEP * SCORE_STEP)
            if w < 0 or (int(g), cls) in seen:
                continue  # unfinished: no outcome; or this game already counted in this class
            seen.add((int(g), cls))
            out["cls"].append(cls)
            out["game"].append(int(g))
            out["won"].append(int(w == p))
    return {k: np.asarray(v, dtype=np.int64) for k, v in out.items()}


def wins_from_score(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int) -> dict[int, list[int]]:
    """{score class: [games won, observations]} over finished games (``score_observations``)."""
    obs = score_observations(deals, games, n_seats)
    out: dict[int, list[int]] = {}
    for cls, won in zip(obs["cls"], obs["won"], strict=True):
        cell = out.setdefault(int(cls), [0, 0])
        cell[0] += int(won)
        cell[1] += 1
    return out


def simultaneous_climbs(deals: pl.DataFrame, n_seats: int) -> int:
    return int(sum(((deals[f"events{p}"].to_numpy().astype(np.int64) & EV_SIMULTANEOUS) != 0).sum()
                   for p in range(n_seats)))


def refused_climbs(deals: pl.DataFrame, n_seats: int) -> int:
    """Climbs a sitter sent back (barrel_collision = sitter_stays or both_fall): knocked off by a seat
    not on the barrel before the deal (EV_KNOCKED_OFF without the previous played deal of the game
    leaving it on), a fall and no episode."""
    d = deals.filter(deals["redeal"] == 0).sort("game", "deal")
    game = d["game"].to_numpy()
    first = np.r_[True, game[1:] != game[:-1]] if len(game) else np.zeros(0, dtype=bool)
    count = 0
    for p in range(n_seats):
        ev = d[f"events{p}"].to_numpy().astype(np.int64)
        on = (ev & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
        before = np.r_[False, on[:-1]] & ~first
        count += int((((ev & EV_KNOCKED_OFF) != 0) & ~before).sum())
    return count


@dataclasses.dataclass(frozen=True)
class Share:
    """A proportion ``k`` of ``n``: ``rate``, ``k / n`` with its 95% interval clustered by game
    (an ``Estimate`` whose ``clusters`` are the games holding a trial: the episodes, deals and seats
    of one game are not independent; ``analysis.stats.clustered_share_interval``; all NaN when
    ``n`` is 0, the interval NaN from fewer than two such games), stored as the columns k, n, p,
    ci_low, ci_high."""

    k: int
    n: int
    rate: Estimate = estimate_field("p", "ci_low", "ci_high")


@dataclasses.dataclass(frozen=True)
class AttemptTest:
    """Attempt ``later``'s chance of winning against attempt ``earlier``'s (each of the episodes
    that reached it): ``diff`` (later less earlier, with its 95% interval, paired by game: the same
    games hold both), ``p`` its two-sided p-value and ``p_holm`` Holm's over the pairs of
    ``ATTEMPTS_TESTED``."""

    earlier: int
    later: int
    diff: Estimate = estimate_field("diff", "diff_low", "diff_high")
    p: float = math.nan
    p_holm: float = math.nan


ATTEMPTS_TESTED = (1, 2, 3)  # the attempts whose chances are tested pairwise (Holm over the pairs)


class _Tally:
    """A share's counts summed over games, kept as running sums (``RatioOfSums``: successes and
    trials a game) for its interval clustered by game, so memory does not grow with the games."""

    def __init__(self):
        self.ratio = RatioOfSums()

    def add(self, k: np.ndarray, n: np.ndarray) -> None:
        """Add games whose trials number ``n`` (one entry a game) with ``k`` successes; a game with
        no trial is no cluster of this share."""
        keep = np.asarray(n) > 0
        self.ratio.add(np.asarray(k, dtype=np.float64)[keep], np.asarray(n, dtype=np.float64)[keep])

    def share(self) -> Share:
        k, n = round(self.ratio.sn), round(self.ratio.sd)  # sums of whole counts
        if not n:
            return Share(k=0, n=0, rate=Estimate.none(n=0, clusters=0))
        lo, hi = self.ratio.share_interval()
        return Share(k=k, n=n, rate=Estimate(k / n, lo, hi, n=n, clusters=self.ratio.n))


@dataclasses.dataclass(frozen=True)
class BarrelSummary:
    """The barrel in one rule set's stored games. Shares (``Share``) are of the barrel episodes
    unless said otherwise.

    - ``episodes``: the barrel episodes; ``simultaneous_climbs``: climbs that reached the barrel
      together with another player (never sat, no episode); ``refused_climbs``: climbs a sitter sent
      back (``barrel_collision``; never sat, no episode); ``games``: the games read;
    - ``fates``: {fate: share}, one per fate of ``FATES`` in that order (up, fell by each cause,
      left downward, another player won, unfinished): they add up to 1; ``fell``: fell by any cause
      (not leaving the range barrel downward, which is no fall); ``fell_to_zero``: falls that set the
      score to zero;
    - ``up_on_attempt``: {attempt: share of all episodes won on it}, attempts 1 to
      ``MAX_ATTEMPT_SHOWN``; ``up_once_reached``: {attempt: share won on it of the episodes that
      reached it (sat through at least that many played deals)}: the chance each attempt gives,
      which the first does not dwarf merely by coming first;
    - ``attempts``: {attempts: episodes that lasted that many}, in increasing attempts;
    - ``game_length``: the games' mean length in deals with its normal 95% interval (an
      ``Estimate`` over the ``n`` games; its interval NaN for fewer than two games);
    - ``barrel_share_of_deals``: the share of played deals that began with somebody on the barrel;
    - ``win_from_score``: {score class: share of the games won by the seat that dealt from that
      class}, classes of ``SCORE_STEP`` points (``score_observations``: ``n`` counts seats of
      games, up to three a game; the share's ``rate.clusters`` counts the games);
    - ``durations``: {(attempts, or more): share of the episodes that lasted so many attempts (or
      more)}, from 0 to ``MAX_ATTEMPT_SHOWN`` (``lasted`` reads them);
    - ``attempt_tests``: each pair of ``ATTEMPTS_TESTED``'s chances once reached, compared
      (``AttemptTest``, Holm-corrected over the pairs).

    Every share's interval is clustered by game.

    ``to_dict()``: the same as plain Python (what ``--json`` prints for the rule set): a share as
    its stored columns (k, n, p, ci_low, ci_high), the game length as mean, n, ci_low, ci_high.
    """

    episodes: int
    simultaneous_climbs: int
    refused_climbs: int
    games: int
    fates: dict[str, Share]
    fell: Share
    fell_to_zero: Share
    up_on_attempt: dict[int, Share]
    up_once_reached: dict[int, Share]
    attempts: dict[int, int]
    game_length: Estimate
    barrel_share_of_deals: Share
    win_from_score: dict[int, Share]
    attempt_tests: tuple[AttemptTest, ...] = ()
    durations: dict[tuple[int, bool], Share] = dataclasses.field(default_factory=dict)

    @property
    def win_curve(self) -> dict[int, Share]:
        """The classes of ``win_from_score`` shown: those of ``MIN_GAMES`` games or more."""
        return {c: v for c, v in self.win_from_score.items() if (v.rate.clusters or 0) >= MIN_GAMES}

    def lasted(self, attempts: int, *, or_more: bool = False) -> Share:
        """The share of the episodes that lasted ``attempts`` attempts (or more, with ``or_more``),
        clustered by game up to ``MAX_ATTEMPT_SHOWN`` attempts (Wilson's interval beyond)."""
        if (attempts, or_more) in self.durations:
            return self.durations[(attempts, or_more)]
        k = sum(v for a, v in self.attempts.items() if (a >= attempts if or_more else a == attempts))
        return _share(k, self.episodes)

    def to_dict(self) -> dict:
        def plain(x):
            if isinstance(x, Share | AttemptTest):
                return stored_row(x)
            if isinstance(x, tuple):
                return [plain(v) for v in x]
            if isinstance(x, Estimate):  # the game length
                return {"mean": x.value, "n": x.n, "ci_low": x.low, "ci_high": x.high}
            if isinstance(x, dict):
                return {(f"{k[0]}{' or more' if k[1] else ''}" if isinstance(k, tuple) else k): plain(v)
                        for k, v in x.items()}
            return x

        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


def barrel_summary(run: Path) -> BarrelSummary:
    """Fates, attempts and game length of a stored games run, with 95% intervals clustered by game."""

    meta = read_run_metadata(run)
    if meta.get("mode") != "games":
        raise InputError(f"run {run} holds independent deals; the barrel needs whole games (thousand simulate --games)")
    n_seats = meta["rules"]["players"]
    ranged = not meta["rules"].get("barrel_freeze", True)
    shards = verify_run(run)
    # Per-game counts, summed shard by shard (a game lies in one shard): memory does not grow with
    # the number of games.
    fates = {f: _Tally() for f in FATES}
    fell, zeroed = _Tally(), _Tally()
    up_on = {a: _Tally() for a in range(1, MAX_ATTEMPT_SHOWN + 1)}
    once = {a: _Tally() for a in range(1, MAX_ATTEMPT_SHOWN + 1)}
    lasted = {(a, more): _Tally() for a in range(MAX_ATTEMPT_SHOWN + 1) for more in (False, True)}
    pairs = {(a, b): PairedRatioSums() for a, b in itertools.combinations(ATTEMPTS_TESTED, 2)}
    sitter, from_score = _Tally(), {}
    attempts: dict[int, int] = {}
    simultaneous = refused = 0
    n_games, length_sum, length_sq = 0, 0.0, 0.0
    fell_fates = [f for f in FATES if f.startswith("fell")]
    for deals_path, games_path in zip(shards["deals"], shards["games"], strict=True):
        deals, games = read_shard(deals_path), read_shard(games_path)
        eps = episodes(deals, games, n_seats, ranged)
        for e in eps:
            attempts[e["attempts"]] = attempts.get(e["attempts"], 0) + 1
        if eps:
            ids, g = np.unique([e["game"] for e in eps], return_inverse=True)
            fate = np.array([e["fate"] for e in eps])
            tries = np.array([e["attempts"] for e in eps])

            def per_game(flags: np.ndarray, g=g, ids=ids) -> np.ndarray:
                return np.bincount(g, weights=flags, minlength=len(ids))

            count = per_game(np.ones(len(eps)))
            for f in FATES:
                fates[f].add(per_game(fate == f), count)
            fell.add(per_game(np.isin(fate, fell_fates)), count)
            zeroed.add(per_game(np.array([e["zeroed"] for e in eps], dtype=np.float64)), count)
            up = {a: per_game((fate == "up") & (tries == a)) for a in up_on}
            reached = {a: per_game(tries >= a) for a in up_on}
            for (a, more), t in lasted.items():
                t.add(per_game(tries >= a if more else tries == a), count)
            for a in up_on:
                up_on[a].add(up[a], count)
                once[a].add(up[a], reached[a])
            for (a, b), acc in pairs.items():
                keep = reached[a] > 0  # the later attempt's episodes reached the earlier one too
                acc.add(up[a][keep], reached[a][keep], up[b][keep], reached[b][keep])
        obs = score_observations(deals, games, n_seats)
        for cls in np.unique(obs["cls"]):
            here = obs["cls"] == cls
            ids, g = np.unique(obs["game"][here], return_inverse=True)
            from_score.setdefault(int(cls), _Tally()).add(np.bincount(g, weights=obs["won"][here], minlength=len(ids)),
                                                          np.bincount(g, minlength=len(ids)))
        simultaneous += simultaneous_climbs(deals, n_seats)
        refused += refused_climbs(deals, n_seats)
        lengths = games["deals"].to_numpy().astype(np.float64)
        n_games += len(lengths)
        length_sum += float(lengths.sum())
        length_sq += float((lengths ** 2).sum())
        _, with_sitter, played = sitter_deals_by_game(deals, n_seats)
        sitter.add(with_sitter, played)
    mean = length_sum / n_games if n_games else math.nan
    var = (length_sq - n_games * mean * mean) / (n_games - 1) if n_games > 1 else math.nan
    length = Estimate.mean(mean, math.sqrt(max(0.0, var)) if n_games > 1 else math.nan, n_games)
    return BarrelSummary(
        episodes=sum(attempts.values()), simultaneous_climbs=simultaneous,
        refused_climbs=refused, games=n_games,
        fates={f: t.share() for f, t in fates.items()}, fell=fell.share(), fell_to_zero=zeroed.share(),
        up_on_attempt={a: t.share() for a, t in up_on.items()},
        up_once_reached={a: t.share() for a, t in once.items()},
        attempts=dict(sorted(attempts.items())),
        game_length=length,
        barrel_share_of_deals=sitter.share(),
        win_from_score={cls: t.share() for cls, t in sorted(from_score.items())},
        attempt_tests=_attempt_tests(pairs),
        durations={key: t.share() for key, t in lasted.items()},
    )


def _attempt_tests(pairs: dict[tuple[int, int], PairedRatioSums]) -> tuple[AttemptTest, ...]:
    """Each pair's difference with its interval and p-value, Holm-corrected over the pairs."""
    results = {pair: acc.result() for pair, acc in pairs.items()}
    p = [two_sided_p(r["diff"], r["se"]) if not math.isnan(r["diff"]) else math.nan for r in results.values()]
    adjusted = holm(p)
    out = []
    for ((a, b), r), pv, ph in zip(results.items(), p, adjusted, strict=True):
        half = Z95 * r["se"]
        # math.nan itself where undefined: results compare equal field by field (nan is not nan's equal)
        diff, low, high, pv, ph = (x if math.isfinite(x) else math.nan
                                   for x in (r["diff"], r["diff"] - half, r["diff"] + half, pv, ph))
        out.append(AttemptTest(earlier=a, later=b, diff=Estimate(diff, low, high, clusters=pairs[(a, b)].n), p=pv,
                               p_holm=ph))
    return tuple(out)


def _share(k: int, n: int) -> Share:
    """A share of independent trials, with Wilson's interval (``lasted``: how long episodes last)."""
    return Share(k=k, n=n, rate=Estimate.share(k, n))


# What identifies a stored barrel table (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = identity(table=None, rule_sets=None, rules=None, games="--games", seed="--seed", players="--players",
                    learned_weights=None)


@dataclasses.dataclass(frozen=True)
class BarrelStats:
    """Barrel survival under one or more rule sets (``tables_barrel``).

    - ``rule_sets``: the labels of the rule sets, in the order given ("1-classic", "2-short", ...);
    - ``games``: the whole games played per rule set; ``seed``: the root seed they share;
      ``players``: who played, one name a seat;
    - ``summaries``: {rule set: its ``BarrelSummary``}, in the order of ``rule_sets``;
    - ``runs``: {rule set: the folder of its stored run}; ``table_path``: the stored
      ``barrel.parquet`` (``to_polars()``'s table and, as metadata, ``provenance``); ``plot_path``:
      where its plot goes (``analysis.present.barrel.plot_barrel`` draws it);
    - ``provenance``: the metadata stored with the table (version, code fingerprint, sizes, seed,
      players, rule sets and each one's rules).

    ``to_polars()``: the stored table, one row a rule set and quantity (every fate, fell, fell to
    zero, up on each attempt, deals with a sitter, win from each score class) with columns rules,
    quantity, k, n, p, ci_low, ci_high. ``to_dict()``: what ``thousand tables barrel --json``
    prints (``provenance`` and the summaries).
    """

    rule_sets: tuple[str, ...]
    games: int
    seed: int
    players: tuple[str, ...]
    summaries: dict[str, BarrelSummary]
    runs: dict[str, Path]
    table_path: Path
    plot_path: Path
    provenance: dict

    def to_polars(self) -> pl.DataFrame:
        """The shares of every rule set, as stored in ``barrel.parquet``."""
        rows = []
        for label, s in self.summaries.items():
            items = [(f, s.fates[f]) for f in FATES] + [("fell", s.fell), ("fell to zero", s.fell_to_zero)]
            items += [(f"up on attempt {a}", v) for a, v in s.up_on_attempt.items()]
            items += [(f"up on attempt {a}, once reached", v) for a, v in s.up_once_reached.items()]
            items += [("deals with a sitter", s.barrel_share_of_deals)]
            items += [(f"win from score {c}", v) for c, v in s.win_from_score.items()]
            rows += [{"rules": label, "quantity": name, **stored_row(v)} for name, v in items]
        return pl.DataFrame(rows)

    def to_dict(self) -> dict:
        """The stored metadata and every rule set's summary, as ``--json`` prints them."""
        return {**self.provenance, "summaries": {k: v.to_dict() for k, v in self.summaries.items()}}


@holds_out()
def tables_barrel(*, games: int, rules: list[str], players: str | None = None, seed: int = 0,
                  out: Path = Path("out/tables"), progress: Progress | None = None,
                  backend: Backend | None = None, fresh: bool = False) -> BarrelStats:
    """Barrel survival (``BarrelStats``) under every rule set of ``rules`` (presets or TOML files;
    none: classic): ``games`` whole games played by ``players`` (None:
    ``analysis.players.common_player``, the one player of every rule set: the score-aware
    ``learned-win`` when each has its table, else the learned player; as in ``thousand simulate
    --players``), or the stored
    run of the same spec reused, under
    ``out/barrel-runs``, and their barrel summary, stored as a Parquet table with the metadata in
    ``out``. What ``out`` holds from other arguments or other code is refused
    (``analysis.study``) unless ``fresh``, which redoes it. ``progress(stage, games done,
    games)`` follows the play. Arguments of the wrong type are refused (``sim.arguments``) before
    anything is written."""

    games, rules = arguments.integer("games", games), arguments.texts("rules", rules, what=RULE_SPECS)
    players, seed = arguments.text("players", players, optional=True), arguments.integer("seed", seed)
    out, progress = arguments.path("out", out), arguments.function("progress", progress)
    fresh = arguments.flag("fresh", fresh)
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    rule_sets, folders = {}, {}
    for i, spec in enumerate(rules or ["classic"]):
        label = rules_label(i, spec)
        rule_sets[label] = load_rules(spec)
        folders[label] = rules_folder(i, spec, rule_sets[label])
    for label, rec in rule_sets.items():
        if rec.barrel is None:
            raise InputError(f"rules {label!r} have no barrel (barrel = none)")
    twins = same_rules(rule_sets)
    if twins:
        raise InputError(f"rule sets {twins[0]} and {twins[1]} are the same rules: give each rule set once")
    out = Path(out)
    players = common_player(rule_sets.values()) if players is None else players
    specs = {label: BatchSpec(mode="games", n=games, rules=rec, players=players, seed=seed)
             for label, rec in rule_sets.items()}
    if games < 2:
        raise InputError(f"--games must be 2 or more for the barrel tables: an interval needs two games, not {games}")
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("barrel"), "table": "barrel",
            "games": games, "seed": seed, "players": list(next(iter(specs.values())).players),
            "learned_weights": learned_weights([p for spec in specs.values() for p in spec.players]),
            "rule_sets": list(rule_sets), "rules": {label: rec.to_dict() for label, rec in rule_sets.items()}}
    plan = Plan(out=out, name="barrel", table=TABLE_FILE, runs=specs,
                folders={label: f"barrel-runs/{folders[label]}" for label in specs}, provenance=meta,
                identity=compared_on(meta, IDENTITY), what="the barrel table", stage="rule sets",
                runs_dir="barrel-runs", drawn=(PLOT_FILE,), each_finishes="rule set")

    def measure(played: Played) -> BarrelStats:
        summaries = {label: barrel_summary(run) for label, run in played.dirs.items()}
        for label, s in summaries.items():
            if not s.episodes:
                raise NoResultError(f"rule set {label}: no barrel episode in its {s.games:,} games (nobody sat on the "
                                    "barrel), so there is no survival to show; play more games")
        return BarrelStats(rule_sets=tuple(rule_sets), games=games, seed=seed, players=tuple(meta["players"]),
                           summaries=summaries, runs={label: out / "barrel-runs" / folders[label] for label in specs},
                           table_path=out / TABLE_FILE, plot_path=out / PLOT_FILE, provenance=meta)

    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    return run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)
