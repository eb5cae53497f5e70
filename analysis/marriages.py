"""Marriage odds: exact by counting, next to the same quantities measured in random deals.

A marriage is the king and queen of one suit in one hand; a half marriage one of the two without
the other. The exact odds count deals: the 24 cards are 8 marriage cards (K and Q of each suit)
and 16 others, and a set of n cards is described by its *pattern*, how many of each suit's K and
Q it holds (0, 1 or 2). The number of n-card sets of pattern (a_S, a_C, a_D, a_H) is
``prod C(2, a_s) * C(16, n - sum a_s)`` out of ``C(24, n)``; every quantity about the hand is a sum
over patterns. For the talon, the hand's unseen cards are 17 and the talon is 3 of them, uniformly:
a held half's partner lies in the talon with chance 3/17, both halves of a suit with 15/680. For
the whole deal (three hands of 7 and a talon of 3) the 8 marriage cards' places are enumerated
(4^8 ways), each weighted by the ways to fill the rest with the 16 other cards.

The simulated side deals ``--deals`` random deals (``analysis.tables.random_deals``, the same
deals whatever the thread count) and measures each quantity with a 95% Wilson interval; a
conditional quantity is measured on the deals that meet its condition. docs/analyses.md defines
every quantity. Only the dealt cards matter here (no play): marriage values come from the rules.

Stored with ``--out``, the table's metadata records the code fingerprint and the arguments; a table
or played deals stored there by other code or with other arguments are refused with one line before
anything is played (``--fresh`` replaces them). A bid table (``--bids``) or a run (``--run``) is
read only when it is one, made by this code, intact and (the bid table) of the same rules.

The results: ``tables_marriages`` returns one ``MarriageOdds``, the exact odds beside random deals
with two optional parts, the marriages in play (a ``MarriagePlay`` a run, ``marriages_in_play``)
and what a marriage is worth in a bid table (``MarriageWorth``, ``marriage_worth``); each part is
also computed on its own by its function. Nothing here prints or draws: ``analysis.present`` does
(``text.marriage_odds_lines``, ``plots.plot_marriage_odds``, ``plots.plot_marriage_worth``).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, fields
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.analysis_dir import RULE_SPECS
from analysis.stats import Z95, Rate, chi_square_gof, holm, mean_interval, wilson_interval, wilson_rate
from analysis.stored import holds_out
from sim import InputError, arguments
from sim.game.cards import SUIT_SYMBOLS
from sim.game.rules import HouseRules

if TYPE_CHECKING:
    import polars as pl

    from sim.engine import BatchSpec
    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "HAND", "TALON", "UNSEEN", "MAX_MARRIAGE_DEALS", "TABLE_FILE", "PLAY_TABLE_FILE", "PLOT_FILE", "WORTH_PLOT_FILE",
    "pattern_counts", "hand_odds", "talon_odds", "deal_odds", "Measure", "measure", "exact_odds", "OddsRow",
    "marriage_table", "CHECK_LEVEL", "check_distributions", "dropped_quantities", "CheckRow", "OddsCheck",
    "odds_check", "IDENTITY", "PLAY_KEYS", "RUN_FIELDS", "MARRIAGE_TABLES", "MarriageOdds", "FATES", "ROLES",
    "seat_roles", "marriage_fates", "declared_points", "RolePoints", "FateRow", "MarriagePlay",
    "marriages_in_play", "Interval", "WorthRow", "MarriageWorth", "marriage_worth", "tables_marriages",
]

HAND, TALON, UNSEEN = 7, 3, 17
MAX_MARRIAGE_DEALS = 10_000_000  # a deal is four 8-byte masks; the measures a few arrays of them
TABLE_FILE = "marriages.parquet"
PLAY_TABLE_FILE = "marriages_in_play.parquet"
PLOT_FILE = "marriage_odds.png"
WORTH_PLOT_FILE = "marriage_worth.png"
# Bits of the marriage cards: K and Q of each suit (ranks 3 and 2).
_KQ = [(1 << (6 * s + 2), 1 << (6 * s + 3)) for s in range(4)]
_ACES = [1 << (6 * s + 5) for s in range(4)]
_TENS = [1 << (6 * s + 4) for s in range(4)]


# ---- exact ------------------------------------------------------------------------------------------
def pattern_counts(n_cards: int) -> dict[tuple[int, ...], int]:
    """The number of n-card sets (of 24) by pattern: how many of each suit's K and Q they hold."""
    out = {}
    for pattern in itertools.product(range(3), repeat=4):
        rest = n_cards - sum(pattern)
        if 0 <= rest <= 16:
            out[pattern] = math.prod(math.comb(2, a) for a in pattern) * math.comb(16, rest)
    return out


def hand_odds(n_cards: int, values: tuple[int, ...]) -> dict[str, Fraction]:
    """Exact odds of a uniformly random n-card set: the number of marriages (0..4), a marriage of
    each suit, at least one, the number of half marriages, and the marriage points held."""
    total = math.comb(24, n_cards)
    counts = pattern_counts(n_cards)
    out: dict[str, Fraction] = {}
    for m in range(5):
        p = Fraction(sum(w for pat, w in counts.items() if pat.count(2) == m), total)
        if p:
            out[f"marriages = {m}"] = p
    out["at least one marriage"] = 1 - Fraction(sum(w for pat, w in counts.items() if 2 not in pat), total)
    for s in range(4):
        out[f"{SUIT_SYMBOLS[s]} marriage"] = Fraction(sum(w for pat, w in counts.items() if pat[s] == 2), total)
    for h in range(5):
        p = Fraction(sum(w for pat, w in counts.items() if pat.count(1) == h), total)
        if p:
            out[f"half marriages = {h}"] = p
    points: dict[int, int] = {}
    for pat, w in counts.items():
        v = sum(values[s] for s in range(4) if pat[s] == 2)
        points[v] = points.get(v, 0) + w
    for v in sorted(points):
        out[f"marriage points = {v}"] = Fraction(points[v], total)
    return out


def _talon_any(k: int) -> Fraction:
    """The chance that a 3-card talon from the 17 unseen cards holds at least one of k given cards."""
    return 1 - Fraction(math.comb(UNSEEN - k, TALON), math.comb(UNSEEN, TALON))


