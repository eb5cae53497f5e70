"""The bid advisor: how much should this 7-card hand bid?

``advise`` samples the 17 cards the player cannot see (talon 3, the two opponents 7 + 7, cards
known to lie somewhere kept there) and answers on the same sampled deals (docs/advisor.md):

- **The decision**, from the auction itself: every sampled deal is played once per bidding line
  of yours (``sim.engine.playouts.auction_lines``): pass at every turn (as the seat holding the
  forced bid: the forced bid, then pass), the line player's own bidding (shown as information), and
  "bid up to b" for every legal bid b (``sim.game.bids_nb.bid_values``) from the least bid to the
  hand's bidding cap. Everything else in the deal
  (the others' bids, the talon, raising the contract after it or conceding, the gifts, the cards)
  is played by one player for every seat (``line_player``: the learned player by default). Each
  line's result under the objective (``analysis.bid_value``: ``race``, your score change minus the
  opponents' mean; ``own``, your score change; ``win``, your chance of winning) is compared with
  the pass line on the same deals (its gain: the expected result of bidding up to that level
  rather than always passing); the recommendation is the tested level whose line gains most, if it
  gains (``analysis.bid_value.recommended``), stated with that gain and its 95% interval, or "pass"
  ("forced bid B, then pass" for the seat holding the forced bid), or "untested" when too few sampled
  auctions reached any level above the opening.
- **Information**, by one or more methods: the chance of making each contract from the minimum
  bid to what a talon could let the declarer raise it to, when he declares it and plays it as that
  contract from the talon on (``learned``: the learned player in every seat, each contract played
  apart, ``contract_points``; ``dd``: double dummy with the best discard, every seat seeing every
  card; ``heuristic``; ``pimc``), the expected score of declaring each contract, the highest bids
  made at least (1 - risk) and 50% of the time, and the talon's chances, computed exactly over every
  possible talon. None of these is the decision: they leave the auction and the opponents aside.

The sampling and the playouts are the engine's (``sim.engine.playouts``, over the compiled kernels
of ``sim.engine.playouts_nb``): its random streams make the results depend on the seed and the
sample count only, never on the number of threads. This module parses the question, chooses the
contract levels and the lines, and turns the playouts into an ``Advice``: a frozen result whose
``to_polars()`` gives the lines (or the contract levels) as a table and ``to_dict()`` its JSON
(``analysis.present`` prints it: ``text.advice_lines``, ``text.advice_csv``, ``json_text.to_json``).

First hand (the dealer, third hand, under ``forced_bid_seat = dealer``) is forced to bid the minimum
only under ``forced_first_bid``; a hand that is not forced and whose bidding cap is below its least
bid (no marriage, ``min_bid`` above 120; ``bid_ceiling_before_talon`` below it is refused) cannot
bid at all: its advice is to pass, with the pass line's value. Under ``all_pass = dealer_plays`` the
dealer may be made to declare ``min_bid`` when the others pass; under ``barrel_min_bid_enforced`` a
sitter bids (and is forced to) at least ``barrel_min_contract``. Which bids and contracts are legal:
``sim.game.bids_nb``.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from analysis.bid_value import OBJECTIVE_WORDS, OBJECTIVES, LineValue, WinChance, line_values, recommended
from analysis.stats import mean_interval, wilson_interval
from sim import __version__, arguments
from sim.engine.playouts import (
    ADVICE_WORLDS,
    PASS_LINE,
    AdvisorError,
    Known,
    Situation,
    auction_lines,
    contract_points,
    dd_levels,
    sample_unseen,
)
from sim.game.bids_nb import auction_cap, bid_values, sitter_floor
from sim.game.cards import (
    SUITS,
    CardError,
    format_card,
    format_hand,
    marriage_suits,
    mask_to_cards,
    parse_hand,
)
from sim.game.play_nb import CAP_WITHOUT_MARRIAGE
from sim.game.rules import HouseRules, load_rules
from sim.parallel import check_thread_count
from sim.players.params import MAX_PIMC_WORLDS
from sim.runs.progress import Progress

if TYPE_CHECKING:
    import polars as pl

METHODS = ("learned", "dd", "heuristic", "pimc")  # the make-rate methods; the default is learned
LINE_PLAYERS = ("learned", "heuristic")  # who plays the auction lines (every seat but your bidding)
SEATS = {"first": 2, "second": 1, "third": 0}  # --seat → the dealer's seat (the player is seat 0)
DEFAULT_PIMC_SAMPLES = 100
MAX_SAMPLES = 5_000_000  # sampled deals: a few arrays of 24 bytes each stay within a few hundred MiB
# The scores --score takes off the barrel: from this floor (as the rules' score options) to below
# the barrel, or the target without a barrel.
SCORE_FLOOR = -3000
# How the players of each method are described wherever its numbers are printed.
METHOD_PLAYERS = {
    "learned": "learned player, all seats",
    "dd": "double dummy: every seat sees every card",
    "heuristic": "heuristic player, all seats",
    "pimc": "pimc player, all seats",
}


def check_three_player_deal(rules: HouseRules) -> None:
    """The advisor and the bid tables value 7-card hands of the 3-player deal (played with 3 or 4
    players): refuse rules they cannot play, naming the option."""
    if rules.players == 2:
        raise AdvisorError("players = 2: bid advice and bid tables value 7-card hands of the 3-player deal "
                           "(players = 3 or 4), not 2-player deals")


def parse_known(hand: int, left: str | None, right: str | None, talon: str | None) -> Known:
    """The cards known to lie with the left opponent, the right one and in the talon, checked
    against the hand and each other (``AdvisorError``, ``CardError``)."""
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
    """The make-rate methods of ``spec`` ("learned,dd" or a sequence), each once, in order."""
    names = [m.strip().lower() for m in (spec.split(",") if isinstance(spec, str) else spec) if m.strip()]
    if not names:
        raise AdvisorError(f"give at least one method: {', '.join(METHODS)}")
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


def forced_seat_name(rules: HouseRules) -> str | None:
    """The seat (first, second, third: ``SEATS``) holding the forced opening bid: first hand under
    forced_first_bid, the dealer (third hand) under forced_bid_seat = dealer; None without
    forced_first_bid."""
    position = rules.forced_position()
    return None if position is None else next(name for name, dealer in SEATS.items() if -dealer % 3 == position)


def owed_contract(rules: HouseRules, seat: str, on_barrel: bool) -> tuple[int | None, int | None]:
    """(the forced opening bid of a hand in ``seat``, None if it holds none; the contract it may be
    made to declare without bidding above it, None if none): the forced bid, or under all_pass =
    dealer_plays the dealer's contract when the others pass. Either is min_bid, or for a sitter under
    barrel_min_bid_enforced the least bid reaching barrel_min_contract (``bids_nb.forced_bid``)."""
    value = least_bid(rules, on_barrel)
    forced = value if seat == forced_seat_name(rules) else None
    if forced is None and rules.all_pass == "dealer_plays" and seat == "third":
        return None, value
    return forced, forced


def least_bid(rules: HouseRules, on_barrel: bool) -> int:
    """The least bid a hand may make: min_bid, or for a sitter under barrel_min_bid_enforced the
    least reaching barrel_min_contract."""
    return int(sitter_floor(rules.min_bid, rules.to_array())) if (
        rules.barrel_min_bid_enforced and on_barrel) else rules.min_bid


def contract_levels(hand: int, known: Known, rules: HouseRules, owed: int | None = None,
                    on_barrel: bool = False) -> tuple[list[int], int, int]:
    """(contracts from the least bid to the raise cap, the bidding cap, the raise cap), the contracts
    those ``bids_nb.bid_values`` allows. A hand ``owed`` a contract without bidding (its forced
    opening, or the dealer's contract under all_pass = dealer_plays; ``owed_contract``) plays it
    whatever its cap, so that contract is always there; a hand owed none and whose bidding cap (the
    auction's: ``bids_nb.auction_cap``, bid_ceiling_before_talon included) is below its least bid
    never becomes the declarer: no contracts."""
    arr = rules.to_array()
    cap = int(auction_cap(hand, arr))
    top = max(cap, raise_cap(hand, known, rules))
    least = least_bid(rules, on_barrel)
    if owed is not None:
        top = max(top, owed)
    elif cap < least:
        return [], cap, top
    return bid_values(least, top, arr), cap, top


def _checked_score(rules: HouseRules, score: int | None, on_barrel: bool, option: str, barrel_option: str) -> int:
    """One player's score before the deal (``option`` and ``barrel_option`` name the command's
    options in the messages), refused when the game is over or the two contradict each other."""
    target, barrel = rules.target, rules.barrel
    if on_barrel:
        if barrel is None:
            raise AdvisorError(f"{barrel_option}: these rules have no barrel (barrel = none)")
        if score is None:
            return barrel
        if not barrel <= score < target:
            raise AdvisorError(f"{option} {score} with {barrel_option}: a player on the barrel has a score from the "
                               f"barrel ({barrel}) to below the target ({target})")
        return score
    score = 0 if score is None else score
    if score >= target:
        raise AdvisorError(f"{option} {score}: at or above the target ({target}) the game is over")
    if barrel is not None and score >= barrel:
        raise AdvisorError(f"{option} {score}: at or above the barrel ({barrel}) a player sits on the barrel; give "
                           f"{barrel_option} instead")
    if score < SCORE_FLOOR:
        raise AdvisorError(f"{option} {score}: must be from {SCORE_FLOOR} to below the "
                           + ("barrel" if barrel is not None else "target"))
    return score


def check_situation(rules: HouseRules, score: int | None, on_barrel: bool, left_score: int | None = None,
                    left_on_barrel: bool = False, right_score: int | None = None,
                    right_on_barrel: bool = False) -> Situation:
    """The score situation before the deal: yours (``--score``, ``--on-barrel``) and the
    opponents' (the left one, who bids and plays after you, and the right one), each refused when
    the game is over or the score and the barrel contradict each other (None: 0, or the barrel's
    score for a player on the barrel); under ``barrel_knock_off`` at most one player sits on the
    barrel."""
    mine = _checked_score(rules, score, on_barrel, "--score", "--on-barrel")
    left = _checked_score(rules, left_score, left_on_barrel, "--left-score", "--left-on-barrel")
    right = _checked_score(rules, right_score, right_on_barrel, "--right-score", "--right-on-barrel")
    sitting = [name for name, sits in (("--on-barrel", on_barrel), ("--left-on-barrel", left_on_barrel),
                                       ("--right-on-barrel", right_on_barrel)) if sits]
    if len(sitting) > 1 and rules.barrel_knock_off:
        raise AdvisorError(f"{' and '.join(sitting)}: under barrel_knock_off (these rules) a newcomer knocks the "
                           "sitter off, so only one player sits on the barrel at a time")
    return Situation(score=mine, on_barrel=on_barrel, others=(left, right),
                     others_on_barrel=(left_on_barrel, right_on_barrel))


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
def made_gain(b: int, rules: HouseRules, sit: Situation, scored: int | None = None) -> int:
    """What making the contract ``b`` adds to the declarer's score in ``sit`` (only up to the
    barrel; on the barrel: what it scores when it takes him off, up to the target with
    ``win_score_capped``, else 0). ``scored``: what the made contract scores (``b``, or with
    ``declarer_scores = points`` his rounded points when more). The barrel variants (docs/RULES.md
    "Barrel variants"): on the range barrel (``barrel_freeze = false``) a sitter's contract always
    counts (capped at the target with ``win_score_capped`` when it wins) and a climber keeps his
    score; with ``barrel_jump_wins`` (implied by the range barrel) reaching the target wins, uncapped."""
    amount = b if scored is None else scored
    ranged = rules.barrel is not None and not rules.barrel_freeze
    if sit.on_barrel:
        if ranged:
            wins = sit.score + amount >= rules.target
            return min(amount, rules.target - sit.score) if wins and rules.win_score_capped else amount
        if b < rules.barrel_min_contract:
            return 0
        return min(amount, rules.target - sit.score) if rules.win_score_capped else amount
    if rules.barrel is not None and (rules.barrel_jump_wins or ranged) and sit.score + amount >= rules.target:
        return amount  # a jump to the target: the win, never capped
    if rules.barrel is not None and not ranged and sit.score + amount >= rules.barrel:
        return max(0, rules.barrel - sit.score)
    return amount


def fail_loss(b: int, rules: HouseRules, sit: Situation) -> int:
    """What failing costs, or conceding when that costs less (concede_no_deduction); nothing to a
    sitter whose failed contract is not recorded (``barrel_failed_contract = stays``)."""
    if sit.on_barrel and rules.barrel_failed_contract == "stays":
        return 0
    can_concede = rules.concede and (rules.concede_on_barrel or not sit.on_barrel)
    if can_concede and rules.concede_no_deduction:
        return 0
    return b


# ---- the advice -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MethodEstimate:
    """One method's estimate at one contract, over the ``n`` sampled deals it played, the declarer
    declaring that contract and playing it from the talon on (information, not the decision).

    - ``method``: learned, dd, heuristic or pimc (``METHOD_PLAYERS`` says who plays);
    - ``n``: the deals it played (pimc: the first ``pimc_samples`` of them);
    - ``made``: the deals in which the declarer made the contract;
    - ``p_make``: made / n, and ``ci_low``, ``ci_high`` its 95% Wilson interval (widened to hold
      ``p_make`` where rounding at 0 or 1 leaves it out);
    - ``ev_declare``: the expected own score of declaring the contract, p·gain − (1 − p)·loss (made:
      what it scores in the situation; failed: minus what it costs), and ``ev_ci_low``,
      ``ev_ci_high`` its 95% normal interval (the point itself when n is 1).
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
    """One contract level of the make-rate table.

    - ``contract``: the contract;
    - ``biddable``: whether the hand can bid it (up to its bidding cap, or the forced bid);
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
class RiskLevels:
    """Risk information of one method (never the decision): the highest biddable contracts it
    makes at least ``1 - risk`` of the time (``at_risk``) and at least half the time (``at_half``),
    each None when no biddable contract is made that often."""

    method: str
    risk: float
    at_risk: int | None
    at_half: int | None

    def to_dict(self) -> dict:
        return {"made_at_least": 1 - self.risk, "bid_at_risk": self.at_risk, "bid_at_half": self.at_half}


def _rate_dict(rate: tuple[float, float, float]) -> dict:
    return {"p": rate[0], "low": rate[1], "high": rate[2]}


@dataclass(frozen=True)
class LineRow:
    """One of your bidding lines over the sampled deals: ``value`` (``analysis.bid_value.LineValue``:
    its mean result under the objective, the paired gain over passing, the shares you declare, make,
    concede and raise, the mean final contract) and ``differs``, the deals this line plays
    differently from the "bid up to" line below it (the pass line for the lowest); None for the pass
    line and the line player's own bidding. A line that differs in no deal gives the same result as
    the line below: no auction of the sample reached it."""

    value: LineValue

    @property
    def differs(self) -> int | None:
        """The deals this line plays differently from the one below (``LineValue.reached``), None
        for the pass line and the line player's own bidding."""
        return self.value.reached if self.value.limit > 0 else None

    @property
    def limit(self) -> int:
        """``PASS_LINE``, 0 (the line player's own bidding) or b (bid up to b)."""
        return self.value.limit

    @property
    def kind(self) -> str:
        """"pass", "own" (the line player's own bidding) or "bid to"."""
        return "pass" if self.limit == PASS_LINE else "own" if self.limit == 0 else "bid to"

    def to_dict(self) -> dict:
        v = self.value
        return {"line": self.kind, "limit": v.limit if v.limit > 0 else None, "n": v.n, "mean": v.mean, "low": v.low,
                "high": v.high, "gain": v.gain, "gain_low": v.gain_low, "gain_high": v.gain_high,
                "declares": _rate_dict(v.declares), "made": _rate_dict(v.made), "conceded": _rate_dict(v.conceded),
                "raised": _rate_dict(v.raised), "contract": v.contract, "differs": self.differs,
                "reached": v.reached if v.limit > 0 else None, "step_gain": _finite(v.step_gain),
                "step_low": _finite(v.step_low), "step_high": _finite(v.step_high)}


