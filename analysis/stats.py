"""Confidence intervals for the proportions and means the reports print."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (sound near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(mean: float, std: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for a mean from its sample standard deviation."""
    if n <= 1 or std is None or math.isnan(std):
        return (math.nan, math.nan)
    half = z * std / math.sqrt(n)
    return (mean - half, mean + half)


def json_ready(x):
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
        import numpy as np

        num = np.asarray(num, dtype=np.float64)
        den = np.ones_like(num) if den is None else np.asarray(den, dtype=np.float64)
        self.n += len(num)
        self.sn += float(num.sum())
        self.sd += float(den.sum())
        self.snn += float((num * num).sum())
        self.sdd += float((den * den).sum())
        self.snd += float((num * den).sum())

    def interval(self, z: float = Z95) -> dict:
        n = self.n
        r = self.sn / self.sd if self.sd else math.nan
        if n < 2 or not self.sd:
            return {"mean": r, "ci_low": math.nan, "ci_high": math.nan, "se": math.nan, "n": n}
        # sum of (N - R D)^2 = snn - 2 R snd + R^2 sdd; the residuals sum to 0 by the choice of R.
        ss = max(0.0, self.snn - 2 * r * self.snd + r * r * self.sdd)
        se = math.sqrt(ss / (n - 1) / n) / (self.sd / n)
        return {"mean": r, "ci_low": r - z * se, "ci_high": r + z * se, "se": se, "n": n}
