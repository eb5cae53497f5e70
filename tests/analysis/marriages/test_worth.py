"""What a marriage is worth: a bid table's points and contracts with and without each marriage,
against NumPy on the table itself."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.bids.table import read_metadata
from analysis.marriages.worth import marriage_worth
from analysis.stats import Estimate
from sim.game.rules import HouseRules


def test_worth_from_a_bid_table_matches_numpy(bid_table):
    path = bid_table
    worth = marriage_worth(path, risk=0.3)
    rows = worth.rows
    assert worth.bids == path and worth.risk == 0.3 and worth.rules == HouseRules() and worth.player == "learned"
    df = pl.read_parquet(path)
    levels = read_metadata(path)["levels"]
    ten = df["hand"].to_numpy().astype(np.int64) | df["talon"].to_numpy().astype(np.int64)
    dd = df["dd_points"].to_numpy().astype(float)
    # The learned declarer's points playing 120 (its entry of the per-contract list), and his
    # make-rates contract by contract (False beyond the most his 10 cards allow).
    learned = np.array([pts[levels.index(120)] for pts in df["learned_points"].to_list()], dtype=float)
    made = np.array(df["learned_made"].to_list(), dtype=bool)
    for r in rows:
        s = "♠♣♦♥".index(r.suit)
        kq = (1 << (6 * s + 2)) | (1 << (6 * s + 3))
        married = (ten & kq) == kq
        assert r.n_with == married.sum() and r.n_without == (~married).sum()
        for points, gain, with_120 in ((dd, r.dd_gain, r.dd120_with), (learned, r.learned_gain, r.learned120_with)):
            assert gain.value == pytest.approx(points[married].mean() - points[~married].mean())
            assert gain.low < gain.value < gain.high and gain.n == len(points)
            assert with_120.value == pytest.approx((points[married] >= 120).mean())
            assert with_120 == Estimate.share(int((points[married] >= 120).sum()), int(married.sum()))
        # The highest contract the learned declarer makes at least 70% of the time in each group.
        for group, key in ((married, "contract_with"), (~married, "contract_without")):
            safe = [b for j, b in enumerate(levels) if made[group, j].mean() >= 0.7]
            assert getattr(r, key) == (max(safe) if safe else None)
        if r.contract_with is not None and r.contract_without is not None:
            assert r.contract_gain == r.contract_with - r.contract_without
        else:
            assert r.contract_gain is None
        # Within aces classes of the 7 cards (0, 1, 2, 3+), weighted by the married hands' classes.
        aces = np.minimum(df["aces"].to_numpy(), 3)
        for points, same in ((dd, r.dd_gain_same_aces), (learned, r.learned_gain_same_aces)):
            weights = [((married & (aces == c)).sum(),
                        points[married & (aces == c)].mean() - points[~married & (aces == c)].mean())
                       for c in range(4) if (married & (aces == c)).sum() > 1 and (~married & (aces == c)).sum() > 1]
            total = sum(w for w, _ in weights)
            assert same.value == pytest.approx(sum(w * g for w, g in weights) / total)
    assert rows and all(r.dd_gain.value > 0 for r in rows)  # a marriage always helps on average
    frame = worth.to_polars()
    assert frame["suit"].to_list() == [r.suit for r in rows]
    assert frame["learned_gain_ci_high"].to_list() == [r.learned_gain.high for r in rows]
    assert frame["dd120_with"].to_list() == [r.dd120_with.value for r in rows]
    # --json spells each estimate as a list (value, low, high), under the field's name
    assert worth.to_dict()["worth"][0]["learned_gain"] == (rows[0].learned_gain.value, rows[0].learned_gain.low,
                                                           rows[0].learned_gain.high)
    assert frame["contract_with"].to_list() == [r.contract_with for r in rows]
    # the suit, the counts and contracts, the means, and each interval in three columns
    assert frame["contract_gain"].dtype == pl.Int64 and frame.width == 1 + 5 + 4 + 8 * 3
