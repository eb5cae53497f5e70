"""``thousand tournament``: player types against each other, seats rotated over the same deals.

Design (duplicate). With n seats and n players, every one of the n! seatings plays ``--games``
whole games from the same seed and chunking, so game g of every seating starts from the same cards
(they coincide as in ``thousand compare``: within a chunk until the seatings' games differ in
length). Over the n! seatings every player sits in every seat of game g equally often, so the luck
of the cards cancels game by game. Seatings that put the same player types in the same seats are
one run, played once.

Statistics. For each game number g and player, its **duplicate share** is the average over the
seatings of "won game g" (and likewise its final score): one number per g, independent across g.
A player's win share, mean final score and score per deal come with normal 95% intervals over g;
players are ranked by win share, and every pair is compared by the paired differences of their
shares over g (a paired t-test), with Holm's correction over the pairs. Identical players win
exactly their share (1/n) by construction.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path
from statistics import NormalDist

import numpy as np

from analysis.compare import holm

TABLE_FILE = "tournament.parquet"
PLOT_FILE = "tournament.png"


class _Moments:
    def __init__(self):
        self.n, self.s, self.ss = 0, 0.0, 0.0

    def add(self, x: np.ndarray) -> None:
        self.n += len(x)
        self.s += float(x.sum())
        self.ss += float((x * x).sum())

    def interval(self) -> dict:
        mean = self.s / self.n if self.n else math.nan
        var = (self.ss - self.n * mean * mean) / (self.n - 1) if self.n > 1 else math.nan
        se = math.sqrt(max(0.0, var) / self.n) if self.n > 1 else math.nan
        return {"mean": mean, "ci_low": mean - 1.96 * se, "ci_high": mean + 1.96 * se, "se": se, "n": self.n}


def tournament(*, players: list[str], games: int, rules: str = "classic", seed: int = 0,
               out: Path = Path("out/tournament"), as_json: bool = False, progress: bool = False) -> list[str]:
    """What ``thousand tournament`` prints; runs stored and reused under ``out/runs``."""

    import polars as pl

    from sim import __version__
    from sim.engine import BatchSpec
    from sim.game.rules import load_rules
    from sim.players import parse_players
    from sim.runner import check_output_dir, play_runs, verify_run

    rec = load_rules(rules)
    n = rec.players
    names = list(parse_players(players, len(players)))  # validates every name
    if len(names) != n:
        raise ValueError(f"give one player for each of the {n} seats (players = {n}), not {len(names)}")
    if seed < 0:
        raise ValueError(f"--seed must be 0 or more, not {seed}")
    labels = [f"{i + 1}-{name}" for i, name in enumerate(names)]
    seatings = list(itertools.permutations(range(n)))  # seating[s] = the player (index) in seat s
    specs = {}
    for seating in seatings:
        types = tuple(names[i] for i in seating)
        if types not in specs:
            specs[types] = BatchSpec(mode="games", n=games, rules=rec, players=types, seed=seed)
    chunk = min(s.chunk_size for s in specs.values())
    specs = {t: dataclasses.replace(s, chunk_size=chunk) for t, s in specs.items()}
    out = Path(out)
    check_output_dir(out)
    runs = {t: out / "runs" / "-".join(t) for t in specs}
    play_runs({runs[t]: spec for t, spec in specs.items()}, progress=progress, desc="seatings")
    shards = {t: verify_run(runs[t]) for t in specs}
    win = {lab: _Moments() for lab in labels}
    score = {lab: _Moments() for lab in labels}
    per_deal_num = dict.fromkeys(labels, 0.0)
    per_deal_den = dict.fromkeys(labels, 0.0)
    pair_diff = {pair: _Moments() for pair in itertools.combinations(range(n), 2)}
    for c in range(len(next(iter(shards.values()))["games"])):
        frames = {t: pl.read_parquet(shards[t]["games"][c]).sort("game") for t in specs}
        m = next(iter(frames.values())).height
        share = np.zeros((n, m))
        final = np.zeros((n, m))
        for seating in seatings:
            g = frames[tuple(names[i] for i in seating)]
            winner = g["winner"].to_numpy()
            lengths = g["deals"].to_numpy()
            for seat, player in enumerate(seating):
                share[player] += winner == seat
                sc = g[f"score{seat}"].to_numpy().astype(np.float64)
                final[player] += sc
                per_deal_num[labels[player]] += float(sc.sum())
                per_deal_den[labels[player]] += float(lengths.sum())
        share /= len(seatings)
        final /= len(seatings)
        for i, lab in enumerate(labels):
            win[lab].add(share[i])
            score[lab].add(final[i])
        for a, b in pair_diff:
            pair_diff[(a, b)].add(share[a] - share[b])
    players_rows = []
    for lab in labels:
        w, s = win[lab].interval(), score[lab].interval()
        players_rows.append({"player": lab, "win_share": w["mean"], "win_ci_low": w["ci_low"],
                             "win_ci_high": w["ci_high"], "final_score": s["mean"], "score_ci_low": s["ci_low"],
                             "score_ci_high": s["ci_high"],
                             "score_per_deal": per_deal_num[lab] / per_deal_den[lab] if per_deal_den[lab] else math.nan,
                             "games": w["n"]})
    players_rows.sort(key=lambda r: -r["win_share"])
    pairs = []
    for (a, b), mom in pair_diff.items():
        d = mom.interval()
        if d["se"] and d["se"] == d["se"]:
            p = 2 * (1 - NormalDist().cdf(abs(d["mean"]) / d["se"]))
        else:  # no spread over games: the difference is the same in every game
            p = 1.0 if d["mean"] == 0 else (0.0 if d["n"] > 1 else math.nan)
        pairs.append({"player": labels[a], "against": labels[b], "win_share_diff": d["mean"], "ci_low": d["ci_low"],
                      "ci_high": d["ci_high"], "p": p})
    for row, q in zip(pairs, holm([r["p"] for r in pairs]), strict=True):
        row["p_holm"] = q
        row["significant"] = bool(q == q and q < 0.05)
    meta = {"thousand_version": __version__, "table": "tournament", "games": games, "seed": seed,
            "players": labels, "seatings": len(seatings), "runs": len(specs), "chunk_size": chunk,
            "rules": rec.to_dict(),
            "ranking": "by duplicate win share; pairs by paired t over game numbers, Holm-corrected"}
    from sim.runner import write_parquet_atomic

    write_parquet_atomic(pl.DataFrame(players_rows), out / TABLE_FILE, {k: json.dumps(v) for k, v in meta.items()})
    _plot(players_rows, pairs, meta, out / PLOT_FILE)
    if as_json:
        return [json.dumps({**meta, "players": players_rows, "pairs": pairs}, ensure_ascii=False, indent=1)]
    lines = [f"tournament: {', '.join(labels)}; {games:,} games in each of {len(seatings)} seatings ({len(specs)} "
             f"runs), seats rotated over the same deals; 95% intervals over game numbers",
             f"{'rank':<6}{'player':<20}{'win share':<28}{'final score':<30}{'score per deal':>14}"]
    for k, r in enumerate(players_rows, 1):
        share = _fmt(r["win_share"], r["win_ci_low"], r["win_ci_high"], 3)
        final = _fmt(r["final_score"], r["score_ci_low"], r["score_ci_high"], 1)
        lines.append(f"{k:<6}{r['player']:<20}{share:<28}{final:<30}{r['score_per_deal']:>14.2f}")
    lines.append("pairs (difference of win shares, * = significant after Holm's correction):")
    for r in pairs:
        lines.append(f"  {r['player']} vs {r['against']}: {_fmt(r['win_share_diff'], r['ci_low'], r['ci_high'], 3)}"
                     f"  p {r['p']:.3g}, Holm {r['p_holm']:.3g}{' *' if r['significant'] else ''}")
    lines.append(f"table: {out / TABLE_FILE}; plot: {out / PLOT_FILE}")
    return lines


def _fmt(x: float, lo: float, hi: float, digits: int) -> str:
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _plot(rows: list[dict], pairs: list[dict], meta: dict, path: Path) -> None:
    from analysis.plots import pyplot, save

    plt = pyplot()

    fig, ax = plt.subplots(figsize=(8, 4.5))
    y = np.arange(len(rows))
    for yi, r in zip(y, rows, strict=True):
        ax.errorbar([r["win_share"]], [yi], xerr=[[max(0.0, r["win_share"] - r["win_ci_low"])],
                                                 [max(0.0, r["win_ci_high"] - r["win_share"])]], fmt="o", capsize=4)
    ax.axvline(1 / len(rows), color="grey", linewidth=0.8, linestyle="--", label="an equal share")
    ax.set_yticks(y, [r["player"] for r in rows])
    ax.invert_yaxis()
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("share of games won (duplicate, 95% interval)")
    ax.set_title(f"Tournament: {meta['games']:,} games × {meta['seatings']} seatings, seed {meta['seed']}")
    ax.legend(fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    save(fig, path)
