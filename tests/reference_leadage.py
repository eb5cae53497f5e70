"""The naive twin of ``sim/players/leadage_nb.py``: the decision rules of Leadage/tysyacha-1000's
computer player (``src/game/ai.ts``, strong level) written as the source is, on lists of card
names ("AS", "TH"), filter and sort, without bitmasks. Hands are lists in the canonical order
(suits S C D H, ranks 9 J Q K T A), which settles the ties the source leaves to the hand's order;
the noise draw ``u`` (uniform in [0, 1)) is an argument.
"""

from __future__ import annotations

SUITS = "SCDH"
ORDER = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "A": 5}
VALUE = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
STRONG_NOISE = 6
STRONG_MARGIN = 32


def name(index: int) -> str:
    return "9JQKTA"[index % 6] + SUITS[index // 6]


def names(mask: int) -> list[str]:
    return [name(i) for i in range(24) if mask >> i & 1]


def suit(c):
    return c[1]


def rank(c):
    return c[0]


def value(c):
    return VALUE[rank(c)]


def order(c):
    return ORDER[rank(c)]


def of_suit(cards, s):
    return [c for c in cards if suit(c) == s]


def marriage_suits(cards):
    return [s for s in SUITS if "K" + s in cards and "Q" + s in cards]


def pick_trump(hand, marriage_value):
    ms = marriage_suits(hand)
    if ms:
        best = ms[0]
        for s in ms[1:]:
            if marriage_value[s] > marriage_value[best]:
                best = s
        return best
    best, best_n = "S", -1
    for s in SUITS:
        if len(of_suit(hand, s)) > best_n:
            best, best_n = s, len(of_suit(hand, s))
    return best


def win_prob(card, hand, trump):
    s, r = suit(card), rank(card)
    is_trump = s == trump
    has_ace, has_ten = "A" + s in hand, "T" + s in hand
    if r == "A":
        return 0.95 if is_trump else 0.85
    if r == "T":
        return (0.9 if has_ace else 0.55) if is_trump else (0.7 if has_ace else 0.28)
    if r == "K":
        return (0.75 if has_ace and has_ten else 0.45) if is_trump else (0.35 if has_ace and has_ten else 0.1)
    if r == "Q":
        return 0.35 if is_trump else 0.06
    if r == "J":
        return 0.25 if is_trump else 0.03
    return 0.12 + max(0, len(of_suit(hand, s)) - 4) * 0.1 if is_trump else 0.0


def estimate_points(hand, has_talon, marriage_value):
    trump = pick_trump(hand, marriage_value)
    ms = marriage_suits(hand)
    pts = sum(marriage_value[s] for s in ms) * (0.85 if ms else 0)
    if all("A" + s in hand for s in SUITS):
        pts += 200 * 0.8
    for c in hand:
        pts += win_prob(c, hand, trump) * (value(c) + 9)
    n = len(of_suit(hand, trump))
    if n >= 4:
        pts += (n - 3) * 8
    if has_talon:
        pts += 20
        for s in SUITS:
            if ("K" + s in hand) != ("Q" + s in hand):
                pts += marriage_value[s] * 0.14
    return pts


def floor5(x):
    return int(x // 5) * 5


def choose_bid(hand, allowed, u, marriage_value, on_barrel, barrel_need, my_total, other_totals):
    """``allowed``: the legal raises in increasing order (the engine's cap applied). None = pass."""
    if not allowed:
        return None
    est = estimate_points(hand, True, marriage_value) + (u - 0.5) * STRONG_NOISE - STRONG_MARGIN
    target = floor5(est)
    if on_barrel and target < barrel_need:
        target = barrel_need if est > barrel_need - 35 else 0
    if max(other_totals) - my_total > 300:
        target += 10
    options = [v for v in allowed if v <= target]
    return options[-1] if options else None


def keep_score(card, hand, trump):
    s, r = suit(card), rank(card)
    v = VALUE[r] * 1.5
    if s == trump:
        v += 25
    if r == "A":
        v += 30
    if r == "T":
        v += 18
    if r in "KQ" and s in marriage_suits(hand):
        v += 60
    if s != trump and len(of_suit(hand, s)) <= 2:
        v -= 8
    return v


def choose_discard(hand, givable, marriage_value):
    """The two cards, in the order given (the first to the next seat)."""
    trump = pick_trump(hand, marriage_value)
    scored = sorted((c for c in hand if c in givable), key=lambda c: keep_score(c, hand, trump))  # stable
    out = []
    for c in scored:
        if len(out) >= 2:
            break
        if rank(c) in "KQ" and suit(c) in marriage_suits(hand):
            continue
        out.append(c)
    for c in scored:
        if len(out) >= 2:
            break
        if c not in out:
            out.append(c)
    return out


def choose_contract(hand, allowed, u, marriage_value, on_barrel, barrel_need, can_concede, contract, no_deduction):
    """``allowed``: the final contracts from the bid up (the engine's cap applied); None = concede."""
    if can_concede and contract - estimate_points(hand, False, marriage_value) > (30 if no_deduction else 75):
        return None
    if len(allowed) <= 1:
        return contract
    est = estimate_points(hand, False, marriage_value) + (u - 0.5) * STRONG_NOISE - STRONG_MARGIN
    target = floor5(est)
    if on_barrel and est >= barrel_need - 25:
        target = max(target, barrel_need)
    ok = [v for v in allowed if v <= max(target, contract)]
    return ok[-1] if ok else contract


def outstanding(hand, played, s):
    return [name(i) for i in range(24) if suit(name(i)) == s and name(i) not in hand and name(i) not in played]


def is_top(card, hand, played):
    return all(order(c) < order(card) for c in outstanding(hand, played, suit(card)))


def beats(a, b, lead, trump):
    a_trump, b_trump = suit(a) == trump, suit(b) == trump
    if a_trump != b_trump:
        return a_trump
    if a_trump:
        return order(a) > order(b)
    if suit(a) != lead:
        return False
    if suit(b) != lead:
        return True
    return order(a) > order(b)


def choose_card(hand, legal, played, trick, me, leader, declarer, trump, trump_owner, can_declare,
                marriage_value, ace_marriage):
    """``played``: every card played so far, the trick's among them; ``trick``: the cards of the
    current trick from ``leader``; ``trump`` a suit letter or None."""
    if not trick:
        if ace_marriage and can_declare and all("A" + s in hand for s in SUITS):
            aces = [c for c in legal if rank(c) == "A"]
            if aces:
                return aces[0]
        if can_declare:
            declarable = [s for s in marriage_suits(hand) if any(suit(c) == s and rank(c) in "KQ" for c in legal)]
            if declarable:
                best = declarable[0]
                for s in declarable[1:]:
                    if marriage_value[s] > marriage_value[best]:
                        best = s
                return "K" + best if "K" + best in legal else "Q" + best
        trumps_out = len(outstanding(hand, played, trump)) if trump else 0
        if trump and me == declarer and trump_owner == me:
            mine = [c for c in legal if suit(c) == trump]
            if len(mine) >= 2 and trumps_out > 0:
                top = max(mine, key=order)
                if is_top(top, hand, played):
                    return top
        sure = [c for c in legal if is_top(c, hand, played)
                and (trump is None or suit(c) == trump or trumps_out == 0 or value(c) >= 10)]
        sure.sort(key=lambda c: -value(c))
        if sure:
            return sure[0]
        non_trump = [c for c in legal if trump is None or suit(c) != trump]
        pool = non_trump or legal
        return sorted(pool, key=lambda c: value(c) + len(of_suit(hand, suit(c))) * 2)[0]
    lead = suit(trick[0])
    best, best_player = trick[0], leader
    for k, c in enumerate(trick[1:], 1):
        if beats(c, best, lead, trump):
            best, best_player = c, (leader + k) % 3
    gain = sum(value(c) for c in trick)
    last = len(trick) == 2
    ally_winning = me != declarer and best_player != declarer and best_player != me
    winners = [c for c in legal if beats(c, best, lead, trump)]
    losers = [c for c in legal if c not in winners]

    def asc(cards):
        return sorted(cards, key=lambda c: (value(c), order(c)))

    def desc(cards):
        return sorted(cards, key=lambda c: (-value(c), -order(c)))

    if ally_winning and last:
        return desc(losers or legal)[0]
    if winners:
        cheapest = sorted(winners, key=lambda c: (suit(c) == trump, order(c)))[0]
        if last or gain >= 10 or value(cheapest) <= 4 or me == declarer or is_top(cheapest, hand, played):
            if not last and gain < 6 and value(cheapest) >= 10 and losers:
                return asc(losers)[0]
            return cheapest
    pool = losers or legal
    return desc(pool)[0] if ally_winning else asc(pool)[0]
