"""Faults injected into stored runs and the commands that make them (issue 24): a run made by other
code, a bit flip hidden by ``touch -r``, a combine killed mid-way, a full disk, a huge run, a name
that is not UTF-8, two commands on one folder, a read-only mount, and ``--fresh``. Each gets one
clear line and a non-zero exit, or the right result, never a traceback, a half-made folder or a
silently wrong answer."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from cli_checks import mount, one_error_line, read_only, snapshot
from typer.testing import CliRunner

import sim.runs.combine
import sim.runs.folder
import sim.runs.manifest
from analysis.present.summary import run_summary_lines
from analysis.stats import Estimate
from analysis.summary import DealSummary, GameSummary, RunSummary, SeatWins
from cli import app
from sim.engine import BatchSpec
from sim.fingerprint import code_fingerprint, file_sha256
from sim.game.rules import HouseRules
from sim.runs import (
    JOURNAL_FILE,
    MANIFEST_FILE,
    RUN_FILE,
    RunDirError,
    load_manifest,
    run_batch,
    scan_deals,
    scan_games,
    verify_run,
)

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--games", "20", "--chunk-size", "5", "--seed", "3", "--players", "heuristic"]  # as SPEC
SPEC = BatchSpec(mode="games", n=20, seed=3, chunk_size=5)
OTHER_CODE = "0123456789abcdef"


def simulate(out: Path, *args: str):
    return CliRunner().invoke(app, ["simulate", "--no-progress", *ARGS, "--out", str(out), *args])


def same_text(a: str, b: str) -> bool:
    """The same words in the same order: a summary wraps at 80 columns, so a run's folder of another
    length breaks its lines elsewhere."""
    return a.split() == b.split()


def tables(out: Path):
    return scan_deals(out).collect().sort("game", "deal"), scan_games(out).collect().sort("game")


def assert_same_data(a: Path, b: Path) -> None:
    (da, ga), (db, gb) = tables(a), tables(b)
    assert da.equals(db) and ga.equals(gb)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A complete run made by ``simulate ARGS``, and the summary that command printed."""
    out = tmp_path_factory.mktemp("made") / "run"
    res = simulate(out)
    assert res.exit_code == 0, res.output
    return out, res.output


def copy_of(made, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(made[0], out)
    return out


def record_fingerprint(out: Path, fingerprint: str | None) -> None:
    """Make ``out`` a consistent run of other code: its fingerprint replaced (None: removed, as an
    older version wrote it) in run.json, the manifest and every shard, the manifest's hashes
    updated to the rewritten shards."""
    def edit(meta: dict) -> dict:
        meta = {k: v for k, v in meta.items() if k != "code_fingerprint"}
        return meta if fingerprint is None else {**meta, "code_fingerprint": fingerprint}

    spec = json.loads((out / RUN_FILE).read_text())
    (out / RUN_FILE).write_text(json.dumps(edit(spec), indent=2))
    manifest = load_manifest(out)
    manifest["spec"] = edit(manifest["spec"])
    for rel, rec in manifest["shards"].items():
        path = out / rel
        meta = pl.read_parquet_metadata(path)
        meta = {k: v for k, v in meta.items() if k != "ARROW:schema"}
        if fingerprint is None:
            meta.pop("code_fingerprint")
        else:
            meta["code_fingerprint"] = json.dumps(fingerprint)
        pl.read_parquet(path).write_parquet(path, metadata=meta, compression="zstd")
        rec.update(size=path.stat().st_size, sha256=file_sha256(path))
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    (out / ".verified.json").unlink(missing_ok=True)


# ---- the code fingerprint: resume and reuse only by the code that made a run ----------------------
@pytest.mark.parametrize("fingerprint, words", [
    (OTHER_CODE, f"was made by other code (fingerprint {OTHER_CODE}; this code is {code_fingerprint()})"),
    (None, "was made by an older version of thousand that recorded no code fingerprint"),
], ids=["other-code", "older-code"])
def test_a_run_of_other_code_is_refused_untouched_and_redone_with_fresh(made, tmp_path, fingerprint, words):
    out = copy_of(made, tmp_path)
    record_fingerprint(out, fingerprint)
    before = snapshot(out)
    line = one_error_line(simulate(out))  # the command that made it
    assert words in line and str(out) in line and "--fresh" in line
    assert snapshot(out) == before  # every file byte for byte, nothing added
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]
    res = simulate(out, "--fresh")
    assert res.exit_code == 0, res.output
    assert same_text(res.output, made[1].replace(str(made[0]), str(out)))  # the same summary as the run of this code
    assert json.loads((out / RUN_FILE).read_text())["code_fingerprint"] == code_fingerprint()
    assert all(json.loads(pl.read_parquet_metadata(p)["code_fingerprint"]) == code_fingerprint()
               for paths in verify_run(out).values() for p in paths)
    assert_same_data(made[0], out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]  # no redo folder, no replaced run left


