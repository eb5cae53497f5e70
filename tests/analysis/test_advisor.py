"""The bid advisor: exact talon chances, sampling, the dd method against the solver and a stored
independent estimate, monotone success curves, expected scores, determinism, PIMC kernels, the
result object (frozen, its table, its JSON, text and CSV as the command prints them), CLI errors.
The three-declarer comparison on many deals is in the slow tier."""

import dataclasses
import json
import math
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analysis import advisor
from analysis.present.json_text import to_json
from analysis.present.text import advice_csv, advice_lines
from sim.engine import playouts
from sim.game.cards import parse_card, parse_hand
from sim.game.rules import HouseRules

KNOWN = Path(__file__).parent.parent / "known_answers" / "bid_dd.json"
HAND = "AH TH KH QH AS 9C JD"


# ---- exact talon chances ---------------------------------------------------------------------------
def test_talon_chances_match_closed_forms():
    hand = parse_hand("KH AS TS 9C JC 9D JD")  # half marriage KH, aces AS, tens TS
    t = advisor.talon_chances(hand)
    assert t.talons == comb(17, 3)
    marriages = {m.suit: m for m in t.marriages}
    assert marriages["H"].p == Fraction(3, 17) and marriages["H"].holding == "KH"  # QH: one of 17 unseen cards
    # Both halves of another suit's marriage arrive together: C(15, 1) / C(17, 3).
    assert marriages["C"].p == Fraction(15, comb(17, 3)) and marriages["C"].holding == ""
    assert [c.card for c in t.aces] == ["AC", "AD", "AH"] and all(c.p == Fraction(3, 17) for c in t.aces)
    assert t.at_least_one_ace == 1 - Fraction(comb(14, 3), comb(17, 3))
    assert sum(t.aces_distribution) == 1 == sum(t.tens_distribution)
    assert t.aces_distribution[3] == Fraction(1, comb(17, 3))
    # Expected talon points: 3/17 of the unseen cards' points.
    unseen_points = 120 - sum((0, 2, 3, 4, 10, 11)[c % 6] for c in range(24) if hand >> c & 1)
    assert t.expected_points == Fraction(3 * unseen_points, 17)


def test_talon_chances_with_known_cards():
    hand = parse_hand("KH AS TS 9C JC 9D JD")
    known = playouts.Known(left=parse_hand("QH"))
    t = advisor.talon_chances(hand, known)
    assert "H" not in {m.suit for m in t.marriages}  # the QH is with the left opponent
    assert t.talons == comb(16, 3)
    t2 = advisor.talon_chances(hand, playouts.Known(talon=parse_hand("QH")))
    assert {m.suit: m.p for m in t2.marriages}["H"] == 1


def test_sampling_agrees_with_the_exact_chances_and_keeps_known_cards():
    hand = parse_hand("KH AS TS 9C JC 9D JD")
    known = playouts.Known(left=parse_hand("AC"), right=parse_hand("TD"))
    n = 20000
    s = playouts.sample_unseen(hand, known, n, seed=3)
    assert np.all(s[:, 1] >> parse_card("AC") & 1) and np.all(s[:, 2] >> parse_card("TD") & 1)
    assert np.all((s[:, 0] | s[:, 1] | s[:, 2] | hand) == (1 << 24) - 1)
    assert [bin(int(x)).count("1") for x in s[0]] == [3, 7, 7]
    exact = advisor.talon_chances(hand, known)
    p = float({m.suit: m.p for m in exact.marriages}["H"])  # 3/16 now
    freq = float(np.mean(s[:, 0] >> parse_card("QH") & 1))
    assert abs(freq - p) < 4 * math.sqrt(p * (1 - p) / n)
    ace = float(exact.at_least_one_ace)
    aces = (1 << parse_card("AD")) | (1 << parse_card("AH"))
    freq_ace = float(np.mean((s[:, 0] & aces) != 0))
    assert abs(freq_ace - ace) < 4 * math.sqrt(ace * (1 - ace) / n)


