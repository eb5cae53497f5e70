"""The stored results of the analyses that play their own runs (issue 43): a redo with ``--fresh``
interrupted at several points (item 3), a damaged table (item 14), a rerun of a current result
(item 15) and a run that lost its spec (item 16c). The old result stays whole and readable until
the new one is complete, the new command resumes and gives the table one clean command gives, a
damaged table is rebuilt from its intact runs, and a current result is read without a byte or a
time stamp of its folder changing."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from cli_checks import one_error_line, snapshot
from typer.testing import CliRunner

from analysis import barrel, compare, study, tournament
from analysis import win_chances as wc
from analysis.marriages import odds
from analysis.stored import StaleResultError
from analysis.strategy import study as strategy_study
from analysis.study import COMMIT_FILE, STAGING_SUFFIX, Study
from cli import app

# Each analysis on a small sample: its function, the arguments of the stored (old) result, those
# of the redo asked for with fresh, and the table it stores.
STUDIES = {
    "compare": (compare.compare, {"rules": ["classic", "short"], "games": 20, "players": "heuristic"},
                {"rules": ["classic", "short"], "games": 30, "players": "heuristic"}, compare.TABLE_FILE),
    "tournament": (tournament.tournament, {"players": ["heuristic", "random", "heuristic"], "games": 20},
                   {"players": ["heuristic", "random", "heuristic"], "games": 30}, tournament.TABLE_FILE),
    "barrel": (barrel.tables_barrel, {"rules": ["classic", "online"], "games": 20, "players": "heuristic"},
               {"rules": ["classic", "online"], "games": 30, "players": "heuristic"}, barrel.TABLE_FILE),
    "marriages": (odds.tables_marriages, {"deals": 500, "play_deals": 20, "players": "heuristic"},
                  {"deals": 500, "play_deals": 30, "players": "heuristic"}, odds.TABLE_FILE),
    "strategy": (strategy_study.strategy, {"games": 6, "deals": 20, "players": "heuristic"},
                 {"games": 8, "deals": 20, "players": "heuristic"}, strategy_study.TABLE_FILE),
    "win_chances": (wc.win_chances, {"games": 20, "players": "heuristic"},
                    {"games": 30, "players": "heuristic"}, wc.TABLE_FILE),
}


class Killed(BaseException):
    """The command killed at this point (nothing of ours catches it, as nothing catches SIGKILL)."""


def killed(*_args, **_kwargs):
    raise Killed


class RenamesThenKilled:
    """``os`` for ``analysis.study``, whose ``rename`` kills the command after ``n`` renames:
    a kill in the middle of a swap."""

    def __init__(self, n: int):
        self.left = n

    def rename(self, src, dst):
        if not self.left:
            raise Killed
        self.left -= 1
        os.rename(src, dst)

    def __getattr__(self, name):
        return getattr(os, name)


def interrupted(monkeypatch, function, kwargs: dict, point: str) -> None:
    """Run ``function(**kwargs)`` killed at ``point``: "played" (once its first runs are played,
    before its table), "before the swap" (the new table stored beside the old), "in the swap"
    (after one entry moved)."""
    if point == "played":
        from sim import runs

        play_runs = runs.play_runs

        def then_killed(*args, **kw):
            play_runs(*args, **kw)
            raise Killed

        monkeypatch.setattr(runs, "play_runs", then_killed)
        monkeypatch.setattr(study, "play_runs", then_killed)  # the pipeline of the played studies
    elif point == "before the swap":
        monkeypatch.setattr(Study, "commit", killed)
    else:
        monkeypatch.setattr(study, "os", RenamesThenKilled(1))
    with pytest.raises(Killed):
        function(**kwargs)
    monkeypatch.undo()


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if STAGING_SUFFIX in p.name or ".replaced" in p.name)


# ---- item 3: an interrupted --fresh loses nothing ------------------------------------------------
@pytest.mark.parametrize("name, point", [
    *[("compare", point) for point in ("played", "before the swap", "in the swap")],
    *[(name, "played") for name in STUDIES if name != "compare"],
    ("barrel", "in the swap"), ("marriages", "before the swap"),
])
def test_an_interrupted_fresh_keeps_the_old_result_and_the_redo_resumes(tmp_path, monkeypatch, name, point):
    function, old, new, table = STUDIES[name]
    out, clean = tmp_path / "o", tmp_path / "clean"
    function(**old, out=out)
    before = (out / table).read_bytes()
    interrupted(monkeypatch, function, {**new, "out": out, "fresh": True}, point)
    if point == "in the swap":
        # Committed: the next command on the folder finishes the swap, whatever it asks; the old
        # arguments are then refused in one line, as for any table of other arguments.
        with pytest.raises(StaleResultError, match="other arguments"):
            function(**old, out=out)
        assert leftovers(out) == []
    else:
        # The old command still reads the old result, whole: the runs were replaced one at a time
        # (compare's first rule set's run held the new arguments), and the old command was refused.
        function(**old, out=out)
        assert (out / table).read_bytes() == before
    function(**new, out=out, fresh=True)  # resumes (or reads) the redo
    function(**new, out=clean)
    assert (out / table).read_bytes() == (clean / table).read_bytes()
    assert leftovers(out) == []
    function(**new, out=out)  # and it is this command's result now


def test_a_redo_left_by_other_arguments_is_discarded_not_mixed(tmp_path, monkeypatch):
    function, old, new, table = STUDIES["compare"]
    out, clean = tmp_path / "o", tmp_path / "clean"
    function(**old, out=out)
    interrupted(monkeypatch, function, {**new, "out": out, "fresh": True}, "before the swap")
    other = {**new, "games": 24}
    function(**other, out=out, fresh=True)
    function(**other, out=clean)
    assert (out / table).read_bytes() == (clean / table).read_bytes()
    assert leftovers(out) == []


def test_a_redo_carries_the_runs_it_shares_with_the_old_result(tmp_path, monkeypatch):
    # compare classic short, then classic long with --fresh: the classic run is the same run, so
    # it is carried into the redo, not played again (progress starts from its games).
    out = tmp_path / "o"
    compare.compare(rules=["classic", "short"], games=20, players="heuristic", out=out)
    seen = []
    compare.compare(rules=["classic", "long"], games=20, players="heuristic", out=out, fresh=True,
                    progress=lambda stage, done, total: seen.append(done))
    assert seen[0] == 20
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["1-classic", "2-long", "2-short"]


# ---- item 14: a damaged table is rebuilt from its runs -------------------------------------------
@pytest.mark.parametrize("name", ["compare", "tournament", "barrel", "marriages"])
def test_a_bit_flipped_in_a_table_is_rebuilt_from_its_runs(tmp_path, name):
    # It was "made with other arguments: it differs in the rules (rddeal_four_nines ...)", an
    # option that does not exist, and --fresh was asked for although the runs were intact.
    function, old, _, table = STUDIES[name]
    out = tmp_path / "o"
    function(**old, out=out)
    good = (out / table).read_bytes()
    at = good.index(b"redeal_four_nines") + 1
    (out / table).write_bytes(good[:at] + bytes([good[at] ^ 0x01]) + good[at + 1:])  # "rddeal_four_nines"
    function(**old, out=out)
    assert (out / table).read_bytes() == good


# ---- item 15: a current result is read, not rewritten --------------------------------------------
def stamps(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("args", [
    ["compare", "classic", "short", "--games", "20", "--players", "heuristic"],
    ["tables", "barrel", "--rules", "classic", "--rules", "online", "--games", "20", "--players", "heuristic"],
    ["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--min-n", "1"],
])
def test_a_current_result_is_read_without_writing(tmp_path, monkeypatch, args):
    # On a read-only file system these were refused, tables bids after printing the whole table:
    # each rerun rewrote the table and the plot.
    out = tmp_path / "o"
    runner = CliRunner()
    first = runner.invoke(app, [*args, "--out", str(out)])
    assert first.exit_code == 0, first.output
    before = stamps(out)

    def read_only(*_args, **_kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    # What writes a table or a plot fails as a read-only mount would.
    monkeypatch.setattr("sim.runs.write_atomic_bytes", read_only)
    monkeypatch.setattr("sim.runs.folder.write_atomic_bytes", read_only)  # behind write_bytes_if_different
    monkeypatch.setattr(study, "write_atomic_bytes", read_only)  # as the pipeline of the played studies has it
    monkeypatch.setattr(Path, "write_bytes", read_only)
    again = runner.invoke(app, [*args, "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert stamps(out) == before


# ---- item 16c: a run that lost its spec ----------------------------------------------------------
def test_a_run_without_its_spec_is_named_in_the_users_terms(tmp_path):
    runner = CliRunner()
    out = tmp_path / "o"
    args = ["compare", "classic", "short", "--games", "20", "--players", "heuristic", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    good = (out / compare.TABLE_FILE).read_bytes()
    (out / "runs" / "2-short" / "run.json").unlink()
    before = snapshot(out)
    line = one_error_line(runner.invoke(app, args))
    # It was "--out o: runs/2-short/ is not empty and holds no run.json; choose an empty or new
    # directory", for a folder the user never named.
    assert line == (f"error: the comparison stored in --out {out} has a damaged run, runs/2-short (its run.json is "
                    "missing, so what it holds cannot be verified); give --fresh to play it again, or choose another "
                    "--out")
    assert snapshot(out) == before
    assert runner.invoke(app, [*args, "--fresh"]).exit_code == 0
    assert (out / compare.TABLE_FILE).read_bytes() == good
    assert (out / "runs" / "2-short" / "run.json").is_file() and leftovers(out) == []


def test_the_commit_names_what_moves(tmp_path, monkeypatch):
    # The swap's list is written before anything moves: what a later command finishes.
    function, old, new, _ = STUDIES["compare"]
    out = tmp_path / "o"
    function(**old, out=out)
    monkeypatch.setattr(Study, "_swap", killed)
    with pytest.raises(Killed):
        function(**new, out=out, fresh=True)
    record = (out / f".compare{STAGING_SUFFIX}" / COMMIT_FILE).read_text()
    assert "runs/1-classic" in record and "compare.parquet" in record and "compare.png" in record
