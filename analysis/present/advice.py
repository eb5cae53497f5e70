"""The bid advisor's answer (``analysis.bids.advice.Advice``) as ``thousand bid`` prints it: the
situation, the bidding lines and their gains over passing, the make-rates as information, the
talon's exact chances and the recommendation; and its ``--csv``."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import TYPE_CHECKING

from analysis.bids.hand import owed_contract
from analysis.bids.value import (
    EDGE_WIDTH,
    OBJECTIVE_WORDS,
    OBJECTIVES,
    PASS_LINE,
    tested_words,
    untested_words,
)
from analysis.present.format import scores_text
from analysis.present.layout import DEFAULT_WIDTH, Column, fit, table
from sim.game.cards import SUIT_SYMBOLS, SUITS

if TYPE_CHECKING:
    from analysis.bids.advice import Advice
    from analysis.stats import Estimate

__all__ = ["ADVICE_METHOD_TEXT", "advice_lines", "answer_lines", "situation_lines", "sampling_words", "plateau_line",
           "plateau_parts", "ADVICE_CSV_COLUMNS", "advice_csv"]


ADVICE_METHOD_TEXT = {
    "learned": "learned = the learned player in every seat, the declarer playing each contract apart (its net plays "
               "for the contract it is given)",
    "dd": "dd = double dummy: every seat sees every card and plays perfectly, the declarer discards best",
    "pimc": "pimc = every seat averages double-dummy values over the worlds it cannot tell apart",
    "heuristic": "heuristic = every seat is the heuristic player",
}


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} = {float(p):.1%}"


def _value(x: float | None, objective: str, mean: bool = False) -> str:
    """A line's mean or gain under ``objective``: points, or for ``win`` a chance in percent. A gain
    carries its sign; so does a mean of points (a score change), not a mean chance of winning
    (``mean``), which is never below 0."""
    if x is None or x != x:
        return "-"
    if objective == "win":
        return f"{100 * x:.1f}%" if mean else f"{100 * x:+.1f}%"
    return f"{x:+.1f}"


def _value_interval(e: Estimate, objective: str, mean: bool = False) -> str:
    return (f"{_value(e.value, objective, mean)} [{_value(e.low, objective, mean)}, "
            f"{_value(e.high, objective, mean)}]")


def _share(x: float) -> str:
    return "-" if x != x else f"{x:.1%}"


def _line_label(a: Advice, row) -> str:
    if row.kind == "pass":
        return f"forced {a.forced_bid}, then pass" if a.forced_bid is not None else "pass"
    if row.kind == "own":
        return f"{a.line_player}'s own bidding"
    return f"bid to {row.limit}"


def advice_lines(advice: Advice, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand bid`` prints: the answer first (the level recommended, its gain over passing,
    the objective), the situation, the plateau and the recommendation in full, the bidding lines with
    their results and gains over passing (the decision), the risk levels (information) and the
    talon's chances. At ``width`` the prose is wrapped, the lines' table narrowed to the columns that
    fit and the make-rate table left out; with ``width`` None (``--wide``) every table is whole, with
    how the plateau is judged, and no line is wrapped."""
    a = advice
    wide = width is None
    out = answer_lines(a, width) + situation_lines(a, width)
    said, how = plateau_parts(a)
    out += [""] + fit([f"{said}. [{how}]" if wide and how else f"{said}." if how else said], width)
    out += fit([_recommendation_line(a)], width)
    out += [""] + _lines_table(a, width)
    if a.can_bid:
        if wide:
            out += [""] + _make_rate_lines(a)
        out += fit([_risk_line(a)], width)
    out += [""] + _talon_lines(a)
    if not wide:
        out += fit(["", "--wide: every column of the lines, the make-rate table of each contract and how the "
                        "plateau is judged; --json: everything"], width)
    return out