@dataclass(frozen=True)
class Recommendation:
    """The one bid advised, from the lines played by ``player`` under ``objective``
    (``analysis.bid_value.recommended``): the tested level X whose line "bid up to X" gains most
    over always passing across all the sampled deals, if it gains.

    - ``bid``: X ("bid to X"); when no tested line gains over passing, the forced bid for the seat
      holding it ("forced bid B, then pass"), else None ("pass");
    - ``line``: the line of X (``gain``: that line against passing at every turn, over all deals,
      with its interval, the highest of the tested lines; ``step_gain``, information: bidding X
      rather than passing where the auction reached X, over ``reached`` deals), None when no line
      gains;
    - ``beyond``: the first tested level above X (the lowest tested level when passing), whose
      line gains no more than X's (than passing), or None;
    - ``untested_from``: when no level above X is tested, the lowest level above X that fewer than
      ``MIN_REACHED`` sampled auctions reached (None: X is the bidding cap or ``beyond`` is set);
    - ``passing``: the pass line's value;
    - ``bidding_cap``: the hand's bidding cap (the highest line);
    - ``objective``, ``player``: the objective and the player of the lines.
    """

    bid: int | None
    line: LineValue | None
    beyond: LineValue | None
    untested_from: int | None
    passing: LineValue
    bidding_cap: int
    objective: str
    player: str

    @property
    def action(self) -> str:
        """"bid to B", "forced bid B, then pass", "pass", or "untested" (no level above the opening
        reached in ``MIN_REACHED`` sampled deals: nothing to judge bidding on by)."""
        if self.line is None:
            if self.beyond is None and self.untested_from is not None:
                return "untested"
            return f"forced bid {self.bid}, then pass" if self.bid is not None else "pass"
        return f"bid to {self.bid}"

    def to_dict(self) -> dict:
        v, p, w = self.line, self.passing, self.beyond
        keys = ("gain", "gain_low", "gain_high", "step_gain", "step_low", "step_high", "reached", "mean", "low", "high")
        return {"action": self.action, "bid": self.bid, "objective": self.objective, "player": self.player,
                **{k: (getattr(v, k) if v is not None else None) for k in keys},
                "pass_mean": p.mean, "pass_low": p.low, "pass_high": p.high,
                "beyond": None if w is None else {"limit": w.limit, "gain": w.gain, "gain_low": w.gain_low,
                                                  "gain_high": w.gain_high, "reached": w.reached,
                                                  "step_gain": w.step_gain, "step_low": w.step_low,
                                                  "step_high": w.step_high},
                "untested_from": self.untested_from}


