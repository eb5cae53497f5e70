"""thousand tournament: copies of one player win exactly their share, results do not depend on
the order the players are named in, a stronger player is found significantly better, bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from analysis import tournament


def result(lines):
    data = json.loads(lines[0])
    return {r["player"]: r for r in data["players"]}, data["pairs"]


def test_copies_of_one_player_win_their_share(tmp_path):
    players, pairs = result(tournament.tournament(players=["heuristic"] * 3, games=200, out=tmp_path,
                                                  as_json=True))
    assert all(r["win_share"] == pytest.approx(1 / 3) for r in players.values())
    assert not any(p["significant"] for p in pairs)


def test_symmetric_under_relabelling(tmp_path):
    a, _ = result(tournament.tournament(players=["heuristic", "random", "heuristic"], games=150, out=tmp_path / "a",
                                        as_json=True))
    b, _ = result(tournament.tournament(players=["random", "heuristic", "heuristic"], games=150, out=tmp_path / "b",
                                        as_json=True))
    def by_type(res):
        return sorted((k.split("-", 1)[1], round(v["win_share"], 12), round(v["final_score"], 9))
                      for k, v in res.items())

    assert by_type(a) == by_type(b)
    assert sum(v["win_share"] for v in a.values()) == pytest.approx(1.0, abs=0.01)  # unfinished games win nothing


def test_the_stronger_player_is_ranked_first_significantly(tmp_path):
    players, pairs = result(tournament.tournament(players=["random", "heuristic", "random"], games=150,
                                                  out=tmp_path, as_json=True))
    best = max(players.values(), key=lambda r: r["win_share"])
    assert best["player"] == "2-heuristic" and best["win_ci_low"] > 0.5
    assert all(p["significant"] for p in pairs if "2-heuristic" in (p["player"], p["against"]))


def test_cli_and_bad_input(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tournament", "heuristic", "random", "random", "--games", "50", "--out",
                                   str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "rank" in res.output and (tmp_path / tournament.TABLE_FILE).exists()
    assert (tmp_path / tournament.PLOT_FILE).stat().st_size > 5_000
    bad = CliRunner().invoke(app, ["tournament", "heuristic", "random", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "one player for each of the 3 seats" in bad.output
    assert not (tmp_path / "x").exists()


def test_role_metrics_of_copies_equal_the_pooled_run(tmp_path):
    import polars as pl

    from sim.runs import scan_deals

    players, _ = result(tournament.tournament(players=["heuristic"] * 3, games=120, out=tmp_path, as_json=True))
    deals = scan_deals(tmp_path / "runs" / "heuristic-heuristic-heuristic").collect()
    declared = deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))
    played = declared.filter(~pl.col("conceded"))
    for r in players.values():
        assert r["make_rate"] == pytest.approx(played["made"].mean())
        assert r["mean_contract"] == pytest.approx(declared["contract"].mean())
        assert r["declarer_share"] == pytest.approx(declared.height / deals.height / 3)
        assert r["make_rate_ci_low"] < r["make_rate"] < r["make_rate_ci_high"]


def test_a_player_file_equal_to_the_defaults_plays_as_the_default(tmp_path):
    (tmp_path / "same.toml").write_text('player = "heuristic"\nrisk = 10.0\n')
    a, _ = result(tournament.tournament(players=[str(tmp_path / "same.toml"), "random", "heuristic"], games=60,
                                        out=tmp_path / "a", as_json=True))
    b, _ = result(tournament.tournament(players=["heuristic", "random", "heuristic"], games=60, out=tmp_path / "b",
                                        as_json=True))
    assert a["1-same"]["win_share"] == b["1-heuristic"]["win_share"]
    assert a["1-same"]["final_score"] == b["1-heuristic"]["final_score"]
    assert json.loads(a["1-same"]["params"])["risk"] == 10.0


def test_the_example_cautious_player_loses_to_the_default(tmp_path):
    from pathlib import Path

    cautious = Path(__file__).parents[2] / "examples" / "players" / "cautious.toml"
    players, pairs = result(tournament.tournament(players=["heuristic", str(cautious), "heuristic"], games=300,
                                                  out=tmp_path, as_json=True))
    assert players["2-cautious"]["concession_rate"] > 2 * players["1-heuristic"]["concession_rate"]
    assert all(p["significant"] and p["diff"] * (1 if p["player"] != "2-cautious" else -1) > 0
               for p in pairs if "2-cautious" in (p["player"], p["against"]))


@pytest.mark.parametrize("text, message", [
    ("risk = ", "is not valid TOML"),
    ("rsk = 3.0", "unknown parameter 'rsk'"),
    ('risk = "high"', "risk must be a number"),
    ('player = "random"', "reads no parameters"),
    ("pimc_worlds = 0", "pimc_worlds must be from 1 to 1000"),
    ('weights = "w.npz"', "weights names the weights file of a learned player"),
    ('player = "learned"\nweights = "none.npz"', "none.npz' does not exist"),
])
def test_bad_player_files_get_one_line(tmp_path, text, message):
    from cli import app

    (tmp_path / "p.toml").write_text(text)
    res = CliRunner().invoke(app, ["tournament", str(tmp_path / "p.toml"), "heuristic", "heuristic", "--games", "5",
                                   "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
    missing = CliRunner().invoke(app, ["tournament", str(tmp_path / "none.toml"), "heuristic", "heuristic",
                                       "--out", str(tmp_path / "out")])
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_deals_mode_compares_points_per_deal(tmp_path):
    import polars as pl

    from sim.runs import scan_deals

    players, pairs = result(tournament.tournament(players=["heuristic", "random", "heuristic"], deals=3000,
                                                  out=tmp_path, as_json=True))
    assert players["1-heuristic"]["score_per_deal"] == players["3-heuristic"]["score_per_deal"]
    assert players["1-heuristic"]["score_per_deal"] > players["2-random"]["score_per_deal"] + 10
    assert all(p["significant"] for p in pairs if "2-random" in (p["player"], p["against"]))
    # Points per deal are the seats' deal results, averaged over the seatings.
    total = 0.0
    for run in (tmp_path / "runs").iterdir():
        d = scan_deals(run).collect()
        seat = run.name.removeprefix("deals-").split("-").index("random")
        total += d[f"result{seat}"].cast(pl.Float64).mean()
    assert players["2-random"]["score_per_deal"] == pytest.approx(total / 3)


def test_games_and_deals_exclude_each_other(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tournament", "heuristic", "heuristic", "random", "--games", "5", "--deals", "5",
                                   "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "not both" in res.output and not (tmp_path / "x").exists()


def test_a_learned_player_file_names_its_weights_beside_it(tmp_path):
    from sim.players import load_player_file, weights_file

    (tmp_path / "p.toml").write_text('player = "learned"\nweights = "w/x.npz"\nopponent_weight = 0.5\n')
    kind, prm = load_player_file(tmp_path / "p.toml", 3)
    assert kind == f"learned:{tmp_path / 'w' / 'x.npz'}" and weights_file(kind) == tmp_path / "w" / "x.npz"
    assert prm.opponent_weight == 0.5
