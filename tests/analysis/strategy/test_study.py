"""The strategy study (``analysis.strategy.study``): invariants of its sections (shares adding up
to 1, counts equal to the stored deals), the paired concession runs holding the same deals, the
declaration order against a naive twin that replays every deal trick by trick, determinism, reuse
and refusals, the stored and printed spelling of a difference, and the command."""

from __future__ import annotations

import dataclasses
import math

import polars as pl
import pytest
from cli_checks import refused
from typer.testing import CliRunner

from analysis.present.json_text import to_json
from analysis.present.strategy import score_situation_section, strategy_findings, strategy_lines
from analysis.stats import Estimate, stored_row
from analysis.strategy import sections
from analysis.strategy import study as strategy_study
from analysis.strategy.arrays import Difference, load_deals
from cli import app
from sim import InputError
from sim.engine import BatchSpec, play_chunk
from sim.engine.schema import EV_BARREL_ON, EV_BARREL_STAY
from sim.game.rules import HouseRules, load_rules
from sim.runs import scan_deals

GAMES, DEALS, SEED = 40, 1500, 3


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("strategy")
    # The learned player: its sitters open below the barrel's minimum often enough for the naive
    # counts to have cases (learned-win, the default of whole games, seldom does in so few games).
    return strategy_study.strategy(games=GAMES, deals=DEALS, seed=SEED, players="learned", out=out), out


def _sum(shares: dict) -> float:
    return sum(e.value for e in shares.values() if e.n)


def test_shares_add_up(made):
    r, _ = made
    assert _sum(r.raising.choice) == pytest.approx(1)
    assert _sum(r.raising.raise_size) == pytest.approx(1)
    assert sum(c["share of decisions"].value for c in r.raising.talon.values()) == pytest.approx(1)
    for cell in r.raising.talon.values():
        if cell["raise"].n:
            assert sum(cell[c].value for c in sections.CHOICES) == pytest.approx(1)
    for side in ("left", "right"):
        assert _sum(r.discard.rank[side]) == pytest.approx(1)
    assert _sum(r.marriage_order.order) == pytest.approx(1)
    assert sum(c["share of deals"].value for c in r.defence.by_held.values()) == pytest.approx(1)
    assert sum(v["declares"].value for v in r.seats.by_position.values()) == pytest.approx(1)
    st = r.score.sitter
    if st["declares"].value > 0:
        assert sum(st[k].value for k in ("below the minimum", "at the minimum", "above the minimum")) == \
            pytest.approx(1)
    if r.score.bolt_penalties:
        assert _sum(r.score.bolt_penalty_score) == pytest.approx(1)
    for _, leaf in strategy_study.leaves(r.raising, ""):  # every interval holds its value
        if isinstance(leaf, Estimate) and not math.isnan(leaf.low):
            assert leaf.low <= leaf.value <= leaf.high


def _naive_forced_below(rows, rules, position):
    """(contracts a sitter declared below barrel_min_contract, those of them that are the forced bid
    of the seat at ``position`` from the dealer), counted deal by deal from played rows sorted by game
    and deal (the sitter: on the barrel after the previous played deal of the same game)."""
    below = forced = 0
    for prev, row in zip([None] + rows[:-1], rows, strict=True):
        seat = row["declarer"]
        if prev is None or prev["game"] != row["game"]:
            continue
        if not prev[f"events{seat}"] & (EV_BARREL_ON | EV_BARREL_STAY) or row["contract"] >= rules.barrel_min_contract:
            continue
        below += 1
        forced += (seat - row["dealer"]) % 3 == position and row["winning_bid"] == rules.min_bid
    return below, forced


def test_sitter_forced_openings_against_a_naive_count(made):
    """The share of a sitter's contracts below the barrel minimum that are his uncontested forced
    opening, counted deal by deal from the stored rows (the sitter: on the barrel after the previous
    played deal of the same game)."""
    r, _ = made
    rules = load_rules("classic")
    rows = scan_deals(r.runs["games"]).collect().sort("game", "deal")
    rows = rows.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0)).to_dicts()
    below, forced = _naive_forced_below(rows, rules, 1)
    est = r.score.sitter["forced opening, of those below"]
    assert below > 0 and est.n == below
    assert est.value == pytest.approx(forced / below)


