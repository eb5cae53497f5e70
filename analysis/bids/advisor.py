"""The bid advisor: how much should this 7-card hand bid?

``advise`` samples the 17 cards the player cannot see (talon 3, the two opponents 7 + 7, cards
known to lie somewhere kept there) and answers on the same sampled deals (docs/advisor.md):

- **The decision**, from the auction itself: every sampled deal is played once per bidding line
  of yours (``sim.engine.playouts.auction_lines``): pass at every turn (as the seat holding the
  forced bid: the forced bid, then pass), the line player's own bidding (shown as information), and
  "bid up to b" for every legal bid b (``sim.game.bids_nb.bid_values``) from the least bid to the
  hand's bidding cap. Everything else in the deal
  (the others' bids, the talon, raising the contract after it or conceding, the gifts, the cards)
  is played by one player for every seat (``line_player``: the learned player by default; with
  the win objective the score-aware learned player, ``default_line_player``). Each
  line's result under the objective (``analysis.bids.value``: ``race``, your score change minus the
  opponents' mean; ``own``, your score change; ``win``, your chance of winning) is compared with
  the pass line on the same deals (its gain: the expected result of bidding up to that level
  rather than always passing). The plateau (``analysis.bids.value.plateau``) is the lines not
  shown to lose more than a margin against the best line on these deals; the recommendation (the
  settled rule, ``analysis.bids.value.settled``) is the lowest level shown within the margin of the
  best that beats passing, stated with
  its gain and 95% interval, or "pass" ("forced bid B, then pass" for the seat holding the forced
  bid) when passing is in the plateau and no line beats it, or "untested" when too few sampled
  auctions reached any level above the opening. Without ``samples`` the lines are played in
  batches of ``BATCH`` deals until the plateau is settled, at most ``SAMPLES_CAP``
  (``settle_lines``); the make-rate table plays its own first ``MAKE_SAMPLES``.
- **Information**, by one or more methods: the chance of making each contract from the minimum
  bid to what a talon could let the declarer raise it to, when he declares it and plays it as that
  contract from the talon on (``learned``: the learned player in every seat, each contract played
  apart, ``contract_points``; ``dd``: double dummy with the best discard, every seat seeing every
  card; ``heuristic``; ``pimc``), the expected score of declaring each contract, the highest bids
  made at least (1 - risk) and 50% of the time, and the talon's chances, computed exactly over every
  possible talon. None of these is the decision: they leave the auction and the opponents aside.

The sampling and the playouts are the engine's (``sim.engine.playouts``, over the compiled kernels
of ``sim.engine.playouts_nb``): its random streams make the results depend on the seed and the
sample count only, never on the number of threads. This module checks the question (what a hand
may bid: ``analysis.bids.hand``), chooses the contract levels and the lines, and turns the playouts
into an ``Advice`` (``analysis.bids.advice``): a frozen result whose ``to_polars()`` gives the
lines (or the contract levels) as a table and ``to_dict()`` its JSON (``analysis.present`` prints
it: ``present.advice.advice_lines``, ``advice_csv``, ``json_text.to_json``).

First hand (the dealer, third hand, under ``forced_bid_seat = dealer``) is forced to bid the minimum
only under ``forced_first_bid``; a hand that is not forced and whose bidding cap is below its least
bid (no marriage, ``min_bid`` above 120; ``bid_ceiling_before_talon`` below it is refused) cannot
bid at all: its advice is to pass, with the pass line's value. Under ``all_pass = dealer_plays`` the
dealer may be made to declare ``min_bid`` when the others pass; under ``barrel_min_bid_enforced`` a
sitter bids (and is forced to) at least ``barrel_min_contract``. Which bids and contracts are legal:
``sim.game.bids_nb``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from analysis.bids.advice import (
    Advice,
    ContractRow,
    LineRow,
    MethodEstimate,
    Recommendation,
    RiskLevels,
)
from analysis.bids.hand import (
    SEATS,
    check_situation,
    check_three_player_deal,
    contract_levels,
    fail_loss,
    least_bid,
    made_gain,
    owed_contract,
    parse_known,
    talon_chances,
)
from analysis.bids.value import (
    OBJECTIVES,
    LineValue,
    Plateau,
    WinChance,
    line_outcome,
    line_values,
    plateau,
    settled,
)
from analysis.stats import Estimate, wilson_interval
from sim import __version__, arguments
from sim.engine.playouts import (
    ADVICE_WORLDS,
    CHUNK,
    PASS_LINE,
    AdvisorError,
    Situation,
    auction_lines,
    contract_points,
    dd_levels,
    sample_unseen,
)
from sim.game.bids_nb import bid_values
from sim.game.cards import CardError, format_hand, parse_hand
from sim.game.rules import HouseRules, load_rules
from sim.parallel import check_thread_count
from sim.players.learned.win_table import has_win_table
from sim.players.params import MAX_PIMC_WORLDS
from sim.progress import Progress

__all__ = ["METHODS", "LINE_PLAYERS", "DEFAULT_PIMC_SAMPLES", "MAX_SAMPLES", "SCORE_GIVEN", "BATCH", "SAMPLES_CAP",
           "MAKE_SAMPLES", "SCORE_AWARE", "TABLE_PLAYER", "Settling", "settle_lines", "parse_methods",
           "default_objective", "default_line_player", "advise"]

METHODS = ("learned", "dd", "heuristic", "pimc")  # the make-rate methods; the default is learned
# Who plays the auction lines (every seat but your bidding). learned-win is the learned player whose
# bids, final contract and concession read the score (docs/learned.md), the default with the win
# objective where the rules have its table (default_line_player).
LINE_PLAYERS = ("learned", "heuristic", "learned-win")
SCORE_AWARE = "learned-win"
# The player whose games a line player's table of win chances comes from: learned-win's own decisions
# read the learned player's table, so its advice is valued by that table too.
TABLE_PLAYER = {SCORE_AWARE: "learned"}
DEFAULT_PIMC_SAMPLES = 100
MAX_SAMPLES = 5_000_000  # sampled deals: a few arrays of 24 bytes each stay within a few hundred MiB
SCORE_GIVEN = "a score was given"  # why the objective is win when none is given (default_objective)
# Without --samples the lines are played in batches of BATCH deals (whole chunks of CHUNK, each
# seeded by its index: the first n deals are those of --samples n), the settled rule asked after
# each, until the plateau is settled or SAMPLES_CAP deals are played.
BATCH = 500
SAMPLES_CAP = 4000
# The make-rate table (information) is played on its own first MAKE_SAMPLES deals without --samples:
# each contract is a play of its own (about 40 a strong hand), the costliest part of the answer
# (a make-rate of 50% on 300 deals: ±5.7 points).
MAKE_SAMPLES = 300


def parse_methods(spec: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The make-rate methods of ``spec`` ("learned,dd" or a sequence), each once, in order."""
    names = [m.strip().lower() for m in (spec.split(",") if isinstance(spec, str) else spec) if m.strip()]
    if not names:
        raise AdvisorError(f"give at least one method: {', '.join(METHODS)}")
    for m in names:
        if m not in METHODS:
            raise AdvisorError(f"unknown method {m!r}; methods are: {', '.join(METHODS)}")
    return tuple(dict.fromkeys(names))


