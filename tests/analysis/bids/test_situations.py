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
    SEATS_ASKED,
    TABLE_FILE,
    class_deals,
    next_bid,
    score_situations,
    situations_for,
    summarize_situations,
)
from analysis.deals import random_deals
from analysis.present.json_text import to_json
from analysis.present.situations import advice_cell, situations_section
from analysis.stored import StaleResultError
from analysis.win_chances import shipped_table
from sim import InputError
from sim.engine.playouts import CHUNK, LINE_COLUMNS, PASS_LINE, auction_lines
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
    assert keys[0] == REFERENCE and len(result.cells) == len(SEATS_ASKED) * len(keys) * len(HAND_CLASSES)
    assert result.seats == SEATS_ASKED == ("first", "second", "third")
    assert all(c.n == DEALS for c in result.cells)
    # The stored rows carry what made them.
    meta = result.provenance
    assert meta["deals"] == DEALS and meta["seed"] == 3 and meta["players"] == ["learned", "learned-win"]
    assert meta["classes"] == list(HAND_CLASSES) and meta["win_table"] == _win()[1]
    assert meta["seats"] == list(SEATS_ASKED)
    assert set(meta["learned_weights"]) == {"learned", "learned-win"}
    # Each cell's numbers are those of its lines: the advice is a tested line of the plateau.
    for c in result.cells:
        assert c.objective == ("race" if c.situation == REFERENCE else "win")
        if not c.passes:
            line = next(v for v in c.values if v.limit == c.bid)
            assert line.tested and c.bid in c.plateau.levels and c.gain == line.gain
    frame = result.to_polars()
    assert frame.height == len(result.cells)
    assert {"seat", "situation", "hand_class", "bid", "habit_gain"} <= set(frame.columns)


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


def _rows(out, key: str, seat: str | None = None) -> pl.DataFrame:
    rows = pl.read_parquet(out / TABLE_FILE).filter(pl.col("situation") == key)
    return rows if seat is None else rows.filter(pl.col("seat") == seat)


def test_near_the_dump_truck_a_made_contract_landing_on_it_scores_zero(stored):
    """Second hand at 450 (classic: first hand opens at 100, so 105 is the least contract second hand
    can win): a made 105 lands on 555 and is reset to 0 (shown with the learned player, who does not
    read the score; learned-win, the section's player, raises such a contract), any other made
    contract scores its points, a failed one costs them."""
    out, result = stored
    rules = load_rules("classic")
    [sit] = [s for s in result.situations if s.key == "dump-truck"]
    assert next_bid(rules) == 105 and sit.score == 555 - 105
    rows = _rows(out, "dump-truck", "second").filter(pl.col("declarer") == 0)
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
        # each hand's overview and each situation's table of each hand
        assert text.count(f"| {h} |") == len(SEATS_ASKED) * (len(result.situations) + 1)
    for seat in SEATS_ASKED:
        assert text.count(f"**{seat.capitalize()} hand") == len(result.situations) + 1
    c = result.cell("on-barrel", HAND_CLASSES[-1], "third")
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


def test_first_hand_holds_the_forced_bid_and_the_others_do_not(stored):
    """Classic (forced_first_bid: first hand opens at 100): every first-hand cell is owed the forced
    100, and on its pass line first hand declares only the forced 100 (when both others pass), its
    advice to pass said "forced bid, then pass"; second and third hand owe nothing, and on their pass
    line never declare."""
    out, result = stored
    for c in result.cells:
        assert c.forced == (100 if c.seat == "first" else None)
    rows = pl.read_parquet(out / TABLE_FILE).filter((pl.col("limit") == PASS_LINE) & (pl.col("declarer") == 0))
    first = rows.filter(pl.col("seat") == "first")
    assert first.height and (first["winning_bid"] == 100).all()
    assert rows.filter(pl.col("seat") != "first").height == 0
    text = "\n".join(situations_section(result))
    assert '**First hand (the forced bid of 100: its "pass" is the forced bid, then pass)**' in text
    assert text.count("**First hand (the forced bid of 100)**") == len(result.situations)
    said = [advice_cell(c) for c in result.cells if c.seat == "first" and c.passes]
    assert any(a.startswith("forced bid, then pass") for a in said)
    assert all(a.startswith(("forced bid, then pass", "untested")) for a in said)


def test_every_hand_plays_the_same_deals_from_the_same_streams(stored):
    """The three hands hold the same hands of each class (only the dealer moves), and each hand's rows
    are the lines ``auction_lines`` plays for that seat alone from the class's streams: third hand's
    rows of one class and situation, played again by themselves, are the stored ones."""
    out, result = stored
    table = pl.read_parquet(out / TABLE_FILE)
    hands = {seat: table.filter((pl.col("seat") == seat) & (pl.col("situation") == "behind") & (pl.col("line") == 0))
             .sort("hand_class", "deal")["hand"].to_list() for seat in SEATS_ASKED}
    assert hands["first"] == hands["second"] == hands["third"]
    rules = load_rules("classic")
    d, found = class_deals(rules, 3, DEALS)
    k, hand_class = 2, HAND_CLASSES[2]
    ix = found[hand_class]
    [sit] = [x for x in result.situations if x.key == "behind"]
    c = result.cell("behind", hand_class, "third")
    plays = np.stack([d[ix, 1], d[ix, 2], d[ix, 3]], axis=1)
    lines = auction_lines(0, plays, rules, SEATS["third"], sit.situation(rules), list(c.limits), 3,
                          player=sit.player, hands=d[ix, 0], first_chunk=k * (DEALS // CHUNK + 1))
    stored_rows = table.filter((pl.col("seat") == "third") & (pl.col("situation") == "behind")
                               & (pl.col("hand_class") == hand_class)).sort("deal", "line")
    for name in ("declarer", "contract", "made", "score0", "change0"):
        assert (stored_rows[name].to_numpy() == lines[:, :, LINE_COLUMNS.index(name)].ravel()).all()
