"""The strategy's deals as arrays and its clustered estimates: the played deals of a 3-player run
(``Deals``, ``load_deals``) with what every section derives from them, and rows grouped by cluster
(``Clusters``: the games, or the deals of the paired run) giving a share or a mean with its 95%
interval (an ``analysis.stats.Estimate``) and a paired ``Difference``.

A share's interval is Wilson's with the sample size deflated by the design effect of the
clustering (never below the plain one); a mean's is normal on the clustered standard error; a
difference of two rates or means over the same clusters is paired by cluster
(``analysis.stats.PairedRatioSums``)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.stats import (
    MIN_NORMAL,
    Z95,
    Estimate,
    PairedRatioSums,
    clustered_share_interval,
    estimate_field,
    two_sided_p,
)
from sim.game.cards import MARRIAGE_MASK

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["SEATS", "MIN_ROWS", "Difference", "Clusters", "COLUMNS", "Deals", "load_deals", "card_count",
           "marriages_in", "class_index", "shares_by", "within"]

SEATS = 3
MIN_ROWS = 30  # rows each side of a difference needs for its interval and p-value


@dataclasses.dataclass(frozen=True)
class Difference:
    """``b - a`` of two shares or means over the same clusters (paired by cluster): ``diff`` with
    its 95% interval (an ``Estimate`` over the ``clusters``; stored and printed as the columns
    ``diff``, ``low``, ``high``), its two-sided p-value and the p-value Holm-corrected over every
    difference of the report (``p_holm``); ``clusters``: the clusters that hold a row of either."""

    a: float
    b: float
    diff: Estimate = estimate_field("diff", "low", "high")
    p: float
    p_holm: float
    clusters: int


class Clusters:
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

    def mean(self, values: np.ndarray, where: np.ndarray | None = None) -> Estimate:
        """The mean of ``values`` over the rows ``where``, normal interval on the clustered error
        (none from fewer than ``MIN_NORMAL`` clusters)."""
        r, se, n, g = self._ratio(values, where)
        lo, hi = (r - Z95 * se, r + Z95 * se) if not math.isnan(se) and g >= MIN_NORMAL else (math.nan, math.nan)
        return Estimate(value=r, low=lo, high=hi, n=n, clusters=g)

    def share(self, flags: np.ndarray, where: np.ndarray | None = None) -> Estimate:
        """The share of rows ``where`` that are ``flags``: Wilson's interval on the sample size
        deflated by the clustering's design effect (at least 1)."""
        p, se, n, g = self._ratio(np.asarray(flags, dtype=np.float64), where)
        if n == 0:
            return Estimate(value=math.nan, low=math.nan, high=math.nan, n=0, clusters=0)
        if g < 2:
            return Estimate(value=p, low=math.nan, high=math.nan, n=n, clusters=g)
        lo, hi = clustered_share_interval(p, se, n)
        return Estimate(value=p, low=lo, high=hi, n=n, clusters=g)

    def difference(self, values: np.ndarray, where_a: np.ndarray, where_b: np.ndarray) -> Difference:
        """The mean of ``values`` over rows ``where_b`` less that over rows ``where_a``, paired by
        cluster (the delta method over both ratios); no interval nor p-value (NaN, and outside the
        Holm family) when either side has fewer than ``MIN_ROWS`` rows, too few for the delta method."""
        pr = PairedRatioSums()
        keep = (self.counts(where_a) > 0) | (self.counts(where_b) > 0)
        if min(self.counts(where_a).sum(), self.counts(where_b).sum()) < MIN_ROWS:
            a, b = self.mean(values, where_a).value, self.mean(values, where_b).value
            clusters = int(keep.sum())
            return Difference(a=a, b=b, diff=Estimate(b - a, math.nan, math.nan, clusters=clusters), p=math.nan,
                              p_holm=math.nan, clusters=clusters)
        pr.add(self.sums(values, where_a)[keep], self.counts(where_a)[keep], self.sums(values, where_b)[keep],
               self.counts(where_b)[keep])
        r = pr.result()
        se = r["se"]
        ok = not math.isnan(se) and not math.isnan(r["diff"])
        clusters = int(keep.sum())
        diff = Estimate(r["diff"], r["diff"] - Z95 * se if ok else math.nan, r["diff"] + Z95 * se if ok else math.nan,
                        clusters=clusters)
        return Difference(a=r["a"], b=r["x"], diff=diff, p=two_sided_p(r["diff"], se) if ok else math.nan,
                          p_holm=math.nan, clusters=clusters)



