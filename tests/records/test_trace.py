"""Records of simulated deals (``sim.records.trace``, ``thousand simulate --records``): the chunk
played again deal by deal holds the very deals the run stored, and every record replays legal
through the engine and scores as the run scored it."""

from __future__ import annotations

import pytest

from sim import InputError
from sim.engine import BatchSpec, play_chunk
from sim.game.cards import format_card
from sim.game.rules import load_rules
from sim.records import RecordError, check_records, read_records
from sim.records.trace import trace_chunk
from sim.runs.simulate import simulate


@pytest.mark.parametrize("mode, n, chunk", [("deals", 30, 10), ("games", 2, 1)])
def test_the_records_are_the_runs_deals(mode, n, chunk):
    spec = BatchSpec(mode=mode, n=n, rules=load_rules("classic"), players=("heuristic",), seed=7, chunk_size=chunk)
    for index in range(spec.n_chunks):
        deals, _games = play_chunk(spec, index)
        records = list(trace_chunk(spec, index))  # each replayed through the engine, or EngineError
        assert len(records) == deals.height
        for row, rec in zip(deals.iter_rows(named=True), records, strict=True):
            seats = [(row["dealer"] + 1 + p) % 3 for p in range(3)]
            assert rec.hands == tuple(row[f"hand{e}"] for e in seats)
            assert rec.talon == row["talon"]
            assert rec.result == tuple(row[f"change{e}"] for e in seats)
            if row["declarer"] >= 0 and not row["conceded"]:
                played = [format_card(p.card) for t in rec.tricks for p in t]
                assert played == [format_card(c & 31) for c in row["plays"]]
            # the last call of each seat is the bid the run stored for it
            last = [0, 0, 0]
            for call in rec.auction:
                if call.bid > 0:
                    last[call.seat] = call.bid
            assert last == [row[f"bid{e}"] for e in seats]


def test_simulate_stores_every_deals_record_beside_the_run(tmp_path):
    out = tmp_path / "run"
    assert simulate(deals=40, seed=2, out=out, progress=False, records=True) is None
    lines = (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 40
    verdicts = check_records(path=out / "records.jsonl")
    assert all(v.recorded and v.line.startswith("legal; scores as recorded") for v in verdicts)
    assert read_records(path=out / "records.jsonl")[0].label == "seed 2, game 0, deal 0"
    # the folder still holds this very run: a rerun reuses it, the records file is the run's own
    before = (out / "records.jsonl").read_bytes()
    assert simulate(deals=40, seed=2, out=out, progress=False) is None
    assert (out / "records.jsonl").read_bytes() == before


def test_records_of_rules_that_are_no_preset_name_the_rules_file_written_beside_them(tmp_path):
    house = load_rules("online").__class__(bolt_penalty=100, barrel=900, marriage_values=(40, 60, 80, 120))
    out = tmp_path / "run"
    assert simulate(deals=12, rules=house, seed=5, out=out, progress=False, records=True) is None
    assert load_rules(out / "rules.toml") == house
    records = read_records(path=out / "records.jsonl")
    assert len(records) == 12 and {r.rules for r in records} == {"rules.toml"}
    verdicts = check_records(path=out / "records.jsonl")  # the file is read from the records' folder
    assert all(v.recorded and v.line.startswith("legal; scores as recorded") for v in verdicts)
    # a record moved away from its rules file is refused in one line naming the file
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "records.jsonl").write_bytes((out / "records.jsonl").read_bytes())
    with pytest.raises(RecordError, match="rules 'rules.toml' is neither a preset"):
        check_records(path=alone / "records.jsonl")


def test_records_of_two_player_rules_are_refused_before_anything_runs(tmp_path):
    with pytest.raises(InputError, match="--records: a record holds a 3-player deal"):
        simulate(deals=5, rules=load_rules("classic").__class__(players=2), out=tmp_path / "run", records=True)
    assert not (tmp_path / "run").exists()
