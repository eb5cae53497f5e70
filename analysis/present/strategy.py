"""Strategy in play (``analysis.strategy.study.StrategyReport``) as a user sees it: the lines ``thousand
tables strategy`` prints, the report's section 6 and its findings in the report's summary, and the
strategy's plot."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analysis.present.figure import pyplot, save
from analysis.present.format import finite, interval, markdown_figures, markdown_table, num, p_value, pct
from analysis.present.layout import DEFAULT_WIDTH, fit, paths
from analysis.stats import Estimate
from analysis.strategy.arrays import Difference
from analysis.strategy.study import leaves

if TYPE_CHECKING:
    from analysis.strategy.study import StrategyReport

__all__ = ["strategy_lines", "strategy_section", "strategy_findings", "seat_finding", "score_situation_section",
           "plot_strategy"]


_STRATEGY_TITLES = {"raising": "raising after the talon", "conceding": "conceding", "discard": "the discard",
                    "marriage_order": "which marriage first (declarer keeping two or more)",
                    "defence": "defence against a declarer's marriage", "seats": "play by seat",
                    "score": "the score situation"}


# Leaves that are means (points, contracts, tricks, counts a game); every other estimate is a share.
_STRATEGY_MEANS = ("mean raise", "mean_raise", "result", "points", "contract", "tricks", "winning bid", "per deal",
                   "per_game", "saved", "card_points")


def strategy_lines(result: StrategyReport, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand tables strategy`` prints: first the findings (``strategy_findings``), then
    every estimate (a share in %, or a mean) and every difference (with its Holm-corrected p-value)
    of each section, with its 95% interval (clustered by game) and the rows it rests on, then where
    the table and the plot are. At
    ``width`` each row is its label, its value and the rows it rests on, wrapped; with ``width``
    None the rows are aligned in columns, not wrapped."""
    players = ", ".join(result.players)

    def row(label: str, value: str, rest: str) -> list[str]:
        if width is None:
            return [f"  {label:<62}{value:<28}{rest}"]
        return fit([f"  {label}: {value}  {rest}"], width)

    lines = [f"strategy in play: {result.games:,} games and {result.deals:,} paired deals of players {players}, "
             f"rules {result.rules_name}, seed {result.seed}; 95% intervals clustered by game; differences b - a "
             "paired by game (the concession's by deal), p Holm-corrected over all of them"]
    for name, title in _STRATEGY_TITLES.items():
        lines.append(f"-- {title}")
        for path, leaf in leaves(getattr(result, name), ""):
            label = path.lstrip(".").replace("_", " ")
            if isinstance(leaf, Estimate):
                if not leaf.n:
                    continue
                mean = any(word in path for word in _STRATEGY_MEANS)
                value = (interval if mean else pct)(leaf.value, leaf.low, leaf.high)
                lines += row(label, value, f"n={leaf.n:,}")
            elif isinstance(leaf, Difference) and leaf.diff.value == leaf.diff.value:
                mean = any(word in path for word in _STRATEGY_MEANS) or abs(leaf.a) > 1 or abs(leaf.b) > 1
                scale = 1 if mean else 100
                diff = interval(scale * leaf.diff.value, scale * leaf.diff.low, scale * leaf.diff.high, sign=True)
                lines += row(label + " (b - a)", diff,
                             f"a={scale * leaf.a:.1f} b={scale * leaf.b:.1f} p(Holm)={leaf.p_holm:.2g}")
    # The findings first (the report's summary of them, its Markdown emphasis dropped), then every row.
    findings = [f.replace("**", "") for f in strategy_findings(result) if f.startswith("- ")]
    return (fit(["findings (the rows below hold their numbers):", *findings], width) + fit(lines[:1], width)
            + lines[1:] + paths(width, table=result.table_path, plot=result.plot_path))


def _est(e: Estimate, share: bool = True, digits: int = 1, sign: bool = False) -> str:
    """An estimate with its 95% interval: a share as a percentage, or a mean."""
    if not e.n:
        return "–"
    return pct(e.value, e.low, e.high, digits) if share else num(e.value, e.low, e.high, digits, sign=sign)


def _diff(x: Difference, share: bool = True, unit: str = "") -> str:
    """A difference with its 95% interval (a difference of shares in points of percentage, else
    followed by ``unit``) and its Holm-corrected p-value."""
    d = x.diff
    if isinstance(d.value, float) and math.isnan(d.value):
        return "–"
    scale, unit = (100, " points of percentage") if share else (1, unit)
    ends = [v for v in (d.low, d.high) if finite(v)]
    # A difference whose interval lies within +-0.05 would print as -0.0 [-0.0, -0.0]: more digits.
    digits = 2 if max(abs(scale * v) for v in [d.value, *ends]) < 0.1 else 1
    bounds = (scale * d.low, scale * d.high) if finite(d.low) and finite(d.high) else (None, None)
    text = interval(scale * d.value, *bounds, digits, sign=True) + unit
    if finite(x.p_holm):
        text += f" (Holm p {p_value(x.p_holm)})"
    return text


