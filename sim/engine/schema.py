"""The stored tables' schema, in one file: the columns of the ``deals`` and ``games`` tables, the
kernels' record rows they are cut from, their Polars types, and the codes stored in them (event
bits, how a deal was bid, why it was thrown in). docs/RULES.md documents every column.

A 2-player game (``players = 2``) uses slots 0 and 1 of every per-seat block; its deal table has
no ``gift`` columns but three of its own (``TWO_PLAYER_COLUMNS``): the second talon as dealt, the
two cards the declarer buried and the card he put into the second talon. A 3-player game's
stored tables show seats 0..2 only (``deal_columns(3)``, ``game_columns(3)``); a 4-player deal is
stored by seat (slot ``s`` of the kernels is seat ``(dealer + 1 + s) % 4``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sim.game.state_layout import G_SCORE, SEATS, SLOTS

if TYPE_CHECKING:
    import polars as pl

__all__ = [
    "TWO_PLAYER_COLUMNS", "deal_columns", "game_columns", "DEAL_COLUMNS", "KERNEL_DEAL_COLUMNS", "D_GAME", "D_DEAL",
    "D_DEALER", "D_HAND", "D_TALON", "D_BID", "D_BID_TURNS", "D_BID_KIND", "D_DECLARER", "D_WINNING_BID", "D_CONTRACT",
    "D_CONCEDED", "D_MADE", "D_REDEAL", "D_GIFT", "D_CARD_POINTS", "D_MARRIAGE_POINTS", "D_MARRIAGES", "D_TRICKS",
    "D_RESULT", "D_CHANGE", "D_SCORE", "D_BOLT", "D_EVENTS", "D_OTHER_TALON", "D_BURIED", "D_TALON_CARD",
    "N_DEAL_COLUMNS", "D_SEAT_BLOCKS", "N_PLAYS", "GAME_COLUMNS", "KERNEL_GAME_COLUMNS", "N_GAME_COLUMNS",
    "GAME_STATE_TO_RECORD", "EV_WIN", "EV_BARREL_ON", "EV_BARREL_STAY", "EV_DEFENCE_IGNORED", "EV_FALL_ATTEMPTS",
    "EV_FALL_CONTRACT", "EV_KNOCKED_OFF", "EV_SIMULTANEOUS", "EV_FALL_TO_ZERO", "EV_BOLT_PENALTY", "EV_DUMP_TRUCK",
    "EV_REDEAL_PENALTY", "EV_GOLDEN_RESET", "EV_NO_WIN_PENALTY", "EV_BARREL_OFF", "EVENT_NAMES",
    "BID_NORMAL", "BID_DARK", "BID_GOLDEN", "BID_UNDARKED",
    "REDEAL_NONE", "REDEAL_ALL_PASSED", "REDEAL_HAND_POINTS", "REDEAL_FOUR_NINES", "REDEAL_THREE_NINES",
    "REDEAL_FOUR_ACES", "REDEAL_TALON_POINTS", "REDEAL_TALON_TWO_NINES", "REDEAL_TALON_THREE_JACKS",
    "REDEAL_FOUR_NINES_AFTER_TALON", "KERNEL_DEAL_INDEX", "KERNEL_GAME_INDEX", "deals_frame", "games_frame",
]


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

# The game state's per-seat counters (G_SCORE .. G_ZEROED) are copied to the game record from this column on.
GAME_STATE_TO_RECORD = KERNEL_GAME_COLUMNS.index("score0") - G_SCORE

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
EV_NO_WIN_PENALTY = 1 << 13  # a third no-win deal (no_win_penalty)
EV_BARREL_OFF = 1 << 14  # left the range barrel downward (barrel_freeze = false): no penalty, not a fall
EVENT_NAMES = {
    EV_WIN: "win", EV_BARREL_ON: "barrel_on", EV_BARREL_STAY: "barrel_stay",
    EV_DEFENCE_IGNORED: "defence_ignored", EV_FALL_ATTEMPTS: "fall_attempts",
    EV_FALL_CONTRACT: "fall_contract", EV_KNOCKED_OFF: "knocked_off",
    EV_SIMULTANEOUS: "simultaneous", EV_FALL_TO_ZERO: "fall_to_zero",
    EV_BOLT_PENALTY: "bolt_penalty", EV_DUMP_TRUCK: "dump_truck", EV_REDEAL_PENALTY: "redeal_penalty",
    EV_GOLDEN_RESET: "golden_reset", EV_NO_WIN_PENALTY: "no_win_penalty", EV_BARREL_OFF: "barrel_off",
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


# ---- the stored tables as Polars frames ------------------------------------------------------
# Polars types by column (a per-seat column by its name without the seat digit; Int16 otherwise),
# named rather than imported so that the kernels, which read this module, never load Polars.
_DEAL_DTYPES = {
    "game": "Int64", "deal": "Int32", "dealer": "Int8", "hand": "UInt32", "talon": "UInt32",
    "bid": "Int16", "bid_turns": "Int16", "declarer": "Int8", "winning_bid": "Int16",
    "contract": "Int16", "conceded": "Boolean", "made": "Boolean", "gift": "Int8",
    "card_points": "Int16", "marriage_points": "Int16", "marriages": "UInt16", "tricks": "Int8",
    "result": "Int16", "change": "Int16", "score": "Int32", "bolt": "Int8", "events": "UInt16",
    "bid_kind": "Int8", "redeal": "Int8", "other_talon": "UInt32", "buried": "UInt32", "talon_card": "Int8",
}
_GAME_DTYPES = {"game": "Int64", "deals": "Int32", "winner": "Int8", "first_dealer": "Int8", "score": "Int32"}


def _dtype(name: str, table: dict):
    import polars as pl

    return getattr(pl, table.get(name, table.get(name.rstrip("0123"), "Int16")))


KERNEL_DEAL_INDEX = {name: j for j, name in enumerate(KERNEL_DEAL_COLUMNS)}
KERNEL_GAME_INDEX = {name: j for j, name in enumerate(KERNEL_GAME_COLUMNS)}


def deals_frame(rec: np.ndarray, plays: np.ndarray, players: int = 3) -> pl.DataFrame:
    """Deal records (kernel layout) → a typed frame of an ``players``-player run (seat columns
    0..players-1); ``plays`` holds the 24 cards in play order (-1 for a conceded deal)."""
    import polars as pl

    cols = {name: pl.Series(name, rec[:, KERNEL_DEAL_INDEX[name]]).cast(_dtype(name, _DEAL_DTYPES))
            for name in deal_columns(players)}
    cols["plays"] = pl.Series("plays", plays, dtype=pl.Array(pl.Int8, N_PLAYS))
    return pl.DataFrame(cols)


def games_frame(grec: np.ndarray, players: int = 3) -> pl.DataFrame:
    """Game records (kernel layout) → a typed frame of an ``players``-player run, with ``finished``."""
    import polars as pl

    cols = {name: pl.Series(name, grec[:, KERNEL_GAME_INDEX[name]]).cast(_dtype(name, _GAME_DTYPES))
            for name in game_columns(players)}
    df = pl.DataFrame(cols)
    return df.with_columns(finished=pl.col("winner") >= 0)