def _made(points: np.ndarray, levels: list[int], rules: HouseRules, method: str) -> np.ndarray:
    """(n, levels) bool: the contract of each column made, from the declarer's ``points`` (n, levels)
    (dd: the level reached, never rounded; the others rounded by ``rounding`` under ``round_declarer``)."""
    pts = np.asarray(points)
    if rules.round_declarer and method != "dd":
        pts = rules.round_points(pts)
    return pts >= np.asarray(levels, dtype=np.int64)[None, :]


def _estimates(method: str, made: np.ndarray, levels: list[int], rules: HouseRules,
               sit: Situation, points: np.ndarray | None = None) -> list[MethodEstimate]:
    """``method``'s estimate at each contract of ``levels`` from ``made`` ((n, levels) bool). With
    ``declarer_scores = points`` and the declarer's ``points`` ((n, levels), not for dd, whose
    figure is a level reached) a made contract scores his rounded points when more, sample by sample."""
    n = made.shape[0]
    out = []
    for j, b in enumerate(levels):
        k = int(made[:, j].sum())
        p = k / n
        lo, hi = wilson_interval(k, n)
        lo, hi = min(lo, p), max(hi, p)  # rounding at p = 0 or 1
        gain, loss = made_gain(b, rules, sit), fail_loss(b, rules, sit)
        if rules.declarer_scores == "points" and points is not None:
            scored = np.maximum(b, rules.round_points(np.asarray(points[:, j], dtype=np.int64)))
            each = np.where(made[:, j], [made_gain(b, rules, sit, int(v)) for v in scored], -loss)
            ev, sd = float(each.mean()), float(each.std())
        else:
            ev = p * gain - (1 - p) * loss
            sd = math.sqrt(p * (1 - p)) * (gain + loss)
        out.append(MethodEstimate(method=method, made=k, n=n, make=Estimate(p, lo, hi, n=n),
                                  ev=Estimate.mean(ev, sd * math.sqrt(n / max(1, n - 1)), n) if n > 1
                                  else Estimate(ev, ev, ev, n=n)))
    return out