def talon_odds() -> dict[str, Fraction]:
    """Exact odds of what the talon brings a 7-card hand: given j half marriages held, at least one
    completed; given m suits of which no half is held, a whole new marriage; given u aces (tens)
    not held, at least one of them; and the same averaged over random hands."""
    total = math.comb(24, HAND)
    counts = pattern_counts(HAND)
    out: dict[str, Fraction] = {"completes a given half marriage": Fraction(TALON, UNSEEN)}
    for j in range(1, 5):
        out[f"completes one of {j} half marriages"] = _talon_any(j)
    whole = Fraction(UNSEEN - 2, math.comb(UNSEEN, TALON))  # both halves and one of the other 15
    for m in range(1, 5):
        out[f"brings a whole marriage, {m} suits unheld"] = m * whole  # two whole ones need 4 cards
    for u in range(1, 5):
        out[f"brings an ace, {u} not held"] = _talon_any(u)
    # Averaged over random hands: the hand's pattern fixes j and m; aces are independent of it.
    halves = sum(Fraction(w, total) * (_talon_any(pat.count(1)) if pat.count(1) else 0) for pat, w in counts.items())
    out["completes a half marriage (any hand)"] = halves
    out["brings a whole marriage (any hand)"] = sum(Fraction(w, total) * pat.count(0) * whole
                                                   for pat, w in counts.items())
    out["brings an ace (any hand)"] = 1 - Fraction(math.comb(20, TALON), math.comb(24, TALON))
    out["brings a ten (any hand)"] = out["brings an ace (any hand)"]
    return out


def deal_odds() -> dict[str, Fraction]:
    """Exact odds over whole deals (three hands of 7, a talon of 3): nobody holds a marriage in the
    7-card hands; where each suit's K and Q lie; how many marriages the hands hold together."""
    sizes = (HAND, HAND, HAND, TALON)  # places 0..2 the hands, 3 the talon
    total = math.factorial(24) // (math.factorial(HAND) ** 3 * math.factorial(TALON))
    weight: dict[tuple[int, ...], int] = {}
    for places in itertools.product(range(4), repeat=8):  # K, Q of S, then of C, D, H
        used = [places.count(p) for p in range(4)]
        if any(u > c for u, c in zip(used, sizes, strict=True)):
            continue
        rest = [c - u for u, c in zip(used, sizes, strict=True)]
        weight[places] = math.factorial(16) // math.prod(math.factorial(r) for r in rest)
    assert sum(weight.values()) == total
    out: dict[str, Fraction] = {}

    def p(pred) -> Fraction:
        return Fraction(sum(w for pl, w in weight.items() if pred(pl)), total)

    def together(pl, s):  # the place holding both K and Q of suit s, or -1
        return pl[2 * s] if pl[2 * s] == pl[2 * s + 1] else -1

    out["no marriage in any hand"] = p(lambda pl: all(together(pl, s) in (-1, 3) for s in range(4)))
    out["a suit's K and Q in one given hand"] = p(lambda pl: together(pl, 0) == 0)
    out["a suit's K and Q both in the talon"] = p(lambda pl: together(pl, 0) == 3)
    out["a suit's K and Q split"] = p(lambda pl: together(pl, 0) == -1)
    for m in range(5):
        q = p(lambda pl, m=m: sum(together(pl, s) in (0, 1, 2) for s in range(4)) == m)
        if q:
            out[f"marriages in the three hands = {m}"] = q
    return out


# ---- simulated -----------------------------------------------------------------------------------------
def _popcounts(x: np.ndarray, bits: list[int]) -> np.ndarray:
    return sum(((x & b) != 0).astype(np.int64) for b in bits)


def _suit_state(x: np.ndarray) -> np.ndarray:
    """(n, 4): how many of each suit's K and Q the masks hold."""
    return np.stack([((x & k) != 0).astype(np.int64) + ((x & q) != 0) for k, q in _KQ], axis=1)


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
    partner_in_talon = np.stack([((talon & k) != 0) | ((talon & q) != 0) for k, q in _KQ], axis=1) & halves
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



# ---- the table -----------------------------------------------------------------------------------------
def exact_odds(rules: HouseRules) -> dict[str, Fraction]:
    """Every exact quantity, named as in ``measure``."""
    values = tuple(rules.marriage_values)
    out = {f"hand: {k}": v for k, v in hand_odds(HAND, values).items()}
    out.update({f"10 cards: {k}": v for k, v in hand_odds(HAND + TALON, values).items()})
    out.update({f"talon: {k}": v for k, v in talon_odds().items()})
    out.update({f"deal: {k}": v for k, v in deal_odds().items()})
    return out


@dataclass(frozen=True)
class OddsRow:
    """One quantity (docs/analyses.md defines each), exact and measured in random deals.

    - ``quantity``: its name, e.g. "hand: ♥ marriage" (prefix: "hand", "10 cards", "talon", "deal");
    - ``exact``: the exact chance, a fraction; ``p``: the same as a float;
    - ``k`` of ``n``: the random deals that met it, of those that meet its condition;
    - ``simulated``: ``k / n`` (NaN when ``n`` is 0), with its Wilson 95% interval ``ci_low``,
      ``ci_high``;
    - ``inside``: whether the exact chance lies inside that interval.
    """

    quantity: str
    exact: Fraction
    p: float
    k: int
    n: int
    simulated: float
    ci_low: float
    ci_high: float
    inside: bool

    def to_dict(self) -> dict:
        """The row as ``--json`` prints it: the fraction as text, "numerator/denominator"."""
        return {"quantity": self.quantity, "exact": f"{self.exact.numerator}/{self.exact.denominator}",
                "p": self.p, "k": self.k, "n": self.n, "simulated": self.simulated, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "inside": self.inside}


def marriage_table(*, deals: int, seed: int = 0, rules: HouseRules | None = None) -> tuple[OddsRow, ...]:
    """A row (quantity, exact fraction, simulated rate with its 95% interval and sample size) for
    every quantity; ``deals`` random deals from ``seed``."""
    from analysis.deals import random_deals

    rules = rules or HouseRules()
    if not 1 <= deals <= MAX_MARRIAGE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_MARRIAGE_DEALS:,}, not {deals}")
    exact = exact_odds(rules)
    sim = measure(random_deals(deals, seed), tuple(rules.marriage_values))
    rows = []
    for name, p in exact.items():
        m = sim.get(name)
        lo, hi = wilson_interval(m.k, m.n) if m else (math.nan, math.nan)
        rows.append(OddsRow(quantity=name, exact=p, p=float(p), k=m.k if m else 0, n=m.n if m else 0,
                            simulated=m.k / m.n if m and m.n else math.nan, ci_low=lo, ci_high=hi,
                            inside=bool(m and m.n and lo <= float(p) <= hi)))
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
        return {"distribution": self.distribution, "quantities": [list(s) for s in self.quantities], "n": self.n,
                "cells": self.cells, "df": self.df, "statistic": self.statistic, "p": self.p, "p_holm": self.p_holm}


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
        import polars as pl

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


