"""The plots of the analyses' results, and what every plot shares: the Agg backend (no screen), one
style and an atomic save, so that a plot file is never half written. Each ``plot_*`` function takes
a result object and the path of the PNG to write; it reads nothing else."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from analysis.barrel import BarrelStats
    from analysis.bids.results import BidTable
    from analysis.compare import Comparison
    from analysis.marriages.odds import MarriageOdds
    from analysis.marriages.worth import MarriageWorth
    from analysis.strategy import StrategyReport
    from analysis.tournament import TournamentResult
    from analysis.win_chances import WinChanceTable

__all__ = [
    "STYLE",
    "pyplot",
    "save",
    "plot_comparison",
    "plot_barrel",
    "plot_tournament",
    "plot_bid_make_rates",
    "plot_bid_methods",
    "plot_marriage_odds",
    "plot_marriage_worth",
    "METHOD_STYLE",
    "plot_strategy",
    "PIMC_POINTS_MIN_N",
    "plot_win_chances",
]

# One style for every plot of the tool (the report shows them side by side): text large enough to
# read when a wide figure is shown about 1,000 pixels wide, light grids, no top and right frame.
STYLE = {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "legend.fontsize": 9,
         "xtick.labelsize": 10, "ytick.labelsize": 10, "figure.titlesize": 13, "axes.spines.top": False,
         "axes.spines.right": False, "grid.alpha": 0.3}


def pyplot() -> ModuleType:
    """matplotlib.pyplot on the Agg backend, with the tool's STYLE."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save(fig: Figure, path: Path, *, tight: bool = True) -> None:
    """Save ``fig`` as PNG to ``path`` through a temporary name, then close it. A plot already
    stored with these very bytes is left as it is: a current result is read, not rewritten (a
    read-only mount will do)."""
    import io

    plt = pyplot()
    if tight:
        fig.tight_layout()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(fig)
    data = buffer.getvalue()
    try:
        if Path(path).read_bytes() == data:
            return
    except OSError:
        pass  # none stored yet (or unreadable): written
    tmp = Path(path).with_name(f".{Path(path).name}.tmp.png")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


# --- compare ---
def plot_comparison(result: Comparison, path: Path) -> None:
    """The game length of every rule set (histograms) above every difference to the first rule set
    in % of its value, with its 95% interval (red when significant after Holm)."""
    import numpy as np

    from analysis.analysis_dir import short_label
    from analysis.present.text import players_text

    plt = pyplot()

    rows = result.rows
    shown = [r for r in rows if r.first and r.first == r.first and r.ci_low == r.ci_low]
    # Game length above, the differences below with a line of room for each.
    height = 0.24 * len(shown) + 1.5
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(12, 4.5 + height), gridspec_kw={"height_ratios": [4.5, height]},
                                   layout="constrained")
    for label in result.rule_sets:
        lengths = np.asarray(result.game_lengths[label])
        ax1.hist(lengths, bins=40, histtype="step", linewidth=1.5,
                 label=f"{short_label(label)} (mean {lengths.mean():.1f})")
    ax1.set_xlabel("game length (deals)")
    ax1.set_ylabel("games")
    ax1.set_title("Game length by rule set")
    ax1.legend()
    y = np.arange(len(shown))
    rel = [100 * r.diff / abs(r.first) for r in shown]
    lo = [100 * (r.diff - r.ci_low) / abs(r.first) for r in shown]
    hi = [100 * (r.ci_high - r.diff) / abs(r.first) for r in shown]
    for yi, x, a, b, r in zip(y, rel, lo, hi, shown, strict=True):
        ax2.errorbar([x], [yi], xerr=[[max(0.0, a)], [max(0.0, b)]], fmt="o", capsize=3,
                     color="C3" if r.significant else "C0")
    ax2.axvline(0, color="grey", linewidth=0.8)
    ax2.set_yticks(y, [f"{r.metric} ({short_label(r.rules)})" for r in shown], fontsize=9)
    ax2.set_ylim(len(shown) - 0.5, -0.5)
    ax2.set_xlabel(f"difference to {result.rule_sets[0]}, % of its value (95% interval; red: significant after Holm)")
    ax2.set_title("Differences")
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Rule sets on common random numbers: {result.games:,} games each, seed {result.seed}, "
                 f"{players_text(result.players)}")
    save(fig, path, tight=False)


