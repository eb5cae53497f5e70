"""The bid table (``analysis.bids.results.BidTable``) as a user sees it: the lines ``thousand tables
bids`` prints (make-rates by hand class, the check against pimc, the cheat sheet), the report's
section on bidding and its bullets in the report's summary, and the two plots (make-rates by hand,
the learned player against pimc)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.bids.classes import ACE_CLASSES, MARRIAGE_CLASSES, PLOT_MAX_LEVEL
from analysis.bids.parts import LINE_PLAYER
from analysis.bids.results import METHOD_GROUPS, PLAYERS, PLAYERS_SHORT
from analysis.bids.value import OBJECTIVE_WORDS, SETTLE_MARGIN, tested_words, untested_words
from analysis.present.figure import pyplot, save
from analysis.present.format import finite, interval, markdown_figures, markdown_table, num, pct
from analysis.present.layout import DEFAULT_WIDTH, Column, fit, table

if TYPE_CHECKING:
    from collections.abc import Sequence

    from analysis.bids.results import BidTable, CheatRow, SeatAdvice
    from analysis.stats import Estimate

__all__ = ["seat_advice_words", "plateau_words", "cheat_sheet_lines", "bid_table_lines", "bids_section",
           "bidding_summary", "METHOD_STYLE", "PIMC_POINTS_MIN_N", "plot_bid_make_rates", "plot_bid_methods"]


def _margin(objective: str) -> str:
    """The plateau's margin in words ("5 points a deal")."""
    return f"{SETTLE_MARGIN[objective]:g} points a deal"


def _class_reach() -> str:
    """A tested level's reach, said of a hand class ("at least 3% of the class's deals and 15 or more")."""
    return tested_words().replace("sampled deals", "class's deals")


def _parts(e: Estimate) -> tuple[float, float, float]:
    """An estimate as the (value, low, high) the formatters take."""
    return (e.value, e.low, e.high)


def seat_advice_words(s: SeatAdvice) -> str:
    """One seat's advice in plain words: "bid to 160: +14.2 [9.0, 19.4] a deal against passing;
    beyond 160, bidding further lowers the expected result (bid to 170: +9.1)", the gains those of
    the lines "bid up to" against always passing; or pass (for a forced first hand: the forced bid,
    then pass)."""
    if s.bid is None:
        if s.beyond is None and s.untested_from is not None:
            return (f"untested: {s.untested_from} and every level above reached in {untested_words()}"
                    + (" (the forced bid mostly wins the auction)" if s.forced else ""))
        first = ("" if s.beyond is None else
                 f" (bid to {s.beyond}: {interval(s.beyond_gain, sign=True)})")
        return ("make the forced bid, then pass: no higher line beats passing" if s.forced
                else "pass: no bidding line beats passing") + first
    said = f"bid to {s.bid}: {interval(*_parts(s.gain), sign=True)} a deal against passing"
    if s.beyond is not None:
        more = "lowers" if s.beyond_gain < s.gain.value else "does not raise"
        said += (f"; beyond {s.bid}, bidding further {more} the expected result "
                 f"(bid to {s.beyond}: {interval(s.beyond_gain, sign=True)})")
    elif s.untested_from is not None:
        said += f"; higher bids untested: {s.untested_from} and above each reached in {untested_words()}"
    else:
        said += "; the cap: you may bid no higher"
    return said


def _risk_words(r: CheatRow) -> str:
    made = [f"{b.bid.value} at least {1 - b.risk:.0%} of the time" for b in r.risks if finite(b.bid.value)]
    return ("the learned declarer makes " + ", ".join(made)) if made else \
        f"the learned declarer makes no contract up to {r.bidding_cap} even {1 - r.risks[-1].risk:.0%} of the time"


def cheat_sheet_lines(rows: Sequence[CheatRow]) -> list[str]:
    """A cheat sheet (``analysis.bids.classes.cheat_sheet``) as ``thousand tables bids`` prints it: per
    hand class a line (its deals, cap and the risk information), then one line a seat."""
    tag = PLAYERS_SHORT[LINE_PLAYER]
    lines = []
    for r in rows:
        lines.append(f"{r.hand_class}: {r.n:,} deals, bidding cap {r.bidding_cap}; risk: {_risk_words(r)}")
        for s in r.seats:
            lines.append(f"  {s.seat + ' hand:':<13}{seat_advice_words(s)}  [{tag}]")
    return lines


