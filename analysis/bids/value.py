"""What a bidding line is worth: bidding up to b against passing, on the same deals.

The advisor (``analysis.bids.advisor``) and the bid tables (``analysis.bids.table``) both play
each sampled deal once per bidding line of the player's seat (``sim.engine.playouts.auction_lines``:
"bid up to b", the pass line, the player's own bidding), everything else in the deal played alike: the
others' bids, the talon, raising the contract after it or conceding, the gifts and the cards. This
module turns those rows into the value of each line under an objective, the plateau of the lines
not shown to lose more than a margin against the best (``plateau``), and the recommendation (``settled``, the
advisor's and the cheat sheet's; ``recommended``, below, is the former rule, the arg-max, kept for
comparison: ``benchmarks/advisor_settled.py``):

- ``race`` (the default): your score change minus the mean of the two opponents'. Thousand is a
  race of three: 60 points to you and 60 to each opponent leave you where you were.
- ``own``: your score change alone.
- ``win``: the chance of winning the game after the deal, read from a table of win chances by
  score situation (``WinChance``: a function of the three scores after the deal).

A line "bid up to X" is a policy: bid in every auction situation up to X, pass above it. Its
``gain`` (its mean difference from the pass line over all the sampled deals, paired deal by deal,
with its 95% interval) is the expected result of following it rather than always passing. The
recommended bid X is the tested level (reached often enough: ``tested_level``, see below) whose
line gain is the highest, the lowest such level on a tie, and only if that gain is positive; else
pass (a first hand forced to open: the forced bid, then pass).

Why the line gains and not level by level: line b and the line one step below it play alike except
in the deals where the auction reaches the point of bidding b or passing (``reached`` such deals),
and there line b bids b where the line below passes. The mean difference over those deals is
``step_gain``: bidding b against passing, in the situation it is for. So gain(b) - gain(b - step)
= step_gain(b) * reached(b) / n: a line's gain adds up the step gains of the levels up to it, each
weighted by how often the auction reaches it. A rarely reached level (the odd levels: opponents
mostly raise by 10) weighs little, and one noisy step gain there cannot stop the advice, as it
would if the bidder walked up the levels and stopped at the first step gain that is not positive.

By construction every tested line above X gains no more than X's: beyond X, bidding further does
not raise the expected result ("bid to X; beyond X, bidding further lowers the expected result").
``beyond`` is the first tested level above X, whose line gain is at most X's, or, when no level
above X is tested, ``untested_from`` is the lowest level above X that too few sampled auctions
reached (``tested_level``) ("... higher bids are untested"). When the level one step below X is
tested or is the pass line, X's own step gain is positive wherever X was reached (else that line
would gain as much). The step gains stay in the outputs as information; the point estimates of the
line gains decide, and their 95% intervals say how sure the sample is. Intervals are clustered
(``clusters``) where rows share a deal.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from analysis.measures import clustered_mean
from analysis.stats import Z95, Estimate, estimate_field, stored_row
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE

__all__ = ["OBJECTIVES", "OBJECTIVE_WORDS", "MIN_REACHED", "WinChance", "SHARES", "line_outcome", "LineValue",
           "line_values", "recommended", "Verdict", "PLATEAU_ALPHA", "SETTLE_MARGIN", "Comparison", "Plateau",
           "plateau", "settled", "TESTED_SHARE", "EDGE_WIDTH", "tested_level", "untested_words", "tested_words"]

OBJECTIVES = ("race", "own", "win")
OBJECTIVE_WORDS = {
    "race": "your score change minus the opponents' mean",
    "own": "your score change",
    "win": "your chance of winning the game after the deal",
}
# A level is tested when the sampled auctions reached it (its line differs from the one below) in at
# least TESTED_SHARE of the deals and in at least MIN_REACHED of them (``tested_level``). The share
# makes the levels judged the same whatever the sample's size (a level reached in 2% of the deals is
# untested on 1,000 deals and on 4,000 alike: the plateau's edges do not move with the size); the
# count keeps a level of a few deals untested where the sample is small (below 500 deals).
MIN_REACHED = 15
TESTED_SHARE = 0.03
WinChance = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""Seat 0's chance of winning the game from the three scores after a deal (arrays of one shape)."""

_C = {name: i for i, name in enumerate(LINE_COLUMNS)}
SHARES = ("declares", "made", "conceded", "raised")  # a LineValue's shares, each with its Wilson interval


