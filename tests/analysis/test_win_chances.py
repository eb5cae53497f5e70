"""Win chances by score situation: the situations recomputed deal by deal from the stored games, the
table's invariants on a small run (chances in [0, 1], the three seats' chances of a situation
summing to about 1, monotone where dense), the validation's bookkeeping, the chance function as the
bid values use it, determinism, the cache and its refusals, and the command's one-line errors."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from analysis import win_chances as wc
from analysis.analysis_dir import read_table_metadata
from analysis.bids.value import line_values
from analysis.players import learned_weights
from analysis.present.json_text import to_json
from analysis.present.win_chances import win_chance_lines
from analysis.stored import StaleResultError
from sim.engine.playouts import LINE_COLUMNS, PASS_LINE
from sim.engine.schema import EV_BARREL_ON, EV_BARREL_STAY, EV_BOLT_PENALTY, EV_FALL_ATTEMPTS, EV_WIN
from sim.game.rules import HouseRules, load_rules
from sim.players.learned.win_nb import win_chance
from sim.players.learned.win_table import load_win_table
from sim.runs import scan_deals, scan_games

GAMES = 600  # heuristic players: a few seconds; the learned player's tables are measured in docs/analyses.md
SEED = 5


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("win")
    return wc.win_chances(rules="classic", games=GAMES, players="heuristic", seed=SEED, out=out)


def naive_situations(run) -> list[tuple[int, tuple[int, ...], tuple[bool, ...], int]]:
    """Walk every finished game deal by deal: the scores before a played deal are those after the
    game's previous played deal (0 at its start), and a seat sits on the barrel when that score is
    the barrel's 880."""
    deals = scan_deals(run).collect().sort("game", "deal")
    winner = dict(scan_games(run).select("game", "winner").collect().iter_rows())
    out = []
    for (game,), rows in deals.group_by(["game"], maintain_order=True):
        if winner[game] < 0:
            continue
        scores = (0, 0, 0)
        for r in rows.iter_rows(named=True):
            if r["redeal"]:
                continue
            out.append((game, scores, tuple(s == 880 for s in scores), winner[game]))
            scores = (r["score0"], r["score1"], r["score2"])
    return out


def test_situations_match_a_deal_by_deal_walk(small):
    from sim.runs import read_shard, verify_run

    shards = verify_run(small.run)
    parts = [wc.situations(read_shard(d), read_shard(g)) for d, g in zip(shards["deals"], shards["games"],
                                                                         strict=True)]
    got = [(int(g), tuple(int(x) for x in s), tuple(bool(x) for x in b), int(w))
           for p in parts for g, s, b, w in zip(p["game"], p["score"], p["on_barrel"], p["winner"], strict=True)]
    want = naive_situations(small.run)
    assert got == want
    assert any(any(b) for _, _, b, _ in want)  # the barrel was reached: the flags were tested
    assert small.deals == len(want) and small.finished <= GAMES


def test_chances_are_probabilities_and_the_seats_sum_to_one(small):
    """Every chance in [0, 1]; for every situation seen in at least 10 deals, the three seats'
    chances (read with ``chance`` from each seat's side) sum to 1 within 4 standard errors of their
    sum (each chance's binomial error over its cell's observations plus the prior's weight, times
    the design effect measured): a wrong rotation or a seat mixed up fails by far more."""
    c = small.chances
    assert np.all((c >= 0) & (c <= 1)) and small.checks.low >= 0 and small.checks.high <= 1
    grid = small.grid
    sits = np.array([s for _, s, _, _ in naive_situations(small.run)])
    # Situations as the table sees them: each seat's score state; one exact representative of each.
    _, first, counts = np.unique(grid.state(sits), axis=0, return_index=True, return_counts=True)
    dense = sits[first[counts >= 10]]
    assert len(dense) >= 10
    s0, s1, s2 = dense.T
    total = small.chance(s0, s1, s2) + small.chance(s1, s2, s0) + small.chance(s2, s0, s1)
    se2 = np.zeros(len(dense))
    for own, left, right in ((s0, s1, s2), (s1, s2, s0), (s2, s0, s1)):
        o, a, b = grid.state(own), grid.state(left), grid.state(right)
        n = small.counts[o, np.maximum(a, b), np.minimum(a, b)]
        p = small.chance(own, left, right)
        se2 += p * (1 - p) / (n + wc.PRIOR_STRENGTH) * max(1.0, small.checks.design_effect)
    assert np.all(np.abs(total - 1) <= 4 * np.sqrt(se2)), np.abs(total - 1).max()
    assert small.checks.sum_max_z <= 4 and small.checks.sum_dense == int((counts >= wc.DENSE).sum())
    # At the start of a game the three seats are alike.
    assert small.chance(0, 0, 0) == pytest.approx(1 / 3, abs=4 * math.sqrt(2 / 9 / small.counts[
        grid.state(0), grid.state(0), grid.state(0)]))


