"""One deal from the hands to the settlement, for 3, 4 (the dealer sits out) and 2 seats (two
talons): ``deal_and_play3/4/2`` deal from the deal stream, then ``play_hands3/4/2`` play a deal whose
hands are in the workspace through the phases: auction and talon (``auction_nb``), the discard or
the burial, the final contract, the tricks (``tricks_nb``), the results and bolts, then the game
rules (``settle_nb``).

Kernels take only arrays and scalars. The house rules are the int64 array of
``HouseRules.to_array`` (offsets in ``sim.game.rules_layout``); the record row and the game state
use the offsets of ``sim.engine.schema`` and ``sim.game.state_layout``. Seats decide through
``sim.players.seat_nb`` by their player codes.
"""

import numpy as np

from sim.engine.auction_nb import (
    accumulates,
    anyone_on_barrel,
    at_talon,
    bid_for_talon,
    know_cards2,
    talon_shown_to_defenders,
)
from sim.engine.deal_nb import deal_cards, deal_cards2, limit_reached, redeal
from sim.engine.enums import ACCUMULATE_BID_CAP, ILLEGAL, SITTER
from sim.engine.schema import (
    BID_DARK,
    BID_GOLDEN,
    BID_NORMAL,
    D_BID,
    D_BOLT,
    D_BURIED,
    D_CARD_POINTS,
    D_CHANGE,
    D_CONCEDED,
    D_CONTRACT,
    D_DEALER,
    D_DECLARER,
    D_EVENTS,
    D_GIFT,
    D_HAND,
    D_MADE,
    D_MARRIAGE_POINTS,
    D_MARRIAGES,
    D_OTHER_TALON,
    D_REDEAL,
    D_RESULT,
    D_SCORE,
    D_SEAT_BLOCKS,
    D_TALON,
    D_TALON_CARD,
    D_TRICKS,
    REDEAL_FOUR_NINES_AFTER_TALON,
    REDEAL_NONE,
)
from sim.engine.settle_nb import apply_deal2, apply_deal34, earns_bolt, end_golden_deal, rotate_seats, sitter_points
from sim.engine.tricks_nb import clear_tallies, play_tricks
from sim.engine.workspace import (
    W_AUCTION,
    W_CARD_POINTS,
    W_CODES,
    W_DECK,
    W_HANDS,
    W_KNOWN,
    W_LAST_BID,
    W_MARRIAGE_POINTS,
    W_MARRIAGES,
    W_RESULT,
    W_SEATS,
    W_TRICKS,
)
from sim.game import rules_layout as R
from sim.game.auction_layout import (
    A_FACTS,
    AUCTION_ROWS,
    F_DECLARER,
    F_FACE_UP,
    F_GIFT_LEFT,
    F_GIFT_RIGHT,
    F_SHOWN,
    F_TALON,
)
from sim.game.bids_nb import contract_cap, legal_contract
from sim.game.bits_nb import popcount
from sim.game.cards import NINE, RANK_MASK
from sim.game.play_nb import (
    concession_gain,
    concession_loss,
    declarer_gain,
    declarer_total,
    givable_cards,
    know_cards,
    mask_points,
    round_points,
)
from sim.game.state_layout import G_CONCESSIONS, G_REDEALS, G_SCORE, G_WINNER
from sim.numba_config import jit_hot, jit_inline
from sim.players.seat_nb import choose_burial, choose_contract, choose_discard, reads_known_cards


