"""Offsets into the arrays that compiled kernels share with Python: game state, deal and game
records, event bits and heuristic parameters. Kernels read these module constants at compile time.

A 2-player game (``players = 2``) uses slots 0 and 1 of every per-seat block; its deal table has
no ``gift`` columns but three of its own (``TWO_PLAYER_COLUMNS``): the second talon as dealt, the
two cards the declarer buried and the card he put into the second talon.

Every per-seat block has ``SLOTS`` = 4 entries, room for the 4-player game (``players = 4``); a
3-player game leaves the fourth at zero and its stored tables show seats 0..2 only
(``deal_columns(3)``, ``game_columns(3)``). In a 4-player deal the kernels work in *slots*: slots
0..2 are the three players of the deal from first hand on, slot 3 the dealer, who sits out; the
engine maps slots to seats before storing (slot ``s`` is seat ``(dealer + 1 + s) % 4``).
"""

SEATS = 3  # seats of the classic game
SLOTS = 4  # entries of every per-seat block in the kernels' arrays


def _per_seat(names, n):
    return [f"{name}{p}" for name in names for p in range(n)]


_DEAL_SEAT_GROUPS = ("gift", "card_points", "marriage_points", "marriages", "tricks", "result", "change", "score",
                     "bolt", "events")
_BID_COLUMNS = ["bid_turns", "bid_kind", "declarer", "winning_bid", "contract", "conceded", "made", "redeal"]
# players = 2: the talon the declarer did not take (as dealt), the two cards he put face down in
# place of the one he took (they count for him), and the card he put into the other talon
# (two_player_talon = 3; -1 otherwise), which goes to the winner of the last trick.
TWO_PLAYER_COLUMNS = ["other_talon", "buried", "talon_card"]


def deal_columns(n: int) -> list[str]:
    """Columns of the stored ``deals`` table of an ``n``-player run (seat columns end in 0..n-1)."""
    if n == 2:
        return (["game", "deal", "dealer"] + _per_seat(["hand"], n) + ["talon"] + TWO_PLAYER_COLUMNS
                + _per_seat(["bid"], n) + _BID_COLUMNS + _per_seat(_DEAL_SEAT_GROUPS[1:], n))
    return (["game", "deal", "dealer"] + _per_seat(["hand"], n) + ["talon"] + _per_seat(["bid"], n)
            + _BID_COLUMNS + _per_seat(_DEAL_SEAT_GROUPS, n))


_GAME_SEAT_GROUPS = ("score", "barrel_entries", "barrel_falls", "bolt_penalties", "dump_trucks", "zeroed")


def game_columns(n: int) -> list[str]:
    """Columns of the stored ``games`` table of an ``n``-player run (before ``finished``)."""
    return ["game", "deals", "winner", "first_dealer"] + _per_seat(_GAME_SEAT_GROUPS, n)


# ---- one row per deal (int32 columns; plays are stored apart as 24 card indices) ----------
DEAL_COLUMNS = deal_columns(SEATS)  # the 3-player table
KERNEL_DEAL_COLUMNS = deal_columns(SLOTS) + TWO_PLAYER_COLUMNS  # the kernels' record row
D_GAME = KERNEL_DEAL_COLUMNS.index("game")
D_DEAL = KERNEL_DEAL_COLUMNS.index("deal")
D_DEALER = KERNEL_DEAL_COLUMNS.index("dealer")
D_HAND = KERNEL_DEAL_COLUMNS.index("hand0")
D_TALON = KERNEL_DEAL_COLUMNS.index("talon")
D_BID = KERNEL_DEAL_COLUMNS.index("bid0")
D_BID_TURNS = KERNEL_DEAL_COLUMNS.index("bid_turns")
D_BID_KIND = KERNEL_DEAL_COLUMNS.index("bid_kind")
D_DECLARER = KERNEL_DEAL_COLUMNS.index("declarer")
D_WINNING_BID = KERNEL_DEAL_COLUMNS.index("winning_bid")
D_CONTRACT = KERNEL_DEAL_COLUMNS.index("contract")
D_CONCEDED = KERNEL_DEAL_COLUMNS.index("conceded")
D_MADE = KERNEL_DEAL_COLUMNS.index("made")
D_REDEAL = KERNEL_DEAL_COLUMNS.index("redeal")
D_GIFT = KERNEL_DEAL_COLUMNS.index("gift0")
D_CARD_POINTS = KERNEL_DEAL_COLUMNS.index("card_points0")
D_MARRIAGE_POINTS = KERNEL_DEAL_COLUMNS.index("marriage_points0")
D_MARRIAGES = KERNEL_DEAL_COLUMNS.index("marriages0")
D_TRICKS = KERNEL_DEAL_COLUMNS.index("tricks0")
D_RESULT = KERNEL_DEAL_COLUMNS.index("result0")
D_CHANGE = KERNEL_DEAL_COLUMNS.index("change0")
D_SCORE = KERNEL_DEAL_COLUMNS.index("score0")
D_BOLT = KERNEL_DEAL_COLUMNS.index("bolt0")
D_EVENTS = KERNEL_DEAL_COLUMNS.index("events0")
D_OTHER_TALON = KERNEL_DEAL_COLUMNS.index("other_talon")
D_BURIED = KERNEL_DEAL_COLUMNS.index("buried")
D_TALON_CARD = KERNEL_DEAL_COLUMNS.index("talon_card")
N_DEAL_COLUMNS = len(KERNEL_DEAL_COLUMNS)
# First columns of the per-seat blocks of a record row (the 4-player engine permutes them).
D_SEAT_BLOCKS = (D_HAND, D_BID, D_GIFT, D_CARD_POINTS, D_MARRIAGE_POINTS, D_MARRIAGES, D_TRICKS, D_RESULT,
                 D_CHANGE, D_SCORE, D_BOLT, D_EVENTS)
