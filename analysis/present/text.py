"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import TYPE_CHECKING

from sim.game.cards import SUIT_SYMBOLS, SUITS

if TYPE_CHECKING:  # the result types only: importing the advisor loads the compiled kernels
    from collections.abc import Sequence

    from analysis.advisor import Advice
    from analysis.barrel import BarrelStats, Share
    from analysis.compare import Comparison
    from analysis.marriages import MarriageOdds, MarriagePlay, MarriageWorth
    from analysis.summary import RunSummary
    from analysis.tables import BidTable, CheatRow
    from analysis.tournament import TournamentResult
    from analysis.win_chances import WinChanceTable
    from sim.solver import SolvedLayout

__all__ = [
    "comparison_lines",
    "barrel_lines",
    "tournament_lines",
    "advice_lines",
    "advice_csv",
    "run_summary_lines",
    "cheat_sheet_lines",
    "bid_table_lines",
    "marriage_odds_lines",
    "marriage_play_lines",
    "marriage_worth_lines",
    "solved_layout_lines",
    "win_chance_lines",
]


# --- compare ---
def comparison_lines(result: Comparison) -> list[str]:
    """What ``thousand compare`` prints: every difference to the first rule set, the count of those
    significant, what was left out, and where the table and the plot are."""
    labels = result.rule_sets
    lines = [f"rule sets compared on the same deals (common random numbers): {', '.join(labels)}; differences to "
             f"{labels[0]} with 95% intervals; * = significant after Holm's correction (family-wise 5%)",
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
    from analysis.barrel import FATES, SCORE_STEP

    summaries = result.summaries
    names = list(summaries)
    width = 24
    lines = ["barrel survival (share of barrel episodes, [95% interval])",
             f"{'':<30}" + "".join(f"{n[:width - 2]:<{width}}" for n in names)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:<30}" + "".join(f"{c:<{width}}" for c in cells))

    def pct(x: Share) -> str:
        return "-" if not x.n else f"{x.p:.3f} [{x.ci_low:.3f}, {x.ci_high:.3f}]"

    row("games / barrel episodes", [f"{s.games:,} / {s.episodes:,}" for s in summaries.values()])
    for f in FATES:
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
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


# --- advisor ---
ADVICE_METHOD_TEXT = {
    "dd": "dd = double dummy: every seat sees every card and plays perfectly, the declarer discards best "
          "(the deal's value under perfect play, not a bound: real declarers can do better against weaker defence)",
    "pimc": "pimc = every seat averages double-dummy values over the worlds it cannot tell apart",
    "heuristic": "heuristic = every seat is the heuristic player",
}


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} = {float(p):.1%}"


