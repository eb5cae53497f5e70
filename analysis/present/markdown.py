"""The strategy report as Markdown, composed from the analyses' results: one section each (bids,
marriages, the barrel, house rules, players) and the method, with the tables and readings a player
keeps. ``analysis.report`` computes the results and writes the files; this module only words them."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from analysis.present.text import players_text
from sim import __version__
from sim.game.cards import SUIT_SYMBOLS

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats, BarrelSummary, Share
    from analysis.compare import Comparison
    from analysis.marriages import MarriageOdds
    from analysis.report import Sizes
    from analysis.tables import BidTable, CheatRow
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


def _bid_range(row: CheatRow, risk: float) -> str:
    r = row.at_risk(risk)
    if r.bid is None:
        return "none" if r.high is None else f"none ({r.high} possible)"
    return str(r.bid) if r.low == r.high == r.bid else f"{r.bid} ({r.low or 'none'}–{r.high})"


def _class_order(row: CheatRow) -> tuple[int, str]:
    from analysis.tables import MARRIAGE_CLASSES

    marriage = row.hand_class.split(",")[0]
    return (MARRIAGE_CLASSES.index(marriage) if marriage in MARRIAGE_CLASSES else len(MARRIAGE_CLASSES),
            row.hand_class)


def _section_bids(s: BidTable, figs: list) -> list[str]:
    heur = sorted(s.cheat_sheet_of("heuristic"), key=_class_order)
    dd = {r.hand_class: r for r in s.cheat_sheet_of("dd")}
    pimc = {r.hand_class: r for r in s.cheat_sheet_of("pimc")}
    lines = [_heading("bids"), "",
             f"A bid table of {s.deals:,} random deals (seed {s.seed}): in each, the player in seat 0 "
             "takes the talon and plays every contract from 100 up. Three declarers play the same deals: the "
             "**heuristic** player (sees only his cards), **pimc** (sees only his cards and averages double-dummy "
             f"results over {s.worlds} guessed layouts a decision; on the first {s.pimc_deals:,} deals) and "
             "**double dummy** (dd: every seat sees every card and plays perfectly). A hand's class is the "
             "marriages it holds before the talon and its aces.", ""]
    lines += _figures(figs)
    lines += ["### The bidding cheat sheet", "",
              f"For each hand class with at least {s.min_n:,} deals, from heuristic play: the highest bid made at "
              "least 70% and 50% of the time (in brackets, the bids the 95% intervals allow), and the bid of best "
              "expected score (made: +contract, failed: −contract, from a zero score). First hand must bid and "
              "takes the best bid; a later hand bids only when that beats passing and defending (measured on the "
              "same deals). Bids stop at the class's bidding cap (120 without a marriage). The last columns give "
              "dd's 70% bid (every seat seeing every card) and pimc's where pimc played enough deals.", ""]
    rows = []
    for r in heur:
        d, p = dd.get(r.hand_class), pimc.get(r.hand_class)
        later = (f"{r.later_hand_bid} ({num(r.later_hand_ev, sign=True)})" if r.later_hand_bid is not None
                 else f"pass ({num(r.pass_ev, sign=True)})")
        rows.append([r.hand_class, f"{r.n:,}", r.bidding_cap, _bid_range(r, 0.3), _bid_range(r, 0.5),
                     f"{r.first_hand_bid or 'pass'} ({num(r.first_hand_ev, sign=True)})", later,
                     _bid_range(d, 0.3) if d else "–", _bid_range(p, 0.3) if p else "–"])
    if rows:
        lines += _table(["hand (7 cards)", "deals", "cap", "highest bid at 70%", "at 50%", "first hand: best bid (EV)",
                         "later hands: best (EV)", "dd at 70%", "pimc at 70%"], rows)
    else:
        lines += [f"No hand class has {s.min_n:,} deals in this table: the cheat sheet needs a larger one.", ""]
    lines += ["### Three declarers on the same deals", ""]
    if s.pimc_deals:
        lines += _table(["contract", "deals", "double dummy", "pimc", "heuristic"],
                        [[r.contract, f"{r.n:,}", pct(*r.dd), pct(*r.pimc), pct(*r.heuristic)]
                         for r in s.comparison])
    else:
        lines += ["pimc played no deal of this table.", ""]
    lines += ["### What this means at the table", ""] + _reading_bids(s, heur) + [""]
    return lines


def _reading_bids(s: BidTable, heur: list[CheatRow]) -> list[str]:
    out = []
    bare = [r for r in heur if r.hand_class.startswith("no marriage")]
    if bare:
        ok = [r for r in bare if r.at_risk(0.3).bid is not None]
        passing = [r for r in bare if r.later_hand_bid is None]
        if not ok:
            out.append("- **Without a marriage, even 100 is a gamble**: no class of hand without a marriage makes 100 "
                       "70% of the time. As first hand you are forced to open; "
                       + (f"as a later hand, passing scored better in {len(passing)} of the {len(bare)} such classes."
                          if passing else "a later hand still found bidding worth it."))
        else:
            best = max(ok, key=lambda r: r.at_risk(0.3).bid)
            out.append(f"- Without a marriage, the strongest class ({best.hand_class}) stops at "
                       f"{best.at_risk(0.3).bid} at 70%.")
    married = [r for r in heur if not r.hand_class.startswith("no marriage") and r.at_risk(0.3).bid is not None]
    for r in sorted(married, key=lambda r: -r.at_risk(0.3).bid)[:3]:
        out.append(f"- {r.hand_class.capitalize()}: bid up to **{r.at_risk(0.3).bid}** if you accept failing "
                   f"3 times in 10, {r.at_risk(0.5).bid or 'no higher'} at even odds; the best expected score comes "
                   f"{'at ' + str(r.first_hand_bid) if r.first_hand_bid else 'passing'} "
                   f"({num(r.first_hand_ev, sign=True)} points a deal).")
    bidding = [r for r in heur if r.at_risk(0.3).bid is not None]
    passing = [r for r in bidding if r.later_hand_bid is None]
    if passing:
        out.append(f"- A later hand does better passing with {len(passing)} of the {len(bidding)} classes that can bid "
                   f"at 70% ({'; '.join(r.hand_class for r in passing)}): such a hand scores well in defence "
                   f"(+{passing[0].pass_ev:.0f} a deal for {passing[0].hand_class}), more than declaring "
                   "with its risk. Bid them as first hand, or to take a talon you need.")
    comp = {r.contract: r for r in s.comparison}
    if s.pimc_deals and "120" in comp:
        r = comp["120"]
        out.append(f"- On the {r.n:,} deals all three declared, 120 was made {pct(*r.dd)} of the time by "
                   f"double dummy, {pct(*r.pimc)} by pimc and {pct(*r.heuristic)} by the heuristic player. "
                   "Each plays all three seats, so a make-rate measures its defence as much as its declarer's "
                   "play: double dummy's perfect defenders can make it lower than a weaker player's. The cheat "
                   "sheet rests on the heuristic player, which sees only its own cards, as you do.")
    return out or ["- The table is too small for a reading."]


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
    lines = [_heading("barrel"), ""]
    if s is None:
        return lines + ["None of the rule sets has a barrel (barrel = none): there is nothing to report.", ""]
    summaries = s.summaries
    labels = list(summaries)
    lines += [f"{s.games:,} whole games per rule set, played by the {players_text(s.players)} (seed {s.seed}). A "
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
    marriages: MarriageOdds = sections["marriages"]
    marriage_players = marriages.play[0].players if marriages.play else None
    pinned = [r.at_risk(0.3) for r in bids.cheat_sheet_of("heuristic") if r.at_risk(0.3).bid is not None]
    tight = [r for r in pinned if r.low is not None and r.high - r.low <= 2 * bids.rules.bid_step]
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
             "(docs/learned.md). *leadage*: the ported bot." + _who_played(sections, marriage_players),
             "",
             "**Statistics.** Shares carry Wilson 95% intervals; means normal intervals; differences between rule "
             "sets and players are paired (the same deals) and Holm-corrected. A bid's range in the cheat sheet is "
             "the set of bids whose make-rate interval reaches the threshold.", "",
             f"**Sizes and seeds** ({'quick' if quick else 'full'} report, seed {seed} everywhere):", ""]
    lines += _table(["what", "size"], [[k.replace("_", " "), f"{v:,}"] for k, v in dataclasses.asdict(sizes).items()])
    lines += [f"Stability of the cheat sheet: {len(tight)} of the {len(pinned)} hand classes with a 70% bid have it "
              f"pinned to within two bid steps by the 95% intervals. The full report's sizes are chosen so that "
              "the classes it shows (400 deals or more) meet this; the quick report's intervals are wider, and "
              "printed.", "",
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
              f"thousand report {rules_args if len(rules) > 1 else '--rules ' + r0}{' --quick' if quick else ''} "
              f"--seed {seed}",
              "```", "",
              "The rules are in `provenance.json` (every option) and `docs/RULES.md` (what each means).", ""]
    return lines
