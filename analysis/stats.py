"""The statistics every analysis uses, each defined once: the 95% normal quantile, the one shape of
a measured quantity with its interval (``Estimate``, and how a stored row spells it), intervals for
proportions, means and ratios of sums over clusters, paired differences of ratios, two-sided
p-values, Holm's correction and Pearson's chi-square test of counts against exact chances."""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

__all__ = ["Z95", "Estimate", "ESTIMATE_COLUMNS", "estimate_field", "stored_row",
           "MIN_NORMAL", "wilson_interval", "clustered_share_interval", "mean_interval",
           "RatioOfSums", "PairedRatioSums", "two_sided_p", "holm", "json_ready", "chi2_sf", "MIN_EXPECTED",
           "ChiSquare", "chi_square_gof"]

Z95 = 1.959963984540054  # the normal distribution's 97.5% quantile: two-sided 95% intervals
# A normal interval of a mean needs at least this many independent observations (or clusters): on
# fewer, its standard error is itself too uncertain (with 3 observations the true coverage of a
# "95%" normal interval is about 80%), so the mean is given without one ("too few"). Shares keep
# Wilson's interval, sound on few trials.
MIN_NORMAL = 8


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (sound near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Estimate:
    """One measured quantity with its 95% interval, the one shape every result gives an interval:
    ``value`` (a share from 0 to 1, a mean, a difference), ``low``..``high`` (NaN when it cannot be
    had: no row, or too few to spread), ``n`` the rows it is measured on and ``clusters`` the
    independent clusters those rows come in (the games whose deals share a score; None where the
    rows are independent). A stored table or a JSON result spells it under its own column names
    (``estimate_field``, ``stored_row``), which therefore never change with this type."""

    value: float
    low: float
    high: float
    n: int | None = None
    clusters: int | None = None

    @classmethod
    def share(cls, successes: int, n: int) -> Estimate:
        """``successes / n`` with its Wilson 95% interval (all NaN when ``n`` is 0)."""
        return cls(successes / n if n else math.nan, *wilson_interval(successes, n), n=n)

    @classmethod
    def mean(cls, mean: float, std: float, n: int) -> Estimate:
        """A mean of ``n`` independent rows with its normal 95% interval from their standard deviation."""
        return cls(mean, *mean_interval(mean, std, n), n=n)

    @classmethod
    def none(cls, n: int = 0, clusters: int | None = None) -> Estimate:
        """Nothing to measure: every figure NaN."""
        return cls(math.nan, math.nan, math.nan, n=n, clusters=clusters)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)

    def columns(self, value: str, low: str, high: str) -> dict[str, float]:
        """The estimate as a stored row spells it: value and bounds under the row's column names."""
        return {value: self.value, low: self.low, high: self.high}


ESTIMATE_COLUMNS = "estimate_columns"  # a dataclass field's metadata key: the stored names of an Estimate


def estimate_field(value: str, low: str, high: str, **kwargs: Any) -> Any:
    """A dataclass field holding an ``Estimate`` that a stored row spells as the three columns
    ``value``, ``low``, ``high`` (the names every earlier table used, which stay)."""
    return dataclasses.field(metadata={ESTIMATE_COLUMNS: (value, low, high)}, **kwargs)


def _names_estimate(annotation: Any) -> bool:
    """Whether a field's annotation (text under ``from __future__ import annotations``) is an
    ``Estimate``, or one or None."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return text.replace(" ", "") in ("Estimate", "Estimate|None", "None|Estimate", "Optional[Estimate]")


def stored_row(record: Any) -> dict[str, Any]:
    """A result record (a dataclass instance) as its stored row: each field by its name, but an
    ``Estimate`` field as the three columns its ``estimate_field`` names (by default ``NAME``,
    ``NAME_low``, ``NAME_high``), and a missing one (None) as those three columns of None."""
    row: dict[str, Any] = {}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        names = f.metadata.get(ESTIMATE_COLUMNS)
        if names is None and (isinstance(value, Estimate) or _names_estimate(f.type)):
            names = (f.name, f"{f.name}_low", f"{f.name}_high")
        if names is None:
            row[f.name] = dataclasses.asdict(value) if dataclasses.is_dataclass(value) else value
        elif value is None:
            row.update(dict.fromkeys(names))
        else:
            row.update(value.columns(*names))
    return row


def clustered_share_interval(share: float, se: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a ``share`` of ``trials`` that come in clusters (the games of a
    tournament's seatings, the deals of one game), from its clustered standard error ``se`` (the
    delta method's over the clusters, ``RatioOfSums``): Wilson's score interval on the trials
    deflated by the clustering's design effect, deff = se² / (share (1 - share) / trials), never
    below 1 (clusters that vary less than independent trials would narrow it below the plain
    Wilson interval). Its width is the clustered normal interval's where that one is sound, and it
    stays within [0, 1] where that one does not (a share near 0 or 1 of a few clusters: 0.583
    [0.093, 1.073]). NaN (no interval) without a standard error: fewer than two clusters."""
    if trials <= 0 or math.isnan(se):
        return (math.nan, math.nan)
    plain = share * (1 - share) / trials
    deff = max(1.0, se * se / plain) if plain > 0 else 1.0
    n_eff = trials / deff
    return wilson_interval(share * n_eff, n_eff, z)  # type: ignore[arg-type]  (a real count is fine)


