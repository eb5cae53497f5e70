"""Barrel survival: the episodes recomputed row by row from the stored deals of the same runs, a
rule that cannot matter leaving the table unchanged, one that must moving it, the result object
against what the command prints and stores, and the command."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import barrel
from analysis.measures import episodes
from analysis.present.barrel import barrel_lines, plot_barrel
from analysis.present.json_text import to_json
from analysis.stats import Estimate
from cli import app
from sim.engine import BatchSpec, play_chunk
from sim.engine.schema import (
    EV_BARREL_OFF,
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_FALL_ATTEMPTS,
    EV_FALL_CONTRACT,
    EV_FALL_TO_ZERO,
    EV_KNOCKED_OFF,
    EV_NO_WIN_PENALTY,
    EV_REDEAL_PENALTY,
    EV_WIN,
)
from sim.game.rules import HouseRules, load_rules
from sim.runs import read_shard, verify_run
from tests.analysis.test_stats import naive_clustered_share


def naive_episodes(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int, ranged: bool = False) -> list[dict]:
    """Walk every game deal by deal, one seat at a time: a climb opens an episode, each played deal
    after it is an attempt (not a 4-player dealer's deal), a deal that does not leave the seat on
    the barrel closes it. ``ranged``: the range barrel, where a penalty in the climb's deal is no fall."""
    winner = {g["game"]: g["winner"] for g in games.iter_rows(named=True)}
    out = []
    for (game,), rows in deals.sort("game", "deal").group_by(["game"], maintain_order=True):
        rows = [r for r in rows.iter_rows(named=True) if r["redeal"] == 0]
        for p in range(n_seats):
            open_ep = None
            for r in rows:
                ev = r[f"events{p}"]
                if open_ep is not None:
                    if not (n_seats == 4 and r["dealer"] == p):
                        open_ep["attempts"] += 1
                    if not ev & EV_BARREL_STAY:
                        if ev & EV_WIN:
                            fate = "up"
                        elif ev & EV_BARREL_OFF:
                            fate = "left downward"
                        elif ev & EV_FALL_CONTRACT:
                            fate = "fell: failed contract"
                        elif ev & EV_FALL_ATTEMPTS:
                            fate = "fell: attempts used up"
                        elif ev & EV_KNOCKED_OFF:
                            fate = "fell: knocked off"
                        elif ev & EV_BOLT_PENALTY:
                            fate = "fell: bolt penalty"
                        elif ev & EV_NO_WIN_PENALTY:
                            fate = "fell: no-win penalty"
                        elif ev & EV_REDEAL_PENALTY:
                            fate = "fell: redeal penalty"
                        else:
                            fate = "fell: other"
                        out.append({**open_ep, "fate": fate, "zeroed": bool(ev & EV_FALL_TO_ZERO)})
                        open_ep = None
                if ev & EV_BARREL_ON and ev & (EV_BOLT_PENALTY | EV_REDEAL_PENALTY) and not ranged:
                    # Climbed and, in the same deal, paid a penalty the engine counts after the climb:
                    # off the barrel again before any attempt.
                    fate = "fell: bolt penalty" if ev & EV_BOLT_PENALTY else "fell: redeal penalty"
                    out.append({"game": game, "seat": p, "attempts": 0, "fate": fate,
                                "zeroed": bool(ev & EV_FALL_TO_ZERO)})
                elif ev & EV_BARREL_ON:
                    open_ep = {"game": game, "seat": p, "attempts": 0}
            if open_ep is not None:
                fate = "unfinished" if winner[game] < 0 else "another player won"
                out.append({**open_ep, "fate": fate, "zeroed": False})
    return out


CONFIGS = {
    "classic-mixed": (("heuristic", "random", "heuristic"), HouseRules()),
    "penalties": (("heuristic",), HouseRules(redeal_four_aces=True, redeal_hand_points_below=15,
                                             redeal_limit_penalty=True, bolt_penalty=120, barrel_attempts=2)),
    "four": (("heuristic", "heuristic", "random", "heuristic"), HouseRules(players=4)),
    "two": (("heuristic", "random"), HouseRules(players=2)),
    "accumulate": (("heuristic",), HouseRules(barrel_accumulate=True, barrel_talon_free=True)),
    "short-capped": (("random", "heuristic", "heuristic"), HouseRules(target=555, barrel=440)),
    "no-win": (("heuristic", "random", "random"), HouseRules(no_win_penalty="cumulative", bolt_penalty=0)),
    # Barrel variants (docs/RULES.md "Barrel variants"): the range barrel, where a sitter leaves downward
    # without falling and a penalty in the climb's deal is no fall; a sitter sending newcomers back.
    "range": (("heuristic", "random", "heuristic"), HouseRules(
        barrel=800, barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False, bolt_count="each")),
    "collision": (("heuristic", "heuristic", "random"), HouseRules(barrel_collision="sitter_stays",
                                                               barrel_failed_contract="stays")),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_episodes_match_a_deal_by_deal_walk(name):
    players, rules = CONFIGS[name]
    deals, games = play_chunk(BatchSpec(mode="games", n=150, seed=12, players=players, rules=rules,
                                        max_deals_per_game=300), 0)
    key = ("game", "seat")
    ranged = not rules.barrel_freeze
    fast = sorted(episodes(deals, games, rules.players, ranged), key=lambda e: tuple(e[k] for k in key))
    slow = sorted(naive_episodes(deals, games, rules.players, ranged), key=lambda e: tuple(e[k] for k in key))
    assert fast == slow
    assert fast, "the sample must reach the barrel"
    if name == "no-win":  # a no-win penalty on the barrel is a fall of its own cause
        assert any(e["fate"] == "fell: no-win penalty" for e in fast)
    if name == "range":  # leaving the range barrel downward is a fate of its own, no fall
        assert any(e["fate"] == "left downward" for e in fast)
        assert not any(e["fate"].startswith("fell") and e["fate"] != "fell: attempts used up" for e in fast)
    if name == "collision":  # newcomers sent back by the sitter: falls without an episode
        refused = barrel.refused_climbs(deals, rules.players)
        assert refused > 0 and refused == sum(
            int(((deals[f"events{p}"] & barrel.EV_KNOCKED_OFF) != 0).sum()) for p in range(3))


def test_rules_that_cannot_and_must_matter(tmp_path):
    def summary(rules_text, name):
        f = tmp_path / f"{name}.toml"
        f.write_text(rules_text)
        # One player for every rule set (alone, the default would play learned-win under the rules
        # that match a preset's table, learned under the others: the players, not the rules, would differ).
        first = barrel.tables_barrel(games=1200, rules=[str(f)], players="learned", seed=4, out=tmp_path / name)
        again = barrel.tables_barrel(games=1200, rules=[str(f)], players="learned", seed=4, out=tmp_path / name)
        assert again == first  # the stored runs reused: the same result
        return again.summaries[f"1-{name}"]

    classic = summary("", "classic")
    # redeal_policy decides nothing when no redeal rule is on: the same games, the same table.
    assert summary('redeal_policy = "never"\n', "never") == classic
    two = summary("barrel_attempts = 2\n", "two")
    assert two.up_on_attempt[3].k == 0 and classic.up_on_attempt[3].k > 0
    # Fewer attempts: more falls by attempts used up, fewer episodes ending upward.
    assert two.fates["fell: attempts used up"].rate.low > classic.fates["fell: attempts used up"].rate.high
    assert two.fates["up"].rate.high < classic.fates["up"].rate.low


def test_cli_barrel_tables_reuse_and_errors(tmp_path):
    args = ["tables", "barrel", "--games", "200", "--rules", "classic", "--rules", "short", "--out", str(tmp_path)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "1-classic" in res.output and "2-short" in res.output and "fell: knocked off" in res.output
    table = pl.read_parquet(tmp_path / barrel.TABLE_FILE)
    assert set(table["rules"]) == {"1-classic", "2-short"}
    assert (tmp_path / barrel.PLOT_FILE).stat().st_size > 10_000
    shard = tmp_path / "barrel-runs" / "1-classic" / "games" / "part-00000.parquet"
    stamp = shard.stat().st_mtime_ns
    again = CliRunner().invoke(app, args)  # the stored runs are verified and reused: nothing played
    assert again.exit_code == 0 and shard.stat().st_mtime_ns == stamp
    assert again.output.split("barrel survival")[1] == res.output.split("barrel survival")[1]
    nobarrel = tmp_path / "nobarrel.toml"
    nobarrel.write_text('barrel = "none"\n')
    bad = CliRunner().invoke(app, ["tables", "barrel", "--games", "5", "--rules", str(nobarrel),
                                   "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "have no barrel" in bad.output


def test_the_result_is_what_the_command_prints_and_stores(tmp_path):
    out = tmp_path / "o"
    args = ["tables", "barrel", "--games", "80", "--rules", "classic", "--rules", "short", "--seed", "3",
            "--out", str(out)]
    text = CliRunner().invoke(app, args)
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert text.exit_code == 0 and as_json.exit_code == 0, text.output + as_json.output
    result = barrel.tables_barrel(games=80, rules=["classic", "short"], seed=3, out=out)  # all stored: reused
    assert result.rule_sets == ("1-classic", "2-short")
    assert isinstance(result.summaries["2-short"], barrel.BarrelSummary)
    assert to_json(result) + "\n" == as_json.stdout
    assert barrel_lines(result) == text.stdout.splitlines()
    assert barrel_lines(result, None)[-1] == f"table: {out / barrel.TABLE_FILE}; plot: {out / barrel.PLOT_FILE}"
    stored = pl.read_parquet(result.table_path)
    assert result.to_polars().equals(stored) and result.to_polars().schema == stored.schema
    assert set(stored["rules"]) == set(result.rule_sets)
    s = result.summaries["1-classic"]
    assert sum(v.k for v in s.fates.values()) == s.episodes == sum(s.attempts.values())
    assert s.lasted(0).k + s.lasted(1).k + s.lasted(2).k + s.lasted(3, or_more=True).k == s.episodes
    # Each share an Estimate (k of n, its interval clustered by game: the naive twin from the
    # episodes counted game by game), stored and printed as p, ci_low, ci_high.
    up = s.fates["up"]
    shards = verify_run(result.runs["1-classic"])
    eps = [e for d, g in zip(shards["deals"], shards["games"], strict=True)
           for e in naive_episodes(read_shard(d), read_shard(g), 3)]
    games = sorted({e["game"] for e in eps})
    wins = np.array([sum(e["fate"] == "up" for e in eps if e["game"] == g) for g in games])
    trials = np.array([sum(e["game"] == g for e in eps) for g in games])
    share, lo, hi = naive_clustered_share(wins, trials)
    assert (up.rate.value, up.rate.low, up.rate.high) == pytest.approx((share, lo, hi), abs=1e-12)
    assert up.rate.n == up.n == s.episodes and up.rate.clusters == len(games)
    plain = Estimate.share(up.k, up.n)
    assert up.rate.high - up.rate.low >= plain.high - plain.low - 1e-12  # never narrower than Wilson's
    assert stored.row(0, named=True) == {"rules": "1-classic", "quantity": "up", "k": up.k, "n": up.n,
                                         "p": up.rate.value, "ci_low": up.rate.low, "ci_high": up.rate.high}
    assert json.loads(as_json.stdout)["summaries"]["1-classic"]["game_length"] == {
        "mean": s.game_length.value, "n": s.games, "ci_low": s.game_length.low, "ci_high": s.game_length.high}
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.games = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.fates["up"].k = 0


def test_the_plot_is_drawn_from_the_result_alone(tmp_path):
    result = barrel.tables_barrel(games=60, rules=["classic"], seed=1, out=tmp_path / "o")
    assert not result.plot_path.exists()  # the computation draws nothing
    plot_barrel(result, tmp_path / "a.png")
    elsewhere = dataclasses.replace(result, runs={k: tmp_path / "gone" for k in result.runs})
    plot_barrel(elsewhere, tmp_path / "b.png")  # the stored runs are not read
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a.png").stat().st_size > 10_000


def test_wins_from_score_match_a_row_by_row_count():
    players, rules = CONFIGS["classic-mixed"]
    deals, games = play_chunk(BatchSpec(mode="games", n=120, seed=3, players=players, rules=rules), 0)
    winner = {g["game"]: g["winner"] for g in games.iter_rows(named=True)}
    naive: dict = {}
    for (game,), rows in deals.sort("game", "deal").group_by(["game"], maintain_order=True):
        before = [0, 0, 0]
        counted = set()
        for r in rows.iter_rows(named=True):
            p = r["dealer"]
            cls = before[p] // 100 * 100
            if r["redeal"] == 0 and winner[game] >= 0 and (p, cls) not in counted:
                counted.add((p, cls))
                cell = naive.setdefault(cls, [0, 0])
                cell[0] += winner[game] == p
                cell[1] += 1
            before = [r[f"score{q}"] for q in range(3)]
    assert barrel.wins_from_score(deals, games, 3) == naive


def test_attempt_chances_once_reached_match_a_naive_count(tmp_path):
    """Each attempt's chance is counted among the episodes that reached it (sat through at least
    that many played deals), from the deal-by-deal walk; the fates add up to every episode."""
    result = barrel.tables_barrel(games=600, rules=["classic"], seed=9, out=tmp_path)
    ((label, s),) = result.summaries.items()
    shards = verify_run(result.runs[label])
    eps = [e for d, g in zip(shards["deals"], shards["games"], strict=True)
           for e in naive_episodes(read_shard(d), read_shard(g), 3)]
    assert sum(v.k for v in s.fates.values()) == len(eps) == s.episodes > 0
    for a in (1, 2, 3):
        reached = [e for e in eps if e["attempts"] >= a]
        won = [e for e in reached if e["fate"] == "up" and e["attempts"] == a]
        assert (s.up_once_reached[a].k, s.up_once_reached[a].n) == (len(won), len(reached))
        assert s.up_on_attempt[a].k == len(won) and s.up_on_attempt[a].n == len(eps)
    assert s.up_once_reached[2].n < s.up_once_reached[1].n  # fewer episodes reach the second attempt


def test_a_penalty_in_the_climb_deal_is_a_fall_at_once():
    """Under online rules (a bolt for three passes, each bolt paid at once) a seat can climb onto
    the barrel and pay a bolt in the same deal: the engine settles the bolt after the climb, so the
    seat falls there, an episode of no attempt with that cause (it read as a fall of no cause on
    the next deal)."""
    rules = load_rules("online")
    deals, games = play_chunk(BatchSpec(mode="games", n=200, seed=3, players=("heuristic",) * 3, rules=rules,
                                        max_deals_per_game=300), 0)
    eps = episodes(deals, games, 3)
    assert not [e for e in eps if e["fate"] == "fell: other"]
    at_once = [e for e in eps if e["attempts"] == 0 and e["fate"] == "fell: bolt penalty"]
    assert at_once, "the sample must hold a climb that pays a bolt in the same deal"
    key = ("game", "seat")
    assert sorted(eps, key=lambda e: tuple(e[k] for k in key)) == sorted(
        naive_episodes(deals, games, 3), key=lambda e: tuple(e[k] for k in key))
