"""A player we did not write: the computer opponent of Leadage's "Тысяча" (tysyacha-1000), ported.

Source: https://github.com/Leadage/tysyacha-1000, ``src/game/ai.ts`` (with ``cards.ts``,
``bidding.ts``, ``marriages.ts``, ``legalMoves.ts``), commit 24a6b8f2; a TypeScript browser game
of the 3- and 4-player Thousand. Its decision rules are re-expressed here on our bitmasks, at its
strongest level ("strong": estimate noise uniform in ±3 points, a safety margin of 32). Where the
source reads something our seat door gives differently, the nearest equivalent is taken, and
said so below; nothing was tuned.

- **Hand value** (``estimate_points``): each card's chance of taking a trick (a fixed table by
  rank, whether its suit is the chosen trump, whether the ace and ten of its suit are held) times
  (its points + 9); 85% of the held marriages; 160 for four aces (the source adds it whatever
  the rules); 8 per trump beyond three; before the talon 20 more and 14% of each half marriage.
  The trump it assumes is its most valuable marriage, else its longest suit.
- **Bidding**: straight to the estimate less 32, with noise, rounded down to 5 (not one step
  at a time as our heuristic does), at most the hand's cap; on the barrel the barrel's
  minimum if the estimate comes within 35 of it, else pass; 10 more when 300 behind the leader.
  (Barrel variants, not in the source: on the range barrel the "minimum" is what his score lacks
  to the target, and short of it he bids as usual, since a smaller contract still counts.)
- **Dark game**: 8% of the time, 33% when 250 behind the leader (the engine checks it is allowed).
- **Discard**: the two cards of least "keep score" (rank points × 1.5; +25 trump, +30 ace,
  +18 ten, +60 a marriage half, −8 a short side suit), never a marriage half while others
  remain. The source gives the first to the opponent with the lower seat number; here it goes
  to the next seat (who gets which card is an accident of the source's seat numbering).
- **Final contract**: the highest allowed at most the 8-card estimate less 32 (with noise), the
  barrel's minimum when within 25 of it. **Conceding**: when the estimate falls short of the
  contract by more than 75 (30 under concede_no_deduction and for a free throw, concede_free_at_min_bid,
  which costs nothing). The source decides this before its
  discard, on 10 cards; our engine asks after it, so the 8 kept cards are valued.
- **Lead**: the four aces where they score; its most valuable marriage (the king); as declarer
  with its own trump and two or more trumps, the top trump while it is the highest out and
  trumps are out; a card no unseen card of its suit beats (richest first; off trump only when no
  trumps are out or it is worth 10); else the cheapest card of a short side suit
  (points + 2 × suit length).
- **Follow**: last in a trick its partner wins, the richest card that does not overbeat; else
  win with the cheapest winner (side suits before trumps, lowest rank) when it pays (last to
  play, 10 points on the table, a winner worth 4 or less, the declarer, or a master), except a
  ten or ace for under 6 points when not last; else the cheapest loser, or the richest when the
  partner is winning.

Ties the source leaves to the order of cards in the hand fall here to the lowest card index.
It plays the 3- and 4-player game (``sim.players.parse_players`` refuses 2 players, as the source
has no 2-player game).
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bids_nb import bid_at_most, contract_at_most
from sim.game.bits_nb import highest_index, lowest_index, popcount
from sim.game.cards import ACE, ACES_MASK, CARD_POINTS, FULL_DECK, JACK, KING, MARRIAGE_MASK, QUEEN, SUIT_MASK, TEN
from sim.game.play_nb import barrel_need, beaters, beats, free_throw, marriage_cards
from sim.game.rng_nb import uniform
from sim.game.state_layout import G_ON_BARREL, G_SCORE
from sim.numba_config import jit_hot

NOISE = 6.0  # strong level: estimate + (u - 0.5) × 6
SAFETY_MARGIN = 32.0
SOURCE_ACE_MARRIAGE = 200.0  # the source's value of four aces, counted in its estimate under any rules


@jit_hot
def _pick_trump(hand, rules):
    """The suit of its most valuable marriage, else its longest suit (the first of S C D H)."""
    best = -1
    for s in range(4):
        if (hand & MARRIAGE_MASK[s]) == MARRIAGE_MASK[s]:
            if best < 0 or rules[R.MARRIAGE_VALUE + s] > rules[R.MARRIAGE_VALUE + best]:
                best = s
    if best >= 0:
        return best
    longest = -1
    for s in range(4):
        n = popcount(hand & SUIT_MASK[s])
        if n > longest:
            best, longest = s, n
    return best


@jit_hot
def _win_chance(card, hand, trump):
    """The source's rough chance that ``card`` takes a trick."""
    s = card // 6
    rank = card % 6
    is_trump = s == trump
    has_ace = (hand >> (6 * s + ACE)) & 1
    has_ten = (hand >> (6 * s + TEN)) & 1
    if rank == ACE:
        return 0.95 if is_trump else 0.85
    if rank == TEN:
        if is_trump:
            return 0.9 if has_ace else 0.55
        return 0.7 if has_ace else 0.28
    if rank == KING:
        if is_trump:
            return 0.75 if has_ace and has_ten else 0.45
        return 0.35 if has_ace and has_ten else 0.1
    if rank == QUEEN:
        return 0.35 if is_trump else 0.06
    if rank == JACK:
        return 0.25 if is_trump else 0.03
    if is_trump:  # nine
        return 0.12 + max(0, popcount(hand & SUIT_MASK[s]) - 4) * 0.1
    return 0.0


