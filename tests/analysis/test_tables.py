"""Bid-success tables: stored columns and metadata, features, made arrays against the points,
the summary and the plot, the command line."""

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import tables
from sim.game.cards import parse_hand
from sim.game.rules import HouseRules


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    out = tmp_path_factory.mktemp("tables")
    path = tables.build_bid_tables(deals=80, seed=4, out=out, pimc_deals=3, worlds=3)
    return out, path


def test_table_columns_metadata_and_made_arrays(table):
    _, path = table
    df = pl.read_parquet(path)
    meta = tables.read_metadata(path)
    assert df.height == 80 and meta["sample_size"] == 80 and meta["seed"] == 4 and meta["pimc_deals"] == 3
    assert meta["rules"]["min_bid"] == 100 and "thousand_version" in meta
    levels = np.array(meta["levels"])
    for m in ("dd", "heuristic"):
        made = np.array(df[f"{m}_made"].to_list())
        assert np.array_equal(made, df[f"{m}_points"].to_numpy()[:, None] >= levels[None, :])
    assert df["pimc_points"].null_count() == 77
    # 24 cards exactly once per deal.
    u = df["hand"].to_numpy().astype(np.int64) | df["talon"].to_numpy() | df["left"].to_numpy() | df["right"].to_numpy()
    assert np.all(u == (1 << 24) - 1)
    # A declarer's points: dd value is at least the sure 0 and at most 120 + marriages of 10 cards.
    assert df["dd_points"].min() >= 0 and df["dd_points"].max() <= 120 + 280


def test_hand_features():
    h = np.array([parse_hand("AH TH KH QH AS 9C JD")], dtype=np.int64)
    f = tables.hand_features(h, HouseRules())
    assert f["card_points"][0] == 11 + 10 + 4 + 3 + 11 + 0 + 2
    assert f["aces"][0] == 2 and f["tens"][0] == 1
    assert f["marriages"][0] == 1 << 3 and f["marriage_value"][0] == 100
    assert f["longest_suit"][0] == 4 and f["half_marriages"][0] == 0


def test_deals_do_not_depend_on_n():
    assert np.array_equal(tables.random_deals(30, 1), tables.random_deals(1200, 1)[:30])


def test_summary_and_plot(table, tmp_path):
    from analysis.present.plots import plot_bid_make_rates, plot_bid_methods
    from analysis.present.text import bid_table_lines

    out, path = table
    result = tables.summarize_bid_table(path, min_n=1)
    lines = bid_table_lines(result)
    assert any("dd 100" in ln for ln in lines) and any("declarers compared" in ln for ln in lines)
    assert lines[-2:] == [f"plot: {out / tables.PLOT_FILE}", f"plot: {out / tables.METHODS_PLOT_FILE}"]
    plot_bid_make_rates(result, tmp_path / "rates.png")
    plot_bid_methods(result, tmp_path / "methods.png")
    assert (tmp_path / "rates.png").stat().st_size > 1000 and (tmp_path / "methods.png").stat().st_size > 1000
    cmp = tables.comparison(path)
    assert cmp == result.comparison and cmp[0].contract == "100" and cmp[0].n == 3
    # The declarers compared on the deals pimc played, as the plot draws them: 3 deals in two groups.
    groups = {r.group: r.n for r in result.method_rates}
    assert sum(groups.values()) == 3 and set(groups) <= set(tables.METHOD_GROUPS)


def test_the_pooled_contracts_are_clustered_by_deal(table):
    """The 100-200 row counts each deal once: the mean over deals of the share of the contracts it
    made, with a normal interval from the spread between deals (a deal's 21 contracts are one
    cluster), here counted deal by deal."""
    import math
    import statistics

    _out, path = table
    df = pl.read_parquet(path).filter(pl.col("pimc_points").is_not_null())
    levels = [lv for lv in tables.read_metadata(path)["levels"] if lv <= 200]
    row = tables.comparison(path)[-1]
    assert row.contract == f"{levels[0]}-{levels[-1]}" and row.n == df.height == 3
    for m in tables.METHODS:
        share = [sum(p >= lv for lv in levels) / len(levels) for p in df[f"{m}_points"].to_list()]
        mean = sum(share) / len(share)
        half = 1.959963984540054 * statistics.stdev(share) / math.sqrt(len(share))
        assert getattr(row, m) == pytest.approx((mean, max(0.0, mean - half), min(1.0, mean + half)))


