"""A duplicate tournament (``analysis.tournament.TournamentResult``) as a user sees it: the lines
``thousand tournament`` prints, the report's section on the players and the tournament's plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.analysis_dir import short_label
from analysis.present.figure import pyplot, save
from analysis.present.format import finite, interval, markdown_figures, markdown_table, num, pct
from analysis.present.layout import DEFAULT_WIDTH, Column, fit, paths, table

if TYPE_CHECKING:
    from analysis.stats import Estimate
    from analysis.tournament import TournamentResult

__all__ = ["tournament_lines", "players_section", "plot_tournament"]


def tournament_lines(result: TournamentResult, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tournament`` prints: first the player ranked first and how many pairs differ
    significantly, then the ranking, the roles and the pairs, and where the table and the plot are.
    Columns are as wide as their widest cell (negative scores and long file names included), so that
    they never run together; at ``width`` the least needed are left out (all with ``width`` None)."""
    mode, size = result.mode, result.size
    runs = len(result.run_dirs)
    top = result.players[0]
    measure = (("win share", _tournament_interval(top.win_share, 3)) if mode == "games" else
               ("points per deal", _tournament_interval(top.score_per_deal, 2)))
    significant = sum(r.significant for r in result.pairs)
    lines = fit([f"first: {top.player}, {measure[0]} {measure[1]}; {significant} of "
                 f"{len(result.pairs)} pairs differ (Holm)"], width)
    lines += fit([f"tournament: {', '.join(result.labels)}; {size:,} {mode} in each of {len(result.seatings)} "
                  f"seatings ({runs} run{'s' if runs != 1 else ''}), seats rotated over the same deals; 95% "
                  f"intervals over {mode[:-1]} numbers"], width)
    if mode == "games":
        ranking = [["rank", "player", "win share", "final score", "score per deal"]]
        keep = [0, 0, 0, 1, 2]
    else:
        ranking = [["rank", "player", "points per deal"]]
        keep = [0, 0, 0]
    for k, r in enumerate(result.players, 1):
        deal = _tournament_interval(r.score_per_deal, 2)
        if mode == "games":
            ranking.append([str(k), r.player, _tournament_interval(r.win_share, 3),
                            _tournament_interval(r.final_score, 1), deal])
        else:
            ranking.append([str(k), r.player, deal])
    roles = [["", "player", "declares", "make-rate", "concedes", "contract", "as declarer", "as defender"]]
    for r in result.players:
        roles.append(["", r.player, _tournament_cell(r.declarer_share, ".1%"),
                      _tournament_interval(r.make_rate, 3),
                      _tournament_cell(r.concession_rate, ".1%"), _tournament_cell(r.mean_contract, ".1f"),
                      _tournament_cell(r.declarer_points_per_deal, ".1f"),
                      _tournament_cell(r.defender_points_per_deal, ".1f")])
    dropped: list[str] = []
    for rows, keeps in ((ranking, keep), (roles, [0, 0, 3, 4, 1, 2, 5, 5])):
        if width is None:
            lines += _tournament_aligned(rows)
            continue
        columns = [Column(h, "<", k) for h, k in zip(rows[0], keeps, strict=True)]
        shown, gone = table(columns, rows[1:], width, indent="")
        lines += shown
        dropped += gone
    if any(v is None for r in result.players for v in (r.make_rate, r.concession_rate, r.mean_contract)):
        lines.append("- : nothing observed (a player who never declared, or never played a contract out)")
    if dropped:
        lines += fit([f"(--wide adds the columns {', '.join(dropped)})"], width)
    lines += fit([f"pairs (difference of {result.compared}, * = significant after Holm's correction):"], width)
    digits = 3 if mode == "games" else 2
    for r in result.pairs:
        lines += fit([f"  {r.player} vs {r.against}: {_tournament_interval(r.diff, digits)}"
                      f"  p {r.p:.3g}, Holm {r.p_holm:.3g}{' *' if r.significant else ''}"], width)
    lines += paths(width, table=result.table_path, plot=result.plot_path)
    return lines


