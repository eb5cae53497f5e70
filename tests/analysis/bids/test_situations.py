"""The score situations (``analysis.bids.situations``): the result recomputed from its stored rows,
reuse and refusal of a stored table, what the rules force in the stored rows (the dump truck, the
barrel's win), the situations each rule set gets, and the section's words."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analysis.bids import situations
from analysis.bids.hand import SEATS
from analysis.bids.situations import (
    HAND_CLASSES,
    REFERENCE,
    TABLE_FILE,
    next_bid,
    score_situations,
    situations_for,
    summarize_situations,
)
from analysis.deals import random_deals
from analysis.present.json_text import to_json
from analysis.present.situations import situations_section
from analysis.stored import StaleResultError
from analysis.win_chances import shipped_table
from sim import InputError
from sim.engine.playouts import LINE_COLUMNS, auction_lines
from sim.fingerprint import file_sha256
from sim.game.rules import PRESETS, HouseRules, load_rules, preset

DEALS = 30


def _win():
    table = shipped_table("classic", "learned")
    return table, {"games": table.games, "seed": table.seed}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("situations")
    table, identity = _win()
    result = score_situations(rules="classic", deals=DEALS, seed=3, out=out, win_chance=table.chance,
                              win_table=identity, win_source="the shipped table")
    return out, result


def test_the_result_is_recomputed_from_its_stored_rows(stored):
    out, result = stored
    table, _ = _win()
    again = summarize_situations(out / TABLE_FILE, table.chance, win_source="the shipped table")
    assert to_json(again) == to_json(result)
    keys = [s.key for s in result.situations]
    assert keys[0] == REFERENCE and len(result.cells) == len(keys) * len(HAND_CLASSES)
    assert all(c.n == DEALS for c in result.cells)
    # The stored rows carry what made them.
    meta = result.provenance
    assert meta["deals"] == DEALS and meta["seed"] == 3 and meta["players"] == ["learned", "learned-win"]
    assert meta["classes"] == list(HAND_CLASSES) and meta["win_table"] == _win()[1]
    assert set(meta["learned_weights"]) == {"learned", "learned-win"}
    # Each cell's numbers are those of its lines: the advice is a tested line of the plateau.
    for c in result.cells:
        assert c.objective == ("race" if c.situation == REFERENCE else "win")
        if not c.passes:
            line = next(v for v in c.values if v.limit == c.bid)
            assert line.tested and c.bid in c.plateau.levels and c.gain == line.gain
    frame = result.to_polars()
    assert frame.height == len(result.cells) and {"situation", "hand_class", "bid", "habit_gain"} <= set(frame.columns)


def test_a_stored_table_is_reused_and_other_arguments_refused(stored, monkeypatch):
    out, result = stored
    table, identity = _win()
    path = out / TABLE_FILE
    before = path.stat().st_mtime_ns

    def no_play(*args, **kwargs):
        raise AssertionError("played again")

    monkeypatch.setattr(situations, "auction_lines", no_play)
    again = score_situations(rules="classic", deals=DEALS, seed=3, out=out, win_chance=table.chance,
                             win_table=identity, win_source="the shipped table")
    assert path.stat().st_mtime_ns == before and to_json(again) == to_json(result)
    with pytest.raises(StaleResultError, match="the seed .*--fresh"):
        score_situations(rules="classic", deals=DEALS, seed=4, out=out, win_chance=table.chance, win_table=identity)
    with pytest.raises(StaleResultError, match="the table of win chances"):
        score_situations(rules="classic", deals=DEALS, seed=3, out=out, win_chance=table.chance,
                         win_table={**identity, "games": 1})
    assert path.stat().st_mtime_ns == before


def _rows(out, key: str) -> pl.DataFrame:
    return pl.read_parquet(out / TABLE_FILE).filter(pl.col("situation") == key)


def test_near_the_dump_truck_a_made_contract_landing_on_it_scores_zero(stored):
    """Second hand at 450 (classic: first hand opens at 100, so 105 is the least contract second hand
    can win): a made 105 lands on 555 and is reset to 0 (shown with the learned player, who does not
    read the score; learned-win, the section's player, raises such a contract), any other made
    contract scores its points, a failed one costs them."""
    out, result = stored
    rules = load_rules("classic")
    [sit] = [s for s in result.situations if s.key == "dump-truck"]
    assert next_bid(rules) == 105 and sit.score == 555 - 105
    rows = _rows(out, "dump-truck").filter(pl.col("declarer") == 0)
    made, failed = rows.filter(pl.col("made") == 1), rows.filter(pl.col("made") == 0)
    assert made.height and failed.height
    assert (made["score0"] == np.where(made["contract"] == 105, 0, sit.score + made["contract"])).all()
    assert (failed["score0"] == sit.score - failed["contract"]).all()
    d = random_deals(400, 5)
    plays = np.stack([d[:, 1], d[:, 2], d[:, 3]], axis=1)
    lines = auction_lines(0, plays, rules, SEATS["second"], sit.situation(rules), [105], 5, player="learned",
                          hands=d[:, 0])[:, 0]
    col = {name: LINE_COLUMNS.index(name) for name in ("declarer", "contract", "made", "score0")}
    landed = (lines[:, col["declarer"]] == 0) & (lines[:, col["contract"]] == 105) & (lines[:, col["made"]] == 1)
    assert landed.any() and (lines[landed, col["score0"]] == 0).all()


def test_on_the_barrel_a_made_contract_of_the_barrel_minimum_wins(stored):
    """On the barrel (classic: 880, a made contract of 120 or more wins): every such row ends on the
    target or above and counts as a won game (chance 1); a sitter's lines start at the least bid."""
    out, result = stored
    rules = load_rules("classic")
    rows = _rows(out, "on-barrel").filter((pl.col("declarer") == 0) & (pl.col("made") == 1)
                                          & (pl.col("contract") >= rules.barrel_min_contract))
    assert rows.height and (rows["score0"] >= rules.target).all()
    table, _ = _win()
    assert (table.chance(rows["score0"].to_numpy(), rows["score1"].to_numpy(), rows["score2"].to_numpy()) == 1).all()
    for c in result.cells:
        assert min(b for b in c.limits if b > 0) == c.least


def test_the_situations_follow_the_rules():
    for name in PRESETS:
        rules = preset(name)
        if rules.players != 3:
            continue
        sits = situations_for(rules)
        assert sits[0].key == REFERENCE and sits[0].objective == "race"
        for s in sits:
            s.situation(rules)  # every situation is one thousand bid accepts under these rules
        keys = {s.key for s in sits}
        assert ("on-barrel" in keys) == (rules.barrel is not None)
        assert ("last-attempt" in keys) == (rules.barrel is not None and rules.barrel_attempts > 1)
        assert ("opponent-wins" in keys) == (rules.barrel is None)
        assert ("dump-truck" in keys) <= rules.dump_truck  # where 555 lies below the barrel
    no_barrel = situations_for(HouseRules(barrel=None, dump_truck=False))
    [near] = [s for s in no_barrel if s.key == "opponent-wins"]
    assert near.left == 970 and "dump-truck" not in {s.key for s in no_barrel}
    assert next_bid(HouseRules(forced_first_bid=False)) == 100


def test_bad_arguments_name_the_argument(tmp_path):
    table, identity = _win()
    with pytest.raises(InputError, match="deals"):
        score_situations(deals=0, out=tmp_path / "a", win_chance=table.chance, win_table=identity)
    with pytest.raises(InputError, match="win_table"):
        score_situations(deals=5, out=tmp_path / "b", win_chance=table.chance, win_table="shipped")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_the_section_says_each_situation_and_class(stored):
    _, result = stored
    md = situations_section(result, provisional=True)
    text = "\n".join(md)
    assert "**Provisional**" in text and "the player's habit, not advice" in text
    for s in result.situations:
        assert f"### {s.name[0].upper()}{s.name[1:]}" in text and f"**{s.key}**" in text
    for h in HAND_CLASSES:
        assert text.count(f"| {h} |") == len(result.situations) + 1  # the overview and each situation's table
    c = result.cell("on-barrel", HAND_CLASSES[-1])
    assert f"plateau {'' if c.plateau.settled else '~'}" in text
    assert "Provisional" not in "\n".join(situations_section(result))
    assert situations_section(None, missing="no table") == ["Not made: no table.", ""]
    json.loads(to_json(result))


def test_the_same_seed_stores_the_same_bytes_whatever_the_threads(tmp_path):
    table, identity = _win()
    paths = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        score_situations(rules="classic", deals=12, seed=7, out=out, win_chance=table.chance, win_table=identity,
                         threads=threads)
        paths.append(out / TABLE_FILE)
    assert file_sha256(paths[0]) == file_sha256(paths[1])


def test_on_the_barrels_last_attempt_every_deal_not_left_upward_is_a_fall(stored):
    """On the barrel's last attempt (classic: 2 of 3 used) every deal the sitter does not declare
    ends with his fall, 120 lower; with no attempt used most such deals leave him on the barrel
    (unless a climber knocks him off)."""
    out, result = stored
    rules = load_rules("classic")
    [sit] = [s for s in result.situations if s.key == "last-attempt"]
    assert sit.attempts == rules.barrel_attempts - 1 and sit.on_barrel
    rows = _rows(out, "last-attempt")
    stayed = rows.filter(pl.col("declarer") != 0)
    assert stayed.height and (stayed["score0"] == rules.barrel - rules.barrel_penalty).all()
    first = _rows(out, "on-barrel").filter(pl.col("declarer") != 0)
    assert (first["score0"] == rules.barrel).mean() > 0.5
