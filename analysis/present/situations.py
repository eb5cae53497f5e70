"""The score situations (``analysis.bids.situations.SituationAdvice``) in words: the report's
section (``situations_section``) and its short summary line (``situations_summary``). Computes
nothing: every number is the result's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.bids.value import OBJECTIVE_WORDS, untested_words
from analysis.present.format import markdown_table, num, pct, scores_text

if TYPE_CHECKING:
    from analysis.bids.situations import SituationAdvice, SituationCell

__all__ = ["UNIT", "HABIT_RARE", "plateau_short", "advice_cell", "seat_heading", "situations_reading",
           "situations_section"]

# A line's gain in the section's unit: the race in points a deal; the chance of winning in points of
# winning chance (percentage points) a deal.
UNIT = {"race": (1.0, "points a deal"), "win": (100.0, "points of winning chance a deal")}
# The reading flags a cell where the advice is to bid and the line player's own bidding declares in
# fewer than this share of the deals: the computer player's habit parts from the advice.
HABIT_RARE = 0.05


def plateau_short(c: SituationCell) -> str:
    """The plateau in short: "110–135", "pass–120" (passing in it too), "pass"; "~" before it when
    it is not settled (a level neither told apart from the best nor shown close to it)."""
    p = c.plateau
    span = "" if p.low is None else f"{p.low}" if p.low == p.high else f"{p.low}–{p.high}"
    said = ("pass" + ("–" + span if span else "")) if p.includes_pass else span
    return ("" if p.settled else "~") + said


def _gain(c: SituationCell, value: float, low: float | None = None, high: float | None = None) -> str:
    scale = UNIT[c.objective][0]
    return num(value * scale, None if low is None else low * scale, None if high is None else high * scale,
               sign=True)


def advice_cell(c: SituationCell) -> str:
    """The advice of one cell: "bid to 125 (plateau 125–135): +2.0 [1.6, 2.5]" (the recommended
    line against passing at every turn, in ``UNIT``), "pass (plateau pass–135)", "forced bid, then
    pass (...)", or "untested"."""
    plat = f" (plateau {plateau_short(c)})"
    if c.passes:
        if c.beyond is None and c.untested_from is not None and c.plateau.low is None:
            return f"untested (few auctions reached {c.untested_from})"
        return ("forced bid, then pass" if c.forced else "pass") + plat
    more = "; higher untested" if c.beyond is None and c.untested_from is not None else ""
    return f"bid to {c.bid}{more}{plat}: {_gain(c, c.gain.value, c.gain.low, c.gain.high)}"


def _short(c: SituationCell) -> str:
    """The advice in a few characters for the overview: "125", "pass", "~pass"."""
    said = "pass" if c.passes else str(c.bid)  # a forced hand's heading says its pass is the forced bid's
    return ("" if c.plateau.settled else "~") + said


def _habit(c: SituationCell) -> str:
    """The line player's own bidding: its gain over passing, how often it declares and its mean
    contract (the computer player's habit)."""
    h = c.habit
    contract = f", contract {h.contract:.0f}" if h.contract == h.contract else ""
    return f"{_gain(c, h.gain.value, h.gain.low, h.gain.high)}; declares {pct(h.declares.value)}{contract}"


def _label(c: SituationCell) -> str:
    return ("forced bid, then pass" if c.forced else "pass") if c.passes else f"bid to {c.bid}"


def seat_heading(s: SituationAdvice, seat: str, *, short: bool = False) -> str:
    """"First hand", with what the seat owes where it holds the forced opening bid in the reference
    situation: "First hand (the forced bid of 100: its "pass" is the forced bid, then pass)", or
    ``short``: "First hand (the forced bid of 100)"."""
    forced = s.cell(s.situations[0].key, s.classes[0], seat).forced
    owes = "" if not forced else f" (the forced bid of {forced})" if short else \
        f" (the forced bid of {forced}: its \"pass\" is the forced bid, then pass)"
    return f"{seat[0].upper()}{seat[1:]} hand{owes}"


def situations_reading(s: SituationAdvice, *, provisional: bool = False) -> list[str]:
    """What the section means at the table, written from its numbers: per seat and situation, in how
    many classes the advice is to bid and where it moved from the seat's reference; and the cells
    where the line player's own bidding (its habit) declares in fewer than ``HABIT_RARE`` of the
    deals while the advice is to bid."""
    ref = s.situations[0]
    lines = ["**What this means at the table**" + (" (provisional, as every advice here)" if provisional else "")
             + ": an advice that moved while the plateaus of the two overlap may be the sample's; the tables above "
               "give each plateau.", ""]
    for seat in s.seats:
        for x in s.situations:
            cells = [s.cell(x.key, h, seat) for h in s.classes]
            bidding = sum(not c.passes for c in cells)
            said = f"- {seat} hand, **{x.key}**: bid in {bidding} of {len(cells)} classes"
            if x.key != ref.key:
                before = [_label(s.cell(ref.key, h, seat)) for h in s.classes]
                moved = [f"{h}: {was} → {_label(c)}" for h, c, was in zip(s.classes, cells, before, strict=True)
                         if _label(c) != was]
                said += (f"; moved from the reference in {len(moved)}: " + "; ".join(moved)) if moved else \
                    "; the same advice as the reference in every class"
            lines.append(said + ".")
    rare = [c for c in s.cells if not c.passes and c.habit.declares.value < HABIT_RARE]
    if rare:
        lines += ["", "**The computer player's habit, not the game**: where bidding beats passing, the line player's "
                  f"own bidding declares in fewer than {HABIT_RARE:.0%} of the deals: "
                  + "; ".join(f"{c.seat} hand, {c.situation}, {c.hand_class} ({c.player} declares "
                              f"{pct(c.habit.declares.value)}; "
                              f"{_label(c)} gains {_gain(c, c.gain.value, c.gain.low, c.gain.high)})" for c in rare)
                  + ". A player who follows the advice, not the computer player's bidding, gains it."]
    return lines + [""]


