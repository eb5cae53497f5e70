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
