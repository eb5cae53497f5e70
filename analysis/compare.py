"""``thousand compare``: house-rule sets played on common random numbers, and their differences
with paired intervals and multiplicity-corrected p-values.

Design. Every rule set plays ``--games`` whole games with the same players and the same root seed:
chunk i of every run draws its deals from the same stream (``SeedSequence(seed, (i, 1))``) and its
players' decisions from another (``(seed, (i,))``). Game g of one rule set and game g of another
therefore start from the same cards; they keep the same deals as long as both have dealt the same
number of deals in that chunk, and drift apart (each still a fair random game) once the rules make
one game longer, redeal more, or make a player decide differently. Differences are paired by game
number.

Statistics. Every metric is a ratio of per-game sums, R = sum(N_g) / sum(D_g) (D_g = 1 for a
per-game mean). The difference of rule set X to the first, R_X - R_A, gets its standard error by
the delta method on the paired per-game linearisations u_g = (N_g - R D_g) / mean(D):
se = sd(u_X - u_A) / sqrt(n), a normal 95% interval and a two-sided p-value. The p-values of all
metrics and rule sets are adjusted together by Holm's step-down method (family-wise error 5%).
Everything is accumulated chunk by chunk from sums of products, so memory does not grow with n.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.barrel import episodes
from analysis.stats import Z95, PairedRatioSums, holm, json_ready, two_sided_p
from analysis.stored import FINGERPRINT, holds_out
from sim import InputError
from sim.engine.schema import BID_DARK, BID_GOLDEN

if TYPE_CHECKING:
    import polars as pl

    from sim.runs.backend import Backend

__all__ = ["TABLE_FILE", "PLOT_FILE", "game_metrics", "compare_runs", "IDENTITY", "compare", "format_rows"]

TABLE_FILE = "compare.parquet"
PLOT_FILE = "compare.png"


def game_metrics(deals: pl.DataFrame, games: pl.DataFrame, rules: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{metric: (N_g, D_g)} for the games of one chunk, in the order of their game numbers."""
    n_seats = rules["players"]
    g = games.sort("game")
    first = int(g["game"][0])
    m = g.height
    gid = deals["game"].to_numpy() - first
    col = {c: deals[c].to_numpy() for c in deals.columns if c != "plays"}
    declarer = col["declarer"]
    declared = (col["redeal"] == 0) & (declarer >= 0)
    conceded = declared & col["conceded"].astype(bool)
    played = declared & ~conceded
    ones = np.ones(m)

    def per_game(x):
        return np.bincount(gid, weights=np.asarray(x, dtype=np.float64), minlength=m)

    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    out["game length (deals)"] = (g["deals"].to_numpy().astype(np.float64), ones)
    winner = g["winner"].to_numpy()
    for s in range(n_seats):
        out[f"win rate, seat {s}"] = ((winner == s).astype(np.float64), ones)
    out["unfinished games"] = ((winner < 0).astype(np.float64), ones)
    n_declared = per_game(declared)
    out["declarer make-rate"] = (per_game(played & col["made"].astype(bool)), per_game(played))
    out["concession rate"] = (per_game(conceded), n_declared)
    out["mean contract"] = (per_game(np.where(declared, col["contract"], 0)), n_declared)
    first_hand = (col["dealer"] + 1) % n_seats
    forced = declared & (col["winning_bid"] == rules["min_bid"]) & (declarer == first_hand)
    out["forced-bid share"] = (per_game(forced), n_declared)
    for name, key in (("barrel entries per game", "barrel_entries"), ("barrel falls per game", "barrel_falls"),
                      ("bolt penalties per game", "bolt_penalties"), ("dump trucks per game", "dump_trucks")):
        out[name] = (sum(g[f"{key}{s}"].to_numpy().astype(np.float64) for s in range(n_seats)), ones)
    eps = episodes(deals, games, n_seats)
    attempts, ups = np.zeros(m), np.zeros(m)
    for e in eps:
        attempts[e["game"] - first] += e["attempts"]
        ups[e["game"] - first] += e["fate"] == "up"
    out["barrel attempts per game"] = (attempts, ones)
    out["wins from the barrel per game"] = (ups, ones)
    out["redeals per game"] = (per_game(col["redeal"] != 0), ones)
    if rules.get("dark_game"):
        out["dark games per declared deal"] = (per_game(declared & (col["bid_kind"] == BID_DARK)), n_declared)
    if rules.get("golden_round"):
        out["golden-round deals per game"] = (per_game(declared & (col["bid_kind"] == BID_GOLDEN)), ones)
    results = np.stack([col[f"result{s}"] for s in range(n_seats)], axis=1).astype(np.float64)
    decl_result = np.where(declared, results[np.arange(len(declarer)), np.maximum(declarer, 0)], 0.0)
    out["declarer points per declared deal"] = (per_game(decl_result), n_declared)
    sitting = (np.arange(n_seats)[None, :] == col["dealer"][:, None]) if n_seats == 4 else np.zeros_like(results,
                                                                                                          dtype=bool)
    defenders = declared[:, None] & (np.arange(n_seats)[None, :] != declarer[:, None]) & ~sitting
    out["defender points per declared deal"] = (per_game((results * defenders).sum(axis=1)),
                                                per_game(defenders.sum(axis=1)))
    return out


