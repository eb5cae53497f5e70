"""The study ``thousand tables marriages``: the command's table, JSON, Parquet and plot, the
marriages in play stored, resumed and split by house rule, and the result object against what the
command prints and stores."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.marriages import in_play, measured, odds
from analysis.present.json_text import to_json
from analysis.present.marriages import marriage_odds_lines, plot_marriage_odds, plot_marriage_worth
from cli import app
from sim.players.learned.weights import weights_identity
from sim.players.registry import weights_file


def test_cli_table_json_parquet_and_plot(tmp_path):
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "5000", "--seed", "2", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "hand: ♥ marriage" in res.output and "0.0761" in res.output
    wide = CliRunner().invoke(app, ["tables", "marriages", "--deals", "5000", "--seed", "2", "--out", str(tmp_path),
                                    "--wide"])
    assert wide.exit_code == 0 and "7/92" in wide.output and "7/92" not in res.output  # the exact column: --wide
    df = pl.read_parquet(tmp_path / odds.TABLE_FILE)
    meta = pl.read_parquet_metadata(tmp_path / odds.TABLE_FILE)
    assert json.loads(meta["seed"]) == 2 and json.loads(meta["sample_size"]) == 5000
    row = df.filter(pl.col("quantity") == "talon: completes a given half marriage").row(0, named=True)
    assert (row["exact_numerator"], row["exact_denominator"]) == (3, 17)
    assert (tmp_path / odds.PLOT_FILE).stat().st_size > 10_000
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "500", "--json"])
    data = json.loads(res.output)
    assert next(r for r in data["rows"] if r["quantity"] == "hand: ♠ marriage")["exact"] == "7/92"
    bad = CliRunner().invoke(app, ["tables", "marriages", "--deals", "-1"])
    assert bad.exit_code == 2 and bad.output.startswith("error: --deals must be from 1")


def test_cli_marriages_in_play_stored_and_resumed(tmp_path):
    args = ["tables", "marriages", "--deals", "200", "--play-deals", "3000", "--players", "heuristic,random,random",
            "--out", str(tmp_path)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "marriages in play: 3,000 deals" in res.output and "cards played first" in res.output
    play = pl.read_parquet(tmp_path / odds.PLAY_TABLE_FILE)
    assert play.height == 12 and set(play["role"]) == {"declarer", "left defender", "right defender"}
    again = CliRunner().invoke(app, args)  # the stored deals are verified and read again, nothing played
    assert again.exit_code == 0 and again.output.split("marriage odds")[1] == res.output.split("marriage odds")[1]
    stored = str(tmp_path / "marriage-play")
    from_run = CliRunner().invoke(app, ["tables", "marriages", "--deals", "200", "--run", stored])
    assert from_run.exit_code == 0 and "marriages in play: 3,000 deals" in from_run.output
    bad = CliRunner().invoke(app, ["tables", "marriages", "--play-deals", "10"])
    assert bad.exit_code == 2 and "give --out" in bad.output


def test_play_split_by_house_rule(tmp_path):
    burn = tmp_path / "burn.toml"
    burn.write_text("marriage_first_lead = true\nmarriage_burns_without_trick = true\n")
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "200", "--play-deals", "3000", "--play-rules",
                                   "classic", "--play-rules", str(burn), "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    assert "-- rules 1-classic" in res.output and "-- rules 2-burn" in res.output
    play = pl.read_parquet(tmp_path / "t" / odds.PLAY_TABLE_FILE)
    assert set(play["rules"]) == {"1-classic", "2-burn"}
    burnt = play.filter(pl.col("role") == "declarer").group_by("rules").agg(pl.col("declared, burnt").sum())
    by = dict(zip(burnt["rules"], burnt["declared, burnt"], strict=True))
    assert by["1-classic"] == 0 and by["2-burn"] > 0  # only the burning rule burns marriages


# ---- the result object and its presenters -----------------------------------------------------------------
@pytest.fixture(scope="module")
def marriages_command(tmp_path_factory, bid_table):
    """``thousand tables marriages`` with its three parts as text, then as --json (the played deals
    read again), its plots' bytes after each, and the result of the same arguments in Python."""
    out = tmp_path_factory.mktemp("marriages_command")
    args = ["tables", "marriages", "--deals", "500", "--seed", "4", "--play-deals", "300", "--bids", str(bid_table),
            "--out", str(out)]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    pngs = {name: (out / name).read_bytes() for name in (odds.PLOT_FILE, odds.WORTH_PLOT_FILE)}
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    result = odds.tables_marriages(deals=500, seed=4, play_deals=300, bids=bid_table, out=out)
    return out, text, as_json, pngs, result


