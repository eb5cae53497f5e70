"""The marriage odds (``analysis.marriages.odds.MarriageOdds``, with ``MarriagePlay`` and
``MarriageWorth``) as a user sees them: the lines ``thousand tables marriages`` prints, the
report's section on marriages and the two plots (the odds, and what a marriage is worth)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.marriages.in_play import FATES
from analysis.present.figure import pyplot, save
from analysis.present.format import markdown_figures, markdown_table, num, pct, players_text
from analysis.present.layout import DEFAULT_WIDTH, Column, fit, paths, table
from sim.game.cards import SUIT_SYMBOLS

if TYPE_CHECKING:
    from analysis.marriages.in_play import MarriagePlay
    from analysis.marriages.odds import MarriageOdds
    from analysis.marriages.worth import MarriageWorth, WorthRow
    from analysis.stats import Estimate

__all__ = ["marriage_odds_lines", "odds_check_lines", "marriage_play_lines", "marriage_worth_lines",
           "worth_contracts_text", "marriages_section", "plot_marriage_odds", "plot_marriage_worth"]


def marriage_odds_lines(result: MarriageOdds, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tables marriages`` prints: every quantity, exact and simulated (random deals,
    dealt and not played), the exact-odds check of all rows together, then the marriages in play and
    the worth of a marriage when asked for, and the stored table's and plot's paths. At ``width``
    the tables keep the columns that fit and the prose is wrapped; with ``width`` None every column,
    no line wrapped."""
    rows = result.rows
    lines = fit([f"marriage odds: exact, and measured in {result.deals:,} random deals (seed {result.seed}; dealt, "
                 "not played: no player is involved); values "
                 + " ".join(f"{SUIT_SYMBOLS[s]}{result.rules.marriage_values[s]}" for s in range(4))], width)
    if width is None:
        lines.append(f"{'quantity':<52}{'exact':>16}{'p':>9}   {'simulated [95%]':<26}{'n':>10}")
        for r in rows:
            frac = f"{r.exact.numerator}/{r.exact.denominator}"
            sim = f"{r.simulated.value:.4f} [{r.simulated.low:.4f}, {r.simulated.high:.4f}]" if r.n else ""
            flag = "" if r.inside or not r.n else "  outside"
            lines.append(f"{r.quantity:<52}{frac:>16}{r.p:>9.4f}   {sim:<26}{r.n:>10,}{flag}")
    else:
        columns = (Column("quantity", "<"), Column("exact", keep=1), Column("p"),
                   Column("simulated [95%]", "<", keep=3), Column("n", keep=2), Column("", "<", keep=3))
        cells = [[r.quantity, f"{r.exact.numerator}/{r.exact.denominator}", f"{r.p:.4f}",
                  f"{r.simulated.value:.4f} [{r.simulated.low:.4f}, {r.simulated.high:.4f}]" if r.n else "",
                  f"{r.n:,}", "" if r.inside or not r.n else "*"] for r in rows]
        shown, dropped = table(columns, cells, width, indent="", label=40)
        lines += shown + fit(["* : the exact value lies outside the row's 95% interval"]
                             + ([f"(--wide adds the columns {', '.join(dropped)})"] if dropped else []), width)
    lines += odds_check_lines(result, width)
    for play in result.play:
        lines += ([f"-- rules {play.label}"] if len(result.play) > 1 else []) + marriage_play_lines(play, width)
    if result.worth is not None:
        lines += marriage_worth_lines(result.worth, width)
    if result.table_file is not None:
        lines += paths(width, table=result.table_file, plot=result.plot_file)
    return lines


