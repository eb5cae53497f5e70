"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, Share
    from analysis.compare import Comparison
    from analysis.tournament import TournamentResult

__all__ = ["comparison_lines", "barrel_lines", "tournament_lines"]


# --- compare ---
def comparison_lines(result: Comparison) -> list[str]:
    """What ``thousand compare`` prints: every difference to the first rule set, the count of those
    significant, what was left out, and where the table and the plot are."""
    labels = result.rule_sets
    lines = [f"rule sets compared on the same deals (common random numbers): {', '.join(labels)}; differences to "
             f"{labels[0]} with 95% intervals; * = significant after Holm's correction (family-wise 5%)",
             f"{'metric':<36}{'rule set':<16}{labels[0][:14]:>14}{'this':>12}  {'difference [95%]':<30}"
             f"{'p':>8}{'p (Holm)':>10}"]
    for r in result.rows:
        diff = f"{r.diff:+.4f} [{r.ci_low:+.4f}, {r.ci_high:+.4f}]"
        mark = " *" if r.significant else ""
        lines.append(f"{r.metric:<36}{r.rules[:15]:<16}{r.first:>14.4f}{r.value:>12.4f}  {diff:<30}"
                     f"{r.p:>8.3g}{r.p_holm:>10.3g}{mark}")
    significant = sum(r.significant for r in result.rows)
    lines.append(f"{significant} of {len(result.rows)} differences significant")
    if result.left_out:
        lines.append(f"left out, observed in one rule set only or in neither (no difference to show): "
                     f"{', '.join(result.left_out)}")
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}"]


# --- barrel ---
def barrel_lines(result: BarrelStats) -> list[str]:
    """What ``thousand tables barrel`` prints: one column a rule set, the share of barrel episodes
    of each fate and attempt, the game length, the chance of winning from a score, and where the
    table and the plot are."""
    from analysis.barrel import FATES, SCORE_STEP

    summaries = result.summaries
    names = list(summaries)
    width = 24
    lines = ["barrel survival (share of barrel episodes, [95% interval])",
             f"{'':<30}" + "".join(f"{n[:width - 2]:<{width}}" for n in names)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:<30}" + "".join(f"{c:<{width}}" for c in cells))

    def pct(x: Share) -> str:
        return "-" if not x.n else f"{x.p:.3f} [{x.ci_low:.3f}, {x.ci_high:.3f}]"

    row("games / barrel episodes", [f"{s.games:,} / {s.episodes:,}" for s in summaries.values()])
    for f in FATES:
        row(f, [pct(s.fates[f]) for s in summaries.values()])
    row("fell (all causes)", [pct(s.fell) for s in summaries.values()])
    row("fell to zero", [pct(s.fell_to_zero) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}", [pct(s.up_on_attempt[a]) for s in summaries.values()])
    for a in range(0, 4):
        label = f"episodes of {a}{'+' if a == 3 else ''} deals on it"
        row(label, [pct(s.lasted(a, or_more=a == 3)) for s in summaries.values()])
    row("simultaneous climbs", [f"{s.simultaneous_climbs:,}" for s in summaries.values()])
    row("game length (deals)", [f"{s.game_length.mean:.1f} [{s.game_length.ci_low:.1f}, "
                                f"{s.game_length.ci_high:.1f}]" for s in summaries.values()])
    row("deals with a sitter", [pct(s.barrel_share_of_deals) for s in summaries.values()])
    lines.append(f"chance of winning the game from your score when you deal (score classes of {SCORE_STEP}, one "
                 "observation per game and class; classes of fewer than 30 left out)")
    classes = sorted({c for s in summaries.values() for c, v in s.win_from_score.items() if v.n >= 30})
    for c in classes:
        row(f"score {c} to {c + SCORE_STEP - 5}", [pct(s.win_from_score[c]) if c in s.win_from_score
                                                  and s.win_from_score[c].n >= 30 else "-"
                                                  for s in summaries.values()])
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}"]


# --- tournament ---
def tournament_lines(result: TournamentResult) -> list[str]:
    """What ``thousand tournament`` prints: the ranking, the roles and the pairs, then where the
    table and the plot are. Columns are as wide as their widest cell (negative scores and long file
    names included), so that they never run together."""
    mode, size = result.mode, result.size
    runs = len(result.run_dirs)
    lines = [f"tournament: {', '.join(result.labels)}; {size:,} {mode} in each of {len(result.seatings)} seatings "
             f"({runs} run{'s' if runs != 1 else ''}), seats rotated over the same deals; 95% intervals over "
             f"{mode[:-1]} numbers"]
    if mode == "games":
        ranking = [["rank", "player", "win share", "final score", "score per deal"]]
    else:
        ranking = [["rank", "player", "points per deal"]]
    for k, r in enumerate(result.players, 1):
        deal = _tournament_interval(r.score_per_deal, r.score_per_deal_ci_low, r.score_per_deal_ci_high, 2)
        if mode == "games":
            ranking.append([str(k), r.player, _tournament_interval(r.win_share, r.win_ci_low, r.win_ci_high, 3),
                            _tournament_interval(r.final_score, r.score_ci_low, r.score_ci_high, 1), deal])
        else:
            ranking.append([str(k), r.player, deal])
    lines += _tournament_aligned(ranking)
    roles = [["", "player", "declares", "make-rate", "concedes", "contract", "as declarer", "as defender"]]
    for r in result.players:
        roles.append(["", r.player, _tournament_cell(r.declarer_share, ".1%"),
                      _tournament_interval(r.make_rate, r.make_rate_ci_low, r.make_rate_ci_high, 3),
                      _tournament_cell(r.concession_rate, ".1%"), _tournament_cell(r.mean_contract, ".1f"),
                      _tournament_cell(r.declarer_points_per_deal, ".1f"),
                      _tournament_cell(r.defender_points_per_deal, ".1f")])
    lines += _tournament_aligned(roles)
    if any(v is None for r in result.players for v in (r.make_rate, r.concession_rate, r.mean_contract)):
        lines.append("- : nothing observed (a player who never declared, or never played a contract out)")
    lines.append(f"pairs (difference of {result.compared}, * = significant after Holm's correction):")
    digits = 3 if mode == "games" else 2
    for r in result.pairs:
        lines.append(f"  {r.player} vs {r.against}: {_tournament_interval(r.diff, r.ci_low, r.ci_high, digits)}"
                     f"  p {r.p:.3g}, Holm {r.p_holm:.3g}{' *' if r.significant else ''}")
    lines.append(f"table: {result.table_path}; plot: {result.plot_path}")
    return lines


def _tournament_aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells, each column padded to its widest cell and two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["".join(f"{cell:<{w + 2}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _tournament_cell(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _tournament_interval(x: float | None, lo: float | None, hi: float | None, digits: int) -> str:
    if x is None:
        return "-"
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
