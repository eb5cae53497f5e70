"""thousand compare: A/A shows nothing, a rule that never applies shows nothing, an unpaired A/A
control is significant about 5% of the time or less, rules that must matter are found with the
expected sign; the statistics against a direct per-game computation; the result object against
what the command prints and stores; bad input."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import compare
from analysis.present.compare import comparison_lines
from analysis.present.json_text import to_json


def rows_by(result: compare.Comparison) -> dict:
    return {(r.metric, r.rules): r for r in result.rows}


def test_a_rule_set_against_itself_shows_nothing(tmp_path):
    # compare refuses the same rules twice (nothing to compare), so the paired statistics of A/A
    # are run on one stored run given twice: the very same games.
    with pytest.raises(ValueError, match="1-classic and 2-classic are the same rules"):
        compare.compare(rules=["classic", "classic"], games=300, out=tmp_path / "twice")
    assert not (tmp_path / "twice").exists()
    compare.compare(rules=["classic", "short"], games=300, out=tmp_path)
    run = tmp_path / "runs" / "1-classic"
    rows, left_out = compare.compare_runs({"a": run, "b": run})
    assert rows and not left_out
    assert all(r.diff.value == 0 and r.p == 1 and not r.significant for r in rows)


def test_an_option_that_never_applies_shows_nothing(tmp_path):
    never = tmp_path / "never.toml"
    never.write_text('redeal_policy = "never"\n')  # no redeal rule is on: nobody is ever asked
    rows = rows_by(compare.compare(rules=["classic", str(never)], games=300, out=tmp_path / "o"))
    assert not any(r.significant for r in rows.values())
    assert all(r.diff.value == 0 for r in rows.values())  # the very same games


def test_unpaired_a_a_is_rarely_significant(tmp_path):
    # The same rules with independent seeds: every difference is noise, so a family of metrics is
    # declared significant in about 5% of comparisons at most (Holm controls the family-wise rate).
    families = 0
    for seed in range(16):
        result = compare.compare(rules=["classic", "classic"], games=150, seed=seed, out=tmp_path / str(seed),
                                 seed_offsets=[0, 1000])
        families += any(r.significant for r in result.rows)
    assert families <= 3  # 16 families at 5%: more than 3 has a chance below 1%


def test_rules_that_must_matter_are_found_with_their_sign(tmp_path):
    two = tmp_path / "two.toml"
    two.write_text("barrel_attempts = 2\n")
    rows = rows_by(compare.compare(rules=["classic", "short", str(two)], games=800, out=tmp_path / "o"))
    short = rows[("game length (deals)", "2-short")]
    assert short.significant and short.diff.value < 0  # a race to 555 is shorter than to 1000
    falls = rows[("barrel falls per game", "3-two")]
    assert falls.significant and falls.diff.value > 0  # fewer attempts, more falls


def test_difference_and_interval_match_a_per_game_computation(tmp_path):
    from sim.runs import scan_games

    result = compare.compare(rules=["classic", "short"], games=300, out=tmp_path)
    row = rows_by(result)[("game length (deals)", "2-short")]
    a = scan_games(tmp_path / "runs" / "1-classic").collect().sort("game")["deals"].to_numpy().astype(float)
    b = scan_games(tmp_path / "runs" / "2-short").collect().sort("game")["deals"].to_numpy().astype(float)
    d = b - a
    assert row.diff.value == pytest.approx(d.mean()) and row.diff.n == row.n_games == len(d)
    se = d.std(ddof=1) / math.sqrt(len(d))  # for a per-game mean the delta method is the paired t
    assert row.diff.high - row.diff.value == pytest.approx(1.959963984540054 * se, rel=1e-6)
    # The game lengths the plot shows are those stored, game for game.
    assert sorted(result.game_lengths["1-classic"]) == sorted(a.astype(int).tolist())
    assert sorted(result.game_lengths["2-short"]) == sorted(b.astype(int).tolist())


def test_cli_table_parquet_plot_and_reuse(tmp_path):
    from cli import app

    args = ["compare", "classic", "short", "--games", "100", "--out", str(tmp_path)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "game length (deals)" in res.output and "Holm" in res.output
    table = pl.read_parquet(tmp_path / compare.TABLE_FILE)
    meta = pl.read_parquet_metadata(tmp_path / compare.TABLE_FILE)
    assert set(table["rules"]) == {"2-short"} and json.loads(meta["games"]) == 100
    assert (tmp_path / compare.PLOT_FILE).stat().st_size > 10_000
    shard = tmp_path / "runs" / "1-classic" / "games" / "part-00000.parquet"
    stamp = shard.stat().st_mtime_ns
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and shard.stat().st_mtime_ns == stamp  # stored runs reused
    assert np.isfinite(table["diff"].to_numpy()).all()


def test_the_result_is_what_the_command_prints_and_stores(tmp_path):
    from cli import app

    out = tmp_path / "o"
    args = ["compare", "classic", "short", "--games", "60", "--seed", "5", "--out", str(out)]
    text = CliRunner().invoke(app, args)
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert text.exit_code == 0 and as_json.exit_code == 0, text.output + as_json.output
    result = compare.compare(rules=["classic", "short"], games=60, seed=5, out=out)  # all stored: reused
    assert isinstance(result.rows[0], compare.ComparisonRow) and result.rule_sets == ("1-classic", "2-short")
    assert to_json(result) + "\n" == as_json.stdout
    assert comparison_lines(result) == text.stdout.splitlines()
    assert comparison_lines(result, None)[-1] == f"table: {out / compare.TABLE_FILE}; plot: {out / compare.PLOT_FILE}"
    stored = pl.read_parquet(result.table_path)
    assert result.to_polars().equals(stored) and result.to_polars().schema == stored.schema
    assert stored.height == len(result.rows) > 0
    assert compare.compare(rules=["classic", "short"], games=60, seed=5, out=out) == result  # a rerun: the same
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.games = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.rows[0].p = 0.0


def test_the_plot_is_drawn_from_the_result_alone(tmp_path):
    from analysis.present.compare import plot_comparison

    result = compare.compare(rules=["classic", "short"], games=40, seed=2, out=tmp_path / "o")
    assert not result.plot_path.exists()  # the computation draws nothing
    plot_comparison(result, tmp_path / "a.png")
    elsewhere = dataclasses.replace(result, runs={k: tmp_path / "gone" for k in result.runs})
    plot_comparison(elsewhere, tmp_path / "b.png")  # the stored runs are not read
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a.png").stat().st_size > 10_000


@pytest.mark.parametrize("args, words", [
    (["classic"], "at least two rule sets"),
    (["classic", "nope"], "neither a preset"),
    (["classic", "short", "--games", "0"], "--games must be from 1"),
])
def test_bad_input_is_one_line_and_leaves_nothing(tmp_path, args, words):
    from cli import app

    res = CliRunner().invoke(app, ["compare", *args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and words in res.output and len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_player_counts_must_agree(tmp_path):
    from cli import app

    four = tmp_path / "four.toml"
    four.write_text("players = 4\n")
    res = CliRunner().invoke(app, ["compare", "classic", str(four), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "different player counts" in res.output


def test_the_score_aware_player_by_default_and_other_weights_never_reused(tmp_path):
    import shutil

    from analysis.stored import StaleResultError
    from sim.players.learned.weights import weights_identity
    from sim.players.registry import weights_file

    shipped = weights_file("learned")
    result = compare.compare(rules=["classic", "short"], games=20, out=tmp_path / "default")
    assert result.players == ("learned-win",) * 3  # every preset ships its win-chance table
    assert result.provenance["learned_weights"] == {"learned-win": weights_identity(weights_file("learned-win"))}
    assert "played by the learned-win player, all seats" in comparison_lines(result, None)[1]
    # A rule set without a table: one player for both, the learned player.
    (tmp_path / "target950.toml").write_text("target = 950\n")
    mixed = compare.compare(rules=["classic", str(tmp_path / "target950.toml")], games=20, out=tmp_path / "mixed")
    assert mixed.players == ("learned",) * 3
    assert mixed.provenance["learned_weights"] == {"learned": weights_identity(shipped)}
    assert "played by the learned player, all seats" in comparison_lines(mixed, None)[1]
    # The same weights file name holding other weights: the stored comparison is refused, by its weights.
    weights = tmp_path / "w.npz"
    for suffix in (".npz", ".json"):  # a weights file and its manifest
        shutil.copyfile(shipped.with_suffix(suffix), weights.with_suffix(suffix))
    players = f"learned:{weights}"
    first = compare.compare(rules=["classic", "short"], games=20, players=players, out=tmp_path / "named")
    assert first.provenance["learned_weights"] == {players: weights_identity(shipped)}
    for suffix in (".npz", ".json"):
        shutil.copyfile(shipped.with_name("learned-v3" + suffix), weights.with_suffix(suffix))
    with pytest.raises(StaleResultError, match="weights"):
        compare.compare(rules=["classic", "short"], games=20, players=players, out=tmp_path / "named")
    # The 2-player game, for which no learned weights exist: the heuristic player.
    for name, text in (("a.toml", "players = 2\n"), ("b.toml", "players = 2\nmin_bid = 110\n")):
        (tmp_path / name).write_text(text)
    two = compare.compare(rules=[str(tmp_path / "a.toml"), str(tmp_path / "b.toml")], games=20, out=tmp_path / "two")
    assert two.players == ("heuristic",) * 2 and two.provenance["learned_weights"] == {}