def line_outcome(lines: np.ndarray, objective: str = "race", win_chance: WinChance | None = None) -> np.ndarray:
    """(samples, limits) float: each line's result for seat 0 under ``objective`` (``OBJECTIVES``);
    ``win`` reads ``win_chance`` of the scores after the deal."""
    if objective == "race":
        return lines[..., _C["change0"]] - (lines[..., _C["change1"]] + lines[..., _C["change2"]]) / 2.0
    if objective == "own":
        return lines[..., _C["change0"]].astype(np.float64)
    if objective == "win":
        if win_chance is None:
            raise ValueError("the win objective needs a table of win chances")
        return np.asarray(win_chance(lines[..., _C["score0"]], lines[..., _C["score1"]], lines[..., _C["score2"]]),
                          dtype=np.float64)
    raise ValueError(f"unknown objective {objective!r}; objectives are: {', '.join(OBJECTIVES)}")


@dataclass(frozen=True)
class LineValue:
    """One bidding line of the player's seat, over the sampled deals.

    ``limit``: bid up to this (``PASS_LINE``: pass at every turn; 0: the player's own bidding).
    ``mean``: the objective's mean with its 95% interval. ``gain``: the mean difference from the
    pass line on the same deals, with its interval. ``declares``: the share of deals in which you
    end up the declarer; ``made`` and ``conceded``: of those, the shares made and conceded;
    ``contract``: the mean final contract you play (after raising at the talon); ``raised``: the
    share of your declared deals whose contract exceeds your winning bid (each share an ``Estimate``
    with its Wilson interval). ``reached``: the deals in which this line plays differently from the
    bidding line one step below it (the pass line below the lowest): the auction reached the point
    of bidding ``limit`` or passing; ``step_gain``: this line's mean difference from that line over
    those deals with its interval, the value of bidding ``limit`` rather than passing in that
    situation (NaN for the pass line, the player's own bidding and a level never reached).

    Every interval is an ``analysis.stats.Estimate``; ``to_dict()`` spells the line as the bid
    table's JSON always has (``mean``, ``low``, ``high``, ``gain``, ``gain_low``, ...; each share as
    a [share, low, high] list), ``analysis.stats.stored_row`` as flat columns (``declares``,
    ``declares_low``, ``declares_high``, ...)."""

    limit: int
    n: int
    mean: Estimate = estimate_field("mean", "low", "high")
    gain: Estimate = estimate_field("gain", "gain_low", "gain_high")
    declares: Estimate = estimate_field("declares", "declares_low", "declares_high")
    made: Estimate = estimate_field("made", "made_low", "made_high")
    conceded: Estimate = estimate_field("conceded", "conceded_low", "conceded_high")
    contract: float
    raised: Estimate = estimate_field("raised", "raised_low", "raised_high")
    reached: int = 0
    step_gain: Estimate = estimate_field("step_gain", "step_low", "step_high", default=Estimate.none())

    def to_dict(self) -> dict:
        """The line as the bid table's ``--json`` spells it: its ``stored_row`` columns, but each
        share (``SHARES``) as one (share, low, high) list."""
        row = stored_row(self)
        return {key: (x, row[f"{key}_low"], row[f"{key}_high"]) if key in SHARES else x for key, x in row.items()
                if key.rpartition("_")[0] not in SHARES}

    @property
    def tested(self) -> bool:
        """Whether the sample reached this level often enough (``tested_level``) to judge bidding it."""
        return self.limit > 0 and tested_level(self.reached, self.n)


def tested_level(reached: int, n: int) -> bool:
    """Whether a level reached in ``reached`` of ``n`` sampled deals is tested: in at least
    ``TESTED_SHARE`` of them and at least ``MIN_REACHED``."""
    return reached > 0 and reached >= MIN_REACHED and reached >= TESTED_SHARE * n


def untested_words() -> str:
    """How the outputs name an untested level's reach: "fewer than 3% of the sampled deals (or fewer than 15)"."""
    return f"fewer than {TESTED_SHARE:.0%} of the sampled deals (or fewer than {MIN_REACHED})"


def tested_words() -> str:
    """How the outputs name a tested level's reach: "at least 3% of the sampled deals and 15 or more"."""
    return f"at least {TESTED_SHARE:.0%} of the sampled deals and {MIN_REACHED} or more"


