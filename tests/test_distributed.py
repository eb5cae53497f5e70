"""Runs on a Dask cluster (sim.runs.backend): a LocalCluster of two worker processes stores the same
bytes as threads in this process, survives a killed worker, resumes an interrupted run with
every deal once, and builds the same bid table; without Dask the flags say how to install it."""

import logging
import os
import signal
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.engine import BatchSpec
from sim.fingerprint import file_sha256
from sim.game.rules import HouseRules
from sim.runs import INSTALL_HINT, BackendError, load_manifest, open_backend, run_batch, verify_run

pytest.importorskip("distributed")
# Dask logs every worker's coming and going; the test log keeps only its errors.
logging.getLogger("distributed").setLevel(logging.ERROR)

SPEC = BatchSpec(mode="games", n=240, rules=HouseRules(), players="heuristic", seed=11, chunk_size=20)


@pytest.fixture(scope="module")
def cluster():
    with open_backend(cluster="local", workers=2) as backend:
        yield backend


@pytest.fixture(scope="module")
def threads_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("threads") / "run"
    assert not run_batch(SPEC, out, workers=2).interrupted
    return out


def _hashes(run: Path) -> dict[str, str]:
    shards = verify_run(run)
    return {f"{table}/{p.name}": file_sha256(p) for table, paths in shards.items() for p in paths}


@pytest.mark.parametrize("shared_disk", [True, False])
def test_local_cluster_stores_the_same_bytes_as_threads(cluster, threads_run, tmp_path, monkeypatch, shared_disk):
    """Workers that see the run's folder store their shards there; the others send their rows back
    to be stored here. Both give the threads' bytes."""
    import sim.runs.play
    from sim.runs import DaskBackend

    assert cluster.remote and "2 worker(s)" in cluster.describe()
    backend = DaskBackend(cluster.client, shared_disk=shared_disk)
    written_here = []
    real = sim.runs.play.store_chunk
    monkeypatch.setattr(sim.runs.play, "store_chunk", lambda *a: written_here.append(a[2]) or real(*a))
    out = tmp_path / "dask"
    result = run_batch(SPEC, out, backend=backend)
    assert result.chunks_run == SPEC.n_chunks and not result.interrupted
    assert _hashes(out) == _hashes(threads_run) and len(_hashes(out)) == 2 * SPEC.n_chunks
    assert load_manifest(out)["shards"] == load_manifest(threads_run)["shards"]
    # With a shared disk this process wrote no shard (the workers did); without, it wrote them all.
    assert sorted(written_here) == ([] if shared_disk else list(range(SPEC.n_chunks)))
    assert not list(out.glob(".dask-token-*"))


def _every_game_once(run: Path) -> None:
    games = pl.concat([pl.read_parquet(p) for p in verify_run(run)["games"]])
    assert sorted(games["game"].to_list()) == list(range(SPEC.n))


def test_a_killed_worker_loses_nothing(cluster, threads_run, tmp_path):
    pids = list(cluster.client.run(os.getpid).values())
    killed = []

    def kill_one(_units):
        if not killed:  # after the first chunk lands, one worker process dies mid-run
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    out = tmp_path / "killed"
    result = run_batch(SPEC, out, backend=cluster, on_chunk=kill_one)
    assert killed and not result.interrupted and result.chunks_run == SPEC.n_chunks
    _every_game_once(out)
    assert _hashes(out) == _hashes(threads_run)
    cluster.client.wait_for_workers(2, timeout=60)  # the nanny brings the worker back for the next tests


def test_an_interrupted_run_resumes_with_every_game_once(cluster, threads_run, tmp_path):
    landed = []

    def stop_after_three(_units):
        landed.append(1)
        if len(landed) == 3:
            raise KeyboardInterrupt  # the whole run is lost here: Ctrl-C, or the driver's machine

    out = tmp_path / "stopped"
    first = run_batch(SPEC, out, backend=cluster, on_chunk=stop_after_three)
    assert first.interrupted and 3 <= len(load_manifest(out)["shards"]) // 2 < SPEC.n_chunks
    kept = len(load_manifest(out)["shards"]) // 2
    again = run_batch(SPEC, out, backend=cluster)
    assert not again.interrupted and again.chunks_run == SPEC.n_chunks - kept
    _every_game_once(out)
    assert _hashes(out) == _hashes(threads_run)


