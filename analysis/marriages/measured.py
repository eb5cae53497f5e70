"""Marriage odds measured in random deals, beside the exact ones, and one test of them all together.

The simulated side deals ``deals`` random deals (``analysis.deals.random_deals``, the same deals
whatever the thread count) and measures each quantity of ``analysis.marriages.exact`` with a 95%
Wilson interval (``measure``); a conditional quantity is measured on the deals that meet its
condition. ``marriage_table`` sets the two side by side, one ``OddsRow`` a quantity, and
``odds_check`` tests the rows together (a chi-square a distribution of distinct quantities,
Holm-corrected: one verdict, ``OddsCheck``). docs/analyses.md defines every quantity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from analysis.deals import random_deals
from analysis.marriages.exact import KQ, exact_odds
from analysis.stats import Estimate, chi_square_gof, estimate_field, holm, stored_row
from sim import InputError
from sim.game.cards import SUIT_SYMBOLS
from sim.game.rules import HouseRules

__all__ = [
    "MAX_MARRIAGE_DEALS", "Measure", "measure", "OddsRow", "marriage_table", "odds_frame", "CHECK_LEVEL",
    "check_distributions", "dropped_quantities", "CheckRow", "OddsCheck", "odds_check",
]

MAX_MARRIAGE_DEALS = 10_000_000  # a deal is four 8-byte masks; the measures a few arrays of them
_ACES = [1 << (6 * s + 5) for s in range(4)]
_TENS = [1 << (6 * s + 4) for s in range(4)]


def _popcounts(x: np.ndarray, bits: list[int]) -> np.ndarray:
    return sum(((x & b) != 0).astype(np.int64) for b in bits)


def _suit_state(x: np.ndarray) -> np.ndarray:
    """(n, 4): how many of each suit's K and Q the masks hold."""
    return np.stack([((x & k) != 0).astype(np.int64) + ((x & q) != 0) for k, q in KQ], axis=1)


@dataclass(frozen=True)
class Measure:
    """k of n deals met a quantity (on the deals meeting its condition)."""

    k: int
    n: int


def measure(deals: np.ndarray, values: tuple[int, ...]) -> dict[str, Measure]:
    """The simulated counterpart of every exact quantity, on ``deals`` (n, 4) = (seat 0's 7 cards,
    the talon, seat 1's 7, seat 2's 7). Hand quantities are seat 0's; the 10-card ones seat 0's
    hand with the talon (the declarer's 10 cards)."""
    hand, talon, left, right = (deals[:, i] for i in range(4))
    n = len(deals)
    out: dict[str, Measure] = {}

    def add(name, hits, cond=None):
        if cond is None:
            out[name] = Measure(int(hits.sum()), n)
        else:
            out[name] = Measure(int((hits & cond).sum()), int(cond.sum()))

    for prefix, cards in (("hand", hand), ("10 cards", hand | talon)):
        state = _suit_state(cards)
        married = state == 2
        for m in range(5):
            add(f"{prefix}: marriages = {m}", married.sum(axis=1) == m)
        add(f"{prefix}: at least one marriage", married.any(axis=1))
        for s in range(4):
            add(f"{prefix}: {SUIT_SYMBOLS[s]} marriage", married[:, s])
        for h in range(5):
            add(f"{prefix}: half marriages = {h}", (state == 1).sum(axis=1) == h)
        pts = (married * np.array(values)[None, :]).sum(axis=1)
        for v in sorted(set(_point_values(values))):
            add(f"{prefix}: marriage points = {v}", pts == v)
    state = _suit_state(hand)
    halves = state == 1
    partner_in_talon = np.stack([((talon & k) != 0) | ((talon & q) != 0) for k, q in KQ], axis=1) & halves
    completed = partner_in_talon.any(axis=1)
    j = halves.sum(axis=1)
    unheld = state == 0
    whole_new = (_suit_state(talon) == 2) & unheld
    m = unheld.sum(axis=1)
    aces_unheld = 4 - _popcounts(hand, _ACES)
    ace_arrives = _popcounts(talon, _ACES) > 0
    add("talon: completes a given half marriage", partner_in_talon[:, 0], halves[:, 0])
    for jj in range(1, 5):
        add(f"talon: completes one of {jj} half marriages", completed, j == jj)
    for mm in range(1, 5):
        add(f"talon: brings a whole marriage, {mm} suits unheld", whole_new.any(axis=1), m == mm)
    for u in range(1, 5):
        add(f"talon: brings an ace, {u} not held", ace_arrives, aces_unheld == u)
    add("talon: completes a half marriage (any hand)", completed)
    add("talon: brings a whole marriage (any hand)", whole_new.any(axis=1))
    add("talon: brings an ace (any hand)", ace_arrives)
    add("talon: brings a ten (any hand)", _popcounts(talon, _TENS) > 0)
    hands = [_suit_state(x) == 2 for x in (hand, left, right)]
    in_hands = hands[0] | hands[1] | hands[2]
    add("deal: no marriage in any hand", ~in_hands.any(axis=1))
    add("deal: a suit's K and Q in one given hand", hands[0][:, 0])
    add("deal: a suit's K and Q both in the talon", (_suit_state(talon) == 2)[:, 0])
    add("deal: a suit's K and Q split", ~in_hands[:, 0] & ~(_suit_state(talon) == 2)[:, 0])
    for mm in range(5):
        add(f"deal: marriages in the three hands = {mm}", in_hands.sum(axis=1) == mm)
    return out