def line_values(lines: np.ndarray, limits: list[int] | tuple[int, ...], *, objective: str = "race",
                win_chance: WinChance | None = None, clusters: np.ndarray | None = None) -> tuple[LineValue, ...]:
    """The value of each line of ``lines`` ((samples, limits, ``LINE_COLUMNS``), the limits in
    ``limits``, ``PASS_LINE`` among them) under ``objective``; ``clusters``: a deal id per sample
    where samples share deals."""
    limits = [int(b) for b in limits]
    if PASS_LINE not in limits:
        raise ValueError("the lines need the pass line to compare with")
    outcome = line_outcome(lines, objective, win_chance)
    base = outcome[:, limits.index(PASS_LINE)]
    n = lines.shape[0]
    bidding = sorted((b, k) for k, b in enumerate(limits) if b > 0)
    below = {k: (bidding[j - 1][1] if j else limits.index(PASS_LINE)) for j, (_, k) in enumerate(bidding)}
    cluster_ids = None if clusters is None else np.asarray(clusters)
    n_clusters = None if cluster_ids is None else len(np.unique(cluster_ids))
    values = []
    for k, limit in enumerate(limits):
        rows = lines[:, k]
        own = rows[:, _C["declarer"]] == 0
        n_own = int(own.sum())
        contract = float(rows[own, _C["contract"]].mean()) if n_own else math.nan
        step = {}
        if k in below:
            differs = (lines[:, k] != lines[:, below[k]]).any(axis=1)
            step["reached"] = int(differs.sum())
            if differs.any():
                ids = None if cluster_ids is None else cluster_ids[differs]
                step["step_gain"] = Estimate(*clustered_mean((outcome[:, k] - outcome[:, below[k]])[differs], ids),
                                             n=step["reached"], clusters=None if ids is None else len(np.unique(ids)))
        values.append(LineValue(
            limit=limit, n=n,
            mean=Estimate(*clustered_mean(outcome[:, k], clusters), n=n, clusters=n_clusters),
            gain=Estimate(*clustered_mean(outcome[:, k] - base, clusters), n=n, clusters=n_clusters),
            declares=Estimate.share(n_own, n),
            made=Estimate.share(int((own & (rows[:, _C["made"]] == 1)).sum()), n_own),
            conceded=Estimate.share(int((own & (rows[:, _C["conceded"]] == 1)).sum()), n_own),
            contract=contract,
            raised=Estimate.share(int((own & (rows[:, _C["contract"]] > rows[:, _C["winning_bid"]])).sum()), n_own),
            **step))
    return tuple(values)


@dataclass(frozen=True)
class Verdict:
    """The advice from a hand's lines (``recommended``).

    - ``line``: the recommended "bid to X" line, the tested line with the highest ``gain`` over
      the pass line, or None: no tested line gains over passing (pass; a first hand forced to open
      makes the forced bid, then passes);
    - ``beyond``: the first tested level above X (the lowest tested level when passing), whose line
      gains no more than X's (than passing), or None when no level above X is tested
      (``untested_from``: then the lowest untested level above X, if any).
    """

    line: LineValue | None
    beyond: LineValue | None
    untested_from: int | None

    @property
    def bid(self) -> int | None:
        return None if self.line is None else self.line.limit


def recommended(values: tuple[LineValue, ...] | list[LineValue]) -> Verdict:
    """The tested line (``tested_level``) with the highest ``gain`` over
    the pass line, the lowest level on a tie, if that gain is positive; untested levels are never
    recommended, though their deals count inside the lines above them."""
    bidding = sorted((v for v in values if v.limit > 0), key=lambda v: v.limit)
    tested = [v for v in bidding if v.tested]
    line = None
    for v in tested:  # in increasing order: a strict > keeps the lowest of equal gains
        if v.gain.value > 0 and (line is None or v.gain.value > line.gain.value):
            line = v
    top = line.limit if line is not None else 0
    beyond = next((v for v in tested if v.limit > top), None)
    # A level no sampled auction reached (its line plays every deal as the one below) is no decision
    # at all; one reached in a few deals is a decision the sample cannot judge.
    untested = [v.limit for v in bidding if v.limit > top and v.reached > 0 and not v.tested]
    return Verdict(line=line, beyond=beyond, untested_from=untested[0] if untested and beyond is None else None)


# The settled rule (``plateau``, ``settled``). The plateau holds the best line with at least this
# chance, whichever line the sample makes look best (simultaneous intervals, Bonferroni).
PLATEAU_ALPHA = 0.05
# The margin within which two lines count as equally good: a line whose gain is shown to lie within
# this of the best's is decided "in" the plateau (5 points a deal in the race is about a twentieth
# of the spread of one deal's result; the win objective's unit is a chance: half a point of it).
SETTLE_MARGIN = {"race": 5.0, "own": 5.0, "win": 0.005}
# The plateau's edge: a comparison whose interval holds -margin but reaches less than EDGE_WIDTH
# margins either side of its estimate is "edge" (about a margin worse than the best, within the
# sampling's precision), not "undecided": sampling stops there rather than going on for a level
# whose difference lies about on the margin (3 points a deal for race and own).
EDGE_WIDTH = 0.6


