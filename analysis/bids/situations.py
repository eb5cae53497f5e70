"""What to bid in the score situations a player asks about: ``score_situations``.

A fixed set of named score situations (``situations_for``: near the dump truck, on the barrel, an
opponent on the barrel or about to win, deep behind, and the zero score) and a compact grid of the
cheat sheet's hand classes (``HAND_CLASSES``: no marriage, the spades and the hearts marriage, by one
or two aces). For each class the first ``deals`` random deals whose seat 0 holds a hand of the class
(``analysis.deals.random_deals``, the bid table's deals) are played once per bidding line of seat 0
(``sim.engine.playouts.auction_lines``: pass at every turn, the line player's own bidding, and "bid
up to b" for every legal bid from the least bid to the class's lowest bidding cap), seat 0 as each
hand of ``SEATS_ASKED`` (first, second and third: the same deals, only the dealer moves), in every
situation:

- **the situations**, by the chance of winning the game after the deal (the ``win`` objective of
  ``analysis.bids.value``, read from the table of win chances the caller gives, ``win_chance``),
  everything else in the deal (the others' bids, the talon, raising or conceding, the gifts, the
  cards) played by the score-aware learned player (``SCORE_AWARE``: learned-win);
- **the reference**, the zero score by the race (your score change minus the opponents' mean),
  played by the learned player: the cheat sheet's reading (``analysis.bids.classes.cheat_sheet``).

The lines of one class start from the same random streams in every situation and seat (common
random numbers): situations differ by the score alone, seats by the seat alone. Each cell (a seat,
a situation and a class) is valued by ``analysis.bids.value``: the lines' gains over passing with
95% intervals clustered by deal, the plateau and the settled rule's recommendation, and the line
player's own bidding (the computer player's habit, not advice).

The rows are stored in one Parquet table (``TABLE_FILE``) with what made them as metadata (the code
fingerprint, rules, seed, sizes, seats, situations, classes, players and their weights, the table of
win chances) and a manifest of its SHA-256 beside it; the result is always computed from the stored
rows (``summarize_situations``), so a stored table gives the same result. A stored table of other
code or arguments is refused in one line unless ``fresh``, which replaces it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.analysis_dir import read_table_metadata
from analysis.bids.advisor import SCORE_AWARE
from analysis.bids.classes import class_expr
from analysis.bids.hand import SEATS, check_situation, forced_seat_name, least_bid, owed_contract
from analysis.bids.parts import LINE_PLAYER, hand_features, levels_for
from analysis.bids.value import (
    OBJECTIVE_WORDS,
    LineValue,
    Plateau,
    WinChance,
    line_outcome,
    line_values,
    plateau,
    settled,
)
from analysis.deals import random_deals
from analysis.players import learned_weights
from analysis.stats import Estimate
from analysis.stored import FINGERPRINT, StaleResultError, holds_out, manifest_problem, refusal
from analysis.study import store_table
from sim import InputError, __version__, arguments
from sim.engine.playouts import CHUNK, LINE_COLUMNS, PASS_LINE, Situation, auction_lines
from sim.fingerprint import code_fingerprint
from sim.game.bids_nb import auction_cap, bid_values
from sim.game.rules import HouseRules, load_rules
from sim.runs import check_output_dir

__all__ = ["TABLE_FILE", "SEATS_ASKED", "SITUATION_SEAT", "HAND_CLASSES", "REFERENCE_PLAYER", "REFERENCE",
           "ScoreSituation", "next_bid", "situations_for", "SituationCell", "SituationAdvice", "class_deals",
           "summarize_situations", "score_situations"]

TABLE_FILE = "situations.parquet"
# The seats asked about, each in every situation: first hand (the forced opening bid under
# forced_first_bid), second hand (free to open or pass under every preset) and third hand (the dealer,
# holding the forced bid under forced_bid_seat = dealer).
SEATS_ASKED = ("first", "second", "third")
# The seat the situations' scores are set for (``next_bid``: near the dump truck, the least contract it
# can win lands on it): second hand, who holds no forced bid under any preset.
SITUATION_SEAT = "second"
# The cheat sheet's classes (analysis.bids.classes.MAIN_GROUPING) in a compact grid: no marriage, the
# least and the greatest marriage, by one or two aces.
HAND_CLASSES = ("no marriage, 1 ace", "no marriage, 2 aces", "spades marriage, 1 ace", "spades marriage, 2 aces",
                "hearts marriage, 1 ace", "hearts marriage, 2 aces")
# The situations' lines are played by advisor.SCORE_AWARE (learned-win, docs/learned.md), the
# reference's by the cheat sheet's line player (parts.LINE_PLAYER).
REFERENCE_PLAYER = LINE_PLAYER
REFERENCE = "zero-race"  # the key of the reference situation
_STORED = ("change0", "change1", "change2", "score0", "score1", "score2", "declarer", "winning_bid", "contract",
           "made", "conceded")
_IDENTITY = {"table": ("the kind of table", None), "deals": ("the sizes", None), "seed": ("the seed", None),
             "rules": ("the rules", None), "seats": ("the seats", None), "classes": ("the hand classes", None),
             "situations": ("the situations", None), "players": ("the players", None),
             "learned_weights": ("the players", None), "win_table": ("the table of win chances", None)}
_REPLACE = "give --fresh to replace it, or choose another folder"


@dataclass(frozen=True)
class ScoreSituation:
    """One named score situation: ``key``, its ``name`` in a player's words, the scores before the
    deal (yours, the left opponent's, who bids after you, and the right one's), who sits on the
    barrel and your barrel ``attempts`` used; ``objective`` and ``player``: how its lines are valued
    and who plays them."""

    key: str
    name: str
    score: int = 0
    on_barrel: bool = False
    left: int = 0
    left_on_barrel: bool = False
    right: int = 0
    right_on_barrel: bool = False
    objective: str = "win"
    player: str = SCORE_AWARE
    attempts: int = 0

    def situation(self, rules: HouseRules) -> Situation:
        """The engine's ``Situation``, checked under ``rules`` as ``thousand bid`` checks its options."""
        return check_situation(rules, self.score, self.on_barrel, self.left, self.left_on_barrel, self.right,
                               self.right_on_barrel, attempts=self.attempts or None)

    def to_dict(self) -> dict:
        return {"key": self.key, "name": self.name, "score": self.score, "on_barrel": self.on_barrel,
                "left": self.left, "left_on_barrel": self.left_on_barrel, "right": self.right,
                "right_on_barrel": self.right_on_barrel, "objective": self.objective, "player": self.player,
                "attempts": self.attempts}