def _learned_made(mask: int, deals: np.ndarray, rules: HouseRules, seed: int, levels: list[int], cap: int, *,
                  worlds: int, threads: int | None, progress: Progress | None) -> tuple[np.ndarray, np.ndarray]:
    """(made, points): (n, played levels) bool and the declarer's points, the learned declarer
    playing each contract of ``levels`` apart (``contract_points``: the same random streams as
    each level alone), stopping after the first contract above the bidding cap ``cap`` made in no
    sample."""
    total = len(deals) * len(levels)
    stage = "learned player: each contract played apart"
    step = None if progress is None else (lambda done: progress(stage, done, total))

    def stop(b: int, pts: np.ndarray) -> bool:
        return b > cap and not _made(pts[:, None], [b], rules, "learned").any()

    pts = contract_points(mask, deals, rules, "learned", seed, levels, worlds=worlds, threads=threads, progress=step,
                          stop=stop)
    if progress is not None and pts.shape[1] < len(levels):
        progress(stage, total, total)  # the rest is not played: the stage is over
    return _made(pts, levels[:pts.shape[1]], rules, "learned"), np.asarray(pts)


@dataclass(frozen=True)
class Settling:
    """What ``settle_lines`` played: the ``lines`` array, their ``values`` and ``plateau``,
    the ``samples`` (deals) played and the ``sampling``: "settled", "cap" or "fixed"."""

    lines: np.ndarray
    values: tuple[LineValue, ...]
    plateau: Plateau
    samples: int
    sampling: str


