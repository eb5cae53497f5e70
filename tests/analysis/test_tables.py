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


def test_summary_and_plot(table):
    out, path = table
    lines = tables.summarize_bid_tables(path, plot=out / tables.PLOT_FILE, min_n=1)
    assert any("dd 100" in ln for ln in lines) and any("declarers compared" in ln for ln in lines)
    assert (out / tables.PLOT_FILE).stat().st_size > 1000
    cmp = tables.comparison(path)
    assert cmp[0]["contract"] == 100 and cmp[0]["n"] == 3


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
    stages = []
    path = tables.build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=1,
                                   progress=stages.append)
    assert "(1 already played)" in stages[0]
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
    tables.build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0, progress=stages.append, fresh=True)
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
    stages = []
    assert tables.build_bid_tables(deals=40, seed=2, out=tmp_path, pimc_deals=0, progress=stages.append) == path
    assert path.stat().st_mtime_ns == stamp and "reused, nothing played" in stages[0]
    # Other arguments on the same folder: refused, the table left as it was; --fresh replaces it.
    from analysis.stored import StaleResultError

    with pytest.raises(StaleResultError, match=r"the seed \(--seed: 2 stored, 3 asked\)"):
        tables.build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0)
    assert path.stat().st_mtime_ns == stamp
    stages.clear()
    tables.build_bid_tables(deals=40, seed=3, out=tmp_path, pimc_deals=0, progress=stages.append, fresh=True)
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
    assert {r["hand_class"] for r in rows} == set(naive) and rows
    for r in rows:
        n = naive[r["hand_class"]]
        assert r["bidding_cap"] == n["cap"]
        assert r["bid_at_risk_0.3"] == n["risk"][0.3] and r["bid_at_risk_0.5"] == n["risk"][0.5]
        assert r["first_hand_bid"] == n["first"] and r["first_hand_ev"] == pytest.approx(n["first_ev"])
        assert r["later_hand_bid"] == n["later"] and r["pass_ev"] == pytest.approx(n["pass_ev"])
        # The range the intervals allow holds the bid itself.
        for risk in ("0.3", "0.5"):
            bid, lo, hi = (r[f"bid_at_risk_{risk}{s}"] for s in ("", "_low", "_high"))
            if bid is not None:
                assert (lo is None or lo <= bid) and hi >= bid


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