def test_cli_tables_bids(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / tables.TABLE_FILE).exists() and "bid-success tables" in res.output
    bad = CliRunner().invoke(app, ["tables", "bids", "--deals", "5", "--rules", "nope", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "error:" in bad.output


def test_parts_resume_after_an_interruption_and_match_one_go(tmp_path, monkeypatch):
    whole = pl.read_parquet(tables.build_bid_tables(deals=230, seed=6, out=tmp_path / "whole", pimc_deals=130,
                                                    worlds=2, threads=2))
    monkeypatch.setattr(tables, "TABLE_PART", 100)  # three parts; a multiple of the advisor's chunk
    played = []
    real = tables.play_part

    def stop_at_second(d, first, *args):
        if first == 100 and not played:
            played.append(first)
            raise KeyboardInterrupt  # Ctrl-C while the second part is played
        return real(d, first, *args)

    monkeypatch.setattr(tables, "play_part", stop_at_second)
    out = tmp_path / "parts"
    with pytest.raises(KeyboardInterrupt):
        tables.build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=2)
    assert (out / tables.PARTS_DIR / "part-00000.parquet").exists() and not (out / tables.TABLE_FILE).exists()
    calls = []
    path = tables.build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=1,
                                   progress=lambda *call: calls.append(call))
    # Counted in parts: the one kept, then each part stored; the stage says so in words.
    assert "(1 already played)" in calls[0][0]
    assert [(done, total) for _, done, total in calls] == [(1, 3), (2, 3), (3, 3)]
    assert len({stage for stage, _, _ in calls}) == 1
    assert pl.read_parquet(path).equals(whole)
    # The parts stay, to rebuild a damaged table from; the manifest records the table's SHA-256.
    assert (out / tables.PARTS_DIR / "part-00002.parquet").exists() and (out / "bids.json").exists()


def test_parts_of_another_table_are_not_reused(tmp_path, monkeypatch):
    from analysis.stored import StaleResultError

    monkeypatch.setattr(tables, "TABLE_PART", 50)
    out = tmp_path / "t"
    parts = out / tables.PARTS_DIR
    parts.mkdir(parents=True)
    (parts / "spec.json").write_text("{}")
    (parts / "part-00000.parquet").write_bytes(b"not this table's")
    with pytest.raises(StaleResultError, match="parts of a bid table .* older version"):
        tables.build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0)
    assert (parts / "part-00000.parquet").read_bytes() == b"not this table's"  # refused: left as it was
    stages = []
    tables.build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0, progress=lambda s, d, t: stages.append(s),
                            fresh=True)
    assert "(0 already played)" in stages[0]


# ---- the pass line, the bidding cap, reuse and the cheat sheet -------------------------------------------
def test_pass_line_with_one_hand_per_sample_equals_the_single_hand_line():
    from analysis.advisor import SEATS
    from sim.engine.playouts import Known, Situation, pass_results, sample_unseen

    rules = HouseRules()
    hand = parse_hand("AH TH KH QH AS 9C JD")
    samples = sample_unseen(hand, Known(), 120, 3)
    one = pass_results(hand, samples, rules, SEATS["second"], Situation(), 3)
    many = pass_results(0, samples, rules, SEATS["second"], Situation(), 3, hands=np.full(120, hand))
    assert np.array_equal(one, many)
    # Passing as second hand, seat 0 never declares (first hand is forced to bid).
    assert np.all(one[:, 1] != 0)


def test_stored_pass_points_and_bidding_cap(table):
    from analysis.advisor import SEATS
    from sim.engine.playouts import Situation, pass_results

    _, path = table
    df = pl.read_parquet(path)
    meta = tables.read_metadata(path)
    # The cap: 120 plus the marriages held (classic), at most the highest contract.
    assert np.array_equal(df["bid_cap"].to_numpy(), np.minimum(120 + df["marriage_value"].to_numpy(), 400))
    # pass_points is the pass line of each deal, as the advisor plays it.
    d = np.stack([df["hand"].to_numpy(), df["talon"].to_numpy(), df["left"].to_numpy(), df["right"].to_numpy()],
                 axis=1).astype(np.int64)
    again = pass_results(0, d[:, 1:], HouseRules(), SEATS[tables.PASS_SEAT], Situation(), meta["seed"],
                         hands=d[:, 0])
    assert np.array_equal(df["pass_points"].to_numpy(), again[:, 0])