@jit_hot
def estimate_points(hand, with_talon, rules):
    """The source's estimate of the points ``hand`` takes as declarer."""
    trump = _pick_trump(hand, rules)
    marriages = 0.0
    for s in range(4):
        if (hand & MARRIAGE_MASK[s]) == MARRIAGE_MASK[s]:
            marriages += rules[R.MARRIAGE_VALUE + s]
    pts = 0.85 * marriages
    if (hand & ACES_MASK) == ACES_MASK:
        pts += 0.8 * SOURCE_ACE_MARRIAGE
    m = hand
    while m:
        c = lowest_index(m)
        m &= m - 1
        pts += _win_chance(c, hand, trump) * (CARD_POINTS[c] + 9)
    n_trump = popcount(hand & SUIT_MASK[trump])
    if n_trump >= 4:
        pts += (n_trump - 3) * 8
    if with_talon:
        pts += 20.0
        for s in range(4):
            if ((hand >> (6 * s + KING)) & 1) != ((hand >> (6 * s + QUEEN)) & 1):
                pts += 0.14 * rules[R.MARRIAGE_VALUE + s]
    return pts


@jit_hot
def _noisy_target(hand, with_talon, rules, rng):
    """(estimate less the margin with noise, that rounded down to 5)."""
    est = estimate_points(hand, with_talon, rules) + (uniform(rng) - 0.5) * NOISE - SAFETY_MARGIN
    return est, np.int64(np.floor(est / 5.0)) * 5


@jit_hot
def _behind_leader(seat, gs, rules):
    """How far the best other player's score is ahead of ``seat``'s."""
    best = -(1 << 30)
    for q in range(rules[R.PLAYERS]):
        if q != seat and gs[G_SCORE + q] > best:
            best = gs[G_SCORE + q]
    return best - gs[G_SCORE + seat]


@jit_hot
def leadage_dark(seat, gs, rules, rng):
    """1 to go dark: 8% of the time, 33% when 250 or more behind (the engine checks it is allowed)."""
    chance = 0.08 + (0.25 if _behind_leader(seat, gs, rules) > 250 else 0.0)
    return 1 if uniform(rng) < chance else 0


@jit_hot
def leadage_bid(seat, hand, min_raise, cap, gs, rules, rng):
    """The highest allowed bid up to its target, or 0 to pass (``min_raise`` <= ``cap``)."""
    est, target = _noisy_target(hand, True, rules, rng)
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = barrel_need(gs[G_SCORE + seat], rules)
        if target < need and est > need - 35:
            target = need
        elif target < need and rules[R.BARREL_FREEZE]:
            target = 0  # on the range barrel a smaller contract still counts: bid it as usual
    if _behind_leader(seat, gs, rules) > 300:
        target += 10
    top = min(target, min_raise if rules[R.NO_JUMP_BIDS] else cap)
    if top < min_raise:
        return 0
    return bid_at_most(top, min_raise, rules)


@jit_hot
def _keep_score(card, hand, trump):
    s = card // 6
    rank = card % 6
    v = CARD_POINTS[card] * 1.5
    if s == trump:
        v += 25.0
    if rank == ACE:
        v += 30.0
    elif rank == TEN:
        v += 18.0
    if (marriage_cards(hand) >> card) & 1:
        v += 60.0
    if s != trump and popcount(hand & SUIT_MASK[s]) <= 2:
        v -= 8.0
    return v


@jit_hot
def leadage_discard(hand, givable, rules):
    """(card to the next seat, card to the seat after): the two of least keep score, sparing
    marriage halves while other cards remain."""
    trump = _pick_trump(hand, rules)
    first = -1
    for spare_marriages in (True, False):
        while True:
            best = -1
            best_v = 0.0
            m = givable & ~marriage_cards(hand) if spare_marriages else givable
            if first >= 0:
                m &= ~(np.int64(1) << first)
            while m:
                c = lowest_index(m)
                m &= m - 1
                v = _keep_score(c, hand, trump)
                if best < 0 or v < best_v:
                    best, best_v = c, v
            if best < 0:
                break
            if first >= 0:
                return first, best
            first = best
    return first, first  # unreachable: 10 cards leave at least two givable


