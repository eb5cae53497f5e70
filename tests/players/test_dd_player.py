"""The searching players in the batch runner: double dummy (legal, and exactly as good as the solver
promises) and PIMC (legal, and informed only as the rules allow)."""

import polars as pl
import reference_game as ref

from sim.engine import BatchSpec, bidding_cap, play_chunk
from sim.game.rules import HouseRules


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


def test_pimc_player_is_legal_and_its_knowledge_follows_the_talon_and_discard_rules(engine_compiled):
    """A PIMC seat plays legally, and what it is told about the talon and the gifts changes its
    play: hiding them (talon_shown_to_declarer_only + discard_face_down) changes some deals."""
    spec = dict(mode="deals", n=12, seed=4, chunk_size=12, players="pimc")
    open_, _ = play_chunk(BatchSpec(**spec), 0)
    hidden_rules = HouseRules(talon_shown_to_declarer_only=True, discard_face_down=True)
    hidden, _ = play_chunk(BatchSpec(rules=hidden_rules, **spec), 0)
    for frame, rules in ((open_, HouseRules()), (hidden, hidden_rules)):
        for row in frame.iter_rows(named=True):
            ref.replay_deal(row, rules)
    assert open_["hand0"].equals(hidden["hand0"])  # the same deals
    assert not open_["plays"].equals(hidden["plays"])
