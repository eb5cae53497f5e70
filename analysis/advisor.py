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
chooses the contract levels, and turns the playouts into the advice: an ``Advice``, a frozen result
whose ``to_polars()`` is the table of contract levels and ``to_dict()`` its JSON
(``analysis.present`` prints it: ``text.advice_lines``, ``text.advice_csv``, ``json_text.to_json``).

First hand is forced to bid the minimum only under ``forced_first_bid``; a hand that is not forced
and whose bidding cap is below ``min_bid`` (no marriage, ``min_bid`` above 120) cannot bid at all:
its advice is to pass, with the pass line's expected score.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from analysis.stats import mean_interval, wilson_interval
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

if TYPE_CHECKING:
    import polars as pl

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


@dataclass(frozen=True)
class MarriageChance:
    """The chance that the talon completes a marriage the hand does not hold.

    - ``suit``: the suit's letter (S, C, D, H);
    - ``holding``: the half of it the hand holds ("KH" or "QH"), or "" when the talon must bring
      both halves;
    - ``p``: the exact chance over every possible talon.
    """

    suit: str
    holding: str
    p: Fraction


@dataclass(frozen=True)
class CardChance:
    """The exact chance ``p`` that the talon holds the card ``card`` (such as "AC")."""

    card: str
    p: Fraction


@dataclass(frozen=True)
class TalonChances:
    """The talon's chances for a hand, exact over every talon consistent with what is known (each
    equally likely); every chance is a Fraction.

    - ``talons``: the number of possible talons;
    - ``marriages``: for each suit whose marriage the hand lacks and some talon completes, in suit
      order, the chance it does;
    - ``any_marriage``: the chance that the talon completes at least one marriage the hand lacks;
    - ``aces``, ``tens``: for each ace (ten) neither in the hand nor known to lie with an opponent,
      in suit order, the chance that the talon holds it;
    - ``at_least_one_ace``, ``at_least_one_ten``: the chance that the talon holds an ace (a ten);
    - ``aces_distribution``, ``tens_distribution``: the chances that the talon holds 0, 1, 2 and 3
      aces (tens);
    - ``expected_points``: the talon's expected card points.
    """

    talons: int
    marriages: tuple[MarriageChance, ...]
    any_marriage: Fraction
    aces: tuple[CardChance, ...]
    tens: tuple[CardChance, ...]
    at_least_one_ace: Fraction
    at_least_one_ten: Fraction
    aces_distribution: tuple[Fraction, ...]
    tens_distribution: tuple[Fraction, ...]
    expected_points: Fraction

    def to_dict(self) -> dict:
        """The chances as ``thousand bid --json`` gives them (each as a float and its exact
        fraction; the distribution without the counts no talon gives; no tens' distribution)."""
        return {
            "talons": self.talons,
            "marriage_completed": {m.suit: {"holding": m.holding, **_frac(m.p)} for m in self.marriages},
            "any_new_marriage": _frac(self.any_marriage),
            "ace_arrives": {c.card: _frac(c.p) for c in self.aces},
            "ten_arrives": {c.card: _frac(c.p) for c in self.tens},
            "at_least_one_ace": _frac(self.at_least_one_ace),
            "at_least_one_ten": _frac(self.at_least_one_ten),
            "aces_distribution": {str(k): _frac(p) for k, p in enumerate(self.aces_distribution) if p},
            "expected_points": float(self.expected_points),
        }