# --- barrel ---
def plot_barrel(result: BarrelStats, path: Path) -> None:
    """How barrel episodes end (a group of bars a fate), leaving the barrel upward by attempt, and
    the chance of winning the game from a score, one colour a rule set, with 95% intervals."""
    import numpy as np

    from analysis.analysis_dir import short_label
    from analysis.barrel import FATES, MAX_ATTEMPT_SHOWN, SCORE_STEP
    from analysis.present.text import players_text

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
        ps = [s.fates[f].p for f in shown]
        err = [[max(0.0, p - s.fates[f].ci_low) for f, p in zip(shown, ps, strict=True)],
               [max(0.0, s.fates[f].ci_high - p) for f, p in zip(shown, ps, strict=True)]]
        ax1.bar(x + i * width, ps, width, yerr=err, capsize=3,
                label=f"{short_label(label)} ({s.episodes:,} episodes)")
        attempts = range(1, last_attempt + 1)
        # Of the episodes that reached each attempt: the chance that attempt gives.
        ups = [s.up_once_reached[a].p for a in attempts]
        err2 = [[max(0.0, p - s.up_once_reached[a].ci_low) for a, p in zip(attempts, ups, strict=True)],
                [max(0.0, s.up_once_reached[a].ci_high - p) for a, p in zip(attempts, ups, strict=True)]]
        ax2.errorbar(list(attempts), ups, yerr=err2, marker="o", capsize=3, label=short_label(label))
        curve = [(c, v) for c, v in s.win_from_score.items() if v.n >= 30]
        xs = [c + SCORE_STEP / 2 for c, _ in curve]
        ax3.plot(xs, [v.p for _, v in curve], marker=".", label=short_label(label))
        ax3.fill_between(xs, [v.ci_low for _, v in curve], [v.ci_high for _, v in curve], alpha=0.2)
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
    field = ", ".join(short_label(x, 20) for x in result.labels)
    fig.suptitle(f"Tournament of {field}: {result.size:,} {result.mode} × {len(result.seatings)} seatings (duplicate), "
                 f"seed {result.seed}; 95% intervals")
    save(fig, path)


# --- tables bids ---

# Each declarer's label, colour and line in the plots of the bid table.
METHOD_STYLE = {"learned": ("learned player, all seats", "C0", "-"), "pimc": ("pimc, all seats (check)", "black", ""),
                "heuristic": ("heuristic player, all seats", "C2", "-."),
                "dd": ("double dummy (sees every card)", "C3", "--")}
# Deals of a class pimc must have played for its check points to be drawn.
PIMC_POINTS_MIN_N = 20


