"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

import csv
import io
import math
from fractions import Fraction
from typing import TYPE_CHECKING

from sim.game.cards import SUIT_SYMBOLS, SUITS

if TYPE_CHECKING:  # the result types only: importing the advisor loads the compiled kernels
    from collections.abc import Sequence

    from analysis.barrel import BarrelStats, Share
    from analysis.bids.advice import Advice
    from analysis.bids.results import BidTable, CheatRow, SeatAdvice
    from analysis.compare import Comparison
    from analysis.marriages.in_play import MarriagePlay
    from analysis.marriages.odds import MarriageOdds
    from analysis.marriages.worth import MarriageWorth, WorthRow
    from analysis.strategy import StrategyReport
    from analysis.summary import RunSummary
    from analysis.tournament import TournamentResult
    from analysis.win_chances import WinChanceTable
    from sim.solver import SolvedLayout

__all__ = [
    "players_text",
    "comparison_lines",
    "barrel_lines",
    "tournament_lines",
    "advice_lines",
    "advice_csv",
    "run_summary_lines",
    "seat_advice_words",
    "cheat_sheet_lines",
    "bid_table_lines",
    "marriage_odds_lines",
    "odds_check_lines",
    "marriage_play_lines",
    "marriage_worth_lines",
    "worth_contracts_text",
    "solved_layout_lines",
    "strategy_lines",
    "win_chance_lines",
]


# --- who played ---
def players_text(players: Sequence[str]) -> str:
    """Who played a result's deals, as a reader says it: "learned player, all seats" when every seat
    is one player, else the players seat by seat ("heuristic, random, random (seat by seat)"). A
    learned player of other weights (``learned:PATH``) is named by the file and its folder."""
    from pathlib import Path

    def name(p: str) -> str:
        kind, sep, path = p.partition(":")
        return f"{kind}:{'/'.join(Path(path).parts[-2:])}" if sep else p

    names = [name(p) for p in players]
    if len(set(names)) == 1:
        return f"{names[0]} player, all seats"
    return f"{', '.join(names)} (seat by seat)"


# --- compare ---
def comparison_lines(result: Comparison) -> list[str]:
    """What ``thousand compare`` prints: every difference to the first rule set, the count of those
    significant, what was left out, and where the table and the plot are."""
    labels = result.rule_sets
    lines = [f"rule sets compared on the same deals (common random numbers): {', '.join(labels)}; played by the "
             f"{players_text(result.players)}; differences to {labels[0]} with 95% intervals; * = significant after "
             "Holm's correction (family-wise 5%)",
             f"{'metric':<36}{'rule set':<16}{labels[0][:14]:>14}{'this':>12}  {'difference [95%]':<30}"
             f"{'p':>8}{'p (Holm)':>10}"]
    for r in result.rows:
        diff = f"{r.diff:+.4f} [{r.ci_low:+.4f}, {r.ci_high:+.4f}]"
        mark = " *" if r.significant else ""
        lines.append(f"{r.metric:<36}{r.rules[:15]:<16}{r.first:>14.4f}{r.value:>12.4f}  {diff:<30}"
                     f"{r.p:>8.3g}{r.p_holm:>10.3g}{mark}")
    significant = sum(r.significant for r in result.rows)
    lines.append(f"{significant} of {len(result.rows)} differences significant")
    if result.left_out:
        lines.append(f"left out, observed in one rule set only or in neither (no difference to show): "
                     f"{', '.join(result.left_out)}")
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}"]


# --- barrel ---
def barrel_lines(result: BarrelStats) -> list[str]:
    """What ``thousand tables barrel`` prints: one column a rule set, the share of barrel episodes
    of each fate and attempt, the game length, the chance of winning from a score, and where the
    table and the plot are."""
    from analysis.barrel import FATES, LEFT_DOWNWARD, SCORE_STEP

    summaries = result.summaries
    names = list(summaries)
    width = 24
    lines = [f"barrel survival (share of barrel episodes, [95% interval]); {result.games:,} games a rule set played by "
             f"the {players_text(result.players)}",
             f"{'':<30}" + "".join(f"{n[:width - 2]:<{width}}" for n in names)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:<30}" + "".join(f"{c:<{width}}" for c in cells))

    def pct(x: Share) -> str:
        return "-" if not x.n else f"{x.p:.3f} [{x.ci_low:.3f}, {x.ci_high:.3f}]"

    row("games / barrel episodes", [f"{s.games:,} / {s.episodes:,}" for s in summaries.values()])
    for f in FATES:
        if f != LEFT_DOWNWARD or any(s.fates[f].k for s in summaries.values()):  # only the range barrel's
            row(f, [pct(s.fates[f]) for s in summaries.values()])
    row("fell (all causes)", [pct(s.fell) for s in summaries.values()])
    row("fell to zero", [pct(s.fell_to_zero) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}", [pct(s.up_on_attempt[a]) for s in summaries.values()])
    for a in range(1, 4):
        row(f"up on attempt {a}, once reached", [pct(s.up_once_reached[a]) for s in summaries.values()])
    for a in range(0, 4):
        label = f"episodes of {a}{'+' if a == 3 else ''} deals on it"
        row(label, [pct(s.lasted(a, or_more=a == 3)) for s in summaries.values()])
    row("simultaneous climbs", [f"{s.simultaneous_climbs:,}" for s in summaries.values()])
    if any(s.refused_climbs for s in summaries.values()):  # barrel_collision = sitter_stays or both_fall
        row("climbs sent back by a sitter", [f"{s.refused_climbs:,}" for s in summaries.values()])
    row("game length (deals)", [f"{s.game_length.mean:.1f} [{s.game_length.ci_low:.1f}, "
                                f"{s.game_length.ci_high:.1f}]" for s in summaries.values()])
    row("deals with a sitter", [pct(s.barrel_share_of_deals) for s in summaries.values()])
    lines.append(f"chance of winning the game from your score when you deal (score classes of {SCORE_STEP}, one "
                 "observation per game and class; classes of fewer than 30 left out)")
    classes = sorted({c for s in summaries.values() for c, v in s.win_from_score.items() if v.n >= 30})
    for c in classes:
        row(f"score {c} to {c + SCORE_STEP - 5}", [pct(s.win_from_score[c]) if c in s.win_from_score
                                                  and s.win_from_score[c].n >= 30 else "-"
                                                  for s in summaries.values()])
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}"]


