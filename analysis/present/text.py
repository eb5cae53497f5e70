"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__: list[str] = [
    "cheat_sheet_lines", "bid_table_lines",
    "marriage_odds_lines", "marriage_play_lines", "marriage_worth_lines",
]


# --- tables bids ---
if TYPE_CHECKING:
    from collections.abc import Sequence

    from analysis.tables import BidTable, CheatRow


def cheat_sheet_lines(rows: Sequence[CheatRow]) -> list[str]:
    """A cheat sheet (``analysis.tables.cheat_sheet``) as the table ``thousand tables bids`` prints:
    its header, then one line a hand class."""

    def bid(r: CheatRow, risk: float) -> str:
        b = r.at_risk(risk)
        if b.bid is None:
            return "none"
        return f"{b.bid}" + (f" ({b.low or 'none'}–{b.high})" if (b.low, b.high) != (b.bid, b.bid) else "")

    lines = [f"{'hand class':<28}{'n':>7}{'cap':>5}  {'bid at 70% (95% range)':<24}{'bid at 50%':<18}"
             f"{'first hand: best EV':<22}{'later hands: best EV':<22}pass EV"]
    for r in rows:
        later = f"{r.later_hand_bid}" if r.later_hand_bid is not None else "pass"
        first = f"{r.first_hand_bid if r.first_hand_bid is not None else 'pass'} ({r.first_hand_ev:+.1f})"
        later = f"{later} ({r.later_hand_ev:+.1f})"
        lines.append(f"{r.hand_class:<28}{r.n:>7,}{r.bidding_cap:>5}  {bid(r, 0.3):<24}{bid(r, 0.5):<18}"
                     f"{first:<22}{later:<22}{r.pass_ev:+.1f}")
    return lines


def bid_table_lines(result: BidTable) -> list[str]:
    """What ``thousand tables bids`` prints: the table's path, make-rates by hand class (dd and
    heuristic play at a few contracts), the declarers compared where pimc played, the cheat sheet of
    heuristic play and the plots' paths."""
    from analysis.tables import METHODS, PASS_SEAT

    shown = [lv for lv in (100, 110, 120, 130, 140, 160) if lv in result.levels]
    lines = [f"table: {result.table_file}",
             f"bid-success tables: {result.deals:,} deals (seed {result.seed}), pimc on {result.pimc_deals:,}; seat 0 "
             "declares every contract; make-rates by hand class"]
    lines.append(f"{'hand class':<26}{'n':>7}  " + "  ".join(f"{'dd ' + str(lv):>10}" for lv in shown) + "  "
                 + "  ".join(f"{'heur ' + str(lv):>10}" for lv in shown))
    for c in result.classes:
        if c.n < result.min_n:
            continue
        cells = [f"{r.p:>10.3f}" for m in ("dd", "heuristic") for r in c.rates(m) if r.contract in shown]
        lines.append(f"{c.hand_class:<26}{c.n:>7}  " + "  ".join(cells))
    if result.pimc_deals:
        lines.append(f"declarers compared on the {result.pimc_deals:,} deals pimc played (make-rate [95%]):")
        for row in result.comparison:
            cells = "  ".join(f"{m} {getattr(row, m)[0]:.3f} [{getattr(row, m)[1]:.3f}, {getattr(row, m)[2]:.3f}]"
                              for m in METHODS)
            lines.append(f"  {row.contract:>10}: {cells}")
    lines.append(f"cheat sheet (heuristic play; classes of {result.min_n} deals or more; bids up to the class's "
                 "lowest bidding cap; expected scores from a zero score: +b made, -b failed; passing measured as "
                 f"{PASS_SEAT} hand):")
    lines += cheat_sheet_lines(result.cheat_sheet_of("heuristic"))
    lines += [f"plot: {p}" for p in result.plot_files]
    return lines


# --- tables marriages ---
if TYPE_CHECKING:
    from analysis.marriages import MarriageOdds, MarriagePlay, MarriageWorth


