"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, Share
    from analysis.compare import Comparison

__all__ = ["comparison_lines", "barrel_lines"]


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