def next_bid(rules: HouseRules) -> int:
    """The least contract ``SITUATION_SEAT`` (second hand) can win the auction with: the least bid
    above the forced opening where another seat must open (forced_first_bid), else the minimum bid."""
    if forced_seat_name(rules) in (None, SITUATION_SEAT):
        return rules.min_bid
    return int(bid_values(rules.min_bid, rules.max_contract, rules.to_array())[1])


def _at(rules: HouseRules, share: float) -> int:
    """A score at ``share`` of the target, by fives, below the barrel (below the target without one):
    the situations scale with the rules' target (classic: 0.6 → 600)."""
    ceiling = rules.barrel if rules.barrel is not None else rules.target
    return min(5 * round(share * rules.target / 5), ceiling - 5)


def situations_for(rules: HouseRules) -> tuple[ScoreSituation, ...]:
    """The situations asked about under ``rules``, the reference first: the zero score by the race
    (the cheat sheet's reading) and by the chance of winning; near the dump truck, where the rules
    have one below the barrel (a made ``next_bid``, the least contract second hand can win with,
    lands on it; the same scores for every seat asked); on the barrel, on its last attempt where
    attempts are limited (not leaving upward is a fall), and an opponent on it (the left one, who
    bids after you), where they have a barrel, else an opponent 30 short of the target; deep behind.
    The other scores are shares of the target (``_at``; classic: 400, 600, 100 against 700)."""
    out = [ScoreSituation(REFERENCE, "zero score, by the race (the cheat sheet's reading)", objective="race",
                          player=REFERENCE_PLAYER),
           ScoreSituation("zero", "zero score, by the chance of winning")]
    first = next_bid(rules)
    near = rules.dump_truck_value - first
    if rules.dump_truck and 0 < near < (rules.barrel if rules.barrel is not None else rules.target):
        out.append(ScoreSituation("dump-truck", f"you at {near}: a made {first} lands on the dump truck "
                                                f"({rules.dump_truck_value})", score=near, left=_at(rules, 0.4),
                                  right=_at(rules, 0.4)))
    mid = _at(rules, 0.6)
    if rules.barrel is not None:
        out.append(ScoreSituation("on-barrel", f"you on the barrel ({rules.barrel})", score=rules.barrel,
                                  on_barrel=True, left=mid, right=mid))
        if rules.barrel_attempts > 1:
            used = rules.barrel_attempts - 1
            out.append(ScoreSituation("last-attempt", f"you on the barrel ({rules.barrel}), its last attempt "
                                                      f"({used} used: not leaving upward is a fall)",
                                      score=rules.barrel, on_barrel=True, left=mid, right=mid, attempts=used))
        out.append(ScoreSituation("opponent-barrel", f"left opponent on the barrel ({rules.barrel})", score=mid,
                                  left=rules.barrel, left_on_barrel=True, right=mid))
    else:
        near_win = rules.target - 30
        out.append(ScoreSituation("opponent-wins", f"left opponent at {near_win}, about to win", score=mid,
                                  left=near_win, right=mid))
    low, high = _at(rules, 0.1), _at(rules, 0.7)
    out.append(ScoreSituation("behind", f"you deep behind: {low} against {high} and {high}", score=low, left=high,
                              right=high))
    return tuple(out)


