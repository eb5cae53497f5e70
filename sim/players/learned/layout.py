"""The learned player's layouts, in one place: the inputs of its card net (what a seat may see,
as rows of the first weight matrix), the packed weight blob its kernels read, and the stored
position row that training records and the exact solver labels.

Seats are named by role relative to the declarer, as the solver names them: role 0 the declarer,
1 the defender who plays after him, 2 the other defender (``role = (seat - declarer) % 3``).
A 4-player deal is played by three slots, so nothing changes there.

Changing any input below changes what a weights file means: bump FEATURES_VERSION, which every
weights manifest records and the loader checks.
"""

__all__ = [
    "FEATURES_VERSION", "F_HAND", "F_PLAYED", "F_TRICK", "F_KNOWN", "F_UNSEEN", "F_LEGAL", "F_ME", "F_LEADER",
    "F_TRUMP", "F_OWNER", "F_WON", "F_VOID", "F_DECLARED", "F_TRICK_NO", "F_CAN_DECLARE", "F_RULES", "F_FLAGS",
    "F_MASTER", "F_WINS", "N_SPARSE", "D_BANKED", "D_NEED", "D_CONTRACT", "D_DEFENDER1", "D_DEFENDER2", "D_TABLE",
    "D_LAST_BID", "D_MARRIAGE_VALUE", "D_ACE_MARRIAGE", "D_UNSECURED", "D_SUIT_OUT", "N_DENSE", "F_DENSE", "N_IN",
    "MAX_ACTIVE", "NET_H1", "NET_H2", "NET_N_IN", "NET_BIDDING", "NET_HEADER", "net_size", "LADDER_LO", "LADDER_STEP",
    "N_LADDER", "N_LADDER_OUT", "L_HAND", "L_RULES", "L_MARRIAGE_VALUE", "L_ACE_MARRIAGE", "L_VALUE", "B_N_IN",
    "C_N_IN", "BH_HIDDEN_B", "BH_HIDDEN_C", "BH_DARK_VALUE", "BH_FIRST_VALUE", "BID_HEADER", "ladder_size",
    "bidding_size", "WN_STATES", "WN_FLOOR", "WN_WIDTH", "WN_TOP", "WN_TARGET", "WN_HAS_BARREL", "WIN_HEADER",
    "win_size", "P_HAND", "P_SEAT", "P_DECLARER", "P_LEADER", "P_N_IN_TRICK", "P_TRICK", "P_TRUMP", "P_OWNER",
    "P_TRICKS", "P_CARD_POINTS", "P_MARRIAGE_POINTS", "P_MARRIAGES", "P_CONTRACT", "P_PLAYED", "P_PLAYED_BY", "P_VOIDS",
    "P_KNOWN", "P_LAST_BID", "P_LEGAL", "P_CAN_DECLARE", "P_CHOSEN", "P_N", "RULE_FLAGS",
]

FEATURES_VERSION = 2

# ---- inputs of the card net: each sparse bit adds one row of W1, each dense value its multiple --
F_HAND = 0  # 24: the seat's cards
F_PLAYED = 24  # 3 x 24 by role: cards each role has played in earlier tricks
F_TRICK = 96  # 3 x 24 by role: the cards of the current trick
F_KNOWN = 168  # 3 x 24 by role: cards the seat knows that role holds (the talon shown, the gifts)
F_UNSEEN = 240  # 24: cards neither played, held, nor known to be held
F_LEGAL = 264  # 24: the cards the seat may play
F_ME = 288  # 3: the seat's role
F_LEADER = 291  # 3: the role on lead in this trick
F_TRUMP = 294  # 5: the trump suit, or 4 = none
F_OWNER = 299  # 4: the role that declared the trump, or 3 = none
F_WON = 303  # 3: each role has won a trick
F_VOID = 306  # 3 x 4: suits each role has shown out of
F_DECLARED = 318  # 3 x 9: each role's declarations (marriage by suit, half marriage by suit, aces)
F_TRICK_NO = 345  # 8: the trick number
F_CAN_DECLARE = 353  # 1: a lead of this seat may declare
F_RULES = 354  # 10: the play rules (RULE_FLAGS below), then "a contract is set"
F_FLAGS = 364  # 3: the contract is made already; it cannot be made any more; marriage points unsecured
F_MASTER = 367  # 24: the seat's cards that no live card of their suit outside its hand beats
F_WINS = 391  # 24: a follower's legal cards that beat the trick's winning card so far
N_SPARSE = 415
# Dense inputs, each a value times its row (points in hundreds):
D_BANKED = 0  # the declarer's card points and secured marriage points
D_NEED = 1  # points still needed to make the contract (0 when none is set)
D_CONTRACT = 2  # the contract (0 when none is set)
D_DEFENDER1 = 3  # the role-1 defender's card and marriage points
D_DEFENDER2 = 4  # the role-2 defender's
D_TABLE = 5  # points on the table in this trick (/30)
D_LAST_BID = 6  # 3 by role: each role's last bid in the auction
D_MARRIAGE_VALUE = 9  # 4 by suit: the marriage values of the rules
D_ACE_MARRIAGE = 13  # the value of the four aces (0 when they count nothing)
D_UNSECURED = 14  # the declarer's marriage points that burn unless he wins a trick
D_SUIT_OUT = 15  # 4 by suit: the suit's live cards outside the seat's hand (/6)
N_DENSE = 19
F_DENSE = N_SPARSE  # the dense inputs' rows follow the sparse ones
N_IN = F_DENSE + N_DENSE  # 434 rows of W1
MAX_ACTIVE = 160  # sparse bits a position can set (hand 8 + played 21 + unseen 16 + ... stays below it)