def _shown_apart(x: Difference) -> bool:
    """A difference the numbers support: Holm-corrected p below 5%."""
    return finite(x.p_holm) and x.p_holm < 0.05


# A difference of card points below this is too small to matter at the table, however sure the
# sample is of it (the discard's left less right: 0.02 points on 20,000 games).
_NEGLIGIBLE_POINTS = 0.5


def _negligible(x: Difference) -> bool:
    """A difference of points the numbers support but too small to matter (``_NEGLIGIBLE_POINTS``)."""
    return _shown_apart(x) and abs(x.diff.value) < _NEGLIGIBLE_POINTS


def _players_phrase(players: tuple[str, ...]) -> str:
    names = list(dict.fromkeys(players))
    return f"the {names[0]} player at every seat" if len(names) == 1 else "players " + ", ".join(players)


def _strategy_intro(s: StrategyReport) -> str:
    return (f"Measured on {s.games:,} whole games ({s.score.deals:,} played deals) of {_players_phrase(s.players)}, "
            f"rules {s.rules_name}, seed {s.seed}; intervals are 95% and clustered by game (the deals of one game "
            "share its score situation). These numbers describe what the player does and how it fares; only the "
            "concession's comparison is a what-if, measured on the same deals.")


def seat_finding(forced: str | None, first: Difference) -> str:
    """The summary's heading for first hand's score change against the dealer's (``first``), read
    from its Holm-corrected test (as every "significant" of the report) and from who holds the forced
    opening (``SeatStats.forced``)."""
    significant = first.p_holm < 0.05
    if significant and first.diff.value < 0:
        if forced == "first hand":
            return "First hand pays for the forced opening."
        if forced is None:
            return "First hand loses against the dealer, with nobody forced to open."
        return "First hand loses against the dealer, though the dealer holds the forced opening."
    if significant and first.diff.value > 0:
        if forced == "first hand":
            return "First hand gains against the dealer despite the forced opening."
        if forced is None:
            return "First hand gains against the dealer, with nobody forced to open."
        return "The dealer pays for the forced opening."
    return ("First hand's forced opening costs nothing the numbers show." if forced == "first hand" else
            "First hand and the dealer score alike.")


