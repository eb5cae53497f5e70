"""Strategy in play: the questions a strong player asks, measured on realistic play (by default the
learned player at every seat), from stored runs.

Three runs are played (or reused) under ``out/strategy-runs``:

- ``games``: whole games. Every section but the concession's counterfactual reads its played
  deals; deals of one game share its score situation, so every interval is clustered by game
  (the game's sums over its rows, delta method). The score situation (the barrel, the dump truck,
  bolt penalties) is read from the deals' event bits (``sim.engine.schema`` EV_*).
- ``deals`` and ``deals-concede-off``: independent deals from a zero score, the second under the
  same rules with concession turned off (``concede = false``), from the same seed. The deal
  stream does not depend on the players' choices, and nothing before the concession decision
  reads the concession rules, so both runs hold the same deals, auctions and gifts (counted and
  stored as ``mismatched``: 0); the deals conceded in the first are played on in the second,
  everything else equal. Their difference is a paired (duplicate) measurement of what a
  concession saved against playing on.

Everything else is observational: what the player does and how it fares, never what would have
happened had it chosen otherwise. A share's interval is Wilson's with the sample size deflated by
the design effect of the clustering (never below the plain one); a mean's is normal on the
clustered standard error; a difference of two rates or means over the same games is paired by
game (``analysis.stats.PairedRatioSums``), and the p-values of all differences are Holm-corrected
together.

Definitions (3-player deals): the declarer's **10 cards** are his 7 and the talon; he gives one
card to each opponent (**left**: the seat after him, who plays after him; **right**: the other)
and **keeps 8**. A **marriage kept** is a K and Q of one suit among the 8; **declared** are those
of the deal's ``marriages`` bits. A marriage is declared by leading its K or Q, so the first of the
two cards in the play order (``plays``) dates the declaration. **First hand** sits after the
dealer, **second hand** after first, **third hand** is the dealer. A deal's **result** is the
deal result before the game rules (``result``: ±contract, defenders' rounded points, concession
payouts); the **race** value is the declarer's result minus his opponents' mean. A player **sits
on the barrel** in a deal when the previous played deal of the game left him on it.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.players import learned_weights
from analysis.stats import Z95, PairedRatioSums, clustered_share_interval, holm, two_sided_p
from analysis.stored import FINGERPRINT, holds_out
from analysis.study import Plan, Played, finished_games, identity, run_study
from sim import InputError, __version__
from sim.engine import BatchSpec
from sim.engine.schema import (
    BID_NORMAL,
    BID_UNDARKED,
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_DUMP_TRUCK,
    EV_KNOCKED_OFF,
    EV_WIN,
)
from sim.fingerprint import code_fingerprint
from sim.game.cards import ACE, ACES_MASK, CARD_POINTS, KING, MARRIAGE_MASK, QUEEN, TEN
from sim.game.rules import load_rules

if TYPE_CHECKING:
    from collections.abc import Iterator

    import polars as pl

    from sim.game.rules import HouseRules
    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "RUNS_DIR", "RUN_NAMES", "IDENTITY", "POSITIONS", "TALON_SITUATIONS", "CHOICES",
    "RAISE_SIZES", "BID_CLASSES", "MIN_ROWS", "ORDERS", "RANK_NAMES", "SCORE_CLASSES", "Estimate", "Difference",
    "RaiseStats", "PairedConcession", "ConcedeStats", "DiscardStats", "MarriageOrderStats", "DefenceStats", "SeatStats",
    "ScoreStats", "StrategyReport", "Deals", "load_deals", "raise_stats", "concede_stats", "paired_concession",
    "forced_opening",
    "discard_stats", "marriage_order", "declaration_order", "defence_stats", "seat_stats", "score_stats",
    "strategy", "leaves",
]

TABLE_FILE = "strategy.parquet"
PLOT_FILE = "strategy.png"
RUNS_DIR = "strategy-runs"
RUN_NAMES = ("games", "deals", "deals-concede-off")
POSITIONS = ("first hand", "second hand", "third hand (dealer)")  # (declarer - dealer) % 3 = 1, 2, 0
TALON_SITUATIONS = ("completes a marriage", "brings a whole marriage", "brings an ace (no marriage)",
                    "brings none of these")
CHOICES = ("raise", "keep the bid", "concede")
RAISE_SIZES = ((5, 5, "+5"), (10, 10, "+10"), (15, 20, "+15 to +20"), (25, 40, "+25 to +40"),
               (45, 10_000, "+45 or more"))
BID_CLASSES = ((0, 100, "100 or less"), (105, 115, "105 to 115"), (120, 120, "120"), (125, 140, "125 to 140"),
               (145, 10_000, "145 or more"))
ORDERS = ("higher first", "lower first", "one declared", "none declared")
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")
SCORE_CLASSES = ((-10**9, -5, "below 0"), (0, 295, "0 to 295"), (300, 595, "300 to 595"), (600, 875, "600 to 875"),
                 (880, 10**9, "880 or more"))
_HELD_CLASSES = ("no marriage", "1 marriage", "2 or more")
MIN_ROWS = 30  # rows each side of a difference needs for its interval and p-value
_SEATS = 3


# ---- estimates -------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Estimate:
    """A share (0..1) or a mean over ``n`` rows (deals, or gifts, or seats of deals) from
    ``clusters`` independent clusters (games; deals of the paired run), with its 95% interval
    ``low``..``high`` (NaN when it cannot be had: fewer than two clusters, or no row)."""

    value: float
    low: float
    high: float
    n: int
    clusters: int


@dataclasses.dataclass(frozen=True)
class Difference:
    """``b - a`` of two shares or means over the same clusters (paired by cluster), with its 95%
    interval, its two-sided p-value and the p-value Holm-corrected over every difference of the
    report (``p_holm``); ``clusters``: the clusters that hold a row of either."""

    a: float
    b: float
    diff: float
    low: float
    high: float
    p: float
    p_holm: float
    clusters: int


class _Clusters:
    """Rows grouped by cluster: per-cluster sums of any row quantity, over a row mask."""

    def __init__(self, ids: np.ndarray):
        _, self.inverse = np.unique(np.asarray(ids), return_inverse=True)
        self.k = int(self.inverse.max()) + 1 if len(self.inverse) else 0

    def sums(self, values: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
        v = np.asarray(values, dtype=np.float64)
        if where is not None:
            v = np.where(where, v, 0.0)
        return np.bincount(self.inverse, weights=v, minlength=self.k)

    def counts(self, where: np.ndarray | None = None) -> np.ndarray:
        return self.sums(np.ones(len(self.inverse)), where)

    def _ratio(self, values, where) -> tuple[float, float, int, int]:
        """(ratio of sums, its clustered standard error, rows, clusters with a row)."""
        num, den = self.sums(values, where), self.counts(where)
        keep = den > 0
        num, den = num[keep], den[keep]
        g, n = int(keep.sum()), int(den.sum())
        if n == 0:
            return math.nan, math.nan, 0, 0
        r = float(num.sum() / n)
        if g < 2:
            return r, math.nan, n, g
        resid = num - r * den
        se = math.sqrt(float((resid * resid).sum()) / (g - 1) / g) / (n / g)
        return r, se, n, g

    def mean(self, values, where=None) -> Estimate:
        """The mean of ``values`` over the rows ``where``, normal interval on the clustered error."""
        r, se, n, g = self._ratio(values, where)
        lo, hi = (r - Z95 * se, r + Z95 * se) if not math.isnan(se) else (math.nan, math.nan)
        return Estimate(value=r, low=lo, high=hi, n=n, clusters=g)

    def share(self, flags, where=None) -> Estimate:
        """The share of rows ``where`` that are ``flags``: Wilson's interval on the sample size
        deflated by the clustering's design effect (at least 1)."""
        p, se, n, g = self._ratio(np.asarray(flags, dtype=np.float64), where)
        if n == 0:
            return Estimate(value=math.nan, low=math.nan, high=math.nan, n=0, clusters=0)
        if g < 2:
            return Estimate(value=p, low=math.nan, high=math.nan, n=n, clusters=g)
        lo, hi = clustered_share_interval(p, se, n)
        return Estimate(value=p, low=lo, high=hi, n=n, clusters=g)

    def difference(self, values, where_a, where_b) -> Difference:
        """The mean of ``values`` over rows ``where_b`` less that over rows ``where_a``, paired by
        cluster (the delta method over both ratios); no interval nor p-value (NaN, and outside the
        Holm family) when either side has fewer than ``MIN_ROWS`` rows, too few for the delta method."""
        pr = PairedRatioSums()
        keep = (self.counts(where_a) > 0) | (self.counts(where_b) > 0)
        if min(self.counts(where_a).sum(), self.counts(where_b).sum()) < MIN_ROWS:
            a, b = self.mean(values, where_a).value, self.mean(values, where_b).value
            return Difference(a=a, b=b, diff=b - a, low=math.nan, high=math.nan, p=math.nan, p_holm=math.nan,
                              clusters=int(keep.sum()))
        pr.add(self.sums(values, where_a)[keep], self.counts(where_a)[keep], self.sums(values, where_b)[keep],
               self.counts(where_b)[keep])
        r = pr.result()
        se = r["se"]
        ok = not math.isnan(se) and not math.isnan(r["diff"])
        return Difference(a=r["a"], b=r["x"], diff=r["diff"], low=r["diff"] - Z95 * se if ok else math.nan,
                          high=r["diff"] + Z95 * se if ok else math.nan,
                          p=two_sided_p(r["diff"], se) if ok else math.nan, p_holm=math.nan, clusters=int(keep.sum()))