def compare_runs(runs: dict[str, Path], *, paired: bool = True) -> tuple[list[dict], list[str]]:
    """(rows, left out) from stored games runs of the same players, seed and chunking. A row
    (metric, rule set, value of the first set, value of this one, difference, its 95% interval, p,
    Holm-adjusted p) for every metric observed in both rule sets; "metric (rule set)" for those
    observed in one of them only or in neither (a ratio with nothing below it: no contract played,
    say), which have no difference to show, and for every metric of runs of one game (no
    interval). ``paired=False`` (the tests' unpaired control) lets the seeds differ."""

    from sim.runs import read_run_metadata, read_shard, verify_run

    labels = list(runs)
    metas = {k: read_run_metadata(v) for k, v in runs.items()}
    base = labels[0]
    for k in labels[1:]:
        for key in ("mode", "sample_size", "chunk_size", "players") + (("seed",) if paired else ()):
            if metas[k][key] != metas[base][key]:
                raise InputError(f"rule sets {base!r} and {k!r} were played with different {key}: not paired")
    shards = {k: verify_run(v) for k, v in runs.items()}
    sums: dict[tuple[str, str], PairedRatioSums] = {}
    names: list[str] = []
    for i in range(len(shards[base]["games"])):
        frames = {k: (read_shard(shards[k]["deals"][i]), read_shard(shards[k]["games"][i])) for k in labels}
        mets = {k: game_metrics(*frames[k], metas[k]["rules"]) for k in labels}
        for name in mets[base]:
            if name not in names:
                names.append(name)
        for k in labels:
            for name in names:
                if name not in mets[k]:
                    continue
                na, da = mets[base].get(name, (np.zeros_like(mets[k][name][0]), np.zeros_like(mets[k][name][0])))
                sums.setdefault((name, k), PairedRatioSums()).add(na, da, *mets[k][name])
    rows, left_out = [], []
    for name in names + [n for n in sorted({n for n, _ in sums}) if n not in names]:
        for k in labels[1:]:
            if (name, k) not in sums:
                continue
            r = sums[(name, k)].result()
            se = r["se"]
            if math.isnan(r["diff"]) or math.isnan(se):
                # Nothing observed below the ratio in one of the two (or a single game): no
                # difference, or no interval, to show.
                left_out.append(f"{name} ({k})")
                continue
            p = two_sided_p(r["diff"], se)
            rows.append({"metric": name, "rules": k, "first": r["a"], "value": r["x"], "diff": r["diff"],
                         "ci_low": r["diff"] - Z95 * se, "ci_high": r["diff"] + Z95 * se, "p": p,
                         "n_games": sums[(name, k)].n})
    for row, q in zip(rows, holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = q
        row["significant"] = bool(q < 0.05)
    return rows, left_out


# What identifies a stored comparison (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = {"table": ("the kind of table", None), "rule_sets": ("the rule sets", None),
            "rules": ("the rules", None), "games": ("the sizes", "--games"),
            "chunk_size": ("the sizes", "games a chunk"), "seed": ("the seed", "--seed"),
            "seed_offsets": ("the seed", None), "players": ("the players", "--players")}


