"""Marriage odds: every exact number against an independent computation (tests/reference_marriages),
and the simulated counterparts against the exact values; the command line."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
import reference_marriages as ref
from typer.testing import CliRunner

from analysis import marriages
from analysis.stats import wilson_interval
from sim.game.rules import HouseRules

VALUES = (40, 60, 80, 100)


@pytest.mark.parametrize("n_cards", [7, 10])
@pytest.mark.parametrize("values", [VALUES, (100, 80, 60, 40), (50, 50, 50, 50)])
def test_hand_odds_match_card_by_card_counting(n_cards, values):
    exact = marriages.hand_odds(n_cards, values)
    twin = ref.hand_quantities(n_cards, values)
    assert {k: v for k, v in exact.items() if v} == {k: v for k, v in twin.items() if v}


def test_talon_odds_match_enumeration():
    t = marriages.talon_odds()
    twin = ref.talon_any_hand()
    assert t["completes a half marriage (any hand)"] == twin["completes"]
    assert t["brings a whole marriage (any hand)"] == twin["whole"]
    # Given counts: every 3-card talon of the 17 unseen cards, enumerated.
    import itertools

    talons = list(itertools.combinations(range(17), 3))
    for j in range(1, 5):
        hits = sum(1 for tal in talons if any(c < j for c in tal))  # cards 0..j-1: the partners
        assert t[f"completes one of {j} half marriages"] == Fraction(hits, len(talons))
        assert t[f"brings an ace, {j} not held"] == Fraction(hits, len(talons))
    for m in range(1, 5):  # suit i's K and Q are unseen cards 2i and 2i + 1
        hits = sum(1 for tal in talons if any(2 * i in tal and 2 * i + 1 in tal for i in range(m)))
        assert t[f"brings a whole marriage, {m} suits unheld"] == Fraction(hits, len(talons))
    assert t["brings an ace (any hand)"] == 1 - Fraction(math.comb(20, 3), math.comb(24, 3))


def test_deal_odds_match_sequential_placement():
    d = marriages.deal_odds()
    law = ref.deal_distribution()

    def p(pred):
        return sum((q for pl, q in law.items() if pred(pl)), Fraction(0))

    def together(pl, s):
        return pl[2 * s] if pl[2 * s] == pl[2 * s + 1] else -1

    assert d["no marriage in any hand"] == p(lambda pl: all(together(pl, s) in (-1, 3) for s in range(4)))
    assert d["a suit's K and Q in one given hand"] == p(lambda pl: together(pl, 2) == 1) == Fraction(7, 92)
    assert d["a suit's K and Q both in the talon"] == p(lambda pl: together(pl, 3) == 3) == Fraction(1, 92)
    for m in range(5):
        assert d.get(f"marriages in the three hands = {m}", 0) == p(
            lambda pl, m=m: sum(together(pl, s) in (0, 1, 2) for s in range(4)) == m)


def test_simulated_values_agree_with_the_exact_ones():
    rows = marriages.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    # Family-wise 95%: each interval at 1 - 0.05 / (number of quantities) (Bonferroni).
    z = _z(1 - 0.05 / (2 * len(rows)))
    bounds = {r.quantity: wilson_interval(r.k, r.n, z) for r in rows}
    outside = [r.quantity for r in rows if not bounds[r.quantity][0] <= r.p <= bounds[r.quantity][1]]
    assert not outside
    assert all(r.n > 0 for r in rows)


def test_the_exact_odds_check_passes_on_random_deals_and_tests_each_quantity_once():
    rows = marriages.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    check = marriages.odds_check(rows, VALUES)
    assert check.consistent and check.p >= check.level and check.worst is not None
    assert all(r.df >= 1 and r.p == r.p for r in check.rows)
    tested = [q for r in check.rows for stratum in r.quantities for q in stratum]
    dropped = dict(check.dropped)
    assert len(tested) == len(set(tested))  # each quantity in one distribution only
    assert sorted(tested + list(dropped)) == sorted(r.quantity for r in rows)  # and every row accounted for
    assert {"hand: at least one marriage", "deal: no marriage in any hand", "hand: ♠ marriage"} <= set(dropped)
    # A stratum's quantities partition its deals: their chances sum to at most 1.
    by = {r.quantity: r for r in rows}
    for r in check.rows:
        for stratum in r.quantities:
            assert sum(by[q].exact for q in stratum) <= 1 and len({by[q].n for q in stratum}) == 1


def _rows_of(counts: dict[str, int], n: int) -> tuple:
    exact = marriages.exact_odds(HouseRules())
    return tuple(marriages.OddsRow(quantity=q, exact=exact[q], p=float(exact[q]), k=k, n=n, simulated=k / n,
                                   ci_low=0.0, ci_high=1.0, inside=True) for q, k in counts.items())


@pytest.mark.parametrize("bias", [0.0, 0.02])
def test_the_exact_odds_check_fails_on_counts_a_few_percent_off(bias):
    """Counts of the number of marriages in a hand at n = 2,000,000, drawn from the exact chances,
    or from chances 2% off (the share of hands without a marriage 2% lower, the rest scaled up)."""
    import numpy as np

    names = [f"hand: marriages = {m}" for m in range(4)]
    exact = marriages.exact_odds(HouseRules())
    p = np.array([float(exact[q]) for q in names])
    p[0] *= 1 - bias
    p[1:] *= (1 - p[0]) / p[1:].sum()
    n = 2_000_000
    counts = np.random.default_rng(5).multinomial(n, p)
    check = marriages.odds_check(_rows_of(dict(zip(names, counts.tolist(), strict=True)), n), VALUES)
    assert [r.distribution for r in check.rows] == ["hand: marriages held"]
    assert check.consistent is (bias == 0)
    if bias:
        assert check.p < 1e-6 and check.worst == "hand: marriages held"


def test_the_exact_odds_check_fails_on_a_biased_simulation():
    """Real random deals with one quantity made 3% too common (as a biased dealer would): the check
    rejects, and names that distribution."""
    import dataclasses

    rows = marriages.marriage_table(deals=200_000, seed=3, rules=HouseRules())
    by = {r.quantity: r for r in rows}
    moved = round(0.03 * by["10 cards: marriages = 1"].k)
    biased = tuple(dataclasses.replace(r, k=r.k + moved) if r.quantity == "10 cards: marriages = 1" else
                   dataclasses.replace(r, k=r.k - moved) if r.quantity == "10 cards: marriages = 0" else r
                   for r in rows)
    check = marriages.odds_check(biased, VALUES)
    assert not check.consistent and check.worst == "10 cards: marriages held"


def _z(q: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(q)


def test_same_seed_same_numbers_and_rules_values():
    a = marriages.marriage_table(deals=3000, seed=9)
    b = marriages.marriage_table(deals=3000, seed=9)
    assert a == b
    rich = marriages.exact_odds(HouseRules(marriage_values=(100, 100, 100, 100)))
    assert rich["hand: marriage points = 100"] == marriages.exact_odds(HouseRules())["hand: marriages = 1"]


def test_cli_table_json_parquet_and_plot(tmp_path):
    import polars as pl

    from cli import app

    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "5000", "--seed", "2", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "hand: ♥ marriage" in res.output and "7/92" in res.output
    df = pl.read_parquet(tmp_path / marriages.TABLE_FILE)
    meta = pl.read_parquet_metadata(tmp_path / marriages.TABLE_FILE)
    assert json.loads(meta["seed"]) == 2 and json.loads(meta["sample_size"]) == 5000
    row = df.filter(pl.col("quantity") == "talon: completes a given half marriage").row(0, named=True)
    assert (row["exact_numerator"], row["exact_denominator"]) == (3, 17)
    assert (tmp_path / marriages.PLOT_FILE).stat().st_size > 10_000
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "500", "--json"])
    data = json.loads(res.output)
    assert next(r for r in data["rows"] if r["quantity"] == "hand: ♠ marriage")["exact"] == "7/92"
    bad = CliRunner().invoke(app, ["tables", "marriages", "--deals", "-1"])
    assert bad.exit_code == 2 and bad.output.startswith("error: --deals must be from 1")


# ---- marriages in play ------------------------------------------------------------------------------
def naive_fates(deals, rules) -> dict:
    """Row by row: the seat's cards after the discard, and what became of each marriage in them."""
    out: dict = {}
    for row in deals.iter_rows(named=True):
        if row["redeal"] or row["declarer"] < 0 or row["conceded"]:
            continue
        d = row["declarer"]
        for p in range(rules.players):
            if not row[f"hand{p}"]:
                continue
            ten = row[f"hand{p}"] | row["talon"]
            if p == d:
                final = ten
                for q in range(rules.players):
                    if q != p and row[f"gift{q}"] >= 0:
                        final &= ~(1 << row[f"gift{q}"])
            else:
                final = row[f"hand{p}"] | (1 << row[f"gift{p}"])
            after = [(d + k) % rules.players for k in range(1, rules.players)]
            order = [q for q in after if rules.players != 4 or q != row["dealer"]]  # play order after him
            role = "declarer" if p == d else ("left defender" if order[0] == p else "right defender")
            for s in range(4):
                k, q = 1 << (6 * s + 3), 1 << (6 * s + 2)
                if p == d and ten & k and ten & q and not (final & k and final & q):
                    out[(role, s, "given away")] = out.get((role, s, "given away"), 0) + 1
                if not (final & k and final & q):
                    continue
                declared = row[f"marriages{p}"] >> s & 1
                won = row[f"tricks{p}"] > 0
                if declared and not won and rules.marriage_burns_without_trick:
                    fate = "declared, burnt"
                elif declared:
                    fate = "declared"
                else:
                    fate = "cards played first" if won else "no trick won"
                out[(role, s, fate)] = out.get((role, s, fate), 0) + 1
    return out


