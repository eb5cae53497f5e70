"""``thousand tournament``: player types against each other, seats rotated over the same deals.

Design (duplicate). With n seats and n players, every one of the n! seatings plays ``--games``
whole games from the same seed and chunking, so game g of every seating starts from the same cards
(they coincide as in ``thousand compare``: within a chunk until the seatings' games differ in
length). Over the n! seatings every player sits in every seat of game g equally often, so the luck
of the cards cancels game by game. Seatings that put the same player types in the same seats are
one run, played once.

With ``--deals`` the seatings play independent deals from a zero score instead, and players
are compared by their points per deal (the deal's result in their seat: the contract won or
lost as declarer, the card points and marriages as defender), paired by deal number: a measure
of bidding and card play without the game's race.

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
from typing import TYPE_CHECKING

import numpy as np

from analysis.analysis_dir import file_label, short_hash, short_label
from analysis.stats import RatioOfSums, holm, json_ready, two_sided_p
from analysis.stored import FINGERPRINT, holds_out
from sim import InputError
from sim.players import PARAMETERISED_PLAYERS

if TYPE_CHECKING:
    import polars as pl

    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "ROLE_METRICS", "resolve_players", "role_metrics", "IDENTITY", "tournament",
    "format_tournament",
]

TABLE_FILE = "tournament.parquet"
PLOT_FILE = "tournament.png"


ROLE_METRICS = ("declarer share", "make-rate", "concession rate", "mean contract", "declarer points per deal",
                "defender points per deal")


def resolve_players(players: list[str], n: int) -> tuple[list[str], list[str], list]:
    """(labels, player types, parameter records) of the players named on the command line: a player
    type, or a TOML player file (``sim.players.load_player_file``) labelled by its file name."""
    from sim.players import default_params, load_player_file, parse_players

    kinds, params, names = [], [], []
    for spec in players:
        if spec.lower().endswith(".toml"):
            kind, prm = load_player_file(spec, n)
            names.append(file_label(spec))
        else:
            kind, prm = parse_players([spec], 1)[0], default_params(n)
            # learned:PATH by the file and its folder (a whole path is too long for a table)
            kind_name, sep, path = kind.partition(":")
            names.append(f"{kind_name}:{'/'.join(Path(path).parts[-2:])}" if sep else kind)
        kinds.append(kind)
        params.append(prm)
    if len(kinds) != n:
        raise InputError(f"give one player for each of the {n} seats (players = {n}), not {len(kinds)}")
    parse_players(kinds, n)  # the checks that depend on the player count
    return [f"{i + 1}-{name}" for i, name in enumerate(names)], kinds, params


def _run_key(kind: str, prm, default) -> str:
    """A seat's part of a run directory's name: the type, and for parameters other than the
    defaults a hash of them, never the file's name (which may be too long for a folder name, or
    not text): an edited file plays a new run rather than meeting the old one, and two files of the
    same parameters play one."""
    from sim.players import is_learned, player_type, weights_file

    if is_learned(kind) and ":" in kind:  # its weights by content, never by the file's name
        from sim.fingerprint import file_sha256

        kind = f"{player_type(kind)}-{file_sha256(weights_file(kind))[:12]}"
    if prm == default:
        return kind
    return f"{kind}.{short_hash(prm.to_dict())}"


def role_metrics(deals: pl.DataFrame, first_game: int, m: int,
                 n_seats: int) -> list[dict[str, tuple[np.ndarray, np.ndarray]]]:
    """For each seat, {metric: (N_g, D_g)} over the ``m`` games from ``first_game`` of one chunk:
    its share of the deals as declarer, make-rate and concession rate of its contracts, its mean
    contract, points per deal as declarer and as defender (the deal's result, before the barrel)."""
    gid = deals["game"].to_numpy() - first_game
    declarer = deals["declarer"].to_numpy()
    declared = (deals["redeal"].to_numpy() == 0) & (declarer >= 0)
    conceded = declared & deals["conceded"].to_numpy().astype(bool)
    made = deals["made"].to_numpy().astype(bool)
    dealer = deals["dealer"].to_numpy()
    contract = deals["contract"].to_numpy()

    def per_game(x):
        return np.bincount(gid, weights=np.asarray(x, dtype=np.float64), minlength=m)

    n_deals = per_game(np.ones(len(gid)))
    out = []
    for s in range(n_seats):
        mine = declared & (declarer == s)
        played = mine & ~conceded
        defends = declared & (declarer != s) & ~((dealer == s) if n_seats == 4 else False)
        result = deals[f"result{s}"].to_numpy()
        out.append({
            "declarer share": (per_game(mine), n_deals),
            "make-rate": (per_game(played & made), per_game(played)),
            "concession rate": (per_game(mine & conceded), per_game(mine)),
            "mean contract": (per_game(np.where(mine, contract, 0)), per_game(mine)),
            "declarer points per deal": (per_game(np.where(mine, result, 0)), per_game(mine)),
            "defender points per deal": (per_game(np.where(defends, result, 0)), per_game(defends)),
        })
    return out


# What identifies a stored tournament (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = {"table": ("the kind of table", None), "mode": ("the sizes", None), "games": ("the sizes", "--games"),
            "deals": ("the sizes", "--deals"), "chunk_size": ("the sizes", "a chunk"), "seed": ("the seed", "--seed"),
            "players": ("the players", None), "player_types": ("the players", None),
            "player_params": ("the players' parameters", None), "rules": ("the rules", "--rules")}


