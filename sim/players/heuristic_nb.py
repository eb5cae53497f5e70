"""The heuristic player, compiled: a rule-based club player whose weights are a float row
(``sim.players.HeuristicParams``). Its hand valuation (``estimate_points``) also serves the
double-dummy and PIMC players' bidding, final contract and dark game.

Every decision takes the acting seat's own view of the deal; the engine asks for it through
``sim.players.seat_nb`` and checks the answer is legal.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bids_nb import contract_at_least, contract_at_most, raise_reaching
from sim.game.bits_nb import highest_index, lowest_index, popcount
from sim.game.cards import ACE, CARD_POINTS, FULL_DECK, JACK, KING, NINE, QUEEN, RANK_MASK, SUIT_MASK, TEN
from sim.game.play_nb import barrel_need, beaters, declaration, declaring_cards, free_throw, marriage_cards
from sim.game.state_layout import G_ON_BARREL, G_SCORE
from sim.numba_config import jit_hot
from sim.players.layout import (
    H_ACE,
    H_BARREL_RISK,
    H_BASE,
    H_BLOCK_MARGIN,
    H_CHANCE_TABLE,
    H_CONCEDE_MARGIN,
    H_DARK_DEFICIT,
    H_KING,
    H_LENGTH,
    H_MARRIAGE,
    H_MARRIAGE_CARDS,
    H_QUEEN,
    H_RAISE_MARGIN,
    H_RISK,
    H_SCORE_TABLE,
    H_TALON,
    H_TALON_MARRIAGE,
    H_TALON_SCALE,
    H_TEN_BARE,
    H_TEN_SIDE,
    H_TEN_WITH_ACE,
)

TALON_HALF_MARRIAGE_CHANCE = 3.0 / 17.0  # the missing half lies among 17 unseen cards, 3 in the talon


# ---- hand evaluation --------------------------------------------------------------------------
@jit_hot
def _suit_terms(cs, s, prm, seat, rules):
    """(card score, talon chance value) of the cards ``cs`` a hand holds in suit ``s``."""
    if cs == 0:
        return 0.0, 0.0
    score = 0.0
    chance = 0.0
    n = popcount(cs)
    base = 6 * s
    has_ace = (cs >> (base + ACE)) & 1
    if has_ace:
        score += prm[seat, H_ACE]
    if (cs >> (base + TEN)) & 1:
        if has_ace:
            score += prm[seat, H_TEN_WITH_ACE]
        elif n >= 3:
            score += prm[seat, H_TEN_SIDE]
        else:
            score += prm[seat, H_TEN_BARE]
    has_k = (cs >> (base + KING)) & 1
    has_q = (cs >> (base + QUEEN)) & 1
    value = rules[R.MARRIAGE_VALUE + s]
    if has_k and has_q:
        score += prm[seat, H_MARRIAGE] * value + prm[seat, H_MARRIAGE_CARDS]
    else:
        score += has_k * prm[seat, H_KING] + has_q * prm[seat, H_QUEEN]
        if has_k or has_q:
            chance += TALON_HALF_MARRIAGE_CHANCE * value
    if n > 3:
        score += (n - 3) * prm[seat, H_LENGTH]
    return score, chance


@jit_hot
def fill_suit_tables(prm, rules):
    """Tabulate ``_suit_terms`` for every seat, suit and 6-bit suit holding, so that valuing a
    hand is eight table look-ups (bidding values hands at every turn)."""
    for seat in range(prm.shape[0]):
        for s in range(4):
            for pattern in range(64):
                score, chance = _suit_terms(np.int64(pattern) << (6 * s), s, prm, seat, rules)
                prm[seat, H_SCORE_TABLE + 64 * s + pattern] = score
                prm[seat, H_CHANCE_TABLE + 64 * s + pattern] = chance


@jit_hot
def estimate_points(hand, before_talon, prm, seat, rules):
    """Points the hand is expected to take as declarer (card points won + marriages): a linear
    score of its cards (aces, tens, loose kings and queens, marriages, suit length) fitted to
    played deals. Before the talon the score is scaled and the talon's expected worth added,
    including the chance that it completes a half marriage. Reads the tables of
    ``fill_suit_tables``."""
    score = 0.0
    chance = 0.0
    for s in range(4):
        pattern = (hand >> (6 * s)) & 63
        score += prm[seat, H_SCORE_TABLE + 64 * s + pattern]
        chance += prm[seat, H_CHANCE_TABLE + 64 * s + pattern]
    if before_talon:
        return prm[seat, H_TALON] + prm[seat, H_TALON_SCALE] * score + prm[seat, H_TALON_MARRIAGE] * chance
    return prm[seat, H_BASE] + score


@jit_hot
def estimate_many(hands, before_talon, prm, seat, rules, out):
    """``estimate_points`` of many hands into ``out`` (for calibration and analyses)."""
    for i in range(hands.shape[0]):
        out[i] = estimate_points(hands[i], before_talon, prm, seat, rules)


@jit_hot
def _floor_step(x, step):
    return np.int64(np.floor(x / step)) * step


# ---- bidding ----------------------------------------------------------------------------------
@jit_hot
def heuristic_dark(seat, gs, rules, prm):
    """1 if first hand goes dark before seeing his cards, else 0 (the caller checks it is allowed):
    the heuristic player gambles only when far behind."""
    if rules[R.PLAYERS] == 2:
        best_other = gs[G_SCORE + 1 - seat]
    else:
        best_other = max(gs[G_SCORE + (seat + 1) % 3], gs[G_SCORE + (seat + 2) % 3])
    return 1 if best_other - gs[G_SCORE + seat] >= prm[seat, H_DARK_DEFICIT] else 0


@jit_hot
def barrel_raise(min_raise, need, rules):
    """The least legal raise from ``min_raise`` that reaches ``need``, the contract that takes a sitter
    off upward (``play_nb.barrel_need``; ``bids_nb.raise_reaching``), ``min_raise`` itself under
    no_jump_bids: what a player on the barrel bids."""
    if rules[R.NO_JUMP_BIDS]:
        return min_raise
    return raise_reaching(min_raise, need, rules)


@jit_hot
def heuristic_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm):
    """A raise (the new bid) or 0 to pass, ``min_raise`` <= ``cap``: the least raise while the
    hand's estimate less the risk margin allows it; on the barrel only a contract that takes him
    off (on the range barrel, else any as usual; with barrel_failed_contract = stays, whenever he
    may); against a sitter about to win, a further overbid."""
    top = min_raise if rules[R.NO_JUMP_BIDS] else cap
    est = estimate_points(hand, True, prm, seat, rules)
    limit = _floor_step(est - prm[seat, H_RISK], 5)
    if rules[R.BARREL] > 0:
        if gs[G_ON_BARREL + seat]:
            need = barrel_need(gs[G_SCORE + seat], rules)
            want = barrel_raise(min_raise, need, rules)
            if rules[R.BARREL_FAILED_STAYS]:
                # Failing costs him nothing but the attempt the deal uses anyway: he tries whenever he may.
                return want if want <= top else 0
            sure = _floor_step(est - prm[seat, H_BARREL_RISK], 5)
            if sure >= need and want <= min(sure, top):
                return want
            if rules[R.BARREL_FREEZE]:
                return 0  # on the frozen barrel only a contract that takes him off upward is worth declaring
            # On the range barrel a smaller contract counts as anybody's (his defence does not): bid as usual.
        elif high_seat >= 0 and high_seat != seat and gs[G_ON_BARREL + high_seat]:
            # Stop a sitter from winning: overbid further than the hand alone would.
            limit = _floor_step(est - prm[seat, H_RISK] + prm[seat, H_BLOCK_MARGIN], 5)
    if min_raise <= min(limit, cap):
        return min_raise
    return 0


# ---- discard ----------------------------------------------------------------------------------



@jit_hot
def heuristic_discard(hand, givable):
    """The heuristic's two cards of ``givable`` it misses least from ``hand`` (the first goes to the
    next seat, the second to the one after)."""
    # Give away the least useful cards, in this order (lowest card first within a step): nines,
    # then jacks, queens and kings, preferring those that leave a void (a singleton) or nearly
    # (a doubleton), since trumps count later; then unguarded tens, guarded tens, aces, and
    # the halves of a marriage last.
    short1 = np.int64(0)
    short2 = np.int64(0)
    for s in range(4):
        n = popcount(hand & SUIT_MASK[s])
        if n == 1:
            short1 |= SUIT_MASK[s]
        elif n == 2:
            short2 |= SUIT_MASK[s]
    held_marriages = marriage_cards(hand) & givable
    free = givable & ~held_marriages
    long_suits = ~(short1 | short2)
    nines, jacks = free & RANK_MASK[NINE], free & RANK_MASK[JACK]
    queens, kings = free & RANK_MASK[QUEEN], free & RANK_MASK[KING]
    tens = givable & RANK_MASK[TEN]
    guarded_tens = tens & (hand >> 1)  # the ace is the next card up
    order = (nines & short1, nines & short2, jacks & short1, nines & long_suits, jacks & short2,
             queens & short1, jacks & long_suits | kings & short1, queens & short2, kings & short2,
             queens & long_suits, kings & long_suits, tens & ~guarded_tens, guarded_tens,
             givable & RANK_MASK[ACE], held_marriages)
    first = -1
    for bucket in order:
        while bucket:
            card = lowest_index(bucket)
            if first >= 0:
                return first, card
            first = card
            bucket &= bucket - 1
    return first, first  # unreachable for a 10-card hand


@jit_hot
def heuristic_burial(hand, givable, to_talon):
    """players = 2: the two cards of ``givable`` to bury (they count for the declarer) and with
    ``to_talon`` the card for the untaken talon (else -1)."""
    # Buried points are banked: first a ten whose ace is out (it would likely fall to the ace),
    # then what the 3-player discard gives away; the card for the talon is the least useful
    # left, as the opponent may win it with the last trick.
    bare_tens = givable & RANK_MASK[TEN] & ~(hand >> 1)
    if popcount(bare_tens) >= 2:
        b1 = lowest_index(bare_tens)
        b2 = lowest_index(bare_tens & (bare_tens - 1))
    elif bare_tens:
        b1 = lowest_index(bare_tens)
        b2 = heuristic_discard(hand, givable & ~bare_tens)[0]
    else:
        b1, b2 = heuristic_discard(hand, givable)
    buried = (np.int64(1) << b1) | (np.int64(1) << b2)
    t = heuristic_discard(hand, givable & ~buried)[0] if to_talon else -1
    return min(b1, b2), max(b1, b2), t


# ---- final contract ---------------------------------------------------------------------------
@jit_hot
def heuristic_contract(seat, hand, contract, cap, can_concede, gs, rules, prm):
    """The final contract (>= the bid, <= ``cap`` when raising) or -1 to concede: concede when the
    estimate falls short by the concede margin (a free throw, concede_free_at_min_bid, whenever it
    falls short), on the barrel take the contract that takes him off (``barrel_need``) when it can
    (with barrel_failed_contract = stays whenever the cap allows), else raise to the estimate less
    the raise margin."""
    step = rules[R.BID_STEP]
    top = max(contract, cap)
    est = estimate_points(hand, False, prm, seat, rules)
    if can_concede and est < contract - (0.0 if free_throw(contract, rules) else prm[seat, H_CONCEDE_MARGIN]):
        return -1  # a free throw (concede_free_at_min_bid) costs nothing: thrown whenever short
    if rules[R.BARREL] > 0 and gs[G_ON_BARREL + seat]:
        need = contract_at_least(barrel_need(gs[G_SCORE + seat], rules), rules)
        if contract < need <= top and (rules[R.BARREL_FAILED_STAYS] or est - prm[seat, H_BARREL_RISK] >= need):
            return need
    raise_to = _floor_step(est - prm[seat, H_RAISE_MARGIN], step)
    return contract_at_most(min(max(contract, raise_to), top), contract, rules)


# ---- card play --------------------------------------------------------------------------------
@jit_hot
def _masters(hand, unseen):
    """Cards of ``hand`` that no unseen card of their suit can beat."""
    out = np.int64(0)
    for s in range(4):
        h = hand & SUIT_MASK[s]
        if h == 0:
            continue
        u = unseen & SUIT_MASK[s]
        out |= h if u == 0 else h & ~((np.int64(2) << highest_index(u)) - 1)
    return out


@jit_hot
def _cheapest(hand, cards, unseen):
    """The card to give up when not trying to win: lowest rank (points rise with rank), sparing
    the halves of a held marriage and, among equal ranks, the masters."""
    pool = cards & ~marriage_cards(hand)
    if pool == 0:
        pool = cards
    for r in range(6):
        m = pool & RANK_MASK[r]
        if m:
            if m & (m - 1):
                keep = m & _masters(hand, unseen)
                if m != keep:
                    m ^= keep
            return lowest_index(m)
    return -1


@jit_hot
def _richest(hand, cards):
    """The card with most points that is not half of a held marriage (to smear on a partner)."""
    pool = cards & ~marriage_cards(hand)
    if pool == 0:
        pool = cards
    for r in range(5, -1, -1):
        m = pool & RANK_MASK[r]
        if m:
            return lowest_index(m)
    return -1


@jit_hot
def _safe_from_trumps(suit, trump, unseen, voids, opponents_after):
    """No opponent still to play is known to be void in ``suit`` while trumps are out."""
    if trump < 0 or suit == trump or (unseen & SUIT_MASK[trump]) == 0:
        return True
    for q in range(3):
        if (opponents_after >> q) & 1 and (voids[q] >> suit) & 1 and not (voids[q] >> trump) & 1:
            return False
    return True


@jit_hot
def heuristic_card(seat, hands, legal, trick, n_in_trick, leader, trump, declarer, played, voids, can_declare,
                   rules):
    """The card to play. ``hands`` holds every seat's cards; only the player's own hand, the cards
    played and the known voids are read here. It always declares what its lead can declare."""
    if legal & (legal - 1) == 0:
        return lowest_index(legal)  # a forced card: nothing to weigh
    hand = hands[seat]
    unseen = FULL_DECK & ~played & ~hand
    if n_in_trick == 0:
        return _heuristic_lead(seat, hand, legal, unseen, trump, declarer, voids, can_declare, rules)
    # Follow: who is winning so far, and who is still to play.
    win_card = trick[0]
    win_seat = leader
    if n_in_trick == 2 and beaters(np.int64(1) << trick[1], win_card, trump):
        win_card = trick[1]
        win_seat = (leader + 1) % 3
    last = n_in_trick == 2 or rules[R.PLAYERS] == 2
    after = 0 if last else 1 << ((seat + 1) % 3)
    if seat != declarer and win_seat != declarer:
        # Partner is winning: smear points on it unless the declarer, still to play, may beat it.
        if last or (beaters(unseen, win_card, trump) == 0
                    and _safe_from_trumps(win_card // 6, trump, unseen, voids, after)):
            return _richest(hand, legal)
    winners = beaters(legal, win_card, trump)
    if winners:
        if last:
            # Bank a ten whose ace is still out; otherwise win as cheaply as possible.
            bank = winners & RANK_MASK[TEN] & (unseen >> 1)
            if bank:
                return lowest_index(bank)
            return _cheapest(hand, winners, unseen)
        # Second to play: win only with a card the last player cannot beat.
        safe = _masters(winners, unseen)
        led = trick[0] // 6
        if trump >= 0 and led != trump and not _safe_from_trumps(led, trump, unseen, voids, after):
            safe &= SUIT_MASK[trump]
        if safe:
            return _cheapest(hand, safe, unseen)
    return _cheapest(hand, legal, unseen)


@jit_hot
def _heuristic_lead(seat, hand, legal, unseen, trump, declarer, voids, can_declare, rules):
    if seat != declarer:
        opponents = 1 << declarer
    elif rules[R.PLAYERS] == 2:
        opponents = 1 << (1 - seat)
    else:
        opponents = 7 ^ (1 << seat)
    # 1. Declare the most valuable combination: a marriage (leading the queen, the cheaper half,
    #    where both are allowed), a half marriage, the four aces.
    if can_declare:
        best = -1
        best_value = 0
        m = marriage_cards(hand) & legal
        while m:
            c = lowest_index(m)
            m &= m - 1
            if rules[R.MARRIAGE_VALUE + c // 6] > best_value:
                best, best_value = c, rules[R.MARRIAGE_VALUE + c // 6]
        if rules[R.HALF_MARRIAGE] or rules[R.ACE_MARRIAGE]:
            m = declaring_cards(hand, rules[R.HALF_MARRIAGE], rules[R.ACE_MARRIAGE]) & legal & ~marriage_cards(hand)
            while m:
                c = lowest_index(m)
                m &= m - 1
                value = declaration(hand, c, rules)[0]
                if value > best_value:
                    best, best_value = c, value
        if best >= 0:
            return best
    masters = _masters(legal, unseen)
    # 2. Draw trumps with a master trump while opponents still hold some.
    if trump >= 0 and seat == declarer and (unseen & SUIT_MASK[trump]):
        top = masters & SUIT_MASK[trump]
        if top:
            return highest_index(top)
    # 3. Cash a master that cannot be trumped, richest first; a suit nobody else holds is kept
    #    as a late winner.
    best = -1
    for s in range(4):
        top = masters & SUIT_MASK[s]
        if top == 0 or ((unseen & SUIT_MASK[s]) == 0 and s != trump):
            continue
        if not _safe_from_trumps(s, trump, unseen, voids, opponents):
            continue
        c = highest_index(top)
        if best < 0 or CARD_POINTS[c] > CARD_POINTS[best]:
            best = c
    if best >= 0:
        return best
    # 4. Otherwise lead the cheapest card, sparing marriages and masters.
    return _cheapest(hand, legal, unseen)
