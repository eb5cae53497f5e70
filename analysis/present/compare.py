"""The house-rule comparison (``analysis.compare.Comparison``) as a user sees it: the lines
``thousand compare`` prints, the report's section on house rules and the comparison's plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.analysis_dir import short_label
from analysis.present.figure import pyplot, save
from analysis.present.format import markdown_figures, markdown_table, num, p_value, players_text
from analysis.present.layout import DEFAULT_WIDTH, Column, fit, paths, table

if TYPE_CHECKING:
    from analysis.compare import Comparison

__all__ = ["comparison_lines", "rules_section", "PANEL_COLUMNS", "plot_comparison"]

PANEL_COLUMNS = 3  # the comparison plot's panels a row (one a metric)


def comparison_lines(result: Comparison, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand compare`` prints: first how many differences are significant and which, then
    every difference to the first rule set (at ``width`` the columns that fit; all with ``width``
    None), what was left out, and where the table and the plot are."""
    labels = result.rule_sets
    significant = [r for r in result.rows if r.significant]
    lines = fit([f"{len(significant)} of {len(result.rows)} differences significant"
                 + (": " + "; ".join(f"{r.metric} ({r.rules}) {r.diff.value:+.4f}" for r in significant)
                    if significant else "")], width)
    head = (f"rule sets compared on the same deals (common random numbers): {', '.join(labels)}; played by the "
            f"{players_text(result.players)}; differences to {labels[0]} with 95% intervals; * = significant after "
            "Holm's correction (family-wise 5%)")
    if width is None:
        lines += [head, f"{'metric':<36}{'rule set':<16}{labels[0][:14]:>14}{'this':>12}  {'difference [95%]':<30}"
                        f"{'p':>8}{'p (Holm)':>10}"]
        for r in result.rows:
            diff = f"{r.diff.value:+.4f} [{r.diff.low:+.4f}, {r.diff.high:+.4f}]"
            mark = " *" if r.significant else ""
            lines.append(f"{r.metric:<36}{r.rules[:15]:<16}{r.first:>14.4f}{r.value:>12.4f}  {diff:<30}"
                         f"{r.p:>8.3g}{r.p_holm:>10.3g}{mark}")
    else:
        lines += fit([head], width)
        several = len(labels) > 2
        columns = (Column("metric", "<"), Column("rule set", "<", keep=0 if several else 1),
                   Column(labels[0][:14], keep=3), Column("this", keep=3), Column("difference [95%]", "<"),
                   Column("p", keep=2), Column("p (Holm)"), Column("", "<"))
        rows = [[r.metric, r.rules[:15], f"{r.first:.4f}", f"{r.value:.4f}",
                 f"{r.diff.value:+.4f} [{r.diff.low:+.4f}, {r.diff.high:+.4f}]", f"{r.p:.3g}", f"{r.p_holm:.3g}",
                 "*" if r.significant else ""] for r in result.rows]
        table_lines, dropped = table(columns, rows, width, indent="")
        lines += table_lines
        if dropped:
            lines += fit([f"(--wide adds the columns {', '.join(dropped)})"], width)
    if result.left_out:
        lines += fit([f"left out, observed in one rule set only or in neither (no difference to show): "
                      f"{', '.join(result.left_out)}"], width)
    return lines + paths(width, table=result.table_path, plot=result.plot_path)