@holds_out()
def tournament(*, players: list[str], games: int | None = None, deals: int | None = None, rules: str = "classic",
               seed: int = 0, out: Path = Path("out/tournament"), as_json: bool = False,
               progress: bool = False, backend: Backend | None = None, fresh: bool = False) -> list[str]:
    """What ``thousand tournament`` prints; runs stored and reused under ``out/runs``. Whole games
    (``games``: players compared by win share) or independent deals from a zero score (``deals``:
    compared by points per deal, the measure of card play and bidding alone). What ``out`` holds
    from other arguments or other code is refused (``analysis.analysis_dir``) unless ``fresh``,
    which redoes it."""

    import polars as pl

    from analysis.analysis_dir import NoResultError, check_stored, compared_on, finished_games, worded_for
    from sim import __version__
    from sim.engine import BatchSpec
    from sim.fingerprint import code_fingerprint
    from sim.game.rules import load_rules
    from sim.players import default_params
    from sim.runs import check_output_dir, play_runs, verify_run
    from sim.runs.progress import StageBars

    if (games is None) == (deals is None):
        raise InputError("give --games or --deals, not both" if games is not None else "give --games or --deals")
    mode = "games" if deals is None else "deals"
    size = games if deals is None else deals
    rec = load_rules(rules)
    n = rec.players
    labels, kinds, params = resolve_players(players, n)
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    keys = [_run_key(k, p, default_params(n)) for k, p in zip(kinds, params, strict=True)]
    seatings = list(itertools.permutations(range(n)))  # seating[s] = the player (index) in seat s
    specs = {}
    for seating in seatings:
        run = tuple(keys[i] for i in seating)
        if run not in specs:
            specs[run] = BatchSpec(mode=mode, n=size, rules=rec, players=tuple(kinds[i] for i in seating),
                                   seed=seed, params=tuple(params[i] for i in seating))
    if size < 2:
        raise InputError(f"--{mode} must be 2 or more for a tournament: an interval needs two {mode}, not {size}")
    chunk = min(s.chunk_size for s in specs.values())
    specs = {t: dataclasses.replace(s, chunk_size=chunk) for t, s in specs.items()}
    out = Path(out)
    runs = {t: out / "runs" / (mode + "-" + "-".join(t) if mode == "deals" else "-".join(t)) for t in specs}
    measure = "win share" if mode == "games" else "points per deal"
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("tournament"), "table": "tournament",
            "mode": mode, mode: size, "seed": seed, "players": labels, "player_types": kinds,
            "player_params": {lab: prm.to_dict() for lab, prm in zip(labels, params, strict=True)},
            "seatings": len(seatings), "runs": len(specs), "chunk_size": chunk, "rules": rec.to_dict(),
            "compared": measure,
            "ranking": f"by duplicate {measure}; pairs by paired t over {mode} numbers, Holm-corrected"}
    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    check_stored(out, out / TABLE_FILE, meta, compared_on(meta, IDENTITY, by="players", of="player_params"),
                 what=f"the tournament stored in --out {out}", runs={runs[t]: specs[t] for t in specs}, fresh=fresh)
    check_output_dir(out)
    with worded_for(out, out / "runs"):
        play_runs({runs[t]: spec for t, spec in specs.items()},
                  progress=StageBars(mode[:-1]) if progress else None, stage="seatings", backend=backend, fresh=fresh)
        shards = {t: verify_run(runs[t]) for t in specs}
        if mode == "games":
            finished = sum(done for done, _ in finished_games(runs).values())
            if not finished:
                limit = next(iter(specs.values())).max_deals_per_game
                raise NoResultError(f"0 of the {size:,} games of each of the {len(seatings)} seatings finished (each "
                                    f"was stopped unfinished after {limit:,} deals): no win share to rank the players "
                                    "by; check the rules")
            meta["finished_games"] = finished
    win = {lab: RatioOfSums() for lab in labels}
    score = {lab: RatioOfSums() for lab in labels}
    per_deal = {lab: RatioOfSums() for lab in labels}
    roles = {(lab, name): RatioOfSums() for lab in labels for name in ROLE_METRICS}
    pair_diff = {pair: RatioOfSums() for pair in itertools.combinations(range(n), 2)}
    declared = 0
    for c in range(len(next(iter(shards.values()))["deals"])):
        tables = {t: pl.read_parquet(shards[t][mode][c], columns=None if mode == "games" else _DEAL_COLUMNS[n])
                  .sort("game") for t in specs}
        m = next(iter(tables.values())).height
        first = int(next(iter(tables.values()))["game"][0])
        share = np.zeros((n, m))
        final = np.zeros((n, m))
        deals_played = np.zeros((n, m))
        role_sums = {(i, name): [np.zeros(m), np.zeros(m)] for i in range(n) for name in ROLE_METRICS}
        # Seatings of copies share a run: each run's deals are read and summed once.
        run_roles = {t: role_metrics(tables[t] if mode == "deals"
                                     else pl.read_parquet(shards[t]["deals"][c], columns=_DEAL_COLUMNS[n]), first, m, n)
                     for t in specs}
        for seating in seatings:
            run = tuple(keys[i] for i in seating)
            g = tables[run]
            by_seat = run_roles[run]
            for seat, player in enumerate(seating):
                if mode == "games":
                    share[player] += g["winner"].to_numpy() == seat
                    final[player] += g[f"score{seat}"].to_numpy().astype(np.float64)
                    deals_played[player] += g["deals"].to_numpy()
                else:  # one deal a row: its result is the seat's points
                    final[player] += g[f"result{seat}"].to_numpy().astype(np.float64)
                    deals_played[player] += 1
                for name, (num, den) in by_seat[seat].items():
                    role_sums[(player, name)][0] += num
                    role_sums[(player, name)][1] += den
                declared += int(by_seat[seat]["declarer share"][0].sum())
        share /= len(seatings)
        final /= len(seatings)
        for i, lab in enumerate(labels):
            win[lab].add(share[i])
            score[lab].add(final[i])
            per_deal[lab].add(final[i] * len(seatings), deals_played[i])
            for name in ROLE_METRICS:
                roles[(lab, name)].add(*role_sums[(i, name)])
        compared = share if mode == "games" else final
        for a, b in pair_diff:
            pair_diff[(a, b)].add(compared[a] - compared[b])
    if not declared:
        raise NoResultError(f"no deal of the {size:,} {mode} of any seating had a declarer (every one was redealt): "
                            f"no {measure} to rank the players by; check the rules")
    players_rows = []
    for lab, kind, prm in zip(labels, kinds, params, strict=True):
        w, s, d = win[lab].interval(), score[lab].interval(), per_deal[lab].interval()
        row = {"player": lab, "type": kind, "score_per_deal": d["mean"], "score_per_deal_ci_low": d["ci_low"],
               "score_per_deal_ci_high": d["ci_high"], mode: d["n"] if mode == "deals" else w["n"]}
        if mode == "games":
            row.update({"win_share": w["mean"], "win_ci_low": w["ci_low"], "win_ci_high": w["ci_high"],
                        "final_score": s["mean"], "score_ci_low": s["ci_low"], "score_ci_high": s["ci_high"]})
        for name in ROLE_METRICS:
            r = roles[(lab, name)].interval()
            key = name.replace(" ", "_").replace("-", "_")
            # A role the player never had (it never declared, say): nothing observed, stored as null.
            row.update({key: _observed(r["mean"]), f"{key}_ci_low": _observed(r["ci_low"]),
                        f"{key}_ci_high": _observed(r["ci_high"])})
        row["params"] = json.dumps(prm.to_dict()) if kind in PARAMETERISED_PLAYERS else ""
        players_rows.append(row)
    rank_key = "win_share" if mode == "games" else "score_per_deal"
    players_rows.sort(key=lambda r: -r[rank_key])
    pairs = []
    for (a, b), mom in pair_diff.items():
        d = mom.interval()
        p = two_sided_p(d["mean"], d["se"])
        pairs.append({"player": labels[a], "against": labels[b], "diff": d["mean"], "ci_low": d["ci_low"],
                      "ci_high": d["ci_high"], "p": p})
    for row, q in zip(pairs, holm([r["p"] for r in pairs]), strict=True):
        row["p_holm"] = q
        row["significant"] = bool(q == q and q < 0.05)
    from sim.runs import write_parquet_atomic

    write_parquet_atomic(pl.DataFrame(players_rows), out / TABLE_FILE, {k: json.dumps(v) for k, v in meta.items()})
    _plot(players_rows, meta, out / PLOT_FILE)
    if as_json:
        return [json.dumps(json_ready({**meta, "players": players_rows, "pairs": pairs}), ensure_ascii=False,
                           indent=1)]
    return format_tournament(players_rows, pairs, meta, out)


