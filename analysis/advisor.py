"""The bid advisor: how much can this 7-card hand bid?

``advise`` samples the 17 cards the player cannot see (talon 3, the two opponents 7 + 7, cards
known to lie somewhere kept there), and for every contract from the minimum bid to the hand's
bidding cap (and on, to what a talon could let the declarer raise it to) estimates the chance of
making it by one or more methods (docs/advisor.md):

- ``dd``: double dummy with the best discard, the deal's value when every seat sees every card and
  plays perfectly (not a bound on real play: against imperfect defence a declarer can make more,
  and without sight of the cards less): success at contract b in a
  sample <=> some discard (one card to each opponent) gives a double-dummy value >= b with the
  declarer on lead and seat 1 (his left) playing second;
- ``pimc``: every seat (discard and cards) by perfect-information Monte Carlo over the worlds
  consistent with what it knows (``sim.players.pimc_nb``);
- ``heuristic``: every seat is the heuristic player.

It also gives the expected score of declaring each contract next to that of passing and defending
(estimated on the same sampled deals with the other seats bidding and everybody playing as the
heuristic player), the highest bid at a given risk, the bid of best expected score, and the
talon's chances for the hand computed exactly over every possible talon.

The sampling and the methods' playouts are the engine's (``sim.engine.playouts``, over the
compiled kernels of ``sim.engine.playouts_nb``): its random streams make the results depend on the
seed and the sample count only, never on the number of threads. This module parses the situation,
chooses the contract levels, and turns the playouts into the advice's rows, the recommendation
and their text, CSV and JSON.

First hand is forced to bid the minimum only under ``forced_first_bid``; a hand that is not forced
and whose bidding cap is below ``min_bid`` (no marriage, ``min_bid`` above 120) cannot bid at all:
its advice is to pass, with the pass line's expected score.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analysis.stats import json_ready, mean_interval, wilson_interval
from sim import __version__
from sim.engine.playouts import (
    ADVICE_WORLDS,
    AdvisorError,
    Known,
    Situation,
    dd_levels,
    pass_results,
    played_points,
    sample_unseen,
)
from sim.game.cards import (
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    format_card,
    format_hand,
    marriage_suits,
    mask_to_cards,
    parse_hand,
)
from sim.game.play_nb import CAP_WITHOUT_MARRIAGE, bid_cap
from sim.game.rules import HouseRules, load_rules
from sim.parallel import check_thread_count
from sim.players import MAX_PIMC_WORLDS
from sim.runs.progress import Progress

METHODS = ("dd", "pimc", "heuristic")
SEATS = {"first": 2, "second": 1, "third": 0}  # --seat → the dealer's seat (the player is seat 0)
DEFAULT_PIMC_SAMPLES = 100
MAX_SAMPLES = 5_000_000  # sampled deals: a few arrays of 24 bytes each stay within a few hundred MiB
# The scores --score takes off the barrel: from this floor (as the rules' score options) to below
# the barrel, or the target without a barrel.
SCORE_FLOOR = -3000


def pass_method(forced: bool) -> str:
    """How the pass-and-defend line is estimated, for a first hand ``forced`` to bid or not."""
    if forced:
        return ("the same sampled deals; you pass at every turn (as first hand: the forced minimum bid, then "
                "pass), the other two seats bid and everybody plays as the heuristic player; your result is "
                "your rounded defence points (or a concession's payout), or +-the contract when nobody outbids "
                "your forced bid")
    return ("the same sampled deals; you pass at every turn, the other two seats bid and everybody plays as the "
            "heuristic player; your result is your rounded defence points (or a concession's payout), or 0 when "
            "everybody passes and the deal is thrown in")


def check_three_player_deal(rules: HouseRules) -> None:
    """The advisor and the bid tables value 7-card hands of the 3-player deal (played with 3 or 4
    players): refuse rules they cannot play, naming the option."""
    if rules.players == 2:
        raise AdvisorError("players = 2: bid advice and bid tables value 7-card hands of the 3-player deal "
                           "(players = 3 or 4), not 2-player deals")


def parse_known(hand: int, left: str | None, right: str | None, talon: str | None) -> Known:
    masks = {}
    for name, text, limit in (("left", left, 7), ("right", right, 7), ("talon", talon, 3)):
        m = parse_hand(text, what=f"{name} cards") if text else 0
        if bin(m).count("1") > limit:
            raise AdvisorError(f"{bin(m).count('1')} known {name} cards: at most {limit}")
        if m & hand:
            raise AdvisorError(f"known {name} card {format_hand(m & hand)} is in your hand")
        masks[name] = m
    for a, b in itertools.combinations(masks, 2):
        if masks[a] & masks[b]:
            raise AdvisorError(f"card {format_hand(masks[a] & masks[b])} is given both as {a} and as {b}")
    return Known(masks["left"], masks["right"], masks["talon"])


def parse_methods(spec: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    names = [m.strip().lower() for m in (spec.split(",") if isinstance(spec, str) else spec) if m.strip()]
    if not names:
        raise AdvisorError("give at least one method: dd, pimc, heuristic")
    for m in names:
        if m not in METHODS:
            raise AdvisorError(f"unknown method {m!r}; methods are: {', '.join(METHODS)}")
    return tuple(dict.fromkeys(names))


# ---- contracts and caps -------------------------------------------------------------------------
def raise_cap(hand: int, known: Known, rules: HouseRules) -> int:
    """The highest final contract any talon could allow: 120 + the marriages of the best 8 cards
    of the hand and a possible talon (at most ``max_contract``)."""
    if rules.no_bid_cap:
        return rules.max_contract
    free = [c for c in range(24) if not (hand | known.left | known.right | known.talon) >> c & 1]
    need = 3 - bin(known.talon).count("1")
    best = 0
    for extra in itertools.combinations(free, need):
        ten = hand | known.talon | sum(1 << c for c in extra)
        # Keeping 8 of the 10 cards: give away two cards outside the marriages when possible.
        values = sorted((rules.marriage_values[s] for s in marriage_suits(ten)), reverse=True)
        keep = len(values) if 2 * len(values) <= 8 else 4
        best = max(best, sum(values[:keep]))
    return min(rules.max_contract, CAP_WITHOUT_MARRIAGE + best)


def contract_levels(hand: int, known: Known, rules: HouseRules, forced: bool = True) -> tuple[list[int], int, int]:
    """(contracts from the minimum bid to the raise cap, the bidding cap, the raise cap). A hand
    ``forced`` to open (first hand under forced_first_bid) bids ``min_bid`` whatever its cap, so that
    contract is always there; a hand that is not forced and whose bidding cap is below ``min_bid``
    never becomes the declarer: no contracts."""
    cap = int(bid_cap(hand, rules.to_array()))
    top = max(cap, raise_cap(hand, known, rules))
    if forced:
        top = max(top, rules.min_bid)
    elif cap < rules.min_bid:
        return [], cap, top
    return list(range(rules.min_bid, top + 1, rules.bid_step)), cap, top


def check_situation(rules: HouseRules, score: int | None, on_barrel: bool) -> Situation:
    """The score situation ``--score`` and ``--on-barrel`` describe, refused when the game is over
    or the two contradict each other (None: the score is 0, or the barrel's on the barrel)."""
    target, barrel = rules.target, rules.barrel
    if on_barrel:
        if barrel is None:
            raise AdvisorError("these rules have no barrel (barrel = none)")
        if score is None:
            return Situation(score=barrel, on_barrel=True)
        if not barrel <= score < target:
            raise AdvisorError(f"--score {score} with --on-barrel: a player on the barrel has a score from the barrel "
                               f"({barrel}) to below the target ({target})")
        return Situation(score=score, on_barrel=True)
    score = 0 if score is None else score
    if score >= target:
        raise AdvisorError(f"--score {score}: at or above the target ({target}) the game is over")
    if barrel is not None and score >= barrel:
        raise AdvisorError(f"--score {score}: at or above the barrel ({barrel}) you sit on the barrel; give "
                           "--on-barrel instead")
    if score < SCORE_FLOOR:
        raise AdvisorError(f"--score {score}: must be from {SCORE_FLOOR} to below the "
                           + ("barrel" if barrel is not None else "target"))
    return Situation(score=score)


# ---- the talon's chances, exactly ---------------------------------------------------------------
NOTHING_KNOWN = Known()  # no card's place is known


def talon_chances(hand: int, known: Known = NOTHING_KNOWN) -> dict:
    """Exact chances over every talon consistent with what is known (each equally likely):
    completing each half marriage and any marriage, each missing ace and ten arriving, at least one
    ace / ten, the distribution of aces, and the talon's expected card points."""
    from sim.game.cards import CARD_POINTS

    located = known.left | known.right
    free = [c for c in range(24) if not (hand | located | known.talon) >> c & 1]
    need = 3 - bin(known.talon).count("1")
    talons = [known.talon | sum(1 << c for c in extra) for extra in itertools.combinations(free, need)]
    n = len(talons)

    def chance(pred) -> Fraction:
        return Fraction(sum(1 for t in talons if pred(t)), n)

    out: dict = {"talons": n, "marriages": {}, "aces": {}, "tens": {}}
    for s, name in enumerate(SUITS):
        kq = 0b1100 << (6 * s)
        if hand & kq == kq:
            continue
        p = chance(lambda t, kq=kq: (hand | t) & kq == kq)
        if p:
            half = "K" if hand >> (6 * s + 3) & 1 else ("Q" if hand >> (6 * s + 2) & 1 else "")
            out["marriages"][name] = {"holding": half + name if half else "", "p": p}
    new_marriage = [0b1100 << (6 * s) for s in range(4) if hand & (0b1100 << (6 * s)) != 0b1100 << (6 * s)]
    out["any_marriage"] = chance(lambda t: any((hand | t) & kq == kq for kq in new_marriage))
    for rank, key in ((5, "aces"), (4, "tens")):
        for s, name in enumerate(SUITS):
            c = 6 * s + rank
            if not ((hand | located) >> c) & 1:
                out[key]["AT"[rank == 4] + name] = chance(lambda t, c=c: (t >> c) & 1)
        bits = [6 * s + rank for s in range(4)]
        counts = [sum((t >> c) & 1 for c in bits) for t in talons]
        out[f"at_least_one_{key[:-1]}"] = Fraction(sum(1 for k in counts if k), n)
        out[f"{key}_distribution"] = {k: Fraction(counts.count(k), n) for k in range(4) if counts.count(k)}
    out["expected_points"] = Fraction(sum(int(CARD_POINTS[c]) for t in talons for c in mask_to_cards(t)), n)
    return out


# ---- scores -------------------------------------------------------------------------------------
def made_gain(b: int, rules: HouseRules, sit: Situation) -> int:
    if sit.on_barrel:
        return b if b >= rules.barrel_min_contract else 0
    if rules.barrel is not None and sit.score + b >= rules.barrel:
        return max(0, rules.barrel - sit.score)
    return b


def fail_loss(b: int, rules: HouseRules, sit: Situation) -> int:
    """What failing costs, or conceding when that costs less (concede_no_deduction)."""
    can_concede = rules.concede and (rules.concede_on_barrel or not sit.on_barrel)
    if can_concede and rules.concede_no_deduction:
        return 0
    return b


def defence_gain(results: np.ndarray, declarers: np.ndarray, rules: HouseRules, sit: Situation) -> np.ndarray:
    out = results.astype(np.float64)
    mine = declarers == 0
    defend = ~mine
    if sit.on_barrel:
        out[defend] = 0.0  # a sitter's defence points are not recorded
        made = mine & (results > 0)
        out[made] = [made_gain(int(r), rules, sit) for r in results[made]]
    elif rules.barrel is not None:
        room = max(0, rules.barrel - sit.score)
        out = np.where(out > 0, np.minimum(out, room), out)
    return out


@dataclass
class MethodResult:
    method: str
    n: int
    points: np.ndarray  # per sample: the declarer's points (dd: the level reached)
    rows: list[dict] = field(default_factory=list)


def _method_rows(res: MethodResult, levels: list[int], rules: HouseRules, sit: Situation) -> None:
    pts = res.points
    if rules.round_declarer and res.method != "dd":
        pts = np.array([p - p % 5 + (5 if p % 5 >= 3 else 0) for p in pts])
    for b in levels:
        k = int((pts >= b).sum())
        n = res.n
        p = k / n
        lo, hi = wilson_interval(k, n)
        lo, hi = min(lo, p), max(hi, p)  # rounding at p = 0 or 1
        gain, loss = made_gain(b, rules, sit), fail_loss(b, rules, sit)
        ev = p * gain - (1 - p) * loss
        sd = math.sqrt(p * (1 - p)) * (gain + loss)
        ev_lo, ev_hi = mean_interval(ev, sd * math.sqrt(n / max(1, n - 1)), n) if n > 1 else (ev, ev)
        res.rows.append({"contract": b, "made": k, "n": n, "p_make": p, "ci_low": lo, "ci_high": hi,
                         "ev_declare": ev, "ev_ci_low": ev_lo, "ev_ci_high": ev_hi})


def advise(hand: str | int, *, rules: str | HouseRules | None = None, samples: int = 2000, seed: int = 0,
           methods: str | tuple[str, ...] = ("dd",), seat: str = "first", risk: float = 0.3,
           left: str | None = None, right: str | None = None, talon: str | None = None, score: int | None = None,
           on_barrel: bool = False, pimc_samples: int = DEFAULT_PIMC_SAMPLES, worlds: int | None = None,
           threads: int | None = None, progress: Progress | None = None) -> dict:
    """Everything ``thousand bid`` prints, as a JSON-ready dict (see the module docstring); ``worlds``
    None is ADVICE_WORLDS; ``score`` None is 0 (the barrel's score ``on_barrel``); ``progress`` is
    told what is computed as it goes."""
    worlds = ADVICE_WORLDS if worlds is None else worlds
    rec = rules if isinstance(rules, HouseRules) else load_rules(rules)
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
    for option, value in (("--samples", samples), ("--pimc-samples", pimc_samples)):
        if not 1 <= value <= MAX_SAMPLES:
            raise AdvisorError(f"{option} must be from 1 to {MAX_SAMPLES:,}, not {value}")
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise AdvisorError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not {worlds}")
    if seed < 0:
        raise AdvisorError(f"--seed must be 0 or more, not {seed}")
    check_thread_count("--threads", threads)
    sit = check_situation(rec, score, on_barrel)
    forced = seat == "first" and rec.forced_first_bid
    levels, cap, top = contract_levels(mask, known, rec, forced)

    def stage(what: str, n: int) -> Callable[[int], None] | None:
        return None if progress is None else (lambda done: progress(what, done, n))

    deals = sample_unseen(mask, known, samples, seed)
    results: dict[str, MethodResult] = {}
    for m in methods:
        n = samples if m != "pimc" else min(samples, pimc_samples)
        if not levels:  # no contract to estimate: the hand cannot bid
            results[m] = MethodResult(m, n, np.zeros(0, dtype=np.int64))
        elif m == "dd":
            pts = dd_levels(mask, deals, rec, levels[0], levels[-1], threads, progress=stage("dd", n))
            results[m] = MethodResult(m, n, pts)
        else:
            pts = played_points(mask, deals[:n], rec, m, seed, worlds=worlds, threads=threads,
                                progress=stage(m + (f" ({worlds} worlds a decision)" if m == "pimc" else ""), n))
            results[m] = MethodResult(m, n, pts)
        if levels:
            _method_rows(results[m], levels, rec, sit)
    dealer = SEATS[seat]
    pr = pass_results(mask, deals, rec, dealer, sit, seed, threads, progress=stage("pass and defend", samples))
    pass_gain = defence_gain(pr[:, 0], pr[:, 1], rec, sit)
    pass_ev = float(pass_gain.mean())
    pass_ci = mean_interval(pass_ev, float(pass_gain.std(ddof=1)) if samples > 1 else math.nan, samples)
    stuck = float((pr[:, 1] == 0).mean()) if forced else None

    def biddable(b: int) -> bool:
        return b <= cap or (forced and b == rec.min_bid)

    rows = []
    for j, b in enumerate(levels):
        first = results[methods[0]].rows[j]
        row = {"contract": b, "biddable": biddable(b), "p_make": first["p_make"], "ci_low": first["ci_low"],
               "ci_high": first["ci_high"], "ev_declare": first["ev_declare"], "method": methods[0],
               "by_method": {m: {k: v for k, v in results[m].rows[j].items() if k != "contract"} for m in methods}}
        rows.append(row)
    advice = {}
    for m in methods:
        bids = [r for r in results[m].rows if biddable(r["contract"])]
        if not bids:
            advice[m] = {"max_bid_at_risk": None, "best_ev_bid": None, "best_ev": None}
            continue
        ok = [r["contract"] for r in bids if r["p_make"] >= 1 - risk]
        best = max(bids, key=lambda r: (r["ev_declare"], -r["contract"]))
        advice[m] = {
            "max_bid_at_risk": ok[-1] if ok else None,
            "best_ev_bid": best["contract"] if best["ev_declare"] > pass_ev or forced else None,
            "best_ev": best["ev_declare"],
        }
    tal = talon_chances(mask, known)
    basis = next(m for m in RECOMMENDATION_BASIS if m in methods)
    return {
        "hand": format_hand(mask), "seat": seat, "rules": rec.changes_from(HouseRules()) or "classic",
        "samples": samples, "seed": seed, "methods": list(methods), "risk": risk,
        "method_samples": {m: results[m].n for m in methods}, "worlds": worlds if "pimc" in methods else None,
        "known": {k: format_hand(v) for k, v in (("left", known.left), ("right", known.right),
                                                 ("talon", known.talon)) if v},
        "situation": {"score": sit.score, "on_barrel": sit.on_barrel},
        "min_bid": rec.min_bid, "forced_bid": rec.min_bid if forced else None, "can_bid": bool(levels),
        "bidding_cap": cap, "raise_cap": top, "contracts": rows,
        "pass": {"ev": pass_ev, "ci_low": pass_ci[0], "ci_high": pass_ci[1], "stuck_with_forced_bid": stuck,
                 "method": pass_method(forced)},
        "advice": advice,
        "recommendation": _recommendation(basis, advice[basis], rows, rec.min_bid if forced else None, risk, pass_ev),
        "talon": _talon_json(tal), "version": __version__,
    }


# The method the one recommendation rests on: the most realistic play among those asked for (pimc
# and heuristic seats see only their own cards; dd seats see every card).
RECOMMENDATION_BASIS = ("pimc", "heuristic", "dd")


def _recommendation(method: str, advice: dict, rows: list[dict], forced_bid: int | None, risk: float,
                    pass_ev: float) -> dict:
    """The bid to make: the highest contract made at least (1 - risk) of the time by ``method``;
    if none, the forced minimum (``forced_bid``: first hand under forced_first_bid) then pass, or pass."""
    bid = advice["max_bid_at_risk"]
    if bid is None:
        what = f"forced bid {forced_bid}, then pass" if forced_bid is not None else "pass"
        return {"action": what, "bid": forced_bid, "method": method, "p_make": None, "ev": pass_ev, "risk": risk}
    row = next(r for r in rows if r["contract"] == bid)["by_method"][method]
    return {"action": f"bid up to {bid}", "bid": bid, "method": method, "p_make": row["p_make"],
            "ci_low": row["ci_low"], "ci_high": row["ci_high"], "ev": row["ev_declare"], "risk": risk}


def _frac(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def _talon_json(t: dict) -> dict:
    return {
        "talons": t["talons"],
        "marriage_completed": {s: {"holding": v["holding"], **_frac(v["p"])} for s, v in t["marriages"].items()},
        "any_new_marriage": _frac(t["any_marriage"]),
        "ace_arrives": {c: _frac(p) for c, p in t["aces"].items()},
        "ten_arrives": {c: _frac(p) for c, p in t["tens"].items()},
        "at_least_one_ace": _frac(t["at_least_one_ace"]),
        "at_least_one_ten": _frac(t["at_least_one_ten"]),
        "aces_distribution": {str(k): _frac(p) for k, p in t["aces_distribution"].items()},
        "expected_points": float(t["expected_points"]),
    }


# ---- output ---------------------------------------------------------------------------------------
METHOD_TEXT = {
    "dd": "dd = double dummy: every seat sees every card and plays perfectly, the declarer discards best "
          "(the deal's value under perfect play, not a bound: real declarers can do better against weaker defence)",
    "pimc": "pimc = every seat averages double-dummy values over the worlds it cannot tell apart",
    "heuristic": "heuristic = every seat is the heuristic player",
}


def format_text(r: dict) -> list[str]:
    ms = r["methods"]
    forced = r["forced_bid"]
    duty = (f", forced to bid {forced}" if forced is not None
            else ", not forced to bid: forced_first_bid = false" if r["seat"] == "first" else "")
    out = [f"hand {r['hand']}  ({r['seat']} hand{duty}; rules {r['rules']})"]
    if r["known"]:
        out.append("known: " + ", ".join(f"{k} {v}" for k, v in r["known"].items()))
    if r["situation"]["on_barrel"]:
        out.append("you sit on the barrel: a made contract scores only if it takes you off (wins the game)")
    elif r["situation"]["score"]:
        out.append(f"your score {r['situation']['score']}")
    if not r["can_bid"]:
        out.append(f"bidding cap {r['bidding_cap']}: below the minimum bid {r['min_bid']}, so this hand cannot bid "
                   "(a bid above 120 needs a marriage)")
    else:
        out.append(f"bidding cap {r['bidding_cap']}; a talon could let you raise the final contract to "
                   f"{r['raise_cap']}")
    if r["can_bid"]:
        sizes = ", ".join(f"{m} {r['method_samples'][m]}" for m in ms)
        out.append(f"samples: {sizes} (seed {r['seed']}{', pimc worlds ' + str(r['worlds']) if r['worlds'] else ''})"
                   "; [95% interval]; E = expected score of declaring")
    else:
        out.append(f"samples: {r['samples']} (seed {r['seed']}), for passing and defending only")
    head = "contract  " + "  ".join(f"{m + ' p_make [95%]':<24}{'E':>7}" for m in ms)
    if r["contracts"]:
        out.append(head)
    shown_raise = False
    for row in r["contracts"]:
        if not row["biddable"]:
            if all(row["by_method"][m]["p_make"] == 0 for m in ms):
                out.append(f"(from {row['contract']} on: made in no sample)")
                break
            if not shown_raise:
                out.append("-- above the bidding cap: only as a final contract, if the talon brings the marriages --")
                shown_raise = True
        cells = []
        for m in ms:
            x = row["by_method"][m]
            cells.append(f"{x['p_make']:6.3f} [{x['ci_low']:.3f}, {x['ci_high']:.3f}]  {x['ev_declare']:+7.1f}")
        out.append(f"{row['contract']:>8}  " + "  ".join(cells))
    p = r["pass"]
    out.append(f"pass and defend: E = {p['ev']:+.1f} [{p['ci_low']:+.1f}, {p['ci_high']:+.1f}]"
               + (f"; nobody outbids your forced bid in {p['stuck_with_forced_bid']:.1%}"
                  if forced is not None else ""))
    out.append(f"  (estimated on {p['method']})")
    out.append(f"advice (risk {r['risk']:.2f}: the highest bid made at least {1 - r['risk']:.0%} of the time):")
    nothing = f"(nothing: forced bid {forced}, then pass)" if forced is not None else "(nothing: pass)"
    for m in ms:
        a = r["advice"][m]
        top = a["max_bid_at_risk"]
        best = a["best_ev_bid"]
        if a["best_ev"] is None:
            out.append(f"  {m:<9} nothing to bid: pass ({p['ev']:+.1f})")
            continue
        out.append(f"  {m:<9} bid up to {top if top is not None else nothing}; best expected score "
                   + (f"at {best} ({a['best_ev']:+.1f} vs pass {p['ev']:+.1f})" if best is not None
                      else f"by passing ({p['ev']:+.1f} vs {a['best_ev']:+.1f} declaring)"))
    t = r["talon"]
    out.append(f"talon (exact, over all {t['talons']} possible talons):")
    for s, v in t["marriage_completed"].items():
        what = f"completes your {v['holding']}" if v["holding"] else "brings both halves of"
        out.append(f"  {what} {SUIT_SYMBOLS[SUITS.index(s)]} marriage: {v['exact']} = {v['p']:.1%}")
    out.append(f"  any new marriage: {t['any_new_marriage']['exact']} = {t['any_new_marriage']['p']:.1%}")
    aces = "  ".join(f"{c} {v['p']:.1%}" for c, v in t["ace_arrives"].items())
    tens = "  ".join(f"{c} {v['p']:.1%}" for c, v in t["ten_arrives"].items())
    out.append(f"  at least one ace {t['at_least_one_ace']['p']:.1%} ({aces or 'you hold all four'})")
    out.append(f"  at least one ten {t['at_least_one_ten']['p']:.1%} ({tens or 'you hold all four'})")
    out.append(f"  expected talon card points {t['expected_points']:.1f}")
    out.append("methods: " + "; ".join(METHOD_TEXT[m] for m in ms))
    rec = r["recommendation"]
    if not r["can_bid"]:
        out.append(f"recommendation: pass (this hand cannot bid; passing and defending scores {rec['ev']:+.1f})")
    elif rec["p_make"] is None:
        out.append(f"recommendation ({rec['method']} play): {rec['action']} (no contract is made at least "
                   f"{1 - rec['risk']:.0%} of the time; passing and defending scores {rec['ev']:+.1f})")
    else:
        out.append(f"recommendation ({rec['method']} play): {rec['action']}: made {rec['p_make']:.0%} "
                   f"[{rec['ci_low']:.0%}, {rec['ci_high']:.0%}] of the time, expected score {rec['ev']:+.1f}")
    return out


def format_csv(r: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["method", "contract", "biddable", "n", "made", "p_make", "ci_low", "ci_high", "ev_declare",
                "ev_pass"])
    for row in r["contracts"]:
        for m in r["methods"]:
            x = row["by_method"][m]
            w.writerow([m, row["contract"], row["biddable"], x["n"], x["made"], f"{x['p_make']:.6f}",
                        f"{x['ci_low']:.6f}", f"{x['ci_high']:.6f}", f"{x['ev_declare']:.3f}",
                        f"{r['pass']['ev']:.3f}"])
    return buf.getvalue()


def format_json(r: dict) -> str:
    """The advice as JSON: a number that is not defined (an interval of one sample) is null."""
    return json.dumps(json_ready(r), ensure_ascii=False, indent=1, allow_nan=False)


__all__ = ["advise", "format_text", "format_csv", "format_json", "talon_chances", "format_card"]