def test_the_marriage_result_is_what_the_command_prints(marriages_command, bid_table):
    out, text, as_json, _, result = marriages_command
    assert to_json(result) + "\n" == as_json.stdout
    assert "\n".join(marriage_odds_lines(result)) + "\n" == text.stdout
    # --json spells an estimate as the stored columns (odds) or a list (value, low, high) (in play).
    data, row, fate = json.loads(as_json.stdout), result.rows[0], result.play[0].rows[0]
    assert list(data["rows"][0]) == ["quantity", "exact", "p", "k", "n", "simulated", "ci_low", "ci_high", "inside"]
    assert (data["rows"][0]["simulated"], data["rows"][0]["ci_low"]) == (row.simulated.value, row.simulated.low)
    assert data["play"][0]["no trick won"] == [fate.no_trick_won.value, fate.no_trick_won.low, fate.no_trick_won.high]
    points = data["play_runs"]["1-classic"]["marriage_points_per_deal_declarer"]
    assert (points["mean"], points["n"], points["ci"]) == (result.play[0].points[0].mean.value,
                                                          result.play[0].points[0].mean.n,
                                                          list(result.play[0].points[0].mean.interval))
    assert result.table_file == out / odds.TABLE_FILE and result.play_table_file == out / odds.PLAY_TABLE_FILE
    assert result.worth_plot_file == out / odds.WORTH_PLOT_FILE and result.worth.bids == bid_table
    assert [p.label for p in result.play] == ["1-classic"] and result.play[0].run == out / "marriage-play"
    # The default player is the learned one, what it plays of its weights recorded with the play.
    assert result.play[0].deals == 300 and result.play[0].players == ("learned",) * 3

    sha = weights_identity(weights_file("learned"))
    assert result.provenance["play_runs"]["1-classic"]["learned_weights"] == [sha]
    assert "played by the learned player, all seats" in text.stdout


def test_the_marriage_plots_are_drawn_from_the_result_alone(marriages_command, tmp_path):
    out, _, _, pngs, result = marriages_command
    plot_marriage_odds(result, tmp_path / "odds.png")
    plot_marriage_worth(result.worth, tmp_path / "worth.png")
    assert (tmp_path / "odds.png").read_bytes() == pngs[odds.PLOT_FILE]
    assert (tmp_path / "worth.png").read_bytes() == pngs[odds.WORTH_PLOT_FILE]
    assert all((out / name).read_bytes() == data for name, data in pngs.items())


def test_the_marriage_result_is_frozen_and_its_tables_are_the_stored_ones(marriages_command):
    out, _, _, _, result = marriages_command
    for obj in (result, result.rows[0], result.play[0], result.play[0].rows[0], result.worth, result.worth.rows[0]):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.seed = 1
    for table, name in (("odds", odds.TABLE_FILE), ("play", odds.PLAY_TABLE_FILE)):
        stored, mine = pl.read_parquet(out / name), result.to_polars(table=table)
        assert mine.schema == stored.schema and mine.equals(stored), table
    assert result.play[0].to_polars().equals(result.to_polars(table="play"))
    # Each share an Estimate, stored in three columns under the fate's name (a defender's "given away" empty).
    shares = [f"{f}{part}" for f in (*in_play.FATES, "given away") for part in ("", "_ci_low", "_ci_high")]
    play = pl.read_parquet(out / odds.PLAY_TABLE_FILE)
    assert play.columns == ["rules", "role", "suit", "held", *shares]
    first = result.play[0].rows[0]
    assert play.row(0)[4:7] == (first.declared.value, first.declared.low, first.declared.high)
    assert play.filter(pl.col("role") != "declarer")["given away"].null_count() == 8
    assert result.to_polars(table="worth").equals(result.worth.to_polars())
    # The stored metadata is the result's provenance.
    meta = {k: json.loads(v) for k, v in pl.read_parquet_metadata(out / odds.TABLE_FILE).items()
            if k != "ARROW:schema"}
    assert meta == json.loads(json.dumps(result.provenance))
    assert result.row("hand: ♥ marriage").exact == Fraction(7, 92)


def test_a_rerun_and_the_parts_alone_give_the_same(marriages_command, bid_table):
    out, _, _, _, result = marriages_command
    again = odds.tables_marriages(deals=500, seed=4, play_deals=300, bids=bid_table, out=out)
    assert to_json(again) == to_json(result)
    assert again.rows == result.rows and again.worth == result.worth
    assert measured.marriage_table(deals=500, seed=4) == result.rows
    assert in_play.marriages_in_play(out / "marriage-play", label="1-classic") == result.play[0]
    # Without --out nothing is stored, and no path is given.
    bare = odds.tables_marriages(deals=500, seed=4)
    assert bare.rows == result.rows and bare.play == () and bare.worth is None
    assert (bare.table_file, bare.plot_file, bare.worth_plot_file, bare.play_table_file) == (None,) * 4
    assert "play_runs" not in bare.to_dict() and bare.to_dict()["play"] == []
