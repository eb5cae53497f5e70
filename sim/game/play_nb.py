"""Compiled rules of play on card masks, shared by the engine, players and solver: who beats whom,
the legal leads and follows under the play options, what a lead declares (marriages, half
marriages, the four aces), the bidding cap, the cards the declarer may give away, rounding.

A card is its index 6 × suit + rank; a hand is a uint32-sized mask held in an int64 (card
constants in ``sim.game.cards``). Within a suit a higher index is a stronger card.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.amounts import THIRD_CONCESSION_PENALTY
from sim.game.bits_nb import lowest_index
from sim.game.cards import (
    ACE,
    ACES_MASK,
    CARD_POINTS,
    HALF_MARRIAGE_MASK,
    JACK,
    KING,
    MARRIAGE_MASK,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    TEN,
)
from sim.numba_config import jit_hot, jit_inline

CAP_WITHOUT_MARRIAGE = 120  # the bidding cap of a hand without a marriage (RULES.md §2, steps 2 and 5)


@jit_hot
def above_in_suit(card):
    """Cards of the same suit stronger than ``card``."""
    return SUIT_MASK[card // 6] & ~((np.int64(2) << card) - 1)


@jit_hot
def mask_points(mask):
    total = 0
    m = mask
    while m:
        low = m & -m
        total += CARD_POINTS[lowest_index(low)]
        m ^= low
    return total


@jit_hot
def beaters(mask, winning_card, trump):
    """Cards of ``mask`` that would beat ``winning_card`` (the best card of the trick so far)."""
    out = mask & above_in_suit(winning_card)
    if trump >= 0 and winning_card // 6 != trump:
        out |= mask & SUIT_MASK[trump]
    return out


@jit_hot
def beats(card, winning_card, trump):
    return (beaters(np.int64(1) << card, winning_card, trump)) != 0


@jit_hot
def follow_allowed(hand, led_suit, trump):
    """Cards a follower may play by suit: the led suit, else trump, else anything."""
    allowed = hand & SUIT_MASK[led_suit]
    if allowed == 0 and trump >= 0:
        allowed = hand & SUIT_MASK[trump]
    if allowed == 0:
        allowed = hand
    return allowed


@jit_hot
def legal_follows(hand, led_suit, winning_card, trump, must_head):
    """Cards a follower may play: follow suit, else trump, else anything; with ``must_head`` he
    must also beat the winning card whenever a card allowed by those duties can (so he can beat it
    exactly when some card of ``follow_allowed`` can)."""
    allowed = follow_allowed(hand, led_suit, trump)
    if must_head:
        heads = beaters(allowed, winning_card, trump)
        if heads:
            return heads
    return allowed


@jit_hot
def marriage_total(hand, rules):
    """Value of the marriages held in ``hand`` under the rules array's marriage values."""
    total = 0
    for s in range(4):
        if hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]:
            total += rules[R.MARRIAGE_VALUE + s]
    return total


@jit_hot
def nth_card(mask, n):
    """The n-th lowest card of a mask (0-based)."""
    m = mask
    for _ in range(n):
        m &= m - 1
    return lowest_index(m)


def round_points_of(points, rules):
    """Points rounded by the ``rounding`` option (a defender's points, the 4-player dealer's talon, the
    declarer's under round_declarer or declarer_scores = points): to a multiple of ROUND_UNIT, a
    remainder below ROUND_UNIT - ROUND_OFFSET down and the rest up (five: 47 -> 45, 48 -> 50; ten:
    15 -> 10, 16 -> 20; ten_half_up: 15 -> 20; none: unchanged). Branch-free, so this plain function
    also rounds numpy arrays (training, analyses); kernels call its compiled twin ``round_points``."""
    unit = rules[R.ROUND_UNIT]
    return (points + rules[R.ROUND_OFFSET]) // unit * unit


round_points = jit_hot(round_points_of)


@jit_hot
def declarer_total(points, rules):
    """What a contract is measured against: the declarer's ``points`` (cards and marriages), rounded
    by ``rounding`` first under round_declarer; the contract is made when this reaches it."""
    if rules[R.ROUND_DECLARER]:
        return round_points(points, rules)
    return points


@jit_hot
def declarer_gain(contract, points, rules):
    """What a declarer who made ``contract`` with ``points`` (cards and marriages) scores, before the
    dark or golden doubling: the contract, or with declarer_scores = points the larger of the
    contract and his points rounded by ``rounding``."""
    if rules[R.DECLARER_SCORES_POINTS]:
        return max(contract, round_points(points, rules))
    return contract


