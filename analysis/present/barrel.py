"""Barrel survival (``analysis.barrel.BarrelStats``) as a user sees it: the lines ``thousand tables
barrel`` prints, the report's section on the barrel and its plot."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.analysis_dir import short_label
from analysis.barrel import FATES, LEFT_DOWNWARD, MAX_ATTEMPT_SHOWN, MIN_GAMES, SCORE_STEP
from analysis.present.figure import pyplot, save
from analysis.present.format import markdown_figures, markdown_table, num, p_value, pct, players_text
from analysis.present.layout import DEFAULT_WIDTH, fit, paths

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, BarrelSummary, Share

__all__ = ["barrel_lines", "barrel_section", "plot_barrel"]


def barrel_lines(result: BarrelStats, text_width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tables barrel`` prints: one column a rule set, the share of barrel episodes
    of each fate and attempt, the game length, the chance of winning from a score, and where the
    table and the plot are. At ``text_width`` the rule sets that do not fit beside each other are
    printed in blocks one below the other; with ``text_width`` None all side by side."""
    summaries = result.summaries
    names = list(summaries)
    width = 24
    per = len(names) if text_width is None else max(1, (text_width - 30) // width)
    blocks = [list(range(k, min(k + per, len(names)))) for k in range(0, len(names), per)]
    lines = fit([f"barrel survival (share of barrel episodes, [95% interval]); {result.games:,} games a rule set "
                 f"played by the {players_text(result.players)}"], text_width)
    rows: list[tuple[str, list[str]] | str] = []

    def row(label: str, cells: list[str]) -> None:
        rows.append((label, cells))

    def pct(x: Share) -> str:
        return "-" if not x.n else f"{x.rate.value:.3f} [{x.rate.low:.3f}, {x.rate.high:.3f}]"

    row("games / barrel episodes", [f"{s.games:,} / {s.episodes:,}" for s in summaries.values()])
    for f in FATES:
        if f != LEFT_DOWNWARD or any(s.fates[f].k for s in summaries.values()):  # only the range barrel's
            row(f, [pct(s.fates[f]) for s in summaries.values()])
    row("fell (all causes)", [pct(s.fell) for s in summaries.values()])
    row("fell to zero", [pct(s.fell_to_zero) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}", [pct(s.up_on_attempt[a]) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}, once reached", [pct(s.up_once_reached[a]) for s in summaries.values()])
    for a in range(0, 4):
        label = f"episodes of {a}{'+' if a == 3 else ''} deals on it"
        row(label, [pct(s.lasted(a, or_more=a == 3)) for s in summaries.values()])
    row("simultaneous climbs", [f"{s.simultaneous_climbs:,}" for s in summaries.values()])
    if any(s.refused_climbs for s in summaries.values()):  # barrel_collision = sitter_stays or both_fall
        row("climbs sent back by a sitter", [f"{s.refused_climbs:,}" for s in summaries.values()])
    row("game length (deals)", [f"{s.game_length.value:.1f} [{s.game_length.low:.1f}, "
                                f"{s.game_length.high:.1f}]" for s in summaries.values()])
    row("deals with a sitter", [pct(s.barrel_share_of_deals) for s in summaries.values()])
    rows.append(f"chance of winning the game from your score when you deal (score classes of {SCORE_STEP}, one "
                "observation per game, seat and class, clustered by game; classes of fewer than "
                f"{MIN_GAMES} games left out)")
    classes = sorted({c for s in summaries.values() for c in s.win_curve})
    for c in classes:
        row(f"score {c} to {c + SCORE_STEP - 5}", [pct(s.win_curve[c]) if c in s.win_curve else "-"
                                                  for s in summaries.values()])
    for block in blocks:
        lines.append(f"{'':<30}" + "".join(f"{names[i][:width - 2]:<{width}}" for i in block).rstrip())
        for r in rows:
            if isinstance(r, str):
                lines += fit([r], text_width)
            else:
                lines.append((f"{r[0]:<30}" + "".join(f"{r[1][i]:<{width}}" for i in block)).rstrip())
    return lines + paths(text_width, table=result.table_path, plot=result.plot_path)


def barrel_section(s: BarrelStats | None, figs: list) -> list[str]:
    """The report's section on the barrel below its heading: each rule set's barrel episodes by how
    they end and attempt, the plot (``figs``: file and caption), the chance of winning from a score
    and what it means at the table; a line saying so when no rule set has a barrel."""
    if s is None:
        return ["None of the rule sets has a barrel (barrel = none): there is nothing to report.", ""]
    summaries = s.summaries
    labels = list(summaries)
    lines = [f"{s.games:,} whole games per rule set, played by the {players_text(s.players)} (seed {s.seed}). A "
             "barrel episode starts when a player climbs onto the barrel and ends when he leaves it: upward "
             "(he wins), or falling"
             + (", or on a range barrel downward without a fall (his score fell below it)."
                if any(v.fates[LEFT_DOWNWARD].k for v in summaries.values()) else "."), ""]

    def share(x: Share) -> str:
        return pct(x.rate.value, x.rate.low, x.rate.high) if x.n else "–"
    rows = [["games / episodes"] + [f"{v.games:,} / {v.episodes:,}" for v in summaries.values()]]
    # Every way an episode ends, each once: the rows down to "unfinished" add up to all episodes.
    rows.append(["leaves upward (wins)"] + [share(v.fates["up"]) for v in summaries.values()])
    fates = [f for f in next(iter(summaries.values())).fates if f.startswith("fell")]
    for f in fates + [LEFT_DOWNWARD, "another player won", "unfinished"]:
        if any(v.fates[f].k for v in summaries.values()):
            rows.append([f] + [share(v.fates[f]) for v in summaries.values()])
    rows.append(["of the falls above: to zero"] + [share(v.fell_to_zero) for v in summaries.values()])
    for a in (1, 2, 3):
        rows.append([f"wins on attempt {a}, of those reaching it"]
                    + [share(v.up_once_reached[a]) for v in summaries.values()])
    rows.append(["game length (deals)"] + [num(v.game_length.value, v.game_length.low, v.game_length.high)
                                           for v in summaries.values()])
    lines += markdown_table(["share of barrel episodes (the last rows: of the episodes reaching each attempt)"]
                            + labels, rows)
    lines += markdown_figures(figs)
    first = summaries[labels[0]]
    curve = list(first.win_curve.items())
    if curve:
        lines += [f"Chance of winning the game from your score when you deal ({labels[0]}; classes of 100 points, "
                  f"at least {MIN_GAMES} games each; a game counts once for each seat that dealt from the class, and "
                  "the interval is clustered by game):", ""]
        lines += markdown_table(["score", "games", "seats", "wins the game"],
                                [[f"{c} to {c + 95}", f"{v.rate.clusters:,}", f"{v.n:,}", share(v)] for c, v in curve])
    up, fell = first.fates["up"], first.fell
    causes = sorted(((f, first.fates[f]) for f in fates), key=lambda fv: -fv[1].rate.value)
    lines += ["### What this means at the table", "",
              f"- Under {labels[0]} ({players_text(s.players)}), a player on the barrel leaves it upward "
              f"{pct(up.rate.value)} of the time and falls "
              f"{pct(fell.rate.value)}; the commonest fall is \"{causes[0][0].split(': ', 1)[-1]}\" "
              f"({pct(causes[0][1].rate.value)} of episodes).",
              f"- Of the episodes that reach it, the first attempt wins {pct(first.up_once_reached[1].rate.value)}, "
              f"the second {pct(first.up_once_reached[2].rate.value)} and the third "
              f"{pct(first.up_once_reached[3].rate.value)}"
              + _attempts_reading(first) + ".", ""]
    return lines


def _attempts_reading(s: BarrelSummary) -> str:
    """What the attempts' chances say, by the paired tests of each pair (by game, Holm-corrected):
    which differences are significant at 5%, or that none is."""
    tests = [t for t in s.attempt_tests if not math.isnan(t.p_holm)]
    if not tests:
        return ""
    shown = "; ".join(f"attempt {t.later} against {t.earlier} {t.diff.value * 100:+.1f} points of percentage "
                      f"[{t.diff.low * 100:+.1f}, {t.diff.high * 100:+.1f}] (Holm p {p_value(t.p_holm)})"
                      for t in tests)
    significant = [t for t in tests if t.p_holm < 0.05]
    verdict = ("no difference between attempts is significant at 5% after Holm's correction" if not significant
               else "significant at 5% after Holm's correction: "
               + ", ".join(f"attempt {t.later} against {t.earlier}" for t in significant))
    return f" (paired by game: {shown}): {verdict}"


def plot_barrel(result: BarrelStats, path: Path) -> None:
    """How barrel episodes end (a group of bars a fate), leaving the barrel upward by attempt, and
    the chance of winning the game from a score, one colour a rule set, with 95% intervals."""
    plt = pyplot()

    summaries = result.summaries
    # Fates across the top (one group of bars per fate), attempts and scores below.
    fig = plt.figure(figsize=(13, 10))
    grid = fig.add_gridspec(2, 2)
    ax1 = fig.add_subplot(grid[0, :])
    ax2, ax3 = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    shown = [f for f in FATES if any(s.fates[f].k for s in summaries.values())]
    width = 0.8 / max(1, len(summaries))
    x = np.arange(len(shown))
    # Every attempt some episode reached (none reaches one past the rules' attempts).
    last_attempt = max([a for s in summaries.values() for a, v in s.up_once_reached.items() if v.n] + [1])
    last_attempt = min(MAX_ATTEMPT_SHOWN, last_attempt)
    for i, (label, s) in enumerate(summaries.items()):
        ps = [s.fates[f].rate.value for f in shown]
        err = [[max(0.0, p - s.fates[f].rate.low) for f, p in zip(shown, ps, strict=True)],
               [max(0.0, s.fates[f].rate.high - p) for f, p in zip(shown, ps, strict=True)]]
        ax1.bar(x + i * width, ps, width, yerr=err, capsize=3,
                label=f"{short_label(label)} ({s.episodes:,} episodes)")
        attempts = range(1, last_attempt + 1)
        # Of the episodes that reached each attempt: the chance that attempt gives.
        ups = [s.up_once_reached[a].rate.value for a in attempts]
        err2 = [[max(0.0, p - s.up_once_reached[a].rate.low) for a, p in zip(attempts, ups, strict=True)],
                [max(0.0, s.up_once_reached[a].rate.high - p) for a, p in zip(attempts, ups, strict=True)]]
        ax2.errorbar(list(attempts), ups, yerr=err2, marker="o", capsize=3, label=short_label(label))
        curve = list(s.win_curve.items())
        xs = [c + SCORE_STEP / 2 for c, _ in curve]
        ax3.plot(xs, [v.rate.value for _, v in curve], marker=".", label=short_label(label))
        ax3.fill_between(xs, [v.rate.low for _, v in curve], [v.rate.high for _, v in curve], alpha=0.2)
    ax1.set_xticks(x + width * (len(summaries) - 1) / 2, [f.replace(": ", ":\n")
                                                           for f in shown])
    ax1.set_ylabel("share of barrel episodes")
    ax1.set_title("How a barrel episode ends (95% intervals)")
    ax1.legend()
    ax2.set_xlabel("attempt (played deals on the barrel)")
    ax2.set_xticks(list(range(1, last_attempt + 1)))
    ax2.set_ylabel("won on this attempt, of those reaching it")
    ax2.set_ylim(bottom=0)  # from zero: a chance drawn to scale
    ax2.set_title("Leaving the barrel upward, by attempt")
    ax2.legend()
    ax3.set_xlabel(f"your score before the deal you deal (points, classes of {SCORE_STEP})")
    ax3.set_ylabel("chance of winning the game")
    ax3.set_title("Winning from a score (95% bands)")
    ax3.legend()
    for ax in (ax1, ax2, ax3):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Barrel survival: {result.games:,} games per rule set, {players_text(result.players)}, "
                 f"seed {result.seed}")
    save(fig, path)