def _odds_frame(rows: tuple[OddsRow, ...]) -> pl.DataFrame:
    """The rows as the stored table ``marriages.parquet`` holds them."""
    import polars as pl

    return pl.DataFrame({
        "quantity": [r.quantity for r in rows],
        "exact_numerator": [r.exact.numerator for r in rows],
        "exact_denominator": [r.exact.denominator for r in rows],
        "exact": [r.p for r in rows], "k": [r.k for r in rows], "n": [r.n for r in rows],
        "simulated": [r.simulated for r in rows], "ci_low": [r.ci_low for r in rows],
        "ci_high": [r.ci_high for r in rows],
    })


# What identifies a stored marriage table (besides the code fingerprint): its metadata keys, each
# with what a refusal calls it and the option that sets it; "play" is the spec of the deals played.
IDENTITY = {"table": ("the kind of table", None), "sample_size": ("the sizes", "--deals"),
            "seed": ("the seed", "--seed"), "rules": ("the rules", None),
            "play": ("the marriages in play (--play-deals, --players, --play-rules or --run)", None)}
PLAY_KEYS = ("mode", "sample_size", "seed", "players", "learned_weights", "rules")  # learned_weights: learned only
# The keys of a run spec, as a refusal names them (any other key by its name).
RUN_FIELDS = {"sample_size": ("the sizes", "--play-deals"), "seed": ("the seed", "--seed"),
              "players": ("the players", "--players"), "heuristic_params": ("the players", None),
              "learned_weights": ("the players (the learned player's weights, SHA-256)", None),
              "rules": ("the rules", None), "mode": ("the kind of run", None)}
_REPLACE = "give --fresh to replace it, or choose another --out"
_REPLACE_RUN = "give --fresh to play them again, or choose another --out"
MARRIAGE_TABLES = ("odds", "check", "play", "worth")


@dataclass(frozen=True)
class MarriageOdds:
    """What ``thousand tables marriages`` finds (``tables_marriages``): the exact odds beside random
    deals, and, when asked, the marriages in play and what a marriage is worth.

    - ``deals``, ``seed``: the random deals measured; ``rules``: the rules (their marriage values);
    - ``rows``: every quantity, exact and simulated (``OddsRow``);
    - ``check``: the exact-odds check of the rows together (``OddsCheck``: a chi-square a
      distribution of distinct quantities, Holm-corrected, one verdict);
    - ``play``: the marriages in play, one ``MarriagePlay`` a rule set played (``--play-rules``) or
      the stored run read (``--run``); empty when none was asked for;
    - ``worth``: what a marriage is worth in the bid table given (``MarriageWorth``), or None;
    - ``table_file``, ``play_table_file``: the tables stored (``--out``; None: not stored, or no
      play); ``plot_file``, ``worth_plot_file``: where their plots are drawn (None: no ``--out``,
      or no worth);
    - ``provenance``: the metadata stored with the tables (version, code fingerprint, sizes, seed,
      rules, and each play run's spec and marriage points as ``play_runs``).

    ``to_dict()`` is what ``--json`` prints. ``to_polars(table=...)``: "odds" (the default: the
    stored ``marriages.parquet``'s rows and columns), "check" (the exact-odds check, one row a
    distribution tested), "play" (``marriages_in_play.parquet``'s, every
    rule set's; empty without play) or "worth" (one row a suit, each interval in three columns;
    empty without worth).
    """

    deals: int
    seed: int
    rules: HouseRules
    rows: tuple[OddsRow, ...]
    check: OddsCheck
    play: tuple[MarriagePlay, ...]
    worth: MarriageWorth | None
    table_file: Path | None
    play_table_file: Path | None
    plot_file: Path | None
    worth_plot_file: Path | None
    provenance: dict

    @property
    def inside(self) -> int:
        """The exact values lying inside their simulated 95% interval (information only: the rows
        share their deals and some are the same event twice; ``check`` is the test)."""
        return sum(r.inside for r in self.rows)

    def row(self, quantity: str) -> OddsRow:
        """The row of ``quantity`` (KeyError: no such quantity)."""
        for r in self.rows:
            if r.quantity == quantity:
                return r
        raise KeyError(quantity)

    def to_dict(self) -> dict:
        return {**self.provenance, "rows": [r.to_dict() for r in self.rows], "check": self.check.to_dict(),
                "play": [r for p in self.play for r in p.row_dicts()],
                "worth": [r.to_dict() for r in self.worth.rows] if self.worth is not None else []}

    def to_polars(self, table: str = "odds") -> pl.DataFrame:
        """One of MARRIAGE_TABLES as a DataFrame (see the class's docstring)."""
        import polars as pl

        if table == "odds":
            return _odds_frame(self.rows)
        if table == "check":
            return self.check.to_polars()
        if table == "play":
            return _play_frame([r for p in self.play for r in p.row_dicts()]) if self.play else pl.DataFrame()
        if table == "worth":
            return self.worth.to_polars() if self.worth is not None else pl.DataFrame()
        raise ValueError(f"table must be one of {', '.join(MARRIAGE_TABLES)}, not {table!r}")


# ---- marriages in play ---------------------------------------------------------------------------------
# What became of a marriage a seat held in the cards it played with (the declarer's 8 after the
# discard, a defender's 7 and his gift; with two players the declarer's 10 after the burial).
FATES = ("declared", "declared, burnt", "no trick won", "cards played first")
# The defender after the declarer in the order of play, and the one after him (with two players the
# only defender is the left one).
ROLES = ("declarer", "left defender", "right defender")


