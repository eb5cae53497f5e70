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


# --- tables marriages ---
if TYPE_CHECKING:
    from analysis.marriages import MarriageOdds, MarriageWorth


def plot_marriage_odds(result: MarriageOdds, path: Path) -> None:
    """Three panels of exact chances (bars) against the random deals (points with their 95%
    intervals): marriages held in the 7 cards, in the declarer's 10, and what the talon brings."""
    import numpy as np

    plt = pyplot()
    by = {r.quantity: r for r in result.rows}
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.8))
    panels = [("Marriages held", [f"hand: marriages = {m}" for m in range(4)], [f"{m}" for m in range(4)],
               "marriages in the 7-card hand"),
              ("Marriages held after the talon", [f"10 cards: marriages = {m}" for m in range(5)],
               [f"{m}" for m in range(5)], "marriages in the declarer's 10 cards"),
              ("What the talon brings", ["talon: completes one of 1 half marriages",
                                         "talon: completes one of 2 half marriages",
                                         "talon: completes one of 3 half marriages",
                                         "talon: brings a whole marriage, 2 suits unheld",
                                         "talon: brings an ace, 2 not held"],
               ["1 half\ncompleted", "1 of 2\nhalves", "1 of 3\nhalves", "whole new\n(2 suits)", "an ace\n(2 out)"],
               "given what the 7-card hand holds")]
    for ax, (title, names, labels, xlabel) in zip(axes, panels, strict=True):
        names = [n for n in names if n in by]
        x = np.arange(len(names))
        ax.bar(x, [by[n].p for n in names], color="C0", alpha=0.6, label="exact")
        sims = [by[n].simulated for n in names]
        err = [[max(0.0, s - by[n].ci_low) for n, s in zip(names, sims, strict=True)],
               [max(0.0, by[n].ci_high - s) for n, s in zip(names, sims, strict=True)]]
        ax.errorbar(x, sims, yerr=err, fmt="o", color="C3", capsize=4, label="simulated, 95% interval")
        ax.set_xticks(x, labels[:len(names)])
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Marriage odds: exact against {result.deals:,} random deals (seed {result.seed})")
    save(fig, path)


def plot_marriage_worth(result: MarriageWorth, path: Path) -> None:
    """Per suit, the declarer's points gained by holding its marriage among his 10 cards: dd and
    heuristic play over all hands, and dd within hands of as many aces; 95% intervals. A result
    without a suit has no such plot (ValueError)."""
    import numpy as np

    from sim.game.cards import SUIT_SYMBOLS

    rows = result.rows
    if not rows:
        raise ValueError("no suit to plot: every deal of the bid table holds the marriage, or none does")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    x = np.arange(len(rows))
    series = [("dd_gain", "double dummy", "C3"), ("dd_gain_same_aces", "double dummy, hands of as many aces", "C1"),
              ("heur_gain", "heuristic play", "C2")]
    width = 0.8 / len(series)
    for i, (key, label, colour) in enumerate(series):
        gains = [getattr(r, key) for r in rows]
        vals = [g[0] for g in gains]
        err = [[max(0.0, g[0] - g[1]) for g in gains], [max(0.0, g[2] - g[0]) for g in gains]]
        ax.bar(x + (i - 1) * width, vals, width, yerr=err, capsize=4, color=colour, alpha=0.8, label=label)
    symbols = list(SUIT_SYMBOLS)
    ax.set_xticks(x, [f"{r.suit} marriage ({result.rules.marriage_values[symbols.index(r.suit)]})" for r in rows])
    ax.set_ylabel("declarer's points gained (points)")
    n = rows[0].n_with + rows[0].n_without
    ax.set_title(f"What holding a marriage adds to the declarer's points\n(the bid table's {n:,} deals; 95% intervals)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, path)
