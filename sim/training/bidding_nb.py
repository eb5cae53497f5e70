"""Compiled playouts for the bidding nets: every seat of a deal declares in turn at the least bid,
with the learned player in every seat (its gifts, its cards), and the points each seat takes are
recorded. No solver: what a hand is worth to the learned player is what it makes in its own play.
"""

import numpy as np

from sim.engine.auction_nb import no_auction_record, talon_shown_to_defenders
from sim.engine.deal_nb import deal_cards
from sim.engine.schema import BID_NORMAL
from sim.engine.tricks_nb import play_tricks
from sim.engine.workspace import W_AUCTION, W_CARD_POINTS, W_DECK, W_HANDS, W_KNOWN, W_LAST_BID, W_MARRIAGE_POINTS
from sim.game import rules_layout as R
from sim.game.auction_layout import AUCTION_ROWS
from sim.game.play_nb import givable_cards, know_cards
from sim.numba_config import jit_hot
from sim.players.seat_nb import choose_discard

# A playout row (int64), one per deal and declaring seat; roles as the card net names them (0 the
# declarer, 1 the seat after him, 2 the other).
O_HAND = 0  # the declarer's 7 cards before the talon
O_TALON = 1
O_KEPT = 2  # the 8 cards he keeps after his gifts
O_GIFT = 3  # 2: the cards given to roles 1 and 2
O_VALUE = 5  # the card net's value of the deal after the gifts (points, learned_discard's)
O_CARD_POINTS = 6  # 3 by role
O_MARRIAGE_POINTS = 9  # 3 by role, burnt marriages excluded
O_N = 12


@jit_hot
def declarer_playouts(rng, deal_rng, rules, codes, prm, out, ws, plays, script, solver, originals):
    """``out.shape[0] // 3`` deals, each played three times: seat q (0, 1, 2) takes the talon at the
    rules' least bid, gives his gifts and the seats play the eight tricks; row 3 * deal + q
    records it (``O_*``). ``originals``: int64 scratch of 3 (the dealt hands)."""
    hands = ws[W_HANDS, :3]
    last_bid = ws[W_LAST_BID, :3]
    contract = np.int64(rules[R.MIN_BID])
    log = ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
    no_auction_record(log)
    for d in range(out.shape[0] // 3):
        talon = deal_cards(deal_rng, hands, ws[W_DECK])
        for p in range(3):
            originals[p] = hands[p]
        for q in range(3):
            row = out[3 * d + q]
            for p in range(3):
                hands[p] = originals[p]
                last_bid[p] = 0
            last_bid[q] = contract
            hands[q] |= talon
            g1, g2, value = choose_discard(codes[q], q, hands, givable_cards(hands[q], rules), contract, last_bid,
                                           rules, prm, rng, script, solver, log)
            left = (q + 1) % 3
            right = (q + 2) % 3
            hands[q] &= ~((np.int64(1) << g1) | (np.int64(1) << g2))
            hands[left] |= np.int64(1) << g1
            hands[right] |= np.int64(1) << g2
            row[O_HAND] = originals[q]
            row[O_TALON] = talon
            row[O_KEPT] = hands[q]
            row[O_GIFT] = g1
            row[O_GIFT + 1] = g2
            row[O_VALUE] = value
            know_cards(ws[W_KNOWN], q, talon_shown_to_defenders(rules, BID_NORMAL, talon, False), g1, g2,
                       not rules[R.DISCARD_FACE_DOWN])
            if play_tricks(rng, rules, codes, prm, ws, q, contract, 0, plays, script, solver, 3, 0) != 0:
                return -1
            for k in range(3):
                row[O_CARD_POINTS + k] = ws[W_CARD_POINTS, (q + k) % 3]
                row[O_MARRIAGE_POINTS + k] = ws[W_MARRIAGE_POINTS, (q + k) % 3]
    return 0