def seat_roles(declarer: np.ndarray, dealer: np.ndarray, n_seats: int, p: int) -> np.ndarray:
    """Per deal, the role of seat ``p`` (an index into ROLES; -1 when it sits out a 4-player deal)."""
    import numpy as np

    if n_seats == 2:
        return np.where(declarer == p, 0, 1)
    if n_seats == 4:  # play goes round the three seats other than the dealer
        step1 = (declarer + 1) % 4
        left = np.where(step1 == dealer, (declarer + 2) % 4, step1)
        return np.where(dealer == p, -1, np.where(declarer == p, 0, np.where(left == p, 1, 2)))
    return np.where(declarer == p, 0, np.where((declarer + 1) % 3 == p, 1, 2))


def marriage_fates(deals: pl.DataFrame, rules: HouseRules) -> dict[tuple[str, int, str], int]:
    """Counts of (role, suit, fate) over the played deals of a stored deals frame, and of
    (\"declarer\", suit, \"given away\") for marriages the declarer held among his cards before the
    discard but not after it. Fates:

    - ``declared``: declared and kept;
    - ``declared, burnt``: declared, then burnt (``marriage_burns_without_trick``, no trick won);
    - ``no trick won``: not declared, and the seat won no trick (without ``marriage_first_lead`` a
      marriage is declared only after a trick);
    - ``cards played first``: not declared although the seat won a trick: a half was played before
      the seat was on lead after a trick (forced out by following, or led without declaring, or
      under ``marriage_min_cards`` led with too few cards).

    Thrown-in and conceded deals are left out (nothing is played)."""
    import numpy as np

    n_seats = rules.players
    cols = {c: deals[c].to_numpy() for c in deals.columns if c != "plays"}
    played = (cols["redeal"] == 0) & (cols["declarer"] >= 0) & ~cols["conceded"].astype(bool)
    out: dict[tuple[str, int, str], int] = {}
    declarer = cols["declarer"]
    talon = cols["talon"].astype(np.int64)
    for p in range(n_seats):
        hand = cols[f"hand{p}"].astype(np.int64)
        is_decl = declarer == p
        if n_seats == 2:
            buried = cols["buried"].astype(np.int64)
            card = cols["talon_card"].astype(np.int64)
            given = np.where(card >= 0, np.left_shift(1, np.maximum(card, 0)), 0)
            ten = hand | talon
            final = np.where(is_decl, ten & ~buried & ~given, hand)
        else:
            gift = cols[f"gift{p}"].astype(np.int64)
            received = np.where(gift >= 0, np.left_shift(1, np.maximum(gift, 0)), 0)
            gifts_out = np.zeros_like(hand)
            for q in range(n_seats):
                if q != p:
                    g = cols[f"gift{q}"].astype(np.int64)
                    gifts_out |= np.where(g >= 0, np.left_shift(1, np.maximum(g, 0)), 0)
            ten = hand | talon
            final = np.where(is_decl, ten & ~gifts_out, hand | received)
        active = played & (hand != 0)  # a 4-player dealer sits out with no hand
        bits = cols[f"marriages{p}"].astype(np.int64)
        role_of = seat_roles(declarer, cols["dealer"], n_seats, p)
        tricks = cols[f"tricks{p}"]
        for s in range(4):
            kq = _KQ[s][0] | _KQ[s][1]
            held = active & ((final & kq) == kq)
            declared = (bits >> s) & 1 == 1
            burnt = declared & (tricks == 0) & rules.marriage_burns_without_trick
            fate = {
                "declared": held & declared & ~burnt,
                "declared, burnt": held & burnt,
                "no trick won": held & ~declared & (tricks == 0),
                "cards played first": held & ~declared & (tricks > 0),
            }
            gave = active & is_decl & ((ten & kq) == kq) & ((final & kq) != kq)
            for r, role in enumerate(ROLES):
                mask = role_of == r
                for name, hit in fate.items():
                    out[(role, s, name)] = out.get((role, s, name), 0) + int((hit & mask).sum())
            out[("declarer", s, "given away")] = out.get(("declarer", s, "given away"), 0) + int(gave.sum())
    return out


def declared_points(deals: pl.DataFrame, rules: HouseRules) -> dict[str, list[float]]:
    """{role: [seat-deals, sum, sum of squares]} of the marriage points each seat scored in the
    played deals (a marriage declared and not burnt; half marriages and the four aces count), and
    {"role|points": seat-deals} for their distribution."""
    import numpy as np

    cols = {c: deals[c].to_numpy() for c in deals.columns if c != "plays"}
    played = (cols["redeal"] == 0) & (cols["declarer"] >= 0) & ~cols["conceded"].astype(bool)
    out = {role: [0.0, 0.0, 0.0] for role in ROLES}
    for p in range(rules.players):
        active = played & (cols[f"hand{p}"] != 0)
        pts = cols[f"marriage_points{p}"].astype(np.float64)
        role_of = seat_roles(cols["declarer"], cols["dealer"], rules.players, p)
        for r, role in enumerate(ROLES):
            x = pts[active & (role_of == r)]
            out[role][0] += len(x)
            out[role][1] += float(x.sum())
            out[role][2] += float((x ** 2).sum())
            values, counts = np.unique(x.astype(np.int64), return_counts=True)
            for v, k in zip(values.tolist(), counts.tolist(), strict=True):
                out[f"{role}|{v}"] = out.get(f"{role}|{v}", 0) + k
    return out


@dataclass(frozen=True)
class RolePoints:
    """The marriage points a seat of one role scored per played deal (a marriage declared and not
    burnt; half marriages and the four aces count).

    - ``role``: one of ROLES; ``n``: its seat-deals;
    - ``mean`` (NaN when ``n`` is 0) and its 95% interval ``ci``;
    - ``distribution``: (points, share of the seat-deals) for every score, lowest first.
    """

    role: str
    mean: float
    n: int
    ci: tuple[float, float]
    distribution: tuple[tuple[int, float], ...]

    def to_dict(self) -> dict:
        return {"mean": self.mean, "n": self.n, "ci": list(self.ci), "distribution": dict(self.distribution)}




@dataclass(frozen=True)
class FateRow:
    """What became of the marriages one role held in one suit, in the cards it played with.

    - ``role`` (one of ROLES), ``suit`` (its symbol), ``held`` (the marriages held);
    - ``declared``, ``declared_burnt``, ``no_trick_won``, ``cards_played_first``: each fate's share
      of those (FATES, ``marriage_fates`` says which is which);
    - ``given_away``: the declarer's only, of the marriages among his 10 cards, the share he gave
      away in the discard (None for a defender).
    """

    role: str
    suit: str
    held: int
    declared: Rate
    declared_burnt: Rate
    no_trick_won: Rate
    cards_played_first: Rate
    given_away: Rate | None = None

    def fate(self, name: str) -> Rate:
        """The share of a fate by its name in FATES (or "given away")."""
        return getattr(self, name.replace(", ", "_").replace(" ", "_"))

    def to_dict(self) -> dict:
        row: dict = {"role": self.role, "suit": self.suit, "held": self.held}
        row.update({f: self.fate(f) for f in FATES})
        if self.given_away is not None:
            row["given away"] = self.given_away
        return row


