"""Marriages in play: the fates counted over a stored deals frame against a row-by-row count."""

from __future__ import annotations

import pytest

from analysis.marriages import in_play
from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules


def naive_fates(deals, rules) -> dict:
    """Row by row: the seat's cards after the discard, and what became of each marriage in them."""
    out: dict = {}
    for row in deals.iter_rows(named=True):
        if row["redeal"] or row["declarer"] < 0 or row["conceded"]:
            continue
        d = row["declarer"]
        for p in range(rules.players):
            if not row[f"hand{p}"]:
                continue
            ten = row[f"hand{p}"] | row["talon"]
            if p == d:
                final = ten
                for q in range(rules.players):
                    if q != p and row[f"gift{q}"] >= 0:
                        final &= ~(1 << row[f"gift{q}"])
            else:
                final = row[f"hand{p}"] | (1 << row[f"gift{p}"])
            after = [(d + k) % rules.players for k in range(1, rules.players)]
            order = [q for q in after if rules.players != 4 or q != row["dealer"]]  # play order after him
            role = "declarer" if p == d else ("left defender" if order[0] == p else "right defender")
            for s in range(4):
                k, q = 1 << (6 * s + 3), 1 << (6 * s + 2)
                if p == d and ten & k and ten & q and not (final & k and final & q):
                    out[(role, s, "given away")] = out.get((role, s, "given away"), 0) + 1
                if not (final & k and final & q):
                    continue
                declared = row[f"marriages{p}"] >> s & 1
                won = row[f"tricks{p}"] > 0
                if declared and not won and rules.marriage_burns_without_trick:
                    fate = "declared, burnt"
                elif declared:
                    fate = "declared"
                else:
                    fate = "cards played first" if won else "no trick won"
                out[(role, s, fate)] = out.get((role, s, fate), 0) + 1
    return out


@pytest.mark.parametrize("players, rules", [
    (("heuristic", "random", "random"), HouseRules()),
    (("random",), HouseRules(marriage_first_lead=True, marriage_burns_without_trick=True)),
    (("heuristic", "random", "heuristic", "random"), HouseRules(players=4)),
], ids=["mixed", "random-burns", "four"])
def test_fates_match_a_row_by_row_count(players, rules):
    deals, _ = play_chunk(BatchSpec(mode="deals", n=3000, seed=8, players=players, rules=rules), 0)
    fast = {k: v for k, v in in_play.marriage_fates(deals, rules).items() if v}
    assert fast == naive_fates(deals, rules)
    if rules.marriage_burns_without_trick:
        assert any(f == "declared, burnt" for _, _, f in fast)
    if "random" in players:
        assert any(f == "given away" for _, _, f in fast)  # random declarers give marriage halves away