@dataclass(frozen=True)
class Advice:
    """The bid advice for one 7-card hand (``advise``; what ``thousand bid`` prints).

    The question:

    - ``hand``: the 7 cards, as ``sim.game.cards.format_hand`` writes them;
    - ``seat``: first, second or third hand;
    - ``rules``: the house rules;
    - ``known_left``, ``known_right``, ``known_talon``: the cards known to lie with the left
      opponent, the right one and in the talon ("" for none);
    - ``situation``: the scores before the deal (yours and the opponents', who sits on the barrel);
    - ``objective``: race or own (``analysis.bid_value.OBJECTIVES``);
    - ``risk``: the failure chance of the risk information.

    How it was estimated (what made it):

    - ``line_player``: the player of every decision of the lines but your bidding (all seats);
    - ``methods``: the make-rate methods, in the order asked for;
    - ``samples``: the sampled deals of the unseen cards (the lines and every method but pimc play
      all of them), ``pimc_samples`` the most pimc plays (``samples_of`` gives each method's count);
    - ``seed``: the seed (the advice depends on it and the sizes only, never on the threads);
    - ``worlds``: the worlds a pimc decision averages over, None without pimc;
    - ``version``: the version of thousand that computed it.

    The answer:

    - ``forced_bid``: the bid the hand is forced to open with (forced_first_bid, in the seat
      forced_bid_seat names: min_bid, or a sitter's minimum under barrel_min_bid_enforced), or None;
    - ``bidding_cap``: the highest bid the hand allows (120 + its marriages, at most max_contract
      and bid_ceiling_before_talon);
    - ``raise_cap``: the highest final contract a talon could let the declarer raise to;
    - ``lines``: the bidding lines: passing, the line player's own bidding, then bid up to each
      contract from the minimum bid to the bidding cap; ``to_polars()`` gives them as one table;
    - ``recommendation``: the one bid advised, from the lines;
    - ``contracts``: the make-rate table, from the minimum bid to ``played_to`` (none when the hand
      cannot bid); ``to_polars("contracts")`` gives it as one table;
    - ``played_to``: the highest contract of ``contracts`` (below ``raise_cap`` when the learned
      player made a contract above the bidding cap in no sample: the higher ones were not played),
      None when there are none;
    - ``risk_levels``: each method's highest bids made at least 1 - risk and 50% of the time;
    - ``talon``: the talon's exact chances for the hand.
    """

    hand: str
    seat: str
    rules: HouseRules
    known_left: str
    known_right: str
    known_talon: str
    situation: Situation
    objective: str
    risk: float
    line_player: str
    methods: tuple[str, ...]
    samples: int
    pimc_samples: int
    seed: int
    worlds: int | None
    version: str
    forced_bid: int | None
    bidding_cap: int
    raise_cap: int
    lines: tuple[LineRow, ...]
    recommendation: Recommendation
    contracts: tuple[ContractRow, ...]
    played_to: int | None
    risk_levels: tuple[RiskLevels, ...]
    talon: TalonChances
    win_source: str | None = None  # objective win: which table of win chances, in words

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

    @property
    def pass_line(self) -> LineRow:
        """The pass line (as the seat holding the forced bid: the forced bid, then pass)."""
        return self.line(PASS_LINE)

    @property
    def own_line(self) -> LineRow:
        """The line player's own bidding (information: never the recommendation)."""
        return self.line(0)

    @property
    def objective_means(self) -> str:
        """The objective in words."""
        return OBJECTIVE_WORDS[self.objective]

    @property
    def line_players(self) -> str:
        """Who plays the lines, in words."""
        return line_players_words(self.line_player)

    def players_of(self, method: str) -> str:
        """Who plays a make-rate method's deals, in words (``METHOD_PLAYERS``)."""
        return METHOD_PLAYERS[method]

    def line(self, limit: int) -> LineRow:
        """The line of ``limit`` (``PASS_LINE``, 0 or a contract; KeyError for a line not played)."""
        for r in self.lines:
            if r.limit == limit:
                return r
        raise KeyError(limit)

    def samples_of(self, method: str) -> int:
        """The sampled deals ``method`` played."""
        return min(self.samples, self.pimc_samples) if method == "pimc" else self.samples

    def risk_for(self, method: str) -> RiskLevels:
        """The risk information of ``method`` (KeyError for a method not asked for)."""
        for r in self.risk_levels:
            if r.method == method:
                return r
        raise KeyError(method)

    def situation_dict(self) -> dict:
        """The scores before the deal, by player."""
        s = self.situation
        return {"score": s.score, "on_barrel": s.on_barrel, "left_score": s.others[0],
                "left_on_barrel": s.others_on_barrel[0], "right_score": s.others[1],
                "right_on_barrel": s.others_on_barrel[1]}

    def to_polars(self, table: str = "lines") -> pl.DataFrame:
        """``"lines"``: the bidding lines, a row each in order (``ADVICE_LINE_COLUMNS``; limit null for
        the pass line and the line player's own bidding, told apart by ``line``). ``"contracts"``: the
        make-rate table, a row per contract and method (contracts in order, the methods in the order
        asked for; ``LEVEL_COLUMNS``), empty when the hand cannot bid."""
        import polars as pl

        if table == "lines":
            rows = [_line_record(r) for r in self.lines]
            return pl.DataFrame(rows, schema=_line_schema())
        if table == "contracts":
            rows = [{"contract": r.contract, "biddable": r.biddable, **{k: getattr(e, k) for k in LEVEL_COLUMNS[2:]}}
                    for r in self.contracts for e in r.estimates]
            return pl.DataFrame(rows, schema=_level_schema())
        raise ValueError(f"table must be lines or contracts, not {table!r}")

    def to_dict(self) -> dict:
        """The advice as ``thousand bid --json`` prints it (``analysis.present.json_text.to_json``)."""
        return {
            "hand": self.hand, "seat": self.seat, "rules": self.rule_changes or "classic",
            "samples": self.samples, "seed": self.seed, "version": self.version,
            "objective": self.objective, "objective_means": self.objective_means,
            "line_player": self.line_player, "line_players": self.line_players,
            "known": self.known_cards, "situation": self.situation_dict(),
            "min_bid": self.min_bid, "forced_bid": self.forced_bid, "can_bid": self.can_bid,
            "bidding_cap": self.bidding_cap, "raise_cap": self.raise_cap,
            "recommendation": self.recommendation.to_dict(),
            "lines": [r.to_dict() for r in self.lines],
            "methods": list(self.methods), "method_samples": {m: self.samples_of(m) for m in self.methods},
            "method_players": {m: METHOD_PLAYERS[m] for m in self.methods}, "worlds": self.worlds,
            "contracts": [r.to_dict() for r in self.contracts], "played_to": self.played_to,
            "risk": self.risk, "risk_levels": {r.method: r.to_dict() for r in self.risk_levels},
            "talon": self.talon.to_dict(),
            **({"win_source": self.win_source} if self.win_source is not None else {}),
        }