@jit_hot
def barrel_need(score, rules):
    """The least contract that takes a player on the barrel with ``score`` off upward when made:
    ``barrel_min_contract``; on the range barrel (barrel_freeze = false) what his score lacks to the
    target, rounded up to a multiple of 5, at least ``min_bid``."""
    if rules[R.BARREL_FREEZE]:
        return rules[R.BARREL_MIN_CONTRACT]
    return max(rules[R.MIN_BID], (rules[R.TARGET] - score + 4) // 5 * 5)


@jit_hot
def concession_gain(contract, rules):
    """What each defender gets when the declarer concedes ``contract``: nothing for the free throw
    (concede_free_at_min_bid, a contract of min_bid); 60 with concede_60; half the contract rounded
    down to a point with concede_payout = half_floor (105 -> 52); else half rounded up to a multiple
    of 5 (105 -> 55)."""
    if free_throw(contract, rules):
        return 0
    if rules[R.CONCEDE_60]:
        return 60
    if rules[R.CONCEDE_HALF_FLOOR]:
        return contract // 2
    return (contract + 9) // 10 * 5


@jit_inline
def free_throw(contract, rules):
    """concede_free_at_min_bid: a concession of ``contract`` (the winning bid) costs the declarer
    nothing and pays the defenders nothing when it is min_bid (the Polish throw at 100)."""
    return rules[R.CONCEDE_FREE_AT_MIN_BID] != 0 and contract == rules[R.MIN_BID]


@jit_inline
def concession_loss(contract, nth, rules):
    """What the declarer loses conceding ``contract`` as his ``nth`` concession of the game: the
    contract (nothing under concede_no_deduction or for a free throw), and with
    concede_third_penalty THIRD_CONCESSION_PENALTY more for every third."""
    loss = 0 if rules[R.CONCEDE_NO_DEDUCTION] or free_throw(contract, rules) else contract
    if rules[R.CONCEDE_THIRD_PENALTY] and nth % 3 == 0:
        loss += THIRD_CONCESSION_PENALTY
    return loss


@jit_inline
def points_to_make(contract, banked, rules):
    """The declarer's points still to come that make ``contract`` when he has ``banked`` (card
    points of the tricks he won and his secured marriages): the least t with total banked + t
    reaching the contract (rounded by ``rounding`` first under round_declarer); 0 when it is made
    already."""
    t = max(0, contract - banked)
    if rules[R.ROUND_DECLARER]:
        # Rounding may take the contract's own total below it (ten: 105 -> 100, so 106 is needed)
        # or a lower total up to it (five: 103 -> 105): at most a rounding unit either way.
        while round_points(banked + t, rules) < contract:
            t += 1
        while t > 0 and round_points(banked + t - 1, rules) >= contract:
            t -= 1
    return t


# ---- play options of RULES.md §4.4 (semantics in docs/solver.md) ------------------------------
DECLARE_NONE, DECLARE_MARRIAGE, DECLARE_HALF, DECLARE_ACES = 0, 1, 2, 3


@jit_hot
def legal_leads(hand, trump, own_trump, no_lead_foreign_trump, must_lead_trump):
    """Cards a player on lead may lead. ``no_lead_foreign_trump``: no trump card while he holds
    another suit, unless he declared the trump himself (``own_trump``); ``must_lead_trump``: a
    trump card if he holds one, where the first rule lets him lead trump at all."""
    if trump < 0:
        return hand
    trumps = hand & SUIT_MASK[trump]
    if trumps == 0 or trumps == hand:
        return hand
    if no_lead_foreign_trump and not own_trump:
        return hand ^ trumps
    if must_lead_trump:
        return trumps
    return hand


# A lead written as ``card | LEAD_WITHOUT_DECLARING`` declines the combination it would declare
# (only legal under marriage_optional); ``plays`` records such a lead the same way.
LEAD_WITHOUT_DECLARING = 32
# Bits of a seat's ``marriages`` record: full marriage of suit s = 1 << s, half marriage of suit
# s = 1 << (4 + s), the four aces = 1 << 8.
DECLARED_BIT_HALF = 4
DECLARED_BIT_ACES = 8


@jit_hot
def declaration_kind(hand, card, half_marriage, ace_marriage):
    """What leading ``card`` from ``hand`` declares (the most valuable combination it belongs
    to): DECLARE_MARRIAGE for K or Q of a held K+Q, DECLARE_HALF for Q or J of a held Q+J (with
    ``half_marriage``), DECLARE_ACES for an ace of four held aces (with ``ace_marriage``), else
    DECLARE_NONE. The caller checks the prior-trick condition."""
    rank = card % 6
    s = card // 6
    if (rank == KING or rank == QUEEN) and (hand & MARRIAGE_MASK[s]) == MARRIAGE_MASK[s]:
        return DECLARE_MARRIAGE
    if half_marriage and (rank == QUEEN or rank == JACK) and (hand & HALF_MARRIAGE_MASK[s]) == HALF_MARRIAGE_MASK[s]:
        return DECLARE_HALF
    if ace_marriage and rank == ACE and (hand & ACES_MASK) == ACES_MASK:
        return DECLARE_ACES
    return DECLARE_NONE


@jit_hot
def marriage_cards(hand):
    """Kings and queens of the marriages held in ``hand``."""
    queens = hand & (hand >> 1) & RANK_MASK[QUEEN]  # a queen whose king (the next rank) is held
    return queens | (queens << 1)


@jit_hot
def declaring_ranks(rules):
    """The cards (every suit's) whose lead may declare something under ``rules``: kings and queens,
    and jacks and aces where the rules count half marriages and the four aces (the engine's trick
    loop and the record walk test a lead against it before asking ``declaration``)."""
    ranks = RANK_MASK[KING] | RANK_MASK[QUEEN]
    if rules[R.HALF_MARRIAGE]:
        ranks |= RANK_MASK[JACK]
    if rules[R.ACE_MARRIAGE]:
        ranks |= RANK_MASK[ACE]
    return ranks


@jit_hot
def declaring_cards(hand, half_marriage, ace_marriage):
    """The cards of ``hand`` whose lead can declare something (``declaration_kind`` is not
    DECLARE_NONE): marriage halves, and where the rules count them the Q and J of a half marriage
    and the four aces."""
    out = marriage_cards(hand)
    if half_marriage:
        jacks = hand & (hand >> 1) & RANK_MASK[JACK]
        out |= jacks | (jacks << 1)
    if ace_marriage and hand & ACES_MASK == ACES_MASK:
        out |= ACES_MASK
    return out


@jit_hot
def declaration(hand, card, rules):
    """(value, new trump or -1, bit of the ``marriages`` record) of the combination that leading
    ``card`` from ``hand`` declares; value 0 and bit 0 when it declares nothing. Half marriages
    are worth half the suit's value (rounded down) and set trump; the four aces do not."""
    kind = declaration_kind(hand, card, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE])
    s = card // 6
    if kind == DECLARE_MARRIAGE:
        return rules[R.MARRIAGE_VALUE + s], s, 1 << s
    if kind == DECLARE_HALF:
        return rules[R.MARRIAGE_VALUE + s] // 2, s, 1 << (DECLARED_BIT_HALF + s)
    if kind == DECLARE_ACES:
        return rules[R.ACE_MARRIAGE], -1, 1 << DECLARED_BIT_ACES
    return 0, -1, 0


