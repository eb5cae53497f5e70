"""``thousand simulate`` end to end: files, metadata, resume, determinism and clear errors."""

import json

import polars as pl
import pytest
from typer.testing import CliRunner

from cli import app
from sim import __version__
from sim.engine import BatchSpec
from sim.runs import run_batch, scan_deals, scan_games

runner = CliRunner()


def _simulate(*args):
    return runner.invoke(app, ["simulate", "--no-progress", *args])


def test_games_run_stores_tables_with_metadata(tmp_path):
    out = tmp_path / "run"
    res = _simulate("--games", "60", "--chunk-size", "25", "--seed", "7", "--out", str(out), "--rules", "short")
    assert res.exit_code == 0, res.output
    # no --players: whole games of the score-aware learned player, as every analysis plays (the preset
    # ships its win table), named in the summary and in the stored metadata
    assert "games: 60" in res.output and "seat 0 (learned-win)" in res.output
    assert json.loads(pl.read_parquet_metadata(out / "games" / "part-00000.parquet")["players"]) == ["learned-win"] * 3
    assert sorted(p.name for p in (out / "games").iterdir()) == [f"part-0000{i}.parquet" for i in range(3)]
    meta = pl.read_parquet_metadata(out / "deals" / "part-00001.parquet")
    assert json.loads(meta["seed"]) == 7
    assert json.loads(meta["sample_size"]) == 60
    assert json.loads(meta["thousand_version"]) == __version__
    assert json.loads(meta["rules"])["target"] == 555
    games = scan_games(out).collect()
    assert games.height == 60 and games["game"].to_list() == list(range(60))
    deals = scan_deals(out).collect()
    assert deals.group_by("game").len()["len"].sum() == deals.height == games["deals"].sum()
    assert not list(out.rglob(".*tmp*"))


def test_resume_skips_finished_chunks_and_matches_one_go(tmp_path):
    spec = BatchSpec(mode="deals", n=1000, seed=11, chunk_size=300)
    whole = tmp_path / "whole"
    run_batch(spec, whole, workers=2)
    part = tmp_path / "part"
    run_batch(spec, part, workers=1)
    (part / "deals" / "part-00001.parquet").unlink()  # as if interrupted before chunk 1 landed
    mtime = (part / "deals" / "part-00000.parquet").stat().st_mtime_ns
    result = run_batch(spec, part, workers=1)
    assert result.chunks_run == 1
    assert (part / "deals" / "part-00000.parquet").stat().st_mtime_ns == mtime
    a = scan_deals(whole).collect().sort("game")
    b = scan_deals(part).collect().sort("game")
    assert a.equals(b)


def test_same_seed_same_results_other_seed_differs(tmp_path):
    spec = BatchSpec(mode="deals", n=500, seed=3)
    run_batch(spec, tmp_path / "a")
    run_batch(spec, tmp_path / "b")
    run_batch(BatchSpec(mode="deals", n=500, seed=4), tmp_path / "c")
    a, b, c = (scan_deals(tmp_path / d).collect() for d in "abc")
    assert a.equals(b)
    assert not a.equals(c)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--games", "10", "--deals", "10"], "exactly one of --games N or --deals N"),
        (["--deals", "10", "--players", "wizard"], "unknown player 'wizard'"),
        (["--deals", "10", "--players", "random,random"], "one player for every seat or three"),
        (["--deals", "10", "--rules", "nope"], "neither a preset"),
        (["--deals", "0"], "--deals must be from 1"),
    ],
)
def test_bad_input_is_one_clear_line(tmp_path, args, message):
    res = _simulate(*args, "--out", str(tmp_path / "x"))
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_default_players_are_the_analyses(tmp_path):
    """No --players: the learned player for deals from a zero score, the heuristic player in the
    2-player game (no learned weights for it), as every analysis (analysis.players.default_player)."""
    res = _simulate("--deals", "20", "--out", str(tmp_path / "deals"))
    assert res.exit_code == 0, res.output
    assert "players=learned,learned,learned" in res.output
    assert json.loads((tmp_path / "deals" / "run.json").read_text())["players"] == ["learned"] * 3
    f = tmp_path / "two.toml"
    f.write_text("players = 2\n")
    res = _simulate("--games", "3", "--rules", str(f), "--out", str(tmp_path / "two"))
    assert res.exit_code == 0, res.output
    assert "players=heuristic,heuristic" in res.output


