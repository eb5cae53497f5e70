"""Named constants of the engine's kernels (in the manner of vectorbt's ``enums.py``): what a deal
returns, and the fixed amounts of the rules that no house rule changes.
"""

# ---- what a deal kernel returns ----------------------------------------------------------------
ILLEGAL = -1  # a player chose an illegal action (a bug, never expected; the known-answer tests' refusal)
REDEAL = 1  # the deal was thrown in: the same dealer deals again
ALL_PASSED = -2  # the auction's "declarer" when nobody bid

# ---- fixed amounts of the rules ----------------------------------------------------------------
DARK_CONTRACT = 120  # a dark game's bid
GOLDEN_CONTRACT = 120  # a golden-round deal's forced contract
UNDARK_BID = 125  # the least bid that undarks
GOLDEN_ROUND_REPLAYS = 3  # a golden round nobody made is replayed, at most this many rounds in all
ACCUMULATE_BID_CAP = 120  # barrel_accumulate: the sitter may not bid above this
THIRD_CONCESSION_PENALTY = 120  # concede_third_penalty: every third concession of a player costs this
REDEAL_LIMIT_PENALTY = 120  # redeal_limit_penalty: the dealer's third redeal in a row costs him this

# ---- seats ---------------------------------------------------------------------------------------
SITTER = 3  # players = 4: the slot of the dealer, who sits out the deal (see sim.game.state_layout)