# ---- the deals as arrays -----------------------------------------------------------------------------------------
_COLUMNS = (["game", "deal", "dealer", "talon", "bid_kind", "declarer", "winning_bid", "contract", "conceded", "made",
             "redeal", "plays"]
            + [f"{c}{s}" for c in ("hand", "gift", "card_points", "marriage_points", "marriages", "tricks", "result",
                                   "change", "score", "bolt", "events") for s in range(_SEATS)])


@dataclasses.dataclass(frozen=True)
class Deals:
    """The played deals of a 3-player run as arrays (one row a deal, sorted by game and deal; per
    seat ``(rows, 3)``), with what every section derives from them: ``ten`` the declarer's 10
    cards, ``kept`` his 8, ``left``/``right`` the seats after him and the other, ``gift_left`` /
    ``gift_right`` the cards they got, ``position`` the declarer's seat after the dealer (1 first
    hand, 2 second, 0 third hand). Rows without a declarer (thrown in) are left out; ``thrown_in``
    counts them."""

    game: np.ndarray
    deal: np.ndarray
    dealer: np.ndarray
    talon: np.ndarray
    bid_kind: np.ndarray
    declarer: np.ndarray
    winning_bid: np.ndarray
    contract: np.ndarray
    conceded: np.ndarray
    made: np.ndarray
    plays: np.ndarray
    hand: np.ndarray
    gift: np.ndarray
    card_points: np.ndarray
    marriage_points: np.ndarray
    marriages: np.ndarray
    tricks: np.ndarray
    result: np.ndarray
    change: np.ndarray
    score: np.ndarray
    bolt: np.ndarray
    events: np.ndarray
    thrown_in: int

    @property
    def rows(self) -> int:
        return len(self.game)

    def at(self, per_seat: np.ndarray, seat: np.ndarray) -> np.ndarray:
        return per_seat[np.arange(self.rows), seat]

    @property
    def left(self) -> np.ndarray:
        return (self.declarer + 1) % _SEATS

    @property
    def right(self) -> np.ndarray:
        return (self.declarer + 2) % _SEATS

    @property
    def ten(self) -> np.ndarray:
        return self.at(self.hand, self.declarer) | self.talon

    @property
    def gift_left(self) -> np.ndarray:
        return self.at(self.gift, self.left)

    @property
    def gift_right(self) -> np.ndarray:
        return self.at(self.gift, self.right)

    @property
    def kept(self) -> np.ndarray:
        return self.ten & ~(np.int64(1) << self.gift_left) & ~(np.int64(1) << self.gift_right)

    @property
    def position(self) -> np.ndarray:
        return (self.declarer - self.dealer) % _SEATS

    def race(self, values: np.ndarray) -> np.ndarray:
        """The declarer's value less his opponents' mean (``values`` per seat)."""
        return self.at(values, self.declarer) - (self.at(values, self.left) + self.at(values, self.right)) / 2


