"""Every command's text at 80 columns: no line wider, the answer first, and ``--wide`` the same
numbers with every column (the narrow text leaves columns out and wraps lines, never changes a
number). Small sizes, as the commands' own tests run them; the report's lines are checked in
``tests/analysis/report/test_build.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis.present.layout import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, Column, Span, fit, table, terminal_width
from cli import app

HAND = "AH TH KH QH AS 9C JD"
RECORD = str(Path(__file__).resolve().parent.parent / "examples" / "records" / "defmar.txt")
# (command line, what its first line starts with: the answer or the finding)
COMMANDS = {
    "rules": (["rules"], r"\d+ house rules: "),
    "rules show": (["rules", "show", "short"], "short: 2 rules changed from classic: "),
    "bid": (["bid", HAND, "--seat", "second", "--samples", "40", "--no-progress"], "answer: bid to "),
    "bid, cannot bid": (["bid", "9S 9C JD QD KH 9H TS", "--samples", "40", "--no-progress"], "answer: "),
    "simulate": (["simulate", "--games", "6", "--players", "heuristic", "--out", "run", "--no-progress"],
                 "deals with a declarer: "),
    "solve": (["solve", "AS TS KH QH | 9H JH 9C JC | AH TH AC TC", "--won", "0"], "value 142"),
    "tables marriages": (["tables", "marriages", "--deals", "500", "--play-deals", "30", "--players", "heuristic",
                          "--out", "m"], "marriage odds: exact"),
    "tables bids": (["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--min-n", "1", "--out", "tb"],
                    "bid-success tables: "),
    "tables barrel": (["tables", "barrel", "--games", "8", "--players", "heuristic", "--rules", "classic", "--rules",
                       "short", "--rules", "long", "--out", "b"], "barrel survival "),
    "tables strategy": (["tables", "strategy", "--games", "8", "--deals", "100", "--players", "heuristic", "--out",
                         "s"], "findings "),
    "tables win-chances": (["tables", "win-chances", "--games", "20", "--players", "heuristic", "--out", "w"],
                           "chance of winning the game "),
    "compare": (["compare", "classic", "short", "long", "--games", "8", "--players", "heuristic", "--out", "c"],
                r"\d+ of \d+ differences significant"),
    "tournament": (["tournament", "heuristic", "random", "random", "--games", "6", "--out", "t"],
                   "first: 1-heuristic, win share "),
    "infer": (["infer", RECORD, "--seat", "third", "--at", "trick:3"], "third's view at trick:3: 8 hidden cards"),
}
NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*%?")  # a number, without the punctuation after it


def _run(args: list[str], columns: int = DEFAULT_WIDTH) -> list[str]:
    res = CliRunner().invoke(app, args, env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_fits_80_columns_and_starts_with_its_answer(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short relative paths: a printed path is never broken
    args, first = COMMANDS[name]
    lines = _run(args)
    wider = [ln for ln in lines if len(ln) > DEFAULT_WIDTH]
    assert not wider, "\n".join(wider)
    assert re.match(first, lines[0]), lines[:3]
    wide = _run([*args, "--wide"])  # the same stored result (or seed) again: every column, nothing wrapped
    assert set(NUMBER.findall("\n".join(lines))) <= set(NUMBER.findall("\n".join(wide)))
    assert re.match(first, wide[0]), wide[:3]
    if name == "bid":  # the full tables only with --wide
        assert any(ln.startswith("contract  learned p_make") for ln in wide)
        assert not any(ln.startswith("contract  learned p_make") for ln in lines)
        assert max(map(len, wide)) > DEFAULT_WIDTH


def test_runs_combine_fits(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for seed in (1, 2):
        _run(["simulate", "--games", "4", "--players", "heuristic", "--seed", str(seed), "--out", f"r{seed}",
              "--no-progress"])
    lines = _run(["runs", "combine", "r1", "r2", "--out", "c"])
    assert lines[0].startswith("combined 2 runs into c: 8 games") and max(map(len, lines)) <= DEFAULT_WIDTH


def test_the_width_follows_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert terminal_width() == 100
    monkeypatch.setenv("COLUMNS", "20")
    assert terminal_width() == MIN_WIDTH
    monkeypatch.setenv("COLUMNS", "500")
    assert terminal_width() == MAX_WIDTH
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(None) == DEFAULT_WIDTH  # not a terminal: 80
    lines = _run(["rules"], columns=100)
    assert max(map(len, lines)) <= 100 and any(len(ln) > 80 for ln in lines)


def test_a_table_drops_its_least_needed_columns_then_wraps_its_label():
    columns = [Column("name", "<"), Column("a", keep=2), Column("b", keep=1), Column("total")]
    rows = [["a long label that goes on and on", "1.000", "2.000", "3.000"], Span("a note across the table")]
    lines, dropped = table(columns, rows, None)
    assert dropped == [] and lines[1] == "  a long label that goes on and on  1.000  2.000  3.000"
    lines, dropped = table(columns, rows, 50)
    assert dropped == ["b"] and lines[1] == "  a long label that goes on and on  1.000  3.000"
    lines, dropped = table(columns, rows, 30)
    assert dropped == ["a", "b"] and all(len(ln) <= 30 for ln in lines)
    assert lines[1:4] == ["  a long label that      3.000", "   goes on and on", "  a note across the table"]
    assert fit(["  one two three four five six"], 14) == ["  one two", "    three four", "    five six"]
    assert fit(["x" * 40], 14) == ["x" * 40]  # a word (a path) is never broken