def test_monotone_where_dense(small):
    """Between neighbouring cells of 40+ observations each (the small run has few of DENSE), the
    chance rises with one's own score and falls with an opponent's, except by noise: a move the
    wrong way beyond 2 standard errors of the raw shares' difference happens about 2.3% of the time
    by chance; allow 5%."""
    s = small.grid.states
    n, ch = small.counts, small.chances
    share = np.divide(small.wins, n, out=np.zeros_like(small.wins), where=n > 0)
    pairs = against = 0
    for own in range(s - 1):
        for lead in range(s - 1):
            for trail in range(lead + 1):
                for (o2, l2, t2), sign in (((own + 1, lead, trail), 1), ((own, lead + 1, trail), -1),
                                           ((own, lead, trail + 1), -1)):
                    if max(o2, l2, t2) >= s - 1 or t2 > l2 or min(n[own, lead, trail], n[o2, l2, t2]) < 40:
                        continue
                    pa, pb, na, nb = share[own, lead, trail], share[o2, l2, t2], n[own, lead, trail], n[o2, l2, t2]
                    se = math.sqrt(max(1.0, small.checks.design_effect) * (pa * (1 - pa) / na + pb * (1 - pb) / nb))
                    pairs += 1
                    against += sign * (ch[o2, l2, t2] - ch[own, lead, trail]) < -2 * se
    assert pairs >= 20
    assert against <= 0.05 * pairs
    assert small.checks.monotone_against <= 0.05 * small.checks.monotone_pairs


def test_validation_bookkeeping(small):
    v = small.validation
    assert len(v.calibration) == 10 and sum(d.n for d in v.calibration) == v.observations
    assert v.games == len({g for g, *_ in naive_situations(small.run) if g % wc.HOLDOUT_EVERY == 0})
    assert v.observations == 3 * sum(1 for g, *_ in naive_situations(small.run) if g % wc.HOLDOUT_EVERY == 0)
    assert all(d.low <= d.predicted <= d.high for d in v.calibration)
    assert [d.predicted for d in v.calibration] == sorted(d.predicted for d in v.calibration)
    names = [x.baseline_name for x in v.brier]
    assert names == ["1/3 each", "the leader wins"]
    leader = v.brier[1]
    assert leader.table < leader.baseline and leader.diff.high < 0  # a certain guess is far worse
    for x in v.brier + v.log_loss + v.end_game_brier:
        assert x.diff.value == pytest.approx(x.table - x.baseline) and x.diff.low <= x.diff.value <= x.diff.high


