"""The tricks: eight of three cards (ten or nine of two with players = 2), the declarer on lead,
each seat asked for its card through the players' door (``sim.players.seat_nb.choose_card``), every
card checked, marriages declared (by a leader who has won a trick, unless marriage_first_lead, and
holds at least marriage_min_cards cards; their trump from this trick, or with marriage_trump_from
= next_trick from the next), the tallies of card points, marriages and tricks kept in the
workspace.
"""

import numpy as np

from sim.engine.enums import ILLEGAL
from sim.engine.workspace import (
    W_AUCTION,
    W_CARD_POINTS,
    W_HANDS,
    W_KNOWN,
    W_LAST_BID,
    W_MARRIAGE_POINTS,
    W_MARRIAGES,
    W_PLAYED_BY,
    W_TRICK,
    W_TRICKS,
    W_VOIDS,
)
from sim.game import rules_layout as R
from sim.game.auction_layout import AUCTION_ROWS
from sim.game.bits_nb import popcount
from sim.game.cards import CARD_POINTS
from sim.game.play_nb import LEAD_WITHOUT_DECLARING, beats, declaration, declaring_ranks, legal_follows, legal_leads
from sim.numba_config import jit_hot, jit_inline
from sim.players.seat_nb import choose_card


@jit_hot
def clear_tallies(ws):
    """Zero the per-seat tallies of a deal: card points, marriage points, marriages, tricks."""
    for q in range(3):
        ws[W_CARD_POINTS, q] = 0
        ws[W_MARRIAGE_POINTS, q] = 0
        ws[W_MARRIAGES, q] = 0
        ws[W_TRICKS, q] = 0


@jit_inline
def play_tricks(rng, rules, codes, prm, ws, declarer, contract, row, plays, script, solver, n, last_bonus):
    """The tricks of ``n`` seats (eight of 3 cards; with players = 2 ten or nine of 2) with the
    declarer on lead, playing ``contract`` (-1 when none is set); fills the per-seat tallies in the
    workspace from zero, the winner of the last trick taking ``last_bonus`` card points more
    (players = 2: the untaken talon). Returns 0 or ILLEGAL."""
    clear_tallies(ws)
    hands = ws[W_HANDS, :n]
    card_points = ws[W_CARD_POINTS, :n]
    marriage_points = ws[W_MARRIAGE_POINTS, :n]
    marriages = ws[W_MARRIAGES, :n]
    tricks = ws[W_TRICKS, :n]
    trick = ws[W_TRICK, :n]
    voids = ws[W_VOIDS, :n]
    voids[:] = 0
    played_by = ws[W_PLAYED_BY, :n]
    played_by[:] = 0
    n_tricks = popcount(hands[declarer])
    if n == 2:
        plays[row, :] = -1  # 20 or 18 cards fill the row
    leader = declarer
    # np.int64 rather than literals: a literal argument makes Numba compile every player and
    # solver kernel once more for it.
    trump = np.int64(-1)
    trump_owner = np.int64(-1)
    played = np.int64(0)
    # Cards whose lead may declare something: kings and queens; jacks and aces under the rules
    # that count them.
    lead_declares = declaring_ranks(rules)
    # marriage_min_cards: the last trick on which a leader (holding n_tricks - t cards) may declare;
    # marriage_trump_from = next_trick: a declared trump waits in ``pending`` for the trick's end.
    last_declaring_trick = n_tricks - rules[R.MARRIAGE_MIN_CARDS]
    trump_later = rules[R.MARRIAGE_TRUMP_FROM] != 0
    for t in range(n_tricks):
        win_card = -1
        win_seat = -1
        led_suit = -1
        points = 0
        pending = np.int64(-1)
        for k in range(n):
            p = leader + k if leader + k < n else leader + k - n
            hand = hands[p]
            can_declare = False
            if k == 0:
                legal = hand
                if trump >= 0 and (rules[R.NO_LEAD_FOREIGN_TRUMP] or rules[R.MUST_LEAD_TRUMP]):
                    legal = legal_leads(hand, trump, trump_owner == p, rules[R.NO_LEAD_FOREIGN_TRUMP],
                                        rules[R.MUST_LEAD_TRUMP])
                can_declare = (tricks[p] > 0 or rules[R.MARRIAGE_FIRST_LEAD] != 0) and t <= last_declaring_trick
            else:
                legal = legal_follows(hand, led_suit, win_card, trump, rules[R.MUST_HEAD])
            choice = choose_card(codes[p], p, hands, legal, trick, k, leader, trump, trump_owner, declarer, tricks,
                                 card_points, marriage_points, contract, played, voids, ws[W_KNOWN], can_declare,
                                 last_bonus, rules, prm, rng, script, solver, marriages, played_by,
                                 ws[W_LAST_BID], ws[W_AUCTION:W_AUCTION + AUCTION_ROWS], n)
            c = choice & ~LEAD_WITHOUT_DECLARING
            if choice < 0 or c > 23 or not (legal >> c) & 1:
                return ILLEGAL
            if k == 0:
                led_suit = c // 6
                win_card = c
                win_seat = p
                if can_declare and (lead_declares >> c) & 1:
                    value, new_trump, bit = declaration(hand, c, rules)
                    if c != choice and (not rules[R.MARRIAGE_OPTIONAL] or bit == 0):
                        return ILLEGAL  # declining is a choice only where a declaration is possible
                    if bit and c == choice:
                        marriage_points[p] += value
                        marriages[p] |= bit
                        if new_trump >= 0:
                            if trump_later:
                                pending = new_trump  # this trick keeps the trump in force
                            else:
                                trump = new_trump
                                trump_owner = p
                elif c != choice:
                    return ILLEGAL
            else:
                if c != choice:
                    return ILLEGAL
                if c // 6 != led_suit:
                    voids[p] |= 1 << led_suit
                    if trump >= 0 and c // 6 != trump:
                        voids[p] |= 1 << trump
                if beats(c, win_card, trump):
                    win_card = c
                    win_seat = p
            trick[k] = c
            points += CARD_POINTS[c]
            hands[p] = hand & ~(np.int64(1) << c)
            played |= np.int64(1) << c
            played_by[p] |= np.int64(1) << c
            plays[row, n * t + k] = choice
        tricks[win_seat] += 1
        card_points[win_seat] += points
        if pending >= 0:
            trump = pending
            trump_owner = leader  # the seat that led the trick declared it
        leader = win_seat
    card_points[leader] += last_bonus
    if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK]:
        for q in range(n):
            if tricks[q] == 0:
                marriage_points[q] = 0  # declared (the trump changed) but burnt: no trick won
    return 0