def answer_lines(a: Advice, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """The answer in one or two lines: the action (the level, or passing), its gain against passing
    with its 95% interval, the plateau; then the objective and who plays the lines."""
    rec, obj = a.recommendation, a.objective
    passing = _value_interval(rec.passing.mean, obj, mean=True) + (" chance of winning" if obj == "win" else " a deal")
    if not a.can_bid:
        first = f"answer: pass (this hand cannot bid): {passing}"
    elif rec.line is None:
        first = f"answer: {rec.action}" + (f" (no bid tested): {passing}" if rec.action == "untested" else
                                           f": {passing}; no bid beats it")
    else:
        bids = a.plateau.bids
        span = ("" if not bids else f"; plateau {bids[0]}" if len(bids) == 1 else
                f"; plateau {bids[0]}–{bids[-1]}")
        first = f"answer: bid to {rec.bid}: {_value_interval(rec.line.gain, obj)} a deal against passing{span}"
    second = f"  {obj} = {a.objective_means}; {a.samples:,} deals"
    player = f", {rec.player} player"
    if width is None or len(second) + len(player) <= width:
        second += player
    return fit([first, second], width)


def situation_lines(a: Advice, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """The hand, the seat and its duty, the rules, the known cards, the scores and the bidding cap."""
    obj = a.objective
    forced = a.forced_bid
    owed = owed_contract(a.rules, a.seat, a.situation.on_barrel)[1]
    duty = (f", forced to bid {forced}" if forced is not None
            else f", declarer at {owed} if both others pass: all_pass = dealer_plays" if owed is not None
            else ", not forced to bid: forced_first_bid = false" if a.seat == "first" and not a.rules.forced_first_bid
            else "")
    out = [f"hand {a.hand}  ({a.seat} hand{duty}; rules {a.rule_changes or 'classic'})"]
    if a.known_cards:
        out.append("known: " + ", ".join(f"{k} {v}" for k, v in a.known_cards.items()))
    out.append("scores before the deal: " + scores_text(a.situation))
    if a.objective_reason is not None:
        others = " and ".join(f"--objective {o} for {OBJECTIVE_WORDS[o]}" for o in OBJECTIVES if o != obj)
        out.append(f"objective: {obj} ({a.objective_reason}); {others}")
    if a.win_source is not None:
        out.append("objective win: " + a.win_source)
    if a.can_bid:
        out.append(f"bidding cap {a.bidding_cap}; a talon could let you raise the final contract to {a.raise_cap}")
    else:
        out.append(f"bidding cap {a.bidding_cap}: below the minimum bid {a.min_bid}, so this hand cannot bid "
                   "(a bid above 120 needs a marriage)")
    return fit(out, width)


# The bidding lines' columns: the line always; the others dropped from the lowest ``keep`` when the
# table is too wide (the gain against passing, the decision, is never dropped).
_LINE_COLUMNS = (Column("line", "<"), Column("declare", keep=4), Column("contract", keep=1),
                 Column("raised", keep=1), Column("made", keep=3), Column("conceded", keep=2),
                 Column("result [95%]", "<", keep=2), Column("gain [95%]", "<"),
                 Column("bid vs pass there [95%]", "<", keep=5), Column("reached", keep=5))


def _lines_table(a: Advice, width: int | None) -> list[str]:
    """The bidding lines: with ``width`` None as they always were (every column, each line that
    plays as the one below it named); at a width, the columns that fit, the lines that play as the
    one below them listed in one note, and the legend of the columns shown."""
    obj = a.objective
    wide = width is None
    intro = (f"your bidding lines, each played on the same {a.samples:,} sampled deals (seed {a.seed}; "
             f"{sampling_words(a)}); every other decision by the {a.line_players}:")
    if wide:
        # The line column fits the longest label ("learned-win's own bidding"), at least 24 wide as it was.
        label = max(24, *(len(_line_label(a, row)) + 1 for row in a.lines))
        out = [intro,
               f"  result = {obj}: {a.objective_means}, a deal; gain = the line against passing at every turn, on "
               "the same deals (the plateau: the lines not shown to lose more than the margin against the best); "
               "bid vs pass there = "
               "where the auction reached the line's level (the deals it plays differently from the line one step "
               "lower), its mean difference from that line, which passes there; [95% intervals]",
               f"  {'line':<{label}}{'declare':>8}{'contract':>9}{'raised':>8}{'made':>8}{'conceded':>9}  "
               f"{'result [95%]':<24}{'gain [95%]':<24}{'bid vs pass there [95%]':<26}{'reached':>7}"]
    else:
        out = fit([f"your bidding lines on the same {a.samples:,} sampled deals (seed {a.seed}; {sampling_words(a)}); "
                   f"every other decision by the {a.line_player} player, all seats:"], width)
    rows: list = []
    same: list[str] = []
    for k, row in enumerate(a.lines):
        v = row.value
        if row.differs == 0:  # the same rows as the line above: say so rather than repeat its numbers
            below = a.lines[k - 1] if a.lines[k - 1].limit > 0 else a.pass_line
            if wide:
                out.append(f"  {_line_label(a, row):<{label}}(as {_line_label(a, below)}: no sampled deal plays "
                           "differently)")
            else:
                same.append(str(row.limit))
            continue
        gain = "baseline" if row.kind == "pass" else _value_interval(v.gain, obj)
        step = "" if row.kind in ("pass", "own") else _value_interval(v.step_gain, obj)
        contract = "-" if v.contract != v.contract else f"{v.contract:.1f}"
        result = _value_interval(v.mean, obj, mean=True)
        if wide:
            out.append(f"  {_line_label(a, row):<{label}}{_share(v.declares.value):>8}{contract:>9}"
                       f"{_share(v.raised.value):>8}{_share(v.made.value):>8}{_share(v.conceded.value):>9}  "
                       f"{result:<24}{gain:<24}{step:<26}{'' if row.differs is None else row.differs:>7}")
        else:
            label_text = f"{a.line_player}'s own" if row.kind == "own" else _line_label(a, row)
            rows.append([label_text, _share(v.declares.value), contract, _share(v.raised.value),
                         _share(v.made.value), _share(v.conceded.value), result, gain, step,
                         "" if row.differs is None else str(row.differs)])
    legend = {"declare": "the deals in which you end up the declarer",
              "contract": "your mean final contract (after the talon)",
              "raised": "contract above your winning bid",
              "made": "made, a share of the deals you declare",
              "conceded": "conceded, a share of the deals you declare",
              "result [95%]": f"{obj}, a deal",
              "gain [95%]": "the line against passing at every turn, on the same deals",
              "bid vs pass there [95%]": "where the auction reached the line's level, its mean difference from "
                                         "the line one step lower, which passes there",
              "reached": "deals the line plays differently from the line one step lower (the lowest: from "
                         "passing)"}
    if wide:
        out.append("  declare: the deals in which you end up the declarer; contract: your mean final contract (after "
                   "the talon); raised: contract above your winning bid, made and conceded: shares of the deals you "
                   "declare; reached: deals the line plays differently from the bidding line one step lower (the "
                   f"lowest: from passing); a level reached in {untested_words()} is untested")
        return out
    lines, dropped = table(_LINE_COLUMNS, rows, width)
    out += lines
    notes = []
    if same:
        notes.append(f"bid to {', '.join(same)}: as the level below (no sampled deal plays differently)")
    shown = [c.header for c in _LINE_COLUMNS[1:] if c.header not in dropped]
    notes.append("; ".join(f"{h.removesuffix(' [95%]')}: {legend[h]}" for h in shown)
                 + f"; [95% intervals]; a level reached in {untested_words()} is untested")
    return out + fit([f"  {n}" for n in notes], width)


def _make_rate_lines(a: Advice) -> list[str]:
    """The make-rate table of each contract, by method (information, not the decision)."""
    out = ["if you declare a contract and play it as that contract from the talon on (information, not the "
           "decision: the auction and the opponents' scores left aside); p_make with its 95% interval; "
           "E = p·gain − (1 − p)·loss, your own score:"]
    out += [f"  {ADVICE_METHOD_TEXT[m]}; the first {a.samples_of(m):,} deals of the sample" for m in a.methods]
    if a.worlds:
        out.append(f"  pimc worlds a decision: {a.worlds}")
    out.append("contract  " + "  ".join(f"{m + ' p_make [95%]':<24}{'E':>7}" for m in a.methods))
    shown_raise = False
    for row in a.contracts:
        if not row.biddable:
            if all(e.make.value == 0 for e in row.estimates):
                out.append(f"(from {row.contract} on: made in no sample)")
                break
            if not shown_raise:
                out.append("-- above the bidding cap: only as a final contract, if the talon brings the "
                           "marriages --")
                shown_raise = True
        cells = [f"{e.make.value:6.3f} [{e.make.low:.3f}, {e.make.high:.3f}]  {e.ev.value:+7.1f}"
                 for e in row.estimates]
        out.append(f"{row.contract:>8}  " + "  ".join(cells))
    else:
        if a.played_to is not None and a.played_to < a.raise_cap:
            out.append(f"(contracts above {a.played_to}, up to {a.raise_cap}, not played: the learned player "
                       f"made {a.played_to} in no sample)")
    return out


def _risk_line(a: Advice) -> str:
    r0 = a.risk_levels[0]
    return (f"risk information, not the decision: the highest bid made at least {1 - r0.risk:.0%} / at least "
            "50% of the time when declared: "
            + "; ".join(f"{r.method} {_bid_or_none(r.at_risk)} / {_bid_or_none(r.at_half)}" for r in a.risk_levels))


def _talon_lines(a: Advice) -> list[str]:
    """The talon's exact chances."""
    t = a.talon
    out = [f"talon (exact, over all {t.talons} possible talons):"]
    for mc in t.marriages:
        what = f"completes your {mc.holding}" if mc.holding else "brings both halves of"
        out.append(f"  {what} {SUIT_SYMBOLS[SUITS.index(mc.suit)]} marriage: {_exact(mc.p)}")
    out.append(f"  any new marriage: {_exact(t.any_marriage)}")
    aces = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.aces)
    tens = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.tens)
    out.append(f"  at least one ace {float(t.at_least_one_ace):.1%} ({aces or 'you hold all four'})")
    out.append(f"  at least one ten {float(t.at_least_one_ten):.1%} ({tens or 'you hold all four'})")
    out.append(f"  expected talon card points {float(t.expected_points):.1f}")
    return out