@jit_hot
def pending_trump(hand, card, declared, rules):
    """Under marriage_trump_from = next_trick, the trump that the lead of ``card`` (no longer in
    ``hand``) declared, which takes effect when its trick is over; -1 when there is none: the
    lead declared nothing that sets a trump (or declined it), or marriage_trump_from = this_trick
    (the trump in force changed at once). ``declared``: the leader's ``marriages`` bits, this
    lead's included. A combination is declared at most once and its lead breaks it up, so its bit
    is set and the hand with the card still holds it whole exactly when this lead declared it."""
    if not rules[R.MARRIAGE_TRUMP_FROM]:
        return -1
    _, new_trump, bit = declaration(hand | (np.int64(1) << card), card, rules)
    if bit != 0 and (declared & bit) != 0:
        return new_trump
    return -1


@jit_hot
def givable_cards(hand10, rules):
    """Cards the declarer may give away: all, or under no_aces_tens_in_discard all but aces and
    tens (10 cards hold at most eight of those, so two are always left)."""
    if rules[R.NO_ACES_TENS_IN_DISCARD]:
        return hand10 & ~(RANK_MASK[ACE] | RANK_MASK[TEN])
    return hand10


@jit_hot
def bid_cap(hand, rules):
    """The highest bid a hand allows: 120 plus its marriages (all of them, at most max_contract;
    max_contract alone under no_bid_cap)."""
    cap = rules[R.MAX_CONTRACT]
    if not rules[R.NO_BID_CAP]:
        cap = min(cap, CAP_WITHOUT_MARRIAGE + marriage_total(hand, rules))
    return cap


@jit_hot
def know_cards(known, declarer, shown_talon, g1, g2, gifts_face_up):
    """What each seat knows of the others' hands once the discard is made (``known[3 * viewer +
    holder]``): the talon's cards shown to the defenders (``shown_talon``, 0 when they did not
    see it) are the declarer's, but for those he gave away; the declarer knows where his gifts
    went, and with ``gifts_face_up`` so does the other defender (each receiver holds his own
    anyway). With the gifts face down a defender cannot tell whether the other gift was a talon
    card: he still counts the talon's cards but his own gift as the declarer's, and a world that
    this overfills leaves them unknown (``pimc_nb.enter_world``)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    for i in range(9):
        known[i] = 0
    gifts = (np.int64(1) << g1) | (np.int64(1) << g2)
    known[3 * left + declarer] = shown_talon & ~(gifts if gifts_face_up else np.int64(1) << g1)
    known[3 * right + declarer] = shown_talon & ~(gifts if gifts_face_up else np.int64(1) << g2)
    for viewer in range(3):
        if viewer == declarer or gifts_face_up:
            known[3 * viewer + left] |= np.int64(1) << g1
            known[3 * viewer + right] |= np.int64(1) << g2