def _point_values(values: tuple[int, ...]) -> list[int]:
    return [sum(values[s] for s in range(4) if (mask >> s) & 1) for mask in range(16)]



@dataclass(frozen=True)
class OddsRow:
    """One quantity (docs/analyses.md defines each), exact and measured in random deals.

    - ``quantity``: its name, e.g. "hand: ♥ marriage" (prefix: "hand", "10 cards", "talon", "deal");
    - ``exact``: the exact chance, a fraction; ``p``: the same as a float;
    - ``k`` of ``n``: the random deals that met it, of those that meet its condition;
    - ``simulated``: ``k / n`` with its Wilson 95% interval (an ``Estimate``, all NaN when ``n`` is
      0), spelt as the columns simulated, ci_low, ci_high;
    - ``inside``: whether the exact chance lies inside that interval.
    """

    quantity: str
    exact: Fraction
    p: float
    k: int
    n: int
    simulated: Estimate = estimate_field("simulated", "ci_low", "ci_high")
    inside: bool

    def to_dict(self) -> dict:
        """The row as ``--json`` prints it: the fraction as text, "numerator/denominator"."""
        return {**stored_row(self), "exact": f"{self.exact.numerator}/{self.exact.denominator}"}


def marriage_table(*, deals: int, seed: int = 0, rules: HouseRules | None = None) -> tuple[OddsRow, ...]:
    """A row (quantity, exact fraction, simulated rate with its 95% interval and sample size) for
    every quantity; ``deals`` random deals from ``seed``."""
    rules = rules or HouseRules()
    if not 1 <= deals <= MAX_MARRIAGE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_MARRIAGE_DEALS:,}, not {deals}")
    exact = exact_odds(rules)
    sim = measure(random_deals(deals, seed), tuple(rules.marriage_values))
    rows = []
    for name, p in exact.items():
        m = sim.get(name, Measure(0, 0))
        simulated = Estimate.share(m.k, m.n)
        rows.append(OddsRow(quantity=name, exact=p, p=float(p), k=m.k, n=m.n, simulated=simulated,
                            inside=bool(m.n and simulated.low <= float(p) <= simulated.high)))
    return tuple(rows)


# ---- the exact-odds check: one test of every row together ------------------------------------------------
# The rows are one correlated sample (every quantity is measured on the same deals) and some are the
# same event twice, so "k of 80 rows inside their 95% interval" tests nothing: the check groups the
# distinct quantities into distributions (a partition of the deals, or of the deals meeting a
# condition, one stratum a condition), tests each by Pearson's chi-square against the exact chances,
# and corrects the tests for their number by Holm's method (valid whatever their dependence).
CHECK_LEVEL = 0.05  # the family-wise level of the check
# Quantities left out of the check, each with why: the same event as a row tested, or its complement,
# or a sum of rows tested.
_DUPLICATES = {
    "hand: at least one marriage": "the complement of hand: marriages = 0",
    "10 cards: at least one marriage": "the complement of 10 cards: marriages = 0",
    "hand: ♠ marriage": "the same event as deal: a suit's K and Q in one given hand (the suit is ♠, the hand "
                        "seat 0's)",
    "deal: no marriage in any hand": "the same event as deal: marriages in the three hands = 0",
    "talon: completes a half marriage (any hand)": "the sum of talon: completes one of j half marriages over j, "
                                                   "the deals weighted by hand: half marriages = j",
}