@holds_out()
def compare(*, rules: list[str], games: int, players: str = "heuristic", seed: int = 0,
            out: Path = Path("out/compare"), as_json: bool = False, progress: bool = False,
            seed_offsets: list[int] | None = None, backend: Backend | None = None,
            fresh: bool = False) -> list[str]:
    """What ``thousand compare`` prints. ``seed_offsets`` (tests only) plays rule set i with seed
    ``seed + seed_offsets[i]``: an unpaired control of the statistics. The runs and the table are
    stored in ``out`` and reused by the same command of the same code; anything else stored there
    is refused (``analysis.analysis_dir``) unless ``fresh``, which redoes it."""

    from analysis.analysis_dir import (
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

    if len(rules) < 2:
        raise InputError("give at least two rule sets to compare (presets or TOML files)")
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    loaded, folders = {}, {}
    for i, spec in enumerate(rules):
        label = rules_label(i, spec)
        loaded[label] = load_rules(spec)
        folders[label] = rules_folder(i, spec, loaded[label])
    counts = {rec.players for rec in loaded.values()}
    if len(counts) > 1:
        raise InputError(f"the rule sets are for different player counts ({', '.join(map(str, sorted(counts)))}): "
                         "compare rule sets of one player count")
    twins = same_rules(loaded)
    if twins and not seed_offsets:
        raise InputError(f"rule sets {twins[0]} and {twins[1]} are the same rules, so every difference between them "
                         "would be 0 by construction; give rule sets that differ")
    out = Path(out)
    offsets = seed_offsets or [0] * len(loaded)
    specs = {label: BatchSpec(mode="games", n=games, rules=rec, players=players, seed=seed + off)
             for (label, rec), off in zip(loaded.items(), offsets, strict=True)}
    if games < 2:
        raise InputError(f"--games must be 2 or more to compare: a paired interval needs two games, not {games}")
    chunk = min(s.chunk_size for s in specs.values())
    specs = {k: dataclasses.replace(s, chunk_size=chunk) for k, s in specs.items()}
    runs = {label: out / "runs" / folders[label] for label in specs}
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("compare"), "table": "compare",
            "games": games, "seed": seed, "players": list(next(iter(specs.values())).players), "chunk_size": chunk,
            "rule_sets": list(loaded), "rules": {k: rec.to_dict() for k, rec in loaded.items()},
            "correction": "Holm step-down over every metric and rule set, family-wise 5%"}
    if seed_offsets:
        meta["seed_offsets"] = list(seed_offsets)
    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    check_stored(out, out / TABLE_FILE, meta, compared_on(meta, IDENTITY),
                 what=f"the comparison stored in --out {out}", runs={runs[k]: specs[k] for k in specs}, fresh=fresh)
    check_output_dir(out)
    with worded_for(out, out / "runs"):
        play_runs({runs[label]: spec for label, spec in specs.items()},
                  progress=StageBars("game") if progress else None, stage="rule sets",
                  backend=backend, fresh=fresh)
        finished = require_finished(runs, what="rule set", limit=next(iter(specs.values())).max_deals_per_game)
        rows, left_out = compare_runs(runs, paired=not seed_offsets)
    meta["finished_games"] = {label: done for label, (done, _) in finished.items()}
    meta["left_out"] = left_out
    _store(rows, meta, runs, out)
    if as_json:
        return [json.dumps(json_ready({**meta, "rows": rows}), ensure_ascii=False, indent=1, allow_nan=False)]
    return format_rows(rows, list(loaded), left_out) + [f"table: {out / TABLE_FILE}; plot: {out / PLOT_FILE}"]