def test_the_bid_table_is_the_same_on_the_cluster(cluster, tmp_path):
    from analysis.bids.table import build_bid_tables

    local = build_bid_tables(deals=120, seed=3, out=tmp_path / "threads", pimc_deals=2, worlds=2)
    calls = []
    remote = build_bid_tables(deals=120, seed=3, out=tmp_path / "dask", pimc_deals=2, worlds=2,
                              backend=cluster, progress=lambda *call: calls.append(call))
    assert pl.read_parquet(remote).equals(pl.read_parquet(local))
    assert file_sha256(remote) == file_sha256(local)
    assert [(done, total) for _, done, total in calls] == [(0, 1), (1, 1)]  # the part came back and was stored


def test_the_command_line_on_a_local_cluster(tmp_path, threads_run):
    from cli import app

    res = CliRunner().invoke(app, ["simulate", "--games", "240", "--seed", "11", "--chunk-size", "20",
                                   "--players", "heuristic", "--cluster", "local", "--workers", "2",
                                   "--out", str(tmp_path / "cli"), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert _hashes(tmp_path / "cli") == _hashes(threads_run)


def test_the_command_line_on_a_running_scheduler(cluster, tmp_path):
    from cli import app

    address = cluster.client.scheduler.address
    args = ["tables", "barrel", "--games", "60", "--rules", "classic", "--rules", "short", "--json"]
    res = CliRunner().invoke(app, [*args, "--scheduler", address, "--out", str(tmp_path / "dask")])
    assert res.exit_code == 0, res.output
    local = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "threads")])
    assert local.exit_code == 0, local.output
    assert res.stdout == local.stdout


def test_without_dask_the_flags_say_how_to_install_it(monkeypatch, tmp_path):
    from cli import app

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(BackendError, match="pip install"), open_backend(cluster="local"):
        pass
    for args in (["simulate", "--games", "5"], ["compare", "classic", "short", "--games", "5"],
                 ["report", "--quick"]):
        res = CliRunner().invoke(app, [*args, "--cluster", "local", "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and INSTALL_HINT in res.output, res.output
        assert "Traceback" not in res.output
    assert not (tmp_path / "x").exists()
    # Threads need no Dask.
    with open_backend() as backend:
        assert not backend.remote and np.array_equal([1], [1])


def test_contradictory_backend_options(tmp_path):
    from cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "heuristic", "random", "random", "--games", "5", "--scheduler",
                              "tcp://127.0.0.1:1", "--cluster", "local", "--out", str(tmp_path / "t")])
    assert res.exit_code == 2 and "not both" in res.output
    res = runner.invoke(app, ["tables", "barrel", "--games", "5", "--cluster", "local", "--workers", "0",
                              "--out", str(tmp_path / "b")])
    assert res.exit_code == 2 and "--workers" in res.output


def test_a_lost_cluster_leaves_a_run_that_resumes(threads_run, tmp_path):
    out = tmp_path / "lost"
    with open_backend(cluster="local", workers=2) as doomed:
        local_cluster = doomed.client.cluster

        def lose_everything(_units):
            if local_cluster.status.name == "running":
                doomed.client.cluster.close()  # every worker and the scheduler go away mid-run

        with pytest.raises(BackendError, match="run the same command again"):
            run_batch(SPEC, out, backend=doomed, on_chunk=lose_everything)
    kept = len(load_manifest(out)["shards"]) // 2
    assert 1 <= kept < SPEC.n_chunks
    with open_backend(cluster="local", workers=2) as fresh:
        again = run_batch(SPEC, out, backend=fresh)
    assert again.chunks_run == SPEC.n_chunks - kept
    _every_game_once(out)
    assert _hashes(out) == _hashes(threads_run)


def test_the_report_on_the_cluster_is_the_same(cluster, tmp_path):
    """Every analysis the report runs (bid table parts, marriages in play, barrel, comparison,
    tournament) played on the cluster gives the same report as on threads."""
    from analysis.report.build import REPORT_MD, build_report
    from analysis.report.plan import Sizes

    small = Sizes(bid_deals=150, pimc_deals=2, marriage_deals=2000, marriage_play_deals=100, barrel_games=40,
                  compare_games=40, tournament_games=20, min_n=10, strategy_games=10, strategy_deals=200,
                  situation_deals=20)
    texts = []
    for name, backend in (("threads", None), ("dask", cluster)):
        build_report(rules=["classic", "short"], out=tmp_path / name / "rep", data=tmp_path / name / "data",
                     sizes=small, quick=True, backend=backend)
        texts.append((tmp_path / name / "rep" / REPORT_MD).read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