@dataclass(frozen=True)
class SituationCell:
    """One hand class in one situation, played as one seat (``seat``: first, second or third hand).

    ``n``: its deals; ``limits``: its lines (``PASS_LINE``, 0 for the line player's own bidding, the
    levels); ``values``: each line's ``LineValue`` (its result's mean and gain over passing, 95%
    intervals clustered by deal); ``plateau`` (``analysis.bids.value.plateau``); ``bid``: the
    settled rule's recommendation with its ``gain`` over passing (``passes``: pass, or when
    ``forced`` the forced bid, then pass; ``bid`` is then ``forced``); ``beyond``: the first tested
    level above the plateau and its ``loss`` against the best; ``untested_from``: the lowest level
    above it too seldom reached to judge; ``passing``: the pass line's mean; ``habit``: the line
    player's own bidding (the computer player's habit: information, not advice)."""

    situation: str
    hand_class: str
    seat: str
    objective: str
    player: str
    n: int
    least: int
    cap: int
    forced: int | None
    limits: tuple[int, ...]
    values: tuple[LineValue, ...]
    plateau: Plateau
    bid: int | None
    passes: bool
    gain: Estimate
    beyond: int | None
    loss: Estimate
    untested_from: int | None
    passing: Estimate
    habit: LineValue

    def to_dict(self) -> dict:
        """The cell as ``to_polars()`` spells it, with its plateau and lines."""
        return {**_cell_row(self), "plateau": self.plateau.to_dict(), "lines": [v.to_dict() for v in self.values]}