def test_counts_match_the_stored_deals(made):
    r, out = made
    games = scan_deals(r.runs["games"]).collect()
    played = games.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))
    assert r.score.deals == r.seats.deals == r.discard.gifts == played.height
    assert r.score.games == GAMES and r.provenance["played_deals"] == played.height
    assert r.raising.decisions == played.filter(pl.col("bid_kind").is_in([0, 3])).height
    assert r.raising.choice["concede"].n == r.raising.decisions
    conceded = played.filter(pl.col("conceded")).height
    assert round(r.conceding.conceded.value * r.conceding.decisions) == conceded
    assert r.defence.deals == played.height - conceded
    # The two paired runs hold the same deals; only the conceded ones are played differently.
    p = r.conceding.paired
    a = scan_deals(r.runs["deals"]).collect().sort("game")
    b = scan_deals(r.runs["deals-concede-off"]).collect().sort("game")
    assert p.mismatched == 0 and p.deals == DEALS and p.conceded == int(a["conceded"].sum()) > 0
    assert int(b["conceded"].sum()) == 0
    same = a.filter(~pl.col("conceded"))["plays"].to_list() == b.filter(~a["conceded"])["plays"].to_list()
    assert same
    # the table holds every estimate and difference, with the provenance as metadata
    table = pl.read_parquet(r.table_path)
    assert table.height == r.to_polars().height and set(table["kind"]) == {"estimate", "difference"}


def naive_order(frame: pl.DataFrame, values) -> dict[str, int]:
    """Replay each played deal trick by trick: who holds which card, who leads each trick, and the
    tricks in which the declarer leads a K or Q of a suit whose partner he still holds and whose
    marriage he declared in the deal. Counted by ORDERS over the deals where he keeps two or more."""
    counts = dict.fromkeys(sections.ORDERS, 0)
    for row in frame.iter_rows(named=True):
        if row["redeal"] or row["declarer"] < 0 or row["conceded"]:
            continue
        d = row["declarer"]
        holds = {}
        for s in range(3):
            cards = row[f"hand{s}"] | (row["talon"] if s == d else 0)
            for c in range(24):
                if cards >> c & 1:
                    holds[c] = s
        for s in range(3):
            if s != d:
                holds[row[f"gift{s}"]] = s
        kept = [suit for suit in range(4) if holds.get(6 * suit + 2) == d and holds.get(6 * suit + 3) == d]
        if len(kept) < 2:
            continue
        hand = {c for c, s in holds.items() if s == d}
        declared = []
        plays = [c & 31 for c in row["plays"]]
        for t in range(8):
            lead = plays[3 * t]
            suit, rank = divmod(lead, 6)
            if holds[lead] == d and rank in (2, 3) and (6 * suit + 5 - rank) in hand and row["marriages" + str(d)] >> \
                    suit & 1:
                declared.append(suit)
            for c in plays[3 * t:3 * t + 3]:
                hand.discard(c)
        if len(declared) >= 2:
            first, second = declared[0], declared[1]
            counts["higher first" if (values[first], first) > (values[second], second) else "lower first"] += 1
        else:
            counts["one declared" if declared else "none declared"] += 1
    return counts


def test_declaration_order_against_a_naive_replay(made):
    r, _ = made
    frame = scan_deals(r.runs["games"]).collect()
    counts = naive_order(frame, load_rules("classic").marriage_values)
    assert sum(counts.values()) == r.marriage_order.deals > 20
    for label, n in counts.items():
        e = r.marriage_order.order[label]
        assert round(e.value * e.n) == n, label
    assert counts["higher first"] and counts["lower first"]


def test_deterministic_and_reused(made, tmp_path):
    r, out = made
    again = strategy_study.strategy(games=GAMES, deals=DEALS, seed=SEED, players="learned", out=tmp_path / "b")
    assert again.to_polars().equals(r.to_polars())
    assert to_json(again).replace(str(tmp_path / "b"), "X") == to_json(r).replace(str(out), "X")
    before = r.table_path.stat().st_mtime_ns
    # the runs are reused, not played again
    reused = strategy_study.strategy(games=GAMES, deals=DEALS, seed=SEED, players="learned", out=out)
    assert reused.to_polars().equals(r.to_polars()) and r.table_path.stat().st_mtime_ns >= before
    with pytest.raises(InputError, match="--games: 40 stored, 41 asked"):
        strategy_study.strategy(games=GAMES + 1, deals=DEALS, seed=SEED, players="learned", out=out)


def test_holm_covers_every_difference(made):
    r, _ = made
    diffs = [leaf for name in strategy_study.SECTIONS for _, leaf in strategy_study.leaves(getattr(r, name), "")
             if isinstance(leaf, Difference)]
    tested = [x for x in diffs if not math.isnan(x.p)]
    assert tested and all(x.p_holm >= x.p for x in tested)
    assert all(math.isnan(x.p_holm) for x in diffs if math.isnan(x.p))