@jit_hot
def deal_and_play3(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """Deal at random from ``deal_rng``, then play the deal (``play_hands3``; players draw from
    ``rng``). Two streams: the deals of a run do not depend on which players play them."""
    talon = deal_cards(deal_rng, ws[W_HANDS, :3], ws[W_DECK])
    return play_hands3(rng, rules, codes, codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver)


@jit_hot
def play_hands3(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver):
    """Play one deal whose hands are in the workspace and whose talon is ``talon``, from the game
    state ``gs`` (scores, barrel, bolts); write its record to ``rec[row]`` and ``plays[row]`` and
    update ``gs``. Seats bid (and decide on a dark game) by ``bid_codes`` and play by ``codes``.
    Scripted seats read their actions from ``script``; double-dummy and PIMC seats
    search with the buffers ``solver`` = (state, moves, table, PIMC worlds). Returns 0, REDEAL
    or ILLEGAL."""
    hands = ws[W_HANDS, :3]
    rec[row, D_TALON] = talon
    status, declarer, high, mode, as_it_lies = bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row,
                                                             plays, script, solver, 3)
    if status != 0:
        return status

    # ---- talon (shown, taken) and discard: one card to each opponent --------------------------
    status, as_it_lies, uncontested = at_talon(gs, rules, talon, high, declarer, dealer, 3, as_it_lies, rec, row,
                                               plays)
    if status != 0:
        return status
    hands[declarer] |= talon
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    givable = givable_cards(hands[declarer], rules)
    log = ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
    facts = log[A_FACTS]
    shown = talon_shown_to_defenders(rules, mode, talon, uncontested)
    facts[F_DECLARER] = declarer
    facts[F_TALON] = talon
    facts[F_SHOWN] = shown
    g1, g2, dd_value = choose_discard(codes[declarer], declarer, hands, givable, high, ws[W_LAST_BID], rules, prm, rng,
                                       script, solver, log)
    if g1 == g2 or not (givable >> g1) & 1 or not (givable >> g2) & 1:
        return ILLEGAL
    hands[declarer] &= ~((np.int64(1) << g1) | (np.int64(1) << g2))
    hands[left] |= np.int64(1) << g1
    hands[right] |= np.int64(1) << g2
    rec[row, D_GIFT + declarer] = -1
    rec[row, D_GIFT + left] = g1
    rec[row, D_GIFT + right] = g2
    facts[F_GIFT_LEFT] = g1
    facts[F_GIFT_RIGHT] = g2
    facts[F_FACE_UP] = 0 if rules[R.DISCARD_FACE_DOWN] else 1
    if reads_known_cards(codes, 3):
        know_cards(ws[W_KNOWN], declarer, shown, g1, g2, not rules[R.DISCARD_FACE_DOWN])
    return finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, 3, declarer, high,
                       mode, as_it_lies, dd_value, 0, 0)


