"""Bid-success tables: stored columns and metadata, features, made arrays against the points, the
auction lines against a fresh play, make-rates falling with the contract, clustered pooled
intervals, every cheat-sheet advice recomputed from the stored table, the summary and the plots,
reuse and resume, the command line."""

import math

import numpy as np
import polars as pl
import pytest
from reference_bid_value import advised_bid, first_above, levels_tested
from typer.testing import CliRunner

from analysis import tables
from analysis.bid_value import MIN_REACHED
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
    assert meta["rules"]["min_bid"] == 100 and "thousand_version" in meta and meta["part_size"] == tables.TABLE_PART
    assert set(tables.TABLE_COLUMNS) <= set(df.columns)
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
    assert np.array_equal(df["max_points"].to_numpy(), tables.max_points(hand10, HouseRules()))
    for pts, top, made in zip(df["learned_points"].to_list(), df["max_points"], df["learned_made"].to_list(),
                              strict=True):
        k = int((levels <= top).sum())
        assert len(pts) == k and max(pts) <= top
        assert list(made) == [p >= b for p, b in zip(pts, levels[:k], strict=True)] + [False] * (len(levels) - k)
    # Each seat's lines: the pass line, then bid up to each contract to the bidding cap.
    for seat in tables.SEAT_NAMES:
        lengths = df[f"{seat}_change0"].list.len().to_list()
        assert lengths == [len(tables.line_limits(c, meta["levels"])) for c in df["bid_cap"]]
        for f in tables.LINE_FIELDS[1:]:
            assert df[f"{seat}_{f}"].list.len().to_list() == lengths


def test_stored_lines_are_the_auction_lines_of_the_deal(table):
    """The stored lines of a class's deals rebuilt (``line_array``) equal a fresh ``auction_lines``
    play of the same deals, seat by seat (the learned player is deterministic given the deal)."""
    from analysis.advisor import SEATS
    from sim.engine.playouts import LINE_COLUMNS, Situation, auction_lines

    _, path = table
    df = pl.read_parquet(path)
    cap = int(df["bid_cap"].max())  # the hands with the most lines
    df = df.filter(pl.col("bid_cap") == cap).head(6)
    limits = tables.line_limits(cap, tables.read_metadata(path)["levels"])
    assert len(limits) >= 6
    plays = np.stack([df["talon"], df["left"], df["right"]], axis=1).astype(np.int64)
    for seat in tables.SEAT_NAMES:
        fresh = auction_lines(0, plays, HouseRules(), SEATS[seat], Situation(), limits, 99,
                              hands=df["hand"].to_numpy().astype(np.int64))
        stored = tables.line_array(df, seat, len(limits))
        for f in tables.LINE_FIELDS:
            j = LINE_COLUMNS.index(f)
            assert np.array_equal(stored[:, :, j], fresh[:, :, j]), (seat, f)
        for i in range(3):  # from a zero score the score after the deal is its change
            score, change = (fresh[:, :, LINE_COLUMNS.index(f"{c}{i}")] for c in ("score", "change"))
            assert np.array_equal(score, change) and np.array_equal(stored[:, :, LINE_COLUMNS.index(f"score{i}")],
                                                                    score)