def test_a_table_made_with_the_same_arguments_is_reused(tmp_path):
    path = tables.build_bid_tables(deals=40, seed=2, out=tmp_path, pimc_deals=0)
    stamp = path.stat().st_mtime_ns
    calls = []
    assert tables.build_bid_tables(deals=40, seed=2, out=tmp_path, pimc_deals=0,
                                   progress=lambda *call: calls.append(call)) == path
    assert path.stat().st_mtime_ns == stamp and "reused, nothing played" in calls[0][0]
    assert [(done, total) for _, done, total in calls] == [(1, 1)]  # every part there, nothing played
    # Other arguments on the same folder: refused, the table left as it was; --fresh replaces it.
    from analysis.stored import StaleResultError

    with pytest.raises(StaleResultError, match=r"the seed \(--seed: 2 stored, 3 asked\)"):
        tables.build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0)
    assert path.stat().st_mtime_ns == stamp
    stages = []
    tables.build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0, progress=lambda s, d, t: stages.append(s),
                            fresh=True)
    assert tables.read_metadata(path)["seed"] == 3 and "replaced (--fresh)" in stages[0]


def _naive_cheat_sheet(path, method, min_n, risks=(0.3, 0.5)):
    """The cheat sheet by plain loops over the rows: the twin of tables.cheat_sheet (classic rules,
    a zero score: +b made, -b failed)."""
    import math

    rows = pl.read_parquet(path).to_dicts()
    levels = tables.read_metadata(path)["levels"]
    classes = {}
    for r in rows:
        mv = r["marriage_value"]
        m = ("no marriage" if mv == 0 else "marriage <100" if mv < 100 else "marriage 100" if mv == 100
             else "marriages >100")
        classes.setdefault(f"{m}, aces {min(r['aces'], 3)}{'+' if r['aces'] >= 3 else ''}", []).append(r)
    out = {}
    for name, rs in classes.items():
        played = [r for r in rs if r[f"{method}_points"] is not None]
        if len(played) < min_n:
            continue
        cap = min(r["bid_cap"] for r in rs)
        entry = {}
        best = None
        for b in levels:
            if b > cap:
                break
            p = sum(r[f"{method}_points"] >= b for r in played) / len(played)
            for risk in risks:
                if p >= 1 - risk:
                    entry[risk] = b
            ev = p * b - (1 - p) * b
            if best is None or ev > best[1] + 1e-12:
                best = (b, ev)
        pass_ev = sum(r["pass_points"] for r in rs) / len(rs)
        out[name] = {"risk": {k: entry.get(k) for k in risks}, "first": best[0], "first_ev": best[1],
                     "later": best[0] if best[1] > pass_ev else None, "pass_ev": pass_ev, "cap": cap}
        assert not math.isnan(pass_ev)
    return out


@pytest.mark.parametrize("method", ["heuristic", "dd", "pimc"])
def test_cheat_sheet_against_its_naive_twin(tmp_path, method):
    path = tables.build_bid_tables(deals=400, seed=5, out=tmp_path, pimc_deals=40 if method == "pimc" else 0,
                                   worlds=2)
    min_n = 5 if method == "pimc" else 20
    naive = _naive_cheat_sheet(path, method, min_n)
    rows = tables.cheat_sheet(path, method=method, min_n=min_n)
    assert {r.hand_class for r in rows} == set(naive) and rows
    for r in rows:
        n = naive[r.hand_class]
        assert r.bidding_cap == n["cap"]
        assert r.at_risk(0.3).bid == n["risk"][0.3] and r.at_risk(0.5).bid == n["risk"][0.5]
        assert r.first_hand_bid == n["first"] and r.first_hand_ev == pytest.approx(n["first_ev"])
        assert r.later_hand_bid == n["later"] and r.pass_ev == pytest.approx(n["pass_ev"])
        # The range the intervals allow holds the bid itself.
        for b in r.bids:
            if b.bid is not None:
                assert (b.low is None or b.low <= b.bid) and b.high >= b.bid