# ---- the dd method -----------------------------------------------------------------------------------
def test_dd_levels_equal_thresholded_best_discard_values():
    rules = HouseRules()
    for text in (HAND, "AS KS 9H JC QD 9D TC"):
        hand = parse_hand(text)
        s = playouts.sample_unseen(hand, playouts.Known(), 24, seed=11)
        levels = playouts.dd_levels(hand, s, rules, 100, 300, threads=1)
        exact = playouts.dd_exact_values(hand, s, rules, threads=1)
        expected = np.where(exact >= 100, 100 + (np.minimum(exact, 300) - 100) // 5 * 5, 95)
        assert np.array_equal(levels, expected)


def test_dd_agrees_with_the_independent_estimate():
    known = json.loads(KNOWN.read_text())
    for h in known["hands"]:
        n = 400
        r = advisor.advise(hand=h["hand"], samples=n, seed=5, methods="dd")
        rows = {row.contract: row for row in r.contracts}
        for b, p_known in h["p_make"].items():
            if int(b) not in rows:
                assert p_known == 0
                continue
            p = rows[int(b)].estimate("dd").p_make
            pooled = (p * n + p_known * h["samples"]) / (n + h["samples"])
            se = math.sqrt(max(pooled * (1 - pooled), 1e-4) * (1 / n + 1 / h["samples"]))
            assert abs(p - p_known) <= 4 * se + 1e-9, (h["hand"], b, p, p_known)


# ---- the report ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report():
    return advisor.advise(hand=HAND, samples=150, seed=1, methods="dd,heuristic", seat="second")


def test_json_rows_and_monotone_probabilities(report):
    text = to_json(report)
    data = json.loads(text)
    rows = data["contracts"]
    assert rows[0]["contract"] == 100
    for row in rows:
        assert {"contract", "p_make", "ci_low", "ci_high"} <= set(row)
        assert row["ci_low"] <= row["p_make"] <= row["ci_high"]
    for m in ("dd", "heuristic"):
        ps = [row["by_method"][m]["p_make"] for row in rows]
        assert all(a >= b for a, b in zip(ps, ps[1:], strict=False))
    assert [r["contract"] for r in rows if r["biddable"]][-1] == report.bidding_cap == 220
    assert rows[-1]["contract"] == report.raise_cap


def test_expected_scores_and_advice(report):
    for row in report.contracts:
        for x in row.estimates:
            assert x.ev_declare == pytest.approx((2 * x.p_make - 1) * row.contract)
    dd = report.advice_for("dd")
    ok = [r.contract for r in report.contracts if r.biddable and r.estimate("dd").p_make >= 0.7]
    assert dd.max_bid_at_risk == ok[-1]
    assert math.isfinite(report.pass_line.ev) and "heuristic" in report.pass_line.method
    assert advice_lines(report) and advice_csv(report).startswith("method,contract")


def test_on_the_barrel_small_contracts_score_nothing():
    r = advisor.advise(hand=HAND, samples=60, seed=2, methods="dd", on_barrel=True)
    for row in r.contracts:
        x = row.estimate("dd")
        if row.contract < 120:
            assert x.ev_declare == pytest.approx(-(1 - x.p_make) * row.contract)
    assert r.situation.on_barrel


def test_deterministic_whatever_the_threads():
    a = advisor.advise(hand=HAND, samples=120, seed=9, methods="dd,heuristic", threads=1)
    b = advisor.advise(hand=HAND, samples=120, seed=9, methods="dd,heuristic", threads=2)
    assert a.contracts == b.contracts and a.pass_line == b.pass_line and a == b


# ---- PIMC kernels ------------------------------------------------------------------------------------
def test_sample_world_respects_voids_and_known_cards():
    from sim.game.rng_nb import seed_state
    from sim.players.pimc_nb import new_pimc_buffer, sample_world

    rng = seed_state([1, 2, 3, 4])
    wbuf = new_pimc_buffer()
    pool = parse_hand("9S JS QS 9C JC QC 9D JD")
    voids = np.array([0, 1, 0], dtype=np.int64)  # seat 1 has shown out of spades
    for _ in range(200):
        out = np.zeros(3, dtype=np.int64)
        sample_world(rng, pool, 1, 4, 2, 4, voids, out, wbuf)
        assert out[1] & 0x3F == 0 and out[1] | out[2] == pool and bin(int(out[1])).count("1") == 4


def test_pimc_plays_legal_deals():
    samples = playouts.sample_unseen(parse_hand(HAND), playouts.Known(), 3, 0)
    r = playouts.played_points(parse_hand(HAND), samples, HouseRules(), "pimc", 0, worlds=4, threads=1)
    assert np.all((r >= 0) & (r <= 120 + 100 + 80))


# ---- command line --------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["AH TH KH QH AS 9C"], "expected 7"),
    (["AH TH KH QH AS 9C 9C"], "duplicate"),
    (["AH TH KH QH AS 9C XX"], "malformed"),
    ([HAND, "--left", "AH"], "in your hand"),
    ([HAND, "--rules", "nope"], "neither a preset"),
    ([HAND, "--method", "magic"], "unknown method"),
    ([HAND, "--seat", "fourth"], "seat"),
])
def test_cli_errors_are_one_line(args, words):
    from cli import app

    res = CliRunner().invoke(app, ["bid", *args, "--samples", "10"])
    assert res.exit_code == 2
    err = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert len(err) == 1 and words in err[0] and "Traceback" not in res.output


