"""The Python face: ``import thousand`` offers the analyses, their results, the rules and the
players, each documented; and the README's notebook example runs as written."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
from pathlib import Path

import polars as pl
import pytest
from cli_checks import snapshot

import thousand

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "examples" / "records" / "defmar.txt")
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


# Issue 43 item 6: every public function checks its arguments before it reads, plays or writes
# anything: a wrong type or value is an InputError naming the argument, and ``out`` is left as it
# was. (function, keyword arguments, the argument the refusal must name); "OUT" stands for the
# test's output folder, "BAD_RULES" for a HouseRules record no rules file could give.
HAND = "AH TH KH QH AS 9C JD"
BAD_RULES = thousand.HouseRules(min_bid=-5)
REFUSED = [
    ("advise", {"hand": HAND, "rules": BAD_RULES}, "rules"),
    ("advise", {"hand": HAND, "rules": thousand.HouseRules(dump_truck="no")}, "dump_truck"),
    ("advise", {"hand": HAND, "samples": "20"}, "samples"),
    ("advise", {"hand": 5.5}, "hand"),
    ("advise", {"hand": HAND, "methods": 5}, "methods"),
    ("advise", {"hand": HAND, "seed": 1.5}, "seed"),
    ("advise", {"hand": HAND, "risk": "0.3"}, "risk"),
    ("advise", {"hand": HAND, "on_barrel": "no"}, "on_barrel"),
    ("advise", {"hand": HAND, "score": "100"}, "score"),
    ("advise", {"hand": HAND, "progress": 5}, "progress"),
    ("advise", {"hand": HAND, "rules": 5}, "rules"),
    ("tables_bids", {"deals": 10, "rules": BAD_RULES, "out": "OUT"}, "rules"),
    ("tables_bids", {"deals": "10", "out": "OUT"}, "deals"),
    ("tables_bids", {"deals": 10.5, "out": "OUT"}, "deals"),
    ("tables_bids", {"deals": 10, "out": 5}, "out"),
    ("tables_bids", {"deals": 10, "seed": -1, "out": "OUT"}, "seed"),
    ("tables_bids", {"deals": 10, "worlds": "3", "out": "OUT"}, "worlds"),
    ("tables_bids", {"deals": 10, "fresh": "yes", "out": "OUT"}, "fresh"),
    ("tables_marriages", {"deals": 10.5, "out": "OUT"}, "deals"),
    ("tables_marriages", {"deals": 10, "play_deals": 5, "play_rules": "classic", "out": "OUT"}, "play_rules"),
    ("tables_marriages", {"deals": 10, "play_deals": 5, "players": ["heuristic"], "out": "OUT"}, "players"),
    ("tables_marriages", {"deals": 10, "rules": BAD_RULES, "out": "OUT"}, "rules"),
    ("tables_marriages", {"deals": 10, "run": 5, "out": "OUT"}, "run"),
    ("tables_marriages", {"deals": 10, "out": 5}, "out"),
    ("tables_barrel", {"games": 10, "rules": "classic", "out": "OUT"}, "rules"),
    ("tables_barrel", {"games": 10, "rules": [BAD_RULES], "out": "OUT"}, "rules"),
    ("tables_barrel", {"games": "10", "rules": ["classic"], "out": "OUT"}, "games"),
    ("tables_barrel", {"games": 10, "rules": ["classic"], "seed": -1, "out": "OUT"}, "seed"),
    ("compare", {"rules": "classic", "games": 10, "out": "OUT"}, "rules"),
    ("compare", {"rules": ["classic", 5], "games": 10, "out": "OUT"}, "rules"),
    ("compare", {"rules": ["classic", "online"], "games": 10.5, "out": "OUT"}, "games"),
    ("compare", {"rules": ["classic", "online"], "games": 10, "players": ["heuristic"], "out": "OUT"}, "players"),
    ("compare", {"rules": ["classic", "online"], "games": 10, "out": 5}, "out"),
    ("tournament", {"games": "10", "out": "OUT"}, "games"),
    ("tournament", {"deals": 2.5, "out": "OUT"}, "deals"),
    ("tournament", {"games": 10, "players": "heuristic", "out": "OUT"}, "players"),
    ("tournament", {"games": 10, "rules": BAD_RULES, "out": "OUT"}, "rules"),
    ("tournament", {"games": 10, "out": 5}, "out"),
    ("simulate", {"games": 10, "rules": BAD_RULES, "out": "OUT"}, "rules"),
    ("simulate", {"games": "10", "out": "OUT"}, "games"),
    ("simulate", {"deals": 10.5, "out": "OUT"}, "deals"),
    ("simulate", {"games": 10, "seed": "1", "out": "OUT"}, "seed"),
    ("simulate", {"games": 10, "players": ["heuristic"], "out": "OUT"}, "players"),
    ("simulate", {"games": 10, "progress": "no", "out": "OUT"}, "progress"),
    ("simulate", {"games": 10, "out": 5}, "out"),
    ("summarize_run", {"run": 5}, "run"),
    ("summarize_run", {"run": None}, "run"),
    ("build_report", {"rules": "classic", "out": "OUT"}, "rules"),
    ("build_report", {"seed": "1", "out": "OUT", "data": "OUT"}, "seed"),
    ("build_report", {"quick": "yes", "out": "OUT", "data": "OUT"}, "quick"),
    ("build_report", {"out": 5, "data": "OUT"}, "out"),
    ("build_report", {"out": "OUT", "data": 5}, "data"),
    ("load_rules", {"spec": 5}, "rules"),
    ("load_rules", {"spec": BAD_RULES}, "rules"),
    ("to_json", {"result": 5}, "result"),
    ("check_record", {"record": 5}, "record"),
    ("check_record", {"record": "no-such-record.txt"}, "record"),
    ("check_records", {"path": None}, "path"),
    ("read_records", {"path": 5}, "path"),
    ("parse_record_text", {"text": 5}, "text"),
    ("infer", {"record": 5, "seat": "first", "at": "auction"}, "record"),
    ("infer", {"record": "no-such-record.txt", "seat": "first", "at": "auction"}, "record"),
    ("infer", {"record": RECORD, "seat": "north", "at": "auction"}, "seat"),
    ("infer", {"record": RECORD, "seat": "first", "at": "trick:0"}, "at"),
    ("infer", {"record": RECORD, "seat": "first", "at": "auction", "worlds": "many"}, "worlds"),
    ("to_json", {"result": "text"}, "result"),
]


@pytest.mark.parametrize(("name", "kwargs", "argument"), REFUSED,
                         ids=[f"{name}-{argument}-{i}" for i, (name, _, argument) in enumerate(REFUSED)])
def test_a_wrong_argument_is_refused_naming_it_and_nothing_is_written(tmp_path, name, kwargs, argument):
    kept = tmp_path / "kept"  # a folder that holds something: left byte for byte as it was
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    new = tmp_path / "new"  # a folder that does not exist: not made
    for out in (kept, new):
        before = snapshot(tmp_path)
        given = {k: (out if v == "OUT" else v) for k, v in kwargs.items()}
        call = getattr(thousand, name)
        with pytest.raises(thousand.InputError) as refusal:
            call(*given.values()) if name in ("load_rules", "to_json") else call(**given)
        assert re.search(rf"\b{argument}\b", str(refusal.value)), str(refusal.value)
        if BAD_RULES in given.values():  # validated as a file's rules are, not taken for a file's name
            assert "'min_bid' = -5" in str(refusal.value), str(refusal.value)
        assert "\n" not in str(refusal.value)
        assert snapshot(tmp_path) == before and not new.exists()


def test_a_rules_record_is_played_as_given(tmp_path, engine_compiled):
    """A ``HouseRules`` built in Python is played (it was taken for a file name), and stored as given."""
    rules = thousand.HouseRules(must_head=True, target=555, barrel=440)
    assert thousand.simulate(deals=3, rules=rules, out=tmp_path / "run", progress=False) is None
    assert thousand.summarize_run(run=tmp_path / "run").rules == rules