def _observed(x: float) -> float | None:
    return None if math.isnan(x) else x


def format_tournament(players_rows: list[dict], pairs: list[dict], meta: dict, out: Path) -> list[str]:
    """The text of a tournament: the ranking, the roles and the pairs. Columns are as wide as
    their widest cell (negative scores and long file names included), so that they never run
    together."""
    mode, size = meta["mode"], meta[meta["mode"]]
    runs = meta["runs"]
    lines = [f"tournament: {', '.join(meta['players'])}; {size:,} {mode} in each of {meta['seatings']} seatings "
             f"({runs} run{'s' if runs != 1 else ''}), seats rotated over the same deals; 95% intervals over "
             f"{mode[:-1]} numbers"]
    if mode == "games":
        ranking = [["rank", "player", "win share", "final score", "score per deal"]]
    else:
        ranking = [["rank", "player", "points per deal"]]
    for k, r in enumerate(players_rows, 1):
        deal = _fmt(r["score_per_deal"], r["score_per_deal_ci_low"], r["score_per_deal_ci_high"], 2)
        if mode == "games":
            ranking.append([str(k), r["player"], _fmt(r["win_share"], r["win_ci_low"], r["win_ci_high"], 3),
                            _fmt(r["final_score"], r["score_ci_low"], r["score_ci_high"], 1), deal])
        else:
            ranking.append([str(k), r["player"], deal])
    lines += _aligned(ranking)
    roles = [["", "player", "declares", "make-rate", "concedes", "contract", "as declarer", "as defender"]]
    for r in players_rows:
        roles.append(["", r["player"], _cell(r["declarer_share"], ".1%"),
                      _fmt(r["make_rate"], r["make_rate_ci_low"], r["make_rate_ci_high"], 3),
                      _cell(r["concession_rate"], ".1%"), _cell(r["mean_contract"], ".1f"),
                      _cell(r["declarer_points_per_deal"], ".1f"), _cell(r["defender_points_per_deal"], ".1f")])
    lines += _aligned(roles)
    if any(r[key] is None for r in players_rows for key in ("make_rate", "concession_rate", "mean_contract")):
        lines.append("- : nothing observed (a player who never declared, or never played a contract out)")
    measure = meta["compared"]
    lines.append(f"pairs (difference of {measure}, * = significant after Holm's correction):")
    digits = 3 if mode == "games" else 2
    for r in pairs:
        lines.append(f"  {r['player']} vs {r['against']}: {_fmt(r['diff'], r['ci_low'], r['ci_high'], digits)}"
                     f"  p {r['p']:.3g}, Holm {r['p_holm']:.3g}{' *' if r['significant'] else ''}")
    lines.append(f"table: {out / TABLE_FILE}; plot: {out / PLOT_FILE}")
    return lines