def format_rows(rows: list[dict], labels: list[str], left_out: list[str] = ()) -> list[str]:
    lines = [f"rule sets compared on the same deals (common random numbers): {', '.join(labels)}; differences to "
             f"{labels[0]} with 95% intervals; * = significant after Holm's correction (family-wise 5%)",
             f"{'metric':<36}{'rule set':<16}{labels[0][:14]:>14}{'this':>12}  {'difference [95%]':<30}"
             f"{'p':>8}{'p (Holm)':>10}"]
    for r in rows:
        diff = f"{r['diff']:+.4f} [{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]"
        mark = " *" if r["significant"] else ""
        lines.append(f"{r['metric']:<36}{r['rules'][:15]:<16}{r['first']:>14.4f}{r['value']:>12.4f}  {diff:<30}"
                     f"{r['p']:>8.3g}{r['p_holm']:>10.3g}{mark}")
    significant = sum(r["significant"] for r in rows)
    lines.append(f"{significant} of {len(rows)} differences significant")
    if left_out:
        lines.append(f"left out, observed in one rule set only or in neither (no difference to show): "
                     f"{', '.join(left_out)}")
    return lines


def _store(rows: list[dict], meta: dict, runs: dict[str, Path], out: Path) -> None:
    import polars as pl

    from sim.runs import write_parquet_atomic

    write_parquet_atomic(pl.DataFrame(rows), out / TABLE_FILE, {k: json.dumps(json_ready(v)) for k, v in meta.items()})
    _plot(rows, meta, runs, out / PLOT_FILE)


def _plot(rows: list[dict], meta: dict, runs: dict[str, Path], path: Path) -> None:
    from analysis.analysis_dir import short_label
    from analysis.present.plots import pyplot, save

    plt = pyplot()

    from sim.runs import scan_games

    shown = [r for r in rows if r["first"] and r["first"] == r["first"] and r["ci_low"] == r["ci_low"]]
    # Game length above, the differences below with a line of room for each.
    height = 0.24 * len(shown) + 1.5
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(12, 4.5 + height), gridspec_kw={"height_ratios": [4.5, height]},
                                   layout="constrained")
    for label, run in runs.items():
        lengths = scan_games(run).select("deals").collect()["deals"].to_numpy()
        ax1.hist(lengths, bins=40, histtype="step", linewidth=1.5,
                 label=f"{short_label(label)} (mean {lengths.mean():.1f})")
    ax1.set_xlabel("game length (deals)")
    ax1.set_ylabel("games")
    ax1.set_title("Game length by rule set")
    ax1.legend()
    y = np.arange(len(shown))
    rel = [100 * r["diff"] / abs(r["first"]) for r in shown]
    lo = [100 * (r["diff"] - r["ci_low"]) / abs(r["first"]) for r in shown]
    hi = [100 * (r["ci_high"] - r["diff"]) / abs(r["first"]) for r in shown]
    for yi, x, a, b, r in zip(y, rel, lo, hi, shown, strict=True):
        ax2.errorbar([x], [yi], xerr=[[max(0.0, a)], [max(0.0, b)]], fmt="o", capsize=3,
                     color="C3" if r["significant"] else "C0")
    ax2.axvline(0, color="grey", linewidth=0.8)
    ax2.set_yticks(y, [f"{r['metric']} ({short_label(r['rules'])})" for r in shown], fontsize=9)
    ax2.set_ylim(len(shown) - 0.5, -0.5)
    ax2.set_xlabel(f"difference to {next(iter(runs))}, % of its value (95% interval; red: significant after Holm)")
    ax2.set_title("Differences")
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Rule sets on common random numbers: {meta['games']:,} games each, seed {meta['seed']}, "
                 f"players {', '.join(meta['players'])}")
    save(fig, path, tight=False)
