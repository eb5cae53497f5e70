"""Faults injected into the stored tables of ``tables bids``, ``tables marriages`` and ``report``
(issue 24, items 1, 2, 3, 5, 8, 13, 19 and 23, and the code fingerprint): each gets one line naming
what is wrong, a non-zero exit and the old files byte for byte as they were; or, where the store
can mend itself (a damaged bid table rebuilt from its parts) or the user asks with ``--fresh``, the
same result as a clean run."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.bids.parts import PARTS_DIR, PARTS_SPEC
from analysis.bids.table import TABLE_FILE, read_metadata
from analysis.report import build as report
from analysis.report.build import build_report
from analysis.report.plan import QUICK, Sizes
from analysis.stored import FINGERPRINT, manifest_path, write_manifest
from cli import app
from sim.fingerprint import code_fingerprint

BIDS = ["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--min-n", "1"]
MARRIAGES = ["tables", "marriages", "--deals", "300"]
OTHER_CODE = "0123456789abcdef"  # a fingerprint no code has


def _invoke(args: list[str]):
    return CliRunner().invoke(app, [str(a) for a in args])


def _refused(res, *words: str) -> str:
    """The one error line of a refused command (exit 2, no traceback), which names ``words``."""
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    errors = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in res.output, res.output
    for word in words:
        assert word in errors[0], (word, errors[0])
    return errors[0]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _set_metadata(path: Path, **changes) -> None:
    """Rewrite a Parquet file with some of its key-value metadata changed (as an editor would), and
    its manifest when it has one: a table made so, intact, not a damaged one."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    meta = {k: v for k, v in (pq.read_metadata(path).metadata or {}).items() if k != b"ARROW:schema"}
    meta.update({k.encode(): json.dumps(v).encode() for k, v in changes.items()})
    pq.write_table(table.replace_schema_metadata(meta), path)
    if manifest_path(path).exists():
        write_manifest(path)
    assert read_metadata(path)[next(iter(changes))] == next(iter(changes.values()))


def _flip_bit(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))


def _same_output(res, made, folder: Path, made_folder: Path) -> bool:
    """Whether two commands printed the same (on stdout: the progress lines go to stderr), the
    folders they were given aside."""
    return res.stdout.replace(str(folder), "OUT") == made.stdout.replace(str(made_folder), "OUT")


@pytest.fixture(scope="module")
def bid_table(tmp_path_factory):
    """A 20-deal bid table made by the command line, and what it printed."""
    out = tmp_path_factory.mktemp("bids") / "t"
    res = _invoke([*BIDS, "--out", out])
    assert res.exit_code == 0, res.output
    return out, res


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