def line_players_words(player: str) -> str:
    """Who plays the lines, in words."""
    return (f"{player} player, all seats: the others' bids, the talon, raising or conceding, the gifts and the cards; "
            "your bidding follows the line")


# The columns of Advice.to_polars() (the lines) and Advice.to_polars("contracts").
ADVICE_LINE_COLUMNS = ("line", "limit", "n", "mean", "low", "high", "gain", "gain_low", "gain_high",
                       *(f"{k}{s}" for k in ("declares", "made", "conceded", "raised") for s in ("", "_low", "_high")),
                       "contract", "differs", "reached", "step_gain", "step_low", "step_high")
LEVEL_COLUMNS = ("contract", "biddable", "method", "n", "made", "p_make", "ci_low", "ci_high", "ev_declare",
                 "ev_ci_low", "ev_ci_high")


def _line_record(row: LineRow) -> dict:
    v = row.value
    rates = {f"{k}{s}": getattr(v, k)[i] for k in ("declares", "made", "conceded", "raised")
             for i, s in enumerate(("", "_low", "_high"))}
    return {"line": row.kind, "limit": v.limit if v.limit > 0 else None, "n": v.n, "mean": v.mean, "low": v.low,
            "high": v.high, "gain": v.gain, "gain_low": v.gain_low, "gain_high": v.gain_high, **rates,
            "contract": v.contract, "differs": row.differs, "reached": v.reached if v.limit > 0 else None,
            "step_gain": v.step_gain, "step_low": v.step_low, "step_high": v.step_high}