def mean_interval(mean: float, std: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for a mean from its sample standard deviation; none (NaN) from
    fewer than ``MIN_NORMAL`` observations."""
    if n < MIN_NORMAL or std is None or math.isnan(std):
        return (math.nan, math.nan)
    half = z * std / math.sqrt(n)
    return (mean - half, mean + half)


def json_ready(x: Any) -> Any:
    """A result made fit for strict JSON: a number that is not finite (an interval of one sample)
    becomes None, keys become text, tuples lists."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_ready(v) for v in x]
    return x


class RatioOfSums:
    """A ratio R = sum(N_g) / sum(D_g) over independent clusters g (games), with a 95% interval by
    the delta method: se = sd(N_g - R D_g) / (mean(D) sqrt(n)). With D_g = 1 it is the mean of N_g
    and its normal interval. Kept as running sums, so memory does not grow with the clusters."""

    def __init__(self):
        self.n = 0
        self.sn = self.sd = self.snn = self.sdd = self.snd = 0.0

    def add(self, num, den=None) -> None:
        num = np.asarray(num, dtype=np.float64)
        den = np.ones_like(num) if den is None else np.asarray(den, dtype=np.float64)
        self.n += len(num)
        self.sn += float(num.sum())
        self.sd += float(den.sum())
        self.snn += float((num * num).sum())
        self.sdd += float((den * den).sum())
        self.snd += float((num * den).sum())

    def interval(self, z: float = Z95) -> dict:
        """{"mean": R, "ci_low", "ci_high": its normal interval (NaN from fewer than ``MIN_NORMAL``
        clusters), "se": its standard error (from two clusters: a clustered share's Wilson interval
        reads it), "n": the clusters}."""
        n = self.n
        r = self.sn / self.sd if self.sd else math.nan
        if n < 2 or not self.sd:
            return {"mean": r, "ci_low": math.nan, "ci_high": math.nan, "se": math.nan, "n": n}
        # sum of (N - R D)^2 = snn - 2 R snd + R^2 sdd; the residuals sum to 0 by the choice of R.
        ss = max(0.0, self.snn - 2 * r * self.snd + r * r * self.sdd)
        se = math.sqrt(ss / (n - 1) / n) / (self.sd / n)
        if n < MIN_NORMAL:
            return {"mean": r, "ci_low": math.nan, "ci_high": math.nan, "se": se, "n": n}
        return {"mean": r, "ci_low": r - z * se, "ci_high": r + z * se, "se": se, "n": n}

    def share_interval(self, z: float = Z95) -> tuple[float, float]:
        """The ratio read as a share of the denominators' trials (successes over trials, a cluster
        each): ``clustered_share_interval`` over its clusters, NaN from fewer than two."""
        r = self.interval(z)
        return clustered_share_interval(r["mean"], r["se"], self.sd, z)


class PairedRatioSums:
    """The difference R_X - R_A of two ratios of sums over the same clusters (paired by game),
    R = sum(N_g) / sum(D_g), with its standard error by the delta method on the paired
    linearisations u_g = (N_g - R D_g) / mean(D): se = sd(u_X - u_A) / sqrt(n). Kept as running
    sums of every product of (N_A, D_A, N_X, D_X), so memory does not grow with the clusters."""

    KEYS = ("na", "da", "nx", "dx")

    def __init__(self):
        self.n = 0
        self.s = dict.fromkeys(self.KEYS, 0.0)
        self.ss = {k: 0.0 for k in itertools.combinations_with_replacement(self.KEYS, 2)}

    def add(self, na, da, nx, dx) -> None:
        v = {"na": na, "da": da, "nx": nx, "dx": dx}
        self.n += len(na)
        for k in self.KEYS:
            self.s[k] += float(v[k].sum())
        for a, b in self.ss:
            self.ss[(a, b)] += float((v[a] * v[b]).sum())

    def result(self) -> dict:
        """{"a": R_A, "x": R_X, "diff": R_X - R_A, "se": its standard error (NaN when undefined)}."""
        n = self.n
        ra = self.s["na"] / self.s["da"] if self.s["da"] else math.nan
        rx = self.s["nx"] / self.s["dx"] if self.s["dx"] else math.nan
        diff = rx - ra
        if not (n > 1 and self.s["da"] and self.s["dx"]):
            return {"a": ra, "x": rx, "diff": diff, "se": math.nan}
        ma, mx = self.s["da"] / n, self.s["dx"] / n
        # u = (N_X - rx D_X)/mx - (N_A - ra D_A)/ma = sum of c_k * v_k with these coefficients:
        c = {"nx": 1 / mx, "dx": -rx / mx, "na": -1 / ma, "da": ra / ma}
        second = sum(c[a] * c[b] * self.ss[(a, b)] * (1 if a == b else 2) for a, b in self.ss)
        first = sum(c[k] * self.s[k] for k in self.KEYS)  # 0 up to rounding: the u have mean 0
        var = max(0.0, (second - first * first / n) / (n - 1))
        return {"a": ra, "x": rx, "diff": diff, "se": math.sqrt(var / n)}


def two_sided_p(diff: float, se: float) -> float:
    """The two-sided p-value of a difference with a normal standard error. With no spread (se 0,
    the same difference in every cluster) or an undefined one (NaN) it is 1 for no difference and
    0 for any other."""
    if se > 0:
        return 2 * (1 - NormalDist().cdf(abs(diff) / se))
    return 1.0 if diff == 0 else 0.0


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), NaN staying NaN."""
    order = sorted((p, i) for i, p in enumerate(pvalues) if not math.isnan(p))
    adjusted = [math.nan] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * p))
        adjusted[i] = running
    return adjusted


def _gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), a > 0, x >= 0: by its series below
    a + 1, by its continued fraction (modified Lentz) above (Numerical Recipes, 6.2)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError(f"a chi-square needs 1 degree of freedom or more, not {df}")
    return _gamma_q(df / 2, x / 2)


MIN_EXPECTED = 5.0  # a chi-square cell expects at least this many (Cochran); smaller cells are pooled


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square test of observed counts against exact chances (``chi_square_gof``).

    - ``statistic``: sum over the cells of (observed - expected)^2 / expected;
    - ``df``: its degrees of freedom, the cells tested less one in each stratum (NaN p when 0);
    - ``p``: the chance of a statistic at least as large were the chances exact;
    - ``cells``: the cells tested after pooling; ``n``: the observations over every stratum.
    """

    statistic: float
    df: int
    p: float
    cells: int
    n: int

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _pooled(counts: list[int], probs: list[float], n: int) -> list[tuple[int, float]]:
    """The cells of one stratum with every cell expecting fewer than MIN_EXPECTED pooled: the small
    cells into one, and that one, while it is still small, with the smallest other cell."""
    big = [(k, p) for k, p in zip(counts, probs, strict=True) if n * p >= MIN_EXPECTED]
    small = [(k, p) for k, p in zip(counts, probs, strict=True) if n * p < MIN_EXPECTED]
    if small:
        rest = (sum(k for k, _ in small), sum(p for _, p in small))
        while n * rest[1] < MIN_EXPECTED and big:
            big.sort(key=lambda kp: kp[1])
            k, p = big.pop(0)
            rest = (rest[0] + k, rest[1] + p)
        big.append(rest)
    return big


