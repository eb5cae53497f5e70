"""The bid table (``analysis.bids.table``): stored columns and metadata, made arrays against the
points, reuse and resume, the same bytes whatever the threads, the command line and its result."""

import math

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.bids.classes import METHODS_PLOT_FILE, PLOT_FILE, class_expr, summarize_bid_table
from analysis.bids.parts import LINE_FIELDS, PARTS_DIR, SEAT_NAMES, TABLE_PART, line_limits, max_points, play_part
from analysis.bids.results import METHODS, PLAYERS
from analysis.bids.table import TABLE_COLUMNS, TABLE_FILE, build_bid_tables, read_metadata, tables_bids
from sim.game.rules import HouseRules


def test_table_columns_metadata_and_made_arrays(table):
    _, path = table
    df = pl.read_parquet(path)
    meta = read_metadata(path)
    assert df.height == 80 and meta["sample_size"] == 80 and meta["seed"] == 4 and meta["pimc_deals"] == 3
    assert meta["rules"]["min_bid"] == 100 and "thousand_version" in meta and meta["part_size"] == TABLE_PART
    assert set(TABLE_COLUMNS) <= set(df.columns)
    levels = np.array(meta["levels"])
    for m in ("dd", "heuristic"):
        made = np.array(df[f"{m}_made"].to_list())
        assert np.array_equal(made, df[f"{m}_points"].to_numpy()[:, None] >= levels[None, :])
    assert df["pimc_points"].null_count() == 77 and df["pimc_made"].null_count() == 77
    # 24 cards exactly once per deal.
    u = df["hand"].to_numpy().astype(np.int64) | df["talon"].to_numpy() | df["left"].to_numpy() | df["right"].to_numpy()
    assert np.all(u == (1 << 24) - 1)
    # A declarer's points: dd value is at least the sure 0 and at most 120 + marriages of 10 cards.
    assert df["dd_points"].min() >= 0 and np.all(df["dd_points"].to_numpy() <= df["max_points"].to_numpy())
    # The learned declarer played every contract up to the most his 10 cards allow, and no other;
    # a contract is made where his points playing it reach it, never above max_points.
    hand10 = df["hand"].to_numpy().astype(np.int64) | df["talon"].to_numpy()
    assert np.array_equal(df["max_points"].to_numpy(), max_points(hand10, HouseRules()))
    for pts, top, made in zip(df["learned_points"].to_list(), df["max_points"], df["learned_made"].to_list(),
                              strict=True):
        k = int((levels <= top).sum())
        assert len(pts) == k and max(pts) <= top
        assert list(made) == [p >= b for p, b in zip(pts, levels[:k], strict=True)] + [False] * (len(levels) - k)
    # Each seat's lines: the pass line, then bid up to each contract to the bidding cap.
    for seat in SEAT_NAMES:
        lengths = df[f"{seat}_change0"].list.len().to_list()
        assert lengths == [len(line_limits(c, meta["levels"])) for c in df["bid_cap"]]
        for f in LINE_FIELDS[1:]:
            assert df[f"{seat}_{f}"].list.len().to_list() == lengths


def test_cli_tables_bids(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / TABLE_FILE).exists() and "bid-success tables" in res.output
    for args, words in ((["--rules", "nope"], "error:"), (["--objective", "win"], "--objective"),
                        (["--deals", "0"], "--deals"), (["--pimc-deals", "-1"], "--pimc-deals"),
                        (["--min-n", "0"], "--min-n"), (["--worlds", "0"], "--worlds")):
        bad = CliRunner().invoke(app, ["tables", "bids", "--deals", "5", "--out", str(tmp_path / "bad"), *args])
        assert bad.exit_code == 2 and words in bad.output and "Traceback" not in bad.output, (args, bad.output)
        assert len([ln for ln in bad.output.splitlines() if ln.startswith("error")]) == 1, bad.output


