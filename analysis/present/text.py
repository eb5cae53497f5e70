"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__: list[str] = [
    "cheat_sheet_lines", "bid_table_lines",
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