@pytest.mark.parametrize("players, rules", [
    (("heuristic", "random", "random"), HouseRules()),
    (("random",), HouseRules(marriage_first_lead=True, marriage_burns_without_trick=True)),
    (("heuristic", "random", "heuristic", "random"), HouseRules(players=4)),
], ids=["mixed", "random-burns", "four"])
def test_fates_match_a_row_by_row_count(players, rules):
    from sim.engine import BatchSpec, play_chunk

    deals, _ = play_chunk(BatchSpec(mode="deals", n=3000, seed=8, players=players, rules=rules), 0)
    fast = {k: v for k, v in marriages.marriage_fates(deals, rules).items() if v}
    assert fast == naive_fates(deals, rules)
    if rules.marriage_burns_without_trick:
        assert any(f == "declared, burnt" for _, _, f in fast)
    if "random" in players:
        assert any(f == "given away" for _, _, f in fast)  # random declarers give marriage halves away


def test_cli_marriages_in_play_stored_and_resumed(tmp_path):
    import polars as pl

    from cli import app

    args = ["tables", "marriages", "--deals", "200", "--play-deals", "3000", "--players", "heuristic,random,random",
            "--out", str(tmp_path)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "marriages in play: 3,000 deals" in res.output and "cards played first" in res.output
    play = pl.read_parquet(tmp_path / marriages.PLAY_TABLE_FILE)
    assert play.height == 12 and set(play["role"]) == {"declarer", "left defender", "right defender"}
    again = CliRunner().invoke(app, args)  # the stored deals are verified and read again, nothing played
    assert again.exit_code == 0 and again.output.split("marriage odds")[1] == res.output.split("marriage odds")[1]
    stored = str(tmp_path / "marriage-play")
    from_run = CliRunner().invoke(app, ["tables", "marriages", "--deals", "200", "--run", stored])
    assert from_run.exit_code == 0 and "marriages in play: 3,000 deals" in from_run.output
    bad = CliRunner().invoke(app, ["tables", "marriages", "--play-deals", "10"])
    assert bad.exit_code == 2 and "give --out" in bad.output


@pytest.fixture(scope="module")
def bid_table(tmp_path_factory):
    from analysis import tables

    return tables.build_bid_tables(deals=600, seed=5, out=tmp_path_factory.mktemp("bids"), pimc_deals=0)


def test_worth_from_a_bid_table_matches_numpy(bid_table):
    import numpy as np
    import polars as pl

    from analysis.tables import read_metadata

    path = bid_table
    worth = marriages.marriage_worth(path, risk=0.3)
    rows = worth.rows
    assert worth.bids == path and worth.risk == 0.3 and worth.rules == HouseRules() and worth.player == "learned"
    df = pl.read_parquet(path)
    levels = read_metadata(path)["levels"]
    ten = df["hand"].to_numpy().astype(np.int64) | df["talon"].to_numpy().astype(np.int64)
    dd = df["dd_points"].to_numpy().astype(float)
    # The learned declarer's points playing 120 (its entry of the per-contract list), and his
    # make-rates contract by contract (False beyond the most his 10 cards allow).
    learned = np.array([pts[levels.index(120)] for pts in df["learned_points"].to_list()], dtype=float)
    made = np.array(df["learned_made"].to_list(), dtype=bool)
    for r in rows:
        s = "♠♣♦♥".index(r.suit)
        kq = (1 << (6 * s + 2)) | (1 << (6 * s + 3))
        married = (ten & kq) == kq
        assert r.n_with == married.sum() and r.n_without == (~married).sum()
        for points, gain, with_120 in ((dd, r.dd_gain, r.dd120_with), (learned, r.learned_gain, r.learned120_with)):
            assert gain[0] == pytest.approx(points[married].mean() - points[~married].mean())
            assert gain[1] < gain[0] < gain[2]
            assert with_120[0] == pytest.approx((points[married] >= 120).mean())
        # The highest contract the learned declarer makes at least 70% of the time in each group.
        for group, key in ((married, "contract_with"), (~married, "contract_without")):
            safe = [b for j, b in enumerate(levels) if made[group, j].mean() >= 0.7]
            assert getattr(r, key) == (max(safe) if safe else None)
        if r.contract_with is not None and r.contract_without is not None:
            assert r.contract_gain == r.contract_with - r.contract_without
        else:
            assert r.contract_gain is None
        # Within aces classes of the 7 cards (0, 1, 2, 3+), weighted by the married hands' classes.
        aces = np.minimum(df["aces"].to_numpy(), 3)
        for points, same in ((dd, r.dd_gain_same_aces), (learned, r.learned_gain_same_aces)):
            weights = [((married & (aces == c)).sum(),
                        points[married & (aces == c)].mean() - points[~married & (aces == c)].mean())
                       for c in range(4) if (married & (aces == c)).sum() > 1 and (~married & (aces == c)).sum() > 1]
            total = sum(w for w, _ in weights)
            assert same[0] == pytest.approx(sum(w * g for w, g in weights) / total)
    assert rows and all(r.dd_gain[0] > 0 for r in rows)  # a marriage always helps on average
    frame = worth.to_polars()
    assert frame["suit"].to_list() == [r.suit for r in rows]
    assert frame["learned_gain_ci_high"].to_list() == [r.learned_gain[2] for r in rows]
    assert frame["contract_with"].to_list() == [r.contract_with for r in rows]
    # the suit, the counts and contracts, the means, and each interval in three columns
    assert frame["contract_gain"].dtype == pl.Int64 and frame.width == 1 + 5 + 4 + 8 * 3


def test_play_split_by_house_rule(tmp_path):
    import polars as pl

    from cli import app

    burn = tmp_path / "burn.toml"
    burn.write_text("marriage_first_lead = true\nmarriage_burns_without_trick = true\n")
    res = CliRunner().invoke(app, ["tables", "marriages", "--deals", "200", "--play-deals", "3000", "--play-rules",
                                   "classic", "--play-rules", str(burn), "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    assert "-- rules 1-classic" in res.output and "-- rules 2-burn" in res.output
    play = pl.read_parquet(tmp_path / "t" / marriages.PLAY_TABLE_FILE)
    assert set(play["rules"]) == {"1-classic", "2-burn"}
    burnt = play.filter(pl.col("role") == "declarer").group_by("rules").agg(pl.col("declared, burnt").sum())
    by = dict(zip(burnt["rules"], burnt["declared, burnt"], strict=True))
    assert by["1-classic"] == 0 and by["2-burn"] > 0  # only the burning rule burns marriages


# ---- the result object and its presenters -----------------------------------------------------------------
@pytest.fixture(scope="module")
def marriages_command(tmp_path_factory, bid_table):
    """``thousand tables marriages`` with its three parts as text, then as --json (the played deals
    read again), its plots' bytes after each, and the result of the same arguments in Python."""
    from cli import app

    out = tmp_path_factory.mktemp("marriages_command")
    args = ["tables", "marriages", "--deals", "500", "--seed", "4", "--play-deals", "300", "--bids", str(bid_table),
            "--out", str(out)]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    pngs = {name: (out / name).read_bytes() for name in (marriages.PLOT_FILE, marriages.WORTH_PLOT_FILE)}
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    result = marriages.tables_marriages(deals=500, seed=4, play_deals=300, bids=bid_table, out=out)
    return out, text, as_json, pngs, result


def test_the_marriage_result_is_what_the_command_prints(marriages_command, bid_table):
    from analysis.present.json_text import to_json
    from analysis.present.text import marriage_odds_lines

    out, text, as_json, _, result = marriages_command
    assert to_json(result) + "\n" == as_json.stdout
    assert "\n".join(marriage_odds_lines(result)) + "\n" == text.stdout
    assert result.table_file == out / marriages.TABLE_FILE and result.play_table_file == out / marriages.PLAY_TABLE_FILE
    assert result.worth_plot_file == out / marriages.WORTH_PLOT_FILE and result.worth.bids == bid_table
    assert [p.label for p in result.play] == ["1-classic"] and result.play[0].run == out / "marriage-play"
    # The default player is the learned one, what it plays of its weights recorded with the play.
    assert result.play[0].deals == 300 and result.play[0].players == ("learned",) * 3
    from sim.players.learned.weights import weights_identity
    from sim.players.registry import weights_file

    sha = weights_identity(weights_file("learned"))
    assert result.provenance["play_runs"]["1-classic"]["learned_weights"] == [sha]
    assert "played by the learned player, all seats" in text.stdout


def test_the_marriage_plots_are_drawn_from_the_result_alone(marriages_command, tmp_path):
    from analysis.present.plots import plot_marriage_odds, plot_marriage_worth

    out, _, _, pngs, result = marriages_command
    plot_marriage_odds(result, tmp_path / "odds.png")
    plot_marriage_worth(result.worth, tmp_path / "worth.png")
    assert (tmp_path / "odds.png").read_bytes() == pngs[marriages.PLOT_FILE]
    assert (tmp_path / "worth.png").read_bytes() == pngs[marriages.WORTH_PLOT_FILE]
    assert all((out / name).read_bytes() == data for name, data in pngs.items())


def test_the_marriage_result_is_frozen_and_its_tables_are_the_stored_ones(marriages_command):
    import dataclasses

    import polars as pl

    out, _, _, _, result = marriages_command
    for obj in (result, result.rows[0], result.play[0], result.play[0].rows[0], result.worth, result.worth.rows[0]):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.seed = 1
    for table, name in (("odds", marriages.TABLE_FILE), ("play", marriages.PLAY_TABLE_FILE)):
        stored, mine = pl.read_parquet(out / name), result.to_polars(table=table)
        assert mine.schema == stored.schema and mine.equals(stored), table
    assert result.play[0].to_polars().equals(result.to_polars(table="play"))
    assert result.to_polars(table="worth").equals(result.worth.to_polars())
    # The stored metadata is the result's provenance.
    meta = {k: json.loads(v) for k, v in pl.read_parquet_metadata(out / marriages.TABLE_FILE).items()
            if k != "ARROW:schema"}
    assert meta == json.loads(json.dumps(result.provenance))
    assert result.row("hand: ♥ marriage").exact == Fraction(7, 92)


def test_a_rerun_and_the_parts_alone_give_the_same(marriages_command, bid_table):
    from analysis.present.json_text import to_json

    out, _, _, _, result = marriages_command
    again = marriages.tables_marriages(deals=500, seed=4, play_deals=300, bids=bid_table, out=out)
    assert to_json(again) == to_json(result)
    assert again.rows == result.rows and again.worth == result.worth
    assert marriages.marriage_table(deals=500, seed=4) == result.rows
    assert marriages.marriages_in_play(out / "marriage-play", label="1-classic") == result.play[0]
    # Without --out nothing is stored, and no path is given.
    bare = marriages.tables_marriages(deals=500, seed=4)
    assert bare.rows == result.rows and bare.play == () and bare.worth is None
    assert (bare.table_file, bare.plot_file, bare.worth_plot_file, bare.play_table_file) == (None,) * 4
    assert "play_runs" not in bare.to_dict() and bare.to_dict()["play"] == []