def test_chance_as_the_bid_values_use_it(small):
    grid = small.grid
    assert small.chance(1000, 500, 200) == 1.0 and small.chance(500, 1020, 200) == 0.0
    assert small.chance(200, 880, 300) == small.chance(200, 300, 880)  # the opponents are sorted
    assert small.chance(880, 0, 0) == small.chance(880, 0, 0, own_on_barrel=True)
    assert small.chance(880, 0, 0) == small.chances[grid.barrel_state, grid.state(0), grid.state(0)]
    assert small.chance(-5000, 0, 0) == small.chance(-200, 0, 0)  # everything below the floor in its bin
    arr = small.chance(np.array([[0, 300], [600, 880]]), np.array([100]), 0)
    assert arr.shape == (2, 2)
    # The win objective of analysis.bids.value, on lines of made-up deals.
    rng = np.random.default_rng(0)
    cols = {c: i for i, c in enumerate(LINE_COLUMNS)}
    lines = np.zeros((50, 2, len(LINE_COLUMNS)), dtype=np.int64)
    lines[..., cols["score0"]] = rng.integers(-200, 900, (50, 2))
    lines[..., cols["score1"]] = rng.integers(-200, 880, (50, 2))
    lines[..., cols["score2"]] = rng.integers(-200, 880, (50, 2))
    lines[..., cols["declarer"]] = -1
    values = line_values(lines, [PASS_LINE, 120], objective="win", win_chance=small.chance)
    expect = small.chance(lines[:, 1, cols["score0"]], lines[:, 1, cols["score1"]], lines[:, 1, cols["score2"]])
    assert values[1].mean.value == pytest.approx(expect.mean())


def test_same_seed_same_bytes_and_the_cache(small, tmp_path):
    again = wc.win_chances(rules="classic", games=GAMES, players="heuristic", seed=SEED, out=tmp_path)
    assert again.table_path.read_bytes() == small.table_path.read_bytes()
    assert to_json(again) == to_json(small)
    stamp = small.table_path.stat().st_mtime_ns
    cached = wc.win_chances(rules="classic", games=GAMES, players="heuristic", seed=SEED, out=small.table_path.parent)
    assert small.table_path.stat().st_mtime_ns == stamp  # read back, not redone
    assert to_json(cached) == to_json(small) and win_chance_lines(cached) == win_chance_lines(small)
    assert np.array_equal(cached.chances, small.chances) and cached.checks == small.checks
    stored = pl.read_parquet(small.table_path)
    assert small.to_polars().equals(stored)
    assert read_table_metadata(small.table_path)["games"] == GAMES
    with pytest.raises(dataclasses.FrozenInstanceError):
        small.games = 1


def test_stale_tables_are_refused_and_damaged_ones_redone(small, tmp_path):
    out = small.table_path.parent
    with pytest.raises(StaleResultError, match=r"the sizes \(--games: 600 stored, 610 asked\)"):
        wc.win_chances(rules="classic", games=GAMES + 10, players="heuristic", seed=SEED, out=out)
    with pytest.raises(StaleResultError, match=r"the seed"):
        wc.win_chances(rules="classic", games=GAMES, players="heuristic", seed=SEED + 1, out=out)
    with pytest.raises(StaleResultError, match=r"the rules"):
        wc.win_chances(rules="short", games=GAMES, players="heuristic", seed=SEED, out=out)
    # A table whose bytes are not those its manifest records is computed again from the stored games.
    copy = tmp_path / "copy"
    wc.win_chances(rules="classic", games=20, players="heuristic", seed=1, out=copy)
    path = copy / wc.TABLE_FILE
    good = path.read_bytes()
    manifest = path.with_suffix(".json")
    manifest.write_text(manifest.read_text().replace('"sha256": "', '"sha256": "0'))
    wc.win_chances(rules="classic", games=20, players="heuristic", seed=1, out=copy)
    assert path.read_bytes() == good
    path.write_bytes(b"not parquet")  # one that cannot be read is damaged too, not refused (issue 43, item 14)
    redone = wc.win_chances(rules="classic", games=20, players="heuristic", seed=1, out=copy)
    assert path.read_bytes() == good and redone.games == 20


