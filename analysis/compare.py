"""``thousand compare``: house-rule sets played on common random numbers, and their differences
with paired intervals and multiplicity-corrected p-values.

Design. Every rule set plays ``--games`` whole games with the same players and the same root seed:
chunk i of every run draws its deals from the same stream (``sim.streams.CHUNK_DEALS``) and its
players' decisions from another (``CHUNK_PLAYERS``). Game g of one rule set and game g of another
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
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.analysis_dir import RULE_SPECS, rules_folder, rules_label, same_rules
from analysis.measures import episodes
from analysis.players import common_player, learned_weights
from analysis.stats import MIN_NORMAL, Z95, Estimate, PairedRatioSums, estimate_field, holm, stored_row, two_sided_p
from analysis.stored import FINGERPRINT, holds_out
from analysis.study import Plan, Played, compared_on, identity, run_study
from sim import InputError, __version__, arguments
from sim.engine import BatchSpec
from sim.engine.schema import BID_DARK, BID_GOLDEN
from sim.fingerprint import code_fingerprint
from sim.game.rules import load_rules
from sim.runs import read_run_metadata, read_shard, scan_games, verify_run

if TYPE_CHECKING:
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = ["TABLE_FILE", "PLOT_FILE", "game_metrics", "ComparisonRow", "compare_runs", "IDENTITY", "Comparison",
           "compare"]

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
    # The seat of the forced bid: first hand, or the dealer under forced_bid_seat = dealer (the
    # dealer's contract when all others passed under all_pass = dealer_plays counts too).
    dealer_holds = rules.get("forced_bid_seat") == "dealer" or rules.get("all_pass") == "dealer_plays"
    forced_seat = col["dealer"] if dealer_holds else (col["dealer"] + 1) % n_seats
    forced = declared & (col["winning_bid"] == rules["min_bid"]) & (declarer == forced_seat)
    out["forced-bid share"] = (per_game(forced), n_declared)
    for name, key in (("barrel entries per game", "barrel_entries"), ("barrel falls per game", "barrel_falls"),
                      ("bolt penalties per game", "bolt_penalties"), ("dump trucks per game", "dump_trucks")):
        out[name] = (sum(g[f"{key}{s}"].to_numpy().astype(np.float64) for s in range(n_seats)), ones)
    eps = episodes(deals, games, n_seats, not rules.get("barrel_freeze", True))
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


@dataclasses.dataclass(frozen=True)
class ComparisonRow:
    """One metric's difference between a rule set and the first, paired by game number (one row of
    ``compare.parquet``, its columns in this order).

    - ``metric``: what is measured, e.g. "game length (deals)", "win rate, seat 0";
    - ``rules``: the label of the rule set compared with the first, e.g. "2-short";
    - ``first``: the metric under the first rule set; ``value``: under this one;
    - ``diff``: ``value - first`` with its paired 95% interval (delta method), an ``Estimate``
      over ``n_games`` stored as the columns ``diff``, ``ci_low``, ``ci_high``;
    - ``p``: the two-sided p-value of ``diff``; ``n_games``: the games paired;
    - ``p_holm``: ``p`` adjusted by Holm's step-down over every row of the comparison;
    - ``significant``: ``p_holm < 0.05`` (family-wise error 5%).
    """

    metric: str
    rules: str
    first: float
    value: float
    diff: Estimate = estimate_field("diff", "ci_low", "ci_high")
    p: float
    n_games: int
    p_holm: float
    significant: bool


def compare_runs(runs: dict[str, Path], *,
                 paired: bool = True) -> tuple[tuple[ComparisonRow, ...], tuple[str, ...]]:
    """(rows, left out) from stored games runs of the same players, seed and chunking. A row
    (``ComparisonRow``: metric, rule set, value of the first set, value of this one, difference,
    its 95% interval, p, Holm-adjusted p) for every metric observed in both rule sets; "metric (rule set)" for those
    observed in one of them only or in neither (a ratio with nothing below it: no contract played,
    say), which have no difference to show, and for every metric of runs of one game (no
    interval). ``paired=False`` (the tests' unpaired control) lets the seeds differ."""

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
            n = sums[(name, k)].n
            if n < MIN_NORMAL:  # too few games for a normal interval and its test: the difference alone
                p, diff = math.nan, Estimate(r["diff"], math.nan, math.nan, n=n)
            else:
                p = two_sided_p(r["diff"], se)
                diff = Estimate(r["diff"], r["diff"] - Z95 * se, r["diff"] + Z95 * se, n=n)
            rows.append({"metric": name, "rules": k, "first": r["a"], "value": r["x"], "diff": diff, "p": p,
                         "n_games": n})
    adjusted = holm([r["p"] for r in rows])
    out = tuple(ComparisonRow(**r, p_holm=q, significant=bool(q < 0.05)) for r, q in zip(rows, adjusted, strict=True))
    return out, tuple(left_out)


# What identifies a stored comparison (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = identity(table=None, rule_sets=None, rules=None, games="--games", chunk_size="games a chunk", seed="--seed",
                    seed_offsets=None, players="--players", learned_weights=None)


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What ``compare`` finds: rule sets played on the same deals, and every metric's difference to
    the first rule set.

    - ``rule_sets``: the labels of the rule sets, in the order given ("1-classic", "2-short", ...);
      the first is the one every other is compared with;
    - ``games``: the whole games played per rule set; ``seed``: the root seed they share;
      ``players``: who played, one name a seat;
    - ``rows``: the differences (``ComparisonRow``), metric by metric, each rule set after the first;
    - ``left_out``: "metric (rule set)" for each metric with no difference to show (observed in one
      rule set only or in neither, or with no interval);
    - ``finished_games``: {rule set: games that ended with a winner};
    - ``game_lengths``: {rule set: the length in deals of each of its stored games, in the order
      the games are stored};
    - ``runs``: {rule set: the folder of its stored run}; ``table_path``: the stored
      ``compare.parquet`` (the rows and, as metadata, ``provenance``); ``plot_path``: where its
      plot goes (``analysis.present.compare.plot_comparison`` draws it);
    - ``provenance``: the metadata stored with the table (version, code fingerprint, sizes, seed,
      players, chunk size, each rule set's rules, the correction, finished games, left out).

    ``to_polars()``: the rows, as stored in ``compare.parquet``; ``to_dict()``: what ``thousand
    compare --json`` prints (``provenance`` and the rows).
    """

    rule_sets: tuple[str, ...]
    games: int
    seed: int
    players: tuple[str, ...]
    rows: tuple[ComparisonRow, ...]
    left_out: tuple[str, ...]
    finished_games: dict[str, int]
    game_lengths: dict[str, tuple[int, ...]]
    runs: dict[str, Path]
    table_path: Path
    plot_path: Path
    provenance: dict

    def to_polars(self) -> pl.DataFrame:
        """The rows as the table stored in ``compare.parquet``: one column a ``ComparisonRow`` field
        (three for its difference with its interval)."""
        return pl.DataFrame([stored_row(r) for r in self.rows])

    def to_dict(self) -> dict:
        """The stored metadata and the rows (one dict a row), as ``--json`` prints them."""
        return {**self.provenance, "rows": [stored_row(r) for r in self.rows]}


@holds_out()
def compare(*, rules: list[str], games: int, players: str | None = None, seed: int = 0,
            out: Path = Path("out/compare"), progress: Progress | None = None,
            seed_offsets: list[int] | None = None, backend: Backend | None = None,
            fresh: bool = False) -> Comparison:
    """Play every rule set of ``rules`` (presets or TOML files, two or more) for ``games`` whole
    games on common random numbers and compare them (``Comparison``). ``players``: who plays, as in
    ``thousand simulate --players`` (None: ``analysis.players.common_player``, the one player of every
    rule set: the score-aware ``learned-win`` when each has its table, else the learned player). ``seed_offsets`` (tests
    only) plays rule set i with seed ``seed + seed_offsets[i]``: an unpaired control of the
    statistics. The runs and the table are stored in ``out`` and reused by the same call of the
    same code; anything else stored there is refused (``analysis.study``) unless ``fresh``,
    which redoes it. ``progress(stage, games done, games)`` follows the play. Arguments of the wrong
    type are refused (``sim.arguments``) before anything is written."""

    rules, games = arguments.texts("rules", rules, what=RULE_SPECS), arguments.integer("games", games)
    players, seed = arguments.text("players", players, optional=True), arguments.integer("seed", seed)
    out, progress = arguments.path("out", out), arguments.function("progress", progress)
    if seed_offsets is not None:
        if not isinstance(seed_offsets, list | tuple):
            raise arguments.refused("seed_offsets", "a list of integers or None", seed_offsets)
        seed_offsets = [arguments.integer("each of seed_offsets", offset) for offset in seed_offsets]
    fresh = arguments.flag("fresh", fresh)
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
    players = common_player(loaded.values()) if players is None else players
    specs = {label: BatchSpec(mode="games", n=games, rules=rec, players=players,
                              seed=seed + off)
             for (label, rec), off in zip(loaded.items(), offsets, strict=True)}
    if games < 2:
        raise InputError(f"--games must be 2 or more to compare: a paired interval needs two games, not {games}")
    chunk = min(s.chunk_size for s in specs.values())
    specs = {k: dataclasses.replace(s, chunk_size=chunk) for k, s in specs.items()}
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("compare"), "table": "compare",
            "games": games, "seed": seed, "players": list(next(iter(specs.values())).players),
            "learned_weights": learned_weights(next(iter(specs.values())).players), "chunk_size": chunk,
            "rule_sets": list(loaded), "rules": {k: rec.to_dict() for k, rec in loaded.items()},
            "correction": "Holm step-down over every metric and rule set, family-wise 5%"}
    if seed_offsets:
        meta["seed_offsets"] = list(seed_offsets)
    plan = Plan(out=out, name="compare", table=TABLE_FILE, runs=specs,
                folders={label: f"runs/{folders[label]}" for label in specs}, provenance=meta,
                identity=compared_on(meta, IDENTITY), what="the comparison", stage="rule sets", drawn=(PLOT_FILE,),
                each_finishes="rule set")

    def measure(played: Played) -> Comparison:
        rows, left_out = compare_runs(played.dirs, paired=not seed_offsets)
        lengths = {label: tuple(scan_games(run).select("deals").collect()["deals"].to_list())
                   for label, run in played.dirs.items()}
        meta["finished_games"] = {label: done for label, (done, _) in played.finished.items()}
        meta["left_out"] = list(left_out)
        return Comparison(rule_sets=tuple(loaded), games=games, seed=seed, players=tuple(meta["players"]), rows=rows,
                          left_out=left_out, finished_games=dict(meta["finished_games"]), game_lengths=lengths,
                          runs={label: out / "runs" / folders[label] for label in specs}, table_path=out / TABLE_FILE,
                          plot_path=out / PLOT_FILE, provenance=meta)

    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    return run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)
