"""The one pipeline of a played study (``analysis.study``): a plan's runs played in its stages,
its table stored with its provenance, reused by the same plan, refused in one line for another
plan (the remedy and the fields' words written once) and redone beside the old result with
``fresh``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl
import pytest

from analysis.analysis_dir import read_table_metadata
from analysis.stored import StaleResultError
from analysis.study import FIELD_WORDS, REMEDY, Plan, Played, identity, run_study
from sim.engine import BatchSpec
from sim.game.rules import load_rules


@dataclasses.dataclass(frozen=True)
class Counted:
    """A study's result for the test: the finished games of each run."""

    finished: dict[str, int]
    provenance: dict

    def to_polars(self) -> pl.DataFrame:
        return pl.DataFrame({"run": list(self.finished), "finished": list(self.finished.values())})


def plan_of(out: Path, *, seed: int = 0) -> Plan:
    rules = load_rules("classic")
    specs = {label: BatchSpec(mode="games", n=4, rules=rules, players=("heuristic",) * 3, seed=seed, chunk_size=2)
             for label in ("first", "second")}
    return Plan(out=out, name="counted", table="counted.parquet", runs=specs,
                folders={label: f"runs/{label}" for label in specs}, provenance={"table": "counted", "seed": seed},
                identity=identity(table=None, seed="--seed"), what="the counted table",
                stage={"first": "first stage", "second": "second stage"}, each_finishes="run")


def counted(played: Played) -> Counted:
    return Counted(finished={label: done for label, (done, _) in played.finished.items()},
                   provenance={"table": "counted", "seed": 0})


def test_a_study_is_played_in_its_stages_stored_and_reused(tmp_path):
    out = tmp_path / "o"
    stages = []
    result = run_study(plan_of(out), counted, progress=lambda stage, done, total: stages.append(stage))
    assert list(dict.fromkeys(stages)) == ["first stage", "second stage"]  # each stage's runs together, in turn
    assert set(result.finished) == {"first", "second"} and all(0 < n <= 4 for n in result.finished.values())
    table = out / "counted.parquet"
    assert pl.read_parquet(table)["run"].to_list() == ["first", "second"]
    assert read_table_metadata(table) == {"table": "counted", "seed": 0}
    stamp = table.stat().st_mtime_ns
    again = run_study(plan_of(out), counted)  # the same plan: the runs reused, the same bytes not rewritten
    assert again == result and table.stat().st_mtime_ns == stamp


def test_another_plan_is_refused_in_one_line_and_fresh_redoes_it_beside(tmp_path):
    out = tmp_path / "o"
    run_study(plan_of(out), counted)
    before = (out / "counted.parquet").read_bytes()

    def seeded(played: Played) -> Counted:
        return dataclasses.replace(counted(played), provenance={"table": "counted", "seed": 1})

    with pytest.raises(StaleResultError) as refused:
        run_study(plan_of(out, seed=1), seeded)
    line = str(refused.value)
    assert "\n" not in line and REMEDY in line and FIELD_WORDS["seed"] in line and f"--out {out}" in line
    assert (out / "counted.parquet").read_bytes() == before  # refused untouched
    run_study(plan_of(out, seed=1), seeded, fresh=True)
    assert json.loads(json.dumps(read_table_metadata(out / "counted.parquet"))) == {"table": "counted", "seed": 1}
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # the redo swapped in, nothing left beside


def test_identity_words_each_field_once():
    assert identity(table=None, games="--games") == {"table": ("the kind of table", None),
                                                      "games": ("the sizes", "--games")}
    with pytest.raises(KeyError):
        identity(colour=None)  # a field no refusal has words for


def test_a_table_holding_its_whole_result_is_read_back_without_a_run_read(tmp_path):
    """``Plan.metadata`` stores what a study reads back besides its rows; ``Plan.reuse`` reads a
    current, intact table back as the result (no measure, no play); a table it cannot read back,
    a damaged one and ``fresh`` are measured again."""
    out = tmp_path / "o"
    table = out / "counted.parquet"

    def read_back(path: Path) -> Counted | None:
        stored = read_table_metadata(path)
        if "summary" not in stored:
            return None
        return Counted(finished=stored["summary"], provenance={k: v for k, v in stored.items() if k != "summary"})

    plan = dataclasses.replace(plan_of(out), reuse=read_back,
                               metadata=lambda result: {**result.provenance, "summary": result.finished})
    measured = []

    def measure(played: Played) -> Counted:
        measured.append(played)
        return counted(played)

    result = run_study(plan, measure)
    assert read_table_metadata(table) == {"table": "counted", "seed": 0, "summary": result.finished}
    played = []
    assert run_study(plan, measure, progress=lambda *a: played.append(a)) == result
    assert len(measured) == 1 and not played  # read back: neither measured nor played
    run_study(plan, measure, fresh=True)
    assert len(measured) == 2  # fresh measures again
    table.write_bytes(table.read_bytes()[:-8] + b"damaged!")  # no longer the bytes its manifest records
    assert run_study(plan, measure) == result and len(measured) == 3  # a damaged table is made again
    run_study(plan_of(out), counted)  # stored without its summary
    assert run_study(plan, measure) == result and len(measured) == 4  # nothing to read back: measured again


def test_tables_beside_a_plan_with_no_runs_and_a_stored_identity(tmp_path):
    """``Plan.beside`` stores more tables with the same metadata (one a result has not is removed,
    manifest and all); a plan may play nothing; ``Plan.stored_identity`` compares a table whose
    metadata records its identity otherwise (here under "recorded"); ``Plan.strict`` False keeps
    a NaN in the metadata as ``json.dumps`` writes it."""
    out = tmp_path / "o"

    @dataclasses.dataclass(frozen=True)
    class Two:
        extra: bool
        provenance: dict

        def to_polars(self) -> pl.DataFrame:
            return pl.DataFrame({"x": [1]})

    def plan(extra: bool, seed: int = 0) -> Plan:
        return Plan(out=out, name="two", table="main.parquet", runs={}, folders={},
                    provenance={"table": "two", "seed": seed}, identity=identity(table=None, seed="--seed"),
                    what="the two tables", stage="nothing", runs_dir="",
                    beside={"extra.parquet": lambda r: pl.DataFrame({"y": [2]}) if r.extra else None},
                    stored_identity=lambda stored: {**stored, "seed": stored["recorded"]}, strict=False)

    def measure(extra: bool, seed: int = 0):
        return lambda played: Two(extra, {"table": "two", "recorded": seed, "spread": float("nan")})

    run_study(plan(True), measure(True))
    assert read_table_metadata(out / "extra.parquet") == read_table_metadata(out / "main.parquet")
    assert pl.read_parquet_metadata(out / "main.parquet")["spread"] == "NaN"
    assert (out / "extra.json").is_file()
    run_study(plan(False), measure(False))  # the same identity: no refusal; no extra table this time
    assert not (out / "extra.parquet").exists() and not (out / "extra.json").exists()
    with pytest.raises(StaleResultError, match="the seed"):  # compared on what stored_identity reads
        run_study(plan(False, seed=1), measure(False, seed=1))
    run_study(plan(True, seed=1), measure(True, seed=1), fresh=True)
    assert read_table_metadata(out / "extra.parquet")["recorded"] == 1
    assert sorted(p.name for p in out.iterdir()) == ["extra.json", "extra.parquet", "main.json", "main.parquet"]