@jit_inline
def finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, n, declarer, high, mode,
                as_it_lies, dd_value, buried_points, last_bonus):
    """The end of every deal of ``n`` seats once the declarer holds his final hand: the four-nines
    redeal and bonus, the final contract or a concession, the tricks, the deal's results and
    bolts, then the game rules (``apply_deal``). With players = 2 the declarer's buried cards
    (``buried_points``) count for him and the untaken talon (``last_bonus``) for the winner of
    the last trick. Returns 0, REDEAL or ILLEGAL."""
    hands = ws[W_HANDS, :n]
    four_nines = -1  # the seat holding the four nines after the discard
    if rules[R.FOUR_NINES_BONUS] or rules[R.REDEAL_FOUR_NINES_AFTER_TALON]:
        for q in range(n):
            if hands[q] & RANK_MASK[NINE] == RANK_MASK[NINE]:
                four_nines = q
    if four_nines >= 0 and rules[R.REDEAL_FOUR_NINES_AFTER_TALON] and rules[R.REDEAL_ASK] and not as_it_lies:
        if not limit_reached(gs, rules):
            return redeal(gs, rec, row, plays, REDEAL_FOUR_NINES_AFTER_TALON)
        as_it_lies = True
    gs[G_REDEALS] = 0  # the deal is played

    # ---- final contract or concession ----------------------------------------------------------
    doubled = mode == BID_DARK or mode == BID_GOLDEN  # 120 taken unseen: fixed and doubled
    can_concede = not doubled and rules[R.CONCEDE] and (rules[R.CONCEDE_ON_BARREL] or not anyone_on_barrel(gs)) and (
        rules[R.CONCEDE_LIMIT] == 0 or gs[G_CONCESSIONS + declarer] < rules[R.CONCEDE_LIMIT])
    final_cap = contract_cap(hands[declarer], high, rules)
    if accumulates(gs, rules, declarer):
        final_cap = min(final_cap, ACCUMULATE_BID_CAP)
    if doubled:
        contract = high
    else:
        contract = choose_contract(codes[declarer], declarer, hands[declarer], high, final_cap, can_concede, dd_value,
                                   gs, rules, prm, rng, script, solver[4], solver[5], solver[8])
    conceded = contract == -1
    if conceded:
        if not can_concede:
            return ILLEGAL
        contract = high
    elif not legal_contract(contract, high, final_cap, rules):
        return ILLEGAL
    rec[row, D_CONTRACT] = contract
    rec[row, D_CONCEDED] = conceded
    rec[row, D_REDEAL] = REDEAL_NONE

    card_points = ws[W_CARD_POINTS, :n]
    marriage_points = ws[W_MARRIAGE_POINTS, :n]
    marriages = ws[W_MARRIAGES, :n]
    tricks = ws[W_TRICKS, :n]
    result = ws[W_RESULT, :n]
    made = False
    if conceded:
        clear_tallies(ws)
        gs[G_CONCESSIONS + declarer] += 1
        loss = concession_loss(contract, gs[G_CONCESSIONS + declarer], rules)
        gain = concession_gain(contract, rules)
        for q in range(n):
            result[q] = -loss if q == declarer else gain
        plays[row, :] = -1
    else:
        status = play_tricks(rng, rules, codes, prm, ws, declarer, contract, row, plays, script, solver, n,
                             last_bonus)
        if status != 0:
            return status
        card_points[declarer] += buried_points
        points = card_points[declarer] + marriage_points[declarer]
        made = declarer_total(points, rules) >= contract
        factor = 2 if doubled else 1  # a dark or golden deal doubles all but the defenders' marriages
        # ... by default; dark_defenders_doubled = false scores a dark deal's defenders as usual, and
        # golden_defenders = doubled_rounded doubles a golden deal's defenders after rounding.
        card_factor, after_factor = factor, 1
        if mode == BID_DARK and not rules[R.DARK_DEFENDERS_DOUBLED]:
            card_factor = 1
        elif mode == BID_GOLDEN and rules[R.GOLDEN_DEFENDERS_ROUNDED]:
            card_factor, after_factor = 1, 2
        for q in range(n):
            if q == declarer:
                result[q] = factor * (declarer_gain(contract, points, rules) if made else -contract)
            else:
                result[q] = after_factor * round_points(card_factor * card_points[q] + marriage_points[q], rules)
    rec[row, D_MADE] = made
    for q in range(n):
        if q == four_nines:
            result[q] += rules[R.FOUR_NINES_BONUS]  # zero unless four_nines_bonus
        rec[row, D_CARD_POINTS + q] = card_points[q]
        rec[row, D_MARRIAGE_POINTS + q] = marriage_points[q]
        rec[row, D_MARRIAGES + q] = marriages[q]
        rec[row, D_TRICKS + q] = tricks[q]
        rec[row, D_RESULT + q] = result[q]
        if rules[R.BOLT_ON] == R.BOLT_ON_NO_TRICKS and not rules[R.BOLT_OWN_GAME_EXEMPT]:
            bolt = (not conceded) and tricks[q] == 0  # the classic rule, without a call
        else:
            bolt = earns_bolt(gs, rules, q, declarer, conceded, tricks[q], card_points[q] + marriage_points[q])
        doubles_bolt = (mode == BID_DARK and rules[R.BOLT_DOUBLE_IN_DARK]) or (
            mode == BID_GOLDEN and rules[R.BOLT_DOUBLE_IN_GOLDEN])
        rec[row, D_BOLT + q] = 2 * bolt if doubles_bolt else bolt
    paying_dealer = -1
    if as_it_lies and rules[R.REDEAL_ANY] and mode == BID_NORMAL:
        paying_dealer = SITTER if rules[R.PLAYERS] == 4 else dealer  # the 4-player dealer sits out
    if n == 2:  # n is a constant where this is inlined: one settlement compiled, not both
        apply_deal2(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row)
    else:
        apply_deal34(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row)
    if mode == BID_GOLDEN:
        end_golden_deal(gs, rules, made, rec, row)
    return 0