def test_an_analysis_never_reads_a_run_of_other_code(made, tmp_path):
    out = copy_of(made, tmp_path)
    record_fingerprint(out, OTHER_CODE)
    with pytest.raises(RunDirError, match=f"was made by other code \\(fingerprint {OTHER_CODE};"):
        verify_run(out)
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "100", "--run", str(out)])
    assert "was made by other code" in one_error_line(res)


@pytest.mark.parametrize("args, words", [
    (["--rules", "short"], "its rules differ (target: 1000 stored, 555 asked; barrel: 880 stored, 440 asked)"),
    (["--players", "random"], "its players differ (heuristic,heuristic,heuristic stored, random,random,random asked)"),
    (["--seed", "4"], "its seed differs (3 stored, 4 asked)"),
    (["--games", "25"], "its sizes differ (--games: 20 stored, 25 asked)"),
    (["--chunk-size", "10"], "its sizes differ (--chunk-size: 5 stored, 10 asked)"),
], ids=["rules", "players", "seed", "games", "chunk-size"])
def test_resuming_other_arguments_names_what_differs_and_touches_nothing(made, tmp_path, args, words):
    out = copy_of(made, tmp_path)
    before = snapshot(out)
    line = one_error_line(simulate(out, *args))  # later options win over ARGS
    assert f"{out} holds another run: {words}" in line
    assert snapshot(out) == before


def test_a_shard_of_other_code_in_a_run_is_refused_by_name(made, tmp_path):
    out = copy_of(made, tmp_path)
    other = copy_of(made, tmp_path / "other")
    record_fingerprint(other, OTHER_CODE)
    shutil.copy(other / "games" / "part-00002.parquet", out / "games" / "part-00002.parquet")
    before = snapshot(out)
    line = one_error_line(simulate(out))
    assert f"{out / 'games' / 'part-00002.parquet'} belongs to another run: it was made by other code" in line
    assert snapshot(out) == before
    assert simulate(out, "--fresh").exit_code == 0  # --fresh plays that chunk again
    assert_same_data(made[0], out)


def test_combine_requires_runs_of_this_code(made, tmp_path):
    a = copy_of(made, tmp_path / "a")
    b = tmp_path / "b"
    assert simulate(b, "--seed", "4").exit_code == 0
    record_fingerprint(a, OTHER_CODE)
    res = CliRunner().invoke(app, ["runs", "combine", str(a), str(b), "--out", str(tmp_path / "ab")])
    line = one_error_line(res)
    assert f"cannot combine: run {a} was made by other code (fingerprint {OTHER_CODE}" in line
    assert not (tmp_path / "ab").exists() and not list(tmp_path.glob(".ab*"))


