"""A slow, plainly correct double-dummy minimax for checking the compiled solver.

Written from RULES.md §2.6–2.8, §4.4 and docs/solver.md, sharing no code with ``sim.solver``'s kernels:
cards are (suit, rank) pairs, hands are frozensets, and every legal play is tried (memoised on the
full state, which cannot change an answer). The value is the declarer's (seat 0) points still to
come: card points of the tricks he wins + the marriages he declares from here, with the burning rule
applied, plus marriages declared before the position that still wait for his first trick. A leader
declares only with at least ``marriage_min_cards`` cards; under ``marriage_trump_from = next_trick``
the trump he declares waits (``pending``) until the trick it was led in is over.
``solve2`` and ``move_values2`` do the same for the two-player game (one defender, 2-card tricks, a
bonus for the last trick's winner).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

POINTS = (0, 2, 3, 4, 10, 11)  # 9 J Q K T A
JACK, QUEEN, KING, ACE = 1, 2, 3, 5


@dataclass(frozen=True)
class PlayRules:
    must_head: bool = False
    marriage_first_lead: bool = False
    marriage_burns_without_trick: bool = False
    marriage_optional: bool = False
    ace_marriage: int = 0
    half_marriage: bool = False
    no_lead_foreign_trump: bool = False
    must_lead_trump: bool = False
    marriage_values: tuple = (40, 60, 80, 100)
    marriage_min_cards: int = 2
    marriage_trump_from: str = "this_trick"


def cards_of(mask: int) -> frozenset:
    return frozenset((i // 6, i % 6) for i in range(24) if mask >> i & 1)


def card_index(card) -> int:
    return 6 * card[0] + card[1]


def _winner(trick, trump):
    """Position in ``trick`` of the card that takes it: the highest trump, else the highest card of
    the suit led."""
    trumps = [i for i, c in enumerate(trick) if c[0] == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c[0] == trick[0][0]]
    return max(pool, key=lambda i: trick[i][1])


def _follows(hand, trick, trump, must_head):
    led = trick[0][0]
    allowed = [c for c in hand if c[0] == led]
    if not allowed:
        allowed = [c for c in hand if c[0] == trump]
    if not allowed:
        allowed = list(hand)
    if must_head:
        heads = [c for c in allowed if _winner(trick + (c,), trump) == len(trick)]
        if heads:
            return heads
    return allowed


def _leads(hand, seat, trump, owner, rules):
    trumps = [c for c in hand if c[0] == trump]
    others = [c for c in hand if c[0] != trump]
    if not trumps or not others:
        return list(hand)
    if rules.no_lead_foreign_trump and owner != seat:
        return others
    if rules.must_lead_trump:
        return trumps
    return list(hand)


def _may_declare(hand, seat, won, rules):
    """Whether ``seat`` leading from ``hand`` may declare at all: a won trick (or
    marriage_first_lead) and at least marriage_min_cards cards."""
    return (seat in won or rules.marriage_first_lead) and len(hand) >= rules.marriage_min_cards


def _set_trump(trump, owner, pending, suit, seat, rules):
    """(trump, owner, pending) after ``seat`` declares ``suit``: trump at once, or pending."""
    if rules.marriage_trump_from == "next_trick":
        return trump, owner, suit
    return suit, seat, pending


def _declaration(hand, card, rules):
    """(value, changes trump) of what leading ``card`` declares, or None."""
    suit, rank = card
    if rank in (KING, QUEEN) and (suit, KING) in hand and (suit, QUEEN) in hand:
        return rules.marriage_values[suit], True
    if rules.half_marriage and rank in (QUEEN, JACK) and (suit, QUEEN) in hand and (suit, JACK) in hand:
        return rules.marriage_values[suit] // 2, True
    if rules.ace_marriage and rank == ACE and all((s, ACE) in hand for s in range(4)):
        return rules.ace_marriage, False
    return None


def solve(hands, *, leader=0, trump=-1, owner=-1, won=(), unsecured=0, rules=PlayRules(), trick=(), pending=-1):
    """Value of a position. ``hands``: three masks; ``trick``: cards (indices) already played to the
    current trick, from the leader on (then ``trump`` is the trump in force for it, and ``pending``
    the trump its lead declared under next_trick, -1 none)."""

    @cache
    def value(h0, h1, h2, leader, trump, owner, won, unsecured, trick, pending):
        hands = (h0, h1, h2)
        k = len(trick)
        if k == 0 and not h0:
            return 0
        seat = (leader + k) % 3
        hand = hands[seat]
        results = []
        if k == 0:
            for card in _leads(hand, seat, trump, owner, rules):
                choices = [None]
                decl = _declaration(hand, card, rules)
                if decl and _may_declare(hand, seat, won, rules):
                    choices = [decl, None] if rules.marriage_optional else [decl]
                for choice in choices:
                    gain, new_trump, new_owner, new_pending, new_unsecured = 0, trump, owner, -1, unsecured
                    if choice is not None:
                        val, changes = choice
                        if changes:
                            new_trump, new_owner, new_pending = _set_trump(trump, owner, -1, card[0], seat, rules)
                        if seat == 0:
                            if rules.marriage_burns_without_trick and 0 not in won:
                                new_unsecured += val
                            else:
                                gain = val
                    rest = _replace(hands, seat, hand - {card})
                    results.append(gain + value(*rest, leader, new_trump, new_owner, won, new_unsecured, (card,),
                                                new_pending))
        else:
            for card in _follows(hand, trick, trump, rules.must_head):
                rest = _replace(hands, seat, hand - {card})
                full = trick + (card,)
                if len(full) < 3:
                    results.append(value(*rest, leader, trump, owner, won, unsecured, full, pending))
                    continue
                winner = (leader + _winner(full, trump)) % 3
                gain = 0
                if winner == 0:
                    gain = sum(POINTS[c[1]] for c in full) + (unsecured if 0 not in won else 0)
                t, o = (pending, leader) if pending >= 0 else (trump, owner)
                results.append(gain + value(*rest, winner, t, o, won | {winner}, unsecured, (), -1))
        return max(results) if seat == 0 else min(results)

    trick_cards = tuple((c // 6, c % 6) for c in trick)
    return value(*(cards_of(h) for h in hands), leader, trump, owner, frozenset(won), unsecured, trick_cards,
                 pending)


def _replace(hands, seat, hand):
    return tuple(hand if s == seat else hands[s] for s in range(3))


def lead_values(hands, **kw):
    """{card index: value} for every card the seat on lead may lead (the better declaration choice
    for him when marriages are optional)."""
    leader = kw.get("leader", 0)
    rules = kw.get("rules", PlayRules())
    hand = cards_of(hands[leader])
    out = {}
    for card in _leads(hand, leader, kw.get("trump", -1), kw.get("owner", -1), rules):
        out[card_index(card)] = None
    for c in out:
        out[c] = _lead_value(hands, c, **kw)
    return out


def _lead_value(hands, card, *, leader=0, trump=-1, owner=-1, won=(), unsecured=0, rules=PlayRules()):
    hand = cards_of(hands[leader])
    cd = (card // 6, card % 6)
    decl = _declaration(hand, cd, rules)
    choices = [None]
    if decl and _may_declare(hand, leader, won, rules):
        choices = [decl, None] if rules.marriage_optional else [decl]
    rest = list(hands)
    rest[leader] &= ~(1 << card)
    vals = []
    for choice in choices:
        gain, t, o, p, u = 0, trump, owner, -1, unsecured
        if choice is not None:
            val, changes = choice
            if changes:
                t, o, p = _set_trump(trump, owner, -1, card // 6, leader, rules)
            if leader == 0:
                if rules.marriage_burns_without_trick and 0 not in won:
                    u += val
                else:
                    gain = val
        vals.append(gain + solve(rest, leader=leader, trump=t, owner=o, won=won, unsecured=u, rules=rules,
                                 trick=(card,), pending=p))
    return max(vals) if leader == 0 else min(vals)


# ---- the two-player game (RULES.md §4.1, docs/solver.md "Two players") ----------------------------
def _two_seat_game(rules, last_bonus):
    """(value, children) of the two-seat game: seat 0 the declarer, seat 1 the defender; 2-card
    tricks; the winner of the last trick also takes ``last_bonus``. A state is (h0, h1, leader,
    trump, owner, won, unsecured, trick, pending) with frozensets of (suit, rank) cards."""

    def children(h0, h1, leader, trump, owner, won, unsecured, trick, pending):
        """Every legal move: (card, declared, declarer's points it scores at once, next state)."""
        hands = (h0, h1)
        seat = (leader + len(trick)) % 2
        hand = hands[seat]
        out = []
        if not trick:
            for card in _leads(hand, seat, trump, owner, rules):
                choices = [None]
                decl = _declaration(hand, card, rules)
                if decl and _may_declare(hand, seat, won, rules):
                    choices = [decl, None] if rules.marriage_optional else [decl]
                for choice in choices:
                    gain, new_trump, new_owner, new_pending, new_unsecured = 0, trump, owner, -1, unsecured
                    if choice is not None:
                        val, changes = choice
                        if changes:
                            new_trump, new_owner, new_pending = _set_trump(trump, owner, -1, card[0], seat, rules)
                        if seat == 0:
                            if rules.marriage_burns_without_trick and 0 not in won:
                                new_unsecured += val
                            else:
                                gain = val
                    rest = (hand - {card}, h1) if seat == 0 else (h0, hand - {card})
                    out.append((card, choice is not None, gain,
                                (*rest, leader, new_trump, new_owner, won, new_unsecured, (card,), new_pending)))
        else:
            for card in _follows(hand, trick, trump, rules.must_head):
                rest = (hand - {card}, h1) if seat == 0 else (h0, hand - {card})
                full = trick + (card,)
                winner = (leader + _winner(full, trump)) % 2
                gain = 0
                if winner == 0:
                    gain = sum(POINTS[c[1]] for c in full) + (unsecured if 0 not in won else 0)
                    if not rest[0] and not rest[1]:
                        gain += last_bonus
                t, o = (pending, leader) if pending >= 0 else (trump, owner)
                out.append((card, False, gain, (*rest, winner, t, o, won | {winner}, unsecured, (), -1)))
        return out

    @cache
    def value(*state):
        h0, h1, leader, _, _, _, _, trick, _ = state
        if not trick and not h0:
            return 0
        results = [gain + value(*nxt) for _, _, gain, nxt in children(*state)]
        return max(results) if (leader + len(trick)) % 2 == 0 else min(results)

    return value, children


def _state2(hands, leader, trump, owner, won, unsecured, trick, pending=-1):
    return (cards_of(hands[0]), cards_of(hands[1]), leader, trump, owner, frozenset(won), unsecured,
            tuple((c // 6, c % 6) for c in trick), pending)


def solve2(hands, *, leader=0, trump=-1, owner=-1, won=(), unsecured=0, last_bonus=0, rules=PlayRules(), trick=(),
           pending=-1):
    """Value of a two-player position: the declarer's (seat 0) points still to come, the bonus
    included if he wins the last trick. ``hands``: two masks; ``trick``: () at a trick start, or
    (the led card's index,) when the other seat is to follow (``trump`` is then the trump in force
    for the trick, ``pending`` the trump its lead declared under next_trick, -1 none)."""
    value, _ = _two_seat_game(rules, last_bonus)
    return value(*_state2(hands, leader, trump, owner, won, unsecured, trick, pending))


def move_values2(hands, *, leader=0, trump=-1, owner=-1, won=(), unsecured=0, last_bonus=0, rules=PlayRules(),
                 trick=(), pending=-1):
    """{(card index, declared): value after that move} for every legal move of the seat to play."""
    value, children = _two_seat_game(rules, last_bonus)
    state = _state2(hands, leader, trump, owner, won, unsecured, trick, pending)
    return {(card_index(card), declared): gain + value(*nxt) for card, declared, gain, nxt in children(*state)}
