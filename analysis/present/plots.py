"""The plots of the analyses' results, and what every plot shares: the Agg backend (no screen), one
style and an atomic save, so that a plot file is never half written. Each ``plot_*`` function takes
a result object and the path of the PNG to write; it reads nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["STYLE", "pyplot", "save"]

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


# --- tables bids ---
if TYPE_CHECKING:
    from analysis.tables import BidTable

# Each declarer's label, colour and line in the plot of the declarers compared.
METHOD_STYLE = {"dd": ("double dummy (sees every card)", "C3", "--"), "pimc": ("pimc (realistic)", "C0", "-"),
                "heuristic": ("heuristic player", "C2", "-.")}


def plot_bid_make_rates(result: BidTable, path: Path) -> None:
    """Make-rate against the contract, one panel per marriage class, one colour per number of
    aces: heuristic play solid with its 95% band, double dummy dashed; the classes of at least
    ``result.min_n`` deals, contracts up to PLOT_MAX_LEVEL."""
    from analysis.tables import ACE_CLASSES, MARRIAGE_CLASSES, PLOT_MAX_LEVEL

    plt = pyplot()
    min_n = result.min_n
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), sharex=True, sharey=True)
    for ax, mclass in zip(axes.flat, MARRIAGE_CLASSES, strict=True):
        shown = 0
        for i, aces in enumerate(ACE_CLASSES):
            c = result.curve(f"{mclass}, aces {aces}")
            if c is None or c.n < min_n:
                continue
            shown += 1
            heur, dd = ([r for r in c.rates(m) if r.contract <= PLOT_MAX_LEVEL] for m in ("heuristic", "dd"))
            x = [r.contract for r in heur]
            ax.plot(x, [r.p for r in heur], color=f"C{i}", label=f"{aces} aces (n={c.n:,})")
            ax.fill_between(x, [r.ci_low for r in heur], [r.ci_high for r in heur], color=f"C{i}", alpha=0.15)
            ax.plot(x, [r.p for r in dd], color=f"C{i}", linestyle="--", linewidth=1)
        ax.set_title(mclass)
        if not shown:
            ax.text(0.5, 0.5, f"fewer than {min_n} deals\nin every class of aces", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
        ax.grid(alpha=0.3)
        ax.axhline(0.7, color="grey", linewidth=0.7, linestyle=":")
        ax.axhline(0.5, color="grey", linewidth=0.7, linestyle=":")
        if shown:
            ax.legend(fontsize=8, title="aces in the 7 cards", title_fontsize=8)
    for ax in axes[1]:
        ax.set_xlabel("contract (points)")
    for ax in axes[:, 0]:
        ax.set_ylabel("chance of making it")
    fig.suptitle(f"Make-rate by hand class ({result.deals:,} deals, seed {result.seed})\nheuristic play "
                 "solid with its 95% band, double dummy dashed; dotted lines at 70% and 50%")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(fig, path)


def plot_bid_methods(result: BidTable, path: Path) -> None:
    """Make-rate against the contract for the three declarers on the deals pimc played, hands
    without a marriage and hands with one in two panels, each curve with its 95% band. A table of
    which pimc played no deal has no such plot (ValueError)."""
    from analysis.tables import METHOD_GROUPS, METHODS

    if not result.method_rates:
        raise ValueError("pimc played no deal of this bid table: there is no comparison to plot")
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
    total = 0
    for ax, group in zip(axes, METHOD_GROUPS, strict=True):
        rates = [r for r in result.method_rates if r.group == group]
        n = rates[0].n
        total += n
        for m in METHODS:
            label, colour, style = METHOD_STYLE[m]
            curve = [r for r in rates if r.method == m]
            levels = [r.contract for r in curve]
            ax.plot(levels, [r.p for r in curve], color=colour, linestyle=style, label=label)
            ax.fill_between(levels, [r.ci_low for r in curve], [r.ci_high for r in curve], color=colour, alpha=0.15)
        ax.set_title(f"{group} ({n:,} deals)")
        ax.set_xlabel("contract (points)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("chance of making it")
    axes[0].legend()
    fig.suptitle(f"The same {total:,} deals declared by three players: make-rate with 95% bands "
                 f"(seed {result.seed})")
    save(fig, path)