def _seats_words(seats: tuple[str, ...]) -> str:
    """"first, second and third" """
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


def situations_section(s: SituationAdvice | None, *, provisional: bool = False, missing: str = "") -> list[str]:
    """The report's section on the score situations below its heading (``provisional``: stamped so,
    from a quick report's sizes; ``missing``: why there is no result, when ``s`` is None)."""
    if s is None:
        return [f"Not made: {missing or 'no result'}.", ""]
    ref = s.situations[0]
    win = [x for x in s.situations if x.objective == "win"]
    lines = [
        f"What to bid as **{_seats_words(s.seats)} hand** in the score situations a player asks about, for "
        f"{len(s.classes)} hand classes of the cheat sheet (its marriage × aces grid, compacted). For each class, "
        f"the first {s.deals:,} random deals (seed {s.seed}) whose hand is of the class were played once per bidding "
        "line, as in the cheat sheet: pass at every turn, or raise by the least step while the bid is at most X, for "
        "every X up to the class's bidding cap, in every situation and as every hand from the same random streams "
        "(the situations differ by the score alone, the hands by the seat alone). A hand that holds the forced "
        "opening bid cannot pass: its \"pass\" is the forced bid, then pass. The situations' scores are the same "
        "for every hand.", "",
        "In the situations everything else (the others' bids, the talon, raising the "
        "contract or conceding, the gifts, the cards) is played by the **score-aware learned player** "
        "(`learned-win`: its bids, final contract and concession weigh the chance of winning the game), and each "
        f"line is valued by {OBJECTIVE_WORDS['win']}, read from {s.win_source or 'the shipped table of win chances'}. "
        "A gain is in points of winning chance a deal (percentage points). The first table, the reference, is the "
        f"zero score by {OBJECTIVE_WORDS['race']} (points a deal), played by the learned player: the cheat sheet's "
        "reading.", "",
        "The plateau and the advice are the settled rule's (section 1, docs/advisor.md): the lines not "
        "shown to lose more than the margin against the best (simultaneous 95% intervals, paired by deal), and "
        "the lowest of them that beats passing with its 95% interval (clustered by deal) above 0; a level reached "
        f"in {untested_words()} is untested. "
        "\"Its own bidding\" is what the computer player does with the hand (the line "
        "player's bidding against passing, how often it ends up declaring and its mean contract after raising): "
        "**the player's habit, not advice**. The chance of winning averages over what the table does not read "
        "(barrel attempts already used, bolts counted).", ""]
    if provisional:
        lines += [f"**Provisional**: from a quick report's {s.deals:,} deals a class; plateaus are wide and may move "
                  "with the full report's sizes.", ""]
    lines += ["### The advice by situation", "",
              "The advice of every situation (\"~\": the plateau is not settled at these sizes; the details below "
              "give each with its plateau and gain):", ""]
    headers = ["hand (7 cards)"] + [x.key for x in s.situations]
    for seat in s.seats:
        lines += [f"**{seat_heading(s, seat)}**", ""]
        lines += markdown_table(headers, [[h] + [_short(s.cell(x.key, h, seat)) for x in s.situations]
                                          for h in s.classes])
    lines += ["Columns: " + "; ".join(f"**{x.key}**: {x.name}" for x in s.situations) + ".", ""]
    for x in (ref, *win):
        unit = UNIT[x.objective][1]
        scores = scores_text(x.situation(s.rules))
        lines += [f"### {x.name[0].upper()}{x.name[1:]}", "",
                  f"Scores before the deal: {scores}; lines played by {x.player} in every seat, valued by "
                  f"{OBJECTIVE_WORDS[x.objective]} ({unit}).", ""]
        for seat in s.seats:
            rows = [[h, advice_cell(c), _habit(c)] for h in s.classes for c in [s.cell(x.key, h, seat)]]
            lines += [f"**{seat_heading(s, seat, short=True)}**", ""]
            lines += markdown_table(["hand (7 cards)", "advice (plateau): gain over passing",
                                     f"its own bidding ({x.player}'s habit)"], rows)
    lines += situations_reading(s, provisional=provisional)
    lines += ["How to read it: where a situation's advice differs from the reference's, the score changes what to "
              "bid; the reference's gains are points, the situations' are chances, so compare the advice, not the "
              "numbers. Reproduce one hand in one situation with `thousand bid HAND --seat SEAT --score S "
              "--left-score L --right-score R` (with `--on-barrel` / `--left-on-barrel`, and `--attempts N`).", ""]
    return lines