def test_two_players_run_records_the_effective_rules(tmp_path):
    f = tmp_path / "two.toml"
    f.write_text("players = 2\ntwo_player_talon = 3\n")
    res = runner.invoke(app, ["rules", "show", str(f)])
    assert res.exit_code == 0 and "players = 2   # changed from classic" in res.output
    assert "two_player_talon = 3   # changed from classic" in res.output
    out = tmp_path / "run"
    res = _simulate("--games", "10", "--rules", str(f), "--players", "heuristic,random", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "players=heuristic,random" in res.output
    meta = json.loads((out / "run.json").read_text())
    assert meta["rules"]["players"] == 2 and meta["rules"]["two_player_talon"] == 3
    assert meta["players"] == ["heuristic", "random"]
    shard_meta = pl.read_parquet_metadata(next((out / "deals").glob("part-*.parquet")))
    assert json.loads(shard_meta["rules"])["two_player_talon"] == 3
    deals = scan_deals(out).collect()
    assert {"other_talon", "buried", "talon_card", "hand1"} <= set(deals.columns)
    assert "hand2" not in deals.columns and "gift0" not in deals.columns
    assert (deals["hand0"].bitwise_count_ones() == 9).all() and (deals["other_talon"].bitwise_count_ones() == 3).all()
    games = scan_games(out).collect()
    assert games["finished"].all() and games["winner"].max() <= 1 and "score2" not in games.columns
    res = _simulate("--deals", "10", "--rules", str(f), "--players", "random,random,random",
                    "--out", str(tmp_path / "y"))
    assert res.exit_code == 2 and "one player for every seat or two" in res.output


def test_two_player_talon_without_two_players_is_refused_by_name(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("two_player_talon = 3\n")
    res = _simulate("--deals", "10", "--rules", str(f), "--out", str(tmp_path / "x"))
    assert res.exit_code == 2 and "'two_player_talon' = 3: needs players = 2" in res.output
    assert "Traceback" not in res.output


def test_four_players_run_summary_and_metadata(tmp_path):
    f = tmp_path / "four.toml"
    f.write_text("players = 4\nsitout_half_marriage = true\n")
    res = runner.invoke(app, ["rules", "show", str(f)])
    assert res.exit_code == 0 and "players = 4   # changed from classic" in res.output
    assert "sitout_half_marriage = True   # changed from classic" in res.output
    out = tmp_path / "run"
    res = _simulate("--games", "20", "--rules", str(f), "--players", "heuristic,random,heuristic,heuristic",
                    "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "seat 3 (heuristic)" in res.output and "players=heuristic,random,heuristic,heuristic" in res.output
    meta = json.loads((out / "run.json").read_text())
    assert meta["rules"]["players"] == 4 and meta["rules"]["sitout_half_marriage"] is True
    assert len(meta["players"]) == 4
    shard_meta = pl.read_parquet_metadata(next((out / "deals").glob("part-*.parquet")))
    assert json.loads(shard_meta["rules"])["players"] == 4
    deals = scan_deals(out).collect()
    assert {"hand3", "result3", "score3", "events3"} <= set(deals.columns)
    assert (deals.filter(pl.col("dealer") == 3)["hand3"] == 0).all()
    games = scan_games(out).collect()
    assert games["winner"].max() <= 3 and "score3" in games.columns
    res = _simulate("--deals", "10", "--rules", str(f), "--players", "random,random,random",
                    "--out", str(tmp_path / "y"))
    assert res.exit_code == 2 and "one player for every seat or four" in res.output


def test_other_run_in_directory_is_refused(tmp_path):
    out = str(tmp_path / "run")
    assert _simulate("--deals", "50", "--out", out).exit_code == 0
    res = _simulate("--deals", "60", "--out", out)
    assert res.exit_code == 2 and "holds another run: its sizes differ (--deals: 50 stored, 60 asked)" in res.output


def test_rules_listing_and_show(tmp_path):
    res = runner.invoke(app, ["rules"])
    assert res.exit_code == 0 and "barrel_falls_to_zero" in res.output and "must_head" in res.output
    f = tmp_path / "house.toml"
    f.write_text('preset = "classic"\nbarrel = 900\n')
    res = runner.invoke(app, ["rules", "show", str(f)])
    assert res.exit_code == 0 and "barrel = 900   # changed from classic" in res.output
    res = runner.invoke(app, ["rules", "show", "classic-ish"])
    assert res.exit_code == 2 and "neither a preset" in res.output


# ---- presets and house-rule files ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic", "online", "short", "long"])
def test_every_playable_preset_runs_and_records_its_rules(tmp_path, name):
    from sim.game.rules import preset

    out = tmp_path / name
    res = _simulate("--games", "3", "--players", "heuristic,heuristic,random", "--seed", "5", "--out", str(out),
                    "--rules", name)
    assert res.exit_code == 0, res.output
    meta = pl.read_parquet_metadata(next((out / "deals").glob("part-*.parquet")))
    assert json.loads(meta["rules"]) == preset(name).to_dict()
    assert scan_games(out).collect().height == 3


def test_strict_preset_plays(tmp_path):
    # strict = classic + must_head + no_aces_tens_in_discard + talon_shown_to_declarer_only
    res = _simulate("--deals", "20", "--rules", "strict", "--out", str(tmp_path / "strict"))
    assert res.exit_code == 0, res.output
    assert scan_deals(tmp_path / "strict").collect().height == 20


HOUSE_TOML = """preset = "classic"
forced_first_bid = false
silence_below = -200
no_aces_tens_in_discard = true
concede_limit = 3
concede_third_penalty = true
four_nines_bonus = 50
bolt_on = "zero_points"
bolt_count = "consecutive"
bolt_own_game_exempt = true
redeal_three_nines = true
redeal_talon_two_nines = true
redeal_limit_penalty = true
redeal_policy = "always"
dark_game = true
dark_min_score = 0
bolt_double_in_dark = true
golden_round = true
barrel_talon_free = true
"""


THROWN_IN = "forced_first_bid = false\n"


@pytest.mark.parametrize("mode, text", [
    ("--games", HOUSE_TOML.replace(THROWN_IN, "")),
    ("--games", HOUSE_TOML),
    ("--deals", HOUSE_TOML),
], ids=["games", "games-thrown-in", "deals"])
def test_house_rules_file_runs_and_metadata_shows_effective_rules(tmp_path, mode, text):
    f = tmp_path / "house.toml"
    f.write_text(text)
    out = tmp_path / "run"
    res = _simulate(mode, "4" if mode == "--games" else "200", "--players", "heuristic,random,random",
                    "--seed", "9", "--out", str(out), "--rules", str(f))
    assert res.exit_code == 0, res.output
    meta = pl.read_parquet_metadata(next((out / "deals").glob("part-*.parquet")))
    rules = json.loads(meta["rules"])
    for line in text.splitlines()[1:]:
        name, value = (part.strip() for part in line.split("=", 1))
        assert rules[name] == json.loads(value), name
    assert rules["target"] == 1000 and rules["concede"] is True  # the rest: classic
    deals = scan_deals(out).collect()
    assert deals.height > 0
    if mode == "--games":
        assert (deals["bid_kind"] == 2).any()  # the golden round opens every game
