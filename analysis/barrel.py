"""Barrel survival: what happens to a player who reaches the barrel, from stored whole-game runs.

A **barrel episode** starts at a deal whose ``events`` bits say the seat climbed onto the barrel
(EV_BARREL_ON) and runs over the played deals after it (thrown-in deals are not played and do not
count) while the seat stays on (EV_BARREL_STAY). The first played deal after the climb without
EV_BARREL_STAY ends it, and its bits say how:

- **up**: the seat won the game (EV_WIN), on attempt k = the played deals it sat through,
  this one included (with four players the deals it sat out as dealer are no attempts);
- **fell**, by cause: a failed contract (EV_FALL_CONTRACT), attempts used up (EV_FALL_ATTEMPTS),
  knocked off by a newcomer (EV_KNOCKED_OFF), a bolt penalty (EV_BOLT_PENALTY), the dealer's
  redeal penalty (EV_REDEAL_PENALTY), or another (for instance a dump truck on a barrel of 555);
  a fall that set the score to zero (EV_FALL_TO_ZERO) is counted as well;
- an episode still running at the game's last deal ended with **another player's win**, or
  **unfinished** when the game hit its deal limit.

Climbs that reached the barrel together with another player (EV_SIMULTANEOUS) never sit; they are
counted apart. Everything is read from the verified shards of a run, one shard at a time, so
memory stays flat whatever the number of games.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.stats import json_ready, mean_interval, wilson_interval
from analysis.stored import FINGERPRINT, holds_out
from sim import InputError
from sim.engine.schema import (
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_FALL_ATTEMPTS,
    EV_FALL_CONTRACT,
    EV_FALL_TO_ZERO,
    EV_KNOCKED_OFF,
    EV_REDEAL_PENALTY,
    EV_SIMULTANEOUS,
    EV_WIN,
)

if TYPE_CHECKING:
    import polars as pl

    from sim.runs.backend import Backend

__all__ = [
    "FALL_CAUSES", "FATES", "MAX_ATTEMPT_SHOWN", "TABLE_FILE", "PLOT_FILE", "episodes", "deals_with_a_sitter",
    "SCORE_STEP", "wins_from_score", "simultaneous_climbs", "barrel_summary", "format_summaries", "IDENTITY",
    "tables_barrel",
]

FALL_CAUSES = (("failed contract", EV_FALL_CONTRACT), ("attempts used up", EV_FALL_ATTEMPTS),
               ("knocked off", EV_KNOCKED_OFF), ("bolt penalty", EV_BOLT_PENALTY),
               ("redeal penalty", EV_REDEAL_PENALTY))
FATES = ("up", *(f"fell: {c}" for c, _ in FALL_CAUSES), "fell: other", "another player won", "unfinished")
MAX_ATTEMPT_SHOWN = 10
TABLE_FILE = "barrel.parquet"
PLOT_FILE = "barrel_survival.png"


def episodes(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int) -> list[dict]:
    """Every barrel episode of the games in ``deals`` / ``games`` (frames of one shard): seat, game,
    fate, attempts, fell to zero. Deals must hold whole games."""
    d = deals.sort("game", "deal")
    played = (d["redeal"].to_numpy() == 0)
    game = d["game"].to_numpy()[played]
    dealer = d["dealer"].to_numpy()[played]
    winners = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    last_of_game = np.r_[game[1:] != game[:-1], True].nonzero()[0]
    out = []
    for p in range(n_seats):
        ev = d[f"events{p}"].to_numpy().astype(np.int64)[played]
        counts = np.ones(len(ev), dtype=np.int64)
        if n_seats == 4:
            counts[dealer == p] = 0  # sitting out is no attempt
        cum = np.cumsum(counts)
        ends = ((ev & EV_BARREL_STAY) == 0).nonzero()[0]
        for c in ((ev & EV_BARREL_ON) != 0).nonzero()[0]:
            k = np.searchsorted(ends, c, side="right")
            last = last_of_game[np.searchsorted(last_of_game, c)]
            end = ends[k] if k < len(ends) else None
            if end is None or end > last:  # still on the barrel when the game stopped
                winner = winners[int(game[c])]
                fate = "unfinished" if winner < 0 else "another player won"
                out.append({"game": int(game[c]), "seat": p, "fate": fate, "attempts": int(cum[last] - cum[c]),
                            "zeroed": False})
                continue
            bits = int(ev[end])
            if bits & EV_WIN:
                fate = "up"
            else:
                fate = next((f"fell: {name}" for name, bit in FALL_CAUSES if bits & bit), "fell: other")
            out.append({"game": int(game[c]), "seat": p, "fate": fate, "attempts": int(cum[end] - cum[c]),
                        "zeroed": bool(bits & EV_FALL_TO_ZERO)})
    return out


def deals_with_a_sitter(deals: pl.DataFrame, n_seats: int) -> int:
    """Played deals that begin with somebody on the barrel: the previous played deal of the same
    game left a seat on it (EV_BARREL_ON or EV_BARREL_STAY)."""
    d = deals.filter(deals["redeal"] == 0).sort("game", "deal")
    on = np.zeros(d.height, dtype=bool)
    for p in range(n_seats):
        on |= (d[f"events{p}"].to_numpy().astype(np.int64) & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
    game = d["game"].to_numpy()
    return int((on[:-1] & (game[1:] == game[:-1])).sum())


SCORE_STEP = 100  # width of the score classes of the win-from-score table


def wins_from_score(deals: pl.DataFrame, games: pl.DataFrame, n_seats: int) -> dict[int, list[int]]:
    """{score class: [games won, observations]} over finished games: for each seat and each score
    class (SCORE_STEP points, floored) that the seat dealt from in a game, one observation, the
    first such deal, and whether the seat won that game. One per game and class, so that the
    observations of a class come from different games (independent), not from deals of one game
    that share its outcome."""
    winner = dict(zip(games["game"].to_list(), games["winner"].to_list(), strict=True))
    d = deals.sort("game", "deal")
    game = d["game"].to_numpy()
    dealer = d["dealer"].to_numpy()
    played = d["redeal"].to_numpy() == 0
    first = np.r_[True, game[1:] != game[:-1]]
    out: dict[int, list[int]] = {}
    for p in range(n_seats):
        after = d[f"score{p}"].to_numpy().astype(np.int64)
        before = np.where(first, 0, np.r_[0, after[:-1]])
        mine = played & (dealer == p)
        seen: set[tuple[int, int]] = set()
        for g, sc in zip(game[mine], before[mine], strict=True):
            w = winner[int(g)]
            cls = int(sc // SCORE_STEP * SCORE_STEP)
            if w < 0 or (int(g), cls) in seen:
                continue  # unfinished: no outcome; or this game already counted in this class
            seen.add((int(g), cls))
            cell = out.setdefault(cls, [0, 0])
            cell[0] += int(w == p)
            cell[1] += 1
    return out


def simultaneous_climbs(deals: pl.DataFrame, n_seats: int) -> int:
    return int(sum(((deals[f"events{p}"].to_numpy().astype(np.int64) & EV_SIMULTANEOUS) != 0).sum()
                   for p in range(n_seats)))


def barrel_summary(run: Path) -> dict:
    """Fates, attempts and game length of a stored games run, with 95% intervals."""

    from sim.runs import read_run_metadata, read_shard, verify_run

    meta = read_run_metadata(run)
    if meta.get("mode") != "games":
        raise InputError(f"run {run} holds independent deals; the barrel needs whole games (thousand simulate --games)")
    n_seats = meta["rules"]["players"]
    shards = verify_run(run)
    # Counters only, shard by shard: memory does not grow with the number of games.
    fates = dict.fromkeys(FATES, 0)
    zeroed = 0
    up_on: dict[int, int] = {}
    attempts: dict[int, int] = {}
    simultaneous = 0
    n_games, length_sum, length_sq = 0, 0.0, 0.0
    barrel_deals = 0
    played_deals = 0
    from_score: dict[int, list[int]] = {}
    for deals_path, games_path in zip(shards["deals"], shards["games"], strict=True):
        deals, games = read_shard(deals_path), read_shard(games_path)
        for e in episodes(deals, games, n_seats):
            fates[e["fate"]] += 1
            zeroed += e["zeroed"]
            attempts[e["attempts"]] = attempts.get(e["attempts"], 0) + 1
            if e["fate"] == "up":
                up_on[e["attempts"]] = up_on.get(e["attempts"], 0) + 1
        for cls, (k, n_) in wins_from_score(deals, games, n_seats).items():
            cell = from_score.setdefault(cls, [0, 0])
            cell[0] += k
            cell[1] += n_
        simultaneous += simultaneous_climbs(deals, n_seats)
        lengths = games["deals"].to_numpy().astype(np.float64)
        n_games += len(lengths)
        length_sum += float(lengths.sum())
        length_sq += float((lengths ** 2).sum())
        played_deals += int((deals["redeal"] == 0).sum())
        barrel_deals += deals_with_a_sitter(deals, n_seats)
    n = sum(fates.values())
    mean = length_sum / n_games if n_games else math.nan
    var = (length_sq - n_games * mean * mean) / (n_games - 1) if n_games > 1 else math.nan
    lo, hi = mean_interval(mean, math.sqrt(max(0.0, var)) if n_games > 1 else math.nan, n_games)
    summary = {
        "run": meta, "episodes": n, "simultaneous_climbs": simultaneous, "games": n_games,
        "fates": {f: _share(k, n) for f, k in fates.items()},
        "fell": _share(sum(k for f, k in fates.items() if f.startswith("fell")), n),
        "fell_to_zero": _share(zeroed, n),
        "up_on_attempt": {a: _share(up_on.get(a, 0), n) for a in range(1, MAX_ATTEMPT_SHOWN + 1)},
        "attempts": dict(sorted(attempts.items())),
        "game_length": {"mean": mean, "n": n_games, "ci_low": lo, "ci_high": hi},
        "barrel_share_of_deals": _share(barrel_deals, played_deals),
        "win_from_score": {cls: _share(k, n_) for cls, (k, n_) in sorted(from_score.items())},
    }
    return summary


def _share(k: int, n: int) -> dict:
    lo, hi = wilson_interval(k, n)
    return {"k": k, "n": n, "p": k / n if n else math.nan, "ci_low": lo, "ci_high": hi}


def format_summaries(summaries: dict[str, dict]) -> list[str]:
    names = list(summaries)
    width = 24
    lines = ["barrel survival (share of barrel episodes, [95% interval])",
             f"{'':<30}" + "".join(f"{n[:width - 2]:<{width}}" for n in names)]

    def row(label, cells):
        lines.append(f"{label:<30}" + "".join(f"{c:<{width}}" for c in cells))

    def pct(x):
        return "-" if not x["n"] else f"{x['p']:.3f} [{x['ci_low']:.3f}, {x['ci_high']:.3f}]"

    row("games / barrel episodes", [f"{s['games']:,} / {s['episodes']:,}" for s in summaries.values()])
    for f in FATES:
        row(f, [pct(s["fates"][f]) for s in summaries.values()])
    row("fell (all causes)", [pct(s["fell"]) for s in summaries.values()])
    row("fell to zero", [pct(s["fell_to_zero"]) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}", [pct(s["up_on_attempt"][a]) for s in summaries.values()])
    for a in range(0, 4):
        label = f"episodes of {a}{'+' if a == 3 else ''} deals on it"
        row(label, [pct(_share(sum(k for n_, k in s["attempts"].items() if (n_ >= 3 if a == 3 else n_ == a)),
                               s["episodes"])) for s in summaries.values()])
    row("simultaneous climbs", [f"{s['simultaneous_climbs']:,}" for s in summaries.values()])
    row("game length (deals)", [f"{s['game_length']['mean']:.1f} [{s['game_length']['ci_low']:.1f}, "
                                f"{s['game_length']['ci_high']:.1f}]" for s in summaries.values()])
    row("deals with a sitter", [pct(s["barrel_share_of_deals"]) for s in summaries.values()])
    lines.append(f"chance of winning the game from your score when you deal (score classes of {SCORE_STEP}, one "
                 "observation per game and class; classes of fewer than 30 left out)")
    classes = sorted({c for s in summaries.values() for c, v in s["win_from_score"].items() if v["n"] >= 30})
    for c in classes:
        row(f"score {c} to {c + SCORE_STEP - 5}", [pct(s["win_from_score"].get(c, {"n": 0})) if
                                                  s["win_from_score"].get(c, {"n": 0})["n"] >= 30 else "-"
                                                  for s in summaries.values()])
    return lines


# What identifies a stored barrel table (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = {"table": ("the kind of table", None), "rule_sets": ("the rule sets", None), "rules": ("the rules", None),
            "games": ("the sizes", "--games"), "seed": ("the seed", "--seed"), "players": ("the players", "--players")}


@holds_out()
def tables_barrel(*, games: int, rules: list[str], players: str = "heuristic", seed: int = 0,
                  out: Path = Path("out/tables"), as_json: bool = False, progress: bool = False,
                  backend: Backend | None = None, fresh: bool = False) -> list[str]:
    """What ``thousand tables barrel`` prints: for every rule set, ``games`` whole games played (or
    the stored run of the same spec reused) under ``out/barrel-runs``, and their barrel summary;
    a Parquet table with the metadata and a plot in ``out``. What ``out`` holds from other
    arguments or other code is refused (``analysis.analysis_dir``) unless ``fresh``, which redoes
    it."""

    from analysis.analysis_dir import (
        NoResultError,
        check_stored,
        compared_on,
        require_finished,
        rules_folder,
        rules_label,
        same_rules,
        worded_for,
    )
    from sim import __version__
    from sim.engine import BatchSpec
    from sim.fingerprint import code_fingerprint
    from sim.game.rules import load_rules
    from sim.runs import check_output_dir, play_runs
    from sim.runs.progress import StageBars

    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    rule_sets, folders = {}, {}
    for i, spec in enumerate(rules or ["classic"]):
        label = rules_label(i, spec)
        rule_sets[label] = load_rules(spec)
        folders[label] = rules_folder(i, spec, rule_sets[label])
    for label, rec in rule_sets.items():
        if rec.barrel is None:
            raise InputError(f"rules {label!r} have no barrel (barrel = none)")
    twins = same_rules(rule_sets)
    if twins:
        raise InputError(f"rule sets {twins[0]} and {twins[1]} are the same rules: give each rule set once")
    out = Path(out)
    specs = {label: BatchSpec(mode="games", n=games, rules=rec, players=players, seed=seed)
             for label, rec in rule_sets.items()}
    if games < 2:
        raise InputError(f"--games must be 2 or more for the barrel tables: an interval needs two games, not {games}")
    runs = {label: out / "barrel-runs" / folders[label] for label in specs}
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("barrel"), "table": "barrel",
            "games": games, "seed": seed, "players": list(next(iter(specs.values())).players),
            "rule_sets": list(rule_sets), "rules": {label: rec.to_dict() for label, rec in rule_sets.items()}}
    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    check_stored(out, out / TABLE_FILE, meta, compared_on(meta, IDENTITY),
                 what=f"the barrel table stored in --out {out}", runs={runs[k]: specs[k] for k in specs}, fresh=fresh)
    check_output_dir(out)
    with worded_for(out, out / "barrel-runs"):
        play_runs({runs[label]: spec for label, spec in specs.items()},
                  progress=StageBars("game") if progress else None, stage="rule sets",
                  backend=backend, fresh=fresh)
        require_finished(runs, what="rule set", limit=next(iter(specs.values())).max_deals_per_game)
        summaries = {label: barrel_summary(run) for label, run in runs.items()}
    for label, s in summaries.items():
        if not s["episodes"]:
            raise NoResultError(f"rule set {label}: no barrel episode in its {s['games']:,} games (nobody sat on the "
                                "barrel), so there is no survival to show; play more games")
    _store(summaries, meta, out)
    if as_json:
        return [json.dumps(json_ready({**meta, "summaries": {k: {kk: vv for kk, vv in v.items() if kk != "run"}
                                                            for k, v in summaries.items()}}),
                           ensure_ascii=False, indent=1, allow_nan=False)]
    return format_summaries(summaries) + [f"table: {out / TABLE_FILE}; plot: {out / PLOT_FILE}"]


def _store(summaries: dict[str, dict], meta: dict, out: Path) -> None:
    import polars as pl

    from sim.runs import write_parquet_atomic

    rows = []
    for label, s in summaries.items():
        items = [(f, s["fates"][f]) for f in FATES] + [("fell", s["fell"]), ("fell to zero", s["fell_to_zero"])]
        items += [(f"up on attempt {a}", v) for a, v in s["up_on_attempt"].items()]
        items += [("deals with a sitter", s["barrel_share_of_deals"])]
        items += [(f"win from score {c}", v) for c, v in s["win_from_score"].items()]
        for name, v in items:
            rows.append({"rules": label, "quantity": name, "k": v["k"], "n": v["n"], "p": v["p"],
                         "ci_low": v["ci_low"], "ci_high": v["ci_high"]})
    write_parquet_atomic(pl.DataFrame(rows), out / TABLE_FILE, {k: json.dumps(v) for k, v in meta.items()})
    _plot(summaries, meta, out / PLOT_FILE)


def _plot(summaries: dict[str, dict], meta: dict, path: Path) -> None:
    from analysis.analysis_dir import short_label
    from analysis.present.plots import pyplot, save

    plt = pyplot()

    # Fates across the top (one group of bars per fate), attempts and scores below.
    fig = plt.figure(figsize=(13, 10))
    grid = fig.add_gridspec(2, 2)
    ax1 = fig.add_subplot(grid[0, :])
    ax2, ax3 = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    shown = [f for f in FATES if any(s["fates"][f]["k"] for s in summaries.values())]
    width = 0.8 / max(1, len(summaries))
    x = np.arange(len(shown))
    last_attempt = max([a for s in summaries.values() for a, v in s["up_on_attempt"].items() if v["k"]] + [1])
    last_attempt = min(MAX_ATTEMPT_SHOWN, last_attempt + 1)
    for i, (label, s) in enumerate(summaries.items()):
        ps = [s["fates"][f]["p"] for f in shown]
        err = [[max(0.0, p - s["fates"][f]["ci_low"]) for f, p in zip(shown, ps, strict=True)],
               [max(0.0, s["fates"][f]["ci_high"] - p) for f, p in zip(shown, ps, strict=True)]]
        ax1.bar(x + i * width, ps, width, yerr=err, capsize=3,
                label=f"{short_label(label)} ({s['episodes']:,} episodes)")
        attempts = range(1, last_attempt + 1)
        ups = [s["up_on_attempt"][a]["p"] for a in attempts]
        err2 = [[max(0.0, p - s["up_on_attempt"][a]["ci_low"]) for a, p in zip(attempts, ups, strict=True)],
                [max(0.0, s["up_on_attempt"][a]["ci_high"] - p) for a, p in zip(attempts, ups, strict=True)]]
        ax2.errorbar(list(attempts), ups, yerr=err2, marker="o", capsize=3, label=short_label(label))
        curve = [(c, v) for c, v in s["win_from_score"].items() if v["n"] >= 30]
        xs = [c + SCORE_STEP / 2 for c, _ in curve]
        ax3.plot(xs, [v["p"] for _, v in curve], marker=".", label=short_label(label))
        ax3.fill_between(xs, [v["ci_low"] for _, v in curve], [v["ci_high"] for _, v in curve], alpha=0.2)
    ax1.set_xticks(x + width * (len(summaries) - 1) / 2, [f.replace(": ", ":\n")
                                                           for f in shown])
    ax1.set_ylabel("share of barrel episodes")
    ax1.set_title("How a barrel episode ends (95% intervals)")
    ax1.legend()
    ax2.set_xlabel("attempt (played deals on the barrel)")
    ax2.set_xticks(list(range(1, last_attempt + 1)))
    ax2.set_ylabel("share of episodes won on this attempt")
    ax2.set_title("Leaving the barrel upward, by attempt")
    ax2.legend()
    ax3.set_xlabel(f"your score before the deal you deal (points, classes of {SCORE_STEP})")
    ax3.set_ylabel("chance of winning the game")
    ax3.set_title("Winning from a score (95% bands)")
    ax3.legend()
    for ax in (ax1, ax2, ax3):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Barrel survival: {meta['games']:,} games per rule set, players {', '.join(meta['players'])}, "
                 f"seed {meta['seed']}")
    save(fig, path)