def plot_bid_make_rates(result: BidTable, path: Path) -> None:
    """Make-rate against the contract, one panel per marriage class (by suit), one colour per
    number of aces: the learned player (every seat; each contract played as that contract) with its
    95% band, and pimc's check points (every 20 points, with their 95% intervals) where pimc played
    at least PIMC_POINTS_MIN_N deals of the class; classes of at least ``result.min_n`` deals,
    contracts up to PLOT_MAX_LEVEL. Drawn 900 pixels wide, to be read on a phone."""
    from analysis.bids.classes import ACE_CLASSES, MARRIAGE_CLASSES, PLOT_MAX_LEVEL

    plt = pyplot()
    min_n = result.min_n
    fig, axes = plt.subplots(3, 2, figsize=(8.2, 10.5), sharex=True, sharey=True)
    for ax, mclass in zip(axes.flat, MARRIAGE_CLASSES, strict=True):
        shown = 0
        for i, aces in enumerate(ACE_CLASSES):
            c = result.curve(f"{mclass}, {aces}")
            if c is None or c.n < min_n:
                continue
            shown += 1
            rates = [r for r in c.learned if r.contract <= PLOT_MAX_LEVEL]
            x = [r.contract for r in rates]
            ax.plot(x, [r.p for r in rates], color=f"C{i}", label=f"{aces} ({c.n:,})")
            ax.fill_between(x, [r.ci_low for r in rates], [r.ci_high for r in rates], color=f"C{i}", alpha=0.15)
            if c.n_pimc >= PIMC_POINTS_MIN_N:
                pts = [r for r in c.pimc if r.contract <= PLOT_MAX_LEVEL and (r.contract - x[0]) % 20 == 0]
                err = [[max(0.0, r.p - r.ci_low) for r in pts], [max(0.0, r.ci_high - r.p) for r in pts]]
                ax.errorbar([r.contract + 1.5 for r in pts], [r.p for r in pts], yerr=err, fmt="o",
                            color=f"C{i}", markerfacecolor="white", markersize=4, linewidth=0.8, capsize=2)
        ax.set_title(mclass)
        if not shown:
            ax.text(0.5, 0.5, f"fewer than {min_n} deals\nin every class of aces", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
        ax.grid(alpha=0.3)
        for level in (0.7, 0.5):
            ax.axhline(level, color="grey", linewidth=0.7, linestyle=":")
        if shown:
            ax.legend(fontsize=8, title="aces (deals)", title_fontsize=8, loc="upper right")
    for ax in axes[-1]:
        ax.set_xlabel("contract (points)")
    for ax in axes[:, 0]:
        ax.set_ylabel("chance of making it")
    fig.suptitle(f"Make-rate by hand (learned player, all seats; {result.deals:,} deals)\nbands: 95%; open "
                 "circles: pimc's check on the same deals; dotted: 70% and 50%")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(fig, path)


def plot_bid_methods(result: BidTable, path: Path) -> None:
    """The learned player's make-rate checked against pimc on the deals pimc played, hands without
    a marriage and hands with one in two panels, one above the other: learned with its 95% band,
    pimc as points with their 95% intervals, the heuristic player and double dummy as thin lines.
    A table of which pimc played no deal has no such plot (ValueError)."""
    from analysis.bids.results import METHOD_GROUPS

    if not result.method_rates:
        raise ValueError("pimc played no deal of this bid table: there is no comparison to plot")
    plt = pyplot()
    fig, axes = plt.subplots(2, 1, figsize=(8.2, 8.5), sharex=True, sharey=True)
    total = 0
    for ax, group in zip(axes, METHOD_GROUPS, strict=True):
        rates = [r for r in result.method_rates if r.group == group]
        n = rates[0].n
        total += n
        for m in ("heuristic", "dd", "learned"):
            label, colour, style = METHOD_STYLE[m]
            curve = [r for r in rates if r.method == m]
            levels = [r.contract for r in curve]
            ax.plot(levels, [r.p for r in curve], color=colour, linestyle=style, label=label,
                    linewidth=2 if m == "learned" else 1)
            if m == "learned":
                ax.fill_between(levels, [r.ci_low for r in curve], [r.ci_high for r in curve], color=colour,
                                alpha=0.15)
        pimc = [r for r in rates if r.method == "pimc" and (r.contract - rates[0].contract) % 10 == 0]
        ax.errorbar([r.contract for r in pimc], [r.p for r in pimc],
                    yerr=[[max(0.0, r.p - r.ci_low) for r in pimc], [max(0.0, r.ci_high - r.p) for r in pimc]], fmt="o",
                    color=METHOD_STYLE["pimc"][1], markersize=4, capsize=2, linewidth=0.8,
                    label=METHOD_STYLE["pimc"][0])
        ax.set_title(f"{group} ({n:,} deals)")
        ax.set_ylabel("chance of making it")
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("contract (points)")
    axes[0].legend(fontsize=9)
    fig.suptitle(f"The learned player checked against pimc on the same {total:,} deals\n(make-rate with 95% "
                 "intervals)")
    save(fig, path)


# --- tables marriages ---

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
    check = result.check
    verdict = "agree" if check.consistent else "disagree"
    fig.suptitle(f"Marriage odds: exact against {result.deals:,} random deals (seed {result.seed}; dealt, not played)"
                 f"\nexact-odds check: the counts {verdict} with the exact chances (chi-square of "
                 f"{len(check.rows)} distributions, Holm-corrected p = {check.p:.2g})")
    save(fig, path)


def plot_marriage_worth(result: MarriageWorth, path: Path) -> None:
    """Per suit, the declarer's points playing 120 gained by holding its marriage among his 10
    cards: the table's player over all hands and within hands of as many aces, and double dummy
    over all hands; 95% intervals. A result without a suit has no such plot (ValueError)."""
    import numpy as np

    from sim.game.cards import SUIT_SYMBOLS

    rows = result.rows
    if not rows:
        raise ValueError("no suit to plot: every deal of the bid table holds the marriage, or none does")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    x = np.arange(len(rows))
    series = [("learned_gain", f"{result.player} player", "C0"),
              ("learned_gain_same_aces", f"{result.player} player, hands of as many aces", "C1"),
              ("dd_gain", "double dummy (every card seen)", "C3")]
    width = 0.8 / len(series)
    for i, (key, label, colour) in enumerate(series):
        gains = [getattr(r, key) for r in rows]
        vals = [g[0] for g in gains]
        err = [[max(0.0, g[0] - g[1]) for g in gains], [max(0.0, g[2] - g[0]) for g in gains]]
        ax.bar(x + (i - 1) * width, vals, width, yerr=err, capsize=4, color=colour, alpha=0.8, label=label)
    symbols = list(SUIT_SYMBOLS)
    ax.set_xticks(x, [f"{r.suit} marriage ({result.rules.marriage_values[symbols.index(r.suit)]})" for r in rows])
    ax.set_ylabel("declarer's points gained playing 120 (points)")
    n = rows[0].n_with + rows[0].n_without
    ax.set_title(f"What holding a marriage adds to the declarer's points\n(the bid table's {n:,} deals; 95% intervals)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, path)


# --- strategy ---
def plot_strategy(result: StrategyReport, path: Path) -> None:
    """Three panels of the strategy sections, with 95% intervals clustered by game: the
    declarer's choice after the talon (raise, keep, concede) by what the talon brought, the
    make-rate by the marriages he keeps, and the score change a deal by seat."""
    import numpy as np

    plt = pyplot()
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 5.2), gridspec_kw={"width_ratios": [1.5, 1, 1]})
    r = result.raising
    groups = {"all contracts": r.choice} | {f"talon {k.replace(' (no marriage)', '')}": v for k, v in r.talon.items()}
    names = list(groups)
    y = np.arange(len(names))[::-1]
    left = np.zeros(len(names))
    for choice, colour in zip(r.choice, ("tab:green", "tab:grey", "tab:red"), strict=True):
        vals = np.array([groups[n][choice].value for n in names])
        ax1.barh(y, vals, left=left, color=colour, label=choice)
        for yi, lo, v in zip(y, left, vals, strict=True):
            if v >= 0.06:
                ax1.text(lo + v / 2, yi, f"{100 * v:.0f}%", ha="center", va="center", fontsize=9, color="white")
        left += vals
    ax1.set_yticks(y, [n.replace("talon ", "talon:\n") for n in names])
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("share of the declarer's contracts")
    ax1.set_title("After the talon: raise, keep or concede")
    ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=9, frameon=False)
    held = result.defence.by_held
    labels = list(held)
    made = [held[k]["made"] for k in labels]
    ax2.bar(range(len(labels)), [m.value for m in made], color="tab:blue",
            yerr=[[max(0.0, m.value - m.low) for m in made], [max(0.0, m.high - m.value) for m in made]], capsize=4)
    ax2.set_xticks(range(len(labels)), labels)
    ax2.set_ylim(0, 1)
    ax2.set_xlabel("marriages the declarer keeps (of his 8 cards)")
    ax2.set_ylabel("contracts made (played, not conceded)")
    ax2.set_title("Make-rate by marriages kept")
    seats = result.seats.by_position
    ch = [seats[k]["change per deal"] for k in seats]
    ax3.bar(range(len(ch)), [c.value for c in ch], color="tab:purple",
            yerr=[[c.value - c.low for c in ch], [c.high - c.value for c in ch]], capsize=4)
    ax3.axhline(0, color="black", linewidth=0.8)
    ax3.set_xticks(range(len(ch)), [k.replace(" (dealer)", "\n(dealer)") for k in seats])
    ax3.set_ylabel("score change a deal (points)")
    ax3.set_title("Score change by seat")
    for ax in (ax2, ax3):
        ax.grid(axis="y", alpha=0.3)
    players = ", ".join(dict.fromkeys(result.players))
    fig.suptitle(f"Strategy in play: {result.games:,} games of {players} at every seat, rules {result.rules_name}, "
                 f"seed {result.seed}")
    save(fig, path)


# --- win chances ---
def plot_win_chances(result: WinChanceTable, path: Path) -> None:
    """A heat map of the chance of winning by your score (across) and the leading opponent's (up),
    the third player at ``TYPICAL_THIRD`` (or the leader's score if lower), with contours every 10
    points; below it the calibration on held-out games (predicted against observed by decile, 95%
    intervals). Drawn to be read at 900 pixels wide."""
    import numpy as np

    from analysis.win_chances import TYPICAL_THIRD

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
    from matplotlib.patches import Rectangle

    for y, x in zip(*np.nonzero(seen == 0), strict=True):
        ax1.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="///", edgecolor="grey", linewidth=0))
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
    obs = [100 * d.observed for d in v.calibration]
    err = [[100 * max(0.0, d.observed - d.ci_low) for d in v.calibration],
           [100 * max(0.0, d.ci_high - d.observed) for d in v.calibration]]
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