def load_deals(frame: pl.DataFrame) -> Deals:
    """``Deals`` from a stored 3-player deals frame (every column of ``_COLUMNS``)."""
    import polars as pl

    frame = frame.sort("game", "deal")
    thrown = int((frame["declarer"] < 0).sum())
    frame = frame.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))

    def col(name: str) -> np.ndarray:
        return frame[name].to_numpy().astype(np.int64)

    def seats(name: str) -> np.ndarray:
        return np.stack([col(f"{name}{s}") for s in range(_SEATS)], axis=1)

    plays = frame["plays"].to_numpy().astype(np.int64).reshape(frame.height, -1) if frame.height else \
        np.zeros((0, 24), dtype=np.int64)
    plays = np.where(plays >= 0, plays & 31, -1)  # a lead that declined to declare is stored as card + 32
    return Deals(game=col("game"), deal=col("deal"), dealer=col("dealer"), talon=col("talon"),
                 bid_kind=col("bid_kind"), declarer=col("declarer"), winning_bid=col("winning_bid"),
                 contract=col("contract"), conceded=frame["conceded"].to_numpy().astype(bool),
                 made=frame["made"].to_numpy().astype(bool), plays=plays, hand=seats("hand"), gift=seats("gift"),
                 card_points=seats("card_points"), marriage_points=seats("marriage_points"),
                 marriages=seats("marriages"), tricks=seats("tricks"), result=seats("result"),
                 change=seats("change"), score=seats("score"), bolt=seats("bolt"), events=seats("events"),
                 thrown_in=thrown)


def _count(mask: np.ndarray) -> np.ndarray:
    return np.bitwise_count(np.asarray(mask, dtype=np.int64) & 0xFFFFFF).astype(np.int64)


def _marriages_in(cards: np.ndarray) -> np.ndarray:
    """(rows, 4): whether the cards hold the K and Q of each suit."""
    return np.stack([(cards & int(m)) == int(m) for m in MARRIAGE_MASK], axis=1)


def _classes(values: np.ndarray, classes) -> np.ndarray:
    out = np.full(len(values), -1, dtype=np.int64)
    for i, (lo, hi, _) in enumerate(classes):
        out[(values >= lo) & (values <= hi)] = i
    return out


def _by(clusters: _Clusters, labels, index: np.ndarray, where: np.ndarray) -> dict[str, Estimate]:
    """The share of rows ``where`` in each class of ``index`` (its labels in order): they add up to 1."""
    return {label: clusters.share(index == i, where) for i, label in enumerate(labels)}


# ---- 1. raising after the talon ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class RaiseStats:
    """The declarer's choice once he has seen the talon and given his two cards, over the deals of
    an ordinary auction (not a dark or golden deal, whose contract is fixed): ``decisions``.

    - ``choice``: {raise, keep the bid, concede}: shares of the decisions (they add up to 1);
    - ``raise_size``: {size class of ``RAISE_SIZES``: share of the raises}; ``mean_raise``: points;
    - ``talon``: {situation of ``TALON_SITUATIONS`` (exclusive, in that order of priority: the
      talon gives a K or Q to a half marriage of his 7 cards; brings K and Q of one suit; brings an
      ace): {"share of decisions", then each choice's share within the situation, "mean raise" over
      its raises}};
    - ``made``: {"raised", "not raised"}: make-rates of the contracts played (not conceded);
      ``made_difference``: raised − not raised, paired by game;
    - ``result``: {"raised", "not raised"}: the declarer's mean deal result over the contracts
      played.
    """

    decisions: int
    choice: dict[str, Estimate]
    raise_size: dict[str, Estimate]
    mean_raise: Estimate
    talon: dict[str, dict[str, Estimate]]
    made: dict[str, Estimate]
    made_difference: Difference
    result: dict[str, Estimate]


def _talon_situation(d: Deals) -> np.ndarray:
    h7 = d.at(d.hand, d.declarer)
    ten = d.ten
    half = np.stack([_count(h7 & int(m)) == 1 for m in MARRIAGE_MASK], axis=1)
    completes = (half & _marriages_in(ten)).any(axis=1)
    whole = _marriages_in(d.talon).any(axis=1)
    ace = (d.talon & int(ACES_MASK)) != 0
    return np.where(completes, 0, np.where(whole, 1, np.where(ace, 2, 3)))


def raise_stats(d: Deals) -> RaiseStats:
    """Section 1 from played deals (``Deals``), clustered by game."""
    c = _Clusters(d.game)
    free = (d.bid_kind == BID_NORMAL) | (d.bid_kind == BID_UNDARKED)
    raised = free & ~d.conceded & (d.contract > d.winning_bid)
    choice = np.where(d.conceded, 2, np.where(raised, 0, 1))
    size = d.contract - d.winning_bid
    situation = _talon_situation(d)
    talon = {}
    for i, label in enumerate(TALON_SITUATIONS):
        here = free & (situation == i)
        talon[label] = {"share of decisions": c.share(situation == i, free),
                        **_by(c, CHOICES, choice, here), "mean raise": c.mean(size, here & raised)}
    played = free & ~d.conceded
    made = d.made.astype(np.float64)
    result = d.at(d.result, d.declarer)
    return RaiseStats(
        decisions=int(free.sum()), choice=_by(c, CHOICES, choice, free),
        raise_size=_by(c, [s[2] for s in RAISE_SIZES], _classes(size, RAISE_SIZES), raised),
        mean_raise=c.mean(size, raised), talon=talon,
        made={"raised": c.share(made, raised), "not raised": c.share(made, played & ~raised)},
        made_difference=c.difference(made, played & ~raised, raised),
        result={"raised": c.mean(result, raised), "not raised": c.mean(result, played & ~raised)})


# ---- 2. conceding ----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class PairedConcession:
    """The deals conceded in the ``deals`` run, played on in the ``deals-concede-off`` run (the same
    deals, auctions and gifts; ``mismatched``: deals whose set-up differs between the two, left out,
    0 when the pairing holds). ``deals``: deals of each run; ``conceded``: those conceded.

    - ``made_if_played``: the share of the conceded contracts the declarer made when playing on;
    - ``own``: the declarer's mean deal result, ``a`` conceding and ``b`` playing on; ``race``: the
      same for his result less the opponents' mean. ``saved_race`` / ``saved_own``: conceding less
      playing on, each deal its own cluster (positive: the concession saved points);
    - ``saved_race_by_bid``: {winning-bid class: mean race value saved}.
    """

    deals: int
    conceded: int
    mismatched: int
    made_if_played: Estimate
    own: Difference
    race: Difference
    saved_own: Estimate
    saved_race: Estimate
    saved_race_by_bid: dict[str, Estimate]