def _cell_row(c: SituationCell) -> dict:
    return {"situation": c.situation, "hand_class": c.hand_class, "seat": c.seat, "objective": c.objective,
            "player": c.player,
            "deals": c.n, "least_bid": c.least, "bidding_cap": c.cap, "forced": c.forced, "bid": c.bid,
            "passes": c.passes, "gain": c.gain.value, "gain_low": c.gain.low, "gain_high": c.gain.high,
            "plateau_low": c.plateau.low, "plateau_high": c.plateau.high, "plateau_pass": c.plateau.includes_pass,
            "settled": c.plateau.settled, "beyond": c.beyond, "beyond_loss": c.loss.value,
            "beyond_loss_low": c.loss.low, "beyond_loss_high": c.loss.high, "untested_from": c.untested_from,
            "passing": c.passing.value, "passing_low": c.passing.low, "passing_high": c.passing.high,
            "habit_gain": c.habit.gain.value, "habit_gain_low": c.habit.gain.low,
            "habit_gain_high": c.habit.gain.high, "habit_declares": c.habit.declares.value,
            "habit_contract": c.habit.contract}


@dataclass(frozen=True)
class SituationAdvice:
    """What to bid in named score situations, by hand class (``score_situations``).

    ``table_file``: the stored rows; ``provenance``: the metadata stored with them (what made them);
    ``rules``; ``seed``; ``deals``: deals a class; ``seats``: the seats asked about (``SEATS_ASKED``);
    ``situations`` (``ScoreSituation``, the reference first); ``classes``; ``cells``: one a seat,
    situation and class; ``win_source``: the table of win chances in words. ``to_polars()``: one row a cell;
    ``to_dict()``: the provenance, the situations and the cells with their plateaus and lines."""

    table_file: Path
    provenance: dict
    rules: HouseRules
    seed: int
    deals: int
    seats: tuple[str, ...]
    situations: tuple[ScoreSituation, ...]
    classes: tuple[str, ...]
    cells: tuple[SituationCell, ...]
    win_source: str

    def cell(self, situation: str, hand_class: str, seat: str) -> SituationCell:
        for c in self.cells:
            if c.situation == situation and c.hand_class == hand_class and c.seat == seat:
                return c
        raise KeyError((situation, hand_class, seat))

    def to_polars(self) -> pl.DataFrame:
        return pl.DataFrame([_cell_row(c) for c in self.cells], infer_schema_length=None)

    def to_dict(self) -> dict:
        return {**self.provenance, "win_source": self.win_source, "cells": [c.to_dict() for c in self.cells]}