def _detail_lines(rows: Sequence[CheatRow]) -> list[str]:
    def short(s: SeatAdvice) -> str:
        if s.bid is None:
            if s.beyond is None and s.untested_from is not None:
                return "untested"
            return "forced bid, then pass" if s.forced else "pass"
        more = ", higher untested" if s.beyond is None and s.untested_from is not None else ""
        return f"bid to {s.bid} ({interval(*_parts(s.gain), sign=True)}{more})"

    return [f"  {r.hand_class} ({r.n:,}): " + "; ".join(f"{s.seat} {short(s)}" for s in r.seats)
            + f"  [{PLAYERS_SHORT[LINE_PLAYER]}]" for r in rows]


def bid_table_lines(result: BidTable, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tables bids`` prints: first what the table is and its cheat sheet (the
    answer: what bidding is worth per hand class and seat), then the make-rates by hand class (the
    learned player at the minimum bid and a few contracts, the heuristic player and double dummy at
    120 beside, or at the lowest contract above it where the table has no 120), the learned player
    checked against pimc on the same deals, the refinements, and the table's and plots' paths.
    Every row names the players behind its numbers. At ``width`` the prose is wrapped and the
    make-rates keep the columns that fit; with ``width`` None every column, no line wrapped."""
    # The learned player's columns: the table's own minimum bid (125 under min_bid = 125, which the
    # round contracts below would leave out), then those of these contracts the table holds; the
    # heuristic player and double dummy beside at 120, or the lowest contract above it (none is 120).
    shown = sorted({result.levels[0], *(lv for lv in (100, 110, 120, 130, 140, 160, 180) if lv in result.levels)})
    beside = next((lv for lv in result.levels if lv >= 120), result.levels[-1])
    lines = [f"bid-success tables: {result.deals:,} random deals (seed {result.seed}); pimc on the first "
             f"{result.pimc_deals:,} ({result.worlds} worlds a decision)"]
    if width is not None:  # the cheat sheet in short; --wide says how its plateau is judged
        lines.append(f"cheat sheet: what bidding is worth per hand class and seat ({PLAYERS[LINE_PLAYER]}, from a "
                     f"zero score; result: {OBJECTIVE_WORDS[result.objective]}; classes of {result.min_n} deals or "
                     "more): \"bid to X\" and X's gain a deal against passing [95%], the plateau of the lines as good "
                     f"as the best within {_margin(result.objective)} (\"+\": open above, \"~\": not settled); the "
                     "make levels are risk information only; --wide: how the plateau is judged")
    else:
        lines.append("cheat sheet: what bidding is worth, per hand class and seat, on the table's deals "
                     f"({PLAYERS[LINE_PLAYER]}, from a zero score; result: {OBJECTIVE_WORDS[result.objective]}; "
                     f"classes of {result.min_n} deals or more). Each line \"bid up to X\" is compared with passing at "
                     "every turn on all the class's deals; the plateau: passing and the tested levels (reached in "
                     f"{tested_words()}) whose line "
                     f"is not shown worse than the best by more than {_margin(result.objective)} (simultaneous 95% "
                     "intervals, Bonferroni; \"+\": no tested level above it loses, higher levels untested; \"~\": not "
                     "settled, a larger table settles it); \"bid to X\": its lowest level shown within that margin of "
                     "the best that beats passing (interval above 0), else pass; beside it, X's gain a deal, "
                     "with its 95% interval. The make levels are risk information only:")
    lines += cheat_sheet_lines(result.cheat_sheet)
    lines = fit(lines, width)
    names = ", ".join(f"{v} = {PLAYERS[k]}" for k, v in PLAYERS_SHORT.items())
    lines += fit(["make-rates by hand class: seat 0 takes the talon and plays the contract (the learned player plays "
                  "each contract as that contract; the others once for points); classes of "
                  f"{result.min_n} deals or more; {names}:"], width)
    rows = []
    for c in result.classes:
        if c.n < result.min_n:
            continue
        at = {m: next(r.make.value for r in c.rates(m) if r.contract == beside) for m in ("heuristic", "dd")}
        rows.append([c.hand_class, f"{c.n:,}", PLAYERS_SHORT["learned"],
                     *(f"{r.make.value:.3f}" for r in c.learned if r.contract in shown),
                     f"{at['heuristic']:.3f}", f"{at['dd']:.3f}"])
    if width is None:
        lines.append(f"{'hand (7 cards)':<34}{'n':>7}  {'players':<12}" + "".join(f"{lv:>7}" for lv in shown)
                     + f"  {f'heuristic×3 {beside}':>16}{f'double dummy {beside}':>18}")
        for r in rows:
            lines.append(f"{r[0]:<34}{r[1]:>7}  {r[2]:<12}" + "".join(f"{x:>7}" for x in r[3:-2])
                         + f"  {r[-2]:>16}{r[-1]:>18}")
    else:
        # The contracts nearest the minimum bid are kept longest, then 120's neighbours.
        columns = [Column("hand (7 cards)", "<"), Column("n", keep=len(shown) + 2), Column("players", "<"),
                   *(Column(str(lv), keep=len(shown) + 1 - k) for k, lv in enumerate(shown)),
                   Column(f"heuristic×3 {beside}", keep=1), Column(f"double dummy {beside}", keep=1)]
        table_lines, dropped = table(columns, rows, width, indent="", label=24)
        lines += table_lines + (fit([f"(--wide adds the columns {', '.join(dropped)})"], width) if dropped else [])
    if result.comparison:
        lines.append(f"the learned player checked against pimc on the first {result.comparison[0].n:,} deals (the same "
                     "deals: make-rate [95%]; learned minus pimc paired by deal; the pooled row clustered by deal; "
                     "Holm-corrected):")
        for row in result.comparison:
            cells = "  ".join(f"{PLAYERS_SHORT[m]} {interval(*_parts(getattr(row, m)), digits=3)}"
                              for m in ("learned", "pimc"))
            diff = interval(*_parts(row.diff), digits=3, sign=True)
            lines.append(f"  {row.contract:>8}: {cells}  learned − pimc {diff}{' DIFFER' if row.differ else ''}"
                         f"  (heuristic×3 {row.heuristic.value:.3f}, double dummy "
                         f"{row.dd.value:.3f})")
        differ = [r.contract for r in result.comparison if r.differ]
        lines.append("  " + (f"they differ at {', '.join(differ)} (Holm-corrected p < 0.05)" if differ else
                             "no difference at the 5% level after Holm's correction"))
    if result.detail:
        lines.append(f"refined by tens and by the longest suit (classes of {result.min_n} deals or more; the line "
                     "\"bid up to X\" against always passing, a deal [95%]):")
        lines += _detail_lines(result.detail)
    lines = fit(lines, width)
    lines.append(f"table: {result.table_file}")
    lines += [f"plot: {p}" for p in result.plot_files]
    return lines


def plateau_words(s: SeatAdvice) -> str:
    """The seat's plateau in short: "110–135", "pass–120" (passing in it too), "pass", "120–145+"
    (open above: no tested level above 145 loses, the higher ones are untested); "~" before it when
    it is not settled (a level neither shown within the margin of the best nor worse by more)."""
    span = ("" if s.plateau_low is None else f"{s.plateau_low}" if s.plateau_low == s.plateau_high
            else f"{s.plateau_low}–{s.plateau_high}")
    if span and s.plateau_open and s.untested_from is not None:
        span += "+"
    said = ("pass" + ("–" + span if span else "")) if s.plateau_pass else span
    return ("" if s.plateau_settled else "~") + said


def _seat_cell(s: SeatAdvice) -> str:
    """One seat's advice in a cheat-sheet cell: "bid to 160 (160–170): +14.2 [9.0, 19.4]" (the
    recommended line "bid up to 160" against passing at every turn, a deal, and the plateau of the
    lines not shown to lose more than the margin against the best), "pass", or "forced bid, then pass"."""
    plat = f" (plateau {plateau_words(s)})"
    if s.bid is None:
        if s.beyond is None and s.untested_from is not None:
            return f"untested ({'forced bid; ' if s.forced else ''}few auctions reached {s.untested_from})"
        return ("forced bid, then pass" if s.forced else "pass") + plat
    more = "; higher untested" if s.beyond is None and s.untested_from is not None else ""
    return f"bid to {s.bid}{more}{plat}: {num(*_parts(s.gain), sign=True)}"


def _risk_cell(row: CheatRow) -> str:
    return " / ".join(str(b.bid.value) if finite(b.bid.value) else "none" for b in row.risks)


def bids_section(s: BidTable, figs: list, *, provisional: bool = False) -> list[str]:
    """The report's section on bidding below its heading: the table, its plots (``figs``: file and
    caption each), the cheat sheet and its refinements (``provisional``: stamped so, from a quick
    report's sizes), the check against pimc and what it means at the table."""
    lines = [f"A bid table of {s.deals:,} random deals (seed {s.seed}). Every number in this section is from the "
             "**learned player** in all three seats (a net trained on the exact solver's values, which bids, raises, "
             "concedes, gives and plays, searching its last three tricks; see the method) unless a column says "
             "otherwise. **pimc** in all three seats "
             f"replays the first {s.pimc_deals:,} deals as a check of its make-rates; the **heuristic** player (all "
             "seats) and **double dummy** (every seat sees every card) stand beside them for comparison. A hand's "
             "class is what it holds before the talon: its marriage by suit (spades 40, clubs 60, diamonds 80, hearts "
             "100; \"two marriages\": two or three) and its aces.", ""]
    lines += markdown_figures(figs)
    lines += ["### The bidding cheat sheet", "",
              f"For each hand class with at least {s.min_n:,} deals and each seat, the class's deals were played with "
              "you holding the hand, once per bidding line: pass, or raise by the least step while the bid is at most "
              "X, for every X up to the class's bidding cap. Everything else (the others' bids, the talon, raising "
              f"the contract after it or conceding, the gifts, the cards) is the {PLAYERS['learned']}. A line's "
              f"result is {OBJECTIVE_WORDS[s.objective]}, from a zero score. Each "
              "line \"bid up to X\" is compared with passing at every turn on all the class's deals: the mean "
              "difference is what following it gains a deal. **The plateau** (in brackets): of passing and the "
              f"tested levels (reached in {_class_reach()}), those whose line is not shown worse than the best "
              "line on these deals by "
              f"more than {_margin(s.objective)} (the difference from the best, paired by deal, with "
              "simultaneous 95% intervals, Bonferroni over the lines); \"+\" after it when no tested level above "
              "it loses and the higher ones are untested; \"~\" when some line is neither shown within that margin "
              "of the best nor worse by more (a larger table settles it). **Bid to "
              "X**: the lowest level shown within the margin of the best whose line beats passing with its "
              "interval above 0 (of lines equally good, the one that commits to least); \"pass\" only when passing "
              "is in the plateau and no line beats it (docs/advisor.md, the settled rule). A line's gain adds up what "
              "bidding each "
              "level up to X gains where the auction reached it, weighted by how often it is reached: a level the "
              "opponents seldom "
              "leave you (they mostly raise by 10, so the odd levels) weighs little. \"Higher untested\" when "
              "the auctions went beyond X too seldom to test. Beside it, the line's gain over passing in "
              "points a deal, with its 95% interval clustered by deal (an interval reaching below 0 means the "
              "sample cannot tell the line from passing). \"Untested\": the "
              "opponents so seldom bid against this hand that no level was reached often enough to judge; the "
              "forced or first bid then mostly wins the auction. "
              + (f"{_forced_hand(s).capitalize()} must open (forced_first_bid): for him passing is the forced "
                 "minimum bid, then passing. " if _forced_hand(s) else "Nobody is forced to open under these rules. ")
              + "The last column is risk information only: the "
              "highest contract the learned declarer makes at least 70% / 50% of the time, playing it.", ""]
    if provisional:
        lines += [f"**Provisional**: this cheat sheet is from a quick report's {s.deals:,} deals; its plateaus are "
                  "wide and may move with a larger table (the full report's), and it is kept out of the summary.", ""]
    rows = [[r.hand_class, f"{r.n:,}", *(_seat_cell(x) for x in r.seats), _risk_cell(r)] for r in s.cheat_sheet]
    if rows:
        lines += markdown_table(["hand (7 cards)", "deals", "first hand", "second hand", "third hand",
                                 "makes 70% / 50%"], rows)
    else:
        lines += [f"No hand class has {s.min_n:,} deals in this table: the cheat sheet needs a larger one.", ""]
    if s.detail:
        lines += ["### The same, refined by tens and by the longest suit", "",
                  f"The classes above split by the tens held and by the longest suit's length, where a class keeps "
                  f"{s.min_n:,} deals or more (the same lines, players and result).", ""]
        lines += markdown_table(["hand (7 cards)", "deals", "first hand", "second hand", "third hand"],
                                [[r.hand_class, f"{r.n:,}", *(_seat_cell(x) for x in r.seats)] for r in s.detail])
    lines += ["### The learned player checked against pimc", ""]
    if s.comparison:
        lines += [f"On the first {s.comparison[0].n:,} deals each player declared the same hands, playing all three "
                  "seats (make-rate with its 95% interval; the learned player plays each contract as that contract, "
                  f"the others once for points). \"learned − pimc\" is paired by deal; the {s.comparison[-1].contract} "
                  "row is the share of those contracts made, its interval clustered by deal (a deal's contracts are "
                  "not independent trials); p-values are Holm-corrected over the rows. *Player, not game:* the two "
                  "sides are not played alike: the learned player knows each contract and plays for it (a deal is "
                  "played once a contract), pimc plays every deal once for the most points whatever the contract. "
                  "A difference is therefore partly that asymmetry of the check, not only the players' strength, "
                  "and neither column is the hand's own chance.", ""]
        lines += markdown_table(["contract", "deals", "learned (all seats)", "pimc (all seats)",
                                 "learned − pimc (percentage points)", "Holm p", "heuristic (all seats)",
                                 "double dummy"],
                                [[r.contract, f"{r.n:,}", pct(*_parts(r.learned)), pct(*_parts(r.pimc)),
                                  num(*(100 * x for x in _parts(r.diff)), sign=True), f"{r.p_holm:.3f}",
                                  pct(*_parts(r.heuristic)), pct(*_parts(r.dd))] for r in s.comparison])
        lines += [_comparison_reading(s), ""]
    else:
        lines += ["pimc played no deal of this table.", ""]
    lines += ["### What this means at the table", ""] + _reading_bids(s) + [""]
    return lines


def _comparison_reading(s: BidTable) -> str:
    differ = [r for r in s.comparison if r.differ]
    if not differ:
        widest = max(max(abs(r.diff.low), abs(r.diff.high)) for r in s.comparison if finite(r.diff.low)) \
            if any(finite(r.diff.low) for r in s.comparison) else math.nan
        return ("The learned player's make-rates do not differ from pimc's at the 5% level after Holm's correction"
                + (f"; on these deals the differences could still be as large as {100 * widest:.0f} percentage "
                   "points." if finite(widest) else "."))
    parts = [f"{r.contract} ({'higher' if r.diff.value > 0 else 'lower'} by {100 * abs(r.diff.value):.1f} percentage "
             "points)" for r in differ]
    return ("Where they differ (Holm-corrected p < 0.05), the learned player's make-rate is: " + "; ".join(parts)
            + ". Elsewhere the sample cannot tell them apart.")


def _reading_bids(s: BidTable) -> list[str]:
    out = []
    rows = list(s.cheat_sheet)
    if not rows:
        return ["- The table is too small for a reading."]
    for seat in ("first", "second", "third"):
        bidding = [r for r in rows if r.seat(seat).bid is not None]
        sure = [r for r in bidding if finite(r.seat(seat).gain.low) and r.seat(seat).gain.low > 0]
        out.append(f"- As **{seat} hand**, a bidding line beats passing in {len(bidding)} of the {len(rows)} classes "
                   f"shown; in {len(sure)} of them the gain's 95% interval lies wholly above 0.")
    bare = [r for r in rows if r.hand_class.startswith("no marriage")]
    if bare:
        later = [r for r in bare if r.seat("second").bid is None and r.seat("third").bid is None]
        out.append(f"- Without a marriage, second and third hand do better passing in {len(later)} of the "
                   f"{len(bare)} classes shown.")
    married = [(r, x) for r in rows for x in r.seats if x.bid is not None]
    for r, x in sorted(married, key=lambda rx: (-rx[1].bid, rx[0].hand_class))[:3]:
        out.append(f"- {r.hand_class.capitalize()}, {x.seat} hand: bid to **{x.bid}** "
                   f"({num(*_parts(x.gain), sign=True)} a deal against always passing, the most of "
                   "its tested lines); the learned declarer "
                   f"makes {_risk_cell(r)} at 70% / 50%.")
    differ = [r.contract for r in s.comparison if r.differ]
    if s.comparison:
        out.append("- The make-rates rest on the learned player; pimc, replaying the first deals, "
                   + (f"differs from it at {', '.join(differ)} (see the check above)." if differ else
                      "does not differ from it at the 5% level (see the check above for how much it could)."))
    return out


def bidding_summary(bids: BidTable | None) -> list[str]:
    """The cheat sheet in a few bullets, for the report's summary: hands without a marriage, then
    each marriage with one and with two aces, by seat (the advice and numbers of section 1), and
    what its short words mean; nothing without a cheat sheet."""
    if bids is None or not bids.cheat_sheet:
        return []
    rows = {r.hand_class: r for r in bids.cheat_sheet}
    out = [f"**How much to bid** (the cheat sheet of [section 1](#bids): the learned player in every seat, "
           f"{bids.deals:,} deals; first / second / third hand; X: the lowest level shown within the margin of "
           "the best that beats passing, its gain with its 95% interval printed there):", ""]
    bare = [r for r in rows.values() if r.hand_class.startswith("no marriage")]
    if bare:
        forced = _forced_seat(bids)
        others = [i for i in range(3) if i != forced]
        hands = ("first", "second", "third")
        passing = [r for r in bare if all(r.seats[i].bid is None and r.seats[i].beyond is not None for i in others)]
        who = ", ".join(hands[i] for i in others[:-1]) + f" and {hands[others[-1]]} hand"
        text = f"- **No marriage**: {who} pass in {len(passing)} of the {len(bare)} classes shown"
        if forced is None:
            text += "."
        else:
            text += f"; {hands[forced]} hand makes the forced bid" + (
                ", then passes." if all(r.seats[forced].bid is None for r in bare)
                else " (see section 1 for the exceptions).")
        out.append(text)
    for suit in ("spades", "clubs", "diamonds", "hearts"):
        shown = [rows[k] for k in (f"{suit} marriage, 1 ace", f"{suit} marriage, 2 aces") if k in rows]
        if shown:
            out.append(f"- **{suit.capitalize()} marriage**: " + "; ".join(
                f"{r.hand_class.split(', ')[1]}: " + " / ".join(_short_advice(x) for x in r.seats) for r in shown)
                + ".")
    return out + ["", "(\"forced bid\": the forced opening, then pass; \"120+\": bid to 120, higher untested; "
                  "\"untested\": too few auctions went above the opening to judge.)", ""]


def _forced_seat(s: BidTable) -> int | None:
    """The index (0 first hand, 1 second, 2 third) of the cheat sheet's seat that opens with the
    forced bid, read from its seats; None when no seat is forced."""
    return next((i for r in s.cheat_sheet for i, x in enumerate(r.seats) if x.forced), None)


def _forced_hand(s: BidTable) -> str | None:
    """The hand of the cheat sheet that opens with the forced bid ("first hand", "third hand (the
    dealer)"); None when no seat is forced."""
    i = _forced_seat(s)
    if i is None:
        return None
    seat = s.cheat_sheet[0].seats[i].seat
    return f"{seat} hand" + (" (the dealer)" if seat == "third" else "")


def _short_advice(s: SeatAdvice) -> str:
    if s.bid is None:
        if s.beyond is None and s.untested_from is not None:
            return "untested"
        return "forced bid" if s.forced else "pass"
    return f"{s.bid}" + ("+" if s.beyond is None and s.untested_from is not None else "")


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
            ax.plot(x, [r.make.value for r in rates], color=f"C{i}", label=f"{aces} ({c.n:,})")
            ax.fill_between(x, [r.make.low for r in rates], [r.make.high for r in rates], color=f"C{i}", alpha=0.15)
            if c.n_pimc >= PIMC_POINTS_MIN_N:
                pts = [r for r in c.pimc if r.contract <= PLOT_MAX_LEVEL and (r.contract - x[0]) % 20 == 0]
                err = [[max(0.0, r.make.value - r.make.low) for r in pts],
                       [max(0.0, r.make.high - r.make.value) for r in pts]]
                ax.errorbar([r.contract + 1.5 for r in pts], [r.make.value for r in pts], yerr=err, fmt="o",
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
            ax.plot(levels, [r.make.value for r in curve], color=colour, linestyle=style, label=label,
                    linewidth=2 if m == "learned" else 1)
            if m == "learned":
                ax.fill_between(levels, [r.make.low for r in curve], [r.make.high for r in curve], color=colour,
                                alpha=0.15)
        pimc = [r for r in rates if r.method == "pimc" and (r.contract - rates[0].contract) % 10 == 0]
        ax.errorbar([r.contract for r in pimc], [r.make.value for r in pimc],
                    yerr=[[max(0.0, r.make.value - r.make.low) for r in pimc],
                          [max(0.0, r.make.high - r.make.value) for r in pimc]], fmt="o",
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
