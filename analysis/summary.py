"""The summary ``thousand simulate`` prints: declarer make-rates and contracts from the deal
shards, win rates and game length from the game shards, each with a 95% interval."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.stats import mean_interval, wilson_interval
from sim.runs import read_run_metadata, scan_deals, scan_games

__all__ = ["deal_summary", "make_rate_by_player", "game_summary", "format_summary"]


def deal_summary(out: Path) -> dict:
    deals = scan_deals(out).filter(pl.col("declarer") >= 0)  # thrown-in deals have no declarer
    row = deals.select(
        n=pl.len(),
        conceded=pl.col("conceded").sum(),
        played=(~pl.col("conceded")).sum(),
        made=pl.col("made").sum(),
        contract_mean=pl.col("contract").cast(pl.Float64).mean(),
        contract_std=pl.col("contract").cast(pl.Float64).std(),
    ).collect().row(0, named=True)
    n, played = row["n"], row["played"]
    # No deal with a declarer (every one thrown in or redealt) leaves every rate undefined, not an error.
    return {
        "deals": n,
        "made_rate": row["made"] / n if n else float("nan"),
        "made_rate_ci": wilson_interval(row["made"], n),
        "made_rate_played": row["made"] / played if played else float("nan"),
        "made_rate_played_ci": wilson_interval(row["made"], played),
        "conceded_rate": row["conceded"] / n if n else float("nan"),
        "contract_mean": row["contract_mean"],
        "contract_mean_ci": mean_interval(row["contract_mean"], row["contract_std"], n),
    }


def make_rate_by_player(out: Path) -> pl.DataFrame:
    """Make-rate of each player type as declarer (seat types from the run's metadata)."""
    players = read_run_metadata(out)["players"]
    df = (scan_deals(out)
          .filter(pl.col("declarer") >= 0)
          .select("declarer", "made", "conceded", "contract")
          .with_columns(player=pl.col("declarer").replace_strict(dict(enumerate(players)), return_dtype=pl.String))
          .collect())
    rows = []
    for (player,), g in df.group_by("player", maintain_order=True):
        n = g.height
        made = int(g["made"].sum())
        lo, hi = wilson_interval(made, n)
        rows.append({"player": player, "declared": n, "made_rate": made / n, "ci_low": lo, "ci_high": hi,
                     "conceded_rate": float(g["conceded"].mean()), "mean_contract": float(g["contract"].mean())})
    return pl.DataFrame(rows).sort("player")


def game_summary(out: Path) -> dict:
    games = scan_games(out).collect()
    n = games.height
    finished = games.filter(pl.col("finished"))
    players = read_run_metadata(out)["players"]
    seats = []
    for s in range(len(players)):  # three seats, or two or four (rules.players)
        wins = int((finished["winner"] == s).sum())
        seats.append({"seat": s, "player": players[s], "wins": wins, "win_rate": wins / n,
                      "ci": wilson_interval(wins, n)})
    length = finished["deals"].cast(pl.Float64)
    return {
        "games": n,
        "unfinished": n - finished.height,
        "seats": seats,
        "deals_mean": length.mean() if finished.height else float("nan"),
        "deals_mean_ci": mean_interval(length.mean(), length.std(), finished.height) if finished.height > 1
        else (float("nan"), float("nan")),
        "deals_median": length.median() if finished.height else float("nan"),
    }


def format_summary(out: Path) -> str:
    meta = read_run_metadata(out)
    seeds = ",".join(map(str, meta.get("seeds", [meta["seed"]])))
    lines = [f"run {out}: {meta['mode']} n={meta['sample_size']} seed{'s' if 'seeds' in meta else ''}={seeds} "
             f"players={','.join(meta['players'])} version={meta['thousand_version']} "
             f"code={meta.get('code_fingerprint', 'none recorded')}"]
    d = deal_summary(out)
    lo, hi = d["made_rate_played_ci"]
    if not d["deals"]:
        lines.append("deals with a declarer: 0 (every deal was thrown in or redealt)")
    else:
        lines.append(f"deals with a declarer: {d['deals']:,}; declarer made {d['made_rate_played']:.1%} "
                     f"of played contracts (95% CI {lo:.1%}–{hi:.1%}); conceded {d['conceded_rate']:.1%}; "
                     f"mean contract {d['contract_mean']:.1f}")
    by_player = make_rate_by_player(out) if d["deals"] else None
    if by_player is not None and by_player.height > 1:
        for r in by_player.iter_rows(named=True):
            lines.append(f"  as declarer, {r['player']}: made {r['made_rate']:.1%} "
                         f"({r['ci_low']:.1%}–{r['ci_high']:.1%}) of {r['declared']:,}, "
                         f"mean contract {r['mean_contract']:.1f}")
    if meta["mode"] == "games":
        g = game_summary(out)
        ci_lo, ci_hi = g["deals_mean_ci"]
        lines.append(f"games: {g['games']:,} ({g['unfinished']} unfinished); mean length {g['deals_mean']:.1f} "
                     f"deals (95% CI {ci_lo:.1f}–{ci_hi:.1f}), median {g['deals_median']:.0f}")
        for s in g["seats"]:
            lines.append(f"  seat {s['seat']} ({s['player']}): won {s['win_rate']:.1%} "
                         f"(95% CI {s['ci'][0]:.1%}–{s['ci'][1]:.1%})")
    return "\n".join(lines)
