"""The fixed amounts of the rules that no house rule changes (RULES.md), read by the engine
(``sim.engine.enums`` names them too) and by the players that weigh them.
"""

__all__ = [
    "DARK_CONTRACT", "GOLDEN_CONTRACT", "UNDARK_BID", "GOLDEN_ROUND_REPLAYS", "ACCUMULATE_BID_CAP",
    "THIRD_CONCESSION_PENALTY", "REDEAL_LIMIT_PENALTY",
]

DARK_CONTRACT = 120  # a dark game's bid
GOLDEN_CONTRACT = 120  # a golden-round deal's forced contract
UNDARK_BID = 125  # the least bid that undarks
GOLDEN_ROUND_REPLAYS = 3  # a golden round nobody made is replayed, at most this many rounds in all
ACCUMULATE_BID_CAP = 120  # barrel_accumulate: the sitter may not bid above this
THIRD_CONCESSION_PENALTY = 120  # concede_third_penalty: every third concession of a player costs this
REDEAL_LIMIT_PENALTY = 120  # redeal_limit_penalty: the dealer's third redeal in a row costs him this
