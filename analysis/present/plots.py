"""The plots of the analyses' results, and what every plot shares: the Agg backend (no screen), one
style and an atomic save, so that a plot file is never half written. Each ``plot_*`` function takes
a result object and the path of the PNG to write; it reads nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.tournament import TournamentResult

__all__ = ["STYLE", "pyplot", "save", "plot_tournament"]

# One style for every plot of the tool (the report shows them side by side): text large enough to
# read when a wide figure is shown about 1,000 pixels wide, light grids, no top and right frame.
STYLE = {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "legend.fontsize": 9,
         "xtick.labelsize": 10, "ytick.labelsize": 10, "figure.titlesize": 13, "axes.spines.top": False,
         "axes.spines.right": False, "grid.alpha": 0.3}


def pyplot():
    """matplotlib.pyplot on the Agg backend, with the tool's STYLE."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save(fig, path: Path, *, tight: bool = True) -> None:
    """Save ``fig`` as PNG to ``path`` through a temporary name, then close it."""
    plt = pyplot()
    if tight:
        fig.tight_layout()
    tmp = Path(path).with_name(f".{Path(path).name}.tmp.png")
    try:
        fig.savefig(tmp, dpi=110)
        tmp.replace(path)
    finally:
        plt.close(fig)
        tmp.unlink(missing_ok=True)


# --- tournament ---
def plot_tournament(result: TournamentResult, path: Path) -> None:
    """Panels, players ranked top to bottom, each value with its 95% interval: duplicate win share
    (whole games), score per deal and make-rate of the contracts played."""
    import numpy as np

    from analysis.analysis_dir import short_label

    plt = pyplot()
    rows = result.players
    panels = [("score_per_deal", "score_per_deal_ci_low", "score_per_deal_ci_high",
               "score per deal (points)" if result.mode == "games" else "points per deal"),
              ("make_rate", "make_rate_ci_low", "make_rate_ci_high", "contracts made (share of played)")]
    if result.mode == "games":
        panels.insert(0, ("win_share", "win_ci_low", "win_ci_high", "share of games won"))
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 1.6 + 0.55 * len(rows)), sharey=True)
    y = np.arange(len(rows))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, lo, hi, label) in zip(axes, panels, strict=True):
        for yi, r in zip(y, rows, strict=True):
            x, low, high = getattr(r, key), getattr(r, lo), getattr(r, hi)
            if x is None:  # nothing observed: no point
                continue
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
    fig.suptitle(f"Tournament: {result.size:,} {result.mode} × {len(result.seatings)} seatings (duplicate), seed "
                 f"{result.seed}; 95% intervals")
    save(fig, path)