@dataclass(frozen=True)
class Comparison:
    """One line against the best line of the sample (``plateau``).

    ``limit``: the level (``PASS_LINE`` for passing at every turn); ``diff``: gain(limit) −
    gain(best), paired deal by deal on the same deals (clustered where rows share a deal), its
    interval the plateau's simultaneous one (``Plateau.z`` standard errors); ``status``: "best";
    "in" (the interval lies above −margin: as good as the best within the margin); "out" (the
    interval lies below −margin: worse than the best by more than the margin); "edge" (the interval
    holds −margin and reaches less than ``EDGE_WIDTH`` margins either side of its estimate: about a
    margin worse than the best, the plateau's edge); "undecided" (a wider interval holding −margin)."""

    limit: int
    diff: Estimate
    status: str

    @property
    def in_plateau(self) -> bool:
        return self.status != "out"


@dataclass(frozen=True)
class Plateau:
    """The lines not shown to lose more than a margin against the best (``plateau``).

    - ``best``: the level whose line gains most on these deals (``PASS_LINE`` when no tested line
      gains over passing);
    - ``comparisons``: every tested level and the pass line, ascending (the pass line first), each
      against the best;
    - ``levels``: the plateau, the comparisons not "out", ascending (``PASS_LINE`` first when in it);
    - ``margin`` and ``z``: the margin of "in" and "out" and the simultaneous intervals' width in
      standard errors (two-sided Bonferroni over the other lines at ``PLATEAU_ALPHA``);
    - ``settled``: no comparison is "undecided";
    - ``open_top``: the plateau reaches the highest tested level: no tested level above it loses,
      and the levels above (if any) are untested.
    """

    best: int
    comparisons: tuple[Comparison, ...]
    margin: float
    z: float

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(c.limit for c in self.comparisons if c.in_plateau)

    @property
    def bids(self) -> tuple[int, ...]:
        """The bidding levels of the plateau (without the pass line)."""
        return tuple(b for b in self.levels if b > 0)

    @property
    def low(self) -> int | None:
        return self.bids[0] if self.bids else None

    @property
    def high(self) -> int | None:
        return self.bids[-1] if self.bids else None

    @property
    def includes_pass(self) -> bool:
        return PASS_LINE in self.levels

    @property
    def undecided(self) -> tuple[int, ...]:
        return tuple(c.limit for c in self.comparisons if c.status == "undecided")

    @property
    def edges(self) -> tuple[int, ...]:
        return tuple(c.limit for c in self.comparisons if c.status == "edge")

    @property
    def settled(self) -> bool:
        return not self.undecided

    @property
    def open_top(self) -> bool:
        return self.high is not None and self.high == max(c.limit for c in self.comparisons)

    @property
    def beyond(self) -> Comparison | None:
        """The first tested level above the plateau (above passing when only passing is in it),
        with its loss against the best; None when the plateau reaches the highest tested level."""
        top = self.high if self.high is not None else 0
        return next((c for c in self.comparisons if c.limit > top and not c.in_plateau), None)

    def comparison(self, limit: int) -> Comparison:
        for c in self.comparisons:
            if c.limit == limit:
                return c
        raise KeyError(limit)

    def to_dict(self) -> dict:
        """The ``plateau`` object of ``thousand bid --json``."""
        beyond = self.beyond
        return {"low": self.low, "high": self.high, "levels": [b for b in self.levels if b > 0],
                "includes_pass": self.includes_pass, "best": None if self.best == PASS_LINE else self.best,
                "settled": self.settled, "undecided": [None if b == PASS_LINE else b for b in self.undecided],
                "edge": [None if b == PASS_LINE else b for b in self.edges], "open_top": self.open_top,
                "margin": self.margin, "edge_width": EDGE_WIDTH * self.margin, "z": self.z, "alpha": PLATEAU_ALPHA,
                "tested_share": TESTED_SHARE, "min_reached": MIN_REACHED,
                "beyond": None if beyond is None else {"limit": beyond.limit, "loss": beyond.diff.value,
                                                       "loss_low": beyond.diff.low, "loss_high": beyond.diff.high},
                "comparisons": [{"limit": None if c.limit == PASS_LINE else c.limit, "status": c.status,
                                 "diff": c.diff.value, "diff_low": c.diff.low, "diff_high": c.diff.high}
                                for c in self.comparisons]}