def check_distributions(quantities: list[str], values: tuple[int, ...]) -> tuple[tuple[str, tuple[tuple[str, ...],
                                                                                                  ...]], ...]:
    """The distributions the exact-odds check tests: (name, strata), a stratum the quantities that
    partition the deals meeting one condition (their complement, when they do not exhaust it, is
    one more cell: "the rest"). Every quantity of ``quantities`` lies in exactly one stratum, except
    those of ``dropped_quantities``. ``values``: the marriage values (equal values make the marriage
    points the number of marriages under another name)."""
    have = [q for q in quantities if q not in dropped_quantities(quantities, values)]

    def named(prefix: str) -> tuple[str, ...]:
        return tuple(q for q in have if q.startswith(prefix))

    out: list[tuple[str, tuple[tuple[str, ...], ...]]] = []
    for side in ("hand", "10 cards"):
        out.append((f"{side}: marriages held", (named(f"{side}: marriages = "),)))
        out += [(q, ((q,),)) for s in range(4) if (q := f"{side}: {SUIT_SYMBOLS[s]} marriage") in have]
        out.append((f"{side}: half marriages held", (named(f"{side}: half marriages = "),)))
        if named(f"{side}: marriage points = "):
            out.append((f"{side}: marriage points held", (named(f"{side}: marriage points = "),)))
    out.append(("talon: completes a given half marriage", (("talon: completes a given half marriage",),)))
    for family, prefix in (("talon: completes a half marriage, by halves held", "talon: completes one of "),
                           ("talon: brings a whole marriage, by suits unheld", "talon: brings a whole marriage, "),
                           ("talon: brings an ace, by aces not held", "talon: brings an ace, ")):
        out.append((family, tuple((q,) for q in named(prefix) if not q.endswith("(any hand)"))))
    out += [(q, ((q,),)) for q in named("talon: ") if q.endswith("(any hand)")]
    out.append(("deal: where a suit's K and Q lie", (tuple(q for q in named("deal: a suit's K and Q")),)))
    out.append(("deal: marriages in the three hands", (named("deal: marriages in the three hands = "),)))
    kept = ((name, tuple(t for t in (tuple(q for q in stratum if q in have) for stratum in strata) if t))
            for name, strata in out)
    return tuple((name, strata) for name, strata in kept if strata)


def dropped_quantities(quantities: list[str], values: tuple[int, ...]) -> dict[str, str]:
    """The quantities the check leaves out, each with why (the same event as one tested, its
    complement, or a sum of rows tested)."""
    dropped = {q: why for q, why in _DUPLICATES.items() if q in quantities}
    if len(set(values)) == 1:  # equal marriage values: points = the number of marriages times the value
        for q in quantities:
            if ": marriage points = " in q:
                side, v = q.split(": marriage points = ")
                dropped[q] = f"the same event as {side}: marriages = {int(v) // values[0]} (equal marriage values)"
    return dropped


@dataclass(frozen=True)
class CheckRow:
    """One distribution of the exact-odds check.

    - ``distribution``: its name; ``quantities``: its cells, stratum by stratum (a stratum's
      complement, "the rest", is a cell too when its quantities do not exhaust it);
    - ``n``: the deals it counts over its strata; ``cells``, ``df``: the cells tested (those
      expecting fewer than 5 deals pooled) and the chi-square's degrees of freedom;
    - ``statistic``, ``p``: Pearson's chi-square of the counts against the exact chances, and its
      p-value; ``p_holm``: the p-value corrected by Holm's method over the distributions.
    """

    distribution: str
    quantities: tuple[tuple[str, ...], ...]
    n: int
    cells: int
    df: int
    statistic: float
    p: float
    p_holm: float

    def to_dict(self) -> dict:
        return {**stored_row(self), "quantities": [list(s) for s in self.quantities]}


