"""thousand tournament: copies of one player win exactly their share, results do not depend on
the order the players are named in, a stronger player is found significantly better, bad input;
the result object (frozen, its tables, its JSON) and its presenters are what the command prints."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis import tournament

EXAMPLE_PLAYERS = Path(__file__).parents[2] / "examples" / "players"
EXAMPLE_PLAYER_NAMES = ["aggressive", "cautious", "learned-deep", "pimc-inf-heuristic-contract", "pimc-inf-worlds"]
SPELLS_OUT_DEFAULTS = {"pimc-inf-worlds"}  # pins the defaults its documented matches were played with


def result(res: tournament.TournamentResult):
    return {r.player: r for r in res.players}, res.pairs


def test_copies_of_one_player_win_their_share(tmp_path):
    players, pairs = result(tournament.tournament(players=["heuristic"] * 3, games=200, out=tmp_path))
    assert all(r.win_share.value == pytest.approx(1 / 3) for r in players.values())
    assert not any(p.significant for p in pairs)


def test_symmetric_under_relabelling(tmp_path):
    a, _ = result(tournament.tournament(players=["heuristic", "random", "heuristic"], games=150, out=tmp_path / "a"))
    b, _ = result(tournament.tournament(players=["random", "heuristic", "heuristic"], games=150, out=tmp_path / "b"))
    def by_type(res):
        return sorted((k.split("-", 1)[1], round(v.win_share.value, 12), round(v.final_score.value, 9))
                      for k, v in res.items())

    assert by_type(a) == by_type(b)
    assert sum(v.win_share.value for v in a.values()) == pytest.approx(1.0, abs=0.01)  # unfinished games win nothing


def test_the_stronger_player_is_ranked_first_significantly(tmp_path):
    players, pairs = result(tournament.tournament(players=["random", "heuristic", "random"], games=150,
                                                  out=tmp_path))
    best = max(players.values(), key=lambda r: r.win_share.value)
    assert best.player == "2-heuristic" and best.win_share.low > 0.5
    assert all(p.significant for p in pairs if "2-heuristic" in (p.player, p.against))


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

    players, _ = result(tournament.tournament(players=["heuristic"] * 3, games=120, out=tmp_path))
    deals = scan_deals(tmp_path / "runs" / "heuristic-heuristic-heuristic").collect()
    declared = deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))
    played = declared.filter(~pl.col("conceded"))
    for r in players.values():
        assert r.make_rate.value == pytest.approx(played["made"].mean())
        assert r.mean_contract.value == pytest.approx(declared["contract"].mean())
        assert r.declarer_share.value == pytest.approx(declared.height / deals.height / 3)
        assert r.make_rate.low < r.make_rate.value < r.make_rate.high and r.make_rate.n == 120


def test_a_player_file_equal_to_the_defaults_plays_as_the_default(tmp_path):
    (tmp_path / "same.toml").write_text('player = "heuristic"\nrisk = 10.0\n')
    a, _ = result(tournament.tournament(players=[str(tmp_path / "same.toml"), "random", "heuristic"], games=60,
                                        out=tmp_path / "a"))
    b, _ = result(tournament.tournament(players=["heuristic", "random", "heuristic"], games=60, out=tmp_path / "b"))
    assert a["1-same"].win_share == b["1-heuristic"].win_share  # value, interval and n
    assert a["1-same"].final_score == b["1-heuristic"].final_score
    assert json.loads(a["1-same"].params)["risk"] == 10.0


def test_the_example_cautious_player_loses_to_the_default(tmp_path):
    cautious = EXAMPLE_PLAYERS / "cautious.toml"
    players, pairs = result(tournament.tournament(players=["heuristic", str(cautious), "heuristic"], games=300,
                                                  out=tmp_path))
    assert players["2-cautious"].concession_rate.value > 2 * players["1-heuristic"].concession_rate.value
    assert all(p.significant and p.diff.value * (1 if p.player != "2-cautious" else -1) > 0
               for p in pairs if "2-cautious" in (p.player, p.against))


def test_the_example_player_files_are_the_ones_listed():
    assert sorted(p.stem for p in EXAMPLE_PLAYERS.glob("*.toml")) == EXAMPLE_PLAYER_NAMES


@pytest.mark.parametrize("name", EXAMPLE_PLAYER_NAMES)
def test_every_example_player_file_loads(name):
    from sim.players.params import HeuristicParams, load_player_file

    kind, params = load_player_file(EXAMPLE_PLAYERS / f"{name}.toml", 3)
    assert kind in ("heuristic", "learned", "pimc-inf")
    assert (params == HeuristicParams()) == (name in SPELLS_OUT_DEFAULTS)


@pytest.mark.parametrize("text, message", [
    ("risk = ", "is not valid TOML"),
    ("rsk = 3.0", "unknown parameter 'rsk'"),
    ('risk = "high"', "risk must be a number"),
    ('player = "random"', "reads no parameters"),
    ("pimc_worlds = 0", "pimc_worlds must be from 1 to 1000"),
    ('player = "learned"\nsearch_cards = 9', "search_cards must be from 0 to 8, not 9"),
    ('player = "learned"\nsearch_worlds = 0', "search_worlds must be from 1 to 1000, not 0"),
    ('player = "learned"\nsearch_margin = -5', "search_margin must be at least 0 points, not -5"),
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
                                                  out=tmp_path))
    assert players["1-heuristic"].score_per_deal == players["3-heuristic"].score_per_deal
    assert players["1-heuristic"].score_per_deal.value > players["2-random"].score_per_deal.value + 10
    assert all(p.significant for p in pairs if "2-random" in (p.player, p.against))
    # Points per deal are the seats' deal results, averaged over the seatings.
    total = 0.0
    for run in (tmp_path / "runs").iterdir():
        d = scan_deals(run).collect()
        seat = run.name.removeprefix("deals-").split("-").index("random")
        total += d[f"result{seat}"].cast(pl.Float64).mean()
    assert players["2-random"].score_per_deal.value == pytest.approx(total / 3)


def test_games_and_deals_exclude_each_other(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tournament", "heuristic", "heuristic", "random", "--games", "5", "--deals", "5",
                                   "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "not both" in res.output and not (tmp_path / "x").exists()


def test_a_learned_player_file_names_its_weights_beside_it(tmp_path):
    from sim.players.params import load_player_file
    from sim.players.registry import weights_file

    (tmp_path / "p.toml").write_text('player = "learned"\nweights = "w/x.npz"\nopponent_weight = 0.5\n')
    kind, prm = load_player_file(tmp_path / "p.toml", 3)
    assert kind == f"learned:{tmp_path / 'w' / 'x.npz'}" and weights_file(kind) == tmp_path / "w" / "x.npz"
    assert prm.opponent_weight == 0.5


# ---- the result object and its presenters ----------------------------------------------------------
@pytest.mark.parametrize("size", [["--games", "12"], ["--deals", "30"]], ids=["games", "deals"])
def test_the_command_prints_the_result_and_its_presenters(tmp_path, size):
    """What the command prints (text and --json) and draws is the result's presenters' output, and
    a rerun on the stored runs returns an equal result object."""
    import polars as pl
    from polars.testing import assert_frame_equal

    from analysis.present.json_text import to_json
    from analysis.present.tournament import plot_tournament, tournament_lines
    from cli import app

    out = tmp_path / "o"
    args = ["tournament", "heuristic", "random", "heuristic", *size, "--seed", "3", "--out", str(out)]
    text = CliRunner().invoke(app, args)
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert text.exit_code == 0 and as_json.exit_code == 0, text.output + as_json.output
    mode, n = size[0][2:], int(size[1])
    res = tournament.tournament(players=["heuristic", "random", "heuristic"], seed=3, out=out, **{mode: n})
    assert res.mode == mode and res.size == n and len(res.seatings) == 6 and len(res.run_dirs) == 3
    assert (res.finished_games is None) == (mode == "deals")
    assert text.stdout.splitlines() == tournament_lines(res)
    assert tournament_lines(res)[0].startswith("first: ")
    wide = tournament_lines(res, None)
    assert wide[1] == (f"tournament: 1-heuristic, 2-random, 3-heuristic; {n} {mode} in each of 6 "
                       "seatings (3 runs), seats rotated over the same deals; 95% intervals over "
                       f"{mode[:-1]} numbers")
    assert wide[-1] == f"table: {out / tournament.TABLE_FILE}; plot: {out / tournament.PLOT_FILE}"
    assert as_json.stdout.strip() == to_json(res)
    data = json.loads(as_json.stdout)
    assert [r["player"] for r in data["players"]] == [r.player for r in res.players]
    roles = [f"{m}{end}" for m in ("declarer_share", "make_rate", "concession_rate", "mean_contract",
                                   "declarer_points_per_deal", "defender_points_per_deal")
             for end in ("", "_ci_low", "_ci_high")]
    games_only = ["win_share", "win_ci_low", "win_ci_high", "final_score", "score_ci_low", "score_ci_high"]
    assert list(data["players"][0]) == ["player", "type", "score_per_deal", "score_per_deal_ci_low",
                                        "score_per_deal_ci_high", mode, *(games_only if mode == "games" else []),
                                        *roles, "params"]
    assert list(data["pairs"][0]) == ["player", "against", "diff", "ci_low", "ci_high", "p", "p_holm", "significant"]
    # The players' table is the stored one, rows and dtypes; the pairs are a table too.
    stored = pl.read_parquet(out / tournament.TABLE_FILE)
    assert_frame_equal(res.to_polars(), stored)
    # The JSON is the stored table's rows and metadata (the players' labels replaced by their rows).
    meta = {k: json.loads(v) for k, v in pl.read_parquet_metadata(out / tournament.TABLE_FILE).items()
            if k != "ARROW:schema"}
    assert stored.to_dicts() == data["players"]
    assert {**meta, "players": data["players"]} == {k: v for k, v in data.items() if k != "pairs"}
    assert meta["players"] == list(res.labels) and meta == res.provenance
    assert res.to_polars().columns == list(data["players"][0])
    assert res.to_polars("pairs").to_dicts() == data["pairs"]
    with pytest.raises(ValueError, match="players' or 'pairs'"):
        res.to_polars("roles")
    # The plot the command drew is the presenter's, byte for byte.
    plot_tournament(res, tmp_path / "again.png")
    assert (tmp_path / "again.png").read_bytes() == res.plot_path.read_bytes()
    assert tournament.tournament(players=["heuristic", "random", "heuristic"], seed=3, out=out, **{mode: n}) == res


def test_the_result_is_frozen_and_documented(tmp_path):
    res = tournament.tournament(players=["heuristic", "random", "random"], games=6, out=tmp_path)
    for obj, name in ((res, "players"), (res.players[0], "win_share"), (res.pairs[0], "p_holm")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, None)
    for cls in (tournament.TournamentResult, tournament.PlayerRow, tournament.PairRow):
        missing = [f.name for f in dataclasses.fields(cls) if f"``{f.name}``" not in cls.__doc__
                   and not f.name.endswith(("_ci_low", "_ci_high"))]
        assert not missing, f"{cls.__name__} does not document {missing}"
    assert [p.player + " " + p.against for p in res.pairs] == ["1-heuristic 2-random", "1-heuristic 3-random",
                                                               "2-random 3-random"]
    assert res.players[0].player == "1-heuristic" and res.players[0].deals is None and res.players[0].games == 6


def test_the_tournament_takes_a_progress_callback(tmp_path):
    seen = []
    res = tournament.tournament(players=["heuristic", "random", "random"], games=4, out=tmp_path,
                                progress=lambda stage, done, total: seen.append((stage, done, total)))
    # Copies of random share runs: three runs (heuristic in each seat) of four games.
    assert len(res.run_dirs) == 3 and {s for s, _, _ in seen} == {"seatings"}
    assert seen[-1][1] == seen[-1][2] == 3 * 4


def test_no_players_given_ranks_learned_win_heuristic_and_leadage(tmp_path):
    from cli import app
    from sim import InputError
    from sim.players.learned.weights import weights_identity
    from sim.players.registry import weights_file

    res = tournament.tournament(games=4, out=tmp_path / "t")
    assert res.labels == ("1-learned-win", "2-heuristic", "3-leadage") and len(res.seatings) == 6
    assert res.provenance["learned_weights"] == {"learned-win": weights_identity(weights_file("learned-win"))}
    # Deals from a zero score, and rules without a win-chance table: the learned player.
    dealt = tournament.tournament(deals=6, out=tmp_path / "d")
    assert dealt.labels == ("1-learned", "2-heuristic", "3-leadage")
    target950 = tmp_path / "target950.toml"
    target950.write_text("target = 950\n")
    assert tournament.tournament(games=4, rules=str(target950), out=tmp_path / "target950").labels[0] == "1-learned"
    with pytest.raises(InputError, match="give the players, one a seat: the default field"):
        tournament.tournament(games=4, rules=str(_four(tmp_path)), out=tmp_path / "four")
    out = CliRunner().invoke(app, ["tournament", "--games", "4", "--out", str(tmp_path / "t")])
    assert out.exit_code == 0 and out.stdout.startswith("first: 1-learned-win, win share ")
    assert out.stdout.splitlines()[1].startswith("tournament: 1-learned-win, 2-heuristic, 3-leadage;")


def _four(tmp_path):
    path = tmp_path / "four.toml"
    path.write_text("players = 4\n")
    return path
