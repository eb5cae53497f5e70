"""The win-chance table (``analysis.win_chances.WinChanceTable``) as a user sees it: the lines
``thousand tables win-chances`` prints and its plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.present.figure import pyplot, save
from analysis.present.layout import DEFAULT_WIDTH, fit, paths
from analysis.win_chances import DENSE, END_GAME, TYPICAL_THIRD

if TYPE_CHECKING:
    from analysis.win_chances import WinChanceTable

__all__ = ["win_chance_lines", "plot_win_chances"]


def _win_chance_scores(result: WinChanceTable) -> list[int]:
    """The scores of the typical situations shown for a table: round scores below the barrel (or
    the target), then the barrel's own score when there is one."""
    grid = result.grid
    shown = [s for s in (0, 200, 400, 600, 700, 800, 840) if grid.floor <= s < grid.top]
    return shown + ([grid.top] if grid.has_barrel else [])


def win_chance_lines(result: WinChanceTable, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tables win-chances`` prints: the chance of winning in typical situations
    (your score down, the leading opponent's across, the third player at a typical score), the
    validation on held-out games, the checks, and where the table and the plot are. At ``width``
    the grid's cells are narrower (and its columns in blocks if still too wide) and the prose
    wrapped; with ``width`` None as wide as they come."""
    grid, v, c = result.grid, result.validation, result.checks
    scores = _win_chance_scores(result)
    barrel = grid.top if grid.has_barrel else None

    def name(s: int) -> str:
        return "barrel" if s == barrel else str(s)

    corner = "you \\ leader"

    lines = fit([f"chance of winning the game from the scores at the start of a deal, in %: {result.finished:,} "
                 f"finished games ({result.deals:,} deals) of {', '.join(result.players)} under these rules, seed "
                 f"{result.seed}",
                 f"rows: your score; columns: the leading opponent's; the third player at {TYPICAL_THIRD} (or the "
                 f"leader's score if lower); scores in bins of {grid.width} from the value shown"], width)
    cell = 8 if width is None else 7
    per = len(scores) if width is None else max(1, (width - 14) // cell)
    for k in range(0, len(scores), per):
        block = scores[k:k + per]
        lines.append(f"{corner:>14}" + "".join(f"{name(s):>{cell}}" for s in block))
        for own in scores:
            lead = np.array(block)
            p = result.chance(np.full(len(lead), own), lead, np.minimum(lead, TYPICAL_THIRD))
            lines.append(f"{name(own):>14}" + "".join(f"{100 * x:>{cell}.1f}" for x in p))
    head = len(lines)
    lines.append(f"validation on {v.games:,} held-out games ({v.observations:,} seat-deals, "
                 f"{v.end_game_observations:,} in an end game: somebody at {END_GAME} or more or on the barrel), "
                 "the table fitted on the others; lower is better, difference [95% interval, clustered by game]:")
    for what, items in (("Brier score", v.brier), ("log-loss", v.log_loss), ("Brier score, end games",
                                                                            v.end_game_brier)):
        for x in items:
            if what == "log-loss" and x.baseline_name == "the leader wins":
                continue  # a certain prediction that fails has an infinite log-loss: no comparison
            lines.append(f"  {what:<24} table {x.table:.4f}  vs {x.baseline_name:<16} {x.baseline:.4f}  "
                         f"{x.diff.value:+.4f} [{x.diff.low:+.4f}, {x.diff.high:+.4f}]")
    lines.append("calibration by deciles of the predicted chance (held-out): predicted -> observed [95%]")
    for d in v.calibration:
        lines.append(f"  {d.decile:>2}  {100 * d.low:5.1f}-{100 * d.high:5.1f}%  n {d.n:>8,}  "
                     f"{100 * d.predicted:5.1f}% -> {100 * d.observed.value:5.1f}% [{100 * d.observed.low:.1f}, "
                     f"{100 * d.observed.high:.1f}]")
    lines.append(f"checks: chances from {c.low:.3f} to {c.high:.3f}; the three seats' chances of a situation sum "
                 f"to 1 within {c.sum_mean_abs:.4f} on average (largest {c.sum_max_abs:.4f}, {c.sum_max_z:.2f} "
                 f"standard errors, over {c.sum_dense:,} situations of {DENSE}+ deals); against the expected "
                 f"direction (own score up, an opponent's down) in {c.monotone_against} of {c.monotone_pairs:,} "
                 f"neighbouring cells of {DENSE}+ observations beyond 2 standard errors (largest wrong-way step "
                 f"{100 * c.worst_against:.1f} points)")
    if result.terms:
        lines.append("terms by your own counters at the start of the deal, each fitted on the fitted games over the "
                     "table and scored on the held-out ones (log-loss with it minus without [95%, clustered by game], "
                     "Holm p); a kept term adjusts the chance (logit) by the count:")
    for t in result.terms:
        what = {"attempts": "barrel attempts used (on the barrel)", "bolts": "bolts toward the penalty",
                "passes": "deals in a row without declaring"}[t.counter]
        levels = ", ".join(f"{k}: {x:+.3f} (n {c:,})" for k, (x, c) in enumerate(zip(t.adjust, t.counts, strict=True)))
        d = t.log_loss.diff
        p = f"p {t.p_holm:.2g}" if t.p_holm > 1e-15 else "p < 1e-15"
        lines.append(f"  {what}: {levels}; {d.value:+.5f} [{d.low:+.5f}, {d.high:+.5f}], {p}: "
                     f"{'kept' if t.kept else 'not kept (no better on held-out games)'}")
    return (lines[:head] + fit(lines[head:], width)
            + paths(width, table=result.table_path, plot=result.plot_path, games=result.run))


def plot_win_chances(result: WinChanceTable, path: Path) -> None:
    """A heat map of the chance of winning by your score (across) and the leading opponent's (up),
    the third player at ``TYPICAL_THIRD`` (or the leader's score if lower), with contours every 10
    points; below it the calibration on held-out games (predicted against observed by decile, 95%
    intervals). Drawn to be read at 900 pixels wide."""
    plt = pyplot()
    grid = result.grid
    s = grid.states
    # Every state: the bins' first scores, then the barrel (shown one bin above the last).
    firsts = [grid.floor + i * grid.width for i in range(grid.bins)]
    scores = np.array(firsts + ([grid.top] if grid.has_barrel else []))
    n = len(scores)
    own, lead = np.meshgrid(scores, scores, indexing="xy")
    third = np.minimum(lead, TYPICAL_THIRD)
    chance = result.chance(own.ravel(), lead.ravel(), third.ravel()).reshape(n, n)
    counts = result.counts
    o_state, l_state = grid.state(own.ravel()), grid.state(lead.ravel())
    t_state = grid.state(third.ravel())
    seen = counts[o_state, l_state, t_state].reshape(n, n)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8.2, 11), gridspec_kw={"height_ratios": [3, 2]})
    image = ax1.imshow(100 * chance, origin="lower", cmap="RdYlGn", vmin=0, vmax=100, aspect="auto",
                       extent=(-0.5, n - 0.5, -0.5, n - 0.5))
    levels = ax1.contour(np.arange(n), np.arange(n), 100 * chance, levels=range(10, 100, 10), colors="black",
                         linewidths=0.6)
    ax1.clabel(levels, fmt="%d%%", fontsize=8)
    # Cells no game reached: the value is the smooth fit's alone; hatched.
    for y, x in zip(*np.nonzero(seen == 0), strict=True):
        ax1.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="///", edgecolor="grey", linewidth=0))
    step = max(1, n // 7)
    ticks = list(range(0, n, step))
    if grid.has_barrel and n - 1 not in ticks:
        ticks.append(n - 1)
    labels = [grid.label(i) for i in range(s)]
    ax1.set_xticks(ticks, [labels[i] for i in ticks])
    ax1.set_yticks(ticks, [labels[i] for i in ticks])
    ax1.set_xlabel(f"your score (bins of {grid.width})")
    ax1.set_ylabel("the leading opponent's score")
    ax1.set_title(f"Chance of winning the game (%), third player at {TYPICAL_THIRD}\n(or at the leader's score "
                  "if lower); hatched: no deal seen there, the smooth fit alone")
    fig.colorbar(image, ax=ax1, label="chance of winning (%)", fraction=0.046, pad=0.03)
    v = result.validation
    pred = [100 * d.predicted for d in v.calibration]
    obs = [100 * d.observed.value for d in v.calibration]
    err = [[100 * max(0.0, d.observed.value - d.observed.low) for d in v.calibration],
           [100 * max(0.0, d.observed.high - d.observed.value) for d in v.calibration]]
    ax2.plot([0, 100], [0, 100], color="grey", linewidth=0.8, label="perfect calibration")
    ax2.errorbar(pred, obs, yerr=err, fmt="o", capsize=3, label="held-out deciles (95% intervals)")
    top = max(pred + obs) * 1.1 + 2
    ax2.set_xlim(0, top)
    ax2.set_ylim(0, top)
    ax2.set_xlabel("predicted chance of winning (%)")
    ax2.set_ylabel("observed share won (%)")
    brier = {x.baseline_name: x for x in v.brier}
    third_share = brier.get("1/3 each")
    title = f"Calibration on {v.games:,} held-out games"
    if third_share is not None:
        title += f": Brier {third_share.table:.4f} against {third_share.baseline:.4f} for 1/3 each"
    ax2.set_title(title)
    ax2.grid(alpha=0.3)
    ax2.legend(loc="upper left")
    players = result.players[0] if len(set(result.players)) == 1 else ", ".join(result.players)
    fig.suptitle(f"Win chances: {result.finished:,} games of {players} players, seed {result.seed}")
    save(fig, path)