def settle_lines(mask: int, deals: np.ndarray, rules: HouseRules, dealer: int, sit: Situation, limits: list[int],
                 seed: int, *, samples: int | None = None, objective: str = "race", win_chance: WinChance | None = None,
                 player: str = "learned", worlds: int = ADVICE_WORLDS, threads: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Settling:
    """The auction lines of ``limits`` on the first deals of ``deals`` (at least ``SAMPLES_CAP``,
    or ``samples``): all ``samples`` of them when given, else batches of ``BATCH`` (deal i always
    drawn from chunk i // CHUNK's streams, so stopping after n deals gives the lines of ``samples =
    n``), the plateau judged after each, until it is settled (``Plateau.settled``: which levels are
    tested depends on the share of the deals that reached them, so no level waits for more deals to
    be judged) or ``SAMPLES_CAP`` deals are played. ``progress(deals
    played)``."""
    fixed = samples is not None
    line_n = samples if fixed else SAMPLES_CAP
    parts: list[np.ndarray] = []
    done = 0
    while True:
        size = line_n - done if fixed else min(BATCH, line_n - done)
        step = None if progress is None else (lambda k, done=done: progress(done + k))
        parts.append(auction_lines(mask, deals[done:done + size], rules, dealer, sit, limits, seed, player=player,
                                   worlds=worlds, threads=threads, first_chunk=done // CHUNK, progress=step))
        done += size
        lines = parts[0] if len(parts) == 1 else np.concatenate(parts)
        values = line_values(lines, limits, objective=objective, win_chance=win_chance)
        plat = plateau(values, line_outcome(lines, objective, win_chance), objective=objective)
        if done >= line_n or plat.settled:
            break
    if progress is not None and done < line_n:
        progress(line_n)  # settled: the rest is not played
    return Settling(lines=lines, values=values, plateau=plat, samples=done,
                    sampling="fixed" if fixed else "settled" if plat.settled else "cap")


def _risk_levels(method: str, rows: tuple[ContractRow, ...], risk: float) -> RiskLevels:
    biddable = [r for r in rows if r.biddable]

    def highest(p: float) -> int | None:
        ok = [r.contract for r in biddable if r.estimate(method).make.value >= p]
        return ok[-1] if ok else None

    return RiskLevels(method=method, risk=risk, at_risk=highest(1 - risk), at_half=highest(0.5))


def default_objective(*, score: int | None = None, on_barrel: bool = False, left_score: int | None = None,
                      left_on_barrel: bool = False, right_score: int | None = None,
                      right_on_barrel: bool = False, attempts: int | None = None, bolts: int | None = None,
                      passes: int | None = None) -> str:
    """The objective ``thousand bid`` takes when none is given: ``win`` (the chance of winning the
    game) when a score is given, that is a situation other than a game's start (a score other than
    0, a seat on the barrel, or a counter other than 0: the command then says so, ``SCORE_GIVEN``);
    ``race`` from a zero score, where the chance of winning follows the race."""
    given = any(x not in (None, 0) for x in (score, left_score, right_score, attempts, bolts, passes)) or any(
        (on_barrel, left_on_barrel, right_on_barrel))
    return "win" if given else "race"


def default_line_player(objective: str, rules: str | HouseRules | None) -> str:
    """The line player ``thousand bid`` takes when none is given: with the win objective the
    score-aware learned player (``SCORE_AWARE``), whose bids after yours, final contract and
    concession weigh the score as yours are judged, where the rules have its table of win chances;
    else the learned player."""
    if objective.strip().lower() != "win":
        return "learned"
    return SCORE_AWARE if has_win_table(load_rules(rules)) else "learned"


def _check_objective(objective: str, win_chance: WinChance | None) -> str:
    objective = objective.strip().lower()
    if objective not in OBJECTIVES:
        raise AdvisorError(f"--objective {objective!r}: objectives are {', '.join(OBJECTIVES)}")
    if objective == "win" and win_chance is None:
        raise AdvisorError("--objective win needs a table of win chances (thousand tables win-chances, or the "
                           "table shipped for the rules)")
    return objective


def advise(*, hand: str | int, rules: str | HouseRules | None = None, samples: int | None = None,
           make_samples: int | None = None, seed: int = 0,
           methods: str | tuple[str, ...] = ("learned",), seat: str = "first", risk: float = 0.3,
           objective: str = "race", line_player: str = "learned", win_chance: WinChance | None = None,
           win_source: str | None = None, objective_reason: str | None = None,
           left: str | None = None, right: str | None = None, talon: str | None = None, score: int | None = None,
           on_barrel: bool = False, left_score: int | None = None, left_on_barrel: bool = False,
           right_score: int | None = None, right_on_barrel: bool = False, attempts: int | None = None,
           bolts: int | None = None, passes: int | None = None, pimc_samples: int = DEFAULT_PIMC_SAMPLES,
           worlds: int | None = None, threads: int | None = None, progress: Progress | None = None) -> Advice:
    """The bid advice for the 7-card ``hand`` (text, or a card mask) before the talon (see the module
    docstring): ``methods`` (the make-rate methods) as "learned,dd" or a tuple; ``objective`` race or
    own or win (win needs ``win_chance``, seat 0's chance of winning from the three scores after the
    deal; ``win_source`` says in words which table it is; ``default_objective`` is the command's
    choice when none is given, and ``objective_reason`` says why in the advice, None when the
    objective was asked for); ``line_player`` learned, heuristic or learned-win (the
    score-aware learned player; ``default_line_player`` is the command's choice when none is
    given); ``worlds`` None is ADVICE_WORLDS; a score None is 0 (the barrel's on the barrel);
    ``attempts``, ``bolts`` and ``passes`` are your counters (``check_situation``; None: 0);
    ``progress`` is told what is computed as it goes. Bad input raises ``AdvisorError`` or ``CardError``
    (an argument of the wrong type ``InputError``, ``sim.arguments``; a ``HouseRules`` is validated
    as a file's rules are)."""
    if not isinstance(hand, str) and (isinstance(hand, bool) or not isinstance(hand, numbers.Integral)):
        raise arguments.refused("hand", "7 cards as text or a card mask (an integer)", hand)
    samples = arguments.integer("samples", samples, optional=True)
    make_samples = arguments.integer("make_samples", make_samples, optional=True)
    seed = arguments.integer("seed", seed)
    if not isinstance(methods, str):
        methods = arguments.texts("methods", methods, what=f"methods ({', '.join(METHODS)})")
    seat, objective = arguments.text("seat", seat), arguments.text("objective", objective)
    risk, line_player = arguments.number("risk", risk), arguments.text("line_player", line_player)
    win_chance = arguments.function("win_chance", win_chance)
    win_source = arguments.text("win_source", win_source, optional=True)
    objective_reason = arguments.text("objective_reason", objective_reason, optional=True)
    left, right = arguments.text("left", left, optional=True), arguments.text("right", right, optional=True)
    talon = arguments.text("talon", talon, optional=True)
    score, left_score, right_score, attempts, bolts, passes = (
        arguments.integer(name, value, optional=True) for name, value in
        (("score", score), ("left_score", left_score), ("right_score", right_score), ("attempts", attempts),
         ("bolts", bolts), ("passes", passes)))
    on_barrel, left_on_barrel, right_on_barrel = (arguments.flag(name, value) for name, value in (
        ("on_barrel", on_barrel), ("left_on_barrel", left_on_barrel), ("right_on_barrel", right_on_barrel)))
    pimc_samples = arguments.integer("pimc_samples", pimc_samples)
    worlds = arguments.integer("worlds", worlds, optional=True)
    threads = arguments.integer("threads", threads, optional=True)
    progress = arguments.function("progress", progress)
    worlds = ADVICE_WORLDS if worlds is None else worlds
    rec = load_rules(rules)
    check_three_player_deal(rec)
    mask = parse_hand(hand, count=7, what="hand") if isinstance(hand, str) else int(hand)
    if bin(mask).count("1") != 7:
        raise CardError(f"the hand has {bin(mask).count('1')} cards; expected 7 (before the talon)")
    known = parse_known(mask, left, right, talon)
    methods = parse_methods(methods)
    if seat not in SEATS:
        raise AdvisorError(f"seat {seat!r}: write first, second or third")
    if not 0 < risk < 1:
        raise AdvisorError(f"risk {risk}: must be between 0 and 1 (the failure chance you accept)")
    for option, value in (("--samples", samples), ("--make-samples", make_samples), ("--pimc-samples", pimc_samples)):
        if value is not None and not 1 <= value <= MAX_SAMPLES:
            raise AdvisorError(f"{option} must be from 1 to {MAX_SAMPLES:,}, not {value}")
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise AdvisorError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not {worlds}")
    if seed < 0:
        raise AdvisorError(f"--seed must be 0 or more, not {seed}")
    line_player = line_player.strip().lower()
    if line_player not in LINE_PLAYERS:
        raise AdvisorError(f"--line-player {line_player!r}: the lines are played by {' or '.join(LINE_PLAYERS)}")
    check_thread_count("--threads", threads)
    sit = check_situation(rec, score, on_barrel, left_score, left_on_barrel, right_score, right_on_barrel,
                          attempts=attempts, bolts=bolts, passes=passes)
    objective = _check_objective(objective, win_chance)
    forced, owed = owed_contract(rec, seat, sit.on_barrel)
    levels, cap, top = contract_levels(mask, known, rec, owed, sit.on_barrel)
    least = least_bid(rec, sit.on_barrel)

    def stage(what: str, n: int) -> Callable[[int], None] | None:
        return None if progress is None else (lambda done: progress(what, done, n))

    fixed = samples is not None
    make_n = make_samples if make_samples is not None else samples if fixed else MAKE_SAMPLES
    line_n = samples if fixed else SAMPLES_CAP
    deals = sample_unseen(mask, known, max(line_n, make_n), seed)  # the first n are those of n alone
    limits = [PASS_LINE, 0, *bid_values(least, cap, rec.to_array())]
    settling = settle_lines(mask, deals, rec, SEATS[seat], sit, limits, seed, samples=samples, objective=objective,
                            win_chance=win_chance, player=line_player, worlds=worlds, threads=threads,
                            progress=stage(f"auction lines ({line_player} player)", line_n))
    values, plat, done, sampling = settling.values, settling.plateau, settling.samples, settling.sampling

    made: dict[str, np.ndarray] = {}
    points: dict[str, np.ndarray] = {}  # the declarer's points by level (not dd's levels reached)
    table_deals = deals[:make_n]
    if levels and "learned" in methods:  # first: where it stops, the table stops for every method
        made["learned"], points["learned"] = _learned_made(mask, table_deals, rec, seed, levels, cap, worlds=worlds,
                                                           threads=threads, progress=progress)
        levels = levels[:made["learned"].shape[1]]
    for m in methods:
        if not levels or m in made:
            continue
        n = make_n if m != "pimc" else min(make_n, pimc_samples)
        if m == "dd":
            pts = dd_levels(mask, table_deals, rec, levels[0], levels[-1], threads, progress=stage("dd", n))[:, None]
        else:
            pts = contract_points(mask, table_deals[:n], rec, m, seed, levels[:1], worlds=worlds, threads=threads,
                                  progress=stage(m + (f" ({worlds} worlds a decision)" if m == "pimc" else ""), n))
        made[m] = _made(np.repeat(pts, len(levels), axis=1), levels, rec, m)
        if m != "dd":
            points[m] = np.repeat(pts, len(levels), axis=1)
    estimates = {m: _estimates(m, made[m], levels, rec, sit, points.get(m)) if levels else [] for m in methods}

    def biddable(b: int) -> bool:
        return b <= cap or b == owed

    rows = tuple(ContractRow(contract=b, biddable=biddable(b), estimates=tuple(estimates[m][j] for m in methods))
                 for j, b in enumerate(levels))
    line_rows = tuple(LineRow(v) for v in values)
    passing = values[limits.index(PASS_LINE)]
    verdict = settled(values, plat)
    recommendation = Recommendation(
        bid=verdict.bid if verdict.line is not None else forced, line=verdict.line,
        beyond=verdict.beyond, untested_from=verdict.untested_from, passing=passing, bidding_cap=cap,
        objective=objective, player=line_player)
    return Advice(
        hand=format_hand(mask), seat=seat, rules=rec, known_left=format_hand(known.left) if known.left else "",
        known_right=format_hand(known.right) if known.right else "",
        known_talon=format_hand(known.talon) if known.talon else "", situation=sit, objective=objective, risk=risk,
        line_player=line_player, methods=methods, samples=done, pimc_samples=pimc_samples, seed=seed,
        make_samples=make_n, sampling=sampling, samples_cap=None if fixed else SAMPLES_CAP, plateau=plat,
        worlds=worlds if "pimc" in methods else None, version=__version__,
        forced_bid=forced, bidding_cap=cap, raise_cap=top,
        lines=line_rows, recommendation=recommendation, contracts=rows,
        played_to=levels[-1] if levels else None,
        risk_levels=tuple(_risk_levels(m, rows, risk) for m in methods) if rows else (),
        talon=talon_chances(mask, known), win_source=win_source if objective == "win" else None,
        objective_reason=objective_reason)