def test_make_rates_fall_with_the_contract(table):
    """The declarers who play once (heuristic, dd, pimc) make a contract only if they make every
    lower one, deal by deal, so their class make-rates never rise with the contract. The learned
    declarer plays each contract apart: deal by deal he may make 125 after failing 120 (his net reads
    the contract, and his search draws other worlds for another contract), so over all deals his
    make-rate falls from 100 to the top, and at no step of 10 points does it rise by more than a deal
    or two of the table's."""
    _, path = table
    df = pl.read_parquet(path)
    for m in ("heuristic", "dd", "pimc"):
        made = np.array([x for x in df[f"{m}_made"].to_list() if x is not None], dtype=int)
        assert np.all(np.diff(made, axis=1) <= 0)
    for c in tables.class_curves(path):
        for m in ("heuristic", "dd", "pimc"):
            ks = [r.k for r in c.rates(m)]
            assert ks == sorted(ks, reverse=True)
    learned = np.array(df["learned_made"].to_list()).mean(axis=0)[::2]  # 100, 110, 120, ...
    assert np.all(np.diff(learned) <= 2 / df.height) and learned[0] > learned[-1]


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
    from analysis.present.bids import bid_table_lines, plot_bid_make_rates, plot_bid_methods

    out, path = table
    result = tables.summarize_bid_table(path, min_n=1)
    lines = bid_table_lines(result)
    text = "\n".join(lines)
    assert "learned×3" in text and "checked against pimc" in text and "cheat sheet" in text
    # Every class row and every seat row of the cheat sheet names its players.
    rows = [ln for ln in lines if ln.startswith(tuple(tables.MARRIAGE_CLASSES)) and " deals, bidding cap" not in ln]
    seat_rows = [ln for ln in lines if ln.strip().startswith(("first hand:", "second hand:", "third hand:"))]
    assert rows and seat_rows and all("learned×3" in ln for ln in rows + seat_rows)
    assert len(seat_rows) == 3 * len(result.cheat_sheet)
    assert lines[-2:] == [f"plot: {out / tables.PLOT_FILE}", f"plot: {out / tables.METHODS_PLOT_FILE}"]
    plot_bid_make_rates(result, tmp_path / "rates.png")
    plot_bid_methods(result, tmp_path / "methods.png")
    assert (tmp_path / "rates.png").stat().st_size > 1000 and (tmp_path / "methods.png").stat().st_size > 1000
    cmp = tables.comparison(path)
    assert cmp == result.comparison and cmp[0].contract == "100" and cmp[0].n == 3
    # The declarers compared on the deals pimc played, as the plot draws them: 3 deals in two groups.
    groups = {r.group: r.n for r in result.method_rates}
    assert sum(groups.values()) == 3 and set(groups) <= set(tables.METHOD_GROUPS)
    # The classes are a player's: marriage by suit and aces, all deals in one class each.
    assert sum(c.n for c in result.classes) == 80
    assert all(c.hand_class.split(", ")[0] in tables.MARRIAGE_CLASSES for c in result.classes)


def test_the_pooled_contracts_are_clustered_by_deal(tmp_path):
    """The 100-200 row counts each deal once: the mean over deals of the share of the contracts it
    made, with a normal interval from the spread between deals (a deal's 21 contracts are one
    cluster), here counted deal by deal; it is wider than the interval that takes the 21 levels of
    a deal as independent trials. The paired difference learned minus pimc likewise."""
    import statistics

    from analysis.stats import wilson_interval

    path = tables.build_bid_tables(deals=60, seed=8, out=tmp_path, pimc_deals=40, worlds=2)
    df = pl.read_parquet(path).filter(pl.col("pimc_points").is_not_null())
    levels = tables.read_metadata(path)["levels"]
    pooled = [j for j, lv in enumerate(levels) if lv <= tables.POOLED_TOP]
    row = tables.comparison(path)[-1]
    assert row.contract == f"{levels[0]}-{levels[pooled[-1]]}" and row.n == df.height == 40
    z = 1.959963984540054
    shares = {}
    for m in tables.METHODS:
        made = [[bool(x[j]) for j in pooled] for x in df[f"{m}_made"].to_list()]
        share = [sum(x) / len(x) for x in made]
        shares[m] = share
        mean = sum(share) / len(share)
        half = z * statistics.stdev(share) / math.sqrt(len(share))
        assert getattr(row, m) == pytest.approx((mean, max(0.0, mean - half), min(1.0, mean + half)))
        k = sum(sum(x) for x in made)
        lo, hi = wilson_interval(k, len(made) * len(pooled))  # the 21 levels taken as independent: too narrow
        if 0 < mean < 1:
            assert hi - lo < getattr(row, m)[2] - getattr(row, m)[1]
    diff = [a - b for a, b in zip(shares["learned"], shares["pimc"], strict=True)]
    mean = sum(diff) / len(diff)
    half = z * statistics.stdev(diff) / math.sqrt(len(diff))
    assert row.diff == pytest.approx((mean, mean - half, mean + half))


def _race(changes):
    """Seat 0's race result of a line: his change minus the opponents' mean."""
    return changes[0] - (changes[1] + changes[2]) / 2


@pytest.fixture(scope="module")
def table1500(tmp_path_factory):
    """A table large enough for some levels to be reached in MIN_REACHED deals of a class."""
    return tables.build_bid_tables(deals=1500, seed=5, out=tmp_path_factory.mktemp("t1500"), pimc_deals=0)


