"""The layout of a deal's auction record, the block of workspace rows the engine fills while a
deal is played (``sim.engine.workspace.W_AUCTION``) and a player reads later in the deal (the
``pimc-inf`` player weighs its worlds by it): the game state before the deal, the facts of the
talon and the gifts, and every call of the auction in order.

Rows of the block (each of the workspace's 24 columns):

- ``A_GS`` .. ``A_GS + 2``: the game state ``gs`` as it was when the auction began (entry ``i``
  at row ``A_GS + i // 24``, column ``i % 24``; in a 4-player deal by slot, as the seats bid).
- ``A_FACTS``: ``F_CALLS`` the number of calls recorded (``CALLS_OVERFLOW`` when the auction had
  more than ``MAX_CALLS``: none is then to be read), ``F_DEALER``; once the declarer holds the
  talon ``F_DECLARER`` and ``F_TALON`` (its cards), ``F_SHOWN`` (the talon's cards as the
  defenders saw them, 0 when they did not), and after his discard ``F_GIFT_LEFT``, ``F_GIFT_RIGHT``
  (the card given to the seat after him and to the one after that) and ``F_FACE_UP`` (1 when the
  gifts lay face up). -1 where not yet known (no talon taken: ``F_DECLARER`` -1).
- ``A_CALLS + k`` for the k-th call: ``C_SEAT``, ``C_CALL`` (the bid, 0 a pass), ``C_LEAST`` and
  ``C_CAP`` (the least bid and the greatest the seat could make, ``bids_nb.bid_range``: the cap
  is his hand's, which the other seats do not know), ``C_HIGH`` and ``C_HIGH_SEAT`` (the standing
  bid and who held it before the call; 0 and -1: nobody), ``C_DARK`` (1 while the forced seat's
  dark game stands, nobody having undarked) and ``C_FORCED`` (0 when the seat's player chose the
  call, 1 when the rules or an imposed bidding line made it, as every seat can tell: the forced
  opening bid, the dark game's 120, a pass under silence_below, the dealer forced when all
  passed, the barrel's free talon, the golden round's 120, the advisor's "bid up to b"). A pass
  with no legal raise (least > cap) is not marked forced: the cap is the hand's, which the others
  do not know (a model recomputes it for the hand it supposes).

The engine writes the record whatever the players (its cost is a few stores a call), so that no
player's result depends on who else sits at the table; the facts are the whole truth, and a
player reads only what its seat knows of them.
"""

__all__ = [
    "A_GS", "A_FACTS", "A_CALLS", "MAX_CALLS", "AUCTION_ROWS", "F_CALLS", "F_DEALER", "F_DECLARER", "F_TALON",
    "F_SHOWN", "F_GIFT_LEFT", "F_GIFT_RIGHT", "F_FACE_UP", "CALLS_OVERFLOW", "C_SEAT", "C_CALL", "C_LEAST", "C_CAP",
    "C_HIGH", "C_HIGH_SEAT", "C_DARK", "C_FORCED", "GS_ROWS",
]

GS_ROWS = 3  # rows holding the game state (72 entries; N_GAME_STATE is 60, checked by the tests)
A_GS = 0
A_FACTS = A_GS + GS_ROWS
A_CALLS = A_FACTS + 1
# More calls than any auction holds: a raise adds at least 5 from 100 to a cap of at most 120 and
# every marriage a hand can hold (under 400), and each seat passes once.
MAX_CALLS = 96
AUCTION_ROWS = A_CALLS + MAX_CALLS

# Columns of the facts row.
F_CALLS, F_DEALER, F_DECLARER, F_TALON, F_SHOWN, F_GIFT_LEFT, F_GIFT_RIGHT, F_FACE_UP = 0, 1, 2, 3, 4, 5, 6, 7
CALLS_OVERFLOW = -1

# Columns of a call's row.
C_SEAT, C_CALL, C_LEAST, C_CAP, C_HIGH, C_HIGH_SEAT, C_DARK, C_FORCED = 0, 1, 2, 3, 4, 5, 6, 7