def test_command_prints_the_result_and_bad_input_gets_one_line(small, tmp_path):
    from cli import app

    out = small.table_path.parent
    args = ["tables", "win-chances", "--games", str(GAMES), "--players", "heuristic", "--seed", str(SEED),
            "--out", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == win_chance_lines(small)
    assert (out / wc.PLOT_FILE).stat().st_size > 20_000
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0 and as_json.stdout == to_json(small) + "\n"
    four = tmp_path / "four.toml"
    four.write_text("players = 4\n")
    file = tmp_path / "file"
    file.write_text("x")
    for bad, words in ((["--games", "3"], "--games must be 10 or more"),
                       (["--seed", "-1"], "--seed must be 0 or more"),
                       (["--rules", str(tmp_path / "missing.toml")], "missing.toml"),
                       (["--rules", str(four)], "the 3-player game"),
                       (["--players", "nobody"], "nobody"),
                       (["--out", str(file)], "is a file"),
                       (["--games", str(GAMES + 10), "--out", str(out)], "--fresh")):
        res = CliRunner().invoke(app, ["tables", "win-chances", "--games", "20", "--players", "heuristic",
                                       "--out", str(tmp_path / "o"), *bad])
        assert res.exit_code == 2, (bad, res.output)
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], (bad, res.output)


def test_range_barrel_situations_and_states(tmp_path):
    """The range barrel (barrel_freeze = false; docs/RULES.md "Barrel variants"): a sitter keeps his score,
    and whoever ends a deal from the barrel to below the target sits on it, after every penalty; the
    situations read from the events agree with that walk, and a score in the range is the barrel state."""
    from sim.runs import read_shard, verify_run

    spec = tmp_path / "range.toml"
    spec.write_text("barrel_freeze = false\nbarrel_knock_off = false\nbarrel_simultaneous_penalty = false\n")
    table = wc.win_chances(rules=str(spec), games=300, players="heuristic", seed=SEED, out=tmp_path / "o")
    assert table.grid.ranged
    shards = verify_run(table.run)
    parts = [wc.situations(read_shard(d), read_shard(g), True) for d, g in zip(shards["deals"], shards["games"],
                                                                               strict=True)]
    got = [(int(g), tuple(int(x) for x in s), tuple(bool(x) for x in b))
           for p in parts for g, s, b in zip(p["game"], p["score"], p["on_barrel"], strict=True)]
    want = [(g, s, tuple(880 <= x < 1000 for x in s)) for g, s, _, _ in naive_situations(table.run)]
    assert got == want
    assert any(any(b) and any(880 < x < 1000 for x in s) for _, s, b in want)  # sitters above the barrel's score
    states = table.states(np.array([879, 880, 955, 999]))
    assert list(states) == [table.grid.bins - 1] + [table.grid.barrel_state] * 3


# ---- the counters and their terms (issue 45) ----------------------------------------------------------
def naive_counters(played: pl.DataFrame, rules) -> dict[str, np.ndarray]:
    """The counters walked deal by deal, row by row, as docs/RULES.md states the rules."""
    out = {c: np.zeros((len(played), 3), dtype=np.int64) for c in wc.COUNTERS}
    state: dict[str, list[int]] = {}
    game = None
    for i, r in enumerate(played.iter_rows(named=True)):
        if r["game"] != game:
            game, state = r["game"], {c: [0, 0, 0] for c in wc.COUNTERS}
        for c in wc.COUNTERS:
            out[c][i] = state[c]
        for p in range(3):
            ev, bolt = r[f"events{p}"], r[f"bolt{p}"]
            sits = ev & EV_BARREL_STAY and not ev & EV_BARREL_ON
            state["attempts"][p] = state["attempts"][p] + 1 if sits else 0
            if rules.bolt_count != "each":
                empty = (r[f"card_points{p}"] + r[f"marriage_points{p}"] == 0 if rules.bolt_on == "zero_points"
                         else r[f"tricks{p}"] == 0)
                keeps = rules.bolt_exempt_keeps_run and r["declarer"] == p and not r["conceded"] and empty
                if rules.bolt_count == "consecutive" and bolt == 0 and not keeps:
                    state["bolts"][p] = 0
                state["bolts"][p] += bolt
                if state["bolts"][p] >= 3:
                    state["bolts"][p] = 0
            if rules.bolt_on == "three_passes":
                state["passes"][p] = 0 if r["declarer"] == p or state["passes"][p] == 2 else state["passes"][p] + 1
    return out


