"""Offsets into the arrays that compiled kernels share with Python: game state, deal and game
records, event bits and heuristic parameters. Kernels read these module constants at compile time.
"""

SEATS = 3


def _per_seat(*names):
    return [f"{n}{p}" for n in names for p in range(SEATS)]


# ---- one row per deal (int32 columns; plays are stored apart as 24 card indices) ----------
DEAL_COLUMNS = (
    ["game", "deal", "dealer"]
    + _per_seat("hand")
    + ["talon"]
    + _per_seat("bid")
    + ["bid_turns", "bid_kind", "declarer", "winning_bid", "contract", "conceded", "made", "redeal"]
    + _per_seat("gift", "card_points", "marriage_points", "marriages", "tricks", "result",
                "change", "score", "bolt", "events")
)
D_GAME = DEAL_COLUMNS.index("game")
D_DEAL = DEAL_COLUMNS.index("deal")
D_DEALER = DEAL_COLUMNS.index("dealer")
D_HAND = DEAL_COLUMNS.index("hand0")
D_TALON = DEAL_COLUMNS.index("talon")
D_BID = DEAL_COLUMNS.index("bid0")
D_BID_TURNS = DEAL_COLUMNS.index("bid_turns")
D_BID_KIND = DEAL_COLUMNS.index("bid_kind")
D_DECLARER = DEAL_COLUMNS.index("declarer")
D_WINNING_BID = DEAL_COLUMNS.index("winning_bid")
D_CONTRACT = DEAL_COLUMNS.index("contract")
D_CONCEDED = DEAL_COLUMNS.index("conceded")
D_MADE = DEAL_COLUMNS.index("made")
D_REDEAL = DEAL_COLUMNS.index("redeal")
D_GIFT = DEAL_COLUMNS.index("gift0")
D_CARD_POINTS = DEAL_COLUMNS.index("card_points0")
D_MARRIAGE_POINTS = DEAL_COLUMNS.index("marriage_points0")
D_MARRIAGES = DEAL_COLUMNS.index("marriages0")
D_TRICKS = DEAL_COLUMNS.index("tricks0")
D_RESULT = DEAL_COLUMNS.index("result0")
D_CHANGE = DEAL_COLUMNS.index("change0")
D_SCORE = DEAL_COLUMNS.index("score0")
D_BOLT = DEAL_COLUMNS.index("bolt0")
D_EVENTS = DEAL_COLUMNS.index("events0")
N_DEAL_COLUMNS = len(DEAL_COLUMNS)
N_PLAYS = 24

# ---- one row per game ------------------------------------------------------------------------
GAME_COLUMNS = (
    ["game", "deals", "winner", "first_dealer"]
    + _per_seat("score", "barrel_entries", "barrel_falls", "bolt_penalties", "dump_trucks", "zeroed")
)
N_GAME_COLUMNS = len(GAME_COLUMNS)

# ---- game state carried from deal to deal (int64) ---------------------------------------------
# The per-seat blocks from G_SCORE to G_ZEROED are laid out exactly as the game record's.
G_SCORE = 0
G_BARREL_ENTRIES = 3
G_BARREL_FALLS = 6
G_BOLT_PENALTIES = 9
G_DUMP_TRUCKS = 12
G_ZEROED = 15
G_ON_BARREL = 18
G_ATTEMPTS = 21
G_FALLS = 24  # falls since the last reset to zero
G_BOLTS = 27  # bolts since the last penalty
G_DEALER = 30
G_DEALS = 31
G_WINNER = 32
G_FIRST_DEALER = 33
G_CONCESSIONS = 34  # concessions so far in the game (concede_limit, concede_third_penalty)
G_QUIET = 37  # deals in a row without declaring (bolt_on = three_passes)
G_REDEALS = 40  # redeals in a row by the current dealer (redeal_limit_penalty)
G_GOLDEN_LEFT = 41  # deals left in the current golden round (golden_round)
G_GOLDEN_ROUNDS = 42  # golden rounds begun
G_GOLDEN_MADE = 43  # somebody made his contract in the current golden round
N_GAME_STATE = 44
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