def test_parts_resume_after_an_interruption_and_match_one_go(tmp_path, monkeypatch):
    whole = pl.read_parquet(build_bid_tables(deals=230, seed=6, out=tmp_path / "whole", pimc_deals=130,
                                             worlds=2, threads=2))
    # Three parts; a multiple of the advisor's chunk (the table's part size, and the parts' streams).
    monkeypatch.setattr("analysis.bids.table.TABLE_PART", 100)
    monkeypatch.setattr("analysis.bids.parts.TABLE_PART", 100)
    played = []
    real = play_part

    def stop_at_second(d, first, *args):
        if first == 100 and not played:
            played.append(first)
            raise KeyboardInterrupt  # Ctrl-C while the second part is played
        return real(d, first, *args)

    monkeypatch.setattr("analysis.bids.table.play_part", stop_at_second)
    out = tmp_path / "parts"
    with pytest.raises(KeyboardInterrupt):
        build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=2)
    assert (out / PARTS_DIR / "part-00000.parquet").exists() and not (out / TABLE_FILE).exists()
    calls = []
    path = build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=1,
                            progress=lambda *call: calls.append(call))
    # Counted in parts: the one kept, then each part stored; the stage says so in words.
    assert "(1 already played)" in calls[0][0]
    assert [(done, total) for _, done, total in calls] == [(1, 3), (2, 3), (3, 3)]
    assert len({stage for stage, _, _ in calls}) == 1
    assert pl.read_parquet(path).equals(whole)
    # The parts stay, to rebuild a damaged table from; the manifest records the table's SHA-256.
    assert (out / PARTS_DIR / "part-00002.parquet").exists() and (out / "bids.json").exists()


def test_parts_of_another_table_are_not_reused(tmp_path, monkeypatch):
    from analysis.stored import StaleResultError

    monkeypatch.setattr("analysis.bids.table.TABLE_PART", 50)
    monkeypatch.setattr("analysis.bids.parts.TABLE_PART", 50)
    out = tmp_path / "t"
    parts = out / PARTS_DIR
    parts.mkdir(parents=True)
    (parts / "spec.json").write_text("{}")
    (parts / "part-00000.parquet").write_bytes(b"not this table's")
    with pytest.raises(StaleResultError, match="parts of a bid table .* older version"):
        build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0)
    assert (parts / "part-00000.parquet").read_bytes() == b"not this table's"  # refused: left as it was
    stages = []
    build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0, progress=lambda s, d, t: stages.append(s),
                     fresh=True)
    assert "(0 already played)" in stages[0]


def test_the_same_seed_gives_the_same_bytes_whatever_the_threads(tmp_path):
    one = build_bid_tables(deals=60, seed=9, out=tmp_path / "one", pimc_deals=2, worlds=2, threads=1)
    two = build_bid_tables(deals=60, seed=9, out=tmp_path / "two", pimc_deals=2, worlds=2, threads=2)
    assert one.read_bytes() == two.read_bytes()


def test_a_table_made_with_the_same_arguments_is_reused(tmp_path):
    path = build_bid_tables(deals=40, seed=2, out=tmp_path, pimc_deals=0)
    stamp = path.stat().st_mtime_ns
    calls = []
    assert build_bid_tables(deals=40, seed=2, out=tmp_path, pimc_deals=0,
                            progress=lambda *call: calls.append(call)) == path
    assert path.stat().st_mtime_ns == stamp and "reused, nothing played" in calls[0][0]
    assert [(done, total) for _, done, total in calls] == [(1, 1)]  # every part there, nothing played
    # Other arguments on the same folder: refused, the table left as it was; --fresh replaces it.
    from analysis.stored import StaleResultError

    with pytest.raises(StaleResultError, match=r"the seed \(--seed: 2 stored, 3 asked\)"):
        build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0)
    assert path.stat().st_mtime_ns == stamp
    stages = []
    build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0, progress=lambda s, d, t: stages.append(s),
                     fresh=True)
    assert read_metadata(path)["seed"] == 3 and "replaced (--fresh)" in stages[0]