@pytest.mark.parametrize("objective", ["race", "own"])
def test_every_advice_beats_passing_by_the_numbers_printed_beside_it(table1500, objective):
    """Recomputed by plain loops over the stored rows: for each class and seat, the advised bid is
    the tested level whose line gains most over always passing (the naive twin's), its printed gain
    is that line's, above 0, inside its interval and the highest of the tested lines, the beyond
    line's printed gain is at most it; "pass" means no tested line gains."""
    path = table1500
    result = tables.summarize_bid_table(path, min_n=MIN_REACHED, objective=objective)
    assert result.cheat_sheet and result.detail and result.objective == objective
    stored = pl.read_parquet(path)
    rows = {g: stored.with_columns(hand_class=tables.class_expr(g)).to_dicts() for g in tables.GROUPINGS}
    levels = tables.read_metadata(path)["levels"]
    advised = 0
    for r in result.cheat_sheet + result.detail:
        deals = [d for d in rows[r.grouping] if d["hand_class"] == r.hand_class]
        assert len(deals) == r.n >= MIN_REACHED and r.bidding_cap == min(d["bid_cap"] for d in deals)
        limits = tables.line_limits(r.bidding_cap, levels)
        for s in r.seats:
            def value(d, k, seat=s.seat):
                changes = [d[f"{seat}_change{i}"][k] for i in range(3)]
                return _race(changes) if objective == "race" else changes[0]

            # Where the auction reached each level: the deals whose stored row differs from the line
            # one step lower there; bidding the level against passing there.
            fields = list(tables.LINE_FIELDS)
            steps = {}
            for k in range(1, len(limits)):
                reached = [d for d in deals if any(d[f"{s.seat}_{f}"][k] != d[f"{s.seat}_{f}"][k - 1] for f in fields)]
                steps[limits[k]] = (len(reached), sum(value(d, k) - value(d, k - 1) for d in reached) / len(reached)
                                    if reached else math.nan)
            assert [v.limit for v in s.lines] == limits
            assert s.pass_value == pytest.approx(sum(value(d, 0) for d in deals) / len(deals))
            # Each line "bid up to b" against always passing, over all the class's deals.
            gains = {limits[k]: (steps[limits[k]][0], sum(value(d, k) - value(d, 0) for d in deals) / len(deals))
                     for k in range(1, len(limits))}
            assert [v.gain for v in s.lines[1:]] == pytest.approx([g for _, g in gains.values()])
            # The twin decides on the table's own gains (equal to the loops' above), so that a tie is
            # not broken by the last bit of a sum taken in another order.
            gains = {v.limit: (gains[v.limit][0], v.gain) for v in s.lines[1:]}
            tested = levels_tested(gains, MIN_REACHED)
            assert s.bid == advised_bid(gains, MIN_REACHED)
            assert s.beyond == first_above(gains, MIN_REACHED, s.bid)
            if s.beyond is not None:  # the beyond line gains no more than X's (than passing)
                assert s.beyond_gain == pytest.approx(gains[s.beyond][1])
                assert s.beyond_gain <= (s.gain if s.bid is not None else 0)
            if s.bid is None:
                assert math.isnan(s.gain) and all(g <= 0 for _, g in tested)
            else:
                advised += 1
                assert (s.reached, s.gain) == (steps[s.bid][0], pytest.approx(gains[s.bid][1]))
                assert s.gain > 0 and s.gain_low <= s.gain <= s.gain_high
                assert all(g <= s.gain + 1e-9 for _, g in tested)  # the highest line gain of the tested lines
    assert advised  # some class is worth bidding in some seat


