"""Player codes (how compiled code names a seat's player) and the layout of the heuristic
parameter row that every player's kernels read (``sim.players.params.HeuristicParams.to_array`` fills
the weights, ``heuristic_nb.fill_suit_tables`` the per-suit tables after them).
"""

__all__ = [
    "PLAYER_RANDOM", "PLAYER_HEURISTIC", "PLAYER_DD", "PLAYER_PIMC", "PLAYER_LEADAGE",
    "PLAYER_LEARNED", "PLAYER_LEARNED_CARDS", "PLAYER_LEARNED_WIN", "PLAYER_SCRIPTED", "PLAYER_PIMC_INF",
    "PLAYER_LEARNED_INF",
    "PLAYER_CODES", "H_BASE",
    "H_TALON", "H_ACE",
    "H_TEN_WITH_ACE", "H_TEN_SIDE", "H_TEN_BARE", "H_KING", "H_QUEEN", "H_MARRIAGE", "H_MARRIAGE_CARDS",
    "H_TALON_MARRIAGE", "H_LENGTH", "H_RISK", "H_RAISE_MARGIN", "H_CONCEDE_MARGIN", "H_BLOCK_MARGIN", "H_TALON_SCALE",
    "H_DARK_DEFICIT", "H_PIMC_WORLDS", "H_BARREL_RISK", "H_NET", "H_EPSILON", "H_GIFT_CANDIDATES", "H_OPPONENT_WEIGHT",
    "H_BID_LIMIT", "H_SEARCH_CARDS", "H_SEARCH_WORLDS", "H_SEARCH_MARGIN", "H_INFERENCE_TEMPERATURE",
    "H_INFERENCE_CANDIDATES", "H_CONTRACT_RULE", "H_CONTRACT_MARGIN", "CONTRACT_HEURISTIC", "CONTRACT_WORLDS",
    "ALWAYS_SEARCH", "N_HEURISTIC", "H_SCORE_TABLE", "H_CHANCE_TABLE", "N_HEURISTIC_COLUMNS",
]

# ---- player codes ---------------------------------------------------------------------------
PLAYER_RANDOM = 0
PLAYER_HEURISTIC = 1
PLAYER_DD = 2  # double dummy: sees every hand; bids like the heuristic player
PLAYER_PIMC = 3  # averages double-dummy values over worlds it cannot tell apart; bids like the heuristic
# 5 was pimc-fast, PIMC with worlds added until the best card is clear: an experiment that lost
# strength, gone after 0.9.1 (docs/pimc.md; its code at commit 92c9419). The number stays unused.
PLAYER_LEADAGE = 4  # the computer opponent of Leadage/tysyacha-1000, ported (leadage_nb); 3 and 4 players
PLAYER_LEARNED = 6  # plays the card a net trained on the exact solver's values rates best (learned.cards_nb)
PLAYER_LEARNED_CARDS = 7  # the learned player's cards with the PIMC player's gifts (card play alone against pimc)
# The learned player whose bids and final contract weigh the chance of winning the game (learned.win_nb)
PLAYER_LEARNED_WIN = 8
PLAYER_SCRIPTED = 9  # plays a given list of actions (known-answer tests); not a user's choice
# PIMC whose worlds are weighed by the other seats' calls under the learned player's bidding
# (pimc_inf_nb); bids as the heuristic, as pimc does
PLAYER_PIMC_INF = 10
# The learned player whose search of its last cards draws its worlds as pimc-inf does (weighed by the
# other seats' calls; pimc_inf_nb.pimc_inf_choose_card); everything else is the learned player's
PLAYER_LEARNED_INF = 11
PLAYER_CODES = {"random": PLAYER_RANDOM, "heuristic": PLAYER_HEURISTIC, "dd": PLAYER_DD, "pimc": PLAYER_PIMC,
                "leadage": PLAYER_LEADAGE, "learned": PLAYER_LEARNED, "learned-cards": PLAYER_LEARNED_CARDS,
                "learned-win": PLAYER_LEARNED_WIN, "pimc-inf": PLAYER_PIMC_INF,
                "learned-inf": PLAYER_LEARNED_INF}

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
H_BARREL_RISK = 19
# Not weights: the learned seat's model (a row of the packed nets; -1 plays the heuristic's cards)
# and its exploration rate (training only). HeuristicParams has no such fields: they stay 0.
H_NET = 20
H_EPSILON = 21
H_GIFT_CANDIDATES = 22  # gift pairs a learned declarer values with its net
H_OPPONENT_WEIGHT = 23  # a learned declarer weighs the opponents' mean result this much against his own
# Not a weight either: a bidding line imposed on the seat whatever its player (the advisor's and the
# bid tables' "bid up to b" lines): 0 the player's own bidding, b > 0 raise by the least step while
# the raise is at most b, then pass (never dark), -1 pass at every turn.
H_BID_LIMIT = 24
# A learned seat plays its cards by the PIMC search over H_SEARCH_WORLDS worlds once it holds
# H_SEARCH_CARDS cards or fewer: the last tricks' searches are small, and the net errs there too.
H_SEARCH_CARDS = 25
H_SEARCH_WORLDS = 26
# ... and only where its net's best two legal cards are fewer than this many points apart
# (ALWAYS_SEARCH or more: always, without asking the net).
H_SEARCH_MARGIN = 27
ALWAYS_SEARCH = 1000.0
# A pimc-inf seat weighs its worlds at this temperature (points; 0: the calls' certain part only)
# and draws this many candidate worlds for each world it searches.
H_INFERENCE_TEMPERATURE = 28
H_INFERENCE_CANDIDATES = 29
# A pimc-inf declarer chooses his final contract (and concession) by this rule: CONTRACT_WORLDS
# (the default) the expected result over his discard's weighted worlds, each world's double-dummy
# value less H_CONTRACT_MARGIN points, CONTRACT_HEURISTIC the heuristic player's estimate (as pimc).
H_CONTRACT_RULE = 30
H_CONTRACT_MARGIN = 31
CONTRACT_HEURISTIC = 0
CONTRACT_WORLDS = 1
N_HEURISTIC = 32  # weights; the per-suit tables filled from them follow
H_SCORE_TABLE = N_HEURISTIC  # 4 suits × 64 holdings
H_CHANCE_TABLE = H_SCORE_TABLE + 256
N_HEURISTIC_COLUMNS = H_CHANCE_TABLE + 256