# --- tournament ---
def tournament_lines(result: TournamentResult) -> list[str]:
    """What ``thousand tournament`` prints: the ranking, the roles and the pairs, then where the
    table and the plot are. Columns are as wide as their widest cell (negative scores and long file
    names included), so that they never run together."""
    mode, size = result.mode, result.size
    runs = len(result.run_dirs)
    lines = [f"tournament: {', '.join(result.labels)}; {size:,} {mode} in each of {len(result.seatings)} seatings "
             f"({runs} run{'s' if runs != 1 else ''}), seats rotated over the same deals; 95% intervals over "
             f"{mode[:-1]} numbers"]
    if mode == "games":
        ranking = [["rank", "player", "win share", "final score", "score per deal"]]
    else:
        ranking = [["rank", "player", "points per deal"]]
    for k, r in enumerate(result.players, 1):
        deal = _tournament_interval(r.score_per_deal, r.score_per_deal_ci_low, r.score_per_deal_ci_high, 2)
        if mode == "games":
            ranking.append([str(k), r.player, _tournament_interval(r.win_share, r.win_ci_low, r.win_ci_high, 3),
                            _tournament_interval(r.final_score, r.score_ci_low, r.score_ci_high, 1), deal])
        else:
            ranking.append([str(k), r.player, deal])
    lines += _tournament_aligned(ranking)
    roles = [["", "player", "declares", "make-rate", "concedes", "contract", "as declarer", "as defender"]]
    for r in result.players:
        roles.append(["", r.player, _tournament_cell(r.declarer_share, ".1%"),
                      _tournament_interval(r.make_rate, r.make_rate_ci_low, r.make_rate_ci_high, 3),
                      _tournament_cell(r.concession_rate, ".1%"), _tournament_cell(r.mean_contract, ".1f"),
                      _tournament_cell(r.declarer_points_per_deal, ".1f"),
                      _tournament_cell(r.defender_points_per_deal, ".1f")])
    lines += _tournament_aligned(roles)
    if any(v is None for r in result.players for v in (r.make_rate, r.concession_rate, r.mean_contract)):
        lines.append("- : nothing observed (a player who never declared, or never played a contract out)")
    lines.append(f"pairs (difference of {result.compared}, * = significant after Holm's correction):")
    digits = 3 if mode == "games" else 2
    for r in result.pairs:
        lines.append(f"  {r.player} vs {r.against}: {_tournament_interval(r.diff, r.ci_low, r.ci_high, digits)}"
                     f"  p {r.p:.3g}, Holm {r.p_holm:.3g}{' *' if r.significant else ''}")
    lines.append(f"table: {result.table_path}; plot: {result.plot_path}")
    return lines