def test_two_player_rules_are_refused(tmp_path):
    """Advice and bid tables value 7-card hands of the 3-player deal: players = 2 is refused, named."""
    from cli import app

    rules = tmp_path / "two.toml"
    rules.write_text("players = 2\n")
    for args in (["bid", HAND, "--rules", str(rules), "--samples", "10"],
                 ["tables", "bids", "--deals", "5", "--rules", str(rules), "--out", str(tmp_path / "t")]):
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2 and "players = 2" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "t").exists()


def test_cli_json():
    from cli import app

    res = CliRunner().invoke(app, ["bid", HAND, "--samples", "40", "--method", "dd", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.output[res.output.index("{"):])
    assert data["contracts"][0]["contract"] == 100 and "p_make" in data["contracts"][0]


# ---- slow: the three declarers on the same deals -------------------------------------------------------
@pytest.mark.slow
def test_pimc_declarer_between_heuristic_and_dd():
    from analysis.tables import random_deals

    rules = HouseRules()
    d = random_deals(150, seed=7)
    plays = np.stack([d[:, 1], d[:, 2], d[:, 3]], axis=1)
    dd = playouts.dd_exact_values(0, np.stack([d[:, 0] | d[:, 1], d[:, 2], d[:, 3]], axis=1), rules)
    heur = playouts.played_points(0, plays, rules, "heuristic", 7, hands=d[:, 0])
    pimc = playouts.played_points(0, plays, rules, "pimc", 7, hands=d[:, 0], worlds=12)
    levels = np.arange(100, 205, 5)
    rate = {m: float((v[:, None] >= levels[None, :]).mean()) for m, v in (("dd", dd), ("heuristic", heur),
                                                                          ("pimc", pimc))}
    print("make-rates over 100..200:", rate)
    assert rate["heuristic"] < rate["pimc"] < rate["dd"]


def test_json_is_strict_json_even_for_one_sample():
    r = advisor.advise(hand=HAND, samples=1, methods="heuristic", threads=1)
    text = to_json(r)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert r.recommendation.method == "heuristic"


def test_one_recommendation_and_the_forced_bid():
    r = advisor.advise(hand="9S JS 9C JC 9D JD QH", samples=200, methods="dd,heuristic", threads=1)
    lines = advice_lines(r)
    assert lines[-1].startswith("recommendation (heuristic play): forced bid 100, then pass")
    assert r.recommendation.action == "forced bid 100, then pass" and r.recommendation.p_make is None
    assert not any("(nothing: pass)" in ln for ln in lines)
    strong = advisor.advise(hand=HAND, samples=200, methods="dd,heuristic", threads=1)
    rec = strong.recommendation
    assert rec.method == "heuristic" and rec.bid == strong.advice_for("heuristic").max_bid_at_risk
    assert advice_lines(strong)[-1].startswith(f"recommendation (heuristic play): bid up to {rec.bid}")


# ---- the result object: frozen, its table, and what the command prints of it ------------------------------
SMALL = ["--samples", "40", "--seed", "3", "--seat", "second", "--method", "heuristic,dd"]


@pytest.fixture(scope="module")
def small():
    return advisor.advise(hand=HAND, rules="classic", samples=40, seed=3, seat="second", methods="heuristic,dd")


def printed(*args):
    from cli import app

    res = CliRunner().invoke(app, ["bid", *args, "--no-progress"])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("form", ["text", "--json", "--csv"])
def test_the_command_prints_the_result(small, form):
    expected = {"text": "\n".join(advice_lines(small)) + "\n", "--json": to_json(small) + "\n",
                "--csv": advice_csv(small)}[form]
    assert printed(HAND, *SMALL, *([form] if form != "text" else [])) == expected


def test_a_hand_that_cannot_bid_prints_its_result(tmp_path):
    rules = tmp_path / "r.toml"
    rules.write_text("[rules]\nforced_first_bid = false\nmin_bid = 130\n")
    hand = "9S JS 9C JC 9D JD QH"
    r = advisor.advise(hand=hand, rules=str(rules), samples=20, methods="dd")
    assert not r.can_bid and r.contracts == () and r.recommendation.action == "pass"
    args = [hand, "--rules", str(rules), "--samples", "20", "--method", "dd"]
    assert printed(*args) == "\n".join(advice_lines(r)) + "\n"
    assert printed(*args, "--json") == to_json(r) + "\n"
    empty = r.to_polars()
    assert empty.height == 0 and empty.columns == list(advisor.LEVEL_COLUMNS)
    assert empty.schema == small_schema()


def small_schema():
    import polars as pl

    return pl.Schema({"contract": pl.Int64, "biddable": pl.Boolean, "method": pl.String, "n": pl.Int64,
                      "made": pl.Int64, "p_make": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                      "ev_declare": pl.Float64, "ev_ci_low": pl.Float64, "ev_ci_high": pl.Float64})


def test_to_polars_is_the_levels_table(small):
    import io

    import polars as pl

    df = small.to_polars()
    assert df.schema == small_schema()
    pairs = [(row, e) for row in small.contracts for e in row.estimates]
    assert df.height == len(pairs) == 2 * len(small.contracts) > 0
    for got, (row, e) in zip(df.iter_rows(named=True), pairs, strict=True):
        assert got == {"contract": row.contract, "biddable": row.biddable, **{k: getattr(e, k) for k in
                                                                            advisor.LEVEL_COLUMNS[2:]}}
    assert df["method"].to_list()[:2] == ["heuristic", "dd"]
    csv = pl.read_csv(io.StringIO(advice_csv(small)))  # the CSV prints the same rows
    assert csv["contract"].to_list() == df["contract"].to_list() and csv["made"].to_list() == df["made"].to_list()
    assert csv["p_make"].to_list() == pytest.approx(df["p_make"].to_list(), abs=1e-6)


def test_the_advice_is_frozen_all_through(small):
    for obj, name in ((small, "samples"), (small.contracts[0], "contract"), (small.contracts[0].estimates[0], "n"),
                      (small.pass_line, "ev"), (small.method_advice[0], "best_ev"),
                      (small.recommendation, "bid"), (small.talon, "talons"), (small.talon.aces[0], "p")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 0)
    assert isinstance(hash(small), int)  # tuples, not lists or dicts, inside
    assert small.samples_of("heuristic") == 40 and small.advice_for("dd").method == "dd"
    with pytest.raises(KeyError):
        small.advice_for("pimc")