@dataclasses.dataclass(frozen=True)
class ConcedeStats:
    """How often the declarer concedes, in the whole games, and (``paired``, None when the rules
    forbid conceding) what it saved against playing on, on the same deals. ``allowed``: the rules
    let a declarer concede (never while anybody sits on the barrel, unless ``concede_on_barrel``).

    - ``conceded``: the share of the decisions (as in ``RaiseStats``) that concede;
    - ``by_bid``: {winning-bid class of ``BID_CLASSES``: share conceded};
    - ``by_marriages``: {marriages kept among the 8 cards: share conceded};
    - ``by_aces``: {aces kept among the 8 cards ("0", "1", "2 or more"): share conceded}.
    """

    allowed: bool
    decisions: int
    conceded: Estimate
    by_bid: dict[str, Estimate]
    by_marriages: dict[str, Estimate]
    by_aces: dict[str, Estimate]
    paired: PairedConcession | None


def concede_stats(d: Deals, rules: HouseRules, paired: PairedConcession | None) -> ConcedeStats:
    """Section 2's rates from the games' played deals (clustered by game), with the paired part."""
    c = _Clusters(d.game)
    free = (d.bid_kind == BID_NORMAL) | (d.bid_kind == BID_UNDARKED)
    conceded = d.conceded.astype(np.float64)
    kept = d.kept
    held = np.minimum(_marriages_in(kept).sum(axis=1), 2)
    aces = np.minimum(_count(kept & int(ACES_MASK)), 2)
    bid = _classes(d.winning_bid, BID_CLASSES)
    return ConcedeStats(
        allowed=bool(rules.concede), decisions=int(free.sum()), conceded=c.share(conceded, free),
        by_bid={label: c.share(conceded, free & (bid == i)) for i, (_, _, label) in enumerate(BID_CLASSES)},
        by_marriages={label: c.share(conceded, free & (held == i)) for i, label in enumerate(_HELD_CLASSES)},
        by_aces={label: c.share(conceded, free & (aces == i)) for i, label in enumerate(("0", "1", "2 or more"))},
        paired=paired)


_SET_UP = ("dealer", "talon", "declarer", "winning_bid", "bid_kind")


def paired_concession(a: Deals, b: Deals) -> PairedConcession:
    """What the concessions of run ``a`` saved against playing on, from run ``b`` (the same deals
    with concession off): paired deal by deal (``deal`` ids of a deals run are ``game``)."""
    if not np.array_equal(a.game, b.game):
        raise InputError("the two paired runs do not hold the same deals (their ids differ); play them again with "
                         "--fresh")
    same = np.ones(a.rows, dtype=bool)
    for name in _SET_UP:
        same &= getattr(a, name) == getattr(b, name)
    same &= (a.hand == b.hand).all(axis=1) & (a.gift == b.gift).all(axis=1)
    rows = a.conceded & same
    c = _Clusters(a.game)
    own_a, own_b = a.at(a.result, a.declarer), b.at(b.result, b.declarer)
    race_a, race_b = a.race(a.result), b.race(b.result)
    bid = _classes(a.winning_bid, BID_CLASSES)
    return PairedConcession(
        deals=a.rows, conceded=int(rows.sum()), mismatched=int((~same).sum()),
        made_if_played=c.share(b.made.astype(np.float64), rows),
        own=_within(c, own_a, own_b, rows), race=_within(c, race_a, race_b, rows),
        saved_own=c.mean(own_a - own_b, rows), saved_race=c.mean(race_a - race_b, rows),
        saved_race_by_bid={label: c.mean(race_a - race_b, rows & (bid == i))
                           for i, (_, _, label) in enumerate(BID_CLASSES)})


# ---- 3. the discard ----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class DiscardStats:
    """The two cards the declarer gives, over every played deal (``gifts``: deals). For each of
    "left" (the seat after the declarer) and "right":

    - ``points``: the mean card points of the card given; ``points_difference``: left − right
      within the same deals;
    - ``rank``: {rank of ``RANK_NAMES``: share of the cards given} (they add up to 1);
    - ``trump``: the share of cards of a suit in which the declarer keeps a marriage (his likely
      trump); ``breaks_marriage``: the share of kings and queens whose partner was among his 10
      cards.

    ``outcome``: {group: {"share of deals", "made" (of the contracts played), "result" (the
    declarer's mean deal result, concessions included)}} for "gave an ace or a ten" and "gave
    neither", "broke a marriage" and "broke none"; ``made_difference``: {"ace or ten", "broke a
    marriage"}: the make-rate with it less that without, paired by game.
    """

    gifts: int
    points: dict[str, Estimate]
    points_difference: Difference
    rank: dict[str, dict[str, Estimate]]
    trump: dict[str, Estimate]
    breaks_marriage: dict[str, Estimate]
    outcome: dict[str, dict[str, Estimate]]
    made_difference: dict[str, Difference]


def discard_stats(d: Deals) -> DiscardStats:
    """Section 3 from played deals, clustered by game."""
    c = _Clusters(d.game)
    ten, kept = d.ten, d.kept
    kept_m = _marriages_in(kept)
    ten_m = _marriages_in(ten)
    everyone = np.ones(d.rows, dtype=bool)
    points, rank, trump, breaks = {}, {}, {}, {}
    broke_any = np.zeros(d.rows, dtype=bool)
    high_any = np.zeros(d.rows, dtype=bool)
    given = {"left": d.gift_left, "right": d.gift_right}
    for side, card in given.items():
        suit, r = card // 6, card % 6
        points[side] = c.mean(CARD_POINTS[card])
        rank[side] = _by(c, RANK_NAMES, r, everyone)
        trump[side] = c.share(kept_m[np.arange(d.rows), suit])
        broke = ((r == QUEEN) | (r == KING)) & ten_m[np.arange(d.rows), suit]
        breaks[side] = c.share(broke)
        broke_any |= broke
        high_any |= (r == ACE) | (r == TEN)
    played = ~d.conceded
    made = d.made.astype(np.float64)
    result = d.at(d.result, d.declarer)
    outcome = {}
    for label, rows in (("gave an ace or a ten", high_any), ("gave neither", ~high_any),
                        ("broke a marriage", broke_any), ("broke none", ~broke_any)):
        outcome[label] = {"share of deals": c.share(rows), "made": c.share(made, rows & played),
                          "result": c.mean(result, rows)}
    return DiscardStats(
        gifts=d.rows, points=points,
        points_difference=_within(c, CARD_POINTS[d.gift_right], CARD_POINTS[d.gift_left]),
        rank=rank, trump=trump, breaks_marriage=breaks, outcome=outcome,
        made_difference={"ace or ten": c.difference(made, played & ~high_any, played & high_any),
                         "broke a marriage": c.difference(made, played & ~broke_any, played & broke_any)})