@dataclass(frozen=True)
class MarriagePlay:
    """The marriages in play in one stored deals run (``marriages_in_play``).

    - ``label``: the run's name in the command ("1-classic" ... one a ``--play-rules``, or "stored
      run" for ``--run``); ``run``: its folder;
    - ``deals``, ``seed``, ``players`` (one a seat), ``rules``: how its deals were played;
    - ``points``: the marriage points scored per played deal, one ``RolePoints`` a role (ROLES);
    - ``rows``: one ``FateRow`` a role and suit;
    - ``provenance``: the run's metadata as stored (its spec, version and code fingerprint).

    ``to_dict()``: the run's spec and points as ``--json`` prints them under ``play_runs``, its
    ``label``, ``run`` and ``rows``; ``to_polars()``: its rows as the stored
    ``marriages_in_play.parquet`` holds them.
    """

    label: str
    run: Path
    deals: int
    seed: int
    players: tuple[str, ...]
    rules: HouseRules
    points: tuple[RolePoints, ...]
    rows: tuple[FateRow, ...]
    provenance: dict

    def run_entry(self) -> dict:
        """The run as the table's metadata records it (``play_runs``): its spec (PLAY_KEYS) and the
        marriage points of each role."""
        return {**{k: self.provenance[k] for k in PLAY_KEYS if k in self.provenance},
                **{f"marriage_points_per_deal_{p.role}": p.to_dict() for p in self.points}}

    def row_dicts(self) -> list[dict]:
        """The rows as ``--json`` prints them, each with the run's label as "rules"."""
        return [{"rules": self.label, **r.to_dict()} for r in self.rows]

    def to_dict(self) -> dict:
        return {**self.run_entry(), "label": self.label, "run": str(self.run), "rows": self.row_dicts()}

    def to_polars(self) -> pl.DataFrame:
        return _play_frame(self.row_dicts())


def _play_frame(rows: list[dict]) -> pl.DataFrame:
    """Rows of marriages in play (``MarriagePlay.row_dicts``) as ``marriages_in_play.parquet`` holds
    them: each share in three columns (share, ``_ci_low``, ``_ci_high``)."""
    import polars as pl

    flat = [{"rules": r["rules"], "role": r["role"], "suit": r["suit"], "held": r["held"],
             **{f"{f}{part}": r[f][i] for f in (*FATES, "given away") if f in r
                for i, part in enumerate(("", "_ci_low", "_ci_high"))}} for r in rows]
    return pl.DataFrame(flat)


def marriages_in_play(run: Path, *, label: str = "stored run", partial: bool = False) -> MarriagePlay:
    """What became of the marriages held in the stored deals run ``run``: per role and suit, the
    marriages held and each fate's share with its 95% interval, and the marriage points each role
    scored; read shard by shard (memory stays flat). ``label`` names the run in the result."""
    import polars as pl

    from sim.runs import read_run_metadata, verify_run

    run = Path(run)
    meta = read_run_metadata(run)
    rules = HouseRules.from_dict(meta["rules"], source=f"run {run}")
    counts: dict[tuple[str, int, str], int] = {}
    sums = {role: [0.0, 0.0, 0.0] for role in ROLES}
    histogram: dict[str, int] = {}
    for shard in verify_run(run, partial=partial)["deals"]:
        frame = pl.read_parquet(shard)
        for key, k in marriage_fates(frame, rules).items():
            counts[key] = counts.get(key, 0) + k
        for key, value in declared_points(frame, rules).items():
            if key in ROLES:
                sums[key] = [a + b for a, b in zip(sums[key], value, strict=True)]
            else:
                histogram[key] = histogram.get(key, 0) + value
    points = []
    for role, (n, total, sq) in sums.items():
        mean = total / n if n else math.nan
        sd = math.sqrt(max(0.0, (sq - n * mean * mean) / (n - 1))) if n > 1 else math.nan
        dist = {int(k.split("|")[1]): v for k, v in histogram.items() if k.split("|")[0] == role}
        points.append(RolePoints(role=role, mean=mean, n=int(n), ci=mean_interval(mean, sd, int(n)),
                                 distribution=tuple((v, dist[v] / n) for v in sorted(dist))))
    rows = []
    for role in ROLES:
        for s in range(4):
            held = sum(counts.get((role, s, f), 0) for f in FATES)
            shares = {}
            for f in FATES:
                k = counts.get((role, s, f), 0)
                shares[f.replace(", ", "_").replace(" ", "_")] = wilson_rate(k, held)
            if role == "declarer":
                k = counts.get((role, s, "given away"), 0)
                before = held + k
                shares["given_away"] = wilson_rate(k, before)
            rows.append(FateRow(role=role, suit=SUIT_SYMBOLS[s], held=held, **shares))
    return MarriagePlay(label=label, run=run, deals=meta["sample_size"], seed=meta["seed"],
                        players=tuple(meta["players"]), rules=rules, points=tuple(points), rows=tuple(rows),
                        provenance=meta)


# ---- what a marriage is worth: the bid tables ------------------------------------------------------------
Interval = tuple[float, float, float]
"""A value with its 95% interval: (value, low, high)."""


