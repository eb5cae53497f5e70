"""The double-dummy player in the batch runner: legal, and exactly as good as the solver promises."""

import polars as pl
import reference_game as ref

from sim.engine import BatchSpec, bidding_cap, play_chunk
from sim.rules import HouseRules


def test_all_double_dummy_deals_are_legal_and_realise_the_promised_value(engine_compiled):
    rules = HouseRules()
    deals, _ = play_chunk(BatchSpec(mode="deals", n=120, seed=8, chunk_size=120, players="dd"), 0)
    for row in deals.iter_rows(named=True):
        ref.replay_deal(row, rules)
        ref.replay_game([row], None, rules)
    played = deals.filter(~pl.col("conceded"))
    assert played.height > 30
    # The declarer knows the value of his best discard and then everybody plays perfectly, so he
    # concedes what he cannot make, makes everything he plays, and raises to his value: his points
    # exceed the contract by less than one step of 5 unless the contract stopped at the cap.
    assert played["made"].all()
    for row in played.iter_rows(named=True):
        d = row["declarer"]
        hand8 = (row[f"hand{d}"] | row["talon"]) & ~(1 << row[f"gift{(d + 1) % 3}"]) & ~(1 << row[f"gift{(d + 2) % 3}"])
        points = row[f"card_points{d}"] + row[f"marriage_points{d}"]
        if row["contract"] < bidding_cap(hand8, rules):
            assert points - row["contract"] < 5, row
