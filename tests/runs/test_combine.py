"""thousand runs combine: runs of the same rules and players and disjoint seeds become one run that
verifies and that the analyses read as the sum of its parts; anything else is refused, leaving
nothing behind."""

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.barrel import barrel_summary
from sim.engine import BatchSpec
from sim.game.rules import HouseRules, preset
from sim.runs import RunDirError, combine_runs, load_manifest, run_batch, verify_run


def _run(path, seed, n, rules=None, mode="games"):
    spec = BatchSpec(mode=mode, n=n, rules=rules or HouseRules(), players="heuristic", seed=seed, chunk_size=25)
    assert not run_batch(spec, path).interrupted
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("combine")
    return root, _run(root / "a", 1, 60), _run(root / "b", 2, 75)


def test_the_combined_run_is_the_sum_of_its_parts(runs):
    root, a, b = runs
    out = root / "ab"
    spec = combine_runs([a, b], out)
    assert spec["sample_size"] == 135 and spec["seeds"] == [1, 2] and len(spec["combined_from"]) == 2
    shards = verify_run(out)
    assert len(shards["games"]) == len(verify_run(a)["games"]) + len(verify_run(b)["games"])
    games = pl.concat([pl.read_parquet(p) for p in shards["games"]])
    assert sorted(games["game"].to_list()) == list(range(135))  # every game once, numbers of their own
    deals = pl.concat([pl.read_parquet(p) for p in shards["deals"]])
    part_a = pl.concat([pl.read_parquet(p) for p in verify_run(a)["deals"]])
    part_b = pl.concat([pl.read_parquet(p) for p in verify_run(b)["deals"]])
    assert deals.height == part_a.height + part_b.height
    assert deals.head(part_a.height).equals(part_a)
    assert deals.tail(part_b.height).drop("game").equals(part_b.drop("game"))
    assert (deals.tail(part_b.height)["game"] - part_b["game"]).unique().to_list() == [60]
    # An analysis reads it as both runs together.
    whole, sa, sb = barrel_summary(out), barrel_summary(a), barrel_summary(b)
    assert whole.games == 135 and whole.episodes == sa.episodes + sb.episodes
    for fate, v in whole.fates.items():
        assert v.k == sa.fates[fate].k + sb.fates[fate].k
    assert load_manifest(out)["spec"]["seeds"] == [1, 2]


def test_combining_is_refused_when_it_would_be_wrong(runs, tmp_path):
    root, a, b = runs
    other_rules = _run(tmp_path / "short", 3, 25, rules=preset("short"))
    same_seed = _run(tmp_path / "seed1", 1, 25)
    deals_mode = _run(tmp_path / "deals", 4, 25, mode="deals")
    cases = [([a, other_rules], "rules"), ([a, same_seed], "seed 1"), ([a, a], "twice"),
             ([a, deals_mode], "mode"), ([a], "two or more")]
    for sources, words in cases:
        with pytest.raises(RunDirError, match=words):
            combine_runs(sources, tmp_path / "out")
        assert not (tmp_path / "out").exists()
    # A damaged source is refused, naming the shard.
    damaged = _run(tmp_path / "damaged", 5, 50)
    shard = verify_run(damaged)["deals"][1]
    shard.write_bytes(shard.read_bytes()[:-10])
    with pytest.raises(RunDirError, match="damaged"):
        combine_runs([a, damaged], tmp_path / "out")
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out*"))
    # An existing, non-empty output is never overwritten.
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(RunDirError, match="not an empty directory"):
        combine_runs([a, b], tmp_path / "full")


def test_a_tampered_shard_of_a_combined_run_is_refused(runs, tmp_path):
    _, a, b = runs
    out = tmp_path / "ab"
    combine_runs([a, b], out)
    shard = verify_run(out)["games"][0]
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    with pytest.raises(RunDirError, match="damaged"):
        verify_run(out)


def test_the_command(runs, tmp_path):
    from cli import app

    _, a, b = runs
    res = CliRunner().invoke(app, ["runs", "combine", str(a), str(b), "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert "135 games, seeds 1, 2" in res.output and "seeds=1,2" in res.output
    res = CliRunner().invoke(app, ["runs", "combine", str(a), str(a), "--out", str(tmp_path / "d")])
    assert res.exit_code == 2 and "error:" in res.output and "Traceback" not in res.output
