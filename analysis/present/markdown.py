"""The strategy report as Markdown, composed from the analyses' results: one section each (bids,
marriages, the barrel, house rules, players) and the method, with the tables and readings a player
keeps. ``analysis.report`` computes the results and writes the files; this module only words them."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from analysis.present.text import players_text, worth_contracts_text
from sim import __version__
from sim.game.cards import SUIT_SYMBOLS

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, BarrelSummary, Share
    from analysis.bids.results import BidTable, CheatRow, SeatAdvice
    from analysis.compare import Comparison
    from analysis.marriages.odds import MarriageOdds
    from analysis.report_plan import Sizes
    from analysis.strategy import Difference, Estimate, StrategyReport
    from analysis.tournament import TournamentResult

__all__ = ["SECTIONS", "pct", "num", "render_markdown"]

# Anchors of the sections, in order (the HTML test checks each is present).
SECTIONS = {"summary": "At a glance", "bids": "1. How much to bid", "marriages": "2. Marriages",
            "barrel": "3. The barrel", "rules": "4. House rules", "players": "5. Players",
            "strategy": "6. Strategy in play", "method": "7. Method", "glossary": "Glossary"}


# ---- tables and numbers ------------------------------------------------------------------------------------
def _table(headers: list[str], rows: list[list]) -> list[str]:
    def cell(x) -> str:
        return str(x).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def _finite(x: float | None) -> bool:
    """A bound to print: not None (no interval in JSON) and not NaN (no interval in a result)."""
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def pct(p: float | None, lo: float | None = None, hi: float | None = None, digits: int = 1) -> str:
    """A share as a percentage, with its 95% interval when given: ``31.0% [29.9, 32.2]``."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    text = f"{100 * p:.{digits}f}%"
    if _finite(lo) and _finite(hi):
        text += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return text