N_PLAYS = 24

# ---- one row per game ------------------------------------------------------------------------
GAME_COLUMNS = game_columns(SEATS)
KERNEL_GAME_COLUMNS = game_columns(SLOTS)
N_GAME_COLUMNS = len(KERNEL_GAME_COLUMNS)

# ---- game state carried from deal to deal (int64) ---------------------------------------------
# Per-seat blocks of SLOTS entries first; those from G_SCORE to G_ZEROED are laid out exactly as
# the kernels' game record row.
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
G_SEAT_BLOCKS_END = 48
G_DEALER = 48
G_DEALS = 49
G_WINNER = 50
G_FIRST_DEALER = 51
G_REDEALS = 52  # redeals in a row by the current dealer (redeal_limit_penalty)
G_GOLDEN_LEFT = 53  # deals left in the current golden round (golden_round)
G_GOLDEN_ROUNDS = 54  # golden rounds begun
G_GOLDEN_MADE = 55  # somebody made his contract in the current golden round
N_GAME_STATE = 56
GAME_STATE_TO_RECORD = 4  # game record column of G_SCORE

# ---- events: bits of the per-seat ``events`` column ------------------------------------------
EV_WIN = 1 << 0
EV_BARREL_ON = 1 << 1  # reached the barrel and sits on it
EV_BARREL_STAY = 1 << 2  # on the barrel after this deal, not having won
EV_DEFENCE_IGNORED = 1 << 3  # sat on the barrel as a defender: points not recorded
EV_FALL_ATTEMPTS = 1 << 4  # used up his barrel attempts
EV_FALL_CONTRACT = 1 << 5  # failed (or conceded) a contract on the barrel
EV_KNOCKED_OFF = 1 << 6  # another player reached the barrel
EV_SIMULTANEOUS = 1 << 7  # reached the barrel together with another player
EV_FALL_TO_ZERO = 1 << 8  # a counted fall set the score to zero
EV_BOLT_PENALTY = 1 << 9
EV_DUMP_TRUCK = 1 << 10
EV_REDEAL_PENALTY = 1 << 11  # the dealer's third redeal in a row: he pays, the deal is played
EV_GOLDEN_RESET = 1 << 12  # nobody made a golden-round contract: scores back to zero
EVENT_NAMES = {
    EV_WIN: "win", EV_BARREL_ON: "barrel_on", EV_BARREL_STAY: "barrel_stay",
    EV_DEFENCE_IGNORED: "defence_ignored", EV_FALL_ATTEMPTS: "fall_attempts",
    EV_FALL_CONTRACT: "fall_contract", EV_KNOCKED_OFF: "knocked_off",
    EV_SIMULTANEOUS: "simultaneous", EV_FALL_TO_ZERO: "fall_to_zero",
    EV_BOLT_PENALTY: "bolt_penalty", EV_DUMP_TRUCK: "dump_truck", EV_REDEAL_PENALTY: "redeal_penalty",
    EV_GOLDEN_RESET: "golden_reset",
}

# ---- how a deal was bid (the ``bid_kind`` column) --------------------------------------------------
BID_NORMAL = 0
BID_DARK = 1  # first hand went dark: 120, doubled
BID_GOLDEN = 2  # a golden-round deal: first hand's forced 120, doubled
BID_UNDARKED = 3  # first hand went dark, another player undarked: bidding went on as usual

# ---- why a deal was not played (the ``redeal`` column) ----------------------------------------
REDEAL_NONE = 0
REDEAL_ALL_PASSED = 1  # forced_first_bid off and every player passed
REDEAL_HAND_POINTS = 2  # a 7-card hand under redeal_hand_points_below
REDEAL_FOUR_NINES = 3
REDEAL_THREE_NINES = 4
REDEAL_FOUR_ACES = 5  # forced, not asked
REDEAL_TALON_POINTS = 6
REDEAL_TALON_TWO_NINES = 7
REDEAL_TALON_THREE_JACKS = 8
REDEAL_FOUR_NINES_AFTER_TALON = 9

# ---- player codes ---------------------------------------------------------------------------
PLAYER_RANDOM = 0
PLAYER_HEURISTIC = 1
PLAYER_DD = 2  # double dummy: sees every hand; bids like the heuristic player
PLAYER_PIMC = 3  # averages double-dummy values over worlds it cannot tell apart; bids like the heuristic
PLAYER_SCRIPTED = 9  # plays a given list of actions (known-answer tests); not a user's choice
PLAYER_CODES = {"random": PLAYER_RANDOM, "heuristic": PLAYER_HEURISTIC, "dd": PLAYER_DD, "pimc": PLAYER_PIMC}

# ---- heuristic parameters (float64 row per seat) --------------------------------------------
H_BASE = 0
H_TALON = 1
H_ACE = 2
H_TEN_WITH_ACE = 3
H_TEN_SIDE = 4
H_TEN_BARE = 5
H_KING = 6
H_QUEEN = 7
H_MARRIAGE = 8
H_MARRIAGE_CARDS = 9
H_TALON_MARRIAGE = 10
H_LENGTH = 11
H_RISK = 12
H_RAISE_MARGIN = 13
H_CONCEDE_MARGIN = 14
H_BLOCK_MARGIN = 15
H_TALON_SCALE = 16
H_DARK_DEFICIT = 17
H_PIMC_WORLDS = 18
N_HEURISTIC = 19  # weights; the per-suit tables filled from them follow
H_SCORE_TABLE = N_HEURISTIC  # 4 suits × 64 holdings
H_CHANCE_TABLE = H_SCORE_TABLE + 256
N_HEURISTIC_COLUMNS = H_CHANCE_TABLE + 256
