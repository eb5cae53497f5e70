"""What one 7-card hand may bid, before anything is played: the question the bid advisor
(``analysis.bids.advisor``) and the bid table (``analysis.bids.table``) both ask.

- the seats (first, second, third hand) and which of them holds the forced opening bid;
- the cards known to lie with an opponent or in the talon, checked against the hand;
- the contracts: the least bid, the bidding cap, the highest contract a talon could let the
  declarer raise to (``contract_levels``), and the contract a hand may be owed without bidding;
- the score situation before the deal (``check_situation``) and what making or failing a contract
  scores in it (``made_gain``, ``fail_loss``);
- the talon's chances for the hand, exact over every possible talon (``talon_chances``).

Which bids and contracts are legal: ``sim.game.bids_nb``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from sim.engine.playouts import AdvisorError, Known, Situation
from sim.game.bids_nb import auction_cap, bid_values, sitter_floor
from sim.game.cards import CARD_POINTS, SUITS, format_hand, marriage_suits, mask_to_cards, parse_hand
from sim.game.play_nb import CAP_WITHOUT_MARRIAGE
from sim.game.rules import HouseRules

__all__ = ["SEATS", "SCORE_FLOOR", "BOLTS_TO_PENALTY", "check_three_player_deal", "parse_known", "raise_cap",
           "forced_seat_name", "owed_contract", "least_bid", "contract_levels", "check_situation", "NOTHING_KNOWN",
           "MarriageChance", "CardChance", "TalonChances", "talon_chances", "made_gain", "fail_loss"]

SEATS = {"first": 2, "second": 1, "third": 0}  # --seat → the dealer's seat (the player is seat 0)
# The scores --score takes off the barrel: from this floor (as the rules' score options) to below
# the barrel, or the target without a barrel.
SCORE_FLOOR = -3000
# The count at which bolts (and deals in a row without declaring, under three_passes) are charged:
# the third, as sim.engine.settle_nb charges them.
BOLTS_TO_PENALTY = 3


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
    never becomes the declarer: no contracts. Under no_raise_after_talon a contract is a bid won, so
    the raise cap is the bidding cap."""
    arr = rules.to_array()
    cap = int(auction_cap(hand, arr))
    top = cap if rules.no_raise_after_talon else max(cap, raise_cap(hand, known, rules))
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
                    right_on_barrel: bool = False, attempts: int | None = None, bolts: int | None = None,
                    passes: int | None = None) -> Situation:
    """The score situation before the deal: yours (``--score``, ``--on-barrel``) and the
    opponents' (the left one, who bids and plays after you, and the right one), each refused when
    the game is over or the score and the barrel contradict each other (None: 0, or the barrel's
    score for a player on the barrel); under ``barrel_knock_off`` at most one player sits on the
    barrel. Your counters (None: 0), each refused where the rules do not count it or beyond the
    count that ends it: ``attempts`` (``--attempts``: barrel attempts used, on a barrel of limited
    attempts), ``bolts`` (``--bolts``: toward the penalty, unless every bolt is charged),
    ``passes`` (``--passes``: deals in a row without declaring, under bolt_on = three_passes)."""
    mine = _checked_score(rules, score, on_barrel, "--score", "--on-barrel")
    left = _checked_score(rules, left_score, left_on_barrel, "--left-score", "--left-on-barrel")
    right = _checked_score(rules, right_score, right_on_barrel, "--right-score", "--right-on-barrel")
    sitting = [name for name, sits in (("--on-barrel", on_barrel), ("--left-on-barrel", left_on_barrel),
                                       ("--right-on-barrel", right_on_barrel)) if sits]
    if len(sitting) > 1 and rules.barrel_knock_off:
        raise AdvisorError(f"{' and '.join(sitting)}: under barrel_knock_off (these rules) a newcomer knocks the "
                           "sitter off, so only one player sits on the barrel at a time")
    if attempts is not None:
        if not on_barrel or rules.barrel_attempts == 0:
            raise AdvisorError("--attempts: only a player on the barrel (--on-barrel) of limited attempts "
                               "(barrel_attempts > 0) counts them")
        if not 0 <= attempts < rules.barrel_attempts:
            raise AdvisorError(f"--attempts {attempts}: from 0 to {rules.barrel_attempts - 1} (the sitter has "
                               f"{rules.barrel_attempts} deals)")
    if bolts is not None:
        if rules.bolt_penalty <= 0 or rules.bolt_count == "each":
            raise AdvisorError("--bolts: these rules count no bolts toward a penalty (bolt_penalty = 0, or "
                               "bolt_count = each charges every bolt)")
        if not 0 <= bolts < BOLTS_TO_PENALTY:
            raise AdvisorError(f"--bolts {bolts}: from 0 to {BOLTS_TO_PENALTY - 1} (the {BOLTS_TO_PENALTY}rd is "
                               "charged)")
    if passes is not None:
        if rules.bolt_on != "three_passes":
            raise AdvisorError("--passes: these rules give no bolt for deals without declaring (bolt_on is not "
                               "three_passes)")
        if not 0 <= passes < BOLTS_TO_PENALTY:
            raise AdvisorError(f"--passes {passes}: from 0 to {BOLTS_TO_PENALTY - 1} (the "
                               f"{BOLTS_TO_PENALTY}rd deal in a row without declaring is a bolt)")
    return Situation(score=mine, on_barrel=on_barrel, others=(left, right),
                     others_on_barrel=(left_on_barrel, right_on_barrel), attempts=attempts or 0, bolts=bolts or 0,
                     passes=passes or 0)


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
    """What failing costs, or conceding when that costs less (concede_no_deduction, or the free throw
    of a contract of min_bid under concede_free_at_min_bid); nothing to a sitter whose failed
    contract is not recorded (``barrel_failed_contract = stays``)."""
    if sit.on_barrel and rules.barrel_failed_contract == "stays":
        return 0
    can_concede = rules.concede and (rules.concede_on_barrel or not sit.on_barrel)
    if can_concede and (rules.concede_no_deduction or (rules.concede_free_at_min_bid and b == rules.min_bid)):
        return 0
    return b