def marriage_odds_lines(result: MarriageOdds) -> list[str]:
    """What ``thousand tables marriages`` prints: every quantity, exact and simulated, how many
    exact values lie inside their intervals, then the marriages in play and the worth of a marriage
    when asked for, and the stored table's and plot's paths."""
    from sim.game.cards import SUIT_SYMBOLS

    rows = result.rows
    lines = [f"marriage odds: exact, and measured in {result.deals:,} random deals (seed {result.seed}); values "
             + " ".join(f"{SUIT_SYMBOLS[s]}{result.rules.marriage_values[s]}" for s in range(4)),
             f"{'quantity':<52}{'exact':>16}{'p':>9}   {'simulated [95%]':<26}{'n':>10}"]
    for r in rows:
        frac = f"{r.exact.numerator}/{r.exact.denominator}"
        sim = f"{r.simulated:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]" if r.n else ""
        flag = "" if r.inside or not r.n else "  outside"
        lines.append(f"{r.quantity:<52}{frac:>16}{r.p:>9.4f}   {sim:<26}{r.n:>10,}{flag}")
    lines.append(f"{result.inside} of {len(rows)} exact values lie inside the simulated 95% interval "
                 f"(about {0.95 * len(rows):.0f} expected by chance alone)")
    for play in result.play:
        lines += ([f"-- rules {play.label}"] if len(result.play) > 1 else []) + marriage_play_lines(play)
    if result.worth is not None:
        lines += marriage_worth_lines(result.worth)
    if result.table_file is not None:
        lines.append(f"table: {result.table_file}; plot: {result.plot_file}")
    return lines


def marriage_play_lines(result: MarriagePlay) -> list[str]:
    """The marriages in play of one run: the marriage points each role scores, then what became of
    the marriages held, by role and suit."""
    import math

    from analysis.marriages import FATES

    lines = [f"marriages in play: {result.deals:,} deals of {', '.join(result.players)} (seed {result.seed}); "
             "share of the marriages held after the discard [95%]"]
    for m in result.points:
        lines.append(f"  marriage points a {m.role} scores per played deal: {m.mean:.2f} "
                     f"[{m.ci[0]:.2f}, {m.ci[1]:.2f}] over {m.n:,} seat-deals")
        shares = ", ".join(f"{v}: {q:.1%}" for v, q in m.distribution if q >= 0.001)
        lines.append(f"    distribution (points: share of seat-deals): {shares}")
    head = f"{'role':<16}{'suit':<5}{'held':>8}  " + "".join(f"{f:<26}" for f in FATES)
    lines.append(head + "given away (of 10 cards)")
    for r in result.rows:
        cells = "".join(f"{r.fate(f)[0]:.3f} [{r.fate(f)[1]:.3f}, {r.fate(f)[2]:.3f}]".ljust(26) if r.held
                        else "-".ljust(26) for f in FATES)
        given = r.given_away
        tail = f"{given[0]:.3f} [{given[1]:.3f}, {given[2]:.3f}]" if given and not math.isnan(given[0]) else ""
        lines.append(f"{r.role:<16}{r.suit:<5}{r.held:>8,}  {cells}{tail}")
    return lines


def marriage_worth_lines(result: MarriageWorth) -> list[str]:
    """What each suit's marriage is worth in a bid table: points gained (dd, dd within hands of as
    many aces, heuristic), the make-rate of 120 and the contract made ``1 - risk`` of the time."""
    lines = [f"what a marriage is worth (bid table {result.bids}): the declarer's points with and without the "
             "suit's marriage among his 10 cards, [95% interval]",
             f"{'suit':<5}{'deals with / without':>22}  {'dd points gained':<24}{'same aces: dd gained':<24}"
             f"{'heuristic points gained':<26}{'dd makes 120: with / without':<30}"
             f"contract made {1 - result.risk:.0%} of the time (dd)"]
    for r in result.rows:
        g, h, a = r.dd_gain, r.heur_gain, r.dd_gain_same_aces
        dd_gain = f"{g[0]:+6.1f} [{g[1]:+.1f}, {g[2]:+.1f}]"
        heur_gain = f"{h[0]:+6.1f} [{h[1]:+.1f}, {h[2]:+.1f}]"
        makes = f"{r.dd120_with[0]:.3f} / {r.dd120_without[0]:.3f}"
        contract = f"{r.contract_with} / {r.contract_without} ({r.contract_gain:+d})"
        same = f"{a[0]:+6.1f} [{a[1]:+.1f}, {a[2]:+.1f}]"
        lines.append(f"{r.suit:<5}{r.n_with:>10,} / {r.n_without:<9,}  {dd_gain:<24}{same:<24}"
                     f"{heur_gain:<26}{makes:<30}{contract}")
    return lines