def _finite(x: float) -> float | None:
    return None if x != x else x


def _line_schema() -> dict:
    import polars as pl

    types = {"line": pl.String, "limit": pl.Int64, "n": pl.Int64, "differs": pl.Int64, "reached": pl.Int64}
    return {k: types.get(k, pl.Float64) for k in ADVICE_LINE_COLUMNS}


def _level_schema() -> dict:
    import polars as pl

    return {"contract": pl.Int64, "biddable": pl.Boolean, "method": pl.String, "n": pl.Int64, "made": pl.Int64,
            **{k: pl.Float64 for k in LEVEL_COLUMNS[5:]}}


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
        ev_lo, ev_hi = mean_interval(ev, sd * math.sqrt(n / max(1, n - 1)), n) if n > 1 else (ev, ev)
        out.append(MethodEstimate(method=method, n=n, made=k, p_make=p, ci_low=lo, ci_high=hi, ev_declare=ev,
                                  ev_ci_low=ev_lo, ev_ci_high=ev_hi))
    return out


def _learned_made(mask: int, deals: np.ndarray, rules: HouseRules, seed: int, levels: list[int], cap: int, *,
                  worlds: int, threads: int | None, progress: Progress | None) -> tuple[np.ndarray, np.ndarray]:
    """(made, points): (n, played levels) bool and the declarer's points, the learned declarer
    playing each contract of ``levels`` apart
    (``contract_points``, one level a call: the same random streams as all levels in one call),
    stopping after the first contract above the bidding cap ``cap`` made in no sample."""
    n, total = len(deals), len(deals) * len(levels)
    stage = "learned player: each contract played apart"
    columns, points = [], []
    for k, b in enumerate(levels):
        step = None if progress is None else (lambda done, k=k: progress(stage, k * n + done, total))
        pts = contract_points(mask, deals, rules, "learned", seed, [b], worlds=worlds, threads=threads, progress=step)
        made = _made(pts, [b], rules, "learned")
        columns.append(made[:, 0])
        points.append(np.asarray(pts)[:, 0])
        if b > cap and not made.any():
            break
    if progress is not None and len(columns) < len(levels):
        progress(stage, total, total)  # the rest is not played: the stage is over
    return np.stack(columns, axis=1), np.stack(points, axis=1)