# ---- the deals as arrays -----------------------------------------------------------------------------------------
COLUMNS = (["game", "deal", "dealer", "talon", "bid_kind", "declarer", "winning_bid", "contract", "conceded", "made",
             "redeal", "plays"]
            + [f"{c}{s}" for c in ("hand", "gift", "card_points", "marriage_points", "marriages", "tricks", "result",
                                   "change", "score", "bolt", "events") for s in range(SEATS)])


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
        return (self.declarer + 1) % SEATS

    @property
    def right(self) -> np.ndarray:
        return (self.declarer + 2) % SEATS

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
        return (self.declarer - self.dealer) % SEATS

    def race(self, values: np.ndarray) -> np.ndarray:
        """The declarer's value less his opponents' mean (``values`` per seat)."""
        return self.at(values, self.declarer) - (self.at(values, self.left) + self.at(values, self.right)) / 2


def load_deals(frame: pl.DataFrame) -> Deals:
    """``Deals`` from a stored 3-player deals frame (every column of ``COLUMNS``)."""
    frame = frame.sort("game", "deal")
    thrown = int((frame["declarer"] < 0).sum())
    frame = frame.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))

    def col(name: str) -> np.ndarray:
        return frame[name].to_numpy().astype(np.int64)

    def seats(name: str) -> np.ndarray:
        return np.stack([col(f"{name}{s}") for s in range(SEATS)], axis=1)

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


def card_count(mask: np.ndarray) -> np.ndarray:
    """The cards of each card mask (its set bits among the 24)."""
    return np.bitwise_count(np.asarray(mask, dtype=np.int64) & 0xFFFFFF).astype(np.int64)


def marriages_in(cards: np.ndarray) -> np.ndarray:
    """(rows, 4): whether the cards hold the K and Q of each suit."""
    return np.stack([(cards & int(m)) == int(m) for m in MARRIAGE_MASK], axis=1)


def class_index(values: np.ndarray, classes: tuple[tuple[int, int, str], ...]) -> np.ndarray:
    """The class of each value among ``classes`` ((lowest, highest, label), in order); -1 in none."""
    out = np.full(len(values), -1, dtype=np.int64)
    for i, (lo, hi, _) in enumerate(classes):
        out[(values >= lo) & (values <= hi)] = i
    return out


def shares_by(clusters: Clusters, labels: Sequence[str], index: np.ndarray, where: np.ndarray) -> dict[str, Estimate]:
    """The share of rows ``where`` in each class of ``index`` (its labels in order): they add up to 1."""
    return {label: clusters.share(index == i, where) for i, label in enumerate(labels)}


def within(c: Clusters, va: np.ndarray, vb: np.ndarray, where: np.ndarray | None = None) -> Difference:
    """b − a of two values of the same rows, clustered: the mean of the row differences."""
    m = c.mean(vb - va, where)
    se = (m.high - m.value) / Z95 if not math.isnan(m.high) else math.nan
    return Difference(a=c.mean(va, where).value, b=c.mean(vb, where).value,
                      diff=Estimate(m.value, m.low, m.high, clusters=m.clusters),
                      p=two_sided_p(m.value, se) if not math.isnan(se) else math.nan, p_holm=math.nan,
                      clusters=m.clusters)