def _played_counters(table, rules) -> list[tuple[pl.DataFrame, dict[str, np.ndarray]]]:
    from sim.runs import read_shard, verify_run

    out = []
    for path in verify_run(table.run)["deals"]:
        deals = read_shard(path)
        played = deals.filter(deals["redeal"] == 0).sort("game", "deal")
        out.append((played, wc.counters(played, rules)))
    return out


def _seat_array(played: pl.DataFrame, name: str) -> np.ndarray:
    return np.stack([played[f"{name}{p}"].to_numpy().astype(np.int64) for p in range(3)], axis=1)


def test_counters_agree_with_a_walk_and_with_the_engines_penalties(small):
    """Barrel attempts and bolts rebuilt from the stored deals (classic rules) equal a row-by-row walk,
    and agree with what the engine did: a fall after the attempts comes exactly on the third attempt,
    a sitter who stays has used fewer, and a bolt penalty comes exactly when the count reaches three."""
    rules = load_rules("classic")
    falls = penalties = 0
    for played, got in _played_counters(small, rules):
        want = naive_counters(played, rules)
        for c in wc.COUNTERS:
            assert np.array_equal(got[c], want[c]), c
        ev, bolt = _seat_array(played, "events"), _seat_array(played, "bolt")
        fell = (ev & EV_FALL_ATTEMPTS) != 0
        assert np.all(got["attempts"][fell] == rules.barrel_attempts - 1)
        stayed = ((ev & EV_BARREL_STAY) != 0) & ((ev & EV_BARREL_ON) == 0)
        assert np.all(got["attempts"][stayed] < rules.barrel_attempts - 1)
        paid = (ev & EV_BOLT_PENALTY) != 0
        reached = (got["bolts"] + bolt >= 3) & ((ev & EV_WIN) == 0)
        assert np.array_equal(paid, reached) and not got["passes"].any()
        falls, penalties = falls + int(fell.sum()), penalties + int(paid.sum())
    assert falls > 0 and penalties > 0  # both were tested


@pytest.mark.parametrize("text", ["preset = \"online\"\n",
                                  "bolt_count = \"consecutive\"\nbolt_on = \"zero_points\"\n"
                                  "bolt_own_game_exempt = true\nbolt_exempt_keeps_run = true\n"])
def test_counters_of_other_bolt_rules(text, tmp_path):
    """bolt_on = three_passes (online): a bolt comes exactly on the third deal in a row without declaring,
    nothing is counted toward a penalty (bolt_count = each); consecutive bolts with the exempt declarer's
    run kept: a penalty exactly when the run reaches three. Both equal the row-by-row walk."""
    spec = tmp_path / "rules.toml"
    spec.write_text(text)
    rules = load_rules(str(spec))
    table = wc.win_chances(rules=str(spec), games=150, players="heuristic", seed=SEED, out=tmp_path / "o")
    assert [t.counter for t in table.terms] == list(wc.term_counters(rules))
    seen = 0
    for played, got in _played_counters(table, rules):
        want = naive_counters(played, rules)
        for c in wc.COUNTERS:
            assert np.array_equal(got[c], want[c]), c
        ev, bolt = _seat_array(played, "events"), _seat_array(played, "bolt")
        if rules.bolt_on == "three_passes":
            declares = played["declarer"].to_numpy()[:, None] == np.arange(3)[None, :]
            assert np.array_equal(bolt > 0, (got["passes"] == 2) & ~declares) and not got["bolts"].any()
            seen += int((bolt > 0).sum())
        else:
            paid = (ev & EV_BOLT_PENALTY) != 0
            assert np.array_equal(paid, (got["bolts"] + bolt >= 3) & ((ev & EV_WIN) == 0))
            seen += int(paid.sum())
    assert seen > 0