def _tournament_aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells, each column padded to its widest cell and two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["".join(f"{cell:<{w + 2}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _tournament_cell(x: Estimate | None, spec: str) -> str:
    return "-" if x is None else format(x.value, spec)


def _tournament_interval(x: Estimate | None, digits: int) -> str:
    if x is None:
        return "-"
    if not (finite(x.low) and finite(x.high)):
        return f"{interval(x.value, digits=digits)} (no interval)"
    return interval(x.value, x.low, x.high, digits)


def _ends(x: Estimate | None) -> tuple[float | None, float | None, float | None]:
    """(value, low, high) of an estimate; all None for one never observed."""
    return (None, None, None) if x is None else (x.value, x.low, x.high)


def _value(x: Estimate | None) -> float | None:
    return None if x is None else x.value


def players_section(s: TournamentResult, figs: list) -> list[str]:
    """The report's section on the players below its heading: the ranking, how each bids and plays,
    the pairs' differences, the plot (``figs``: file and caption) and what it means at the table."""
    lines = [f"A duplicate tournament: {s.size:,} whole games in each of the {len(s.seatings)} seatings of "
             f"{', '.join(sorted(r.player for r in s.players))} (seed {s.seed}), so every player meets the "
             "same cards in every seat. "
             "`learned` is our player trained on the exact solver's values (docs/learned.md), `learned-win` the same "
             "player whose bids, final contract and concession weigh the chance of winning the game; `leadage` is "
             "the computer player of the open-source game Leadage/tysyacha-1000, ported.", ""]
    rows = [[k + 1, r.player, pct(*_ends(r.win_share)), num(*_ends(r.final_score), digits=0),
             num(*_ends(r.score_per_deal))]
            for k, r in enumerate(s.players)]
    lines += markdown_table(["rank", "player", "win share [95%]", "final score", "score per deal"], rows)
    lines += ["How they bid and play their contracts:", ""]
    lines += markdown_table(["player", "declares (share of deals)", "mean contract", "make-rate", "concedes",
                             "points as declarer", "points as defender"],
                            [[r.player, pct(*_ends(r.declarer_share)), num(*_ends(r.mean_contract)),
                              pct(*_ends(r.make_rate)), pct(*_ends(r.concession_rate)),
                              num(*_ends(r.declarer_points_per_deal)), num(*_ends(r.defender_points_per_deal))]
                             for r in s.players])
    lines += markdown_table(["pair", "difference in win share [95%]", "p (Holm)", "significant"],
                            [[f"{r.player} vs {r.against}", num(*_ends(r.diff), digits=3, sign=True),
                              f"{r.p_holm:.2g}", "yes" if r.significant else "no"] for r in s.pairs])
    lines += markdown_figures(figs)
    win, rest = s.players[0], s.players[1:]
    lines += ["### What this means at the table", ""]
    if rest:
        other = rest[0]
        lines.append(f"- {win.player} wins {pct(_value(win.win_share))} of the games, {other.player} "
                     f"{pct(_value(other.win_share))}.")
        lines.append(f"- The winner's bidding: it declares {pct(_value(win.declarer_share))} of the deals "
                     f"({other.player}: {pct(_value(other.declarer_share))}) at a mean contract of "
                     f"{num(_value(win.mean_contract))} ({num(_value(other.mean_contract))}), makes "
                     f"{pct(_value(win.make_rate))} of the contracts it plays ({pct(_value(other.make_rate))}) and "
                     f"concedes {pct(_value(win.concession_rate))} ({pct(_value(other.concession_rate))}).")
    return lines + [""]


def plot_tournament(result: TournamentResult, path: Path) -> None:
    """Panels, players ranked top to bottom, each value with its 95% interval: duplicate win share
    (whole games), score per deal and make-rate of the contracts played."""
    plt = pyplot()
    rows = result.players
    panels = [("score_per_deal", "score per deal (points)" if result.mode == "games" else "points per deal"),
              ("make_rate", "contracts made (share of played)")]
    if result.mode == "games":
        panels.insert(0, ("win_share", "share of games won"))
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 1.6 + 0.55 * len(rows)), sharey=True)
    y = np.arange(len(rows))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, label) in zip(axes, panels, strict=True):
        for yi, r in zip(y, rows, strict=True):
            estimate = getattr(r, key)
            if estimate is None:  # nothing observed: no point
                continue
            x, low, high = estimate.value, estimate.low, estimate.high
            ax.errorbar([x], [yi], xerr=[[max(0.0, x - low)], [max(0.0, high - x)]], fmt="o", capsize=4,
                        color=colours[yi % len(colours)])
        if key == "win_share":
            ax.axvline(1 / len(rows), color="grey", linewidth=0.8, linestyle="--", label="an equal share")
            ax.legend(fontsize=8, loc="lower right")
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.25)
    axes[0].set_yticks(y, [short_label(r.player) for r in rows])
    axes[0].set_ylim(len(rows) - 0.5, -0.5)
    field = ", ".join(short_label(x, 20) for x in result.labels)
    fig.suptitle(f"Tournament of {field}: {result.size:,} {result.mode} × {len(result.seatings)} seatings (duplicate), "
                 f"seed {result.seed}; 95% intervals")
    save(fig, path)
