"""The Python face: ``import thousand`` offers the analyses, their results, the rules and the
players, each documented; and the README's notebook example runs as written."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
from pathlib import Path

import polars as pl

import thousand

ROOT = Path(__file__).resolve().parent.parent
ANALYSES = {"compare": thousand.Comparison, "tournament": thousand.TournamentResult,
            "tables_bids": thousand.BidTable, "tables_marriages": thousand.MarriageOdds,
            "tables_barrel": thousand.BarrelStats, "advise": thousand.Advice, "summarize_run": thousand.RunSummary}


def test_every_name_is_there_and_documented():
    for name in thousand.__all__:
        obj = getattr(thousand, name)
        if callable(obj) and not isinstance(obj, type(thousand.Progress)):
            assert inspect.getdoc(obj), f"thousand.{name} has no docstring"


def test_analyses_are_keyword_only_and_return_frozen_results():
    for name, result in ANALYSES.items():
        sig = inspect.signature(getattr(thousand, name))
        positional = [p for p in sig.parameters.values() if p.kind is not p.KEYWORD_ONLY]
        assert not positional, f"{name} takes {[p.name for p in positional]} by position"
        assert "as_json" not in sig.parameters, f"{name} still has as_json"
        assert sig.return_annotation in (result.__name__, result), f"{name} returns {sig.return_annotation}"
        assert dataclasses.is_dataclass(result) and result.__dataclass_params__.frozen, f"{result} is not frozen"
        assert hasattr(result, "to_dict") and hasattr(result, "to_polars"), f"{result} lacks to_dict or to_polars"


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- notebook example[^>]*-->\n```python\n(.*?)```", text, re.S)
    assert match, "the README's notebook example is missing"
    return match.group(1)


def test_the_readme_notebook_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {}
    exec(compile(readme_example(), "README.md (notebook example)", "exec"), namespace)  # noqa: S102
    table, wins = namespace["table"], namespace["wins"]
    assert isinstance(table, pl.DataFrame) and table.height > 10
    assert wins.height == 3 and wins["ci_low"].le(wins["diff"]).all() and wins["diff"].le(wins["ci_high"]).all()
    assert (tmp_path / "win-rate-by-seat.png").stat().st_size > 5_000
    stored = pl.read_parquet(tmp_path / "out" / "notebook" / "compare.parquet")
    assert stored.equals(table)
    assert os.listdir(tmp_path / "out" / "notebook")  # the runs and the table stay there for a rerun