def sampling_words(a: Advice) -> str:
    """How many deals the lines took: "settled after 1,500 deals (batches of 500, at most 4,000)",
    "not settled at the cap of 4,000 deals: ..." or "fixed by --samples"."""
    if a.sampling == "fixed":
        return "a size fixed by --samples"
    if a.sampling == "settled":
        return f"settled after {a.samples:,} deals, at most {a.samples_cap:,}"
    undecided = ", ".join("passing" if b == PASS_LINE else str(b) for b in a.plateau.undecided)
    margin = _value(a.plateau.margin, a.objective).lstrip('+')
    return (f"not settled at the cap of {a.samples_cap:,} deals"
            + (f": {undecided} neither shown within {margin} of the best line nor worse by more than {margin}"
               if undecided else ": no level was tested"))


def _level_words(limit: int | None) -> str:
    return "passing" if limit == PASS_LINE else f"bid to {limit}"


def plateau_line(a: Advice) -> str:
    """The plateau in one line: "plateau: bid to 110–130 (best 120): about +2.1 [+0.4, +3.8] a deal
    against passing; 140 loses −11.2 [−14.9, −7.5] against the best", with how it is judged."""
    said, how = plateau_parts(a)
    return f"{said}. [{how}]" if how else said


def plateau_parts(a: Advice) -> tuple[str, str]:
    """The plateau (``plateau_line``) as (what it is, how it is judged: "" when nothing was compared)."""
    p, obj = a.plateau, a.objective
    if not a.can_bid:
        return "plateau: passing (this hand cannot bid)", ""
    n_other = len(p.comparisons) - 1
    margin = _value(p.margin, obj).lstrip('+')
    how = (f"passing and the tested levels (reached in {tested_words()}) not shown worse than the best line on "
           f"these deals by more than {margin} (gain(b) − "
           f"gain(best), paired deal by deal, simultaneous {1 - 0.05:.0%} intervals of ±{p.z:.2f} standard errors: "
           f"Bonferroni over {n_other} "
           f"comparison{'s' if n_other != 1 else ''})")
    if n_other == 0:
        return (f"plateau: passing: no level above the opening was tested (each reached in {untested_words()}), "
                "nothing to compare"), ""
    bids = p.bids
    if bids:
        span = f"bid to {bids[0]}" if len(bids) == 1 else f"bid to {bids[0]}–{bids[-1]}"
        if p.includes_pass:
            span = "passing or " + span
        rec = a.recommendation.line
        about = (f": about {_value_interval(rec.gain, obj)} a deal against passing (bid to {rec.limit})"
                 if rec is not None and rec.limit in bids else "")
        said = f"plateau: {span} (best on these deals: {_level_words(p.best)}){about}"
    else:
        said = f"plateau: passing (every tested line is worse than it by more than {margin})"
    below = [c for c in p.comparisons if c.limit < (bids[0] if bids else 0) and not c.in_plateau and c.limit > 0]
    if below:
        c = below[-1]
        said += f"; {c.limit} loses {_value_interval(c.diff, obj)} against the best"
    w = p.beyond
    if w is not None:
        said += f"; {w.limit} loses {_value_interval(w.diff, obj)} against the best"
    elif a.recommendation.untested_from is not None:
        said += (f"; open above: no tested level above {bids[-1] if bids else 'passing'} loses, higher bids are "
                 f"untested ({a.recommendation.untested_from} and above each reached in {untested_words()})")
    elif bids and p.open_top:
        said += " (up to the highest tested level)"
    if p.edges:
        width = _value(EDGE_WIDTH * p.margin, obj).lstrip('+')
        said += (f"; at the edge (about {margin} worse than the best, within ±{width}): "
                 + ", ".join(_level_words(b) for b in p.edges))
    if p.undecided:
        said += "; undecided: " + ", ".join(_level_words(b) for b in p.undecided)
    return said, how