def _expit(x):
    return 1.0 / (1.0 + np.exp(-np.asarray(x, dtype=np.float64)))


def _logit(p):
    p = np.asarray(p, dtype=np.float64)
    return np.log(p / (1 - p))


def test_terms_are_fitted_and_judged_on_held_out_games(small):
    """Each term's record: the held-out comparison's bookkeeping and the kept rule; its adjustments
    solve the penalised fit's equations on all games (at each level the observed wins minus the
    predicted ones equal the ridge times the adjustment), kept terms together, the others alone."""
    from sim.runs import read_shard, verify_run

    assert [t.counter for t in small.terms] == ["attempts", "bolts"]
    shards = verify_run(small.run)
    obs = [wc.observations(wc.situations(read_shard(d), read_shard(g), rules=load_rules("classic")), small.grid)
           for d, g in zip(shards["deals"], shards["games"], strict=True)]
    obs = {k: np.concatenate([o[k] for o in obs]) for k in obs[0]}
    base = _logit(small.chances[obs["own"], obs["lead"], obs["trail"]])
    sitting = obs["own"] == small.grid.barrel_state

    def shift(term):
        step = np.asarray(term.adjust)[np.minimum(obs[term.counter], len(term.adjust) - 1)]
        return np.where(sitting, step, 0.0) if term.counter == "attempts" else step

    kept = [t for t in small.terms if t.kept]
    for t in small.terms:
        x = base + sum(shift(u) for u in (kept if t.kept else [t]))
        rows = sitting if t.counter == "attempts" else np.ones(len(base), dtype=bool)
        level = np.minimum(obs[t.counter], len(t.adjust) - 1)[rows]
        assert list(t.counts) == list(np.bincount(level, minlength=len(t.adjust)))
        resid = np.bincount(level, weights=(obs["won"] - _expit(x))[rows], minlength=len(t.adjust))
        assert resid == pytest.approx(wc.TERM_RIDGE * np.asarray(t.adjust), abs=1e-6)
        for v in (t.log_loss, t.brier):
            assert v.diff.value == pytest.approx(v.table - v.baseline) and v.diff.low <= v.diff.value <= v.diff.high
        assert t.p <= t.p_holm <= 1 and t.kept == (t.p_holm < wc.TERM_ALPHA and t.log_loss.diff.value < 0)


def test_chance_reads_the_kept_terms_of_the_counters_given(small):
    grid = small.grid
    term = {c: wc.Term(counter=c, adjust=adjust, counts=(1,) * len(adjust), log_loss=small.terms[0].log_loss,
                       brier=small.terms[0].brier, p=0.0, p_holm=0.0, kept=True)
            for c, adjust in (("attempts", (0.3, 0.1, -0.5)), ("bolts", (0.2, 0.0, -0.4)))}
    planted = dataclasses.replace(small, terms=tuple(term.values()))
    base, sitter = small.chance(500, 300, 200), small.chance(grid.top, 300, 200)
    assert planted.chance(500, 300, 200) == base  # no counter given: the cell's chance, averaged over them
    assert planted.chance(500, 300, 200, own_bolts=2) == pytest.approx(_expit(_logit(base) - 0.4))
    assert planted.chance(500, 300, 200, own_attempts=2) == base  # attempts are read on the barrel only
    got = planted.chance(grid.top, 300, 200, own_attempts=np.array([0, 1, 2, 7]), own_bolts=1)
    assert got == pytest.approx(_expit(_logit(sitter) + np.array([0.3, 0.1, -0.5, -0.5])))
    assert planted.chance(1000, 0, 0, own_bolts=2) == 1.0 and planted.chance(0, 1000, 0, own_bolts=0) == 0.0
    unkept = dataclasses.replace(planted, terms=tuple(dataclasses.replace(t, kept=False) for t in term.values()))
    assert unkept.chance(grid.top, 300, 200, own_attempts=2, own_bolts=2) == sitter