@dataclass(frozen=True)
class WorthRow:
    """What holding one suit's marriage among the declarer's 10 cards (hand and talon) is worth in
    a bid table's deals.

    - ``suit``: its symbol; ``n_with``, ``n_without``: the deals with and without that marriage;
    - ``learned_with``, ``learned_without`` and their difference ``learned_gain`` (with its 95%
      interval): the declarer's mean points when the table's player (the learned player, every
      seat) plays 120 as the contract; ``dd_*`` the same with double-dummy play (every card seen);
    - ``learned120_with``, ``learned120_without``, ``dd120_with``, ``dd120_without``: the make-rate
      of 120 in each group, with its Wilson 95% interval;
    - ``contract_with``, ``contract_without``: the highest contract the learned declarer makes at
      least ``1 - risk`` of the time in each group (None: not even the lowest), and their
      difference ``contract_gain`` (None unless both are);
    - ``learned_gain_same_aces``, ``dd_gain_same_aces``: the points gained among hands with as many
      aces (0, 1, 2, 3 or more in the 7 cards), weighted by the classes' shares of the hands with
      the marriage.
    """

    suit: str
    n_with: int
    n_without: int
    learned_with: float
    learned_without: float
    learned_gain: Interval
    dd_with: float
    dd_without: float
    dd_gain: Interval
    learned120_with: Interval
    learned120_without: Interval
    dd120_with: Interval
    dd120_without: Interval
    contract_with: int | None
    contract_without: int | None
    contract_gain: int | None
    learned_gain_same_aces: Interval
    dd_gain_same_aces: Interval

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class MarriageWorth:
    """What each suit's marriage is worth to the declarer in a stored bid table (``marriage_worth``).

    - ``bids``: the bid table read, as given; ``risk``: the failure chance of the contracts
      compared; ``rules``: the rules of the table (its marriage values); ``player``: who played
      the table's contracts (its metadata's line player);
    - ``rows``: one ``WorthRow`` a suit (a suit whose marriage every deal, or no deal, holds is left
      out).

    ``to_dict()``: ``bids``, ``risk``, ``player`` and the rows as ``--json`` prints them under
    "worth"; ``to_polars()``: one row a suit, each interval in three columns (value, ``_ci_low``,
    ``_ci_high``).
    """

    bids: Path
    risk: float
    rules: HouseRules
    player: str
    rows: tuple[WorthRow, ...]

    def to_dict(self) -> dict:
        return {"bids": str(self.bids), "risk": self.risk, "player": self.player,
                "worth": [r.to_dict() for r in self.rows]}

    def to_polars(self) -> pl.DataFrame:
        import polars as pl

        kinds = {"str": pl.String, "int": pl.Int64, "int | None": pl.Int64, "float": pl.Float64}
        schema: dict = {}
        for f in fields(WorthRow):  # the annotations are text (postponed): "str", "int", "float", "Interval"
            if f.type == "Interval":
                schema.update({f.name: pl.Float64, f"{f.name}_ci_low": pl.Float64, f"{f.name}_ci_high": pl.Float64})
            else:
                schema[f.name] = kinds[f.type]
        rows = [tuple(x for f in fields(r) for x in (getattr(r, f.name) if f.type == "Interval"
                                                     else (getattr(r, f.name),))) for r in self.rows]
        return pl.DataFrame(rows, schema=schema, orient="row")


# The contract whose points the worth compares: the usual lowest contract a declarer plays for.
WORTH_CONTRACT = 120


def marriage_worth(bids: Path, *, risk: float = 0.3, rules: HouseRules | None = None) -> MarriageWorth:
    """From a stored bid table (``thousand tables bids``), per suit: the declarer's points with and
    without that suit's marriage among his 10 cards (hand and talon) when he plays 120 as the
    contract, by the table's player (learned) and double dummy, the difference with its 95%
    interval, the make-rate of 120, and the highest contract the learned declarer makes at least
    (1 - ``risk``) of the time in each group (its difference is the marriage's worth in contract
    points). Read lazily with Polars; the table's deals are random, so the two groups differ by the
    marriage and by what comes with it (a marriage's K and Q are 7 points). ``rules``: the table's
    rules, when the caller has them (else read from its metadata)."""
    import polars as pl

    from analysis.bids.table import LINE_PLAYER, read_metadata

    if not 0 < risk < 1:
        raise InputError(f"--risk must be between 0 and 1, not {risk}")
    bids = Path(bids)
    meta = read_metadata(bids)
    if rules is None:
        rules = HouseRules.from_dict(meta["rules"], source=f"the bid table {bids}")
    levels = list(meta["levels"])
    at = levels.index(WORTH_CONTRACT)
    # A table's learned points hold one entry a contract up to the most its 10 cards allow (at least
    # 120: every hand's card points), so entry ``at`` is always the 120 contract's.
    level = WORTH_CONTRACT
    # The columns are read once and summed with numpy: a Polars group-by's float means and variances
    # are combined across threads in no fixed order, so their last bits (and the stored JSON) varied
    # from run to run.
    cols = (pl.scan_parquet(bids)
            .select(cards=pl.col("hand").cast(pl.Int64) | pl.col("talon").cast(pl.Int64),
                    aces=pl.min_horizontal(pl.col("aces"), 3).cast(pl.Int64),
                    learned=pl.col("learned_points").list.get(at).cast(pl.Float64),
                    dd=pl.col("dd_points").cast(pl.Float64), made=pl.col("learned_made"))
            .collect())
    cards, aces = cols["cards"].to_numpy(), cols["aces"].to_numpy()
    points = {"learned": cols["learned"].to_numpy(), "dd": cols["dd"].to_numpy()}
    made = cols["made"].to_numpy().astype(np.float64).reshape(cols.height, len(levels))
    rows = []
    for s in range(4):
        kq = _KQ[s][0] | _KQ[s][1]
        married = (cards & kq) == kq
        n_with = int(married.sum())
        if n_with in (0, cols.height):
            continue
        row: dict = {"suit": SUIT_SYMBOLS[s], "n_with": n_with, "n_without": cols.height - n_with}
        groups = {"with": married, "without": ~married}
        for key, values in points.items():
            a, b = values[married], values[~married]
            diff = a.mean() - b.mean()
            half = Z95 * math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
            row[f"{key}_with"], row[f"{key}_without"] = float(a.mean()), float(b.mean())
            row[f"{key}_gain"] = (float(diff), float(diff - half), float(diff + half))
            for side, mask in groups.items():
                k, n = int((values[mask] >= level).sum()), int(mask.sum())
                row[f"{key}120_{side}"] = (k / n, *wilson_interval(k, n))
        for side, mask in groups.items():
            rates = made[mask].mean(axis=0)
            safe = [lv for j, lv in enumerate(levels) if rates[j] >= 1 - risk]
            row[f"contract_{side}"] = max(safe) if safe else None
        both = row["contract_with"] is not None and row["contract_without"] is not None
        row["contract_gain"] = row["contract_with"] - row["contract_without"] if both else None
        row["learned_gain_same_aces"] = _gain_within_aces(married, aces, points["learned"])
        row["dd_gain_same_aces"] = _gain_within_aces(married, aces, points["dd"])
        rows.append(WorthRow(**row))
    return MarriageWorth(bids=bids, risk=risk, rules=rules, player=LINE_PLAYER,
                         rows=tuple(rows))