def num(x: float | None, lo: float | None = None, hi: float | None = None, digits: int = 1,
        sign: bool = False) -> str:
    """A number with its 95% interval when given."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    text = f.format(x)
    if _finite(lo) and _finite(hi):
        text += f" [{f.format(lo)}, {f.format(hi)}]"
    return text


def _heading(key: str) -> str:
    return f"## {SECTIONS[key]} {{#{key}}}"


def _figures(figs: list[tuple[str, str]]) -> list[str]:
    return [line for name, caption in figs for line in (f"![{caption}]({name})", "", f"*{caption}*", "")]


def render_markdown(sections: dict, figures: dict, *, rules: list[str], compared: list[str], seed: int,
                    sizes: Sizes, quick: bool, players: tuple[str, ...]) -> str:
    """The report's Markdown: ``sections`` by key (None: a section with nothing to show),
    ``figures`` the (file, caption) pairs each shows, and what made them (the rule sets, the seed,
    the sizes, the tournament's ``players``)."""
    kind = "quick" if quick else "full"
    lines = ["# Thousand: a strategy report", "",
             f"Rules: **{', '.join(rules)}**{'' if rules == ['classic'] else ' (the first for sections 1, 2 and 5)'}; "
             f"seed {seed}; {kind} sample sizes; thousand {__version__}. Measured shares, means and differences carry "
             "their 95% interval in brackets (beside a paired difference, the two sides it compares are printed "
             "plainly: the difference's interval is the one that counts); exact odds are exact; the data behind "
             "each section is in `data/`, and `provenance.json` says what made it. Open a plot (click or tap it) "
             "to read it at full size.", "",
             "Contents: " + " · ".join(f"[{title}](#{key})" for key, title in SECTIONS.items()), ""]
    lines += _section_summary(sections.get("strategy"), sections.get("bids"))
    lines += _section_bids(sections["bids"], figures["bids"])
    lines += _section_marriages(sections["marriages"], figures["marriages"])
    lines += _section_barrel(sections["barrel"], figures["barrel"])
    lines += _section_rules(sections["rules"], figures["rules"])
    lines += _section_players(sections["players"], figures["players"])
    lines += _section_strategy(sections.get("strategy"), figures.get("strategy", []))
    lines += _section_method(sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                             players=players)
    lines += _section_glossary()
    return "\n".join(lines) + "\n"


def _seat_cell(s: SeatAdvice) -> str:
    """One seat's advice in a cheat-sheet cell: "bid to 160: +14.2 [9.0, 19.4]" (the line "bid up
    to 160" against passing at every turn, a deal), "pass", or "forced bid, then pass"."""
    if s.bid is None:
        if s.beyond is None and s.untested_from is not None:
            return f"untested ({'forced bid; ' if s.forced else ''}few auctions reached {s.untested_from})"
        return "forced bid, then pass" if s.forced else "pass"
    more = "; higher untested" if s.beyond is None and s.untested_from is not None else ""
    return f"bid to {s.bid}{more}: {num(s.gain, s.gain_low, s.gain_high, sign=True)}"


def _risk_cell(row: CheatRow) -> str:
    return " / ".join(str(b.bid) if b.bid is not None else "none" for b in row.risks)


def _section_bids(s: BidTable, figs: list) -> list[str]:
    from analysis.bids.results import PLAYERS
    from analysis.bids.value import MIN_REACHED, OBJECTIVE_WORDS

    lines = [_heading("bids"), "",
             f"A bid table of {s.deals:,} random deals (seed {s.seed}). Every number in this section is from the "
             "**learned player** in all three seats (a net trained on the exact solver's values, which bids, raises, "
             "concedes, gives and plays, searching its last three tricks; see the method) unless a column says "
             "otherwise. **pimc** in all three seats "
             f"replays the first {s.pimc_deals:,} deals as a check of its make-rates; the **heuristic** player (all "
             "seats) and **double dummy** (every seat sees every card) stand beside them for comparison. A hand's "
             "class is what it holds before the talon: its marriage by suit (spades 40, clubs 60, diamonds 80, hearts "
             "100; \"two marriages\": two or three) and its aces.", ""]
    lines += _figures(figs)
    lines += ["### The bidding cheat sheet", "",
              f"For each hand class with at least {s.min_n:,} deals and each seat, the class's deals were played with "
              "you holding the hand, once per bidding line: pass, or raise by the least step while the bid is at most "
              "X, for every X up to the class's bidding cap. Everything else (the others' bids, the talon, raising "
              f"the contract after it or conceding, the gifts, the cards) is the {PLAYERS['learned']}. A line's "
              f"result is {OBJECTIVE_WORDS[s.objective]}, from a zero score. Each "
              "line \"bid up to X\" is compared with passing at every turn on all the class's deals: the mean "
              "difference is what following it gains a deal. **Bid to X**: of the levels that at least "
              f"{MIN_REACHED} of the class's auctions reached, X is the one whose line gains most over passing (the "
              "lowest on a tie), when it gains at all; no tested line above X gains more, so beyond X, bidding "
              "further lowers the expected result (at best leaves it). A line's gain adds up what bidding each "
              "level up to X gains where the auction reached it, weighted by how often it is reached: a level the "
              "opponents seldom "
              "leave you (they mostly raise by 10, so the odd levels) weighs little. \"Higher untested\" when "
              "fewer auctions went beyond X (a larger table tests more). Beside it, the line's gain over passing in "
              "points a deal, with its 95% interval clustered by deal (an interval reaching below 0 means the "
              "sample cannot tell the line from passing). \"Untested\": the "
              "opponents so seldom bid against this hand that no level was reached often enough to judge; the "
              "forced or first bid then mostly wins the auction. "
              + (f"{_forced_hand(s).capitalize()} must open (forced_first_bid): for him passing is the forced "
                 "minimum bid, then passing. " if _forced_hand(s) else "Nobody is forced to open under these rules. ")
              + "The last column is risk information only: the "
              "highest contract the learned declarer makes at least 70% / 50% of the time, playing it.", ""]
    rows = [[r.hand_class, f"{r.n:,}", *(_seat_cell(x) for x in r.seats), _risk_cell(r)] for r in s.cheat_sheet]
    if rows:
        lines += _table(["hand (7 cards)", "deals", "first hand", "second hand", "third hand",
                         "makes 70% / 50%"], rows)
    else:
        lines += [f"No hand class has {s.min_n:,} deals in this table: the cheat sheet needs a larger one.", ""]
    if s.detail:
        lines += ["### The same, refined by tens and by the longest suit", "",
                  f"The classes above split by the tens held and by the longest suit's length, where a class keeps "
                  f"{s.min_n:,} deals or more (the same lines, players and result).", ""]
        lines += _table(["hand (7 cards)", "deals", "first hand", "second hand", "third hand"],
                        [[r.hand_class, f"{r.n:,}", *(_seat_cell(x) for x in r.seats)] for r in s.detail])
    lines += ["### The learned player checked against pimc", ""]
    if s.comparison:
        lines += [f"On the first {s.comparison[0].n:,} deals each player declared the same hands, playing all three "
                  "seats (make-rate with its 95% interval; the learned player plays each contract as that contract, "
                  f"the others once for points). \"learned − pimc\" is paired by deal; the {s.comparison[-1].contract} "
                  "row is the share of those contracts made, its interval clustered by deal (a deal's contracts are "
                  "not independent trials); p-values are Holm-corrected over the rows.", ""]
        lines += _table(["contract", "deals", "learned (all seats)", "pimc (all seats)",
                         "learned − pimc (percentage points)", "Holm p", "heuristic (all seats)", "double dummy"],
                        [[r.contract, f"{r.n:,}", pct(*r.learned), pct(*r.pimc),
                          num(*(100 * x for x in r.diff), sign=True), f"{r.p_holm:.3f}", pct(*r.heuristic),
                          pct(*r.dd)] for r in s.comparison])
        lines += [_comparison_reading(s), ""]
    else:
        lines += ["pimc played no deal of this table.", ""]
    lines += ["### What this means at the table", ""] + _reading_bids(s) + [""]
    return lines


def _comparison_reading(s: BidTable) -> str:
    differ = [r for r in s.comparison if r.differ]
    if not differ:
        widest = max(max(abs(r.diff[1]), abs(r.diff[2])) for r in s.comparison if _finite(r.diff[1])) \
            if any(_finite(r.diff[1]) for r in s.comparison) else math.nan
        return ("The learned player's make-rates do not differ from pimc's at the 5% level after Holm's correction"
                + (f"; on these deals the differences could still be as large as {100 * widest:.0f} percentage "
                   "points." if _finite(widest) else "."))
    parts = [f"{r.contract} ({'higher' if r.diff[0] > 0 else 'lower'} by {100 * abs(r.diff[0]):.1f} percentage "
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
        sure = [r for r in bidding if _finite(r.seat(seat).gain_low) and r.seat(seat).gain_low > 0]
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
                   f"({num(x.gain, x.gain_low, x.gain_high, sign=True)} a deal against always passing, the most of "
                   "its tested lines); the learned declarer "
                   f"makes {_risk_cell(r)} at 70% / 50%.")
    differ = [r.contract for r in s.comparison if r.differ]
    if s.comparison:
        out.append("- The make-rates rest on the learned player; pimc, replaying the first deals, "
                   + (f"differs from it at {', '.join(differ)} (see the check above)." if differ else
                      "does not differ from it at the 5% level (see the check above for how much it could)."))
    return out


# Exact marriage odds the report shows, in order.
_MARRIAGE_QUANTITIES = [
    "hand: at least one marriage", "hand: marriages = 0", "hand: marriages = 1", "hand: marriages = 2",
    "hand: ♥ marriage", "10 cards: at least one marriage", "talon: completes one of 1 half marriages",
    "talon: completes one of 2 half marriages", "talon: completes one of 3 half marriages",
    "talon: brings a whole marriage, 2 suits unheld", "talon: brings an ace, 2 not held",
    "deal: no marriage in any hand", "deal: marriages in the three hands = 1",
]


def _section_marriages(s: MarriageOdds, figs: list) -> list[str]:
    by = {r.quantity: r for r in s.rows}
    values = " ".join(f"{sym} {v}" for sym, v in zip(SUIT_SYMBOLS, s.rules.marriage_values, strict=True))
    lines = [_heading("marriages"), "",
             f"Marriage values: {values}. The odds below are **exact** (counted over every deal) beside the same "
             f"quantity measured in {s.deals:,} random deals (seed {s.seed}; dealt, not played: no player is "
             "involved).", ""]
    rows = [[q, f"{by[q].exact.numerator}/{by[q].exact.denominator}", pct(by[q].p, digits=2),
             pct(by[q].simulated, by[q].ci_low, by[q].ci_high, digits=2), f"{by[q].n:,}"]
            for q in _MARRIAGE_QUANTITIES if q in by]
    lines += _table(["quantity", "exact", "exact %", "simulated [95%]", "deals"], rows)
    lines += _odds_check(s)
    lines += _figures(figs[:1])
    worth = s.worth.rows if s.worth is not None else ()
    if worth:
        w = s.worth
        lines += ["### What a marriage is worth", "",
                  f"From the bid table: the declarer's points when he plays 120, with the suit's marriage among his 10 "
                  f"cards (hand and talon) against without, played by the {players_text((w.player,) * 3)} and, as a "
                  f"bound with every card seen, double dummy (dd); and the highest contract the {w.player} declarer "
                  f"makes {1 - w.risk:.0%} of the time in each group.", ""]
        lines += _table(["marriage", "deals with / without", "points gained", "same aces: gained", "dd points gained",
                         "makes 120: with / without", f"{1 - w.risk:.0%} contract: with / without"],
                        [[f"{r.suit} {_suit_value(s, r.suit)}", f"{r.n_with:,} / {r.n_without:,}",
                          num(*r.learned_gain, sign=True), num(*r.learned_gain_same_aces, sign=True),
                          num(*r.dd_gain, sign=True),
                          f"{pct(*r.learned120_with)} / {pct(*r.learned120_without)}", worth_contracts_text(r)]
                         for r in worth])
        lines += _figures(figs[1:])
    for play in s.play:
        burns = any(r.declared_burnt[0] > 0 for r in play.rows if r.held)
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
        lines += _table(["role", "suit", "held", "declared"] + (["declared, burnt"] if burns else [])
                        + ["no trick won", "cards played first"],
                        [[r.role, r.suit, f"{r.held:,}", pct(*r.declared)]
                         + ([pct(*r.declared_burnt)] if burns else []) + [pct(*r.no_trick_won),
                                                                          pct(*r.cards_played_first)]
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
            verdict = ("less than its face value" if gain[2] < face else
                       "more than its face value" if gain[1] > face else "about its face value")
            verdicts.setdefault(verdict, []).append(f"{r.suit} {face}: {num(*gain, sign=True)}")
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


def _suit_value(s: MarriageOdds, symbol: str) -> int:
    return s.rules.marriage_values[SUIT_SYMBOLS.index(symbol)]


def _section_barrel(s: BarrelStats | None, figs: list) -> list[str]:
    from analysis.barrel import LEFT_DOWNWARD

    lines = [_heading("barrel"), ""]
    if s is None:
        return lines + ["None of the rule sets has a barrel (barrel = none): there is nothing to report.", ""]
    summaries = s.summaries
    labels = list(summaries)
    lines += [f"{s.games:,} whole games per rule set, played by the {players_text(s.players)} (seed {s.seed}). A "
              "barrel episode starts when a player climbs onto the barrel and ends when he leaves it: upward "
              "(he wins), or falling"
              + (", or on a range barrel downward without a fall (his score fell below it)."
                 if any(v.fates[LEFT_DOWNWARD].k for v in summaries.values()) else "."), ""]
    def share(x: Share) -> str:
        return pct(x.p, x.ci_low, x.ci_high) if x.n else "–"
    rows = [["games / episodes"] + [f"{v.games:,} / {v.episodes:,}" for v in summaries.values()]]
    # Every way an episode ends, each once: the rows down to "unfinished" add up to all episodes.
    rows.append(["leaves upward (wins)"] + [share(v.fates["up"]) for v in summaries.values()])
    fates = [f for f in next(iter(summaries.values())).fates if f.startswith("fell")]
    for f in fates + [LEFT_DOWNWARD, "another player won", "unfinished"]:
        if any(v.fates[f].k for v in summaries.values()):
            rows.append([f] + [share(v.fates[f]) for v in summaries.values()])
    rows.append(["of the falls above: to zero"] + [share(v.fell_to_zero) for v in summaries.values()])
    for a in (1, 2, 3):
        rows.append([f"wins on attempt {a}, of those reaching it"]
                    + [share(v.up_once_reached[a]) for v in summaries.values()])
    rows.append(["game length (deals)"] + [num(v.game_length.mean, v.game_length.ci_low, v.game_length.ci_high)
                                           for v in summaries.values()])
    lines += _table(["share of barrel episodes (the last rows: of the episodes reaching each attempt)"] + labels,
                    rows)
    lines += _figures(figs)
    first = summaries[labels[0]]
    curve = [(c, v) for c, v in first.win_from_score.items() if v.n >= 30]
    if curve:
        lines += [f"Chance of winning the game from your score when you deal ({labels[0]}; classes of 100 points, "
                  "at least 30 games each):", ""]
        lines += _table(["score", "games", "wins the game"], [[f"{c} to {c + 95}", f"{v.n:,}", share(v)]
                                                              for c, v in curve])
    up, fell = first.fates["up"], first.fell
    causes = sorted(((f, first.fates[f]) for f in fates), key=lambda fv: -fv[1].p)
    lines += ["### What this means at the table", "",
              f"- Under {labels[0]} ({players_text(s.players)}), a player on the barrel leaves it upward "
              f"{pct(up.p)} of the time and falls "
              f"{pct(fell.p)}; the commonest fall is \"{causes[0][0].split(': ', 1)[-1]}\" "
              f"({pct(causes[0][1].p)} of episodes).",
              f"- Of the episodes that reach it, the first attempt wins {pct(first.up_once_reached[1].p)}, the "
              f"second {pct(first.up_once_reached[2].p)} and the third {pct(first.up_once_reached[3].p)}"
              + _attempts_reading(first) + ".", ""]
    return lines


def _attempts_reading(s: BarrelSummary) -> str:
    """What the attempts' chances say, only as far as their 95% intervals do: whether they overlap."""
    shares = [s.up_once_reached[a] for a in (1, 2, 3) if s.up_once_reached[a].n]
    if len(shares) < 2:
        return ""
    if max(x.ci_low for x in shares) <= min(x.ci_high for x in shares):
        return ": their intervals overlap, so no attempt is shown to be better than another"
    return ": their intervals do not all overlap"


def _section_rules(s: Comparison | None, figs: list) -> list[str]:
    lines = [_heading("rules"), ""]
    if s is None:
        return lines + ["Only one rule set: give two or more with --rules to compare them.", ""]
    labels = list(s.rule_sets)
    lines += [f"{len(labels)} rule sets, {s.games:,} whole games each on the same deals (common random numbers, "
              f"seed {s.seed}), played by the {players_text(s.players)}. Each metric's difference to {labels[0]} "
              "with a "
              "paired 95% interval; a difference is **significant** when its Holm-corrected p-value (over every "
              "metric and rule set) is below 5%.", ""]
    rules_rows = []
    rules = s.provenance["rules"]  # each rule set's every option, as stored with the comparison
    base = rules[labels[0]]
    for label in labels:
        changes = {k: v for k, v in rules[label].items() if base.get(k) != v}
        rules_rows.append([label, ", ".join(f"{k} = {v}" for k, v in changes.items()) or "(the first set)"])
    lines += _table(["rule set", "what differs from the first"], rules_rows)
    sig = sorted([r for r in s.rows if r.significant], key=lambda r: (r.rules, r.p_holm))
    lines += [f"{len(sig)} of {len(s.rows)} differences are significant:", ""]
    if sig:
        lines += _table(["rule set", "metric", labels[0], "this set", "difference [95%]", "p (Holm)"],
                        [[r.rules, r.metric, num(r.first, digits=3), num(r.value, digits=3),
                          num(r.diff, r.ci_low, r.ci_high, digits=3, sign=True), f"{r.p_holm:.2g}"]
                         for r in sig])
    lines += _figures(figs)
    lines += ["### What this means at the table", ""]
    length = [r for r in s.rows if r.metric == "game length (deals)"]
    for r in length:
        verdict = "significantly" if r.significant else "not significantly"
        lines.append(f"- {r.rules} ({players_text(s.players)}): games last {num(r.value)} deals against "
                     f"{num(r.first)} "
                     f"({num(r.diff, r.ci_low, r.ci_high, sign=True)}), {verdict} different.")
    if not length:
        lines.append("- Every difference is listed in `data/rules.json`.")
    return lines + [""]


def _section_players(s: TournamentResult, figs: list) -> list[str]:
    lines = [_heading("players"), "",
             f"A duplicate tournament: {s.size:,} whole games in each of the {len(s.seatings)} seatings of "
             f"{', '.join(sorted(r.player for r in s.players))} (seed {s.seed}), so every player meets the "
             "same cards in every seat. "
             "`learned` is our player trained on the exact solver's values (docs/learned.md); `leadage` is the "
             "computer player of the open-source game Leadage/tysyacha-1000, ported.", ""]
    rows = [[k + 1, r.player, pct(r.win_share, r.win_ci_low, r.win_ci_high),
             num(r.final_score, r.score_ci_low, r.score_ci_high, digits=0),
             num(r.score_per_deal, r.score_per_deal_ci_low, r.score_per_deal_ci_high)]
            for k, r in enumerate(s.players)]
    lines += _table(["rank", "player", "win share [95%]", "final score", "score per deal"], rows)
    lines += ["How they bid and play their contracts:", ""]
    lines += _table(["player", "declares (share of deals)", "mean contract", "make-rate", "concedes",
                     "points as declarer", "points as defender"],
                    [[r.player, pct(r.declarer_share, r.declarer_share_ci_low, r.declarer_share_ci_high),
                      num(r.mean_contract, r.mean_contract_ci_low, r.mean_contract_ci_high),
                      pct(r.make_rate, r.make_rate_ci_low, r.make_rate_ci_high),
                      pct(r.concession_rate, r.concession_rate_ci_low, r.concession_rate_ci_high),
                      num(r.declarer_points_per_deal, r.declarer_points_per_deal_ci_low,
                          r.declarer_points_per_deal_ci_high),
                      num(r.defender_points_per_deal, r.defender_points_per_deal_ci_low,
                          r.defender_points_per_deal_ci_high)] for r in s.players])
    lines += _table(["pair", "difference in win share [95%]", "p (Holm)", "significant"],
                    [[f"{r.player} vs {r.against}", num(r.diff, r.ci_low, r.ci_high, digits=3,
                                                              sign=True),
                      f"{r.p_holm:.2g}", "yes" if r.significant else "no"] for r in s.pairs])
    lines += _figures(figs)
    win, rest = s.players[0], s.players[1:]
    lines += ["### What this means at the table", ""]
    if rest:
        other = rest[0]
        lines.append(f"- {win.player} wins {pct(win.win_share)} of the games, {other.player} "
                     f"{pct(other.win_share)}.")
        lines.append(f"- The winner's bidding: it declares {pct(win.declarer_share)} of the deals "
                     f"({other.player}: {pct(other.declarer_share)}) at a mean contract of "
                     f"{num(win.mean_contract)} ({num(other.mean_contract)}), makes {pct(win.make_rate)} "
                     f"of the contracts it plays ({pct(other.make_rate)}) and concedes "
                     f"{pct(win.concession_rate)} ({pct(other.concession_rate)}).")
    return lines + [""]


def _players_option(players: tuple[str, ...] | None) -> str:
    """`` --players NAME`` for a reproducing command, seat by seat unless every seat is the same;
    "" for no players (a section without a result)."""
    if not players:
        return ""
    return f" --players {players[0] if len(set(players)) == 1 else ','.join(players)}"


def _who_played(sections: dict, marriage_players: tuple[str, ...] | None) -> str:
    """Who played the deals of each section that plays, in one sentence (empty when none did)."""
    played = {"marriages": marriage_players, "barrel": sections["barrel"] and sections["barrel"].players,
              "rules": sections["rules"] and sections["rules"].players}
    parts = [f"{SECTIONS[key]}: the {players_text(players)}" for key, players in played.items() if players]
    if sections.get("players") is not None:
        parts.append(f"{SECTIONS['players']}: {', '.join(sections['players'].player_types)}, ranked")
    return f" Who played: {'; '.join(parts)}." if parts else ""


def _section_method(sections: dict, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes,
                    quick: bool, players: tuple[str, ...]) -> list[str]:
    from sim.game.rules import load_rules

    bids: BidTable = sections["bids"]
    advised = [x for r in bids.cheat_sheet for x in r.seats if x.bid is not None]
    sure = [x for x in advised if _finite(x.gain_low) and x.gain_low > 0]
    marriages: MarriageOdds = sections["marriages"]
    marriage_players = marriages.play[0].players if marriages.play else None
    r0 = rules[0]
    rules_args = " ".join(f"--rules {r}" for r in compared)
    lines = [_heading("method"), "",
             "**Players.** *heuristic*: our rule-based player (hand evaluation, bidding with a margin, card play by "
             "rules of thumb; it sees only its cards). *pimc*: perfect-information Monte Carlo: at each decision it "
             "deals the unseen cards consistently with what it knows, solves each layout double dummy and plays the "
             "card best on average. *dd*: double dummy, every seat seeing every card and playing perfectly: the "
             "declarer never guesses wrong, but neither do the defenders, so it is no bound on what a real "
             "declarer makes, and never a forecast of real play. *learned*: a small net "
             "trained on the exact solver's values of positions it reached itself, which bids, gives and plays, "
             "and plays its last three tricks by PIMC over 6 worlds (docs/learned.md). *leadage*: the ported "
             "bot." + _who_played(sections, marriage_players),
             "",
             "**Statistics.** Shares carry Wilson 95% intervals; means normal intervals; differences between rule "
             "sets and players are paired (the same deals) and Holm-corrected. The cheat sheet's gains over passing "
             "are paired differences on the same deals; rows that share deals are clustered by deal.", "",
             f"**Sizes and seeds** ({'quick' if quick else 'full'} report, seed {seed} everywhere):", ""]
    lines += _table(["what", "size"], [[k.replace("_", " "), f"{v:,}"] for k, v in dataclasses.asdict(sizes).items()])
    lines += [f"Stability of the cheat sheet: of its {len(advised)} advice to bid (a class and a seat), {len(sure)} "
              "have a gain over passing whose 95% interval lies wholly above 0; the others beat passing on the "
              "point estimate only, and a larger table would pin them down.", "",
              "**Reproduce every figure** (the same seed and sizes give the same numbers; each command's `--json` "
              "gives the data the report printed):", "",
              "```bash",
              f"thousand tables bids --deals {sizes.bid_deals} --pimc-deals {sizes.pimc_deals} --rules {r0} "
              f"--seed {seed} --min-n {sizes.min_n} --json",
              f"thousand tables marriages --deals {sizes.marriage_deals} --play-deals {sizes.marriage_play_deals} "
              f"--rules {r0}{_players_option(marriage_players)} --seed {seed} --bids out/tables/bids.parquet "
              "--out out/marriages --json",
              f"thousand tables barrel --games {sizes.barrel_games} "
              + " ".join(f"--rules {r}" for r in compared if load_rules(r).barrel is not None)
              + f"{_players_option(sections['barrel'] and sections['barrel'].players)} --seed {seed} --json",
              f"thousand compare {' '.join(compared)} --games {sizes.compare_games}"
              f"{_players_option(sections['rules'] and sections['rules'].players)} --seed {seed} --json",
              f"thousand tournament {' '.join(players)} --games {sizes.tournament_games} --rules {r0} "
              f"--seed {seed} --json",
              f"thousand tables strategy --games {sizes.strategy_games} --deals {sizes.strategy_deals} "
              f"--rules {r0} --seed {seed} --json",
              f"thousand report {rules_args if len(rules) > 1 else '--rules ' + r0}{' --quick' if quick else ''} "
              f"--seed {seed}",
              "```", "",
              "The rules are in `provenance.json` (every option) and `docs/RULES.md` (what each means).", ""]
    return lines


# ---- the strategy sections (analysis.strategy) ------------------------------------------------------------------
def _est(e: Estimate, share: bool = True, digits: int = 1, sign: bool = False) -> str:
    """An estimate with its 95% interval: a share as a percentage, or a mean."""
    if not e.n:
        return "–"
    return pct(e.value, e.low, e.high, digits) if share else num(e.value, e.low, e.high, digits, sign=sign)


def _diff(x: Difference, share: bool = True, unit: str = "") -> str:
    """A difference with its 95% interval (a difference of shares in points of percentage, else
    followed by ``unit``) and its Holm-corrected p-value."""
    if isinstance(x.diff, float) and math.isnan(x.diff):
        return "–"
    scale, unit = (100, " points of percentage") if share else (1, unit)
    ends = [v for v in (x.low, x.high) if _finite(v)]
    # A difference whose interval lies within +-0.05 would print as -0.0 [-0.0, -0.0]: more digits.
    digits = 2 if max(abs(scale * v) for v in [x.diff, *ends]) < 0.1 else 1
    text = f"{scale * x.diff:+.{digits}f}"
    if _finite(x.low) and _finite(x.high):
        text += f" [{scale * x.low:+.{digits}f}, {scale * x.high:+.{digits}f}]"
    text += unit
    if _finite(x.p_holm):
        text += f" (Holm p {'< 0.001' if x.p_holm < 0.001 else f'{x.p_holm:.2g}'})"
    return text


def _shown_apart(x: Difference) -> bool:
    """A difference the numbers support: Holm-corrected p below 5%."""
    return _finite(x.p_holm) and x.p_holm < 0.05


# A difference of card points below this is too small to matter at the table, however sure the
# sample is of it (the discard's left less right: 0.02 points on 20,000 games).
_NEGLIGIBLE_POINTS = 0.5


def _negligible(x: Difference) -> bool:
    """A difference of points the numbers support but too small to matter (``_NEGLIGIBLE_POINTS``)."""
    return _shown_apart(x) and abs(x.diff) < _NEGLIGIBLE_POINTS


def _players_phrase(players: tuple[str, ...]) -> str:
    names = list(dict.fromkeys(players))
    return f"the {names[0]} player at every seat" if len(names) == 1 else "players " + ", ".join(players)


def _strategy_intro(s: StrategyReport) -> str:
    return (f"Measured on {s.games:,} whole games ({s.score.deals:,} played deals) of {_players_phrase(s.players)}, "
            f"rules {s.rules_name}, seed {s.seed}; intervals are 95% and clustered by game (the deals of one game "
            "share its score situation). These numbers describe what the player does and how it fares; only the "
            "concession's comparison is a what-if, measured on the same deals.")


def _bidding_summary(bids: BidTable | None) -> list[str]:
    """The cheat sheet in a few bullets: hands without a marriage, then each marriage with one and
    with two aces, by seat (the advice and numbers of section 1)."""
    if bids is None or not bids.cheat_sheet:
        return []
    rows = {r.hand_class: r for r in bids.cheat_sheet}
    out = [f"**How much to bid** (the cheat sheet of [section 1](#bids): the learned player in every seat, "
           f"{bids.deals:,} deals; first / second / third hand; X: the tested level whose line \"bid up to X\" "
           "gains most over always passing, that gain with its 95% interval printed there):", ""]
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
    return out + [""]


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


def _seat_finding(forced: str | None, first: Difference) -> str:
    """The summary's heading for first hand's score change against the dealer's (``first``), read
    from its Holm-corrected test (as every "significant" of the report) and from who holds the forced
    opening (``SeatStats.forced``)."""
    significant = first.p_holm < 0.05
    if significant and first.diff < 0:
        if forced == "first hand":
            return "First hand pays for the forced opening."
        if forced is None:
            return "First hand loses against the dealer, with nobody forced to open."
        return "First hand loses against the dealer, though the dealer holds the forced opening."
    if significant and first.diff > 0:
        if forced == "first hand":
            return "First hand gains against the dealer despite the forced opening."
        if forced is None:
            return "First hand gains against the dealer, with nobody forced to open."
        return "The dealer pays for the forced opening."
    return ("First hand's forced opening costs nothing the numbers show." if forced == "first hand" else
            "First hand and the dealer score alike.")


def _section_summary(s: StrategyReport | None, bids: BidTable | None = None) -> list[str]:
    lines = [_heading("summary"), ""] + _bidding_summary(bids)
    if bids is not None and bids.cheat_sheet:
        lines += ["(\"forced bid\": the forced opening, then pass; \"120+\": bid to 120, higher untested; "
                  "\"untested\": too few auctions went above the opening to judge.)", ""]
    if s is None:
        return lines + ["The strategy sections were not measured for this report.", ""]
    who = _players_phrase(s.players)
    lines += [f"The findings to keep, each from {who} ({s.games:,} games, rules {s.rules_name}; the numbers and "
              "their 95% intervals are those of [section 6](#strategy)):", ""]
    seat = s.seats
    first = seat.change_difference["first hand"]
    lines.append(f"- **{_seat_finding(seat.forced, first)}** First hand declares "
                 f"{_est(seat.by_position['first hand']['declares'])} of the deals and makes "
                 f"{_est(seat.by_position['first hand']['made'])} of what it plays; its score moves "
                 f"{_diff(first, share=False, unit=' points a deal')} against the dealer's, on the same deals. The "
                 "seats rotate, so this is the seat's own effect under this player's bidding.")
    p = s.conceding.paired
    if p is not None and p.conceded:
        saved = p.saved_race
        verdict = ("the concessions paid" if saved.low > 0 else "the concessions cost points" if saved.high < 0
                   else "no difference is shown")
        lines.append(f"- **Conceding a hopeless contract** (it concedes {_est(s.conceding.conceded)} of its "
                     f"contracts): on the same {p.conceded:,} deals played on instead, it would have made "
                     f"{_est(p.made_if_played)} of them, and conceding left it "
                     f"{num(saved.value, saved.low, saved.high, sign=True)} "
                     f"points a deal better off against the opponents' mean (its own score alone: "
                     f"{num(p.saved_own.value, p.saved_own.low, p.saved_own.high, sign=True)}): {verdict}.")
    r = s.raising
    lines.append(f"- **Raising after the talon**: it raises {_est(r.choice['raise'])} of its contracts, by "
                 f"{_est(r.mean_raise, share=False)} points on average, most often when the talon completes a "
                 f"marriage ({_est(r.talon['completes a marriage']['raise'])} of those deals). It raises when it "
                 f"expects to make it: raised contracts are made {_est(r.made['raised'])}, the others "
                 f"{_est(r.made['not raised'])} (an observation, not the effect of raising).")
    dis = s.discard
    lines.append(f"- **The discard**: of the cards given to the left, nines make {_est(dis.rank['left']['9'])} "
                 f"and jacks {_est(dis.rank['left']['J'])}; to the right {_est(dis.rank['right']['9'])} and "
                 f"{_est(dis.rank['right']['J'])}; aces {_est(dis.rank['left']['A'])} and "
                 f"{_est(dis.rank['right']['A'])}. The points given differ by "
                 f"{_diff(dis.points_difference, share=False, unit=' points')} (left less right)"
                 + (", too small to matter at the table though the numbers tell it from none."
                    if _negligible(dis.points_difference) else ", a difference the numbers support."
                    if _shown_apart(dis.points_difference) else ": no difference is shown."))
    held = s.defence.by_held
    lines.append(f"- **A marriage kept is most of a contract**: with one marriage among his 8 cards the declarer "
                 f"makes {_est(held['1 marriage']['made'])}, with none {_est(held['no marriage']['made'])}; "
                 f"he gets to declare it {_est(held['1 marriage']['declares one or more'])} of the time.")
    sc = s.score
    if sc.barrel is not None and sc.sitter_deals:
        lines.append(f"- **On the barrel** it declares {_est(sc.sitter['declares'])} of its deals there and makes "
                     f"{_est(sc.sitter['made'])} of those contracts; {_est(sc.sitter['below the minimum'])} of them "
                     + (f"are below {sc.barrel_min_contract}, which cannot take it off upward " if sc.barrel_freeze
                        else "are below what its score lacks to the target, which cannot win the game ")
                     + (f"(every one of them {sc.forced_opening})."
                        if sc.sitter['forced opening, of those below'].value == 1 else
                        f"({_est(sc.sitter['forced opening, of those below'])} of these being "
                        f"{sc.forced_opening})."))
    if sc.bolt_penalty:
        lines.append(f"- **Bolt penalties** (−{sc.bolt_penalty}) land {_est(sc.bolt_penalty_per_game, share=False)} "
                     f"times a game; {_est(sc.bolt_penalty_games)} of games see at least one.")
    return lines + ["", "Terms are explained in the [glossary](#glossary).", ""]


def _section_strategy(s: StrategyReport | None, figs: list) -> list[str]:
    lines = [_heading("strategy"), ""]
    if s is None:
        return lines + ["The strategy sections were not measured for this report.", ""]
    lines += [_strategy_intro(s), ""]
    lines += _figures(figs)
    lines += _strategy_raising(s) + _strategy_conceding(s) + _strategy_discard(s) + _strategy_order(s)
    lines += _strategy_defence(s) + _strategy_seats(s) + _strategy_score(s)
    return lines


def _strategy_raising(s: StrategyReport) -> list[str]:
    r = s.raising
    lines = ["### 6.1 Raising after the talon", "",
             f"Of {r.decisions:,} contracts bid in an ordinary auction, once the declarer has seen the talon and "
             "given his two cards: how often he raises the contract above his winning bid, keeps it or concedes, "
             "by what the talon brought him (the talon situations exclude each other, in this order).", ""]
    rows = [["all contracts", "100%", *(_est(v) for v in r.choice.values()), _est(r.mean_raise, share=False)]]
    for label, cell in r.talon.items():
        rows.append([f"the talon {label}", _est(cell["share of decisions"]), *(_est(cell[c]) for c in r.choice),
                     _est(cell["mean raise"], share=False)])
    lines += _table(["situation", "share of contracts", "raises", "keeps the bid", "concedes", "mean raise (points)"],
                    rows)
    lines += _table(["raise", "share of raises"], [[k, _est(v)] for k, v in r.raise_size.items()])
    lines += _table(["contract played", "made", "declarer's mean result"],
                    [[k, _est(r.made[k]), _est(r.result[k], share=False, sign=True)] for k in r.made])
    lines += [f"- The player raises {_est(r.choice['raise'])} of its contracts; a marriage from the talon is the "
              f"commonest reason ({_est(r.talon['completes a marriage']['raise'])} raised when the talon completes "
              f"one, {_est(r.talon['brings none of these']['raise'])} when it brings neither marriage nor ace).",
              f"- Raised contracts are made {_est(r.made['raised'])} against {_est(r.made['not raised'])} for the "
              f"others ({_diff(r.made_difference)}). The player raises only hands it expects to make, so this "
              "says its raises are safe, not that raising makes a contract.", ""]
    return lines


def _strategy_conceding(s: StrategyReport) -> list[str]:
    c = s.conceding
    lines = ["### 6.2 Conceding", ""]
    if not c.allowed:
        return lines + [f"These rules ({s.rules_name}) do not allow conceding.", ""]
    lines += [f"The declarer may concede (write the deal off) after the talon and his discard, except while "
              f"somebody sits on the barrel: he loses his bid and each opponent scores half of it. The player "
              f"concedes {_est(c.conceded)} of its {c.decisions:,} contracts.", ""]
    lines += _table(["winning bid", "conceded"], [[k, _est(v)] for k, v in c.by_bid.items()])
    lines += _table(["kept after the discard", "conceded"],
                    [[k if "marriage" in k else f"{k} marriages", _est(v)] for k, v in c.by_marriages.items()]
                    + [[f"{k} ace{'' if k == '1' else 's'}", _est(v)] for k, v in c.by_aces.items()])
    p = c.paired
    if p is None or not p.conceded:
        return lines + ["No deal of the paired runs was conceded: there is no comparison to show.", ""]
    lines += [f"**What a concession saves, on the same deals.** {p.deals:,} deals from a zero score were played twice "
              f"from the same seed: once under these rules and once with conceding turned off (`concede = false`), "
              "everything else equal. The deals, auctions and discards were identical in both "
              f"({p.mismatched} deals differed{' and were left out' if p.mismatched else ''}); the "
              f"{p.conceded:,} contracts conceded in the first were played on in the second.", ""]
    lines += _table(["the conceded deals", "conceding", "playing on", "conceding less playing on"],
                    [["declarer's own result", num(p.own.a, sign=True), num(p.own.b, sign=True),
                      num(p.saved_own.value, p.saved_own.low, p.saved_own.high, sign=True)],
                     ["declarer less the opponents' mean (race)", num(p.race.a, sign=True), num(p.race.b, sign=True),
                      num(p.saved_race.value, p.saved_race.low, p.saved_race.high, sign=True)],
                     ["contracts made", "–", _est(p.made_if_played), ""]])
    by_bid = [[k, f"{v.n:,}", num(v.value, v.low, v.high, sign=True)] for k, v in p.saved_race_by_bid.items() if v.n]
    lines += _table(["winning bid", "conceded deals", "race value saved by conceding"], by_bid)
    saved = p.saved_race
    lines += [f"- Played on, the conceded contracts are made {_est(p.made_if_played)} of the time: the player "
              "concedes hands that are lost.",
              "- " + ("Conceding them gave up fewer points to the race than playing on would have "
                      if saved.low > 0 else "Conceding them cost points in the race against playing on "
                      if saved.high < 0 else "Conceding or playing on them made no difference the numbers show ")
              + f"({num(saved.value, saved.low, saved.high, sign=True)} a conceded deal): the opponents score half "
              "the bid instead of their card points.",
              f"- The declarer's own result, conceding less playing on: "
              f"{num(p.saved_own.value, p.saved_own.low, p.saved_own.high, sign=True)} a conceded deal"
              + (": no difference is shown." if p.saved_own.low <= 0 <= p.saved_own.high else
                 " (the rare hand that would have been made when played on)." if p.saved_own.high < 0 else "."), ""]
    return lines


def _strategy_discard(s: StrategyReport) -> list[str]:
    d = s.discard
    lines = ["### 6.3 The discard: which cards to whom", "",
             f"The two cards the declarer gives after taking the talon, over {d.gifts:,} deals: to his **left** "
             "(the player after him, who plays second to his leads) and to his **right** (who plays third).", ""]
    rows = [["mean card points", _est(d.points["left"], share=False), _est(d.points["right"], share=False)]]
    rows += [[f"share of {_RANK_WORDS[rank]}", _est(d.rank["left"][rank]), _est(d.rank["right"][rank])]
             for rank in d.rank["left"]]
    rows += [["a card of a suit in which he keeps a marriage", _est(d.trump["left"]), _est(d.trump["right"])],
             ["a king or queen breaking his marriage", _est(d.breaks_marriage["left"]),
              _est(d.breaks_marriage["right"])]]
    lines += _table(["card given", "to the left", "to the right"], rows)
    lines += _table(["the declarer", "share of deals", "made (contracts played)", "mean result"],
                    [[k, _est(v["share of deals"]), _est(v["made"]), _est(v["result"], share=False, sign=True)]
                     for k, v in d.outcome.items() if v["share of deals"].value > 0])
    pd = d.points_difference
    verdict = (": under half a point, too small to matter at the table, though the numbers tell it from none."
               if _negligible(pd) else "." if _shown_apart(pd) else ": the player gives as much to either side.")
    lines += [f"- Points given to the left less those to the right: {_diff(pd, share=False)}{verdict}",
              f"- Contracts in which it gave an ace or a ten were made {_diff(d.made_difference['ace or ten'])} "
              "more often than the others: it gives them away from strong hands (where it can spare them), so "
              "this is no advice to give high cards.", ""]
    return lines


_RANK_WORDS = {"9": "nines", "J": "jacks", "Q": "queens", "K": "kings", "10": "tens", "A": "aces"}


def _strategy_order(s: StrategyReport) -> list[str]:
    m = s.marriage_order
    lines = ["### 6.4 Which marriage to declare first", "",
             f"Contracts played by a declarer keeping two or more marriages among his 8 cards ({m.deals:,} deals). A "
             "marriage is declared by leading its king or queen after winning a trick; \"higher first\" means "
             "the first marriage declared was worth more than the second.", ""]
    lines += _table(["order", "share of deals", "made", "declarer's points", "of which card points"],
                    [[k, _est(v), _est(m.made[k]), _est(m.points[k], share=False),
                      _est(m.card_points[k], share=False)] for k, v in m.order.items()])
    x = m.card_points_difference
    lines += [f"- The player declares the higher marriage first in {_est(m.order['higher first'])} of these deals "
              f"and the lower first in {_est(m.order['lower first'])}; in {_est(m.order['one declared'])} it "
              "declares only one.",
              f"- Card points with the lower first less the higher first: {_diff(x, share=False)}"
              + (". The hands differ between the orders (which marriages, which other cards), so this describes "
                 "the player's games, not the effect of the order." if _shown_apart(x) else
                 ": no difference is shown."), ""]
    return lines


def _strategy_defence(s: StrategyReport) -> list[str]:
    d = s.defence
    lines = ["### 6.5 Defence against a declarer's marriage", "",
             f"Contracts played ({d.deals:,} deals) by the marriages the declarer keeps after his discard. A "
             "marriage scores only when its holder leads it after winning a trick, so the defence's aim is to "
             "keep him from the lead, or take enough points anyway.", ""]
    rows = []
    for k, v in d.by_held.items():
        rows.append([k, _est(v["share of deals"]), _est(v["declares one or more"]) if "declares one or more" in v
                     else "–", _est(v["made"]), _est(v["defenders' tricks"], share=False),
                     _est(v["defenders' points"], share=False), _est(v["no trick for the defence"])])
    lines += _table(["marriages kept", "share of deals", "declares one or more", "made", "defenders' tricks (of 8)",
                     "defenders' points", "defence takes no trick"], rows)
    one, two = d.by_held["1 marriage"], d.by_held["2 or more"]
    lines += [f"- With {_players_phrase(s.players)}, a declarer keeping one marriage declares it "
              f"{_est(one['declares one or more'])} of the time and makes {_est(one['made'])}; keeping two or more "
              f"he declares every one {_est(two['declares every one'])} of the time (he often needs no second) and "
              f"makes {_est(two['made'])}.",
              f"- The make-rate with one marriage less that with none: {_diff(d.made_difference['1 marriage'])}.",
              ""]
    return lines


def _strategy_seats(s: StrategyReport) -> list[str]:
    t = s.seats
    lines = ["### 6.6 Play by seat", "",
             f"Every played deal ({t.deals:,}) by the seats' places: **first hand** sits after the dealer"
             + (" and must open at the minimum bid" if t.forced == "first hand" else "")
             + ", **second hand** bids next, **third hand** is the dealer"
             + (", who must open at the minimum bid" if t.forced is not None and t.forced != "first hand" else "")
             + ("; nobody is forced to open" if t.forced is None else "") + ".", ""]
    lines += _table(["seat", "declares", "makes (of its contracts)", "winning bid", "deal result a deal",
                     "score change a deal"],
                    [[k, _est(v["declares"]), _est(v["made"]), _est(v["winning bid"], share=False),
                      _est(v["result per deal"], share=False, sign=True),
                      _est(v["change per deal"], share=False, sign=True)] for k, v in t.by_position.items()])
    lines += [f"- Score change a deal against the dealer's, on the same deals: first hand "
              f"{_diff(t.change_difference['first hand'], share=False)}, second hand "
              f"{_diff(t.change_difference['second hand'], share=False)}. The seat is dealt, not chosen, so these "
              "differences are the seat's (for this player's bidding), not its players'.", ""]
    return lines


def _strategy_score(s: StrategyReport) -> list[str]:
    sc = s.score
    lines = ["### 6.7 The score situation", "",
             f"From {sc.games:,} whole games ({sc.finished:,} finished, {sc.deals:,} played deals), read from the "
             "deals' events.", ""]
    if sc.barrel is None:
        lines += ["These rules have no barrel.", ""]
    else:
        st = sc.sitter
        if sc.barrel_freeze:
            need, at, above = (f"below {sc.barrel_min_contract}", f"at {sc.barrel_min_contract}",
                               f"above {sc.barrel_min_contract}")
            lines += [f"**The barrel bid.** A player on the barrel ({sc.barrel}) must make a contract of at least "
                      f"{sc.barrel_min_contract} as declarer to win. Over {sc.sitter_deals:,} deals with a sitter:", ""]
        else:
            need, at, above = ("below what his score lacks to the target", "at what it lacks", "above what it lacks")
            lines += [f"**The barrel bid.** A player on the range barrel (from {sc.barrel}) keeps his score, and his "
                      f"contracts count: he wins with one that takes him to {sc.target}. Over {sc.sitter_deals:,} "
                      "deals with a sitter:", ""]
        lines += _table(["the sitter", "share"],
                        [["declares", _est(st["declares"])],
                         [f"of his contracts: {need} (no win possible)", _est(st["below the minimum"])],
                         [f"of those below: {sc.forced_opening}",
                          _est(st["forced opening, of those below"])],
                         [at, _est(st["at the minimum"])],
                         [above, _est(st["above the minimum"])],
                         ["his contracts made", _est(st["made"])],
                         ["wins the game in the deal", _est(st["wins in the deal"])]])
        w, wo = sc.climbing["with a sitter"], sc.climbing["without"]
        lines += ["**Climbing while someone sits.** The other declarers' contracts:", ""]
        lines += _table(["declarer not on the barrel", "with a sitter", "without"],
                        [["mean contract", _est(w["declarer's contract"], share=False),
                          _est(wo["declarer's contract"], share=False)],
                         ["made", _est(w["made"]), _est(wo["made"])],
                         ["climbs onto the barrel in the deal", _est(w["declarer climbs"]),
                          _est(wo["declarer climbs"])]])
        lines += [f"- The sitter is knocked off by another player's climb in {_est(sc.knocked_off)} of his deals. "
                  f"With a sitter, the others' contracts are {_diff(sc.contract_difference, share=False)} points "
                  "higher than without"
                  + (" (a difference the numbers support)." if _shown_apart(sc.contract_difference)
                     else ": no difference is shown."), ""]
    v = sc.dump_truck_value
    truck = (f"a score of exactly {v} after a deal is reset to 0"
             + (f" (and −{v} too)" if sc.dump_truck_negative else "") if sc.dump_truck else "not in these rules")
    lines += [f"**The {v} dump truck** ({truck}): {sc.dump_trucks:,} hits"
              + (f", {_est(sc.dump_truck_per_game, share=False, digits=2)} a game; {_est(sc.dump_truck_games)} of "
                 f"games see one, and {_est(sc.dump_truck_declarer)} of the hits fall on the deal's declarer."
                 if sc.dump_truck else "."), ""]
    rule = {"no_tricks": "a deal without a trick", "zero_points": "a played deal without a point",
            "three_passes": "three deals in a row without declaring"}.get(sc.bolt_on, sc.bolt_on)
    every = {"each": "every bolt", "consecutive": "every third bolt in a row"}.get(sc.bolt_count, "every third bolt")
    lines += [f"**The third bolt.** A bolt is {rule}; {every} costs {sc.bolt_penalty}. Bolts fall in "
              f"{_est(sc.bolts)} of a seat's deals; {sc.bolt_penalties:,} penalties landed, "
              f"{_est(sc.bolt_penalty_per_game, share=False, digits=2)} a game ({_est(sc.bolt_penalty_games)} of "
              "games see one). The score of the seat before the deal in which it lands:", ""]
    if sc.bolt_penalties:
        lines += _table(["score before the deal", "share of the penalties"],
                        [[k, _est(v)] for k, v in sc.bolt_penalty_score.items()])
    return lines


_GLOSSARY = (
    ("Declarer", "the player who wins the bidding, takes the talon and must make his contract."),
    ("Talon", "the three cards dealt face down; the declarer takes them, then gives one card to each opponent "
              "(the discard)."),
    ("Contract", "the points the declarer undertakes to take (cards plus declared marriages); the winning bid, "
                 "or more if he raises after seeing the talon."),
    ("Raise", "the declarer's increase of his contract after the talon, up to 120 plus the marriages he holds."),
    ("Concede", "to write the deal off after the talon instead of playing: the declarer loses his bid, each "
                "opponent scores half of it (rounded up to 5)."),
    ("Marriage", "the king and queen of one suit in one hand: ♠ 40, ♣ 60, ♦ 80, ♥ 100; declared by leading one "
                 "of them after winning a trick, and it makes that suit trump."),
    ("First, second, third hand", "the seats after the dealer in bidding order: first hand sits left of the "
                                  "dealer and must open at 100; third hand is the dealer."),
    ("Left, right", "from the declarer: left is the player after him (plays second to his lead), right the "
                    "other."),
    ("Barrel", "a score of 880: the player sitting there must make a contract of 120 or more within three deals "
               "to win, or fall back 120."),
    ("Bolt", "a deal in which a player takes no trick (a cross on the score sheet); every third costs 120."),
    ("Dump truck", "a score of exactly 555 after a deal is reset to 0."),
    ("Race objective", "a deal's result for one player less the mean of his two opponents': what counts in a "
                       "three-player race to 1000."),
    ("Paired (duplicate) comparison", "two ways of playing measured on the same deals, so that the cards do not "
                                      "differ between them."),
    ("Interval", "the 95% interval of a measured share or mean; \"clustered by game\": computed from games, "
                 "since deals of one game are not independent."),
)


def _section_glossary() -> list[str]:
    return [_heading("glossary"), "", "The values are those of the classic rules; house rules change some of them "
            "(`thousand rules`).", ""] + [f"- **{term}**: {text}" for term, text in _GLOSSARY] + [""]
