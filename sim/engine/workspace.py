"""The per-chunk workspace: a (WORKSPACE_ROWS, 24) int64 array of scratch rows that every deal
kernel shares, so that no deal allocates; and the game state array (``sim.game.state_layout``).
"""

import numpy as np

from sim.game.auction_layout import AUCTION_ROWS
from sim.game.state_layout import N_GAME_STATE

__all__ = [
    "W_HANDS", "W_ACTIVE", "W_LAST_BID", "W_CARD_POINTS", "W_MARRIAGE_POINTS", "W_MARRIAGES", "W_TRICKS", "W_RESULT",
    "W_TRICK", "W_VOIDS", "W_NEW", "W_EVENTS", "W_SAT_BEFORE", "W_DECK", "W_KNOWN", "W_CODES", "W_PLAYED_BY",
    "W_SEATS", "W_AUCTION",
    "WORKSPACE_ROWS", "new_workspace", "new_game_state",
]

# Rows of the workspace.
W_HANDS, W_ACTIVE, W_LAST_BID, W_CARD_POINTS, W_MARRIAGE_POINTS, W_MARRIAGES, W_TRICKS = 0, 1, 2, 3, 4, 5, 6
W_RESULT, W_TRICK, W_VOIDS, W_NEW, W_EVENTS, W_SAT_BEFORE, W_DECK = 7, 8, 9, 10, 11, 12, 13
W_KNOWN = 14  # what each seat knows of the hidden cards (layouts: know_cards, know_cards2)
W_CODES = 15  # 4-player deal: the three players' codes by slot (0..2) and their bidding codes (3..5)
W_PLAYED_BY = 16  # the cards each seat has played in this deal (the learned player reads it)
W_SEATS = 17  # 4-player deal: the seat (0..3) of each slot, for a rule naming seat numbers (barrel_simultaneous_keeper)
# The auction's record (``sim.game.auction_layout``: the game state before the deal, the talon and
# the gifts, every call), which a player reads later in the deal (pimc-inf).
W_AUCTION = 18
WORKSPACE_ROWS = W_AUCTION + AUCTION_ROWS


def new_workspace() -> np.ndarray:
    return np.zeros((WORKSPACE_ROWS, 24), dtype=np.int64)


def new_game_state() -> np.ndarray:
    return np.zeros(N_GAME_STATE, dtype=np.int64)