def test_cli_tables_bids(tmp_path):
    from cli import app

    res = CliRunner().invoke(app, ["tables", "bids", "--deals", "20", "--pimc-deals", "0", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / tables.TABLE_FILE).exists() and "bid-success tables" in res.output
    for args, words in ((["--rules", "nope"], "error:"), (["--objective", "win"], "--objective"),
                        (["--deals", "0"], "--deals"), (["--pimc-deals", "-1"], "--pimc-deals"),
                        (["--min-n", "0"], "--min-n"), (["--worlds", "0"], "--worlds")):
        bad = CliRunner().invoke(app, ["tables", "bids", "--deals", "5", "--out", str(tmp_path / "bad"), *args])
        assert bad.exit_code == 2 and words in bad.output and "Traceback" not in bad.output, (args, bad.output)
        assert len([ln for ln in bad.output.splitlines() if ln.startswith("error")]) == 1, bad.output


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
    from sim.engine.playouts import LINE_COLUMNS, PASS_LINE, Known, Situation, auction_lines, sample_unseen

    rules = HouseRules()
    hand = parse_hand("AH TH KH QH AS 9C JD")
    samples = sample_unseen(hand, Known(), 120, 3)
    one = auction_lines(hand, samples, rules, SEATS["second"], Situation(), [PASS_LINE], 3)
    many = auction_lines(0, samples, rules, SEATS["second"], Situation(), [PASS_LINE], 3, hands=np.full(120, hand))
    assert np.array_equal(one, many)
    # Passing as second hand, seat 0 never declares (first hand is forced to bid).
    assert np.all(one[:, 0, LINE_COLUMNS.index("declarer")] != 0)


def test_bidding_cap(table):
    _, path = table
    df = pl.read_parquet(path)
    # The cap: 120 plus the marriages held (classic), at most the highest contract.
    assert np.array_equal(df["bid_cap"].to_numpy(), np.minimum(120 + df["marriage_value"].to_numpy(), 400))


def test_the_same_seed_gives_the_same_bytes_whatever_the_threads(tmp_path):
    one = tables.build_bid_tables(deals=60, seed=9, out=tmp_path / "one", pimc_deals=2, worlds=2, threads=1)
    two = tables.build_bid_tables(deals=60, seed=9, out=tmp_path / "two", pimc_deals=2, worlds=2, threads=2)
    assert one.read_bytes() == two.read_bytes()


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
    assert all([s["seat"] for s in r["seats"]] == list(tables.SEAT_NAMES) for r in data["cheat_sheet"])
    assert data["line_players"] == tables.PLAYERS["learned"]
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
    from analysis.present.bids import bid_table_lines
    from analysis.present.json_text import to_json

    out, text, as_json, _, result = bids_command
    assert to_json(result) + "\n" == as_json.stdout
    assert "\n".join(bid_table_lines(result)) + "\n" == text.stdout
    assert result.table_file == out / tables.TABLE_FILE and result.plot_files == (
        out / tables.PLOT_FILE, out / tables.METHODS_PLOT_FILE)
    # The progress as the command shows it: each stage once, each part as it is stored.
    assert "60 deals in 1 parts of 1,000 (0 already played)" in text.stderr and "part 1 of 1 stored" in text.stderr


def test_the_plots_are_drawn_from_the_result_alone(bids_command, tmp_path):
    from analysis.present.bids import plot_bid_make_rates, plot_bid_methods

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
    for method in ("heuristic", "learned"):
        row = classes.filter((pl.col("method") == method) & (pl.col("contract") == 120)).row(0, named=True)
        curve = result.curve(row["hand_class"])
        rate = next(r for r in curve.rates(method) if r.contract == 120)
        assert (row["k"], row["n"], row["p"]) == (rate.k, rate.n, rate.p)
        assert row["players"] == tables.PLAYERS[method]
        in_class = stored.with_columns(hand_class=tables.class_expr()).filter(pl.col("hand_class") == row["hand_class"])
        j = result.levels.index(120)
        assert rate.k == sum(x[j] for x in in_class[f"{method}_made"].to_list()) and rate.n == in_class.height
    sheet = result.to_polars(table="cheat_sheet")
    assert sheet.height == 3 * (len(result.cheat_sheet) + len(result.detail))
    assert sheet["bid_at_risk_0.3"].dtype == pl.Int64 and sheet["bid"].dtype == pl.Int64
    assert set(sheet["seat"]) == set(tables.SEAT_NAMES) and set(sheet["players"]) == {tables.PLAYERS["learned"]}
    first = result.cheat_sheet[0].seats[0]
    assert sheet.row(0, named=True)["gain"] == first.gain or math.isnan(first.gain)
    lines = result.to_polars(table="lines")
    assert lines.height == sum(len(s.lines) for r in result.cheat_sheet + result.detail for s in r.seats)
    compared = result.to_polars(table="comparison")
    assert compared["contract"].to_list() == ["100", "110", "120", "140", "160", "100-200"] and compared["n"][0] == 4
    methods = result.to_polars(table="methods")
    assert methods.height == len(result.method_rates) and methods["n"].max() <= 4
    with pytest.raises(ValueError, match="table must be one of"):
        result.to_polars(table="nope")