def test_cli_tables_bids_json(tmp_path):
    import json

    from cli import app

    res = CliRunner().invoke(app, ["tables", "bids", "--deals", "60", "--pimc-deals", "0", "--out", str(tmp_path),
                                   "--min-n", "5", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["sample_size"] == 60 and data["min_n"] == 5
    assert {c["hand_class"] for c in data["classes"]} >= {r["hand_class"] for r in data["cheat_sheet"]["heuristic"]}
    assert sum(c["n"] for c in data["classes"]) == 60
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
    pngs = {name: (out / name).read_bytes() for name in (tables.PLOT_FILE, tables.METHODS_PLOT_FILE)}
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert "reused, nothing played" in as_json.stderr
    result = tables.tables_bids(out=out, **BIDS_ARGS)
    return out, text, as_json, pngs, result


def test_the_result_is_what_the_command_prints(bids_command):
    from analysis.present.json_text import to_json
    from analysis.present.text import bid_table_lines

    out, text, as_json, _, result = bids_command
    assert to_json(result) + "\n" == as_json.stdout
    assert "\n".join(bid_table_lines(result)) + "\n" == text.stdout
    assert result.table_file == out / tables.TABLE_FILE and result.plot_files == (
        out / tables.PLOT_FILE, out / tables.METHODS_PLOT_FILE)
    # The progress as the command shows it: each stage once, each part as it is stored.
    assert "60 deals in 1 parts of 1,000 (0 already played)" in text.stderr and "part 1 of 1 stored" in text.stderr


def test_the_plots_are_drawn_from_the_result_alone(bids_command, tmp_path):
    from analysis.present.plots import plot_bid_make_rates, plot_bid_methods

    out, _, _, pngs, result = bids_command
    plot_bid_make_rates(result, tmp_path / "rates.png")
    plot_bid_methods(result, tmp_path / "methods.png")
    assert (tmp_path / "rates.png").read_bytes() == pngs[tables.PLOT_FILE]
    assert (tmp_path / "methods.png").read_bytes() == pngs[tables.METHODS_PLOT_FILE]
    # The --json command drew the same plots again.
    assert all((out / name).read_bytes() == data for name, data in pngs.items())


def test_the_result_is_frozen_and_a_rerun_returns_the_same(bids_command):
    import dataclasses

    out, _, _, _, result = bids_command
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.min_n = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.classes[0].n = 0
    assert tables.tables_bids(out=out, **BIDS_ARGS) == result
    assert tables.summarize_bid_table(out / tables.TABLE_FILE, min_n=5) == result
    assert tables.summarize_bid_table(out / tables.TABLE_FILE, min_n=6) != result


def test_to_polars_tables(bids_command):
    out, _, _, _, result = bids_command
    stored = pl.read_parquet(out / tables.TABLE_FILE)
    deals = result.to_polars(table="deals")
    assert deals.equals(stored) and deals.schema == stored.schema
    classes = result.to_polars()
    assert classes.height == len(result.classes) * len(tables.METHODS) * len(result.levels)
    by_class = classes.filter(pl.col("method") == "dd").group_by("hand_class").agg(pl.col("n_class").first())
    assert by_class["n_class"].sum() == 60
    # A row of the DataFrame is the rate of the result, and the rate counts the stored deals.
    row = classes.filter((pl.col("method") == "heuristic") & (pl.col("contract") == 120)).row(0, named=True)
    curve = result.curve(row["hand_class"])
    rate = next(r for r in curve.heuristic if r.contract == 120)
    assert (row["k"], row["n"], row["p"]) == (rate.k, rate.n, rate.p)
    in_class = stored.with_columns(hand_class=tables._class_expr()).filter(pl.col("hand_class") == row["hand_class"])
    assert rate.k == (in_class["heuristic_points"] >= 120).sum() and rate.n == in_class.height
    sheet = result.to_polars(table="cheat_sheet")
    assert sheet.height == len(result.cheat_sheet) and sheet["bid_at_risk_0.3"].dtype == pl.Int64
    assert set(sheet["method"]) <= set(tables.METHODS)
    compared = result.to_polars(table="comparison")
    assert compared["contract"].to_list() == ["100", "110", "120", "140", "100-200"] and compared["n"][0] == 4
    methods = result.to_polars(table="methods")
    assert methods.height == len(result.method_rates) and methods["n"].max() <= 4
    with pytest.raises(ValueError, match="table must be one of"):
        result.to_polars(table="nope")