def plateau(values: tuple[LineValue, ...] | list[LineValue], outcome: np.ndarray, *, objective: str = "race",
            clusters: np.ndarray | None = None, margin: float | None = None) -> Plateau:
    """The plateau of ``values`` (``line_values`` of the same lines), from ``outcome`` ((samples,
    lines) of ``line_outcome``, the lines in the order of ``values``). The candidates are the tested
    levels (``LineValue.tested``) and the pass line. The best is the candidate of the highest mean
    gain (the lowest on a tie). Every other candidate b is compared with it deal by deal: the mean of
    outcome(b) − outcome(best) with its standard error (clustered by ``clusters``), and the interval
    mean ± z·se, z the normal quantile of 1 − ``PLATEAU_ALPHA`` / (2m) over the m other candidates
    (Bonferroni: the chance that the line truly best is shown worse than the sample's best, which
    would need one of its m comparisons to err, is at most ``PLATEAU_ALPHA``). A candidate is out of
    the plateau when its interval lies below −margin (``SETTLE_MARGIN`` of the objective unless
    ``margin`` is given): shown worse than the best by more than the margin; see ``Comparison``."""
    margin = SETTLE_MARGIN[objective] if margin is None else float(margin)
    index = {v.limit: k for k, v in enumerate(values)}
    candidates = [v for v in sorted(values, key=lambda v: v.limit) if v.limit == PASS_LINE or v.tested]
    best = candidates[0]
    for v in candidates[1:]:  # ascending: a strict > keeps the lowest of equal gains
        if v.gain.value > best.gain.value:
            best = v
    m = max(1, len(candidates) - 1)
    z = NormalDist().inv_cdf(1 - PLATEAU_ALPHA / (2 * m))
    ref = outcome[:, index[best.limit]]
    comparisons = []
    for v in candidates:
        if v.limit == best.limit:
            comparisons.append(Comparison(v.limit, Estimate(0.0, 0.0, 0.0, n=v.n), "best"))
            continue
        mean, _, high = clustered_mean(outcome[:, index[v.limit]] - ref, clusters)
        se = (high - mean) / Z95 if high == high else math.inf
        lo, hi = mean - z * se, mean + z * se
        status = ("in" if lo > -margin else "out" if hi < -margin else
                  "edge" if z * se < EDGE_WIDTH * margin else "undecided")
        comparisons.append(Comparison(v.limit, Estimate(mean, lo, hi, n=v.n), status))
    return Plateau(best=best.limit, comparisons=tuple(comparisons), margin=margin, z=z)


def settled(values: tuple[LineValue, ...] | list[LineValue], plat: Plateau) -> Verdict:
    """The recommendation of the settled rule from the lines ``values`` and their ``plat``:

    - the lines that beat passing are the tested ones whose gain's 95% interval lies above 0;
    - when passing is in the plateau and no line beats passing: pass (the forced bid, then pass);
    - else the lowest level shown as good as the best (status "in", or the best itself) that
      beats passing (of the lines as good as the best, the one that commits to least); when none
      does, the line of the highest gain of those that beat passing: a line shown to beat passing
      is never answered with "pass".

    ``beyond`` is the first tested level above the plateau (its line's ``LineValue``),
    ``untested_from`` as in ``recommended``. The choice reads the plateau, whose intervals account
    for the best being chosen on these deals; how often it errs is measured by simulation
    (docs/advisor.md)."""
    bidding = sorted((v for v in values if v.limit > 0), key=lambda v: v.limit)
    tested = [v for v in bidding if v.tested]
    sure = [v for v in tested if v.gain.low > 0]
    firm = {c.limit for c in plat.comparisons if c.status in ("in", "best")}
    line = None
    if sure:
        inside = [v for v in sure if v.limit in firm]
        line = inside[0] if inside else max(sure, key=lambda v: (v.gain.value, -v.limit))
    elif not plat.includes_pass:  # passing shown to lose more than the margin: the best beats it (never met: z >= Z95)
        line = next(v for v in tested if v.limit == plat.best)
    top = max([line.limit if line is not None else 0, plat.high or 0])
    beyond = next((v for v in tested if v.limit > top), None)
    untested = [v.limit for v in bidding if v.limit > top and v.reached > 0 and not v.tested]
    return Verdict(line=line, beyond=beyond, untested_from=untested[0] if untested and beyond is None else None)
