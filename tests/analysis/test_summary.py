"""The summary of a stored run (``thousand simulate``, ``thousand runs combine``): a frozen
RunSummary whose numbers are the stored shards', its tables, and the text the commands print of it."""

import dataclasses
import json

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.present.json_text import to_json
from analysis.present.summary import run_summary_lines
from analysis.stats import Estimate, wilson_interval
from analysis.summary import RunSummary, summarize_run
from cli import app
from sim.game.rules import HouseRules

PLAYERS = "heuristic,random,heuristic"


def invoke(*args):
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def simulate(out, *args):
    return invoke("simulate", *args, "--chunk-size", "4", "--out", str(out), "--no-progress")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of 8 games (seeds 1 and 2), each with what simulate printed, and a run of 30 deals."""
    root = tmp_path_factory.mktemp("summary")
    made = {}
    for name, args in (("a", ("--games", "8", "--players", PLAYERS, "--seed", "1")),
                       ("b", ("--games", "8", "--players", PLAYERS, "--seed", "2")),
                       ("d", ("--deals", "30", "--seed", "3"))):
        made[name] = (root / name, simulate(root / name, *args))
    return made


def test_simulate_prints_the_summary(runs):
    for out, printed in runs.values():
        assert printed == "\n".join(run_summary_lines(summarize_run(run=out))) + "\n"


def test_runs_combine_prints_the_summary(runs, tmp_path):
    out = tmp_path / "both"
    printed = invoke("runs", "combine", str(runs["a"][0]), str(runs["b"][0]), "--out", str(out))
    s = summarize_run(run=out)
    assert s.combined and s.seeds == (1, 2) and s.sample_size == 16 and s.games.games == 16
    assert printed.splitlines()[1:] == run_summary_lines(s)
    assert run_summary_lines(s, None)[-1].startswith(f"run {out}: games n=16 seeds=1,2 players={PLAYERS} ")
    assert run_summary_lines(s)[0].startswith("deals with a declarer: ")  # the finding first, what made it last


def test_the_summary_is_the_stored_shards(runs):
    out = runs["a"][0]
    s = summarize_run(run=out)
    assert (s.mode, s.sample_size, s.seeds, s.combined, s.players) == ("games", 8, (1,), False,
                                                                        tuple(PLAYERS.split(",")))
    assert s.rules == HouseRules() and s.provenance["seed"] == 1
    deals = pl.read_parquet(out / "deals" / "*.parquet").filter(pl.col("declarer") >= 0)
    assert s.deals.deals == deals.height and s.deals.made == deals["made"].sum()
    assert s.deals.made_rate_played.value == deals["made"].sum() / (~deals["conceded"]).sum()
    assert s.deals.made_rate_played.interval == wilson_interval(deals["made"].sum(), (~deals["conceded"]).sum())
    # The make-rate by player type: to_polars() is a row a type, from the deals' declarers' seats.
    by_type = (deals.with_columns(player=pl.col("declarer").replace_strict(dict(enumerate(s.players)),
                                                                           return_dtype=pl.String))
               .group_by("player").agg(declared=pl.len(), made=pl.col("made").sum()).sort("player"))
    table = s.to_polars()
    assert table.columns == ["player", "declared", "made_rate", "ci_low", "ci_high", "conceded_rate",
                             "mean_contract"]
    assert table["player"].to_list() == by_type["player"].to_list() == ["heuristic", "random"]
    assert table["declared"].to_list() == by_type["declared"].to_list()
    assert table["made_rate"].to_list() == [m / n for m, n in zip(by_type["made"], by_type["declared"], strict=True)]
    # The seats' wins, from the games.
    games = pl.read_parquet(out / "games" / "*.parquet")
    seats = s.to_polars(table="seats")
    assert seats["seat"].to_list() == [0, 1, 2] and seats["player"].to_list() == PLAYERS.split(",")
    wins = [int(((games["winner"] == k) & games["finished"]).sum()) for k in range(3)]
    assert seats["wins"].to_list() == wins and sum(wins) == s.games.games - s.games.unfinished
    assert (seats["ci_low"][0], seats["ci_high"][0]) == wilson_interval(wins[0], games.height)
    assert s.games.seats[0].win_rate == Estimate.share(wins[0], games.height)
    assert s.games.deals_median == games.filter("finished")["deals"].median()


def test_a_run_of_deals_has_no_games(runs):
    s = summarize_run(run=runs["d"][0])
    assert s.mode == "deals" and s.games is None and s.to_polars(table="seats").height == 0
    assert s.to_polars().height == 1  # one player type: no line by type in the text
    assert not any(line.startswith("  as declarer") for line in run_summary_lines(s))
    with pytest.raises(ValueError, match="players or seats"):
        s.to_polars(table="games")


def test_the_summary_is_frozen(runs):
    s = summarize_run(run=runs["a"][0])
    for obj, name in ((s, "mode"), (s.deals, "deals"), (s.by_player[0], "made_rate"), (s.games, "games"),
                      (s.games.seats[0], "wins")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 0)
    assert isinstance(s, RunSummary) and isinstance(s.by_player, tuple) and isinstance(s.games.seats, tuple)
    assert s == summarize_run(run=runs["a"][0])  # read again, the same result


def test_the_summary_as_json(runs):
    s = summarize_run(run=runs["a"][0])
    data = json.loads(to_json(s))
    assert data["deals"]["deals"] == s.deals.deals and data["rules"] == "classic" and data["seeds"] == [1]
    assert [r["player"] for r in data["by_player"]] == ["heuristic", "random"]
    assert [x["wins"] for x in data["games"]["seats"]] == s.to_polars(table="seats")["wins"].to_list()