@dataclass(frozen=True)
class OddsCheck:
    """The exact-odds check (``odds_check``): do the simulated counts agree with the exact chances?

    - ``rows``: one ``CheckRow`` a distribution tested;
    - ``dropped``: (quantity, why) of every row left out: the same event as a row tested, or its
      complement, or a sum of rows tested;
    - ``level``: the family-wise level (5%); ``p``: the family's p-value, the smallest
      Holm-corrected p of the distributions (NaN when nothing could be tested);
    - ``consistent``: no distribution rejected at ``level`` after Holm's correction (False when
      nothing could be tested); ``worst``: the distribution of the smallest p (None: nothing tested).
    """

    rows: tuple[CheckRow, ...]
    dropped: tuple[tuple[str, str], ...]
    level: float
    p: float
    consistent: bool
    worst: str | None

    def to_dict(self) -> dict:
        return {"test": "Pearson's chi-square of each distribution's counts against its exact chances, Holm-corrected "
                        "over the distributions", "level": self.level, "p": self.p, "consistent": self.consistent,
                "worst": self.worst, "distributions": [r.to_dict() for r in self.rows],
                "dropped": [{"quantity": q, "why": why} for q, why in self.dropped]}

    def to_polars(self) -> pl.DataFrame:
        """One row a distribution: its name, the deals counted, cells, degrees of freedom, statistic
        and p-values."""
        return pl.DataFrame([{k: v for k, v in r.to_dict().items() if k != "quantities"} for r in self.rows],
                            schema={"distribution": pl.String, "n": pl.Int64, "cells": pl.Int64, "df": pl.Int64,
                                    "statistic": pl.Float64, "p": pl.Float64, "p_holm": pl.Float64})


def odds_check(rows: tuple[OddsRow, ...], values: tuple[int, ...], level: float = CHECK_LEVEL) -> OddsCheck:
    """The exact-odds check of ``rows`` (``marriage_table``'s, or any rows of the same quantities):
    each distribution of ``check_distributions`` tested by ``analysis.stats.chi_square_gof`` (a
    stratum's cells: its quantities' counts and exact chances, and the rest of its deals with the
    rest of the chance), the p-values corrected by Holm's method; consistent when no corrected p is
    below ``level``."""
    by = {r.quantity: r for r in rows}
    quantities = list(by)
    found = []
    for name, strata in check_distributions(quantities, values):
        cells = []
        for stratum in strata:
            members = [by[q] for q in stratum]
            n = members[0].n
            if any(r.n != n for r in members):
                raise ValueError(f"the quantities of a stratum of {name} are counted on different deals")
            counts = [r.k for r in members]
            chances = [r.exact for r in members]
            rest = 1 - sum(chances, Fraction(0))
            if rest < 0 or sum(counts) > n:
                raise ValueError(f"the quantities of a stratum of {name} overlap: they are no partition")
            if rest or n - sum(counts):
                counts.append(n - sum(counts))
                chances.append(rest)
            # The chances as floats summing to 1, the largest taking the rounding.
            floats = [float(c) for c in chances]
            top = max(range(len(floats)), key=floats.__getitem__)
            floats[top] = 1.0 - (sum(floats) - floats[top])
            cells.append((counts, floats))
        found.append((name, strata, chi_square_gof(cells)))
    adjusted = holm([t.p for _, _, t in found])
    out = tuple(CheckRow(distribution=name, quantities=strata, n=t.n, cells=t.cells, df=t.df, statistic=t.statistic,
                         p=t.p, p_holm=q) for (name, strata, t), q in zip(found, adjusted, strict=True))
    tested = [r for r in out if not math.isnan(r.p_holm)]
    worst = min(tested, key=lambda r: (r.p_holm, r.p)) if tested else None
    dropped = dropped_quantities(quantities, values)
    return OddsCheck(rows=out, dropped=tuple(dropped.items()), level=level,
                     p=worst.p_holm if worst else math.nan,
                     consistent=bool(worst is not None and worst.p_holm >= level),
                     worst=worst.distribution if worst else None)


def odds_frame(rows: tuple[OddsRow, ...]) -> pl.DataFrame:
    """The rows as the stored table ``marriages.parquet`` holds them."""
    return pl.DataFrame({
        "quantity": [r.quantity for r in rows],
        "exact_numerator": [r.exact.numerator for r in rows],
        "exact_denominator": [r.exact.denominator for r in rows],
        "exact": [r.p for r in rows], "k": [r.k for r in rows], "n": [r.n for r in rows],
        "simulated": [r.simulated.value for r in rows], "ci_low": [r.simulated.low for r in rows],
        "ci_high": [r.simulated.high for r in rows],
    })


# What identifies a stored marriage table (besides the code fingerprint): its metadata keys, each
