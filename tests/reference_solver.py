"""A slow, plainly correct double-dummy minimax for checking the compiled solver.

Written from RULES.md §2.6–2.8, §4.4 and docs/solver.md, sharing no code with ``sim.solver_nb``:
cards are (suit, rank) pairs, hands are frozensets, and every legal play is tried (memoised on the
full state, which cannot change an answer). The value is the declarer's (seat 0) points still to
come: card points of the tricks he wins + the marriages he declares from here, with the burning rule
applied, plus marriages declared before the position that still wait for his first trick.
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


def solve(hands, *, leader=0, trump=-1, owner=-1, won=(), unsecured=0, rules=PlayRules(), trick=()):
    """Value of a position. ``hands``: three masks; ``trick``: cards (indices) already played to the
    current trick, from the leader on (then ``trump`` is the trump in force for it)."""

    @cache
    def value(h0, h1, h2, leader, trump, owner, won, unsecured, trick):
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
                if decl and (seat in won or rules.marriage_first_lead):
                    choices = [decl, None] if rules.marriage_optional else [decl]
                for choice in choices:
                    gain, new_trump, new_owner, new_unsecured = 0, trump, owner, unsecured
                    if choice is not None:
                        val, changes = choice
                        if changes:
                            new_trump, new_owner = card[0], seat
                        if seat == 0:
                            if rules.marriage_burns_without_trick and 0 not in won:
                                new_unsecured += val
                            else:
                                gain = val
                    rest = _replace(hands, seat, hand - {card})
                    results.append(gain + value(*rest, leader, new_trump, new_owner, won, new_unsecured, (card,)))
        else:
            for card in _follows(hand, trick, trump, rules.must_head):
                rest = _replace(hands, seat, hand - {card})
                full = trick + (card,)
                if len(full) < 3:
                    results.append(value(*rest, leader, trump, owner, won, unsecured, full))
                    continue
                winner = (leader + _winner(full, trump)) % 3
                gain = 0
                if winner == 0:
                    gain = sum(POINTS[c[1]] for c in full) + (unsecured if 0 not in won else 0)
                results.append(gain + value(*rest, winner, trump, owner, won | {winner}, unsecured, ()))
        return max(results) if seat == 0 else min(results)

    trick_cards = tuple((c // 6, c % 6) for c in trick)
    return value(*(cards_of(h) for h in hands), leader, trump, owner, frozenset(won), unsecured, trick_cards)


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
    if decl and (leader in won or rules.marriage_first_lead):
        choices = [decl, None] if rules.marriage_optional else [decl]
    rest = list(hands)
    rest[leader] &= ~(1 << card)
    vals = []
    for choice in choices:
        gain, t, o, u = 0, trump, owner, unsecured
        if choice is not None:
            val, changes = choice
            if changes:
                t, o = card // 6, leader
            if leader == 0:
                if rules.marriage_burns_without_trick and 0 not in won:
                    u += val
                else:
                    gain = val
        vals.append(gain + solve(rest, leader=leader, trump=t, owner=o, won=won, unsecured=u, rules=rules,
                                 trick=(card,)))
    return max(vals) if leader == 0 else min(vals)