# ---- the shipped tables ------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", wc.SHIPPED)
def test_shipped_tables_load_match_their_making_and_pass_the_checks(preset):
    path = wc.shipped_path(preset)
    table = wc.shipped_table(preset)
    assert table is not None and table.table_path == path
    meta = read_table_metadata(path)
    seats = ["learned"] * 3
    assert HouseRules.from_dict(meta["rules"]) == load_rules(preset) and meta["players"] == seats and meta["seed"] == 0
    assert meta["learned_weights"] == learned_weights(seats) and meta["games"] == wc.SHIPPED_GAMES
    assert meta["thousand_version"] and len(meta["code_fingerprint"]) == 16 and meta["method"]["holdout_every"] == 5
    c, v = table.checks, table.validation
    assert 0 <= c.low <= c.high <= 1 and c.sum_mean_abs < 0.02 and c.monotone_against <= 0.01 * c.monotone_pairs
    assert table.finished >= 0.99 * table.games and v.brier[0].diff.high < 0 and v.log_loss[0].diff.high < 0
    assert all(abs(d.observed.value - d.predicted) < 0.03 for d in v.calibration)
    assert [t.counter for t in table.terms] == list(wc.term_counters(load_rules(preset)))
    assert table.chances.shape == (table.grid.states,) * 3
    assert wc.shipped_table(preset, "heuristic") is None


def test_only_the_shipped_presets_ship_and_others_find_none():
    assert sorted(p.stem for p in wc.SHIPPED_DIR.glob("*.parquet")) == sorted(wc.SHIPPED)
    assert wc.shipped_table(dataclasses.replace(load_rules("classic"), target=1200)) is None


def test_a_shipped_table_made_before_an_option_existed_still_matches(tmp_path, monkeypatch):
    """The effective rules are compared: a table whose recorded rules lack an option added since
    (read as its default, the game it was played under) matches; one of another value does not."""
    source = pq.read_table(wc.shipped_path("classic"))
    meta = {k.decode(): v for k, v in pq.read_metadata(wc.shipped_path("classic")).metadata.items()
            if k != b"ARROW:schema"}
    rules = json.loads(meta["rules"])
    newest = list(rules)[-1]
    for name, edit in (("older", lambda r: r.pop(newest)), ("other", lambda r: r.update(target=1100))):
        folder = tmp_path / name
        folder.mkdir()
        changed = dict(rules)
        edit(changed)
        stored = {**meta, "rules": json.dumps(changed)}
        pq.write_table(source.replace_schema_metadata({k.encode(): v for k, v in stored.items()}),
                       folder / "classic.parquet")
        monkeypatch.setattr(wc, "SHIPPED_DIR", folder)
        found = wc.shipped_table("classic")
        assert (found is not None) == (name == "older"), name


def test_shipped_as_the_score_aware_player_reads_it(small, tmp_path):
    """``ship_table`` writes the table as the score-aware learned player's win block, which the
    kernel reads as ``WinChanceTable.chance`` does at the bins' centres (and linearly between)."""
    sha = wc.ship_table(small.table_path, tmp_path / "t.npz")
    block, meta = load_win_table(tmp_path / "t.npz")
    assert meta["npz_sha256"] == sha and meta["games"] == GAMES and meta["players"] == ["heuristic"] * 3
    centres = [-180, 20, 420, 700, 860]
    for own in centres:
        for a in centres:
            for b in centres:
                assert win_chance(block, 0, own, False, a, False, b, False) == pytest.approx(
                    float(small.chance(own, a, b)), abs=1e-6)
    assert win_chance(block, 0, 880, True, 20, False, 20, False) == pytest.approx(float(small.chance(880, 20, 20)))
    assert win_chance(block, 0, 1000, False, 20, False, 20, False) == 1.0