# ---- --fresh: the old run stays whole until the new one is complete -------------------------------
def test_fresh_is_atomic_and_resumable(made, tmp_path):
    out = copy_of(made, tmp_path)
    other = BatchSpec(mode="games", n=30, seed=8, chunk_size=5)
    landed = []

    def stop_after_two(_units):
        landed.append(1)
        if len(landed) == 2:
            raise KeyboardInterrupt

    first = run_batch(other, out, fresh=True, on_chunk=stop_after_two, workers=1)
    assert first.interrupted and first.played_in == tmp_path / ".run.fresh"
    assert_same_data(made[0], out)  # the old run, whole and verified, until the redo is complete
    assert json.loads((out / RUN_FILE).read_text())["seed"] == 3
    again = run_batch(other, out, fresh=True, workers=1)  # the same redo again: resumed
    assert not again.interrupted and 0 < again.chunks_run < other.n_chunks
    assert json.loads((out / RUN_FILE).read_text())["seed"] == 8
    direct = tmp_path / "direct"
    run_batch(other, direct, workers=1)
    assert_same_data(direct, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["direct", "run"]
    # This very run is kept: nothing is played again.
    assert run_batch(other, out, fresh=True).chunks_run == 0


def test_fresh_finishes_a_swap_cut_short_and_cleans_a_replaced_run(made, tmp_path):
    # Killed between its two renames: the redo is complete beside a missing --out.
    out = tmp_path / "run"
    shutil.copytree(made[0], tmp_path / ".run.fresh")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    shutil.copytree(made[0], tmp_path / f".run.replaced-{dead.pid}")
    result = run_batch(SPEC, out, fresh=True)
    assert result.chunks_run == 0 and not result.interrupted
    assert_same_data(made[0], out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_fresh_refuses_a_folder_holding_files_that_are_not_a_run(made, tmp_path):
    out = copy_of(made, tmp_path)
    record_fingerprint(out, OTHER_CODE)
    (out / "notes.txt").write_text("mine")
    before = snapshot(out)
    line = one_error_line(simulate(out, "--fresh"))
    assert f"--fresh would replace {out}, which holds files that are not a run's ({out / 'notes.txt'})" in line
    assert snapshot(out) == before
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.tex").write_text("mine")
    line = one_error_line(simulate(folder, "--fresh"))
    assert "holds files that are not a run's" in line and (folder / "thesis.tex").read_text() == "mine"


# ---- item 4: a bit flip hidden by touch -r ----------------------------------------------------------
@pytest.mark.parametrize("where", ["header", "data", "footer"])
def test_a_bit_flip_with_its_times_restored_is_caught(made, tmp_path, where):
    from analysis.summary import summarize_run

    out = copy_of(made, tmp_path)
    verify_run(out)  # hashed and remembered
    shard = out / "games" / "part-00001.parquet"
    reference = tmp_path / "reference"
    shutil.copy2(shard, reference)
    data = bytearray(shard.read_bytes())
    offset = {"header": 2, "data": len(data) // 3, "footer": len(data) - 10}[where]
    data[offset] ^= 0x04
    with open(shard, "r+b") as f:  # in place: the same inode, the same size
        f.write(bytes(data))
    subprocess.run(["touch", "-r", str(reference), str(shard)], check=True)
    assert shard.stat().st_size == reference.stat().st_size
    assert shard.stat().st_mtime_ns == reference.stat().st_mtime_ns
    with pytest.raises(RunDirError, match="games/part-00001.parquet damaged"):
        verify_run(out)
    with pytest.raises(RunDirError, match="games/part-00001.parquet damaged"):
        summarize_run(run=out)  # one line, never a polars error or a changed win rate
    res = simulate(out)  # the command that made it plays that chunk again
    assert res.exit_code == 0, res.output
    assert same_text(res.output, made[1].replace(str(made[0]), str(out)))


# ---- item 6: a combine killed mid-way --------------------------------------------------------------
def test_a_combine_killed_mid_way_is_cleaned_by_the_next(made, tmp_path):
    a = copy_of(made, tmp_path / "a")
    b = tmp_path / "b"
    assert simulate(b, "--seed", "4").exit_code == 0
    # A combine into ab killed after copying a run's worth of shards: SIGKILL, for real.
    script = ("import os, sys, sim.runs.combine as r\n"
              "real = r.write_parquet_atomic\n"
              "def slow(*a):\n"
              "    real(*a)\n"
              "    if '.tmp-' in str(a[1]) and len(list(a[1].parent.glob('part-*'))) == 3:\n"
              "        print('copying', flush=True); os.kill(os.getpid(), 9)\n"
              "r.write_parquet_atomic = slow\n"
              "r.combine_runs([sys.argv[1], sys.argv[2]], sys.argv[3])\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(a), str(b), str(tmp_path / "ab")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL and "copying" in out, err
    left = tmp_path / f".ab.tmp-{proc.pid}"
    assert [p.name for p in tmp_path.glob(".ab*")] == [left.name] and (left / "deals" / "part-00002.parquet").exists()
    # Folders of that (dead) PID that hold a user's file, or whose lock is still held, are left alone.
    mine = tmp_path / f".notes.tmp-{proc.pid}"
    mine.mkdir()
    (mine / "draft.txt").write_text("mine")
    held = tmp_path / f".held.tmp-{proc.pid}"
    shutil.copytree(left, held)
    with open(held / ".lock", "w") as lock:  # its writer alive elsewhere (another machine on a shared disk)
        fcntl.flock(lock, fcntl.LOCK_EX)
        res = CliRunner().invoke(app, ["runs", "combine", str(a), str(b), "--out", str(tmp_path / "ab2")])
        assert res.exit_code == 0, res.output
        assert not left.exists() and (mine / "draft.txt").exists() and held.exists()
    assert sum(len(v) for v in verify_run(tmp_path / "ab2").values()) == 2 * 8  # whole and verified


# ---- item 14: a full disk while a shard is written -------------------------------------------------
def _failing_writer(monkeypatch, error: Exception, after: int) -> None:
    real = pl.DataFrame.write_parquet
    calls = []

    def write(self, *args, **kwargs):
        calls.append(1)
        if len(calls) > after:
            raise error
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", write)


FULL = {
    "polars": pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: No space left "
                                         "on device (os error 28)"),
    "os": OSError(errno.ENOSPC, "No space left on device"),
    # What Polars says when the disk fills up as it writes the footer: the OS error is lost.
    "footer": pl.exceptions.ComputeError("parquet: File out of specification: Invalid thrift: transport error"),
}


@pytest.mark.parametrize("kind", list(FULL))
def test_a_full_disk_is_one_line_and_a_rerun_resumes(made, tmp_path, monkeypatch, kind):
    out = tmp_path / "run"
    _failing_writer(monkeypatch, FULL[kind], after=3)  # the 4th shard (one thread): chunk 1's games
    if kind == "footer":  # the disk is full as the write fails
        monkeypatch.setattr(sim.runs.folder.shutil, "disk_usage",
                            lambda _: SimpleNamespace(total=10**9, used=10**9, free=0))
    line = one_error_line(simulate(out, "--workers", "1"))
    assert f"error: no space left on device writing {out / 'games' / 'part-00001.parquet'}; free some space" in line
    assert not list(out.rglob(".*tmp-*"))
    monkeypatch.undo()  # space freed
    res = simulate(out)
    assert res.exit_code == 0, res.output
    assert same_text(res.output, made[1].replace(str(made[0]), str(out)))
    assert_same_data(made[0], out)


def test_a_full_disk_in_tables_barrel_is_one_line(tmp_path, monkeypatch):
    _failing_writer(monkeypatch, FULL["polars"], after=0)
    res = CliRunner().invoke(app, ["tables", "barrel", "--games", "10", "--json", "--out", str(tmp_path / "b")])
    line = one_error_line(res)
    assert "no space left on device writing" in line and "part-00000.parquet" in line


def test_a_really_full_disk_then_freed(made, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount("-t", "tmpfs", "-o", "size=96k", "tmpfs", str(disk)):
        pytest.skip("mounting a small tmpfs needs root")
    try:
        out = disk / "run"
        res = CliRunner().invoke(app, ["simulate", "--no-progress", "--games", "200", "--chunk-size", "5", "--seed",
                                       "3", "--players", "heuristic", "--out", str(out)])
        line = one_error_line(res)
        assert "no space left on device writing" in line and str(out) in line
        assert mount("-o", "remount,size=64m", str(disk))
        res = CliRunner().invoke(app, ["simulate", "--no-progress", "--games", "200", "--chunk-size", "5", "--seed",
                                       "3", "--players", "heuristic", "--out", str(out)])
        assert res.exit_code == 0, res.output
        whole = tmp_path / "whole"
        run_batch(BatchSpec(mode="games", n=200, seed=3, chunk_size=5), whole)
        assert_same_data(whole, out)
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=False)


# ---- item 15: saving incrementally, planning lazily ------------------------------------------------
def test_the_manifest_is_saved_incrementally(tmp_path, monkeypatch):
    saved = []
    real = sim.runs.folder.write_atomic_bytes  # behind write_bytes_if_different, which saves the manifest

    def write(path, data):
        if Path(path).name == MANIFEST_FILE:
            saved.append(len(data))
        real(path, data)

    monkeypatch.setattr(sim.runs.folder, "write_atomic_bytes", write)
    spec = BatchSpec(mode="deals", n=256, seed=1, chunk_size=1)
    out = tmp_path / "run"
    assert run_batch(spec, out, workers=2).chunks_run == 256
    final = (out / MANIFEST_FILE).stat().st_size
    # Rewritten whole after every chunk, the bytes saved would be about 128 times the final size.
    assert len(saved) <= 12 and sum(saved) <= 3 * final, (len(saved), sum(saved), final)
    assert len(load_manifest(out)["shards"]) == 256 and not (out / JOURNAL_FILE).exists()


def test_a_torn_journal_line_is_ignored(tmp_path):
    spec = BatchSpec(mode="deals", n=40, seed=2, chunk_size=10)
    whole = tmp_path / "whole"
    run_batch(spec, whole)
    out = tmp_path / "run"
    shutil.copytree(whole, out)
    # As a process killed while appending leaves it: the last two shards in the journal, the last line torn.
    manifest = json.loads((out / MANIFEST_FILE).read_text())
    lines = [json.dumps({"shard": rel, **manifest["shards"].pop(rel)}) for rel in sorted(manifest["shards"])[-2:]]
    (out / MANIFEST_FILE).write_text(json.dumps(manifest))
    (out / JOURNAL_FILE).write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    assert set(load_manifest(out)["shards"]) == {f"deals/part-0000{i}.parquet" for i in range(3)}
    with pytest.raises(RunDirError, match="deals/part-00003.parquet missing"):
        verify_run(out)
    result = run_batch(spec, out)
    assert result.chunks_run == 1 and result.redone == ["deals/part-00003.parquet"]
    assert not (out / JOURNAL_FILE).exists()
    assert scan_deals(out).collect().equals(scan_deals(whole).collect())


class _Slow(Exception):
    pass


@contextlib.contextmanager
def _within(seconds: float):
    def expire(*_):
        raise _Slow(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_a_huge_run_is_planned_lazily(tmp_path, engine_compiled):
    spec = BatchSpec(mode="deals", n=10**10, seed=1, chunk_size=1)  # ten billion chunks
    out = tmp_path / "huge"

    def stop(_units):
        raise KeyboardInterrupt  # as the first chunk lands

    with _within(60):  # building anything per chunk up front would take hours
        t = time.perf_counter()
        first = run_batch(spec, out, workers=1, on_chunk=stop)
        took = time.perf_counter() - t
        assert first.interrupted and first.chunks_run == 1 and took < 30
        again = run_batch(spec, out, workers=1, on_chunk=stop)  # resumed: planned lazily again
        assert again.interrupted and again.chunks_run == 1
        assert sim.runs.stored_units(spec, out) >= 2
        assert len(verify_run(out, partial=True)["deals"]) >= 2
        with pytest.raises(RunDirError, match="missing"):
            verify_run(out)


# ---- item 18: a name that is not UTF-8 --------------------------------------------------------------
def test_an_out_name_that_is_not_utf8_is_refused_before_anything_is_made(tmp_path):
    proc = subprocess.run([sys.executable, "-c", "import cli; cli.main()", "simulate", "--deals", "10",
                           "--no-progress", "--out", b"run\xff/x"], cwd=tmp_path, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    err = proc.stderr.decode("utf-8", "replace").strip()
    assert proc.returncode == 2, err
    assert err.splitlines() == ["error: --out run\\xff/x: the name holds bytes that are not UTF-8 text; choose a name "
                                "in UTF-8"]
    assert list(tmp_path.iterdir()) == []


# ---- item 21: two commands writing one folder ------------------------------------------------------
def test_a_second_command_on_the_same_out_is_refused_naming_the_first(tmp_path):
    out = tmp_path / "run"
    spec = BatchSpec(mode="games", n=10**6, chunk_size=1)
    first = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "simulate", "--games", "1000000",
                              "--chunk-size", "1", "--players", "heuristic", "--no-progress", "--out", str(out)],
                             cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 300  # a cold cache compiles the engine first
        # Wait for a chunk the journal records, not for a shard file: a shard written but not yet
        # journalled when the interrupt lands is rightly dropped, which made this test flaky.
        while not sim.runs.stored_units(spec, out) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first.poll() is None, first.communicate()[1]
        res = CliRunner().invoke(app, ["simulate", "--no-progress", "--games", "1000000", "--chunk-size", "1",
                                       "--players", "heuristic", "--out", str(out)])
        line = one_error_line(res)
        assert line == (f"error: {out} is being written by another process (PID {first.pid}), which holds its lock; "
                        "wait for it to finish, or choose another --out")
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=120)
    assert first.returncode == 130
    assert not (out / ".lock").exists()  # released with the process, the file removed
    assert sim.runs.stored_units(spec, out) > 0


# ---- item 22: a complete store on a read-only mount -----------------------------------------------
def test_a_complete_run_is_reused_from_a_read_onlymount(made, tmp_path):
    out = copy_of(made, tmp_path)
    before = snapshot(out)
    with read_only(out):
        res = simulate(out)
        assert res.exit_code == 0, res.output
        assert same_text(res.output, made[1].replace(str(made[0]), str(out)))
    assert snapshot(out) == before


def test_an_incomplete_run_on_a_read_only_mount_is_one_line(made, tmp_path):
    out = copy_of(made, tmp_path)
    (out / "deals" / "part-00002.parquet").unlink()
    with read_only(out):
        line = one_error_line(simulate(out))
    assert f"--out {out}: the directory is not writable, and 1 shard(s) of the run are missing or damaged" in line


@pytest.mark.parametrize("command, option", [
    (["tables", "bids", "--deals", "20", "--pimc-deals", "0"], "--out"),
    (["tables", "barrel", "--games", "20"], "--out"),
    (["compare", "classic", "short", "--games", "20"], "--out"),
    (["tournament", "heuristic", "random", "--games", "20"], "--out"),
    (["tables", "marriages", "--deals", "100"], "--out"),
    (["report", "--out", "{tmp}/report"], "--data"),
], ids=["bids", "barrel", "compare", "tournament", "marriages", "report"])
def test_an_analysis_folder_held_by_another_command_is_refused_naming_it(tmp_path, command, option):
    folder = tmp_path / "held"
    folder.mkdir()
    held = sim.runs.RunLock(folder).acquire()  # as another command writing there holds it
    try:
        args = [a.replace("{tmp}", str(tmp_path)) for a in command] + [option, str(folder)]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        line = res.output.strip().splitlines()[-1]  # after "loading the compiled kernels..." where it is said
    finally:
        held.release()
    assert line == (f"error: {folder} is being written by another process (PID {os.getpid()}), which holds its "
                    f"lock; wait for it to finish, or choose another {option}")
    assert list(folder.iterdir()) == []


# ---- issue 43 item 8: a summary says in words where an interval cannot be computed ---------------
def test_a_summary_of_one_game_prints_no_nan(tmp_path):
    res = CliRunner().invoke(app, ["simulate", "--no-progress", "--games", "1", "--out", str(tmp_path / "one")])
    assert res.exit_code == 0, res.output
    assert "nan" not in res.output, res.output  # was "95% CI nan–nan"
    assert "(no interval from one finished game)" in " ".join(res.output.split()), res.output


def test_a_summary_of_no_finished_game_and_no_played_contract_says_so():
    """Every game stopped at the deal limit, every contract conceded: said in words, not nan."""
    nan = float("nan")
    deals = DealSummary(deals=3, made=0, played=0, conceded=3, made_rate=Estimate(0.0, 0.0, 0.56),
                        made_rate_played=Estimate.none(), conceded_rate=1.0,
                        contract_mean=Estimate(100.0, 100.0, 100.0))
    seats = tuple(SeatWins(seat=s, player="heuristic", wins=0, win_rate=Estimate(0.0, 0.0, 0.66)) for s in range(3))
    games = GameSummary(games=2, unfinished=2, seats=seats, deals_mean=Estimate.none(), deals_median=nan)
    summary = RunSummary(run=Path("r"), mode="games", sample_size=2, seeds=(0,), combined=False,
                         players=("heuristic",) * 3, rules=HouseRules(), version="0.9.0", code_fingerprint=None,
                         provenance={}, deals=deals, by_player=(), games=games)
    text = "\n".join(run_summary_lines(summary))
    assert "nan" not in text, text
    assert "no game finished, so no game length" in text and "every one conceded" in text, text