# ---- the packed weights of one card net (float32): a header, then the arrays row-major --------
# W1 (N_IN, H1), b1 (H1), W2 (H1, H2), b2 (H2), W3 (3 roles, H2, 24), b3 (3, 24).
NET_H1 = 0  # header: the two hidden sizes (exact in float32) and the input count it was made for
NET_H2 = 1
NET_N_IN = 2
NET_BIDDING = 3  # where the bidding nets start in the blob (0: the file has none; the heuristic bids)
NET_HEADER = 4


def net_size(h1: int, h2: int) -> int:
    """Floats in the packed blob of a card net with hidden sizes ``h1``, ``h2``."""
    return NET_HEADER + N_IN * h1 + h1 + h1 * h2 + h2 + 3 * h2 * 24 + 3 * 24


# ---- the bidding nets: two ladders of the declarer's final points --------------------------------
# Net B reads the 7-card hand before the talon, net C the 8 cards kept after the gifts. Each is one
# hidden layer (ReLU) and N_LADDER_OUT outputs: N_LADDER logits of "a contract of LADDER_LO +
# LADDER_STEP * i is made" (the declarer's card and marriage points, rounded as the rules round
# them, reach it) under the learned player's own play, then one linear value in hundreds: for B
# the seat's points as a defender, for C the defenders' points together.
LADDER_LO = 100
LADDER_STEP = 5
N_LADDER = 41  # contracts 100, 105, ..., 300
N_LADDER_OUT = N_LADDER + 1
L_HAND = 0  # 24: the hand (7 cards for B, the 8 kept for C)
L_RULES = 24  # 9: RULE_FLAGS
L_MARRIAGE_VALUE = 33  # 4 by suit, dense (hundreds)
L_ACE_MARRIAGE = 37  # dense (hundreds)
L_VALUE = 38  # C only, dense: the card net's value of the first lead after the gifts (hundreds)
B_N_IN = 38
C_N_IN = 39
# The bidding blob at w[NET_BIDDING]: a header, then B's W1 (B_N_IN, HB), b1, W2 (HB, N_LADDER_OUT),
# b2, then C's the same with C_N_IN and HC.
BH_HIDDEN_B = 0
BH_HIDDEN_C = 1
BH_DARK_VALUE = 2  # first hand's expected result of the dark game (points, doubled), from the playouts
BH_FIRST_VALUE = 3  # first hand's expected result of a normal deal by the bid rule, from the playouts
BID_HEADER = 4


def ladder_size(n_in: int, h: int) -> int:
    """Floats of one ladder net with ``n_in`` inputs and ``h`` hidden units."""
    return n_in * h + h + h * N_LADDER_OUT + N_LADDER_OUT


def bidding_size(hb: int, hc: int) -> int:
    """Floats of the bidding blob with hidden sizes ``hb`` (net B) and ``hc`` (net C)."""
    return BID_HEADER + ladder_size(B_N_IN, hb) + ladder_size(C_N_IN, hc)


# ---- the win-chance table of the score-aware player (learned-win) --------------------------------
# Appended to a model row after its bidding blob (at w[NET_BIDDING] + bidding_size(HB, HC)) for the
# seats of ``learned-win`` only: a header, then the chances of winning the game from the start of a
# deal, a cube (states, states, states) row-major over the seat's own state x the leading opponent's
# x the trailing opponent's (``analysis.win_chances.WinChanceTable.chances``). A score's state is
# its bin of WN_WIDTH points from WN_FLOOR (clipped to the bins below WN_TOP, the barrel or the
# target), or states - 1 on the barrel (``analysis.win_chances.Grid``). A row without the block
# holds zeros there (the rows are padded to the widest), so WN_STATES = 0 says "no table".
WN_STATES = 0
WN_FLOOR = 1
WN_WIDTH = 2
WN_TOP = 3
WN_TARGET = 4
WN_HAS_BARREL = 5
WIN_HEADER = 6


def win_size(states: int) -> int:
    """Floats of the win-chance block of a table of ``states`` score states."""
    return WIN_HEADER + states ** 3


# ---- a stored position (int64 row): every argument of the seat's decision, and the true hands --
P_HAND = 0  # 3 by engine seat: the cards each holds, this trick's cards removed (as the engine has them)
P_SEAT = 3
P_DECLARER = 4
P_LEADER = 5
P_N_IN_TRICK = 6
P_TRICK = 7  # 2: the cards played to this trick so far
P_TRUMP = 9
P_OWNER = 10
P_TRICKS = 11  # 3 by engine seat: tricks won
P_CARD_POINTS = 14  # 3
P_MARRIAGE_POINTS = 17  # 3
P_MARRIAGES = 20  # 3: declaration bits (play_nb)
P_CONTRACT = 23
P_PLAYED = 24  # cards gone, this trick's included
P_PLAYED_BY = 25  # 3: cards each seat played, this trick's included
P_VOIDS = 28  # 3
P_KNOWN = 31  # 3: the seat's row of know_cards (what it knows each seat holds)
P_LAST_BID = 34  # 3
P_LEGAL = 37
P_CAN_DECLARE = 38
P_CHOSEN = 39  # the card the recording seat played
P_N = 40

# The play rules the net reads (offsets into the rules array, sim.game.rules_layout names):
RULE_FLAGS = ("MUST_HEAD", "MARRIAGE_FIRST_LEAD", "MARRIAGE_BURNS_WITHOUT_TRICK", "MARRIAGE_OPTIONAL",
              "HALF_MARRIAGE", "ACE_MARRIAGE", "NO_LEAD_FOREIGN_TRUMP", "MUST_LEAD_TRUMP", "ROUND_DECLARER")