def class_deals(rules: HouseRules, seed: int, deals: int, classes: tuple[str, ...] = HAND_CLASSES
                ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(the random deals drawn, ``random_deals(., seed)``; {class: the indices of the first
    ``deals`` of them whose seat 0 holds a hand of the class}), drawing more deals until every class
    has them."""
    n = 200 * deals
    while True:
        d = random_deals(n, seed)
        names = pl.DataFrame(hand_features(d[:, 0], rules)).select(c=class_expr()).to_series().to_numpy()
        found = {c: np.flatnonzero(names == c)[:deals] for c in classes}
        if all(len(ix) == deals for ix in found.values()):
            return d, found
        n *= 2


def _cell(lines: np.ndarray, deals: np.ndarray, limits: list[int], sit: ScoreSituation, hand_class: str, seat: str,
          win_chance: WinChance | None, least: int, cap: int, forced: int | None) -> SituationCell:
    values = line_values(lines, limits, objective=sit.objective, win_chance=win_chance, clusters=deals)
    plat = plateau(values, line_outcome(lines, sit.objective, win_chance), objective=sit.objective, clusters=deals)
    verdict = settled(values, plat)
    top = plat.beyond
    return SituationCell(
        situation=sit.key, hand_class=hand_class, seat=seat, objective=sit.objective, player=sit.player, n=len(deals),
        least=least, cap=cap, forced=forced, limits=tuple(limits), values=values, plateau=plat,
        bid=verdict.bid if verdict.line is not None else forced, passes=verdict.line is None,
        gain=verdict.line.gain if verdict.line is not None else Estimate.none(len(deals)),
        beyond=top.limit if top is not None else None, loss=top.diff if top is not None else Estimate.none(),
        untested_from=verdict.untested_from, passing=values[limits.index(PASS_LINE)].mean,
        habit=values[limits.index(0)])


def _limits(rules: HouseRules, sit: ScoreSituation, cap: int) -> tuple[list[int], int]:
    least = least_bid(rules, sit.on_barrel)
    return [PASS_LINE, 0, *bid_values(least, max(cap, least), rules.to_array())], least


def summarize_situations(path: Path, win_chance: WinChance, *, win_source: str = "") -> SituationAdvice:
    """The ``SituationAdvice`` of the stored table ``path`` (``score_situations``), its win
    situations valued by ``win_chance`` (the table its metadata names)."""
    path = Path(path)
    meta = read_table_metadata(path)
    rules = HouseRules.from_dict(meta["rules"], source=f"the table {path}")
    sits = tuple(ScoreSituation(**s) for s in meta["situations"])
    df = pl.read_parquet(path)
    cells = []
    for seat in meta["seats"]:
        for hand_class in meta["classes"]:
            part = df.filter((pl.col("seat") == seat) & (pl.col("hand_class") == hand_class))
            cap = int(part["bid_cap"].min())
            for sit in sits:
                rows = part.filter(pl.col("situation") == sit.key).sort("deal", "line")
                limits, least = _limits(rules, sit, cap)
                m = len(limits)
                deals = rows["deal"].to_numpy()[::m]
                lines = np.zeros((len(deals), m, len(LINE_COLUMNS)), dtype=np.int64)
                for f in _STORED:
                    lines[:, :, LINE_COLUMNS.index(f)] = rows[f].to_numpy().reshape(len(deals), m)
                forced = owed_contract(rules, seat, sit.on_barrel)[0]
                cells.append(_cell(lines, deals, limits, sit, hand_class, seat,
                                   win_chance if sit.objective == "win" else None, least, cap, forced))
    return SituationAdvice(table_file=path, provenance=meta, rules=rules, seed=meta["seed"], deals=meta["deals"],
                           seats=tuple(meta["seats"]), situations=sits, classes=tuple(meta["classes"]),
                           cells=tuple(cells), win_source=win_source)


def _play(rules: HouseRules, seed: int, deals: int, seats: tuple[str, ...], sits: tuple[ScoreSituation, ...],
          threads: int | None) -> pl.DataFrame:
    """The stored rows: one a seat, class, situation, deal and line."""
    d, found = class_deals(rules, seed, deals)
    arr = rules.to_array()
    frames = []
    for seat in seats:
        for k, (hand_class, ix) in enumerate(found.items()):
            hands = d[ix, 0]
            plays = np.stack([d[ix, 1], d[ix, 2], d[ix, 3]], axis=1)
            caps = np.array([auction_cap(int(h), arr) for h in hands], dtype=np.int64)
            for sit in sits:
                frames.append(_seat_rows(rules, seed, deals, seat, sit, hand_class, ix, hands, plays, caps, k, threads))
    return pl.concat(frames)


def _seat_rows(rules: HouseRules, seed: int, deals: int, seat: str, sit: ScoreSituation, hand_class: str,
               ix: np.ndarray, hands: np.ndarray, plays: np.ndarray, caps: np.ndarray, k: int,
               threads: int | None) -> pl.DataFrame:
    """The stored rows of one seat, situation and class (its ``k``-th): every line of every deal."""
    limits, _ = _limits(rules, sit, int(caps.min()))
    # One class's lines start from the same streams in every situation and seat (common random numbers).
    rows = auction_lines(0, plays, rules, SEATS[seat], sit.situation(rules), limits, seed, player=sit.player,
                         threads=threads, hands=hands, first_chunk=k * (deals // CHUNK + 1))
    m = len(limits)
    cols = {"seat": [seat] * (len(ix) * m), "hand_class": [hand_class] * (len(ix) * m),
            "situation": [sit.key] * (len(ix) * m),
            "deal": np.repeat(ix, m).astype(np.int64), "line": np.tile(np.arange(m), len(ix)).astype(np.int16),
            "limit": np.tile(np.array(limits), len(ix)).astype(np.int16),
            "hand": np.repeat(hands, m).astype(np.uint32), "bid_cap": np.repeat(caps, m).astype(np.int16)}
    for f in _STORED:
        cols[f] = rows[:, :, LINE_COLUMNS.index(f)].ravel().astype(np.int16)
    return pl.DataFrame(cols)


@holds_out()
def score_situations(*, rules: str | HouseRules = "classic", deals: int = 500, seed: int = 0,
                     out: Path = Path("out/situations"), win_chance: WinChance, win_table: dict,
                     win_source: str = "", threads: int | None = None, fresh: bool = False) -> SituationAdvice:
    """Play (or reuse) and value the score situations (see the module docstring): ``deals`` deals a
    hand class, the situations of ``situations_for(rules)``, the win objective read from
    ``win_chance`` (seat 0's chance from the three scores after the deal), whose identity
    ``win_table`` (its provenance: games, seed, version, code fingerprint, file SHA-256) is stored
    with the rows and compared on reuse; ``win_source``: that table in words. A stored table of other
    code or arguments is refused (``StaleResultError``) unless ``fresh``."""
    deals, seed = arguments.integer("deals", deals), arguments.integer("seed", seed)
    out = arguments.path("out", out)
    win_chance = arguments.function("win_chance", win_chance)
    threads, fresh = arguments.integer("threads", threads, optional=True), arguments.flag("fresh", fresh)
    win_source = arguments.text("win_source", win_source)
    if not isinstance(win_table, dict):
        raise arguments.refused("win_table", "the provenance of the table of win chances (a dict)", win_table)
    if win_chance is None:
        raise InputError("win_chance: the situations are valued by the chance of winning; give a table's chance")
    if not 1 <= deals <= 100_000:
        raise InputError(f"deals must be from 1 to 100,000, not {deals}")
    if seed < 0:
        raise InputError(f"seed must be 0 or more, not {seed}")
    rec = load_rules(rules)
    if rec.players != 3:
        raise InputError(f"rules: the score situations are for the 3-player deal, not players = {rec.players}")
    out = Path(out)
    check_output_dir(out)
    sits = situations_for(rec)
    for sit in sits:
        sit.situation(rec)  # a situation the rules refuse is a bug of situations_for: said before playing
    players = [REFERENCE_PLAYER, SCORE_AWARE]
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("bids.situations"), "table": "situations",
            "deals": deals, "seed": seed, "rules": rec.to_dict(), "levels": levels_for(rec), "seats": list(SEATS_ASKED),
            "classes": list(HAND_CLASSES), "situations": [s.to_dict() for s in sits], "players": players,
            "learned_weights": learned_weights(players), "win_table": win_table,
            "lines": "the whole deal played once per bidding line of seat 0 (pass at every turn, the line player's "
                     "own bidding, bid up to each level from the least bid to the class's lowest bidding cap) by "
                     "the situation's player in every seat, from its scores",
            "objectives": {k: OBJECTIVE_WORDS[k] for k in ("race", "win")}}
    meta = json.loads(json.dumps(meta))
    path = out / TABLE_FILE
    if not _reusable(path, meta, out, fresh):
        frame = _play(rec, seed, deals, SEATS_ASKED, sits, threads)
        store_table(frame, path, {k: json.dumps(v) for k, v in meta.items()})
    return summarize_situations(path, win_chance, win_source=win_source)


def _reusable(path: Path, meta: dict, out: Path, fresh: bool) -> bool:
    """Whether ``path`` holds this very table, intact; a table of other code or arguments is refused
    unless ``fresh``; a damaged one is played again."""
    if not path.exists():
        return False
    try:
        stored = read_table_metadata(path)
    except (OSError, ValueError):
        return False
    line = refusal(f"the score situations' table in {out} ({path})", stored, meta, _IDENTITY, _REPLACE)
    if line:
        if not fresh:
            raise StaleResultError(line)
        return False
    return manifest_problem(path) is None