@jit_hot
def deal_and_play4(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """``deal_and_play3`` of a 4-player game: ``codes`` and ``gs`` by seat, ``dealer`` a seat 0..3."""
    talon = deal_cards(deal_rng, ws[W_HANDS, :3], ws[W_DECK])
    return play_hands4(rng, rules, codes, codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver)


@jit_hot
def play_hands4(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver):
    """``play_hands3`` of a 4-player game (players = 4): the dealer (a seat 0..3) sits out, the hands
    in the workspace belong to the three others from first hand on, and they play an ordinary
    3-player deal with the dealer's slot (3) scored the talon's points (``sitter_points``). ``codes``,
    ``bid_codes`` and ``gs`` are by seat; the record row is written by seat; ``prm`` has a block of
    three rows by slot for each first hand (``sim.players.params_matrix``)."""
    shift = (dealer + 1) % 4  # slot s is seat (s + shift) % 4; slot 3 the dealer
    codes3 = ws[W_CODES, :3]
    bid3 = ws[W_CODES, 3:6]
    for s in range(3):
        codes3[s] = codes[(s + shift) % 4]
        bid3[s] = bid_codes[(s + shift) % 4]
    for s in range(4):
        ws[W_SEATS, s] = (s + shift) % 4
    rotate_seats(gs, shift)
    winner_before = gs[G_WINNER]
    gs[G_WINNER] = -1
    for r in (W_CARD_POINTS, W_MARRIAGE_POINTS, W_MARRIAGES, W_TRICKS):
        ws[r, SITTER] = 0
    ws[W_RESULT, SITTER] = sitter_points(talon, rules)
    rec[row, D_BOLT + SITTER] = 0
    status = play_hands3(rng, rules, codes3, bid3, prm[3 * shift:3 * shift + 3], gs, np.int64(2), ws, talon, rec,
                         row, plays, script, solver)
    # The sitter's columns (apply_deal wrote his change, score and events of a played deal).
    rec[row, D_HAND + SITTER] = 0
    rec[row, D_BID + SITTER] = 0
    rec[row, D_GIFT + SITTER] = -1
    for base in (D_CARD_POINTS, D_MARRIAGE_POINTS, D_MARRIAGES, D_TRICKS, D_BOLT):
        rec[row, base + SITTER] = 0
    if status == 0:
        rec[row, D_RESULT + SITTER] = ws[W_RESULT, SITTER]
    else:
        rec[row, D_RESULT + SITTER] = 0
        rec[row, D_CHANGE + SITTER] = 0
        rec[row, D_EVENTS + SITTER] = 0
        rec[row, D_SCORE + SITTER] = gs[G_SCORE + SITTER]
    # Slots back to seats: the record row, the declarer, the winner and the game state.
    for base in D_SEAT_BLOCKS:
        v0 = rec[row, base]
        v1 = rec[row, base + 1]
        v2 = rec[row, base + 2]
        v3 = rec[row, base + 3]
        rec[row, base + shift % 4] = v0
        rec[row, base + (1 + shift) % 4] = v1
        rec[row, base + (2 + shift) % 4] = v2
        rec[row, base + (3 + shift) % 4] = v3
    rec[row, D_DEALER] = dealer
    if rec[row, D_DECLARER] >= 0:
        rec[row, D_DECLARER] = (rec[row, D_DECLARER] + shift) % 4
    winner = gs[G_WINNER]
    gs[G_WINNER] = (winner + shift) % 4 if winner >= 0 else winner_before
    rotate_seats(gs, 4 - shift)
    return status


@jit_hot
def deal_and_play2(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """``deal_and_play3`` of a 2-player game."""
    talon, other = deal_cards2(deal_rng, ws[W_HANDS, :2], ws[W_DECK], rules[R.TWO_PLAYER_TALON])
    return play_hands2(rng, rules, codes, codes, prm, gs, dealer, ws, talon, other, rec, row, plays, script, solver)


@jit_hot
def play_hands2(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, other, rec, row, plays, script, solver):
    """``play_hands3`` of a 2-player game (players = 2): two seats bid for ``talon``; the declarer
    takes it (his choice between the two talons is unseen, and the deal is uniformly random, so
    the first talon is as good as a random one), buries two cards face down in its place, which
    count for him, and with two_player_talon = 3 puts one card into ``other``, the talon nobody
    takes. The tricks follow; ``other`` goes to the winner of the last one."""
    hands = ws[W_HANDS, :2]
    rec[row, D_TALON] = talon
    rec[row, D_OTHER_TALON] = other
    rec[row, D_BURIED] = 0
    rec[row, D_TALON_CARD] = -1
    status, declarer, high, mode, as_it_lies = bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row,
                                                             plays, script, solver, 2)
    if status != 0:
        return status
    status, as_it_lies, uncontested = at_talon(gs, rules, talon, high, declarer, dealer, 2, as_it_lies, rec, row,
                                               plays)
    if status != 0:
        return status
    hands[declarer] |= talon
    givable = givable_cards(hands[declarer], rules)
    to_talon = rules[R.TWO_PLAYER_TALON] == 3
    b1, b2, t, dd_value = choose_burial(codes[declarer], declarer, hands, givable, to_talon, other, rules, prm, rng,
                                        script, solver)
    if b1 == b2 or not (0 <= b1 < 24 and 0 <= b2 < 24) or not (givable >> b1) & 1 or not (givable >> b2) & 1:
        return ILLEGAL
    buried = (np.int64(1) << b1) | (np.int64(1) << b2)
    given = np.int64(0)
    if to_talon:
        if not 0 <= t < 24 or not ((givable & ~buried) >> t) & 1:
            return ILLEGAL
        given = np.int64(1) << t
    elif t != -1:
        return ILLEGAL
    hands[declarer] &= ~(buried | given)
    rec[row, D_BURIED] = buried
    rec[row, D_TALON_CARD] = t
    if reads_known_cards(codes, 2):
        know_cards2(ws[W_KNOWN], declarer, talon_shown_to_defenders(rules, mode, talon, uncontested), buried, given,
                    popcount(other | given))
    return finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, 2, declarer, high,
                       mode, as_it_lies, dd_value, mask_points(buried), mask_points(other | given))