def _tournament_aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells, each column padded to its widest cell and two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["".join(f"{cell:<{w + 2}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _tournament_cell(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _tournament_interval(x: float | None, lo: float | None, hi: float | None, digits: int) -> str:
    if x is None:
        return "-"
    if lo is None or hi is None or lo != lo or hi != hi:
        return f"{x:.{digits}f} (no interval)"
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


# --- advisor ---
ADVICE_METHOD_TEXT = {
    "learned": "learned = the learned player in every seat, the declarer playing each contract apart (its net plays "
               "for the contract it is given)",
    "dd": "dd = double dummy: every seat sees every card and plays perfectly, the declarer discards best",
    "pimc": "pimc = every seat averages double-dummy values over the worlds it cannot tell apart",
    "heuristic": "heuristic = every seat is the heuristic player",
}


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} = {float(p):.1%}"


def _value(x: float | None, objective: str) -> str:
    """A line's mean or gain under ``objective``: points, or for ``win`` a chance in percent."""
    if x is None or x != x:
        return "-"
    return f"{100 * x:+.1f}%" if objective == "win" else f"{x:+.1f}"


def _value_interval(x: float, lo: float, hi: float, objective: str) -> str:
    return f"{_value(x, objective)} [{_value(lo, objective)}, {_value(hi, objective)}]"


def _share(x: float) -> str:
    return "-" if x != x else f"{x:.1%}"


def _advice_scores(a: Advice) -> str:
    s = a.situation

    def one(name: str, score: int, sits: bool) -> str:
        return f"{name} {score}" + (" (on the barrel)" if sits else "")

    return ", ".join((one("you", s.score, s.on_barrel), one("left", s.others[0], s.others_on_barrel[0]),
                      one("right", s.others[1], s.others_on_barrel[1])))


def _line_label(a: Advice, row) -> str:
    if row.kind == "pass":
        return f"forced {a.forced_bid}, then pass" if a.forced_bid is not None else "pass"
    if row.kind == "own":
        return f"{a.line_player}'s own bidding"
    return f"bid to {row.limit}"


def advice_lines(advice: Advice) -> list[str]:
    """What ``thousand bid`` prints: the situation, the bidding lines with their results and gains
    over passing (the decision), the make-rate table with expected scores and the risk levels
    (information), the talon's chances, and last the recommendation."""
    from analysis.bids.value import MIN_REACHED

    a = advice
    obj = a.objective
    from analysis.bids.hand import owed_contract

    forced = a.forced_bid
    owed = owed_contract(a.rules, a.seat, a.situation.on_barrel)[1]
    duty = (f", forced to bid {forced}" if forced is not None
            else f", declarer at {owed} if both others pass: all_pass = dealer_plays" if owed is not None
            else ", not forced to bid: forced_first_bid = false" if a.seat == "first" and not a.rules.forced_first_bid
            else "")
    out = [f"hand {a.hand}  ({a.seat} hand{duty}; rules {a.rule_changes or 'classic'})"]
    if a.known_cards:
        out.append("known: " + ", ".join(f"{k} {v}" for k, v in a.known_cards.items()))
    out.append("scores before the deal: " + _advice_scores(a))
    if a.win_source is not None:
        out.append("objective win: " + a.win_source)
    if a.can_bid:
        out.append(f"bidding cap {a.bidding_cap}; a talon could let you raise the final contract to {a.raise_cap}")
    else:
        out.append(f"bidding cap {a.bidding_cap}: below the minimum bid {a.min_bid}, so this hand cannot bid "
                   "(a bid above 120 needs a marriage)")
    out += ["", f"your bidding lines, each played on the same {a.samples} sampled deals (seed {a.seed}); every other "
            f"decision by the {a.line_players}:",
            f"  result = {obj}: {a.objective_means}, a deal; gain = the line against passing at every turn, on "
            "the same deals (the recommendation is the tested line with the highest gain); bid vs pass there = "
            "where the auction reached the line's level (the deals it plays differently from the line one step "
            "lower), its mean difference from that line, which passes there; [95% intervals]",
            f"  {'line':<24}{'declare':>8}{'contract':>9}{'raised':>8}{'made':>8}{'conceded':>9}  "
            f"{'result [95%]':<24}{'gain [95%]':<24}{'bid vs pass there [95%]':<26}{'reached':>7}"]
    for k, row in enumerate(a.lines):
        v = row.value
        if row.differs == 0:  # the same rows as the line above: say so rather than repeat its numbers
            below = a.lines[k - 1] if a.lines[k - 1].limit > 0 else a.pass_line
            out.append(f"  {_line_label(a, row):<24}(as {_line_label(a, below)}: no sampled deal plays differently)")
            continue
        gain = "baseline" if row.kind == "pass" else _value_interval(v.gain, v.gain_low, v.gain_high, obj)
        step = ("" if row.kind in ("pass", "own")
                else _value_interval(v.step_gain, v.step_low, v.step_high, obj))
        contract = "-" if v.contract != v.contract else f"{v.contract:.1f}"
        result = _value_interval(v.mean, v.low, v.high, obj)
        out.append(f"  {_line_label(a, row):<24}{_share(v.declares[0]):>8}{contract:>9}{_share(v.raised[0]):>8}"
                   f"{_share(v.made[0]):>8}{_share(v.conceded[0]):>9}  {result:<24}{gain:<24}"
                   f"{step:<26}{'' if row.differs is None else row.differs:>7}")
    out.append("  declare: the deals in which you end up the declarer; contract: your mean final contract (after the "
               "talon); raised: contract above your winning bid, made and conceded: shares of the deals you declare; "
               "reached: deals the line plays differently from the bidding line one step lower (the lowest: from "
               f"passing); a level reached in fewer than {MIN_REACHED} deals is untested")
    if a.can_bid:
        out += ["", "if you declare a contract and play it as that contract from the talon on (information, not the "
                "decision: the auction and the opponents' scores left aside); p_make with its 95% interval; "
                "E = p·gain − (1 − p)·loss, your own score:"]
        out += [f"  {ADVICE_METHOD_TEXT[m]}; {a.samples_of(m)} deals" for m in a.methods]
        if a.worlds:
            out.append(f"  pimc worlds a decision: {a.worlds}")
        out.append("contract  " + "  ".join(f"{m + ' p_make [95%]':<24}{'E':>7}" for m in a.methods))
        shown_raise = False
        for row in a.contracts:
            if not row.biddable:
                if all(e.p_make == 0 for e in row.estimates):
                    out.append(f"(from {row.contract} on: made in no sample)")
                    break
                if not shown_raise:
                    out.append("-- above the bidding cap: only as a final contract, if the talon brings the "
                               "marriages --")
                    shown_raise = True
            cells = [f"{e.p_make:6.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]  {e.ev_declare:+7.1f}" for e in row.estimates]
            out.append(f"{row.contract:>8}  " + "  ".join(cells))
        else:
            if a.played_to is not None and a.played_to < a.raise_cap:
                out.append(f"(contracts above {a.played_to}, up to {a.raise_cap}, not played: the learned player "
                           f"made {a.played_to} in no sample)")
        r0 = a.risk_levels[0]
        out.append(f"risk information, not the decision: the highest bid made at least {1 - r0.risk:.0%} / at least "
                   "50% of the time when declared: "
                   + "; ".join(f"{r.method} {_bid_or_none(r.at_risk)} / {_bid_or_none(r.at_half)}"
                               for r in a.risk_levels))
    t = a.talon
    out += ["", f"talon (exact, over all {t.talons} possible talons):"]
    for mc in t.marriages:
        what = f"completes your {mc.holding}" if mc.holding else "brings both halves of"
        out.append(f"  {what} {SUIT_SYMBOLS[SUITS.index(mc.suit)]} marriage: {_exact(mc.p)}")
    out.append(f"  any new marriage: {_exact(t.any_marriage)}")
    aces = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.aces)
    tens = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.tens)
    out.append(f"  at least one ace {float(t.at_least_one_ace):.1%} ({aces or 'you hold all four'})")
    out.append(f"  at least one ten {float(t.at_least_one_ten):.1%} ({tens or 'you hold all four'})")
    out.append(f"  expected talon card points {float(t.expected_points):.1f}")
    out += ["", _recommendation_line(a)]
    return out