def _gain_within_aces(married: np.ndarray, aces: np.ndarray, points: np.ndarray) -> tuple[float, float, float]:
    """The ``points`` a marriage adds among hands with as many aces (``aces``: 0, 1, 2, or 3 for 3 or
    more in the 7 cards, the aces of ``tables bids``' hand classes): the differences within each
    class, weighted by the class's share of the hands with the marriage (``married``), and a 95%
    interval."""
    cells = {}
    for c in range(4):
        for m in (True, False):
            v = points[(aces == c) & (married == m)]
            if v.size > 1:
                cells[(c, m)] = (v.size, float(v.mean()), float(v.var(ddof=1)))
    classes = [c for c in range(4) if (c, True) in cells and (c, False) in cells]
    total = sum(cells[(c, True)][0] for c in classes)
    if not total:
        return (math.nan, math.nan, math.nan)
    gain, var = 0.0, 0.0
    for c in classes:
        (na, ma, va), (nb, mb, vb) = cells[(c, True)], cells[(c, False)]
        w = na / total
        gain += w * (ma - mb)
        var += w * w * (va / na + vb / nb)
    half = Z95 * math.sqrt(var)
    return (gain, gain - half, gain + half)


# ---- the command ---------------------------------------------------------------------------------------
@holds_out()
def tables_marriages(*, deals: int, seed: int = 0, rules: str | HouseRules = "classic", out: Path | None = None,
                     play_deals: int = 0, players: str | None = None, run: Path | None = None,
                     progress: Progress | None = None, bids: Path | None = None, risk: float = 0.3,
                     play_rules: list[str] | None = None, backend: Backend | None = None,
                     fresh: bool = False) -> MarriageOdds:
    """What ``thousand tables marriages`` finds: the exact odds beside random deals; with ``out``
    also stored as a Parquet table with the metadata. With ``play_deals``, the marriages in play of
    that many deals played by ``players`` (None: the default player, ``analysis.players``: the
    learned player, or the heuristic player in the 2-player game; stored and resumable under
    ``out/marriage-play``, one run a rule set of ``play_rules``), or of the stored deals run
    ``run``; with ``bids``, what each marriage is worth in that bid table. A table or played deals
    stored in ``out`` by other code or with other arguments are refused before anything is played,
    unless ``fresh``, which replaces them. ``progress`` follows the deals played (``sim.runs.play_runs``).
    ``rules``: a preset, a TOML file or a ``HouseRules`` (validated as a file's are). Arguments of
    the wrong type are refused (``sim.arguments``) before anything is written."""
    from analysis.players import players_or_default
    from analysis.stored import FINGERPRINT
    from sim import __version__
    from sim.engine import BatchSpec
    from sim.fingerprint import code_fingerprint
    from sim.game.rules import load_rules

    deals, seed = arguments.integer("deals", deals), arguments.integer("seed", seed)
    out, run = arguments.path("out", out, optional=True), arguments.path("run", run, optional=True)
    play_deals, players = arguments.integer("play_deals", play_deals), arguments.text("players", players, optional=True)
    progress, bids = arguments.function("progress", progress), arguments.path("bids", bids, optional=True)
    risk, fresh = arguments.number("risk", risk), arguments.flag("fresh", fresh)
    play_rules = arguments.texts("play_rules", play_rules, what=RULE_SPECS, optional=True)
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if not 1 <= deals <= MAX_MARRIAGE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_MARRIAGE_DEALS:,}, not {deals}")
    if play_deals < 0:
        raise InputError(f"--play-deals must be 0 or more, not {play_deals}")
    if play_deals and run is not None:
        raise InputError("give --play-deals (play new deals) or --run (read a stored run), not both")
    if bids is not None and not 0 < risk < 1:
        raise InputError(f"--risk must be between 0 and 1, not {risk}")
    if play_deals and out is None:
        raise InputError("--play-deals stores its deals: give --out")
    rec = load_rules(rules)
    if bids is not None:
        from analysis.bids.table import open_bid_table

        open_bid_table(Path(bids), rules=rec, rules_name=rules if isinstance(rules, str) else "(a HouseRules)")
    # One run per rule set of the play (the house rules that change what becomes of a marriage:
    # marriage_first_lead, marriage_burns_without_trick, ace_marriage, players = 4 with
    # sitout_half_marriage ...), the same seed for all, so that the deals coincide.
    runs: dict[str, Path] = {}
    specs: dict[str, BatchSpec] = {}
    if run is not None:
        runs["stored run"] = Path(run)
        play = {"stored run": {k: v for k, v in _stored_run(Path(run)).items() if k in PLAY_KEYS}}
    else:
        names = (play_rules or [rules]) if play_deals else []
        for i, spec in enumerate(names):
            name = "rules" if isinstance(spec, HouseRules) else Path(spec).stem if str(spec).endswith(".toml") else spec
            label = f"{i + 1}-{name}"
            runs[label] = Path(out) / ("marriage-play" if len(names) == 1 else f"marriage-play-{label}")
            played = load_rules(spec)
            specs[label] = BatchSpec(mode="deals", n=play_deals, rules=played,
                                     players=players_or_default(players, played), seed=seed)
        play = {label: {k: v for k, v in spec.metadata().items() if k in PLAY_KEYS} for label, spec in specs.items()}
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("marriages"), "table": "marriages",
            "sample_size": deals, "seed": seed, "rules": rec.to_dict()}
    study = home = None
    if out is not None:
        from analysis.stored import StaleResultError
        from analysis.study import Study
        from sim.runs import check_output_dir

        check_output_dir(Path(out))
        study = Study(Path(out), "marriages", (TABLE_FILE, PLAY_TABLE_FILE),
                      {runs[label].relative_to(out).as_posix(): spec for label, spec in specs.items()},
                      drawn=(PLOT_FILE, WORTH_PLOT_FILE))
        study.settle()
        try:
            _check_stored_table(Path(out), {**meta, "play": play})
            _check_play_runs(Path(out), runs, specs)
            home = study.out
        except StaleResultError:
            if not fresh:
                raise
            home = study.redo_folder({**meta, "play": play})  # the old tables stay whole until the new are
        runs.update({label: home / runs[label].relative_to(out) for label in specs})
    rows = marriage_table(deals=deals, seed=seed, rules=rec)
    worth = marriage_worth(Path(bids), risk=risk, rules=rec) if bids is not None else None
    plays: tuple[MarriagePlay, ...] = ()
    if runs:
        if specs:
            _play({runs[label]: spec for label, spec in specs.items()}, progress, backend, fresh=fresh)
        plays = tuple(marriages_in_play(path, label=label) for label, path in runs.items())
        meta["play_runs"] = {p.label: p.run_entry() for p in plays}
    worth_plot = None
    if study is not None and home is not None:
        _store(rows, meta, home, [r for p in plays for r in p.row_dicts()])
        study.commit(home)
        if worth is not None and worth.rows:
            worth_plot = Path(out) / WORTH_PLOT_FILE
        else:  # a worth plot left by an earlier command would sit beside a table it does not describe
            (Path(out) / WORTH_PLOT_FILE).unlink(missing_ok=True)
    return MarriageOdds(deals=deals, seed=seed, rules=rec, rows=rows,
                        check=odds_check(rows, tuple(rec.marriage_values)), play=plays, worth=worth,
                        table_file=Path(out) / TABLE_FILE if out is not None else None,
                        play_table_file=Path(out) / PLAY_TABLE_FILE if out is not None and plays else None,
                        plot_file=Path(out) / PLOT_FILE if out is not None else None, worth_plot_file=worth_plot,
                        provenance=meta)


