"""The strategy report as Markdown, composed from the analyses' results: one section each (bids,
marriages, the barrel, house rules, players) and the method, with the tables and readings a player
keeps. ``analysis.report`` computes the results and writes the files; this module only words them."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from sim import __version__
from sim.game.cards import SUIT_SYMBOLS

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, BarrelSummary, Share
    from analysis.compare import Comparison
    from analysis.marriages import MarriageOdds
    from analysis.report import Sizes
    from analysis.tables import BidTable, CheatRow, SeatAdvice
    from analysis.tournament import TournamentResult

__all__ = ["SECTIONS", "pct", "num", "render_markdown"]

# Anchors of the six sections, in order (the HTML test checks each is present).
SECTIONS = {"bids": "1. How much to bid", "marriages": "2. Marriages", "barrel": "3. The barrel",
            "rules": "4. House rules", "players": "5. Players", "method": "6. Method"}


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
             f"seed {seed}; {kind} sample sizes; thousand {__version__}. Measured shares and means carry their 95% "
             "interval in brackets; exact odds are exact; the data behind each section is in `data/`, and "
             "`provenance.json` says what made it.", "",
             "Contents: " + " · ".join(f"[{title}](#{key})" for key, title in SECTIONS.items()), ""]
    lines += _section_bids(sections["bids"], figures["bids"])
    lines += _section_marriages(sections["marriages"], figures["marriages"])
    lines += _section_barrel(sections["barrel"], figures["barrel"])
    lines += _section_rules(sections["rules"], figures["rules"])
    lines += _section_players(sections["players"], figures["players"])
    lines += _section_method(sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                             players=players)
    return "\n".join(lines) + "\n"


def _seat_cell(s: SeatAdvice) -> str:
    """One seat's advice in a cheat-sheet cell: "bid to 160: +14.2 [9.0, 19.4]" (the gain over
    passing a deal), "pass", or "forced bid, then pass"."""
    if s.bid is None:
        return "forced bid, then pass" if s.forced else "pass"
    return f"bid to {s.bid}: {num(s.gain, s.gain_low, s.gain_high, sign=True)}"


def _risk_cell(row: CheatRow) -> str:
    return " / ".join(str(b.bid) if b.bid is not None else "none" for b in row.risks)


def _section_bids(s: BidTable, figs: list) -> list[str]:
    from analysis.bid_value import OBJECTIVE_WORDS
    from analysis.tables import PLAYERS

    lines = [_heading("bids"), "",
             f"A bid table of {s.deals:,} random deals (seed {s.seed}). Every number in this section is from the "
             "**learned player** in all three seats (a net trained on the exact solver's values, which bids, raises, "
             "concedes, gives and plays; see the method) unless a column says otherwise. **pimc** in all three seats "
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
              f"result is {OBJECTIVE_WORDS[s.objective]}, from a zero score. **Bid to X** is the highest X whose "
              "mean result beats passing on the same deals: beyond X, passing is better. Beside it, its mean gain "
              "over passing in points a deal, with its 95% interval (paired on the same deals; an interval "
              "reaching below 0 means the sample cannot tell it from passing). First hand must open "
              "(forced_first_bid): for him passing is the forced minimum bid, then passing. The last column is "
              "risk information only: the highest contract the learned declarer makes at least 70% / 50% of the "
              "time, playing it.", ""]
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
        out.append(f"- As **{seat} hand**, bidding beats passing in {len(bidding)} of the {len(rows)} classes "
                   f"shown; in {len(sure)} of them the gain's 95% interval lies wholly above 0.")
    bare = [r for r in rows if r.hand_class.startswith("no marriage")]
    if bare:
        later = [r for r in bare if r.seat("second").bid is None and r.seat("third").bid is None]
        out.append(f"- Without a marriage, second and third hand do better passing in {len(later)} of the "
                   f"{len(bare)} classes shown.")
    married = [(r, x) for r in rows for x in r.seats if x.bid is not None]
    for r, x in sorted(married, key=lambda rx: (-rx[1].bid, rx[0].hand_class))[:3]:
        out.append(f"- {r.hand_class.capitalize()}, {x.seat} hand: bid to **{x.bid}** "
                   f"({num(x.gain, x.gain_low, x.gain_high, sign=True)} a deal over passing); the learned declarer "
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
             f"quantity measured in {s.deals:,} random deals (seed {s.seed}).", ""]
    rows = [[q, f"{by[q].exact.numerator}/{by[q].exact.denominator}", pct(by[q].p, digits=2),
             pct(by[q].simulated, by[q].ci_low, by[q].ci_high, digits=2), f"{by[q].n:,}"]
            for q in _MARRIAGE_QUANTITIES if q in by]
    lines += _table(["quantity", "exact", "exact %", "simulated [95%]", "deals"], rows)
    lines += [f"All {len(s.rows)} exact quantities are in `data/marriages.json`; {s.inside} of them lie inside the "
              f"simulated 95% interval (about {0.95 * len(s.rows):.0f} expected by chance).", ""]
    lines += _figures(figs[:1])
    worth = s.worth.rows if s.worth is not None else ()
    if worth:
        lines += ["### What a marriage is worth", "",
                  "From the bid table: the declarer's points with the suit's marriage among his 10 cards (hand and "
                  "talon) against without, and the highest contract dd makes 70% of the time in each group.", ""]
        lines += _table(["marriage", "deals with / without", "dd points gained", "same aces: dd gained",
                         "heuristic points gained", "70% contract (dd) with / without"],
                        [[f"{r.suit} {_suit_value(s, r.suit)}", f"{r.n_with:,} / {r.n_without:,}",
                          num(*r.dd_gain, sign=True), num(*r.dd_gain_same_aces, sign=True),
                          num(*r.heur_gain, sign=True),
                          f"{r.contract_with} / {r.contract_without} ({r.contract_gain:+d})"]
                         for r in worth])
        lines += _figures(figs[1:])
    if s.play:
        lines += ["### What becomes of a held marriage", "",
                  f"{sum(p.deals for p in s.play):,} deals played by the heuristic player: of the marriages each role "
                  "held, the share declared, the share whose cards fell without a trick won, and the share broken up "
                  "by playing a card first.", ""]
        lines += _table(["role", "suit", "held", "declared", "no trick won", "cards played first"],
                        [[r.role, r.suit, f"{r.held:,}", pct(*r.declared), pct(*r.no_trick_won),
                          pct(*r.cards_played_first)] for p in s.play for r in p.rows if r.held])
    lines += ["### What this means at the table", ""]
    if "hand: at least one marriage" in by and "talon: completes one of 1 half marriages" in by:
        completes = by["talon: completes one of 1 half marriages"].p
        lines.append(f"- You are dealt a marriage in {pct(by['hand: at least one marriage'].p)} of hands; with "
                     f"one half marriage the talon completes it only {pct(completes)} of the time: do not bid on a "
                     "half marriage.")
    if worth:
        verdicts: dict[str, list[str]] = {}
        for r in worth:
            gain, face = r.dd_gain_same_aces, _suit_value(s, r.suit)
            verdict = ("less than its face value" if gain[2] < face else
                       "more than its face value" if gain[1] > face else "about its face value")
            verdicts.setdefault(verdict, []).append(f"{r.suit} {face}: {num(*gain, sign=True)}")
        parts = [f"{verdict} for {'; '.join(items)}" for verdict, items in verdicts.items()]
        lines.append("- Among hands with as many aces, what a held marriage adds to the declarer's take is "
                     + ", and ".join(parts) + " points."
                     + (" It must be declared on a lead, and its cards can fall (the table above)."
                        if "less than its face value" in verdicts else ""))
    return lines + [""]


def _suit_value(s: MarriageOdds, symbol: str) -> int:
    return s.rules.marriage_values[SUIT_SYMBOLS.index(symbol)]


def _section_barrel(s: BarrelStats | None, figs: list) -> list[str]:
    lines = [_heading("barrel"), ""]
    if s is None:
        return lines + ["None of the rule sets has a barrel (barrel = none): there is nothing to report.", ""]
    summaries = s.summaries
    labels = list(summaries)
    lines += [f"{s.games:,} whole games per rule set, every seat the heuristic player (seed {s.seed}). A "
              "barrel episode starts when a player climbs onto the barrel and ends when he leaves it: upward "
              "(he wins), or falling.", ""]
    def share(x: Share) -> str:
        return pct(x.p, x.ci_low, x.ci_high) if x.n else "–"
    rows = [["games / episodes"] + [f"{v.games:,} / {v.episodes:,}" for v in summaries.values()]]
    # Every way an episode ends, each once: the rows down to "unfinished" add up to all episodes.
    rows.append(["leaves upward (wins)"] + [share(v.fates["up"]) for v in summaries.values()])
    fates = [f for f in next(iter(summaries.values())).fates if f.startswith("fell")]
    for f in fates + ["another player won", "unfinished"]:
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
              f"- Under {labels[0]}, a player on the barrel leaves it upward {pct(up.p)} of the time and falls "
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
              f"seed {s.seed}), every seat the heuristic player. Each metric's difference to {labels[0]} with a "
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
        lines.append(f"- {r.rules}: games last {num(r.value)} deals against {num(r.first)} "
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
                      num(r.declarer_points_per_deal), num(r.defender_points_per_deal)] for r in s.players])
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


def _section_method(sections: dict, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes,
                    quick: bool, players: tuple[str, ...]) -> list[str]:
    from sim.game.rules import load_rules

    bids: BidTable = sections["bids"]
    advised = [x for r in bids.cheat_sheet for x in r.seats if x.bid is not None]
    sure = [x for x in advised if _finite(x.gain_low) and x.gain_low > 0]
    r0 = rules[0]
    rules_args = " ".join(f"--rules {r}" for r in compared)
    lines = [_heading("method"), "",
             "**Players.** *heuristic*: our rule-based player (hand evaluation, bidding with a margin, card play by "
             "rules of thumb; it sees only its cards). *pimc*: perfect-information Monte Carlo: at each decision it "
             "deals the unseen cards consistently with what it knows, solves each layout double dummy and plays the "
             "card best on average. *dd*: double dummy, every seat seeing every card and playing perfectly: the "
             "declarer never guesses wrong, but neither do the defenders, so it is no bound on what a real "
             "declarer makes, and never a forecast of real play. *learned*: a small net "
             "trained on the exact solver's values of positions it reached itself, which bids, gives and plays "
             "(docs/learned.md). *leadage*: the ported bot.",
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
              f"--rules {r0} --seed {seed} --bids out/tables/bids.parquet --out out/marriages --json",
              f"thousand tables barrel --games {sizes.barrel_games} "
              + " ".join(f"--rules {r}" for r in compared if load_rules(r).barrel is not None)
              + f" --seed {seed} --json",
              f"thousand compare {' '.join(compared)} --games {sizes.compare_games} --seed {seed} --json",
              f"thousand tournament {' '.join(players)} --games {sizes.tournament_games} --rules {r0} "
              f"--seed {seed} --json",
              f"thousand report {rules_args if len(rules) > 1 else '--rules ' + r0}{' --quick' if quick else ''} "
              f"--seed {seed}",
              "```", "",
              "The rules are in `provenance.json` (every option) and `docs/RULES.md` (what each means).", ""]
    return lines
