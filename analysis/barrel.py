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
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.analysis_dir import RULE_SPECS, NoResultError, rules_folder, rules_label, same_rules
from analysis.measures import FALL_CAUSES, LEFT_DOWNWARD, episodes
from analysis.players import learned_weights, players_or_default
from analysis.stats import Estimate, estimate_field, stored_row
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
    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "FATES", "MAX_ATTEMPT_SHOWN", "TABLE_FILE", "PLOT_FILE", "deals_with_a_sitter",
    "SCORE_STEP", "wins_from_score", "simultaneous_climbs", "refused_climbs", "Share", "BarrelSummary",
    "barrel_summary", "LEFT_DOWNWARD", "IDENTITY", "BarrelStats", "tables_barrel",
]

FATES = ("up", *(f"fell: {c}" for c, _ in FALL_CAUSES), "fell: other", LEFT_DOWNWARD, "another player won",
         "unfinished")
MAX_ATTEMPT_SHOWN = 10
TABLE_FILE = "barrel.parquet"
PLOT_FILE = "barrel_survival.png"


def deals_with_a_sitter(deals: pl.DataFrame, n_seats: int) -> int:
    """Played deals that begin with somebody on the barrel: the previous played deal of the same
    game left a seat on it (EV_BARREL_ON or EV_BARREL_STAY)."""
    d = deals.filter(deals["redeal"] == 0).sort("game", "deal")
    on = np.zeros(d.height, dtype=bool)
    for p in range(n_seats):
        on |= (d[f"events{p}"].to_numpy().astype(np.int64) & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
    game = d["game"].to_numpy()
    return int((on[:-1] & (game[1:] == game[:-1])).sum())


SCORE_STEP = 100  # width of the score classes of the win-from-score table


def wins_from_score(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int) -> dict[int, list[int]]:
    """{score class: [games won, observations]} over finished games: for each seat and each score
    class (SCORE_STEP points, floored) that the seat dealt from in a game, one observation, the
    first such deal, and whether the seat won that game. One per game and class, so that the
    observations of a class come from different games (independent), not from deals of one game
    that share its outcome."""
    winner = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    d = deals.sort("game", "deal")
    game = d["game"].to_numpy()
    dealer = d["dealer"].to_numpy()
    played = d["redeal"].to_numpy() == 0
    first = np.r_[True, game[1:] != game[:-1]]
    out: dict[int, list[int]] = {}
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
            cell = out.setdefault(cls, [0, 0])
            cell[0] += int(w == p)
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
    """A proportion ``k`` of ``n``: ``rate``, ``k / n`` with its Wilson 95% interval (an
    ``Estimate``, all NaN when ``n`` is 0), stored as the columns k, n, p, ci_low, ci_high."""

    k: int
    n: int
    rate: Estimate = estimate_field("p", "ci_low", "ci_high")


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
      class}, classes of ``SCORE_STEP`` points (``wins_from_score``).

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

    def lasted(self, attempts: int, *, or_more: bool = False) -> Share:
        """The share of the episodes that lasted ``attempts`` attempts (or more, with ``or_more``)."""
        k = sum(v for a, v in self.attempts.items() if (a >= attempts if or_more else a == attempts))
        return _share(k, self.episodes)

    def to_dict(self) -> dict:
        def plain(x):
            if isinstance(x, Share):
                return stored_row(x)
            if isinstance(x, Estimate):  # the game length
                return {"mean": x.value, "n": x.n, "ci_low": x.low, "ci_high": x.high}
            if isinstance(x, dict):
                return {k: plain(v) for k, v in x.items()}
            return x

        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


def barrel_summary(run: Path) -> BarrelSummary:
    """Fates, attempts and game length of a stored games run, with 95% intervals."""

    meta = read_run_metadata(run)
    if meta.get("mode") != "games":
        raise InputError(f"run {run} holds independent deals; the barrel needs whole games (thousand simulate --games)")
    n_seats = meta["rules"]["players"]
    ranged = not meta["rules"].get("barrel_freeze", True)
    shards = verify_run(run)
    # Counters only, shard by shard: memory does not grow with the number of games.
    fates = dict.fromkeys(FATES, 0)
    zeroed = 0
    up_on: dict[int, int] = {}
    attempts: dict[int, int] = {}
    simultaneous = refused = 0
    n_games, length_sum, length_sq = 0, 0.0, 0.0
    barrel_deals = 0
    played_deals = 0
    from_score: dict[int, list[int]] = {}
    for deals_path, games_path in zip(shards["deals"], shards["games"], strict=True):
        deals, games = read_shard(deals_path), read_shard(games_path)
        for e in episodes(deals, games, n_seats, ranged):
            fates[e["fate"]] += 1
            zeroed += e["zeroed"]
            attempts[e["attempts"]] = attempts.get(e["attempts"], 0) + 1
            if e["fate"] == "up":
                up_on[e["attempts"]] = up_on.get(e["attempts"], 0) + 1
        for cls, (k, n_) in wins_from_score(deals, games, n_seats).items():
            cell = from_score.setdefault(cls, [0, 0])
            cell[0] += k
            cell[1] += n_
        simultaneous += simultaneous_climbs(deals, n_seats)
        refused += refused_climbs(deals, n_seats)
        lengths = games["deals"].to_numpy().astype(np.float64)
        n_games += len(lengths)
        length_sum += float(lengths.sum())
        length_sq += float((lengths ** 2).sum())
        played_deals += int((deals["redeal"] == 0).sum())
        barrel_deals += deals_with_a_sitter(deals, n_seats)
    n = sum(fates.values())
    mean = length_sum / n_games if n_games else math.nan
    var = (length_sq - n_games * mean * mean) / (n_games - 1) if n_games > 1 else math.nan
    length = Estimate.mean(mean, math.sqrt(max(0.0, var)) if n_games > 1 else math.nan, n_games)
    return BarrelSummary(
        episodes=n, simultaneous_climbs=simultaneous, refused_climbs=refused, games=n_games,
        fates={f: _share(k, n) for f, k in fates.items()},
        fell=_share(sum(k for f, k in fates.items() if f.startswith("fell")), n),
        fell_to_zero=_share(zeroed, n),
        up_on_attempt={a: _share(up_on.get(a, 0), n) for a in range(1, MAX_ATTEMPT_SHOWN + 1)},
        up_once_reached={a: _share(up_on.get(a, 0), sum(v for b, v in attempts.items() if b >= a))
                         for a in range(1, MAX_ATTEMPT_SHOWN + 1)},
        attempts=dict(sorted(attempts.items())),
        game_length=length,
        barrel_share_of_deals=_share(barrel_deals, played_deals),
        win_from_score={cls: _share(k, n_) for cls, (k, n_) in sorted(from_score.items())},
    )


def _share(k: int, n: int) -> Share:
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
    none: classic): ``games`` whole games played by ``players`` (None: the default player of
    ``analysis.players``, the learned player; as in ``thousand simulate --players``), or the stored
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
    specs = {label: BatchSpec(mode="games", n=games, rules=rec, players=players_or_default(players, rec), seed=seed)
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