def rules_section(s: Comparison | None, figs: list) -> list[str]:
    """The report's section on house rules below its heading: the rule sets and what differs between
    them, the significant differences, the plot (``figs``: file and caption) and what it means at
    the table; a line saying so when only one rule set was given."""
    if s is None:
        return ["Only one rule set: give two or more with --rules to compare them.", ""]
    labels = list(s.rule_sets)
    lines = [f"{len(labels)} rule sets, {s.games:,} whole games each on the same deals (common random numbers, "
             f"seed {s.seed}), played by the {players_text(s.players)}. Each metric's difference to {labels[0]} "
             "with a "
             "paired 95% interval; a difference is **significant** when its Holm-corrected p-value (over every "
             "metric and rule set) is below 5%.", ""]
    rules_rows = []
    rules = s.provenance["rules"]  # each rule set's every option, as stored with the comparison
    base = rules[labels[0]]
    for label in labels:
        changes = {k: v for k, v in rules[label].items() if base.get(k) != v}
        rules_rows.append([label, ", ".join(f"{k} = {v}" for k, v in changes.items()) or "(the first set)"])
    lines += markdown_table(["rule set", "what differs from the first"], rules_rows)
    sig = sorted([r for r in s.rows if r.significant], key=lambda r: (r.rules, r.p_holm))
    lines += [f"{len(sig)} of {len(s.rows)} differences are significant:", ""]
    if sig:
        lines += markdown_table(["rule set", "metric", labels[0], "this set", "difference [95%]", "p (Holm)"],
                                [[r.rules, r.metric, num(r.first, digits=3), num(r.value, digits=3),
                                  num(r.diff.value, r.diff.low, r.diff.high, digits=3, sign=True), f"{r.p_holm:.2g}"]
                                 for r in sig])
    lines += markdown_figures(figs)
    lines += ["### What this means at the table", ""]
    length = [r for r in s.rows if r.metric == "game length (deals)"]
    for r in length:
        verdict = "significantly" if r.significant else "not significantly"
        lines.append(f"- {r.rules} ({players_text(s.players)}): games last {num(r.value)} deals against "
                     f"{num(r.first)} "
                     f"({num(r.diff.value, r.diff.low, r.diff.high, sign=True)}), {verdict} different "
                     f"(paired by game, Holm p {p_value(r.p_holm)}).")
    if not length:
        lines.append("- Every difference is listed in `data/rules.json`.")
    return lines + [""]


def plot_comparison(result: Comparison, path: Path) -> None:
    """The game length of every rule set (histograms), then small multiples: one panel a metric,
    each rule set's difference to the first in % of the first's value with its 95% interval (red
    when significant after Holm), each panel on its own axis, so that a metric of small
    differences is not flattened by another's large ones and every panel can be read where it
    stands (at 420 px wide too: ``PANEL_COLUMNS`` panels a row)."""
    plt = pyplot()
    shown = [r for r in result.rows if r.first and r.first == r.first and r.diff.low == r.diff.low]
    metrics = list(dict.fromkeys(r.metric for r in shown))
    others = [label for label in result.rule_sets[1:] if any(r.rules == label for r in shown)]
    cols = PANEL_COLUMNS
    rows = -(-len(metrics) // cols)
    panel_height = 0.32 * max(1, len(others)) + 0.9
    fig = plt.figure(figsize=(4.2 * cols, 4.0 + panel_height * rows), layout="constrained")
    grid = fig.add_gridspec(rows + 1, cols, height_ratios=[4.0] + [panel_height] * rows)
    top = fig.add_subplot(grid[0, :])
    for label in result.rule_sets:
        lengths = np.asarray(result.game_lengths[label])
        top.hist(lengths, bins=40, histtype="step", linewidth=1.5,
                 label=f"{short_label(label)} (mean {lengths.mean():.1f})")
    top.set_xlabel("game length (deals)")
    top.set_ylabel("games")
    top.set_title("Game length by rule set")
    top.legend(fontsize=9, ncols=2)
    y = {label: i for i, label in enumerate(others)}
    for k, metric in enumerate(metrics):
        ax = fig.add_subplot(grid[1 + k // cols, k % cols])
        for r in (r for r in shown if r.metric == metric):
            scale = 100 / abs(r.first)
            x = r.diff.value * scale
            error = [[max(0.0, x - r.diff.low * scale)], [max(0.0, r.diff.high * scale - x)]]
            ax.errorbar([x], [y[r.rules]], xerr=error, fmt="o", capsize=3, markersize=4,
                        color="C3" if r.significant else "C0")
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(range(len(others)), [short_label(label) for label in others], fontsize=9)
        ax.set_ylim(len(others) - 0.5, -0.5)
        ax.set_title(metric, fontsize=10)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Rule sets on common random numbers: {result.games:,} games each, seed {result.seed}, "
                 f"{players_text(result.players)}\neach panel: difference to {short_label(result.rule_sets[0])}, "
                 "% of its value (95% interval; red: significant after Holm), on its own scale")
    save(fig, path, tight=False)