def advice_lines(advice: Advice) -> list[str]:
    """What ``thousand bid`` prints: the situation, a row per contract with each method's chance of
    making it and expected score, the pass line, each method's advice, the talon's chances and the
    recommendation."""
    a = advice
    ms = a.methods
    forced = a.forced_bid
    duty = (f", forced to bid {forced}" if forced is not None
            else ", not forced to bid: forced_first_bid = false" if a.seat == "first" else "")
    out = [f"hand {a.hand}  ({a.seat} hand{duty}; rules {a.rule_changes or 'classic'})"]
    if a.known_cards:
        out.append("known: " + ", ".join(f"{k} {v}" for k, v in a.known_cards.items()))
    if a.situation.on_barrel:
        out.append("you sit on the barrel: a made contract scores only if it takes you off (wins the game)")
    elif a.situation.score:
        out.append(f"your score {a.situation.score}")
    if not a.can_bid:
        out.append(f"bidding cap {a.bidding_cap}: below the minimum bid {a.min_bid}, so this hand cannot bid "
                   "(a bid above 120 needs a marriage)")
        out.append(f"samples: {a.samples} (seed {a.seed}), for passing and defending only")
    else:
        out.append(f"bidding cap {a.bidding_cap}; a talon could let you raise the final contract to {a.raise_cap}")
        sizes = ", ".join(f"{m} {a.samples_of(m)}" for m in ms)
        out.append(f"samples: {sizes} (seed {a.seed}{', pimc worlds ' + str(a.worlds) if a.worlds else ''})"
                   "; [95% interval]; E = expected score of declaring")
        out.append("contract  " + "  ".join(f"{m + ' p_make [95%]':<24}{'E':>7}" for m in ms))
    shown_raise = False
    for row in a.contracts:
        if not row.biddable:
            if all(e.p_make == 0 for e in row.estimates):
                out.append(f"(from {row.contract} on: made in no sample)")
                break
            if not shown_raise:
                out.append("-- above the bidding cap: only as a final contract, if the talon brings the marriages --")
                shown_raise = True
        cells = [f"{e.p_make:6.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]  {e.ev_declare:+7.1f}" for e in row.estimates]
        out.append(f"{row.contract:>8}  " + "  ".join(cells))
    p = a.pass_line
    out.append(f"pass and defend: E = {p.ev:+.1f} [{p.ci_low:+.1f}, {p.ci_high:+.1f}]"
               + (f"; nobody outbids your forced bid in {p.stuck_with_forced_bid:.1%}" if forced is not None else ""))
    out.append(f"  (estimated on {p.method})")
    out.append(f"advice (risk {a.risk:.2f}: the highest bid made at least {1 - a.risk:.0%} of the time):")
    nothing = f"(nothing: forced bid {forced}, then pass)" if forced is not None else "(nothing: pass)"
    for m in a.method_advice:
        if m.best_ev is None:
            out.append(f"  {m.method:<9} nothing to bid: pass ({p.ev:+.1f})")
            continue
        top, best = m.max_bid_at_risk, m.best_ev_bid
        out.append(f"  {m.method:<9} bid up to {top if top is not None else nothing}; best expected score "
                   + (f"at {best} ({m.best_ev:+.1f} vs pass {p.ev:+.1f})" if best is not None
                      else f"by passing ({p.ev:+.1f} vs {m.best_ev:+.1f} declaring)"))
    t = a.talon
    out.append(f"talon (exact, over all {t.talons} possible talons):")
    for mc in t.marriages:
        what = f"completes your {mc.holding}" if mc.holding else "brings both halves of"
        out.append(f"  {what} {SUIT_SYMBOLS[SUITS.index(mc.suit)]} marriage: {_exact(mc.p)}")
    out.append(f"  any new marriage: {_exact(t.any_marriage)}")
    aces = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.aces)
    tens = "  ".join(f"{c.card} {float(c.p):.1%}" for c in t.tens)
    out.append(f"  at least one ace {float(t.at_least_one_ace):.1%} ({aces or 'you hold all four'})")
    out.append(f"  at least one ten {float(t.at_least_one_ten):.1%} ({tens or 'you hold all four'})")
    out.append(f"  expected talon card points {float(t.expected_points):.1f}")
    out.append("methods: " + "; ".join(ADVICE_METHOD_TEXT[m] for m in ms))
    rec = a.recommendation
    if not a.can_bid:
        out.append(f"recommendation: pass (this hand cannot bid; passing and defending scores {rec.ev:+.1f})")
    elif rec.p_make is None:
        out.append(f"recommendation ({rec.method} play): {rec.action} (no contract is made at least "
                   f"{1 - rec.risk:.0%} of the time; passing and defending scores {rec.ev:+.1f})")
    else:
        out.append(f"recommendation ({rec.method} play): {rec.action}: made {rec.p_make:.0%} "
                   f"[{rec.ci_low:.0%}, {rec.ci_high:.0%}] of the time, expected score {rec.ev:+.1f}")
    return out


def advice_csv(advice: Advice) -> str:
    """What ``thousand bid --csv`` prints: a row per contract and method, with the pass line's
    expected score on every row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["method", "contract", "biddable", "n", "made", "p_make", "ci_low", "ci_high", "ev_declare",
                "ev_pass"])
    for row in advice.contracts:
        for e in row.estimates:
            w.writerow([e.method, row.contract, row.biddable, e.n, e.made, f"{e.p_make:.6f}", f"{e.ci_low:.6f}",
                        f"{e.ci_high:.6f}", f"{e.ev_declare:.3f}", f"{advice.pass_line.ev:.3f}"])
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
        lines.append(f"deals with a declarer: {d.deals:,}; declarer made {d.made_rate_played:.1%} "
                     f"of played contracts (95% CI {lo:.1%}–{hi:.1%}); conceded {d.conceded_rate:.1%}; "
                     f"mean contract {d.contract_mean:.1f}")
    if len(s.by_player) > 1:
        for r in s.by_player:
            lines.append(f"  as declarer, {r.player}: made {r.made_rate:.1%} ({r.ci_low:.1%}–{r.ci_high:.1%}) "
                         f"of {r.declared:,}, mean contract {r.mean_contract:.1f}")
    if s.games is not None:
        g = s.games
        ci_lo, ci_hi = g.deals_mean_ci
        lines.append(f"games: {g.games:,} ({g.unfinished} unfinished); mean length {g.deals_mean:.1f} "
                     f"deals (95% CI {ci_lo:.1f}–{ci_hi:.1f}), median {g.deals_median:.0f}")
        for seat in g.seats:
            lines.append(f"  seat {seat.seat} ({seat.player}): won {seat.win_rate:.1%} "
                         f"(95% CI {seat.ci_low:.1%}–{seat.ci_high:.1%})")
    return lines


# --- tables bids ---

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