def _bid_or_none(b: int | None) -> str:
    return "none" if b is None else str(b)


def _recommendation_line(a: Advice) -> str:
    rec, obj = a.recommendation, a.objective
    p = rec.passing
    passing = (f"passing at every turn: {_value_interval(p.mean, obj, mean=True)}"
               + (" chance of winning the game after the deal" if obj == "win" else " a deal"))
    who = f"{rec.player} player, all seats; {obj}, {a.samples:,} deals"
    if not a.can_bid:
        return f"recommendation: pass (this hand cannot bid; {passing}; {who})"
    w = rec.beyond
    stop = ("" if w is None else
            f"bid to {w.limit}: {_value_interval(w.gain, obj)} a deal against passing")
    if rec.line is None:
        if w is None and rec.untested_from is not None:
            return (f"recommendation ({who}): untested: {rec.untested_from} and every level above were each reached "
                    f"in {untested_words()}, too few to judge bidding on"
                    + (f" (your forced bid of {a.forced_bid} mostly wins the auction)" if a.forced_bid else "")
                    + f" ({passing})")
        what = "no line beyond the forced bid" if a.forced_bid is not None else "no line"
        tested = any(c.limit > 0 for c in a.plateau.comparisons)
        because = (f" (the first tested one, {stop})" if stop else
                   " (no tested level lies above the plateau)" if tested else " (no level was tested)")
        return (f"recommendation ({who}): {rec.action}: passing is in the plateau and {what} beats it with its 95% "
                f"interval above 0{because}; {passing}")
    v = rec.line
    inside = a.plateau.comparison(v.limit).status in ("in", "best") if v.limit in a.plateau.levels else False
    why = ("the lowest level shown within the margin of the best that beats passing" if inside else
           "of the lines that beat passing, the one of the highest gain (none shown within the margin of the best "
           "does)")
    said = f"bid to {rec.bid}, {why}: {_value_interval(v.gain, obj)} a deal against passing"
    if w is not None:
        said += f"; above the plateau, {stop}"
    elif rec.untested_from is not None:
        said += f"; higher bids are untested ({rec.untested_from} and above each reached in {untested_words()})"
    elif rec.bid == rec.bidding_cap:
        said += " (your bidding cap)"
    return (f"recommendation ({who}): {said}. Where the auction reached {rec.bid} ({v.reached} deals), bidding it "
            f"rather than passing there: {_value_interval(v.step_gain, obj)}; {passing}")


ADVICE_CSV_COLUMNS = ("line", "limit", "n", "mean", "low", "high", "gain", "gain_low", "gain_high", "declares",
                      "made", "conceded", "raised", "contract", "reached", "step_gain", "step_low", "step_high",
                      "objective", "player")


def advice_csv(advice: Advice) -> str:
    """What ``thousand bid --csv`` prints: the bidding lines, a row each (the pass line, the line
    player's own bidding, then bid up to each contract), with the objective and the line player on
    every row; shares are of all deals (declares) or of the deals you declare (the others)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(ADVICE_CSV_COLUMNS)

    def num(x: float) -> str:
        return "" if x != x else f"{x:.6f}"

    for row in advice.lines:
        v = row.value
        w.writerow([row.kind, v.limit if v.limit > 0 else "", v.n, num(v.mean.value), num(v.mean.low), num(v.mean.high),
                    num(v.gain.value), num(v.gain.low), num(v.gain.high), num(v.declares.value), num(v.made.value),
                    num(v.conceded.value), num(v.raised.value), num(v.contract),
                    "" if row.differs is None else row.differs, num(v.step_gain.value), num(v.step_gain.low),
                    num(v.step_gain.high), advice.objective, advice.line_player])
    return buf.getvalue()
