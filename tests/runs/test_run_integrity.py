"""Fault injection on stored runs: shards deleted, truncated, bit-flipped, swapped in from another
run, stray and temporary files. Each is redone or refused by name, and what is finally read
equals an uninterrupted run of the same spec."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

from sim.engine import BatchSpec
from sim.runs import MANIFEST_FILE, RunDirError, run_batch, scan_deals, scan_games, verify_run

SPEC = BatchSpec(mode="games", n=40, seed=21, chunk_size=10)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "run"
    run_batch(SPEC, out, workers=2)
    return out


def tables(out):
    return scan_deals(out).collect().sort("game", "deal"), scan_games(out).collect().sort("game")


def fresh_copy(whole, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(whole, out)
    return out


def assert_same_as(whole, out):
    a_deals, a_games = tables(whole)
    b_deals, b_games = tables(out)
    assert a_deals.equals(b_deals) and a_games.equals(b_games)


def test_manifest_records_every_shard(whole):
    manifest = json.loads((whole / MANIFEST_FILE).read_text())
    assert manifest["chunk_plan"] == {"chunks": 4, "chunk_size": 10, "tables": ["deals", "games"]}
    assert set(manifest["shards"]) == {f"{t}/part-{i:05d}.parquet" for t in ("deals", "games") for i in range(4)}
    assert manifest["spec"]["seed"] == 21 and manifest["versions"]["thousand"]
    rows = sum(v["rows"] for k, v in manifest["shards"].items() if k.startswith("games/"))
    assert rows == 40


@pytest.mark.parametrize("table", ["deals", "games"])
def test_a_deleted_shard_is_refused_then_redone(whole, tmp_path, table):
    out = fresh_copy(whole, tmp_path)
    (out / table / "part-00002.parquet").unlink()
    with pytest.raises(RunDirError, match=f"{table}/part-00002.parquet missing"):
        scan_deals(out)
    result = run_batch(SPEC, out, workers=1)
    assert result.chunks_run == 1
    assert_same_as(whole, out)


def test_a_truncated_shard_is_redone(whole, tmp_path):
    out = fresh_copy(whole, tmp_path)
    path = out / "deals" / "part-00001.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(RunDirError, match="part-00001.parquet damaged"):
        scan_games(out)
    result = run_batch(SPEC, out, workers=1)
    assert result.chunks_run == 1 and result.redone == ["deals/part-00001.parquet"]
    assert_same_as(whole, out)


def test_a_flipped_bit_is_caught_and_redone(whole, tmp_path):
    out = fresh_copy(whole, tmp_path)
    path = out / "games" / "part-00003.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x10  # one bit, inside the column data
    path.write_bytes(bytes(data))
    with pytest.raises(RunDirError, match="games/part-00003.parquet damaged"):
        verify_run(out)
    assert run_batch(SPEC, out, workers=1).chunks_run == 1
    assert_same_as(whole, out)


def test_a_shard_of_another_run_is_refused_by_name(whole, tmp_path):
    other = tmp_path / "other"
    run_batch(BatchSpec(mode="games", n=40, seed=22, chunk_size=10), other, workers=2)
    out = fresh_copy(whole, tmp_path)
    shutil.copy(other / "deals" / "part-00000.parquet", out / "deals" / "part-00000.parquet")
    with pytest.raises(RunDirError, match="part-00000.parquet damaged"):
        scan_deals(out)  # never counted in an analysis
    with pytest.raises(RunDirError, match=r"deals/part-00000.parquet belongs to another run: "
                                          r"its seed differs \(22 stored, 21 asked\)"):
        run_batch(SPEC, out, workers=1)


def test_stray_files_are_refused_and_temporary_ones_removed(whole, tmp_path):
    out = fresh_copy(whole, tmp_path)
    tmp = out / "deals" / ".part-00001.parquet.tmp-123-456"
    tmp.write_bytes(b"half a shard")
    assert run_batch(SPEC, out, workers=1).chunks_run == 0
    assert not tmp.exists()
    (out / "deals" / "part-00009.parquet").write_bytes(b"x")
    with pytest.raises(RunDirError, match="part-00009.parquet is not a shard of this run"):
        run_batch(SPEC, out, workers=1)


def test_partial_data_only_when_asked(whole, tmp_path):
    out = fresh_copy(whole, tmp_path)
    (out / "games" / "part-00000.parquet").unlink()
    with pytest.raises(RunDirError, match="incomplete or damaged"):
        scan_games(out)
    games = scan_games(out, partial=True).collect()
    assert games.height == 30 and games["game"].min() == 10


def test_a_run_without_manifest_is_verified_and_redone(whole, tmp_path):
    # A run stored before manifests existed: its shards cannot be trusted, so they are played again.
    out = fresh_copy(whole, tmp_path)
    (out / MANIFEST_FILE).unlink()
    with pytest.raises(RunDirError, match="no manifest.json"):
        scan_deals(out)
    assert run_batch(SPEC, out, workers=2).chunks_run == 4
    assert_same_as(whole, out)


def test_hashes_are_remembered(whole, tmp_path, monkeypatch):
    out = fresh_copy(whole, tmp_path)
    verify_run(out)
    import sim.runs.manifest

    calls = []
    monkeypatch.setattr(sim.runs.manifest, "file_sha256", lambda p: calls.append(p) or "x")
    verify_run(out)
    assert calls == []  # sizes and times unchanged: nothing hashed again
    path = out / "deals" / "part-00000.parquet"
    path.write_bytes(path.read_bytes())  # rewritten: a new modification time
    with pytest.raises(RunDirError):
        verify_run(out)
    assert calls == [path]


def test_frames_read_from_a_verified_run_are_lazy(whole):
    assert isinstance(scan_deals(whole), pl.LazyFrame)
