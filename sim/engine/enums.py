"""Named constants of the engine's kernels (in the manner of vectorbt's ``enums.py``): what a deal
returns, and the fixed amounts of the rules that no house rule changes (defined in
``sim.game.amounts``, where the players' kernels read them too).
"""

__all__ = ["ILLEGAL", "REDEAL", "ALL_PASSED", "SITTER"]

# ---- what a deal kernel returns ----------------------------------------------------------------
ILLEGAL = -1  # a player chose an illegal action (a bug, never expected; the known-answer tests' refusal)
REDEAL = 1  # the deal was thrown in: the same dealer deals again
ALL_PASSED = -2  # the auction's "declarer" when nobody bid

# ---- fixed amounts of the rules: defined in sim.game.amounts (players read them too) --------------
from sim.game.amounts import (  # noqa: E402, F401
    ACCUMULATE_BID_CAP,
    DARK_CONTRACT,
    GOLDEN_CONTRACT,
    GOLDEN_ROUND_REPLAYS,
    REDEAL_LIMIT_PENALTY,
    THIRD_CONCESSION_PENALTY,
    UNDARK_BID,
)

# ---- seats ---------------------------------------------------------------------------------------
SITTER = 3  # players = 4: the slot of the dealer, who sits out the deal (see sim.game.state_layout)
