"""Issue 43: folders given to write into that are not what they seem. A ``.lock`` that is a
symbolic link, a folder or a pipe is refused in one line, the file a link points to untouched (items
1 and 16a); a training ``--out`` where nothing can be made is one line (16b); the report's ``--out``
is checked before any work, the current folder is never replaced, and an ``--out`` that is a link
to a report replaces that report and keeps the link (11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_checks import read_only, refused
from typer.testing import CliRunner

from analysis.report import build as report
from analysis.report.build import build_report
from analysis.report.plan import Sizes
from cli import app

PRECIOUS = b"a file of the user's, which a lock must never write into\n"
# Each command that locks the folder it writes, with the option that names it ({tmp}: the test's folder).
LOCKERS = {
    "simulate": (["simulate", "--games", "10", "--chunk-size", "5", "--no-progress"], "--out"),
    "tables bids": (["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--min-n", "1"], "--out"),
    "train": (["train", "--quick", "--no-progress"], "--out"),
    "report": (["report", "--quick", "--out", "{tmp}/rep"], "--data"),
}
TINY = Sizes(bid_deals=20, pimc_deals=2, marriage_deals=300, marriage_play_deals=40, barrel_games=12,
             compare_games=12, tournament_games=6, min_n=1, strategy_games=4, strategy_deals=60,
             situation_deals=10)
RULES = ["classic", "short"]


def _invoke(args: list):
    return CliRunner().invoke(app, [str(a) for a in args])


def _make_lock(folder: Path, kind: str, target: Path) -> None:
    """Put in ``folder`` a ``.lock`` of ``kind``: a link to ``target``, a folder, or a named pipe."""
    lock = folder / ".lock"
    if kind == "link":
        lock.symlink_to(target)
    elif kind == "folder":
        lock.mkdir()
    else:
        os.mkfifo(lock)


# ---- items 1 and 16a: a .lock that is not a lock file ----------------------------------------------
@pytest.mark.parametrize("kind, words", [("link", "is a symbolic link"), ("folder", "is a folder"),
                                         ("pipe", "is a special file")])
@pytest.mark.parametrize("command", list(LOCKERS))
def test_a_lock_that_is_not_a_file_is_refused_and_a_link_never_followed(tmp_path, command, kind, words):
    args, option = LOCKERS[command]
    folder, target = tmp_path / "held", tmp_path / "precious.txt"
    folder.mkdir()
    target.write_bytes(PRECIOUS)
    _make_lock(folder, kind, target)
    res = _invoke([*(a.replace("{tmp}", str(tmp_path)) for a in args), option, folder])
    line = refused(res, f"{option} {folder}: {folder / '.lock'} {words}", "move it away")
    assert line == (f"error: {option} {folder}: {folder / '.lock'} {words}, not a lock file (a command locks the "
                    "folder with that name, and nothing was written through it); move it away and run the same "
                    "command again")
    assert target.read_bytes() == PRECIOUS
    assert [p.name for p in folder.iterdir()] == [".lock"]
    assert (folder / ".lock").is_symlink() == (kind == "link")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["held", "precious.txt"]


# ---- item 16b: a training folder where nothing can be made -----------------------------------------
def test_train_out_where_no_folder_can_be_made_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("mine")
    line = refused(_invoke(["train", "--quick", "--no-progress", "--out", "/proc/thousand-training"]))
    assert line == "error: --out /proc/thousand-training: cannot create the directory: no such file or directory"
    line = refused(_invoke(["train", "--quick", "--no-progress", "--out", tmp_path / "a-file" / "t"]))
    assert line == f"error: --out {tmp_path / 'a-file' / 't'}: a part of the path is a file, not a directory"
    assert (tmp_path / "a-file").read_text() == "mine"


# ---- item 11: the report's --out ------------------------------------------------------------------------
@pytest.mark.parametrize("out, words", [(".", "is the current folder"), ("..", "holds the current folder")])
def test_report_out_that_is_the_current_folder_is_refused(tmp_path, monkeypatch, out, words):
    here = tmp_path / "here"
    here.mkdir()  # empty: an empty --out is replaced, but never the folder the user stands in
    monkeypatch.chdir(here)
    line = refused(_invoke(["report", "--quick", "--out", out, "--data", tmp_path / "d"]))
    assert line == (f"error: --out {out} {words}, which the report would replace whole; give a folder of its own, "
                    "such as --out reports/report")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"] and not any(here.iterdir())


def test_a_refused_report_leaves_no_default_data_folder(tmp_path, monkeypatch):
    """Without --data the report stores under out/report-VERSION of the current folder; a refusal
    removes every folder it made for that (0.9.0 left an empty ``out`` behind)."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    refused(_invoke(["report", "--quick", "--out", "/proc/thousand-report"]))
    assert not any(here.iterdir())


def test_report_out_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    """Under /proc, under a file, in a read-only folder: one line before a section is computed (the
    --data folder is not even kept), where 0.9.0 computed every section and failed on the last write."""
    data = tmp_path / "d"
    (tmp_path / "a-file").write_text("mine")
    cases = {"/proc/thousand-report": "--out /proc/thousand-report: cannot create a directory in /proc: no such "
                                      "file or directory",
             str(tmp_path / "a-file" / "rep"): f"--out {tmp_path / 'a-file' / 'rep'}: a part of the path is a file, "
                                               "not a directory"}
    for out, expected in cases.items():
        assert refused(_invoke(["report", "--quick", "--out", out, "--data", data])) == f"error: {expected}"
        assert not data.exists()
    locked = tmp_path / "ro"
    locked.mkdir()
    with read_only(locked):
        line = refused(_invoke(["report", "--quick", "--out", locked / "rep", "--data", data]))
    reason = "the file system is read-only" if os.geteuid() == 0 else "no permission to write there"
    assert line == f"error: --out {locked / 'rep'}: cannot create a directory in {locked}: {reason}"
    assert not data.exists() and not any(locked.iterdir())


def test_report_out_that_is_a_link_replaces_the_report_it_points_to(tmp_path):
    """The link is kept, the report it points to is replaced, and nothing is left beside either
    (0.9.0 replaced the link by a folder and left it as ``.NAME.old-PID`` for good)."""
    out, data, link = tmp_path / "rep", tmp_path / "data", tmp_path / "latest"
    build_report(rules=RULES, out=out, data=data, sizes=TINY, quick=True)
    made = (out / report.REPORT_MD).read_text()
    (out / report.REPORT_MD).write_text("# an older report")
    link.symlink_to(out)
    assert build_report(rules=RULES, out=link, data=data, sizes=TINY, quick=True) == link / report.REPORT_HTML
    assert link.is_symlink() and link.readlink() == out
    assert (out / report.REPORT_MD).read_text() == made
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "latest", "rep"]