def _bid_or_none(b: int | None) -> str:
    return "none" if b is None else str(b)


def _recommendation_line(a: Advice) -> str:
    from analysis.bids.value import MIN_REACHED

    rec, obj = a.recommendation, a.objective
    p = rec.passing
    passing = f"passing at every turn: {_value_interval(p.mean, p.low, p.high, obj)} a deal"
    who = f"{rec.player} player, all seats; {obj}, {a.samples} deals"
    if not a.can_bid:
        return f"recommendation: pass (this hand cannot bid; {passing}; {who})"
    w = rec.beyond
    stop = ("" if w is None else
            f"bid to {w.limit}: {_value_interval(w.gain, w.gain_low, w.gain_high, obj)} a deal against passing")
    if rec.line is None:
        if w is None and rec.untested_from is not None:
            return (f"recommendation ({who}): untested: fewer than {MIN_REACHED} sampled auctions reached "
                    f"{rec.untested_from} or any level above, too few to judge bidding on"
                    + (f" (your forced bid of {a.forced_bid} mostly wins the auction)" if a.forced_bid else "")
                    + f"; more --samples test more ({passing})")
        what = "no level beyond the forced bid" if a.forced_bid is not None else "no level"
        because = (f" (the first tested one, {stop})" if stop
                   else f" (no level was reached in {MIN_REACHED} or more sampled deals)")
        return f"recommendation ({who}): {rec.action}: {what} gains over passing{because}; {passing}"
    v = rec.line
    # The decision is the line gain (bidding up to X against passing at every turn, over all deals);
    # the step gain (bidding X where the auction reached it) is printed after it as information.
    said = f"bid to {rec.bid}: {_value_interval(v.gain, v.gain_low, v.gain_high, obj)} a deal against passing"
    if v.gain_low <= 0:
        said += " (the interval reaches 0: the sample does not tell this line from passing)"
    if w is not None:
        said += (f"; beyond {rec.bid}, bidding further "
                 + ("lowers" if w.gain < v.gain else "does not raise") + f" the expected result ({stop})")
    elif rec.untested_from is not None:
        said += (f"; higher bids are untested (fewer than {MIN_REACHED} sampled auctions reached "
                 f"{rec.untested_from} or above)")
    else:
        said += " (your bidding cap)"
    return (f"recommendation ({who}): {said}. Where the auction reached {rec.bid} ({v.reached} deals), bidding it "
            f"rather than passing there: {_value_interval(v.step_gain, v.step_low, v.step_high, obj)}; {passing}")


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
        w.writerow([row.kind, v.limit if v.limit > 0 else "", v.n, num(v.mean), num(v.low), num(v.high), num(v.gain),
                    num(v.gain_low), num(v.gain_high), num(v.declares[0]), num(v.made[0]), num(v.conceded[0]),
                    num(v.raised[0]), num(v.contract), "" if row.differs is None else row.differs,
                    num(v.step_gain), num(v.step_low), num(v.step_high), advice.objective, advice.line_player])
    return buf.getvalue()


# --- summary ---
def run_summary_lines(summary: RunSummary) -> list[str]:
    """What ``thousand simulate`` and ``thousand runs combine`` print of a stored run: what made it,
    the declarers' make-rate (by player type when there are several), and for a run of games the
    game length and each seat's wins."""
    s = summary
    seeds = ",".join(map(str, s.seeds))
    code = "none recorded" if s.code_fingerprint is None else s.code_fingerprint
    lines = [f"run {s.run}: {s.mode} n={s.sample_size} seed{'s' if s.combined else ''}={seeds} "
             f"players={','.join(s.players)} version={s.version} code={code}"]
    d = s.deals
    lo, hi = d.made_rate_played_ci
    if not d.deals:
        lines.append("deals with a declarer: 0 (every deal was thrown in or redealt)")
    else:
        made = (f"declarer made {d.made_rate_played:.1%} of played contracts (95% CI {lo:.1%}–{hi:.1%})"
                if d.played else "no contract played out (every one conceded), so no make-rate")
        lines.append(f"deals with a declarer: {d.deals:,}; {made}; conceded {d.conceded_rate:.1%}; "
                     f"mean contract {d.contract_mean:.1f}")
    if len(s.by_player) > 1:
        for r in s.by_player:
            lines.append(f"  as declarer, {r.player}: made {r.made_rate:.1%} ({r.ci_low:.1%}–{r.ci_high:.1%}) "
                         f"of {r.declared:,}, mean contract {r.mean_contract:.1f}")
    if s.games is not None:
        g = s.games
        ci_lo, ci_hi = g.deals_mean_ci
        finished = g.games - g.unfinished
        if not finished:
            length = "no game finished, so no game length"
        else:
            ci = f"95% CI {ci_lo:.1f}–{ci_hi:.1f}" if finished > 1 else "no interval from one finished game"
            length = f"mean length {g.deals_mean:.1f} deals ({ci}), median {g.deals_median:.0f}"
        lines.append(f"games: {g.games:,} ({g.unfinished} unfinished); {length}")
        for seat in g.seats:
            lines.append(f"  seat {seat.seat} ({seat.player}): won {seat.win_rate:.1%} "
                         f"(95% CI {seat.ci_low:.1%}–{seat.ci_high:.1%})")
    return lines


