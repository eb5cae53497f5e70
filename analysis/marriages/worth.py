"""What a marriage is worth: the declarer's points and contracts with and without it, in a bid table.

From a stored bid table (``thousand tables bids``), per suit: the declarer's points with and without
that suit's marriage among his 10 cards (hand and talon) when he plays 120 as the contract, by the
table's player and double dummy, the difference with its 95% interval, within hands of as many aces
too, the make-rate of 120, and the highest contract made at least ``1 - risk`` of the time in each
group (``marriage_worth`` → ``MarriageWorth``). The bid table is read through the module that writes
it (``analysis.bids.table``), the one study another reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.bids.table import LINE_PLAYER, read_metadata
from analysis.marriages.exact import KQ
from analysis.stats import ESTIMATE_COLUMNS, MIN_NORMAL, Z95, Estimate, estimate_field, stored_row
from sim import InputError
from sim.game.cards import SUIT_SYMBOLS
from sim.game.rules import HouseRules

__all__ = ["WorthRow", "MarriageWorth", "WORTH_CONTRACT", "marriage_worth"]


def _interval_field(name: str) -> Any:
    """An ``Estimate`` field stored as the columns NAME, NAME_ci_low, NAME_ci_high."""
    return estimate_field(name, f"{name}_ci_low", f"{name}_ci_high")


@dataclass(frozen=True)
class WorthRow:
    """What holding one suit's marriage among the declarer's 10 cards (hand and talon) is worth in
    a bid table's deals.

    - ``suit``: its symbol; ``n_with``, ``n_without``: the deals with and without that marriage;
    - ``learned_with``, ``learned_without`` and their difference ``learned_gain`` (an ``Estimate``
      with its 95% interval): the declarer's mean points when the table's player (the learned
      player, every seat) plays 120 as the contract; ``dd_*`` the same with double-dummy play
      (every card seen);
    - ``learned120_with``, ``learned120_without``, ``dd120_with``, ``dd120_without``: the make-rate
      of 120 in each group, with its Wilson 95% interval (an ``Estimate``);
    - ``contract_with``, ``contract_without``: the highest contract the learned declarer makes at
      least ``1 - risk`` of the time in each group (None: not even the lowest), and their
      difference ``contract_gain`` (None unless both are);
    - ``learned_gain_same_aces``, ``dd_gain_same_aces``: the points gained among hands with as many
      aces (0, 1, 2, 3 or more in the 7 cards), weighted by the classes' shares of the hands with
      the marriage (an ``Estimate``).

    ``to_dict()``: as ``--json`` prints it, each estimate a list (value, low, high);
    ``stored_row(row)``: each estimate in three columns (value, ``_ci_low``, ``_ci_high``).
    """

    suit: str
    n_with: int
    n_without: int
    learned_with: float
    learned_without: float
    learned_gain: Estimate = _interval_field("learned_gain")
    dd_with: float
    dd_without: float
    dd_gain: Estimate = _interval_field("dd_gain")
    learned120_with: Estimate = _interval_field("learned120_with")
    learned120_without: Estimate = _interval_field("learned120_without")
    dd120_with: Estimate = _interval_field("dd120_with")
    dd120_without: Estimate = _interval_field("dd120_without")
    contract_with: int | None
    contract_without: int | None
    contract_gain: int | None
    learned_gain_same_aces: Estimate = _interval_field("learned_gain_same_aces")
    dd_gain_same_aces: Estimate = _interval_field("dd_gain_same_aces")

    def to_dict(self) -> dict:
        def plain(x: Any) -> Any:
            return (x.value, x.low, x.high) if isinstance(x, Estimate) else x

        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}


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
        kinds = {"str": pl.String, "int": pl.Int64, "int | None": pl.Int64, "float": pl.Float64}
        schema: dict = {}
        for f in fields(WorthRow):  # the annotations are text (postponed): "str", "int", "float", "Estimate"
            names = f.metadata.get(ESTIMATE_COLUMNS)
            if names is not None:
                schema.update(dict.fromkeys(names, pl.Float64))
            else:
                schema[f.name] = kinds[f.type]
        return pl.DataFrame([stored_row(r) for r in self.rows], schema=schema)


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
        kq = KQ[s][0] | KQ[s][1]
        married = (cards & kq) == kq
        n_with = int(married.sum())
        if n_with in (0, cols.height):
            continue
        row: dict = {"suit": SUIT_SYMBOLS[s], "n_with": n_with, "n_without": cols.height - n_with}
        groups = {"with": married, "without": ~married}
        for key, values in points.items():
            a, b = values[married], values[~married]
            diff = a.mean() - b.mean()
            half = (Z95 * math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
                    if min(a.size, b.size) >= MIN_NORMAL else math.nan)  # too few for a normal interval
            row[f"{key}_with"], row[f"{key}_without"] = float(a.mean()), float(b.mean())
            row[f"{key}_gain"] = Estimate(float(diff), float(diff - half), float(diff + half), n=a.size + b.size)
            for side, mask in groups.items():
                k, n = int((values[mask] >= level).sum()), int(mask.sum())
                row[f"{key}120_{side}"] = Estimate.share(k, n)
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


def _gain_within_aces(married: np.ndarray, aces: np.ndarray, points: np.ndarray) -> Estimate:
    """The ``points`` a marriage adds among hands with as many aces (``aces``: 0, 1, 2, or 3 for 3 or
    more in the 7 cards, the aces of ``tables bids``' hand classes): the differences within each
    class, weighted by the class's share of the hands with the marriage (``married``), and a 95%
    interval, over the hands of the classes compared (all NaN when no class has both)."""
    cells = {}
    for c in range(4):
        for m in (True, False):
            v = points[(aces == c) & (married == m)]
            if v.size > 1:
                cells[(c, m)] = (v.size, float(v.mean()), float(v.var(ddof=1)))
    classes = [c for c in range(4) if (c, True) in cells and (c, False) in cells]
    total = sum(cells[(c, True)][0] for c in classes)
    if not total:
        return Estimate.none()
    gain, var = 0.0, 0.0
    for c in classes:
        (na, ma, va), (nb, mb, vb) = cells[(c, True)], cells[(c, False)]
        w = na / total
        gain += w * (ma - mb)
        var += w * w * (va / na + vb / nb)
    half = Z95 * math.sqrt(var)
    return Estimate(gain, gain - half, gain + half, n=sum(cells[(c, m)][0] for c in classes for m in (True, False)))
