"""The bid table's parts (``analysis.bids.parts``): the hand's features, the bidding cap, and the
stored auction lines against a fresh play of the same deal."""


import numpy as np
import polars as pl

from analysis.bids.classes import line_array
from analysis.bids.hand import SEATS
from analysis.bids.parts import LINE_FIELDS, SEAT_NAMES, hand_features, line_limits
from analysis.bids.table import read_metadata
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE, Known, Situation, auction_lines, sample_unseen
from sim.game.cards import parse_hand
from sim.game.rules import HouseRules


def test_stored_lines_are_the_auction_lines_of_the_deal(table):
    """The stored lines of a class's deals rebuilt (``line_array``) equal a fresh ``auction_lines``
    play of the same deals, seat by seat (the learned player is deterministic given the deal)."""
    _, path = table
    df = pl.read_parquet(path)
    cap = int(df["bid_cap"].max())  # the hands with the most lines
    df = df.filter(pl.col("bid_cap") == cap).head(6)
    limits = line_limits(cap, read_metadata(path)["levels"])
    assert len(limits) >= 6
    plays = np.stack([df["talon"], df["left"], df["right"]], axis=1).astype(np.int64)
    for seat in SEAT_NAMES:
        fresh = auction_lines(0, plays, HouseRules(), SEATS[seat], Situation(), limits, 99,
                              hands=df["hand"].to_numpy().astype(np.int64))
        stored = line_array(df, seat, len(limits))
        for f in LINE_FIELDS:
            j = LINE_COLUMNS.index(f)
            assert np.array_equal(stored[:, :, j], fresh[:, :, j]), (seat, f)
        for i in range(3):  # from a zero score the score after the deal is its change
            score, change = (fresh[:, :, LINE_COLUMNS.index(f"{c}{i}")] for c in ("score", "change"))
            assert np.array_equal(score, change) and np.array_equal(stored[:, :, LINE_COLUMNS.index(f"score{i}")],
                                                                    score)


def test_hand_features():
    h = np.array([parse_hand("AH TH KH QH AS 9C JD")], dtype=np.int64)
    f = hand_features(h, HouseRules())
    assert f["card_points"][0] == 11 + 10 + 4 + 3 + 11 + 0 + 2
    assert f["aces"][0] == 2 and f["tens"][0] == 1
    assert f["marriages"][0] == 1 << 3 and f["marriage_value"][0] == 100
    assert f["longest_suit"][0] == 4 and f["half_marriages"][0] == 0


def test_pass_line_with_one_hand_per_sample_equals_the_single_hand_line():
    rules = HouseRules()
    hand = parse_hand("AH TH KH QH AS 9C JD")
    samples = sample_unseen(hand, Known(), 120, 3)
    one = auction_lines(hand, samples, rules, SEATS["second"], Situation(), [PASS_LINE], 3)
    many = auction_lines(0, samples, rules, SEATS["second"], Situation(), [PASS_LINE], 3, hands=np.full(120, hand))
    assert np.array_equal(one, many)
    # Passing as second hand, seat 0 never declares (first hand is forced to bid).
    assert np.all(one[:, 0, LINE_COLUMNS.index("declarer")] != 0)


def test_bidding_cap(table):
    _, path = table
    df = pl.read_parquet(path)
    # The cap: 120 plus the marriages held (classic), at most the highest contract.
    assert np.array_equal(df["bid_cap"].to_numpy(), np.minimum(120 + df["marriage_value"].to_numpy(), 400))