def strategy_findings(s: StrategyReport) -> list[str]:
    """The findings to keep, for the report's summary: the seat, conceding, raising, the discard, a
    marriage kept, the barrel and the bolt penalties, each in a bullet with its numbers (those of
    section 6)."""
    who = _players_phrase(s.players)
    lines = [f"The findings to keep, each from {who} ({s.games:,} games, rules {s.rules_name}; the numbers and "
             "their 95% intervals are those of [section 6](#strategy)):", ""]
    seat = s.seats
    first = seat.change_difference["first hand"]
    lines.append(f"- **{seat_finding(seat.forced, first)}** First hand declares "
                 f"{_est(seat.by_position['first hand']['declares'])} of the deals and makes "
                 f"{_est(seat.by_position['first hand']['made'])} of what it plays out "
                 f"({_est(seat.by_position['first hand']['made of contracts'])} of its contracts, a concession "
                 "counted as not made); its score moves "
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
    return lines


def strategy_section(s: StrategyReport | None, figs: list) -> list[str]:
    """The report's section 6 below its heading: what was measured, the plot (``figs``: its file and
    caption), and the seven subsections; a line saying so when the strategy was not measured."""
    if s is None:
        return ["The strategy sections were not measured for this report.", ""]
    lines = [_strategy_intro(s), ""]
    lines += markdown_figures(figs)
    lines += _strategy_raising(s) + _strategy_conceding(s) + _strategy_discard(s) + _strategy_order(s)
    lines += _strategy_defence(s) + _strategy_seats(s) + score_situation_section(s)
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
    lines += markdown_table(["situation", "share of contracts", "raises", "keeps the bid", "concedes",
                             "mean raise (points)"], rows)
    lines += markdown_table(["raise", "share of raises"], [[k, _est(v)] for k, v in r.raise_size.items()])
    lines += markdown_table(["contract played", "made", "declarer's mean result"],
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
    lines += markdown_table(["winning bid", "conceded"], [[k, _est(v)] for k, v in c.by_bid.items()])
    lines += markdown_table(["kept after the discard", "conceded"],
                            [[k if "marriage" in k else f"{k} marriages", _est(v)] for k, v in c.by_marriages.items()]
                            + [[f"{k} ace{'' if k == '1' else 's'}", _est(v)] for k, v in c.by_aces.items()])
    p = c.paired
    if p is None or not p.conceded:
        return lines + ["No deal of the paired runs was conceded: there is no comparison to show.", ""]
    dealt = s.provenance.get("deal_players")
    by = f" by {_players_phrase(tuple(dealt))}" if dealt and tuple(dealt) != s.players else ""
    lines += [f"**What a concession saves, on the same deals.** {p.deals:,} deals from a zero score were played twice"
              f"{by} from the same seed: once under these rules and once with conceding turned off "
              "(`concede = false`), everything else equal. The deals, auctions and discards were identical in both "
              f"({p.mismatched} deals differed{' and were left out' if p.mismatched else ''}); the "
              f"{p.conceded:,} contracts conceded in the first were played on in the second.", ""]
    lines += markdown_table(["the conceded deals", "conceding", "playing on", "conceding less playing on"],
                            [["declarer's own result", num(p.own.a, sign=True), num(p.own.b, sign=True),
                              num(p.saved_own.value, p.saved_own.low, p.saved_own.high, sign=True)],
                             ["declarer less the opponents' mean (race)", num(p.race.a, sign=True),
                              num(p.race.b, sign=True),
                              num(p.saved_race.value, p.saved_race.low, p.saved_race.high, sign=True)],
                             ["contracts made", "–", _est(p.made_if_played), ""]])
    by_bid = [[k, f"{v.n:,}", num(v.value, v.low, v.high, sign=True)] for k, v in p.saved_race_by_bid.items() if v.n]
    lines += markdown_table(["winning bid", "conceded deals", "race value saved by conceding"], by_bid)
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
    lines += markdown_table(["card given", "to the left", "to the right"], rows)
    lines += markdown_table(["the declarer", "share of deals", "made (contracts played)", "mean result"],
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
    lines += markdown_table(["order", "share of deals", "made", "declarer's points", "of which card points"],
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
    lines += markdown_table(["marriages kept", "share of deals", "declares one or more", "made",
                             "defenders' tricks (of 8)", "defenders' points", "defence takes no trick"], rows)
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
    lines += markdown_table(["seat", "declares", "makes, of its contracts (conceded: not made)",
                             "makes, of those it plays out", "winning bid", "deal result a deal",
                             "score change a deal"],
                            [[k, _est(v["declares"]), _est(v["made of contracts"]), _est(v["made"]),
                              _est(v["winning bid"], share=False),
                              _est(v["result per deal"], share=False, sign=True),
                              _est(v["change per deal"], share=False, sign=True)] for k, v in t.by_position.items()])
    lines += [f"- Score change a deal against the dealer's, on the same deals: first hand "
              f"{_diff(t.change_difference['first hand'], share=False)}, second hand "
              f"{_diff(t.change_difference['second hand'], share=False)}. The seat is dealt, not chosen, so these "
              "differences are the seat's (for this player's bidding), not its players'.", ""]
    return lines


def score_situation_section(s: StrategyReport) -> list[str]:
    """Section 6.7, the score situation: the barrel bid, climbing while someone sits, the dump truck
    and the bolt penalties."""
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
        lines += markdown_table(["the sitter", "share"],
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
        lines += markdown_table(["declarer not on the barrel", "with a sitter", "without"],
                                [["mean contract", _est(w["declarer's contract"], share=False),
                                  _est(wo["declarer's contract"], share=False)],
                                 ["made, of the contracts played out", _est(w["made"]), _est(wo["made"])],
                                 ["made, of all contracts (conceded: not made)", _est(w["made of contracts"]),
                                  _est(wo["made of contracts"])],
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
                 f"games see one, and {_est(sc.dump_truck_declarer)} of the hits fall on the deal's declarer. "
                 "*Player, not game:* a declarer lands there by his own contract, so how often he does is the "
                 "habit of a player that does or does not read the score when it bids and fixes its contract, as "
                 "much as the rule's weight." if sc.dump_truck else "."), ""]
    rule = {"no_tricks": "a deal without a trick", "zero_points": "a played deal without a point",
            "three_passes": "three deals in a row without declaring"}.get(sc.bolt_on, sc.bolt_on)
    every = {"each": "every bolt", "consecutive": "every third bolt in a row"}.get(sc.bolt_count, "every third bolt")
    lines += [f"**The third bolt.** A bolt is {rule}; {every} costs {sc.bolt_penalty}. Bolts fall in "
              f"{_est(sc.bolts)} of a seat's deals; {sc.bolt_penalties:,} penalties landed, "
              f"{_est(sc.bolt_penalty_per_game, share=False, digits=2)} a game ({_est(sc.bolt_penalty_games)} of "
              "games see one)."
              + (" *Player, not game:* a seat avoids this bolt by declaring on its third deal, so how many penalties "
                 "land is the habit of a player that does or does not count its deals without declaring when it bids."
                 if sc.bolt_on == "three_passes" else "")
              + " The score of the seat before the deal in which it lands:", ""]
    if sc.bolt_penalties:
        lines += markdown_table(["score before the deal", "share of the penalties"],
                                [[k, _est(v)] for k, v in sc.bolt_penalty_score.items()])
    return lines


def plot_strategy(result: StrategyReport, path: Path) -> None:
    """Three panels of the strategy sections, with 95% intervals clustered by game: the
    declarer's choice after the talon (raise, keep, concede) by what the talon brought, the
    make-rate by the marriages he keeps, and the score change a deal by seat."""
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