def test_refusals(tmp_path):
    four = tmp_path / "four.toml"
    four.write_text('players = 4\n')
    with pytest.raises(InputError, match="3-player game"):
        strategy_study.strategy(games=10, deals=10, rules=str(four), out=tmp_path / "o")
    with pytest.raises(InputError, match="--games must be 2 or more"):
        strategy_study.strategy(games=1, deals=10, out=tmp_path / "o")
    assert not (tmp_path / "o").exists()


def test_no_concession_rules_skip_the_paired_run(tmp_path):
    rules = tmp_path / "nc.toml"
    rules.write_text('concede = false\n')
    r = strategy_study.strategy(games=4, deals=50, rules=str(rules), out=tmp_path / "o")
    assert r.conceding.paired is None and not r.conceding.allowed and set(r.runs) == {"games", "deals"}
    assert r.conceding.conceded.value == 0


def test_the_command_prints_the_result(made):
    r, out = made
    res = CliRunner().invoke(app, ["tables", "strategy", "--games", str(GAMES), "--deals", str(DEALS), "--seed",
                                   str(SEED), "--players", "learned", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip().splitlines() == strategy_lines(r)
    assert (out / strategy_study.PLOT_FILE).stat().st_size > 5000
    res = CliRunner().invoke(app, ["tables", "strategy", "--games", str(GAMES), "--deals", str(DEALS), "--seed",
                                   str(SEED), "--players", "learned", "--out", str(out), "--json"])
    assert res.exit_code == 0 and res.stdout.strip() == to_json(r).strip()
    refused(CliRunner().invoke(app, ["tables", "strategy", "--games", "7", "--deals", str(DEALS), "--seed",
                                     str(SEED), "--players", "learned", "--out", str(out)]),
            "--games: 40 stored, 7 asked")


def test_concession_off_drops_every_option_that_refines_it():
    # The paired run without concession: its rules must be valid whatever refined the concession
    # (concede_payout among them, docs/RULES.md "Scoring variants").
    rules = HouseRules(concede_payout="half_floor", concede_no_deduction=True, concede_limit=2,
                       concede_third_penalty=True, concede_on_barrel=True)
    off = strategy_study.concede_off(rules)
    off.validate()
    assert not off.concede and off.changes_from(HouseRules()) == {"concede": False}


@pytest.mark.parametrize("changes, position, words", [
    ({"forced_bid_seat": "dealer"}, 0, "his forced opening as the dealer"),
    ({"forced_first_bid": False, "all_pass": "dealer_plays"}, 0, "his contract as the dealer when both others"),
    ({}, 1, "his forced opening as first hand"),
])
def test_sitter_forced_openings_follow_the_forced_seat(made, changes, position, words):
    """Section 6.7's "forced opening, of those below" counts the seat that holds the forced bid: the
    dealer (position 0 from him) under forced_bid_seat = dealer, and under all_pass = dealer_plays the
    dealer's min_bid when both others passed; the report's words name that seat."""
    rules = HouseRules(**changes)
    frame, games = play_chunk(BatchSpec(mode="games", n=40, seed=11, chunk_size=40, players=("heuristic",) * 3,
                                        rules=rules), 0)
    stats = sections.score_stats(load_deals(frame), rules, int(games["finished"].sum()))
    rows = frame.sort("game", "deal").filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0)).to_dicts()
    below, forced = _naive_forced_below(rows, rules, position)
    est = stats.sitter["forced opening, of those below"]
    assert below > 0 and est.n == below and forced > 0
    assert est.value == pytest.approx(forced / below)
    assert stats.forced_opening.startswith(words)
    report = dataclasses.replace(made[0], score=stats)
    assert f"of those below: {stats.forced_opening}" in "\n".join(score_situation_section(report))
    assert stats.forced_opening in "\n".join(strategy_findings(report))


def test_a_difference_is_stored_and_printed_under_its_old_names(made):
    """A ``Difference`` carries its interval as an ``Estimate`` and is spelled as before: the
    columns a, b, diff, low, high, p, p_holm, clusters, in that order, in ``--json``."""
    r, _ = made
    x = r.seats.change_difference["first hand"]
    assert isinstance(x.diff, Estimate) and x.diff.clusters == x.clusters
    row = stored_row(x)
    assert list(row) == ["a", "b", "diff", "low", "high", "p", "p_holm", "clusters"]
    assert (row["diff"], row["low"], row["high"]) == (x.diff.value, x.diff.low, x.diff.high)
    assert r.to_dict()["seats"]["change_difference"]["first hand"] == row