def test_cli_tables_bids_json(tmp_path):
    import json

    from cli import app

    res = CliRunner().invoke(app, ["tables", "bids", "--deals", "60", "--pimc-deals", "0", "--out", str(tmp_path),
                                   "--min-n", "5", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["sample_size"] == 60 and data["min_n"] == 5 and data["objective"] == "race"
    assert {c["hand_class"] for c in data["classes"]} >= {r["hand_class"] for r in data["cheat_sheet"]}
    assert sum(c["n"] for c in data["classes"]) == 60
    assert all([s["seat"] for s in r["seats"]] == list(SEAT_NAMES) for r in data["cheat_sheet"])
    assert data["line_players"] == PLAYERS["learned"]
    bad = CliRunner().invoke(app, ["tables", "bids", "--deals", "60", "--out", str(tmp_path), "--min-n", "0"])
    assert bad.exit_code == 2 and "--min-n" in bad.output


# ---- the result object and its presenters -----------------------------------------------------------------
BIDS_ARGS = dict(deals=60, seed=7, pimc_deals=4, worlds=2, min_n=5)


@pytest.fixture(scope="module")
def bids_command(tmp_path_factory):
    """``thousand tables bids`` as text, then as --json (reusing the table), its plots' bytes after
    each, and the result of the same arguments computed in Python (reusing it too)."""
    from cli import app

    out = tmp_path_factory.mktemp("bids_command")
    args = ["tables", "bids", "--out", str(out), *[f"--{k.replace('_', '-')}={v}" for k, v in BIDS_ARGS.items()]]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    pngs = {name: (out / name).read_bytes() for name in (PLOT_FILE, METHODS_PLOT_FILE)}
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert "reused, nothing played" in as_json.stderr
    result = tables_bids(out=out, **BIDS_ARGS)
    return out, text, as_json, pngs, result


def test_the_result_is_what_the_command_prints(bids_command):
    from analysis.present.bids import bid_table_lines
    from analysis.present.json_text import to_json

    out, text, as_json, _, result = bids_command
    assert to_json(result) + "\n" == as_json.stdout
    assert "\n".join(bid_table_lines(result)) + "\n" == text.stdout
    assert result.table_file == out / TABLE_FILE and result.plot_files == (
        out / PLOT_FILE, out / METHODS_PLOT_FILE)
    # The progress as the command shows it: each stage once, each part as it is stored.
    assert "60 deals in 1 parts of 1,000 (0 already played)" in text.stderr and "part 1 of 1 stored" in text.stderr


def test_the_plots_are_drawn_from_the_result_alone(bids_command, tmp_path):
    from analysis.present.bids import plot_bid_make_rates, plot_bid_methods

    out, _, _, pngs, result = bids_command
    plot_bid_make_rates(result, tmp_path / "rates.png")
    plot_bid_methods(result, tmp_path / "methods.png")
    assert (tmp_path / "rates.png").read_bytes() == pngs[PLOT_FILE]
    assert (tmp_path / "methods.png").read_bytes() == pngs[METHODS_PLOT_FILE]
    # The --json command drew the same plots again.
    assert all((out / name).read_bytes() == data for name, data in pngs.items())


def test_the_result_is_frozen_and_a_rerun_returns_the_same(bids_command):
    import dataclasses

    out, _, _, _, result = bids_command
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.min_n = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.classes[0].n = 0
    assert tables_bids(out=out, **BIDS_ARGS) == result
    assert summarize_bid_table(out / TABLE_FILE, min_n=5) == result
    assert summarize_bid_table(out / TABLE_FILE, min_n=6) != result


def test_to_polars_tables(bids_command):
    out, _, _, _, result = bids_command
    stored = pl.read_parquet(out / TABLE_FILE)
    deals = result.to_polars(table="deals")
    assert deals.equals(stored) and deals.schema == stored.schema
    classes = result.to_polars()
    assert classes.height == len(result.classes) * len(METHODS) * len(result.levels)
    by_class = classes.filter(pl.col("method") == "dd").group_by("hand_class").agg(pl.col("n_class").first())
    assert by_class["n_class"].sum() == 60
    # A row of the DataFrame is the rate of the result, and the rate counts the stored deals.
    for method in ("heuristic", "learned"):
        row = classes.filter((pl.col("method") == method) & (pl.col("contract") == 120)).row(0, named=True)
        curve = result.curve(row["hand_class"])
        rate = next(r for r in curve.rates(method) if r.contract == 120)
        assert (row["k"], row["n"], row["p"]) == (rate.k, rate.n, rate.make.value)
        assert row["players"] == PLAYERS[method]
        in_class = stored.with_columns(hand_class=class_expr()).filter(pl.col("hand_class") == row["hand_class"])
        j = result.levels.index(120)
        assert rate.k == sum(x[j] for x in in_class[f"{method}_made"].to_list()) and rate.n == in_class.height
    sheet = result.to_polars(table="cheat_sheet")
    assert sheet.height == 3 * (len(result.cheat_sheet) + len(result.detail))
    assert sheet["bid_at_risk_0.3"].dtype == pl.Int64 and sheet["bid"].dtype == pl.Int64
    assert set(sheet["seat"]) == set(SEAT_NAMES) and set(sheet["players"]) == {PLAYERS["learned"]}
    first = result.cheat_sheet[0].seats[0]
    assert sheet.row(0, named=True)["gain"] == first.gain.value or math.isnan(first.gain.value)
    lines = result.to_polars(table="lines")
    assert lines.height == sum(len(s.lines) for r in result.cheat_sheet + result.detail for s in r.seats)
    compared = result.to_polars(table="comparison")
    assert compared["contract"].to_list() == ["100", "110", "120", "140", "160", "100-200"] and compared["n"][0] == 4
    methods = result.to_polars(table="methods")
    assert methods.height == len(result.method_rates) and methods["n"].max() <= 4
    with pytest.raises(ValueError, match="table must be one of"):
        result.to_polars(table="nope")