# --- tables bids ---

def _interval(x: float, lo: float, hi: float, digits: int = 1, sign: bool = True) -> str:
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f.format(x) + ("" if lo != lo or hi != hi else f" [{f.format(lo)}, {f.format(hi)}]")


def seat_advice_words(s: SeatAdvice) -> str:
    """One seat's advice in plain words: "bid to 160: +14.2 [9.0, 19.4] a deal against passing;
    beyond 160, bidding further lowers the expected result (bid to 170: +9.1)", the gains those of
    the lines "bid up to" against always passing; or pass (for a forced first hand: the forced bid,
    then pass)."""
    from analysis.bids.value import MIN_REACHED

    if s.bid is None:
        if s.beyond is None and s.untested_from is not None:
            return (f"untested: fewer than {MIN_REACHED} auctions reached {s.untested_from} or any level above"
                    + (" (the forced bid mostly wins the auction)" if s.forced else ""))
        first = ("" if s.beyond is None else
                 f" (bid to {s.beyond}: {_interval(s.beyond_gain, math.nan, math.nan)})")
        return ("make the forced bid, then pass: no higher line beats passing" if s.forced
                else "pass: no bidding line beats passing") + first
    said = f"bid to {s.bid}: {_interval(s.gain, s.gain_low, s.gain_high)} a deal against passing"
    if s.beyond is not None:
        more = "lowers" if s.beyond_gain < s.gain else "does not raise"
        said += (f"; beyond {s.bid}, bidding further {more} the expected result "
                 f"(bid to {s.beyond}: {_interval(s.beyond_gain, math.nan, math.nan)})")
    elif s.untested_from is not None:
        said += f"; higher bids untested: fewer than {MIN_REACHED} auctions reached {s.untested_from} or more"
    else:
        said += "; the cap: you may bid no higher"
    return said


def _risk_words(r: CheatRow) -> str:
    made = [f"{b.bid} at least {1 - b.risk:.0%} of the time" for b in r.risks if b.bid is not None]
    return ("the learned declarer makes " + ", ".join(made)) if made else \
        f"the learned declarer makes no contract up to {r.bidding_cap} even {1 - r.risks[-1].risk:.0%} of the time"


def cheat_sheet_lines(rows: Sequence[CheatRow]) -> list[str]:
    """A cheat sheet (``analysis.bids.classes.cheat_sheet``) as ``thousand tables bids`` prints it: per
    hand class a line (its deals, cap and the risk information), then one line a seat."""
    from analysis.bids.parts import LINE_PLAYER
    from analysis.bids.results import PLAYERS_SHORT

    tag = PLAYERS_SHORT[LINE_PLAYER]
    lines = []
    for r in rows:
        lines.append(f"{r.hand_class}: {r.n:,} deals, bidding cap {r.bidding_cap}; risk: {_risk_words(r)}")
        for s in r.seats:
            lines.append(f"  {s.seat + ' hand:':<13}{seat_advice_words(s)}  [{tag}]")
    return lines


def _detail_lines(rows: Sequence[CheatRow]) -> list[str]:
    from analysis.bids.parts import LINE_PLAYER
    from analysis.bids.results import PLAYERS_SHORT

    def short(s: SeatAdvice) -> str:
        if s.bid is None:
            if s.beyond is None and s.untested_from is not None:
                return "untested"
            return "forced bid, then pass" if s.forced else "pass"
        more = ", higher untested" if s.beyond is None and s.untested_from is not None else ""
        return f"bid to {s.bid} ({_interval(s.gain, s.gain_low, s.gain_high)}{more})"

    return [f"  {r.hand_class} ({r.n:,}): " + "; ".join(f"{s.seat} {short(s)}" for s in r.seats)
            + f"  [{PLAYERS_SHORT[LINE_PLAYER]}]" for r in rows]