def odds_check_lines(result: MarriageOdds, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """The exact-odds check of a marriage table: its verdict and p-value first, then each
    distribution's chi-square, and the rows left out of it (duplicates) with why."""
    check = result.check
    tested = sum(len(q) for r in check.rows for q in r.quantities)
    verdict = ("the simulated counts agree with the exact chances" if check.consistent
               else f"the simulated counts DISAGREE with the exact chances (worst: {check.worst})")
    lines = fit([f"exact-odds check: {verdict}: family p = {check.p:.3g} (the smallest Holm-corrected p, level "
                 f"{check.level:.0%}); Pearson's chi-square of each of {len(check.rows)} distributions ({tested} "
                 "distinct quantities, cells expecting under 5 deals pooled) against its exact chances"], width)
    if width is None:
        lines.append(f"  {'distribution':<52}{'deals':>10}{'df':>5}{'chi-square':>12}{'p':>9}{'p (Holm)':>10}")
        for r in check.rows:
            lines.append(f"  {r.distribution:<52}{r.n:>10,}{r.df:>5}{r.statistic:>12.2f}{r.p:>9.3g}"
                         f"{r.p_holm:>10.3g}")
    else:
        columns = (Column("distribution", "<"), Column("deals", keep=1), Column("df", keep=2),
                   Column("chi-square", keep=3), Column("p", keep=4), Column("p (Holm)"))
        lines += table(columns, [[r.distribution, f"{r.n:,}", str(r.df), f"{r.statistic:.2f}", f"{r.p:.3g}",
                                  f"{r.p_holm:.3g}"] for r in check.rows], width)[0]
    lines += fit(["  left out of the check (each the same event as a quantity tested, its complement or a sum of "
                  "them):"] + [f"    {q}: {why}" for q, why in check.dropped]
                 + [f"  per row (information only: the rows share their deals): {result.inside} of {len(result.rows)} "
                    "exact values lie inside the row's own 95% interval"], width)
    return lines


def marriage_play_lines(result: MarriagePlay, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """The marriages in play of one run: the marriage points each role scores, then what became of
    the marriages held, by role and suit (at ``width`` each role and suit a line, its fates wrapped
    below it; with ``width`` None one row each of a table)."""
    lines = fit([f"marriages in play: {result.deals:,} deals played by the {players_text(result.players)} (seed "
                 f"{result.seed}); of the marriages (K and Q of a suit) each role held in the cards it played with, "
                 "the share of each fate [95%]"], width)
    for m in result.points:
        shares = ", ".join(f"{v}: {q:.1%}" for v, q in m.distribution if q >= 0.001)
        lines += fit([f"  marriage points a {m.role} scores per played deal: {m.mean.value:.2f} "
                      f"[{m.mean.low:.2f}, {m.mean.high:.2f}] over {m.mean.n:,} seat-deals",
                      f"    distribution (points: share of seat-deals): {shares}"], width)

    def tail(r) -> str:
        given = r.given_away
        return (f"{given.value:.3f} [{given.low:.3f}, {given.high:.3f}]" if given and not math.isnan(given.value)
                else "")

    if width is None:
        head = f"{'role':<16}{'suit':<5}{'held':>8}  " + "".join(f"{f:<26}" for f in FATES)
        lines.append(head + "given away (of 10 cards)")
        for r in result.rows:
            cells = "".join(f"{r.fate(f).value:.3f} [{r.fate(f).low:.3f}, {r.fate(f).high:.3f}]".ljust(26) if r.held
                            else "-".ljust(26) for f in FATES)
            lines.append(f"{r.role:<16}{r.suit:<5}{r.held:>8,}  {cells}{tail(r)}")
        return lines
    for r in result.rows:
        fates = "; ".join(f"{f} {r.fate(f).value:.3f} [{r.fate(f).low:.3f}, {r.fate(f).high:.3f}]" if r.held
                          else f"{f} -" for f in FATES)
        given = tail(r)
        lines += fit([f"{r.role} {r.suit}: held {r.held:,}", f"    {fates}"
                      + (f"; given away (of 10 cards) {given}" if given else "")], width)
    return lines


def marriage_worth_lines(result: MarriageWorth, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What each suit's marriage is worth in a bid table: points gained playing 120 (the table's
    player, the same within hands of as many aces, double dummy), the make-rate of 120 and the
    contract made ``1 - risk`` of the time."""
    def gain(g: Estimate) -> str:
        return f"{g.value:+6.1f} [{g.low:+.1f}, {g.high:+.1f}]"

    lines = fit([f"what a marriage is worth (bid table {result.bids}): the declarer's points playing 120 with "
                 f"and without the suit's marriage among his 10 cards, played by the "
                 f"{players_text((result.player,) * 3)} (dd: double dummy), [95% interval]"], width)
    made = f"contract made {1 - result.risk:.0%} of the time"
    if width is None:
        lines.append(f"{'suit':<5}{'deals with / without':>22}  {'points gained':<24}{'same aces: gained':<24}"
                     f"{'dd points gained':<24}{'makes 120: with / without':<28}{made}")
        for r in result.rows:
            makes = f"{r.learned120_with.value:.3f} / {r.learned120_without.value:.3f}"
            lines.append(f"{r.suit:<5}{r.n_with:>10,} / {r.n_without:<9,}  {gain(r.learned_gain):<24}"
                         f"{gain(r.learned_gain_same_aces):<24}{gain(r.dd_gain):<24}{makes:<28}"
                         f"{worth_contracts_text(r)}")
        return lines
    for r in result.rows:
        makes = f"{r.learned120_with.value:.3f} / {r.learned120_without.value:.3f}"
        lines += fit([f"{r.suit}  deals with / without {r.n_with:,} / {r.n_without:,}; points gained "
                      f"{gain(r.learned_gain).strip()}; same aces: gained {gain(r.learned_gain_same_aces).strip()}; dd "
                      f"points gained {gain(r.dd_gain).strip()}; makes 120: with / without {makes}; {made}: "
                      f"{worth_contracts_text(r)}"], width)
    return lines


def worth_contracts_text(r: WorthRow) -> str:
    """A worth row's contracts made ``1 - risk`` of the time with and without the marriage, and
    their difference: "135 / none" ("none": not even the lowest contract), "120 / 100 (+20)"."""
    def name(c: int | None) -> str:
        return "none" if c is None else str(c)

    gain = f" ({r.contract_gain:+d})" if r.contract_gain is not None else ""
    return f"{name(r.contract_with)} / {name(r.contract_without)}{gain}"


# Exact marriage odds the report shows, in order.
_MARRIAGE_QUANTITIES = [
    "hand: at least one marriage", "hand: marriages = 0", "hand: marriages = 1", "hand: marriages = 2",
    "hand: ♥ marriage", "10 cards: at least one marriage", "talon: completes one of 1 half marriages",
    "talon: completes one of 2 half marriages", "talon: completes one of 3 half marriages",
    "talon: brings a whole marriage, 2 suits unheld", "talon: brings an ace, 2 not held",
    "deal: no marriage in any hand", "deal: marriages in the three hands = 1",
]


def marriages_section(s: MarriageOdds, figs: list) -> list[str]:
    """The report's section on marriages below its heading: the exact odds beside random deals and
    their check, what a marriage is worth, what becomes of a held marriage in play, the plots
    (``figs``: file and caption each) and what it means at the table."""
    by = {r.quantity: r for r in s.rows}
    values = " ".join(f"{sym} {v}" for sym, v in zip(SUIT_SYMBOLS, s.rules.marriage_values, strict=True))
    lines = [f"Marriage values: {values}. The odds below are **exact** (counted over every deal) beside the same "
             f"quantity measured in {s.deals:,} random deals (seed {s.seed}; dealt, not played: no player is "
             "involved).", ""]
    rows = [[q, f"{by[q].exact.numerator}/{by[q].exact.denominator}", pct(by[q].p, digits=2),
             _pct(by[q].simulated, digits=2), f"{by[q].n:,}"]
            for q in _MARRIAGE_QUANTITIES if q in by]
    lines += markdown_table(["quantity", "exact", "exact %", "simulated [95%]", "deals"], rows)
    lines += _odds_check(s)
    lines += markdown_figures(figs[:1])
    worth = s.worth.rows if s.worth is not None else ()
    if worth:
        w = s.worth
        lines += ["### What a marriage is worth", "",
                  f"From the bid table: the declarer's points when he plays 120, with the suit's marriage among his 10 "
                  f"cards (hand and talon) against without, played by the {players_text((w.player,) * 3)} and, as a "
                  f"bound with every card seen, double dummy (dd); and the highest contract the {w.player} declarer "
                  f"makes {1 - w.risk:.0%} of the time in each group.", ""]
        lines += markdown_table(["marriage", "deals with / without", "points gained", "same aces: gained",
                                 "dd points gained", "makes 120: with / without",
                                 f"{1 - w.risk:.0%} contract: with / without"],
                                [[f"{r.suit} {_suit_value(s, r.suit)}", f"{r.n_with:,} / {r.n_without:,}",
                                  _num(r.learned_gain, sign=True), _num(r.learned_gain_same_aces, sign=True),
                                  _num(r.dd_gain, sign=True),
                                  f"{_pct(r.learned120_with)} / {_pct(r.learned120_without)}", worth_contracts_text(r)]
                                 for r in worth])
        lines += markdown_figures(figs[1:])
    for play in s.play:
        burns = any(r.declared_burnt.value > 0 for r in play.rows if r.held)
        lines += ["### What becomes of a held marriage", "",
                  f"{play.deals:,} deals played by the {players_text(play.players)} (seed {play.seed}"
                  f"{'' if len(s.play) == 1 else f', rules {play.label}'}). Of the marriages (the K and Q of a suit) "
                  "each role held in the cards it played with (the declarer's after his discard, a defender's with "
                  "the card given to him), the share with each fate: **declared**; "
                  + ("**declared, burnt**: declared, then lost because the role won no trick; " if burns else "")
                  + "**no trick won**: not declared, and the role won no trick in the whole deal (a defender who "
                  "wins no trick is never on lead, and a marriage is declared by leading one of its cards); **cards "
                  "played first**: not declared although the role won a trick (its K or Q was played without "
                  "declaring: following suit, or leading it). Each row sums to 100%; the shares measure this "
                  "player's play, and other players would give other shares.", ""]
        lines += markdown_table(["role", "suit", "held", "declared"] + (["declared, burnt"] if burns else [])
                                + ["no trick won", "cards played first"],
                                [[r.role, r.suit, f"{r.held:,}", _pct(r.declared)]
                                 + ([_pct(r.declared_burnt)] if burns else []) + [_pct(r.no_trick_won),
                                                                                  _pct(r.cards_played_first)]
                                 for r in play.rows if r.held])
    lines += ["### What this means at the table", ""]
    if "hand: at least one marriage" in by and "talon: completes one of 1 half marriages" in by:
        completes = by["talon: completes one of 1 half marriages"].p
        lines.append(f"- You are dealt a marriage in {pct(by['hand: at least one marriage'].p)} of hands; with "
                     f"one half marriage the talon completes it {pct(completes)} of the time (3 talon cards of the "
                     "17 unseen), so a bid that needs the talon to complete it fails more often than not.")
    if worth:
        verdicts: dict[str, list[str]] = {}
        for r in worth:
            gain, face = r.learned_gain_same_aces, _suit_value(s, r.suit)
            verdict = ("less than its face value" if gain.high < face else
                       "more than its face value" if gain.low > face else "about its face value")
            verdicts.setdefault(verdict, []).append(f"{r.suit} {face}: {_num(gain, sign=True)}")
        parts = [f"{verdict} for {'; '.join(items)}" for verdict, items in verdicts.items()]
        lines.append(f"- Among hands with as many aces, what a held marriage adds to the {s.worth.player} "
                     "declarer's take playing 120 is "
                     + ", and ".join(parts) + " points."
                     + (" It must be declared on a lead, and its cards can fall (the table above)."
                        if "less than its face value" in verdicts else ""))
    return lines + [""]


def _odds_check(s: MarriageOdds) -> list[str]:
    """The exact-odds check in words: one verdict with its p-value, what was tested and what left out."""
    check = s.check
    tested = sum(len(q) for r in check.rows for q in r.quantities)
    verdict = "agree with" if check.consistent else "**disagree** with"
    worst = "" if check.consistent else f" (worst: {check.worst})"
    return [f"**Check.** The simulated counts {verdict} the exact chances{worst}: family p = {check.p:.2g} at the "
            f"{check.level:.0%} level. The {tested} distinct quantities form {len(check.rows)} distributions (each a "
            "partition of the deals, or of the deals meeting one condition: the number of marriages in a hand, where "
            "a suit's K and Q lie, what the talon brings given the halves held, ...); each is tested by Pearson's "
            "chi-square against its exact chances, and the p-values are corrected by Holm's method, since the "
            f"distributions are measured on the same deals. The {len(check.dropped)} other rows are the same event as "
            "a quantity tested, its complement or a sum of them, and are left out. Every row, with its own 95% "
            "interval, and each distribution's test are in `data/marriages.json`.", ""]


def _pct(e: Estimate, digits: int = 1) -> str:
    """A share with its interval (``format.pct``)."""
    return pct(e.value, e.low, e.high, digits=digits)


def _num(e: Estimate, sign: bool = False) -> str:
    """A number with its interval (``format.num``)."""
    return num(e.value, e.low, e.high, sign=sign)


def _suit_value(s: MarriageOdds, symbol: str) -> int:
    return s.rules.marriage_values[SUIT_SYMBOLS.index(symbol)]


def plot_marriage_odds(result: MarriageOdds, path: Path) -> None:
    """Three panels of exact chances (bars) against the random deals (points with their 95%
    intervals): marriages held in the 7 cards, in the declarer's 10, and what the talon brings."""
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
        sims = [by[n].simulated.value for n in names]
        err = [[max(0.0, s - by[n].simulated.low) for n, s in zip(names, sims, strict=True)],
               [max(0.0, by[n].simulated.high - s) for n, s in zip(names, sims, strict=True)]]
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
        vals = [g.value for g in gains]
        err = [[max(0.0, g.value - g.low) for g in gains], [max(0.0, g.high - g.value) for g in gains]]
        ax.bar(x + (i - 1) * width, vals, width, yerr=err, capsize=4, color=colour, alpha=0.8, label=label)
    symbols = list(SUIT_SYMBOLS)
    ax.set_xticks(x, [f"{r.suit} marriage ({result.rules.marriage_values[symbols.index(r.suit)]})" for r in rows])
    ax.set_ylabel("declarer's points gained playing 120 (points)")
    n = rows[0].n_with + rows[0].n_without
    ax.set_title(f"What holding a marriage adds to the declarer's points\n(the bid table's {n:,} deals; 95% intervals)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, path)