@jit_hot
def leadage_contract(seat, hand, contract, cap, can_concede, gs, rules, rng):
    """The final contract or -1 to concede."""
    if can_concede:
        gap = contract - estimate_points(hand, False, rules)
        if gap > (30 if rules[R.CONCEDE_NO_DEDUCTION] or free_throw(contract, rules) else 75):
            return -1
    if cap <= contract:
        return contract
    est, target = _noisy_target(hand, False, rules, rng)
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = barrel_need(gs[G_SCORE + seat], rules)
        if est >= need - 25:
            target = max(target, need)
    top = min(max(target, contract), cap)
    step = rules[R.BID_STEP]
    return contract_at_most(contract + (top - contract) // step * step, contract, rules)


@jit_hot
def _is_master(card, unseen):
    """No unseen card of ``card``'s suit ranks above it."""
    above = SUIT_MASK[card // 6] & ~((np.int64(2) << card) - 1)
    return (unseen & above) == 0


@jit_hot
def _by_value(cards, richest):
    """The cheapest card (points, then rank), or with ``richest`` the richest."""
    best = -1
    best_key = 0
    m = cards
    while m:
        c = lowest_index(m)
        m &= m - 1
        key = 8 * CARD_POINTS[c] + c % 6
        if best < 0 or (key > best_key if richest else key < best_key):
            best, best_key = c, key
    return best


@jit_hot
def leadage_card(seat, hand, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, played, can_declare,
                 rules):
    """The card to play; a lead that can declare always does."""
    unseen = FULL_DECK & ~played & ~hand  # the source's "outstanding": not mine and not yet played
    if n_in_trick == 0:
        return _lead(seat, hand, legal, unseen, trump, trump_owner, declarer, can_declare, rules)
    win_card = trick[0]
    win_seat = leader
    value = CARD_POINTS[trick[0]]
    for k in range(1, n_in_trick):
        value += CARD_POINTS[trick[k]]
        if beats(trick[k], win_card, trump):
            win_card = trick[k]
            win_seat = (leader + k) % 3
    last = n_in_trick == 2
    ally_winning = seat != declarer and win_seat != declarer and win_seat != seat
    winners = beaters(legal, win_card, trump)
    losers = legal & ~winners
    if ally_winning and last:
        return _by_value(losers if losers else legal, True)
    if winners:
        pool = winners & ~SUIT_MASK[trump] if trump >= 0 else winners
        if pool == 0:
            pool = winners
        cheapest = -1
        m = pool
        while m:  # lowest rank, the first suit on a tie
            c = lowest_index(m)
            m &= m - 1
            if cheapest < 0 or c % 6 < cheapest % 6:
                cheapest = c
        if last or value >= 10 or CARD_POINTS[cheapest] <= 4 or seat == declarer or _is_master(cheapest, unseen):
            if not last and value < 6 and CARD_POINTS[cheapest] >= 10 and losers:
                return _by_value(losers, False)
            return cheapest
    return _by_value(losers if losers else legal, ally_winning)


@jit_hot
def _lead(seat, hand, legal, unseen, trump, trump_owner, declarer, can_declare, rules):
    # 1. The four aces, where they score.
    if rules[R.ACE_MARRIAGE] and can_declare and (hand & ACES_MASK) == ACES_MASK and legal & ACES_MASK:
        return lowest_index(legal & ACES_MASK)
    # 2. The most valuable marriage it can declare, by its king.
    if can_declare:
        best = -1
        for s in range(4):
            if (hand & MARRIAGE_MASK[s]) == MARRIAGE_MASK[s] and legal & MARRIAGE_MASK[s]:
                if best < 0 or rules[R.MARRIAGE_VALUE + s] > rules[R.MARRIAGE_VALUE + best]:
                    best = s
        if best >= 0:
            king = np.int64(1) << (6 * best + KING)
            return 6 * best + (KING if legal & king else QUEEN)
    trumps_out = popcount(unseen & SUIT_MASK[trump]) if trump >= 0 else 0
    # 3. The declarer draws trumps with his top trump while it is the highest out.
    if trump >= 0 and seat == declarer and trump_owner == seat:
        mine = legal & SUIT_MASK[trump]
        if popcount(mine) >= 2 and trumps_out > 0:
            top = highest_index(mine)
            if _is_master(top, unseen):
                return top
    # 4. A sure trick: a master, richest first (off trump only if no trumps are out or worth 10).
    best = -1
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        if not _is_master(c, unseen):
            continue
        if trump >= 0 and c // 6 != trump and trumps_out > 0 and CARD_POINTS[c] < 10:
            continue
        if best < 0 or CARD_POINTS[c] > CARD_POINTS[best]:
            best = c
    if best >= 0:
        return best
    # 5. The cheapest card of a short side suit.
    pool = legal & ~SUIT_MASK[trump] if trump >= 0 else legal
    if pool == 0:
        pool = legal
    best = -1
    best_key = 0
    m = pool
    while m:
        c = lowest_index(m)
        m &= m - 1
        key = CARD_POINTS[c] + 2 * popcount(hand & SUIT_MASK[c // 6])
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best