def _frac(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def talon_chances(hand: int, known: Known = NOTHING_KNOWN) -> TalonChances:
    """The talon's chances for the 7-card ``hand`` (a card mask), exact over every talon consistent
    with ``known`` (each equally likely): completing each half marriage and any marriage, each
    missing ace and ten arriving, at least one ace / ten, the distribution of aces and tens, and the
    talon's expected card points."""
    from sim.game.cards import CARD_POINTS

    located = known.left | known.right
    free = [c for c in range(24) if not (hand | located | known.talon) >> c & 1]
    need = 3 - bin(known.talon).count("1")
    talons = [known.talon | sum(1 << c for c in extra) for extra in itertools.combinations(free, need)]
    n = len(talons)

    def chance(pred) -> Fraction:
        return Fraction(sum(1 for t in talons if pred(t)), n)

    marriages = []
    for s, name in enumerate(SUITS):
        kq = 0b1100 << (6 * s)
        if hand & kq == kq:
            continue
        p = chance(lambda t, kq=kq: (hand | t) & kq == kq)
        if p:
            half = "K" if hand >> (6 * s + 3) & 1 else ("Q" if hand >> (6 * s + 2) & 1 else "")
            marriages.append(MarriageChance(name, half + name if half else "", p))
    new_marriage = [0b1100 << (6 * s) for s in range(4) if hand & (0b1100 << (6 * s)) != 0b1100 << (6 * s)]
    by_rank = {}
    for rank, key in ((5, "aces"), (4, "tens")):
        arrives = tuple(CardChance("AT"[rank == 4] + name, chance(lambda t, c=6 * s + rank: (t >> c) & 1))
                        for s, name in enumerate(SUITS) if not ((hand | located) >> (6 * s + rank)) & 1)
        bits = [6 * s + rank for s in range(4)]
        counts = [sum((t >> c) & 1 for c in bits) for t in talons]
        by_rank[key] = (arrives, Fraction(sum(1 for k in counts if k), n),
                        tuple(Fraction(counts.count(k), n) for k in range(4)))
    return TalonChances(
        talons=n, marriages=tuple(marriages),
        any_marriage=chance(lambda t: any((hand | t) & kq == kq for kq in new_marriage)),
        aces=by_rank["aces"][0], tens=by_rank["tens"][0],
        at_least_one_ace=by_rank["aces"][1], at_least_one_ten=by_rank["tens"][1],
        aces_distribution=by_rank["aces"][2], tens_distribution=by_rank["tens"][2],
        expected_points=Fraction(sum(int(CARD_POINTS[c]) for t in talons for c in mask_to_cards(t)), n))


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



# ---- the advice -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MethodEstimate:
    """One method's estimate at one contract, over the ``n`` sampled deals it played.

    - ``method``: dd, pimc or heuristic;
    - ``n``: the deals it played (pimc: the first ``pimc_samples`` of them);
    - ``made``: the deals in which the declarer made the contract;
    - ``p_make``: made / n, and ``ci_low``, ``ci_high`` its 95% Wilson interval (widened to hold
      ``p_make`` where rounding at 0 or 1 leaves it out);
    - ``ev_declare``: the expected score of declaring the contract (made: what it scores in the
      situation; failed: minus what it costs), and ``ev_ci_low``, ``ev_ci_high`` its 95% normal
      interval (the point itself when n is 1).
    """

    method: str
    n: int
    made: int
    p_make: float
    ci_low: float
    ci_high: float
    ev_declare: float
    ev_ci_low: float
    ev_ci_high: float

    def to_dict(self) -> dict:
        """The estimate as a JSON row's ``by_method`` entry (without the method's name, its key)."""
        return {"made": self.made, "n": self.n, "p_make": self.p_make, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "ev_declare": self.ev_declare, "ev_ci_low": self.ev_ci_low,
                "ev_ci_high": self.ev_ci_high}


@dataclass(frozen=True)
class ContractRow:
    """One contract level of the advice.

    - ``contract``: the contract;
    - ``biddable``: whether the hand can bid it (up to its bidding cap, or the forced minimum);
      a contract above the cap can only be the final contract a talon's marriages let the
      declarer raise to;
    - ``estimates``: each method's estimate, in the order the methods were asked for.
    """

    contract: int
    biddable: bool
    estimates: tuple[MethodEstimate, ...]

    def estimate(self, method: str) -> MethodEstimate:
        """The estimate of ``method`` (KeyError for a method not asked for)."""
        for e in self.estimates:
            if e.method == method:
                return e
        raise KeyError(method)

    def to_dict(self) -> dict:
        """The row as ``--json`` gives it: the first method's chance and expected score beside every
        method's estimate."""
        first = self.estimates[0]
        return {"contract": self.contract, "biddable": self.biddable, "p_make": first.p_make,
                "ci_low": first.ci_low, "ci_high": first.ci_high, "ev_declare": first.ev_declare,
                "method": first.method, "by_method": {e.method: e.to_dict() for e in self.estimates}}


@dataclass(frozen=True)
class PassLine:
    """Passing and defending, on the same sampled deals.

    - ``ev``: the expected score of passing (and defending), and ``ci_low``, ``ci_high`` its 95%
      normal interval (NaN from one sample);
    - ``stuck_with_forced_bid``: for a first hand forced to open, the share of deals in which
      nobody outbids the forced minimum; None for a hand not forced;
    - ``method``: how the line is estimated, in a sentence (``pass_method``).
    """

    ev: float
    ci_low: float
    ci_high: float
    stuck_with_forced_bid: float | None
    method: str

    def to_dict(self) -> dict:
        return {"ev": self.ev, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "stuck_with_forced_bid": self.stuck_with_forced_bid, "method": self.method}


@dataclass(frozen=True)
class MethodAdvice:
    """What one method advises (all None when the hand cannot bid).

    - ``method``: dd, pimc or heuristic;
    - ``max_bid_at_risk``: the highest biddable contract made at least (1 - risk) of the time, or
      None;
    - ``best_ev_bid``: the biddable contract of best expected score, or None when passing scores
      more (a forced first hand always has one);
    - ``best_ev``: the best expected score of declaring a biddable contract.
    """

    method: str
    max_bid_at_risk: int | None
    best_ev_bid: int | None
    best_ev: float | None

    def to_dict(self) -> dict:
        return {"max_bid_at_risk": self.max_bid_at_risk, "best_ev_bid": self.best_ev_bid, "best_ev": self.best_ev}


@dataclass(frozen=True)
class Recommendation:
    """The one bid advised, by the most realistic method asked for (``RECOMMENDATION_BASIS``).

    - ``method``: the method it rests on;
    - ``bid``: the highest contract that method makes at least (1 - risk) of the time; if none, the
      forced minimum (then pass) for a forced first hand, or None (pass);
    - ``p_make``, ``ci_low``, ``ci_high``: the method's chance of making ``bid`` and its interval
      (None when no contract is made often enough);
    - ``ev``: the expected score of declaring ``bid``, or of passing and defending when no contract
      is made often enough;
    - ``risk``: the failure chance accepted.

    ``action`` names it: "bid up to B", "forced bid B, then pass" or "pass".
    """

    method: str
    bid: int | None
    p_make: float | None
    ci_low: float | None
    ci_high: float | None
    ev: float
    risk: float

    @property
    def action(self) -> str:
        if self.p_make is None:
            return f"forced bid {self.bid}, then pass" if self.bid is not None else "pass"
        return f"bid up to {self.bid}"

    def to_dict(self) -> dict:
        if self.p_make is None:
            return {"action": self.action, "bid": self.bid, "method": self.method, "p_make": None, "ev": self.ev,
                    "risk": self.risk}
        return {"action": self.action, "bid": self.bid, "method": self.method, "p_make": self.p_make,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "ev": self.ev, "risk": self.risk}


@dataclass(frozen=True)
class Advice:
    """The bid advice for one 7-card hand (``advise``; what ``thousand bid`` prints).

    The question:

    - ``hand``: the 7 cards, as ``sim.game.cards.format_hand`` writes them;
    - ``seat``: first, second or third hand;
    - ``rules``: the house rules;
    - ``known_left``, ``known_right``, ``known_talon``: the cards known to lie with the left
      opponent, the right one and in the talon ("" for none);
    - ``situation``: your score and whether you sit on the barrel;
    - ``risk``: the failure chance accepted for the highest bid advised.

    How it was estimated (what made it):

    - ``methods``: the methods, in the order asked for;
    - ``samples``: the sampled deals of the unseen cards (dd, heuristic and the pass line play all
      of them), ``pimc_samples`` the most pimc plays (``samples_of`` gives each method's count);
    - ``seed``: the seed (the advice depends on it and the sizes only, never on the threads);
    - ``worlds``: the worlds a pimc decision averages over, None without pimc;
    - ``version``: the version of thousand that computed it.

    The answer:

    - ``forced_bid``: the minimum bid a first hand is forced to open with (forced_first_bid), or
      None;
    - ``bidding_cap``: the highest bid the hand allows (120 + its marriages);
    - ``raise_cap``: the highest final contract a talon could let the declarer raise to;
    - ``contracts``: the contract levels, from the minimum bid to the raise cap (none when the
      hand cannot bid); ``to_polars()`` gives them as one table;
    - ``pass_line``: the expected score of passing and defending;
    - ``method_advice``: each method's advice, in the order of ``methods``;
    - ``recommendation``: the one bid advised;
    - ``talon``: the talon's exact chances for the hand.
    """

    hand: str
    seat: str
    rules: HouseRules
    known_left: str
    known_right: str
    known_talon: str
    situation: Situation
    risk: float
    methods: tuple[str, ...]
    samples: int
    pimc_samples: int
    seed: int
    worlds: int | None
    version: str
    forced_bid: int | None
    bidding_cap: int
    raise_cap: int
    contracts: tuple[ContractRow, ...]
    pass_line: PassLine
    method_advice: tuple[MethodAdvice, ...]
    recommendation: Recommendation
    talon: TalonChances

    @property
    def rule_changes(self) -> dict:
        """The rules' options that differ from the classic rules (empty for the classic rules)."""
        return self.rules.changes_from(HouseRules())

    @property
    def known_cards(self) -> dict[str, str]:
        """The known cards by where they lie (left, right, talon), only where some are known."""
        return {k: v for k, v in (("left", self.known_left), ("right", self.known_right),
                                  ("talon", self.known_talon)) if v}

    @property
    def min_bid(self) -> int:
        """The rules' minimum bid."""
        return self.rules.min_bid

    @property
    def can_bid(self) -> bool:
        """Whether the hand can bid at all (a hand not forced to open needs a bidding cap of at least
        the minimum bid)."""
        return bool(self.contracts)

    def samples_of(self, method: str) -> int:
        """The sampled deals ``method`` played."""
        return min(self.samples, self.pimc_samples) if method == "pimc" else self.samples

    def advice_for(self, method: str) -> MethodAdvice:
        """The advice of ``method`` (KeyError for a method not asked for)."""
        for a in self.method_advice:
            if a.method == method:
                return a
        raise KeyError(method)

    def to_polars(self) -> pl.DataFrame:
        """The contract levels as one table, a row per contract and method (contracts in order, the
        methods in the order asked for): contract, biddable, method, n, made, p_make, ci_low,
        ci_high, ev_declare, ev_ci_low, ev_ci_high. Empty (with these columns) when the hand
        cannot bid."""
        import polars as pl

        rows = [{"contract": r.contract, "biddable": r.biddable, **{k: getattr(e, k) for k in LEVEL_COLUMNS[2:]}}
                for r in self.contracts for e in r.estimates]
        return pl.DataFrame(rows, schema=_level_schema())

    def to_dict(self) -> dict:
        """The advice as ``thousand bid --json`` prints it (``analysis.present.json_text.to_json``)."""
        return {
            "hand": self.hand, "seat": self.seat, "rules": self.rule_changes or "classic",
            "samples": self.samples, "seed": self.seed, "methods": list(self.methods), "risk": self.risk,
            "method_samples": {m: self.samples_of(m) for m in self.methods}, "worlds": self.worlds,
            "known": self.known_cards,
            "situation": {"score": self.situation.score, "on_barrel": self.situation.on_barrel},
            "min_bid": self.min_bid, "forced_bid": self.forced_bid, "can_bid": self.can_bid,
            "bidding_cap": self.bidding_cap, "raise_cap": self.raise_cap,
            "contracts": [r.to_dict() for r in self.contracts],
            "pass": self.pass_line.to_dict(),
            "advice": {a.method: a.to_dict() for a in self.method_advice},
            "recommendation": self.recommendation.to_dict(),
            "talon": self.talon.to_dict(), "version": self.version,
        }


# The columns of Advice.to_polars().
LEVEL_COLUMNS = ("contract", "biddable", "method", "n", "made", "p_make", "ci_low", "ci_high", "ev_declare",
                 "ev_ci_low", "ev_ci_high")


def _level_schema() -> dict:
    import polars as pl

    return {"contract": pl.Int64, "biddable": pl.Boolean, "method": pl.String, "n": pl.Int64, "made": pl.Int64,
            **{k: pl.Float64 for k in LEVEL_COLUMNS[5:]}}


def _estimates(method: str, points: np.ndarray, n: int, levels: list[int], rules: HouseRules,
               sit: Situation) -> list[MethodEstimate]:
    """``method``'s estimate at each contract of ``levels`` from its ``points`` on ``n`` deals (the
    declarer's points; dd: the level reached)."""
    pts = points
    if rules.round_declarer and method != "dd":
        pts = np.array([p - p % 5 + (5 if p % 5 >= 3 else 0) for p in pts])
    out = []
    for b in levels:
        k = int((pts >= b).sum())
        p = k / n
        lo, hi = wilson_interval(k, n)
        lo, hi = min(lo, p), max(hi, p)  # rounding at p = 0 or 1
        gain, loss = made_gain(b, rules, sit), fail_loss(b, rules, sit)
        ev = p * gain - (1 - p) * loss
        sd = math.sqrt(p * (1 - p)) * (gain + loss)
        ev_lo, ev_hi = mean_interval(ev, sd * math.sqrt(n / max(1, n - 1)), n) if n > 1 else (ev, ev)
        out.append(MethodEstimate(method=method, n=n, made=k, p_make=p, ci_low=lo, ci_high=hi, ev_declare=ev,
                                  ev_ci_low=ev_lo, ev_ci_high=ev_hi))
    return out


def advise(*, hand: str | int, rules: str | HouseRules | None = None, samples: int = 2000, seed: int = 0,
           methods: str | tuple[str, ...] = ("dd",), seat: str = "first", risk: float = 0.3,
           left: str | None = None, right: str | None = None, talon: str | None = None, score: int | None = None,
           on_barrel: bool = False, pimc_samples: int = DEFAULT_PIMC_SAMPLES, worlds: int | None = None,
           threads: int | None = None, progress: Progress | None = None) -> Advice:
    """The bid advice for the 7-card ``hand`` (text, or a card mask) before the talon (see the module
    docstring): ``methods`` as "dd,heuristic" or a tuple; ``worlds`` None is ADVICE_WORLDS; ``score``
    None is 0 (the barrel's score ``on_barrel``); ``progress`` is told what is computed as it goes.
    Bad input raises ``AdvisorError`` or ``CardError``."""
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
    estimates: dict[str, list[MethodEstimate]] = {}
    for m in methods:
        n = samples if m != "pimc" else min(samples, pimc_samples)
        if not levels:  # no contract to estimate: the hand cannot bid
            estimates[m] = []
            continue
        if m == "dd":
            pts = dd_levels(mask, deals, rec, levels[0], levels[-1], threads, progress=stage("dd", n))
        else:
            pts = played_points(mask, deals[:n], rec, m, seed, worlds=worlds, threads=threads,
                                progress=stage(m + (f" ({worlds} worlds a decision)" if m == "pimc" else ""), n))
        estimates[m] = _estimates(m, pts, n, levels, rec, sit)
    dealer = SEATS[seat]
    pr = pass_results(mask, deals, rec, dealer, sit, seed, threads, progress=stage("pass and defend", samples))
    pass_gain = defence_gain(pr[:, 0], pr[:, 1], rec, sit)
    pass_ev = float(pass_gain.mean())
    pass_ci = mean_interval(pass_ev, float(pass_gain.std(ddof=1)) if samples > 1 else math.nan, samples)
    stuck = float((pr[:, 1] == 0).mean()) if forced else None

    def biddable(b: int) -> bool:
        return b <= cap or (forced and b == rec.min_bid)

    rows = tuple(ContractRow(contract=b, biddable=biddable(b), estimates=tuple(estimates[m][j] for m in methods))
                 for j, b in enumerate(levels))
    method_advice = []
    for m in methods:
        bids = [(b, e) for b, e in zip(levels, estimates[m], strict=True) if biddable(b)]
        if not bids:
            method_advice.append(MethodAdvice(m, None, None, None))
            continue
        ok = [b for b, e in bids if e.p_make >= 1 - risk]
        best_b, best = max(bids, key=lambda be: (be[1].ev_declare, -be[0]))
        method_advice.append(MethodAdvice(m, max_bid_at_risk=ok[-1] if ok else None,
                                          best_ev_bid=best_b if best.ev_declare > pass_ev or forced else None,
                                          best_ev=best.ev_declare))
    basis = next(m for m in RECOMMENDATION_BASIS if m in methods)
    basis_advice = next(a for a in method_advice if a.method == basis)
    return Advice(
        hand=format_hand(mask), seat=seat, rules=rec, known_left=format_hand(known.left) if known.left else "",
        known_right=format_hand(known.right) if known.right else "",
        known_talon=format_hand(known.talon) if known.talon else "", situation=sit, risk=risk,
        methods=methods, samples=samples, pimc_samples=pimc_samples, seed=seed,
        worlds=worlds if "pimc" in methods else None, version=__version__,
        forced_bid=rec.min_bid if forced else None, bidding_cap=cap, raise_cap=top, contracts=rows,
        pass_line=PassLine(ev=pass_ev, ci_low=pass_ci[0], ci_high=pass_ci[1], stuck_with_forced_bid=stuck,
                           method=pass_method(forced)),
        method_advice=tuple(method_advice),
        recommendation=_recommendation(basis_advice, rows, rec.min_bid if forced else None, risk, pass_ev),
        talon=talon_chances(mask, known))


# The method the one recommendation rests on: the most realistic play among those asked for (pimc
# and heuristic seats see only their own cards; dd seats see every card).
RECOMMENDATION_BASIS = ("pimc", "heuristic", "dd")


def _recommendation(advice: MethodAdvice, rows: tuple[ContractRow, ...], forced_bid: int | None, risk: float,
                    pass_ev: float) -> Recommendation:
    """The bid to make: the highest contract made at least (1 - risk) of the time by the method of
    ``advice``; if none, the forced minimum (``forced_bid``: first hand under forced_first_bid) then
    pass, or pass."""
    bid = advice.max_bid_at_risk
    if bid is None:
        return Recommendation(method=advice.method, bid=forced_bid, p_make=None, ci_low=None, ci_high=None,
                              ev=pass_ev, risk=risk)
    e = next(r for r in rows if r.contract == bid).estimate(advice.method)
    return Recommendation(method=advice.method, bid=bid, p_make=e.p_make, ci_low=e.ci_low, ci_high=e.ci_high,
                          ev=e.ev_declare, risk=risk)


__all__ = ["Advice", "ContractRow", "MethodEstimate", "PassLine", "MethodAdvice", "Recommendation", "TalonChances",
           "MarriageChance", "CardChance", "LEVEL_COLUMNS", "advise", "talon_chances", "format_card"]
