"""Offsets into the game state, the int64 array carried from deal to deal (scores, the barrel,
bolts, concessions, the dealer, the golden round). Kernels read these module constants at compile
time; the engine owns the array, players read it (scores, who sits on the barrel) when they bid.

Every per-seat block has ``SLOTS`` = 4 entries, room for the 4-player game (``players = 4``); a
3-player game leaves the fourth at zero, a 2-player game the last two. In a 4-player deal the
kernels work in *slots*: slots 0..2 are the three players of the deal from first hand on, slot 3
the dealer, who sits out; the engine turns seats into slots and back (``rotate_seats``).
"""

__all__ = [
    "SEATS", "SLOTS", "G_SCORE", "G_BARREL_ENTRIES", "G_BARREL_FALLS", "G_BOLT_PENALTIES", "G_DUMP_TRUCKS", "G_ZEROED",
    "G_ON_BARREL", "G_ATTEMPTS", "G_FALLS", "G_BOLTS", "G_CONCESSIONS", "G_QUIET", "G_NO_WINS", "G_SEAT_BLOCKS_END",
    "G_DEALER",
    "G_DEALS", "G_WINNER", "G_FIRST_DEALER", "G_REDEALS", "G_GOLDEN_LEFT", "G_GOLDEN_ROUNDS", "G_GOLDEN_MADE",
    "N_GAME_STATE",
]

SEATS = 3  # seats of the classic game
SLOTS = 4  # entries of every per-seat block in the kernels' arrays

# Per-seat blocks of SLOTS entries first; those from G_SCORE to G_ZEROED are laid out exactly as
# the kernels' game record row (sim.engine.schema.GAME_STATE_TO_RECORD).
G_SCORE = 0
G_BARREL_ENTRIES = 4
G_BARREL_FALLS = 8
G_BOLT_PENALTIES = 12
G_DUMP_TRUCKS = 16
G_ZEROED = 20
G_ON_BARREL = 24
G_ATTEMPTS = 28
G_FALLS = 32  # falls since the last reset to zero
G_BOLTS = 36  # bolts since the last penalty
G_CONCESSIONS = 40  # concessions so far in the game (concede_limit, concede_third_penalty)
G_QUIET = 44  # deals in a row without declaring (bolt_on = three_passes)
G_NO_WINS = 48  # no-win deals since the last no-win penalty (no_win_penalty)
G_SEAT_BLOCKS_END = 52
G_DEALER = 52
G_DEALS = 53
G_WINNER = 54
G_FIRST_DEALER = 55
G_REDEALS = 56  # redeals in a row by the current dealer (redeal_limit_penalty)
G_GOLDEN_LEFT = 57  # deals left in the current golden round (golden_round)
G_GOLDEN_ROUNDS = 58  # golden rounds begun
G_GOLDEN_MADE = 59  # somebody made his contract in the current golden round
N_GAME_STATE = 60