# ---- tables bids ------------------------------------------------------------------------------------
def test_a_bit_flip_in_the_bid_table_is_found_and_mended_from_the_parts(bid_table, tmp_path):
    """Item 3: a one-bit change in bids.parquet's data is never "reused": the table is rebuilt from
    its verified parts, nothing played, and the same make-rates are printed."""
    first, made = bid_table
    out = _copy(first, tmp_path / "t")
    table = out / TABLE_FILE
    clean = table.read_bytes()
    _flip_bit(table, len(clean) // 3)
    res = _invoke([*BIDS, "--out", out])
    assert res.exit_code == 0, res.output
    assert "reused, nothing played" not in res.output and "changed or damaged" in res.output
    assert "(1 already played)" in res.output  # rebuilt from the stored part, not played again
    assert table.read_bytes() == clean and _same_output(res, made, out, first)
    # The table mended, the next run reuses it.
    again = _invoke([*BIDS, "--out", out])
    assert again.exit_code == 0 and "reused, nothing played" in again.output


def test_a_damaged_part_and_table_are_played_again(bid_table, tmp_path):
    out = _copy(bid_table[0], tmp_path / "t")
    clean = (out / TABLE_FILE).read_bytes()
    part = out / PARTS_DIR / "part-00000.parquet"
    _flip_bit(part, len(part.read_bytes()) // 2)
    (out / TABLE_FILE).write_bytes(b"PAR1 garbage")  # unreadable: its parts identify it
    res = _invoke([*BIDS, "--out", out])
    assert res.exit_code == 0, res.output
    assert "cannot be read" in res.output and "(0 already played)" in res.output
    assert (out / TABLE_FILE).read_bytes() == clean


def test_a_missing_manifest_means_the_table_is_not_trusted(bid_table, tmp_path):
    out = _copy(bid_table[0], tmp_path / "t")
    (out / "bids.json").unlink()
    res = _invoke([*BIDS, "--out", out])
    assert res.exit_code == 0 and "manifest bids.json is missing" in res.output and "reused" not in res.output
    assert (out / "bids.json").is_file()


def test_an_unreadable_table_without_parts_is_refused(bid_table, tmp_path):
    out = _copy(bid_table[0], tmp_path / "t")
    import shutil

    shutil.rmtree(out / PARTS_DIR)
    (out / TABLE_FILE).write_bytes(b"not a table")
    before = _files(out)
    _refused(_invoke([*BIDS, "--out", out]), "--out", "cannot be read", "--fresh")
    assert _files(out) == before


def test_other_arguments_on_the_same_out_are_refused(bid_table, tmp_path):
    """Item 5: another --deals (or seed, or rules) on the same --out never replaces the table
    silently; --fresh does, atomically."""
    out = _copy(bid_table[0], tmp_path / "t")
    before = _files(out)
    line = _refused(_invoke([*BIDS[:3], "30", *BIDS[4:], "--out", out]), "--out", "the sizes",
                    "--deals: 20 stored, 30 asked", "--fresh")
    assert "code" not in line.split("differs in")[-1]
    _refused(_invoke([*BIDS, "--rules", "short", "--out", out]), "the rules", "target")
    _refused(_invoke([*BIDS, "--seed", "4", "--out", out]), "the seed")
    assert _files(out) == before
    res = _invoke([*BIDS[:3], "30", *BIDS[4:], "--out", out, "--fresh"])
    assert res.exit_code == 0 and "replaced (--fresh)" in res.output
    assert read_metadata(out / TABLE_FILE)["sample_size"] == 30


def test_an_edited_fingerprint_is_refused_naming_the_code_and_fresh_redoes_it(bid_table, tmp_path):
    out = _copy(bid_table[0], tmp_path / "t")
    table = out / TABLE_FILE
    _set_metadata(table, code_fingerprint=OTHER_CODE)
    before = _files(out)
    _refused(_invoke([*BIDS, "--out", out]), "--out", "other code", OTHER_CODE, code_fingerprint("bids.table"),
             "--fresh")
    assert _files(out) == before
    res = _invoke([*BIDS, "--out", out, "--fresh"])
    assert res.exit_code == 0, res.output
    assert read_metadata(table)[FINGERPRINT] == code_fingerprint("bids.table")
    assert _same_output(res, bid_table[1], out, bid_table[0])  # the same table as a clean run


def test_parts_of_other_code_are_not_mixed_in(bid_table, tmp_path):
    """An interrupted build's parts record the code that played them: parts of other code are
    refused, and thrown away (played again) with --fresh."""
    out = _copy(bid_table[0], tmp_path / "t")
    (out / TABLE_FILE).unlink()  # as if interrupted before the table was written
    spec_file = out / PARTS_DIR / PARTS_SPEC
    spec = json.loads(spec_file.read_text())
    spec_file.write_text(json.dumps({**spec, FINGERPRINT: OTHER_CODE}))
    before = _files(out)
    _refused(_invoke([*BIDS, "--out", out]), "parts", "other code", OTHER_CODE)
    assert _files(out) == before
    res = _invoke([*BIDS, "--out", out, "--fresh"])
    assert res.exit_code == 0 and "(0 already played)" in res.output
    assert json.loads(spec_file.read_text())[FINGERPRINT] == code_fingerprint("bids.table")


def _rules_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("forced", [True, False])
def test_a_minimum_bid_above_the_cap_of_hands_without_a_marriage(tmp_path, forced):
    """Item 13: with min_bid = 125, hands without a marriage (cap 120) cannot bid: the table is
    made, summarised and reused; first hand's forced bid is the minimum (none when not forced)."""
    rules = _rules_file(tmp_path, "r.toml", f"min_bid = 125\nforced_first_bid = {str(forced).lower()}\n")
    out = tmp_path / "t"
    res = _invoke([*BIDS, "--rules", rules, "--out", out, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    capped = [r for r in data["cheat_sheet"] if r["bidding_cap"] < 125]
    assert capped  # 20 random deals always hold hands without a marriage
    for r in capped:
        # No line but passing (forced: the forced bid 125, then pass), nothing at any risk.
        assert r["bid_at_risk_0.3"] is None and all(s["bid"] is None for s in r["seats"])
        assert [len(s["lines"]) for s in r["seats"]] == [1, 1, 1]
        assert [s["forced"] for s in r["seats"]] == [forced, False, False]
    # The forced first hand's pass line is the forced bid: he declares 125 when nobody outbids him;
    # not forced, a hand that cannot bid never declares.
    df = pl.read_parquet(out / TABLE_FILE).filter(pl.col("bid_cap") < 125)
    declared = [(d[0], b[0]) for d, b in zip(df["first_declarer"], df["first_winning_bid"], strict=True)]
    assert any(d == 0 and b == 125 for d, b in declared) if forced else all(d != 0 for d, _ in declared)
    again = _invoke([*BIDS, "--rules", rules, "--out", out])  # the stored table reused and summarised as text
    assert again.exit_code == 0 and "reused, nothing played" in again.output and "cheat sheet" in again.stdout


# ---- tables marriages --------------------------------------------------------------------------------
def test_a_bid_table_of_other_rules_is_refused_naming_both(bid_table, tmp_path):
    """Item 8."""
    out = tmp_path / "m"
    bids = bid_table[0] / TABLE_FILE
    _refused(_invoke([*MARRIAGES, "--rules", "short", "--bids", bids, "--out", out]), "--bids", str(bids),
             "--rules short", "target 1000 in the table, 555 in short")
    assert not out.exists()
    res = _invoke([*MARRIAGES, "--bids", bids])
    assert res.exit_code == 0 and "what a marriage is worth" in res.stdout


def test_a_file_that_is_not_a_bid_table_is_one_line(tmp_path):
    """Item 19: --bids given a marriage table, or a file that is not Parquet at all."""
    m = tmp_path / "m"
    assert _invoke([*MARRIAGES, "--out", m]).exit_code == 0
    for path in (m / "marriages.parquet", _rules_file(tmp_path, "x.parquet", "hello")):
        _refused(_invoke([*MARRIAGES, "--bids", path]), f"--bids {path} is not a bid table (thousand tables bids")


def test_a_bid_table_of_other_code_or_damaged_is_refused(bid_table, tmp_path):
    damaged = _copy(bid_table[0], tmp_path / "damaged") / TABLE_FILE
    _flip_bit(damaged, len(damaged.read_bytes()) // 3)
    _refused(_invoke([*MARRIAGES, "--bids", damaged]), f"--bids {damaged}", "changed or damaged")
    other = _copy(bid_table[0], tmp_path / "other") / TABLE_FILE
    _set_metadata(other, code_fingerprint=OTHER_CODE)
    _refused(_invoke([*MARRIAGES, "--bids", other]), f"--bids {other}", "other code", OTHER_CODE)


def test_run_errors_name_the_run_option(bid_table, tmp_path):
    """Item 23: an error about --run names --run, never --out."""
    for run in (tmp_path / "none", bid_table[0]):
        line = _refused(_invoke([*MARRIAGES, "--run", run]), f"--run {run}")
        assert "--out" not in line


@pytest.fixture(scope="module")
def marriage_store(tmp_path_factory):
    out = tmp_path_factory.mktemp("marriages") / "m"
    args = [*MARRIAGES, "--play-deals", "60", "--out", out]
    res = _invoke(args)
    assert res.exit_code == 0, res.output
    return out, args, res


def test_a_marriage_table_of_other_arguments_is_refused(marriage_store, tmp_path):
    src, args, made = marriage_store
    out = _copy(src, tmp_path / "m")
    args = [out if a == src else a for a in args]
    before = _files(out)
    _refused(_invoke([*MARRIAGES[:3], "400", *args[4:]]), f"--out {out}", "the sizes", "--deals: 300 stored, 400 asked")
    _refused(_invoke([*args[:5], "80", *args[6:]]), f"--out {out}", "marriages in play", "sample_size")
    _refused(_invoke([*args, "--seed", "3"]), "the seed")
    assert _files(out) == before
    again = _invoke(args)  # the same arguments: the stored deals read again, the same table
    assert again.exit_code == 0 and _same_output(again, made, out, src)
    res = _invoke([*MARRIAGES[:3], "400", "--out", out, "--fresh"])  # no play: the table of play goes too
    assert res.exit_code == 0 and not (out / "marriages_in_play.parquet").exists()


def test_an_edited_marriage_fingerprint_is_refused_and_fresh_redoes_it(marriage_store, tmp_path):
    src, args, made = marriage_store
    out = _copy(src, tmp_path / "m")
    args = [out if a == src else a for a in args]
    _set_metadata(out / "marriages.parquet", code_fingerprint=OTHER_CODE)
    before = _files(out)
    _refused(_invoke(args), f"--out {out}", "other code", OTHER_CODE, code_fingerprint("marriages.odds"), "--fresh")
    assert _files(out) == before
    res = _invoke([*args, "--fresh"])
    assert res.exit_code == 0 and _same_output(res, made, out, src)
    assert read_metadata(out / "marriages.parquet")[FINGERPRINT] == code_fingerprint("marriages.odds")


def test_played_deals_of_other_code_are_refused(marriage_store, tmp_path):
    """The deals played for the marriages in play under --out: a run of other code is refused
    before anything is played, naming the option the user gave; --fresh plays them again."""
    src, args, made = marriage_store
    out = _copy(src, tmp_path / "m")
    args = [out if a == src else a for a in args]
    run_file = out / "marriage-play" / "run.json"
    run_file.write_text(json.dumps({**json.loads(run_file.read_text()), FINGERPRINT: OTHER_CODE}))
    before = _files(out)
    line = _refused(_invoke(args), f"--out {out}", "other code", OTHER_CODE, "--fresh")
    assert line.index(f"--out {out}") < line.index("marriage-play")
    assert _files(out) == before
    res = _invoke([*args, "--fresh"])
    assert res.exit_code == 0 and _same_output(res, made, out, src)
    assert json.loads(run_file.read_text())[FINGERPRINT] == code_fingerprint()


# ---- report ------------------------------------------------------------------------------------------
def test_report_out_that_is_not_a_report_is_refused(tmp_path):
    """Item 1: a non-empty --out that is not a previous report is refused before anything is done;
    a previous report holding a file of the user's as well."""
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    _refused(_invoke(["report", "--quick", "--out", out, "--data", tmp_path / "d"]), f"--out {out}",
             "holds no report")
    assert (out / "thesis.tex").read_text() == "years of work" and not (tmp_path / "d").exists()
    (out / report.PROVENANCE).write_text(json.dumps({"command": ["thousand", "report"], "sizes": {}}))
    (out / report.REPORT_MD).write_text("# an old report")
    _refused(_invoke(["report", "--quick", "--out", out, "--data", tmp_path / "d"]), "thesis.tex",
             "a report does not write")
    assert (out / "thesis.tex").read_text() == "years of work"


def test_report_data_inside_out_is_refused(tmp_path):
    """Item 2: --data inside --out would be deleted when the report replaces --out."""
    store = tmp_path / "rep" / "store"
    store.mkdir(parents=True)
    (store / "keep.txt").write_text("stored")
    _refused(_invoke(["report", "--quick", "--out", tmp_path / "rep", "--data", store]), "--data", "inside --out")
    assert (store / "keep.txt").read_text() == "stored"
    _refused(_invoke(["report", "--quick", "--out", store / "r", "--data", store]), "--out", "inside --data")
    assert sorted(p.name for p in store.iterdir()) == ["keep.txt"]


def test_report_refuses_stored_results_of_other_code_before_playing(bid_table, tmp_path):
    """The quick report on a --data folder holding a bid table and a run of other code: one line
    naming --data and the code, nothing played, nothing changed."""
    data = tmp_path / "data"
    rules = ["classic"]
    dirs = report.stage_dirs(data, rules=rules, compared=report.rule_sets_compared(rules), seed=0, sizes=QUICK)
    _copy(bid_table[0], dirs["bids"])
    _set_metadata(dirs["bids"] / TABLE_FILE, code_fingerprint=OTHER_CODE)
    run = dirs["players"] / "runs" / "heuristic-leadage-random"
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps({FINGERPRINT: OTHER_CODE, "mode": "games"}))
    before = _files(data)
    line = _refused(_invoke(["report", "--quick", "--out", tmp_path / "rep", "--data", data]), f"--data {data}",
                    "other code", OTHER_CODE, "--fresh")
    assert "1 more" in line
    assert _files(data) == before and not (tmp_path / "rep").exists()


TINY = Sizes(bid_deals=20, pimc_deals=2, marriage_deals=300, marriage_play_deals=40, barrel_games=12,
             compare_games=12, tournament_games=6, min_n=1, strategy_games=4, strategy_deals=60,
             situation_deals=10)
RULES = ["classic", "short"]


@pytest.fixture(scope="module")
def tiny_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    out, data = root / "rep", root / "data"
    build_report(rules=RULES, out=out, data=data, sizes=TINY, quick=True)
    return out, data, report.stage_dirs(data, rules=RULES, compared=RULES, seed=0, sizes=TINY)


def test_report_provenance_lists_each_sections_fingerprint(tiny_report):
    out, _, _ = tiny_report
    prov = json.loads((out / report.PROVENANCE).read_text(encoding="utf-8"))
    assert prov["code_fingerprint"] == code_fingerprint("report.build")
    assert prov["runs_fingerprint"] == code_fingerprint()
    assert prov["fingerprints"] == {key: code_fingerprint(module) for key, module in report.SECTION_MODULES.items()}
    kept = json.loads((out / "data" / "bids.json").read_text(encoding="utf-8"))
    assert kept[FINGERPRINT] == code_fingerprint("bids.table")
    assert not any(".bids-parts" in i["path"] for i in prov["inputs"])  # the parts are not what the report read


def test_report_redoes_stale_results_only_with_fresh(tiny_report, tmp_path):
    """A stored bid table and a stored run of other code in --data: refused, then with --fresh redone
    in place (the other sections reused), and the report equals a clean one."""
    src_out, src_data, _ = tiny_report
    out, data = _copy(src_out, tmp_path / "rep"), _copy(src_data, tmp_path / "data")
    dirs = report.stage_dirs(data, rules=RULES, compared=RULES, seed=0, sizes=TINY)
    _set_metadata(dirs["bids"] / TABLE_FILE, code_fingerprint=OTHER_CODE)
    run_file = next((dirs["players"] / "runs").glob("*/run.json"))
    run_file.write_text(json.dumps({**json.loads(run_file.read_text()), FINGERPRINT: OTHER_CODE}))
    before_data, before_out = _files(data), _files(out)
    with pytest.raises(report.ReportError, match=f"--data {data} holds results of other code.*{OTHER_CODE}"):
        build_report(rules=RULES, out=out, data=data, sizes=TINY, quick=True)
    assert _files(data) == before_data and _files(out) == before_out
    compare_runs = {p: p.stat().st_mtime_ns for p in (dirs["rules"] / "runs").rglob("*.parquet")}
    build_report(rules=RULES, out=out, data=data, sizes=TINY, quick=True, fresh=True)
    assert read_metadata(dirs["bids"] / TABLE_FILE)[FINGERPRINT] == code_fingerprint("bids.table")
    assert json.loads(run_file.read_text())[FINGERPRINT] == code_fingerprint()
    assert {p: p.stat().st_mtime_ns for p in compare_runs} == compare_runs  # a section of this code: reused
    assert not [p for p in data.rglob(".*") if p.name.endswith((".fresh",)) or ".stale-" in p.name]
    assert (out / report.REPORT_MD).read_text() == (src_out / report.REPORT_MD).read_text()