def bid_table_lines(result: BidTable) -> list[str]:
    """What ``thousand tables bids`` prints: the table's path, make-rates by hand class (the
    learned player at the minimum bid and a few contracts, the heuristic player and double dummy at
    120 beside, or at the lowest contract above it where the table has no 120), the
    learned player checked against pimc on the same deals, the cheat sheet and its refinements, and
    the plots' paths. Every row names the players behind its numbers."""
    from analysis.bids.parts import LINE_PLAYER
    from analysis.bids.results import PLAYERS, PLAYERS_SHORT
    from analysis.bids.value import MIN_REACHED, OBJECTIVE_WORDS

    # The learned player's columns: the table's own minimum bid (125 under min_bid = 125, which the
    # round contracts below would leave out), then those of these contracts the table holds; the
    # heuristic player and double dummy beside at 120, or the lowest contract above it (none is 120).
    shown = sorted({result.levels[0], *(lv for lv in (100, 110, 120, 130, 140, 160, 180) if lv in result.levels)})
    beside = next((lv for lv in result.levels if lv >= 120), result.levels[-1])
    lines = [f"table: {result.table_file}",
             f"bid-success tables: {result.deals:,} random deals (seed {result.seed}); pimc on the first "
             f"{result.pimc_deals:,} ({result.worlds} worlds a decision)",
             "make-rates by hand class: seat 0 takes the talon and plays the contract (the learned player plays each "
             "contract as that contract; the others once for points); classes of "
             f"{result.min_n} deals or more; {', '.join(f'{v} = {PLAYERS[k]}' for k, v in PLAYERS_SHORT.items())}:"]
    lines.append(f"{'hand (7 cards)':<34}{'n':>7}  {'players':<12}" + "".join(f"{lv:>7}" for lv in shown)
                 + f"  {f'heuristic×3 {beside}':>16}{f'double dummy {beside}':>18}")
    for c in result.classes:
        if c.n < result.min_n:
            continue
        cells = "".join(f"{r.p:>7.3f}" for r in c.learned if r.contract in shown)
        at = {m: next(r.p for r in c.rates(m) if r.contract == beside) for m in ("heuristic", "dd")}
        lines.append(f"{c.hand_class:<34}{c.n:>7,}  {PLAYERS_SHORT['learned']:<12}{cells}  {at['heuristic']:>16.3f}"
                     f"{at['dd']:>18.3f}")
    if result.comparison:
        lines.append(f"the learned player checked against pimc on the first {result.comparison[0].n:,} deals (the same "
                     "deals: make-rate [95%]; learned minus pimc paired by deal; the pooled row clustered by deal; "
                     "Holm-corrected):")
        for row in result.comparison:
            cells = "  ".join(f"{PLAYERS_SHORT[m]} {_interval(*getattr(row, m), digits=3, sign=False)}"
                              for m in ("learned", "pimc"))
            lines.append(f"  {row.contract:>8}: {cells}  learned − pimc {_interval(*row.diff, digits=3)}"
                         f"{' DIFFER' if row.differ else ''}  (heuristic×3 {row.heuristic[0]:.3f}, double dummy "
                         f"{row.dd[0]:.3f})")
        differ = [r.contract for r in result.comparison if r.differ]
        lines.append("  " + (f"they differ at {', '.join(differ)} (Holm-corrected p < 0.05)" if differ else
                             "no difference at the 5% level after Holm's correction"))
    lines.append("cheat sheet: what bidding is worth, per hand class and seat, on the table's deals "
                 f"({PLAYERS[LINE_PLAYER]}, from a zero score; result: {OBJECTIVE_WORDS[result.objective]}; "
                 f"classes of {result.min_n} deals or more). Each line \"bid up to X\" is compared with passing at "
                 "every turn on all the class's deals; \"bid to X\": of the levels reached in "
                 f"{MIN_REACHED} deals or more, the one whose line gains most, if it gains (no tested line above X "
                 "gains more: higher untested when none above X was reached that often); beside it, that gain a "
                 "deal, with its 95% interval. The make levels are risk information only:")
    lines += cheat_sheet_lines(result.cheat_sheet)
    if result.detail:
        lines.append(f"refined by tens and by the longest suit (classes of {result.min_n} deals or more; the line "
                     "\"bid up to X\" against always passing, a deal [95%]):")
        lines += _detail_lines(result.detail)
    lines += [f"plot: {p}" for p in result.plot_files]
    return lines


# --- tables marriages ---

def marriage_odds_lines(result: MarriageOdds) -> list[str]:
    """What ``thousand tables marriages`` prints: every quantity, exact and simulated (random deals,
    dealt and not played), the exact-odds check of all rows together, then the marriages in play and
    the worth of a marriage when asked for, and the stored table's and plot's paths."""
    from sim.game.cards import SUIT_SYMBOLS

    rows = result.rows
    lines = [f"marriage odds: exact, and measured in {result.deals:,} random deals (seed {result.seed}; dealt, not "
             "played: no player is involved); values "
             + " ".join(f"{SUIT_SYMBOLS[s]}{result.rules.marriage_values[s]}" for s in range(4)),
             f"{'quantity':<52}{'exact':>16}{'p':>9}   {'simulated [95%]':<26}{'n':>10}"]
    for r in rows:
        frac = f"{r.exact.numerator}/{r.exact.denominator}"
        sim = f"{r.simulated:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]" if r.n else ""
        flag = "" if r.inside or not r.n else "  outside"
        lines.append(f"{r.quantity:<52}{frac:>16}{r.p:>9.4f}   {sim:<26}{r.n:>10,}{flag}")
    lines += odds_check_lines(result)
    for play in result.play:
        lines += ([f"-- rules {play.label}"] if len(result.play) > 1 else []) + marriage_play_lines(play)
    if result.worth is not None:
        lines += marriage_worth_lines(result.worth)
    if result.table_file is not None:
        lines.append(f"table: {result.table_file}; plot: {result.plot_file}")
    return lines