def _stored_run(run: Path) -> dict:
    """The spec of the stored run given as ``--run``, refusing one that is not a stored run or was
    made by other code (its deals would not be those this code plays)."""
    from analysis.stored import FINGERPRINT, StaleResultError
    from sim.fingerprint import code_fingerprint, describe_difference
    from sim.runs import MANIFEST_FILE, RUN_FILE, RunDirError, load_manifest, read_run_metadata

    if not run.is_dir():
        raise RunDirError(f"--run {run}: no such folder (give the folder of a run thousand simulate stored)")
    if not (run / RUN_FILE).is_file():
        raise RunDirError(f"--run {run} holds no stored run (it has no {RUN_FILE}; give the folder of a run thousand "
                          "simulate stored)")
    try:
        meta = read_run_metadata(run)
        load_manifest(run)
    except RunDirError:
        raise RunDirError(f"--run {run}: its {RUN_FILE} or {MANIFEST_FILE} cannot be read, so it is not a stored run "
                          "that can be read") from None
    current = code_fingerprint()
    if meta.get(FINGERPRINT) != current:
        made = describe_difference("the run", meta.get(FINGERPRINT), current)
        raise StaleResultError(f"--run {run}: {made}; play it again with this code (the thousand simulate command that "
                               "made it, with --fresh)")
    return meta


def _check_stored_table(out: Path, wanted: dict) -> None:
    """Refuse a marriage table stored in ``out`` by other code or with other arguments (``wanted``:
    this table's metadata with its "play" spec). A damaged one (``analysis.study.table_damage``) is
    no refusal: it is made again, from its runs."""
    from analysis.bids.table import read_metadata
    from analysis.stored import StaleResultError, refusal
    from analysis.study import table_damage

    path = out / TABLE_FILE
    if not path.exists() or table_damage(path) is not None:
        return
    stored = read_metadata(path)
    plays = stored.get("play_runs") if isinstance(stored.get("play_runs"), dict) else {}
    stored["play"] = {label: {k: v[k] for k in PLAY_KEYS if k in v} for label, v in plays.items()
                      if isinstance(v, dict)}
    line = refusal(f"the marriage table in --out {out} ({path})", stored, json.loads(json.dumps(wanted)), IDENTITY,
                   _REPLACE)
    if line:
        raise StaleResultError(line)


def _check_play_runs(out: Path, runs: dict[str, Path], specs: dict) -> None:
    """Refuse play runs stored in ``out`` by other code or with other arguments, or whose spec
    cannot be read or is missing, before anything is played: the runner would refuse them too,
    but naming its own folder, not the --out the user gave."""
    from analysis.stored import StaleResultError, refusal
    from analysis.study import refuse_spec_lost
    from sim.runs import RUN_FILE

    for label, spec in specs.items():
        run_file = runs[label] / RUN_FILE
        refuse_spec_lost(runs[label], out, f"the marriage table in --out {out}")
        if not run_file.exists():
            continue
        wanted = json.loads(json.dumps(spec.metadata()))
        try:
            stored = json.loads(run_file.read_text(encoding="utf-8"))
            stored = stored if isinstance(stored, dict) else None
        except (OSError, ValueError):
            stored = None
        what = f"the deals played for the marriages in play in --out {out} ({runs[label]})"
        fields = {**{k: (k, None) for k in wanted if k not in ("thousand_version", "code_fingerprint")}, **RUN_FIELDS}
        line = (f"{what} cannot be read ({run_file}); {_REPLACE_RUN}" if stored is None else
                refusal(what, stored, wanted, fields, _REPLACE_RUN))
        if line:
            raise StaleResultError(line)


def _play(runs: dict[Path, BatchSpec], progress: Progress | None, backend: Backend | None = None,
          fresh: bool = False) -> None:
    """Play (or resume) the deals of each spec into its run directory; ``fresh``: a run of other
    code or arguments stored there is replaced (``sim.runs.run_batch``)."""
    from sim.runs import play_runs

    play_runs(runs, progress=progress, stage="marriages in play", backend=backend, fresh=fresh)


def _store(rows: tuple[OddsRow, ...], meta: dict, home: Path, play_rows: list[dict]) -> None:
    """The tables, each with its manifest, in ``home`` (``--out``, or a redo's folder)."""
    from analysis.stored import manifest_path
    from analysis.study import store_table

    metadata = {k: json.dumps(v) for k, v in meta.items()}
    store_table(_odds_frame(rows), home / TABLE_FILE, metadata)
    if not play_rows:  # a table of marriages in play left by an earlier command would not be this table's
        (home / PLAY_TABLE_FILE).unlink(missing_ok=True)
        manifest_path(home / PLAY_TABLE_FILE).unlink(missing_ok=True)
    else:
        store_table(_play_frame(play_rows), home / PLAY_TABLE_FILE, metadata)