def chi_square_gof(strata: list[tuple[list[int], list[float]]]) -> ChiSquare:
    """Pearson's goodness-of-fit test of counts against exact chances, over independent strata (a
    product of multinomials): each stratum is (counts, chances) of the cells of one partition of
    its observations (the chances sum to 1, the counts to the stratum's size). Cells expecting
    fewer than MIN_EXPECTED observations are pooled (``_pooled``); a stratum left with one cell
    tests nothing. The statistic is summed over the strata, with as many degrees of freedom as
    cells less one a stratum."""
    statistic, df, cells, total = 0.0, 0, 0, 0
    for counts, probs in strata:
        if len(counts) != len(probs):
            raise ValueError("every cell needs its count and its chance")
        if abs(sum(probs) - 1) > 1e-9:
            raise ValueError(f"the chances of a stratum must sum to 1, not {sum(probs)}")
        n = sum(counts)
        total += n
        if n == 0:
            continue
        if any(k and not p for k, p in zip(counts, probs, strict=True)):  # an impossible cell observed
            return ChiSquare(statistic=math.inf, df=max(1, df), p=0.0, cells=cells, n=total)
        pooled = _pooled(list(counts), list(probs), n)
        if len(pooled) < 2:
            continue
        statistic += sum((k - n * p) ** 2 / (n * p) for k, p in pooled)
        df += len(pooled) - 1
        cells += len(pooled)
    return ChiSquare(statistic=statistic, df=df, p=chi2_sf(statistic, df) if df else math.nan, cells=cells, n=total)