def _within(c: _Clusters, va: np.ndarray, vb: np.ndarray, where: np.ndarray | None = None) -> Difference:
    """b − a of two values of the same rows, clustered: the mean of the row differences."""
    m = c.mean(vb - va, where)
    se = (m.high - m.value) / Z95 if not math.isnan(m.high) else math.nan
    return Difference(a=c.mean(va, where).value, b=c.mean(vb, where).value, diff=m.value, low=m.low, high=m.high,
                      p=two_sided_p(m.value, se) if not math.isnan(se) else math.nan, p_holm=math.nan,
                      clusters=m.clusters)


# ---- 4. which marriage first ------------------------------------------------------------------------------------
def declaration_order(d: Deals, values: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kept, declared, order) per deal: the declarer's marriages kept among his 8 cards, those of
    them he declared, and for two or more declared whether the first declared was worth more than
    the second (1), less (0); -1 otherwise. A marriage is declared by leading its K or Q, so the
    first of its two cards in the play order dates it; equal values go by suit (S < C < D < H)."""
    kept_m = _marriages_in(d.kept)
    declared_m = kept_m & np.stack([((d.at(d.marriages, d.declarer) >> s) & 1) == 1 for s in range(4)], axis=1)
    when = np.full((d.rows, 4), d.plays.shape[1], dtype=np.int64)
    for s in range(4):
        hit = (d.plays == 6 * s + QUEEN) | (d.plays == 6 * s + KING)
        when[:, s] = np.where(hit.any(axis=1), hit.argmax(axis=1), d.plays.shape[1])
    when = np.where(declared_m, when, 10_000)
    ordered = np.argsort(when, axis=1, kind="stable")
    first, second = ordered[:, 0], ordered[:, 1]
    worth = np.asarray(values, dtype=np.int64) * 4 + np.arange(4)  # value first, then suit
    order = np.where(declared_m.sum(axis=1) >= 2, (worth[first] > worth[second]).astype(np.int64), -1)
    return kept_m.sum(axis=1), declared_m.sum(axis=1), order


@dataclasses.dataclass(frozen=True)
class MarriageOrderStats:
    """The declarer keeping two or more marriages among his 8 cards, in the contracts played (not
    conceded): ``deals``. ``order``: {order of ``ORDERS``: share} (they add up to 1): the first
    declared worth more than the second, less, only one declared, none. For each order: ``made``
    (the make-rate), ``points`` (the declarer's mean points, cards and marriages) and
    ``card_points`` (his card points alone: the marriages held differ between the orders).
    ``card_points_difference``: lower first less higher first, paired by game."""

    deals: int
    order: dict[str, Estimate]
    made: dict[str, Estimate]
    points: dict[str, Estimate]
    card_points: dict[str, Estimate]
    card_points_difference: Difference


def marriage_order(d: Deals, rules: HouseRules) -> MarriageOrderStats:
    """Section 4 from played deals, clustered by game."""
    c = _Clusters(d.game)
    kept, declared, order = declaration_order(d, tuple(rules.marriage_values))
    rows = ~d.conceded & (kept >= 2)
    cls = np.where(order == 1, 0, np.where(order == 0, 1, np.where(declared == 1, 2, 3)))
    cards = d.at(d.card_points, d.declarer)
    points = cards + d.at(d.marriage_points, d.declarer)
    made = d.made.astype(np.float64)
    return MarriageOrderStats(
        deals=int(rows.sum()), order=_by(c, ORDERS, cls, rows),
        made={label: c.share(made, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        points={label: c.mean(points, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        card_points={label: c.mean(cards, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        card_points_difference=c.difference(cards, rows & (cls == 0), rows & (cls == 1)))


# ---- 5. defence against a declarer's marriage ---------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class DefenceStats:
    """The contracts played (not conceded: ``deals``), by the marriages the declarer keeps among
    his 8 cards (``_HELD_CLASSES``: none, one, two or more). For each class: "share of deals";
    "declares one or more" and "declares every one" (of the marriages he keeps); "made"; the
    defenders' mean "tricks" (of 8, both together) and "points" (cards and marriages, both
    together); "no trick for the defence" (the share of deals in which the two defenders take no
    trick). ``made_difference``: {"1 marriage", "2 or more"}: the make-rate less that with no
    marriage, paired by game."""

    deals: int
    by_held: dict[str, dict[str, Estimate]]
    made_difference: dict[str, Difference]


def defence_stats(d: Deals, rules: HouseRules) -> DefenceStats:
    """Section 5 from played deals, clustered by game."""
    c = _Clusters(d.game)
    kept, declared, _ = declaration_order(d, tuple(rules.marriage_values))
    held = np.minimum(kept, 2)
    rows = ~d.conceded
    made = d.made.astype(np.float64)
    tricks = d.at(d.tricks, d.left) + d.at(d.tricks, d.right)
    points = (d.at(d.card_points, d.left) + d.at(d.card_points, d.right) + d.at(d.marriage_points, d.left)
              + d.at(d.marriage_points, d.right))
    by_held = {}
    for i, label in enumerate(_HELD_CLASSES):
        here = rows & (held == i)
        cell = {"share of deals": c.share(held == i, rows)}
        if i:
            cell["declares one or more"] = c.share(declared >= 1, here)
            cell["declares every one"] = c.share(declared == kept, here)
        cell |= {"made": c.share(made, here), "defenders' tricks": c.mean(tricks, here),
                 "defenders' points": c.mean(points, here), "no trick for the defence": c.share(tricks == 0, here)}
        by_held[label] = cell
    return DefenceStats(deals=int(rows.sum()), by_held=by_held,
                        made_difference={label: c.difference(made, rows & (held == 0), rows & (held == i))
                                         for i, label in enumerate(_HELD_CLASSES) if i})


# ---- 6. play by seat ---------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SeatStats:
    """Every played deal (``deals``) by the seats' places: first hand (after the dealer), second
    hand, third hand (the dealer). ``by_position``: {place: {"declares" (share of the deals; they
    add up to 1), "made" (make-rate of the contracts it plays), "winning bid" (mean, when it
    declares), "result per deal" (the seat's mean deal result), "change per deal" (its mean score
    change after the game rules)}}. ``change_difference``: {"first hand", "second hand"}: the
    score change per deal less the dealer's, on the same deals (paired within deals, clustered
    by game). ``forced``: the place that opens with the forced bid (``forced_place``), or None."""

    deals: int
    by_position: dict[str, dict[str, Estimate]]
    change_difference: dict[str, Difference]
    forced: str | None = None


def forced_place(rules: HouseRules) -> str | None:
    """The place (one of ``POSITIONS``) that must open with the forced bid: first hand, or the dealer
    under forced_bid_seat = dealer; None without forced_first_bid (all_pass = dealer_plays makes the
    dealer declarer when both others pass, which is no opening)."""
    position = rules.forced_position()
    return None if position is None else POSITIONS[(position - 1) % _SEATS]


def seat_stats(d: Deals, rules: HouseRules) -> SeatStats:
    """Section 6 from played deals, clustered by game (``rules``: who holds the forced bid)."""
    c = _Clusters(d.game)
    places = {label: (d.dealer + k) % _SEATS for k, label in zip((1, 2, 0), POSITIONS, strict=True)}
    made = d.made.astype(np.float64)
    by = {}
    for label, seat in places.items():
        mine = d.declarer == seat
        by[label] = {"declares": c.share(mine), "made": c.share(made, mine & ~d.conceded),
                     "winning bid": c.mean(d.winning_bid, mine), "result per deal": c.mean(d.at(d.result, seat)),
                     "change per deal": c.mean(d.at(d.change, seat))}
    dealer_change = d.at(d.change, places[POSITIONS[2]])
    return SeatStats(deals=d.rows, by_position=by,
                     change_difference={label: _within(c, dealer_change, d.at(d.change, places[label]))
                                        for label in POSITIONS[:2]},
                     forced=forced_place(rules))


# ---- 7. the score situation ---------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ScoreStats:
    """The score situation in whole games (``games`` games, ``finished`` of them with a winner,
    ``deals`` played deals). Rules: ``barrel`` (None: no barrel), ``barrel_min_contract``, ``barrel_freeze``
    (false: the range barrel, where the least contract that wins is what the sitter's score lacks to the
    target, ``target``),
    ``dump_truck`` / ``dump_truck_negative`` / ``dump_truck_value``, ``bolt_on``, ``bolt_count``, ``bolt_penalty``.

    - ``sitter_deals``: (deal, seat) pairs in which a seat sits on the barrel; ``sitter``:
      {"declares" (share of them), "contract" (his mean contract when he declares), "below the
      minimum", "at the minimum", "above the minimum" (shares of his contracts against
      ``barrel_min_contract``, the least that takes him off upward, on the range barrel against what his
      score lacks to the target, rounded up to 5 and at least ``min_bid``: they add up to 1), "forced opening, of
      those below" (the share of his contracts below the minimum that are his forced opening, which nobody
      bid over: as first hand, or as the dealer under forced_bid_seat = dealer; as the dealer when both
      others passed under all_pass = dealer_plays; ``forced_opening`` says which in words), "made" (of his
      contracts played), "wins in the deal" (share of his deals that end the game with his win)};
    - ``climbing``: {"with a sitter", "without"}: {"declarer's contract" (mean, the declarer not
      sitting), "made" (his make-rate), "declarer climbs" (share of his deals in which he
      reaches the barrel)}; ``knocked_off``: the share of the sitter's deals in which another
      player's climb knocks him off; ``contract_difference``: the non-sitting declarer's mean
      contract with a sitter less without, paired by game;
    - ``dump_trucks``: the hits (a score of exactly ``dump_truck_value``, 555, reset to 0); ``dump_truck_games``: the
      share of games with one or more; ``dump_truck_declarer``: the share of hits that fell on the
      deal's declarer; ``dump_truck_per_game``: mean hits a game;
    - ``bolts``: the share of (deal, seat) pairs with a bolt; ``bolt_penalties``: the penalties
      charged; ``bolt_penalty_games``: the share of games with one or more;
      ``bolt_penalty_per_game``: mean penalties a game; ``bolt_penalty_score``: {score class of
      ``SCORE_CLASSES`` (the seat's score before the deal): share of the penalties} (adding up to 1).
    """

    games: int
    finished: int
    deals: int
    barrel: int | None
    barrel_min_contract: int
    barrel_freeze: bool
    target: int
    dump_truck: bool
    dump_truck_negative: bool
    dump_truck_value: int
    bolt_on: str
    bolt_count: str
    forced_opening: str
    bolt_penalty: int
    sitter_deals: int
    sitter: dict[str, Estimate]
    climbing: dict[str, dict[str, Estimate]]
    knocked_off: Estimate
    contract_difference: Difference
    dump_trucks: int
    dump_truck_games: Estimate
    dump_truck_declarer: Estimate
    dump_truck_per_game: Estimate
    bolts: Estimate
    bolt_penalties: int
    bolt_penalty_games: Estimate
    bolt_penalty_per_game: Estimate
    bolt_penalty_score: dict[str, Estimate]


def _before(d: Deals, per_seat: np.ndarray, start: int | np.ndarray = 0) -> np.ndarray:
    """The value of the previous played deal of the same game (``start`` at a game's first)."""
    first = np.r_[True, d.game[1:] != d.game[:-1]] if d.rows else np.zeros(0, dtype=bool)
    prev = np.roll(per_seat, 1, axis=0)
    return np.where(first[:, None], start, prev)


def forced_opening(rules: HouseRules) -> tuple[int, str]:
    """(the position from the dealer of the seat that declares min_bid through no choice of his own,
    0 the dealer and 1 first hand; those contracts in words): first hand's forced opening, the
    dealer's under forced_bid_seat = dealer, the dealer's contract when the others passed under
    all_pass = dealer_plays."""
    position = rules.forced_position()
    if position == 0:
        return 0, "his forced opening as the dealer, which nobody bid over"
    if position is None and rules.all_pass == "dealer_plays":
        return 0, "his contract as the dealer when both others passed without a bid (all_pass = dealer_plays)"
    return 1, "his forced opening as first hand, which nobody bid over"


def score_stats(d: Deals, rules: HouseRules, finished: int) -> ScoreStats:
    """Section 7 from the played deals of whole games (sorted by game and deal), clustered by game."""
    c = _Clusters(d.game)
    n = d.rows
    on = (d.events & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
    sits = _before(d, on.astype(np.int64)).astype(bool)
    # (deal, seat) pairs of a sitter
    r, s = np.nonzero(sits)
    cs = _Clusters(d.game[r])
    declares = d.declarer[r] == s
    played = declares & ~d.conceded[r]
    made = d.made[r].astype(np.float64)
    low = rules.barrel_min_contract
    if rules.barrel is not None and not rules.barrel_freeze:
        # The range barrel: what his score lacks to the target (sim.game.play_nb.barrel_need).
        lacks = rules.target - _before(d, d.score)[r, s]
        low = np.maximum(rules.min_bid, (lacks + 4) // 5 * 5)
    sitter = {"declares": cs.share(declares), "contract": cs.mean(d.contract[r], declares),
              "below the minimum": cs.share(d.contract[r] < low, declares),
              "at the minimum": cs.share(d.contract[r] == low, declares),
              "above the minimum": cs.share(d.contract[r] > low, declares),
              "made": cs.share(made, played), "wins in the deal": cs.share((d.events[r, s] & EV_WIN) != 0)}
    # A sitter holding the forced bid must open at min_bid; when nobody bids over it he declares it,
    # below the barrel minimum through no choice of his own (unless he raises after the talon). The
    # forced seat: first hand (position 1 from the dealer), or the dealer (position 0) under
    # forced_bid_seat = dealer; without forced_first_bid, under all_pass = dealer_plays, the dealer
    # declares min_bid when both others passed, again through no choice of his own.
    position, _ = forced_opening(rules)
    owes = rules.forced_first_bid or rules.all_pass == "dealer_plays"
    forced = owes & ((s - d.dealer[r]) % _SEATS == position) & (d.winning_bid[r] == rules.min_bid)
    sitter["forced opening, of those below"] = cs.share(forced, declares & (d.contract[r] < low))
    knocked = cs.share((d.events[r, s] & EV_KNOCKED_OFF) != 0)
    any_sitter = sits.any(axis=1)
    decl_sits = d.at(sits.astype(np.int64), d.declarer).astype(bool)
    climbs = (d.at(d.events, d.declarer) & EV_BARREL_ON) != 0
    made_all = d.made.astype(np.float64)
    climbing = {}
    for label, rows in (("with a sitter", any_sitter & ~decl_sits), ("without", ~any_sitter)):
        climbing[label] = {"declarer's contract": c.mean(d.contract, rows),
                           "made": c.share(made_all, rows & ~d.conceded), "declarer climbs": c.share(climbs, rows)}
    # the dump truck and bolt penalties, per (deal, seat)
    truck = (d.events & EV_DUMP_TRUCK) != 0
    penalty = (d.events & EV_BOLT_PENALTY) != 0
    g_ids = np.unique(d.game)
    cg = _Clusters(g_ids)
    per_game_truck = c.sums(truck.sum(axis=1))
    per_game_penalty = c.sums(penalty.sum(axis=1))
    tr, ts = np.nonzero(truck)
    pr, ps = np.nonzero(penalty)
    score_before = _before(d, d.score)
    cls = _classes(score_before[pr, ps], SCORE_CLASSES)
    seat_rows = _Clusters(np.repeat(d.game, _SEATS))
    return ScoreStats(
        games=len(g_ids), finished=finished, deals=n, barrel=rules.barrel,
        barrel_min_contract=rules.barrel_min_contract, barrel_freeze=bool(rules.barrel_freeze), target=rules.target,
        dump_truck=bool(rules.dump_truck),
        dump_truck_negative=bool(rules.dump_truck_negative), dump_truck_value=rules.dump_truck_value,
        bolt_on=rules.bolt_on, bolt_count=rules.bolt_count, forced_opening=forced_opening(rules)[1],
        bolt_penalty=rules.bolt_penalty, sitter_deals=len(r), sitter=sitter, climbing=climbing, knocked_off=knocked,
        contract_difference=c.difference(d.contract, ~any_sitter, any_sitter & ~decl_sits),
        dump_trucks=int(truck.sum()), dump_truck_games=cg.share(per_game_truck > 0),
        dump_truck_declarer=_Clusters(d.game[tr]).share(d.declarer[tr] == ts),
        dump_truck_per_game=cg.mean(per_game_truck),
        bolts=seat_rows.share((d.bolt > 0).reshape(-1)), bolt_penalties=int(penalty.sum()),
        bolt_penalty_games=cg.share(per_game_penalty > 0), bolt_penalty_per_game=cg.mean(per_game_penalty),
        bolt_penalty_score=_by(_Clusters(d.game[pr]), [x[2] for x in SCORE_CLASSES], cls, np.ones(len(pr), bool)))


# ---- the result ------------------------------------------------------------------------------------------------
# What identifies a stored strategy table (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = identity(table=None, rules=None, games="--games", deals="--deals", seed="--seed", players="--players",
                    learned_weights="--players")

_SECTIONS = ("raising", "conceding", "discard", "marriage_order", "defence", "seats", "score")


@dataclasses.dataclass(frozen=True)
class StrategyReport:
    """The strategy sections (``strategy``), each measured on the same stored runs.

    - ``rules_name``: the rule set as given; ``games``: whole games played; ``deals``: deals of
      each paired deals run; ``seed``; ``players``: who played, one name a seat (every number
      comes from their play);
    - ``raising`` (``RaiseStats``), ``conceding`` (``ConcedeStats``), ``discard``
      (``DiscardStats``), ``marriage_order`` (``MarriageOrderStats``), ``defence``
      (``DefenceStats``), ``seats`` (``SeatStats``): from the games' played deals;
      ``score`` (``ScoreStats``): from the same games' events; the concession's paired part from
      the two deals runs;
    - ``runs``: {name: folder of the stored run}; ``table_path``: the stored ``strategy.parquet``
      (``to_polars()``, with ``provenance`` as metadata); ``plot_path``: where its plot goes
      (``analysis.present.strategy.plot_strategy``); ``provenance``: version, code fingerprint,
      sizes, seed, players, rules.

    ``to_polars()``: one row an estimate or difference (section, quantity, kind, value, low, high,
    n, clusters, a, b, p, p_holm). ``to_dict()``: the provenance and every section.
    """

    rules_name: str
    games: int
    deals: int
    seed: int
    players: tuple[str, ...]
    raising: RaiseStats
    conceding: ConcedeStats
    discard: DiscardStats
    marriage_order: MarriageOrderStats
    defence: DefenceStats
    seats: SeatStats
    score: ScoreStats
    runs: dict[str, Path]
    table_path: Path
    plot_path: Path
    provenance: dict

    def to_polars(self) -> pl.DataFrame:
        """Every estimate and difference, one row each."""
        import polars as pl

        rows = []
        for name in _SECTIONS:
            for path, leaf in leaves(getattr(self, name), name):
                if isinstance(leaf, Estimate):
                    rows.append({"section": name, "quantity": path, "kind": "estimate", "value": leaf.value,
                                 "low": leaf.low, "high": leaf.high, "n": leaf.n, "clusters": leaf.clusters,
                                 "a": None, "b": None, "p": None, "p_holm": None})
                else:
                    rows.append({"section": name, "quantity": path, "kind": "difference", "value": leaf.diff,
                                 "low": leaf.low, "high": leaf.high, "n": None, "clusters": leaf.clusters,
                                 "a": leaf.a, "b": leaf.b, "p": leaf.p, "p_holm": leaf.p_holm})
        schema = {"section": pl.String, "quantity": pl.String, "kind": pl.String, "value": pl.Float64,
                  "low": pl.Float64, "high": pl.Float64, "n": pl.Int64, "clusters": pl.Int64, "a": pl.Float64,
                  "b": pl.Float64, "p": pl.Float64, "p_holm": pl.Float64}
        return pl.DataFrame(rows, schema=schema)

    def to_dict(self) -> dict:
        """The stored metadata and every section as plain Python (what ``--json`` prints)."""
        return {**self.provenance, **{name: dataclasses.asdict(getattr(self, name)) for name in _SECTIONS}}


def leaves(value: object, path: str) -> Iterator[tuple[str, Estimate | Difference]]:
    """(dotted path, Estimate or Difference) of every leaf of a section, in field order (the
    strategy's text prints them so)."""
    if isinstance(value, Estimate | Difference):
        yield path, value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{path}.{k}")


def _with_holm(sections: dict) -> dict:
    """The sections with every Difference's ``p_holm`` set: Holm over all the differences."""
    found = [leaf for s in sections.values() for _, leaf in leaves(s, "") if isinstance(leaf, Difference)]
    adjusted = dict(zip(map(id, found), holm([x.p for x in found]), strict=True))

    def fix(value):
        if isinstance(value, Difference):
            return dataclasses.replace(value, p_holm=adjusted[id(value)])
        if isinstance(value, Estimate) or value is None or not (dataclasses.is_dataclass(value)
                                                                 or isinstance(value, dict)):
            return value
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return dataclasses.replace(value, **{f.name: fix(getattr(value, f.name)) for f in dataclasses.fields(value)})

    return {k: fix(v) for k, v in sections.items()}


def _concede_off(rules: HouseRules) -> HouseRules:
    """The same rules with concession turned off (and the options that refine it with it)."""
    from sim.game.rules import HouseRules

    return dataclasses.replace(rules, concede=False, concede_60=False, concede_no_deduction=False, concede_limit=0,
                               concede_third_penalty=False, concede_on_barrel=False,
                               concede_payout=HouseRules().concede_payout)


def _read(run: Path) -> Deals:
    from sim.runs import scan_deals

    return load_deals(scan_deals(run).select(_COLUMNS).collect())


@holds_out()
def strategy(*, games: int, deals: int, rules: str = "classic", players: str = "learned", seed: int = 0,
             out: Path = Path("out/tables"), progress: Progress | None = None, backend: Backend | None = None,
             fresh: bool = False) -> StrategyReport:
    """The strategy sections (``StrategyReport``) for the rule set ``rules`` (a preset or a TOML
    file), measured on ``players``' play (one name for every seat, or one a seat): ``games`` whole
    games, and ``deals`` independent deals played twice from the same seed, with concession as the
    rules have it and with it off (skipped when the rules forbid conceding). The runs are stored
    under ``out/strategy-runs`` and reused, the table as ``out/strategy.parquet``; what ``out``
    holds from other arguments or other code is refused (``analysis.study``) unless
    ``fresh``, which redoes it. ``progress(stage, units done, units)`` follows the play."""
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if games < 2:
        raise InputError(f"--games must be 2 or more: an interval clustered by game needs two games, not {games}")
    if deals < 2:
        raise InputError(f"--deals must be 2 or more: an interval needs two deals, not {deals}")
    loaded = load_rules(rules)
    if loaded.players != 3:
        raise InputError(f"the strategy sections are for the 3-player game; rules {rules!r} have players = "
                         f"{loaded.players}")
    specs = {"games": BatchSpec(mode="games", n=games, rules=loaded, players=players, seed=seed),
             "deals": BatchSpec(mode="deals", n=deals, rules=loaded, players=players, seed=seed)}
    if loaded.concede:
        specs["deals-concede-off"] = BatchSpec(mode="deals", n=deals, rules=_concede_off(loaded), players=players,
                                               seed=seed, chunk_size=specs["deals"].chunk_size)
    out = Path(out)
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("strategy"), "table": "strategy",
            "games": games, "deals": deals, "seed": seed, "players": list(specs["games"].players),
            "learned_weights": learned_weights(specs["games"].players),
            "rules_name": rules, "rules": loaded.to_dict()}
    plan = Plan(out=out, name="strategy", table=TABLE_FILE, runs=specs,
                folders={name: f"{RUNS_DIR}/{name}" for name in specs}, provenance=meta, identity=IDENTITY,
                what="the strategy table", runs_dir=RUNS_DIR,
                stage={name: "games" if name == "games" else "paired deals" for name in specs}, drawn=(PLOT_FILE,))

    def measure(played: Played) -> StrategyReport:
        runs = played.dirs
        done = finished_games({"games": runs["games"]})["games"][0]
        game_deals = _read(runs["games"])
        paired = paired_concession(_read(runs["deals"]), _read(runs["deals-concede-off"])) if loaded.concede else None
        sections = _with_holm({
            "raising": raise_stats(game_deals), "conceding": concede_stats(game_deals, loaded, paired),
            "discard": discard_stats(game_deals), "marriage_order": marriage_order(game_deals, loaded),
            "defence": defence_stats(game_deals, loaded), "seats": seat_stats(game_deals, loaded),
            "score": score_stats(game_deals, loaded, done)})
        meta["played_deals"] = game_deals.rows
        return StrategyReport(rules_name=rules, games=games, deals=deals, seed=seed, players=tuple(meta["players"]),
                              **sections, runs={name: out / RUNS_DIR / name for name in specs},
                              table_path=out / TABLE_FILE, plot_path=out / PLOT_FILE, provenance=meta)

    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    return run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)