def _aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells, each column padded to its widest cell and two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["".join(f"{cell:<{w + 2}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _cell(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


# The deal columns role_metrics reads (plays and hands are left on disk).
_DEAL_COLUMNS = {n: ["game", "declarer", "redeal", "conceded", "made", "dealer", "contract"]
                 + [f"result{s}" for s in range(n)] for n in (2, 3, 4)}


def _fmt(x: float | None, lo: float | None, hi: float | None, digits: int) -> str:
    if x is None:
        return "-"
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _plot(rows: list[dict], meta: dict, path: Path) -> None:
    """Panels, players ranked top to bottom, each value with its 95% interval: duplicate win share
    (games), score per deal and make-rate of the contracts played."""
    from analysis.present.plots import pyplot, save

    plt = pyplot()

    panels = [("score_per_deal", "score_per_deal_ci_low", "score_per_deal_ci_high",
               "score per deal (points)" if meta["mode"] == "games" else "points per deal"),
              ("make_rate", "make_rate_ci_low", "make_rate_ci_high", "contracts made (share of played)")]
    if meta["mode"] == "games":
        panels.insert(0, ("win_share", "win_ci_low", "win_ci_high", "share of games won"))
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 1.6 + 0.55 * len(rows)), sharey=True)
    y = np.arange(len(rows))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, lo, hi, label) in zip(axes, panels, strict=True):
        for yi, r in zip(y, rows, strict=True):
            if r[key] is None:  # nothing observed: no point
                continue
            ax.errorbar([r[key]], [yi], xerr=[[max(0.0, r[key] - r[lo])], [max(0.0, r[hi] - r[key])]], fmt="o",
                        capsize=4, color=colours[yi % len(colours)])
        if key == "win_share":
            ax.axvline(1 / len(rows), color="grey", linewidth=0.8, linestyle="--", label="an equal share")
            ax.legend(fontsize=8, loc="lower right")
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.25)
    axes[0].set_yticks(y, [short_label(r["player"]) for r in rows])
    axes[0].set_ylim(len(rows) - 0.5, -0.5)
    size = meta[meta["mode"]]
    fig.suptitle(f"Tournament: {size:,} {meta['mode']} × {meta['seatings']} seatings (duplicate), seed "
                 f"{meta['seed']}; 95% intervals")
    save(fig, path)