def odds_check_lines(result: MarriageOdds) -> list[str]:
    """The exact-odds check of a marriage table: its verdict and p-value first, then each
    distribution's chi-square, and the rows left out of it (duplicates) with why."""
    check = result.check
    tested = sum(len(q) for r in check.rows for q in r.quantities)
    verdict = ("the simulated counts agree with the exact chances" if check.consistent
               else f"the simulated counts DISAGREE with the exact chances (worst: {check.worst})")
    lines = [f"exact-odds check: {verdict}: family p = {check.p:.3g} (the smallest Holm-corrected p, level "
             f"{check.level:.0%}); Pearson's chi-square of each of {len(check.rows)} distributions ({tested} distinct "
             f"quantities, cells expecting under 5 deals pooled) against its exact chances",
             f"  {'distribution':<52}{'deals':>10}{'df':>5}{'chi-square':>12}{'p':>9}{'p (Holm)':>10}"]
    for r in check.rows:
        lines.append(f"  {r.distribution:<52}{r.n:>10,}{r.df:>5}{r.statistic:>12.2f}{r.p:>9.3g}{r.p_holm:>10.3g}")
    lines.append("  left out of the check (each the same event as a quantity tested, its complement or a sum of them):")
    lines += [f"    {q}: {why}" for q, why in check.dropped]
    lines.append(f"  per row (information only: the rows share their deals): {result.inside} of {len(result.rows)} "
                 "exact values lie inside the row's own 95% interval")
    return lines


def marriage_play_lines(result: MarriagePlay) -> list[str]:
    """The marriages in play of one run: the marriage points each role scores, then what became of
    the marriages held, by role and suit."""
    import math

    from analysis.marriages.in_play import FATES

    lines = [f"marriages in play: {result.deals:,} deals played by the {players_text(result.players)} (seed "
             f"{result.seed}); of the marriages (K and Q of a suit) each role held in the cards it played with, the "
             "share of each fate [95%]"]
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
    """What each suit's marriage is worth in a bid table: points gained playing 120 (the table's
    player, the same within hands of as many aces, double dummy), the make-rate of 120 and the
    contract made ``1 - risk`` of the time."""
    def gain(g: tuple) -> str:
        return f"{g[0]:+6.1f} [{g[1]:+.1f}, {g[2]:+.1f}]"

    lines = [f"what a marriage is worth (bid table {result.bids}): the declarer's points playing 120 with and "
             f"without the suit's marriage among his 10 cards, played by the {players_text((result.player,) * 3)} (dd: "
             "double dummy), [95% interval]",
             f"{'suit':<5}{'deals with / without':>22}  {'points gained':<24}{'same aces: gained':<24}"
             f"{'dd points gained':<24}{'makes 120: with / without':<28}"
             f"contract made {1 - result.risk:.0%} of the time"]
    for r in result.rows:
        makes = f"{r.learned120_with[0]:.3f} / {r.learned120_without[0]:.3f}"
        lines.append(f"{r.suit:<5}{r.n_with:>10,} / {r.n_without:<9,}  {gain(r.learned_gain):<24}"
                     f"{gain(r.learned_gain_same_aces):<24}{gain(r.dd_gain):<24}{makes:<28}{worth_contracts_text(r)}")
    return lines


def worth_contracts_text(r: WorthRow) -> str:
    """A worth row's contracts made ``1 - risk`` of the time with and without the marriage, and
    their difference: "135 / none" ("none": not even the lowest contract), "120 / 100 (+20)"."""
    def name(c: int | None) -> str:
        return "none" if c is None else str(c)

    gain = f" ({r.contract_gain:+d})" if r.contract_gain is not None else ""
    return f"{name(r.contract_with)} / {name(r.contract_without)}{gain}"


# --- solve ---
def solved_layout_lines(result: SolvedLayout) -> list[str]:
    """What ``thousand solve`` prints for one layout: its line as a title when it came from a file,
    the value, the value of each lead (best first) and the principal variation trick by trick
    (``*``: the card declares a marriage)."""
    from sim.game.cards import format_card

    lines = [result.layout] if result.from_file else []
    lines.append(f"value {result.value}")
    leads = "  ".join(f"{format_card(c)} {v}" for c, v in result.lead_values)
    lines.append(f"leads by seat {result.leader}: {leads}")
    tricks = []
    for i in range(0, len(result.plays), result.seats):
        tricks.append(" ".join(f"{p.seat}:{format_card(p.card)}{'*' if p.declared else ''}"
                               for p in result.plays[i:i + result.seats]))
    lines.append("play: " + " | ".join(tricks) + ("   (* declares)" if any(p.declared for p in result.plays) else ""))
    return lines


# --- strategy ---
_STRATEGY_TITLES = {"raising": "raising after the talon", "conceding": "conceding", "discard": "the discard",
                    "marriage_order": "which marriage first (declarer keeping two or more)",
                    "defence": "defence against a declarer's marriage", "seats": "play by seat",
                    "score": "the score situation"}
# Leaves that are means (points, contracts, tricks, counts a game); every other estimate is a share.
_STRATEGY_MEANS = ("mean raise", "mean_raise", "result", "points", "contract", "tricks", "winning bid", "per deal",
                   "per_game", "saved", "card_points")


