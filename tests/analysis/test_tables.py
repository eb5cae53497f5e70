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
    real = tables._play_part

    def stop_at_second(d, first, *args):
        if first == 100 and not played:
            played.append(first)
            raise KeyboardInterrupt  # Ctrl-C while the second part is played
        return real(d, first, *args)

    monkeypatch.setattr(tables, "_play_part", stop_at_second)
    out = tmp_path / "parts"
    with pytest.raises(KeyboardInterrupt):
        tables.build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=2)
    assert (out / tables.PARTS_DIR / "part-00000.parquet").exists() and not (out / tables.TABLE_FILE).exists()
    stages = []
    path = tables.build_bid_tables(deals=230, seed=6, out=out, pimc_deals=130, worlds=2, threads=1,
                                   progress=stages.append)
    assert "(1 already played)" in stages[0]
    assert pl.read_parquet(path).equals(whole)
    assert not (out / tables.PARTS_DIR).exists()


def test_parts_of_another_table_are_not_reused(tmp_path, monkeypatch):
    monkeypatch.setattr(tables, "TABLE_PART", 50)
    out = tmp_path / "t"
    parts = out / tables.PARTS_DIR
    parts.mkdir(parents=True)
    (parts / "spec.json").write_text("{}")
    (parts / "part-00000.parquet").write_bytes(b"not this table's")
    stages = []
    tables.build_bid_tables(deals=60, seed=1, out=out, pimc_deals=0, progress=stages.append)
    assert "(0 already played)" in stages[0]