def _risk_levels(method: str, rows: tuple[ContractRow, ...], risk: float) -> RiskLevels:
    biddable = [r for r in rows if r.biddable]

    def highest(p: float) -> int | None:
        ok = [r.contract for r in biddable if r.estimate(method).p_make >= p]
        return ok[-1] if ok else None

    return RiskLevels(method=method, risk=risk, at_risk=highest(1 - risk), at_half=highest(0.5))


def _check_objective(objective: str, win_chance: WinChance | None, score: int | None) -> str:
    objective = objective.strip().lower()
    if objective not in OBJECTIVES:
        raise AdvisorError(f"--objective {objective!r}: objectives are {', '.join(OBJECTIVES)}")
    if objective == "win" and (win_chance is None or score is None):
        raise AdvisorError("--objective win needs --score (the chance of winning depends on the score situation) and "
                           "a table of win chances (thousand tables win-chances)")
    return objective


def advise(*, hand: str | int, rules: str | HouseRules | None = None, samples: int = 2000, seed: int = 0,
           methods: str | tuple[str, ...] = ("learned",), seat: str = "first", risk: float = 0.3,
           objective: str = "race", line_player: str = "learned", win_chance: WinChance | None = None,
           win_source: str | None = None,
           left: str | None = None, right: str | None = None, talon: str | None = None, score: int | None = None,
           on_barrel: bool = False, left_score: int | None = None, left_on_barrel: bool = False,
           right_score: int | None = None, right_on_barrel: bool = False,
           pimc_samples: int = DEFAULT_PIMC_SAMPLES, worlds: int | None = None,
           threads: int | None = None, progress: Progress | None = None) -> Advice:
    """The bid advice for the 7-card ``hand`` (text, or a card mask) before the talon (see the module
    docstring): ``methods`` (the make-rate methods) as "learned,dd" or a tuple; ``objective`` race or
    own (win needs ``win_chance``, seat 0's chance of winning from the three scores after the deal,
    and ``score``; ``win_source`` says in words which table it is); ``line_player`` learned or
    heuristic; ``worlds`` None is ADVICE_WORLDS; a score None is 0 (the barrel's on the barrel);
    ``progress`` is told what is computed as it goes. Bad input raises ``AdvisorError`` or ``CardError``
    (an argument of the wrong type ``InputError``, ``sim.arguments``; a ``HouseRules`` is validated
    as a file's rules are)."""
    if not isinstance(hand, str) and (isinstance(hand, bool) or not isinstance(hand, numbers.Integral)):
        raise arguments.refused("hand", "7 cards as text or a card mask (an integer)", hand)
    samples, seed = arguments.integer("samples", samples), arguments.integer("seed", seed)
    if not isinstance(methods, str):
        methods = arguments.texts("methods", methods, what=f"methods ({', '.join(METHODS)})")
    seat, objective = arguments.text("seat", seat), arguments.text("objective", objective)
    risk, line_player = arguments.number("risk", risk), arguments.text("line_player", line_player)
    win_chance = arguments.function("win_chance", win_chance)
    win_source = arguments.text("win_source", win_source, optional=True)
    left, right = arguments.text("left", left, optional=True), arguments.text("right", right, optional=True)
    talon = arguments.text("talon", talon, optional=True)
    score, left_score, right_score = (arguments.integer(name, value, optional=True) for name, value in
                                      (("score", score), ("left_score", left_score), ("right_score", right_score)))
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
    for option, value in (("--samples", samples), ("--pimc-samples", pimc_samples)):
        if not 1 <= value <= MAX_SAMPLES:
            raise AdvisorError(f"{option} must be from 1 to {MAX_SAMPLES:,}, not {value}")
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise AdvisorError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not {worlds}")
    if seed < 0:
        raise AdvisorError(f"--seed must be 0 or more, not {seed}")
    line_player = line_player.strip().lower()
    if line_player not in LINE_PLAYERS:
        raise AdvisorError(f"--line-player {line_player!r}: the lines are played by {' or '.join(LINE_PLAYERS)}")
    check_thread_count("--threads", threads)
    sit = check_situation(rec, score, on_barrel, left_score, left_on_barrel, right_score, right_on_barrel)
    objective = _check_objective(objective, win_chance, score)
    forced, owed = owed_contract(rec, seat, sit.on_barrel)
    levels, cap, top = contract_levels(mask, known, rec, owed, sit.on_barrel)
    least = least_bid(rec, sit.on_barrel)

    def stage(what: str, n: int) -> Callable[[int], None] | None:
        return None if progress is None else (lambda done: progress(what, done, n))

    deals = sample_unseen(mask, known, samples, seed)
    made: dict[str, np.ndarray] = {}
    points: dict[str, np.ndarray] = {}  # the declarer's points by level (not dd's levels reached)
    if levels and "learned" in methods:  # first: where it stops, the table stops for every method
        made["learned"], points["learned"] = _learned_made(mask, deals, rec, seed, levels, cap, worlds=worlds,
                                                           threads=threads, progress=progress)
        levels = levels[:made["learned"].shape[1]]
    for m in methods:
        if not levels or m in made:
            continue
        n = samples if m != "pimc" else min(samples, pimc_samples)
        if m == "dd":
            pts = dd_levels(mask, deals, rec, levels[0], levels[-1], threads, progress=stage("dd", n))[:, None]
        else:
            pts = contract_points(mask, deals[:n], rec, m, seed, levels[:1], worlds=worlds, threads=threads,
                                  progress=stage(m + (f" ({worlds} worlds a decision)" if m == "pimc" else ""), n))
        made[m] = _made(np.repeat(pts, len(levels), axis=1), levels, rec, m)
        if m != "dd":
            points[m] = np.repeat(pts, len(levels), axis=1)
    estimates = {m: _estimates(m, made[m], levels, rec, sit, points.get(m)) if levels else [] for m in methods}

    def biddable(b: int) -> bool:
        return b <= cap or b == owed

    rows = tuple(ContractRow(contract=b, biddable=biddable(b), estimates=tuple(estimates[m][j] for m in methods))
                 for j, b in enumerate(levels))
    limits = [PASS_LINE, 0, *bid_values(least, cap, rec.to_array())]
    lines = auction_lines(mask, deals, rec, SEATS[seat], sit, limits, seed, player=line_player, worlds=worlds,
                          threads=threads, progress=stage(f"auction lines ({line_player} player)", samples))
    values = line_values(lines, limits, objective=objective, win_chance=win_chance)
    line_rows = tuple(LineRow(v) for v in values)
    passing = values[limits.index(PASS_LINE)]
    verdict = recommended(values)
    recommendation = Recommendation(
        bid=verdict.bid if verdict.line is not None else forced, line=verdict.line,
        beyond=verdict.beyond, untested_from=verdict.untested_from, passing=passing, bidding_cap=cap,
        objective=objective, player=line_player)
    return Advice(
        hand=format_hand(mask), seat=seat, rules=rec, known_left=format_hand(known.left) if known.left else "",
        known_right=format_hand(known.right) if known.right else "",
        known_talon=format_hand(known.talon) if known.talon else "", situation=sit, objective=objective, risk=risk,
        line_player=line_player, methods=methods, samples=samples, pimc_samples=pimc_samples, seed=seed,
        worlds=worlds if "pimc" in methods else None, version=__version__,
        forced_bid=forced, bidding_cap=cap, raise_cap=top,
        lines=line_rows, recommendation=recommendation, contracts=rows,
        played_to=levels[-1] if levels else None,
        risk_levels=tuple(_risk_levels(m, rows, risk) for m in methods) if rows else (),
        talon=talon_chances(mask, known), win_source=win_source if objective == "win" else None)


__all__ = ["Advice", "ContractRow", "MethodEstimate", "RiskLevels", "LineRow", "Recommendation", "TalonChances",
           "MarriageChance", "CardChance", "LEVEL_COLUMNS", "ADVICE_LINE_COLUMNS", "METHODS", "LINE_PLAYERS",
           "METHOD_PLAYERS", "SEATS", "advise", "talon_chances", "check_situation", "check_three_player_deal",
           "made_gain", "fail_loss", "line_players_words", "format_card"]