def strategy_lines(result: StrategyReport) -> list[str]:
    """What ``thousand tables strategy`` prints: every estimate (a share in %, or a mean) and every
    difference (with its Holm-corrected p-value) of each section, with its 95% interval
    (clustered by game) and the rows it rests on, then where the table and the plot are."""
    from analysis.strategy import Difference, Estimate, _leaves

    players = ", ".join(result.players)
    lines = [f"strategy in play: {result.games:,} games and {result.deals:,} paired deals of players {players}, "
             f"rules {result.rules_name}, seed {result.seed}; 95% intervals clustered by game; differences b - a "
             "paired by game (the concession's by deal), p Holm-corrected over all of them"]
    for name, title in _STRATEGY_TITLES.items():
        lines.append(f"-- {title}")
        for path, leaf in _leaves(getattr(result, name), ""):
            label = path.lstrip(".").replace("_", " ")
            if isinstance(leaf, Estimate):
                if not leaf.n:
                    continue
                mean = any(word in path for word in _STRATEGY_MEANS)
                scale, unit = (1, "") if mean else (100, "%")
                value = f"{scale * leaf.value:.1f}{unit}"
                band = "" if leaf.low != leaf.low else f" [{scale * leaf.low:.1f}, {scale * leaf.high:.1f}]"
                lines.append(f"  {label:<62}{value + band:<28}n={leaf.n:,}")
            elif isinstance(leaf, Difference) and leaf.diff == leaf.diff:
                mean = any(word in path for word in _STRATEGY_MEANS) or abs(leaf.a) > 1 or abs(leaf.b) > 1
                scale = 1 if mean else 100
                band = "" if leaf.low != leaf.low else f" [{scale * leaf.low:+.1f}, {scale * leaf.high:+.1f}]"
                lines.append(f"  {label + ' (b - a)':<62}{f'{scale * leaf.diff:+.1f}{band}':<28}"
                             f"a={scale * leaf.a:.1f} b={scale * leaf.b:.1f} p(Holm)={leaf.p_holm:.2g}")
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}"]
# --- win chances ---
def _win_chance_scores(result: WinChanceTable) -> list[int]:
    """The scores of the typical situations shown for a table: round scores below the barrel (or
    the target), then the barrel's own score when there is one."""
    grid = result.grid
    shown = [s for s in (0, 200, 400, 600, 700, 800, 840) if grid.floor <= s < grid.top]
    return shown + ([grid.top] if grid.has_barrel else [])


def win_chance_lines(result: WinChanceTable) -> list[str]:
    """What ``thousand tables win-chances`` prints: the chance of winning in typical situations
    (your score down, the leading opponent's across, the third player at a typical score), the
    validation on held-out games, the checks, and where the table and the plot are."""
    import numpy as np

    from analysis.win_chances import DENSE, END_GAME, TYPICAL_THIRD

    grid, v, c = result.grid, result.validation, result.checks
    scores = _win_chance_scores(result)
    barrel = grid.top if grid.has_barrel else None

    def name(s: int) -> str:
        return "barrel" if s == barrel else str(s)

    corner = "you \\ leader"

    lines = [f"chance of winning the game from the scores at the start of a deal, in %: {result.finished:,} finished "
             f"games ({result.deals:,} deals) of {', '.join(result.players)} under these rules, seed {result.seed}",
             f"rows: your score; columns: the leading opponent's; the third player at {TYPICAL_THIRD} (or the leader's "
             f"score if lower); scores in bins of {grid.width} from the value shown",
             f"{corner:>14}" + "".join(f"{name(s):>8}" for s in scores)]
    for own in scores:
        lead = np.array(scores)
        p = result.chance(np.full(len(lead), own), lead, np.minimum(lead, TYPICAL_THIRD))
        lines.append(f"{name(own):>14}" + "".join(f"{100 * x:>8.1f}" for x in p))
    lines.append(f"validation on {v.games:,} held-out games ({v.observations:,} seat-deals, "
                 f"{v.end_game_observations:,} in an end game: somebody at {END_GAME} or more or on the barrel), "
                 "the table fitted on the others; lower is better, difference [95% interval, clustered by game]:")
    for what, items in (("Brier score", v.brier), ("log-loss", v.log_loss), ("Brier score, end games",
                                                                            v.end_game_brier)):
        for x in items:
            if what == "log-loss" and x.baseline_name == "the leader wins":
                continue  # a certain prediction that fails has an infinite log-loss: no comparison
            lines.append(f"  {what:<24} table {x.table:.4f}  vs {x.baseline_name:<16} {x.baseline:.4f}  "
                         f"{x.diff:+.4f} [{x.ci_low:+.4f}, {x.ci_high:+.4f}]")
    lines.append("calibration by deciles of the predicted chance (held-out): predicted -> observed [95%]")
    for d in v.calibration:
        lines.append(f"  {d.decile:>2}  {100 * d.low:5.1f}-{100 * d.high:5.1f}%  n {d.n:>8,}  "
                     f"{100 * d.predicted:5.1f}% -> {100 * d.observed:5.1f}% [{100 * d.ci_low:.1f}, "
                     f"{100 * d.ci_high:.1f}]")
    lines.append(f"checks: chances from {c.low:.3f} to {c.high:.3f}; the three seats' chances of a situation sum "
                 f"to 1 within {c.sum_mean_abs:.4f} on average (largest {c.sum_max_abs:.4f}, {c.sum_max_z:.2f} "
                 f"standard errors, over {c.sum_dense:,} situations of {DENSE}+ deals); against the expected "
                 f"direction (own score up, an opponent's down) in {c.monotone_against} of {c.monotone_pairs:,} "
                 f"neighbouring cells of {DENSE}+ observations beyond 2 standard errors (largest wrong-way step "
                 f"{100 * c.worst_against:.1f} points)")
    return lines + [f"table: {result.table_path}; plot: {result.plot_path}; games: {result.run}"]
