"""The parts of a deal record (``sim.records.record``) that the walk reads too: a seat's standing
before the deal, a call of the auction, a gift, a card played, and the special values of a call and
a gift."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PASS", "DARK", "UNKNOWN", "SeatState", "Call", "Gift", "Play"]

PASS = 0  # a call's bid: a pass
DARK = -1  # a call's bid: the forced seat goes dark
UNKNOWN = -1  # a gift's card the viewer has not seen


@dataclass(frozen=True)
class SeatState:
    """One seat's standing before the deal (``sim.engine.GameState``'s fields): its score, whether it
    sits on the barrel, barrel attempts used, falls since the score was last set to zero, bolts
    toward the penalty, deals in a row without declaring (bolt_on = three_passes), no-win deals
    (no_win_penalty) and concessions so far (concede_limit)."""

    score: int = 0
    barrel: bool = False
    attempts: int = 0
    falls: int = 0
    bolts: int = 0
    passes: int = 0
    nowins: int = 0
    concessions: int = 0


@dataclass(frozen=True)
class Call:
    """One call of the auction: ``seat`` bids ``bid`` (PASS, DARK, or a value)."""

    seat: int
    bid: int


@dataclass(frozen=True)
class Gift:
    """A card the declarer gives away (UNKNOWN when the viewer did not see it) and its receiver."""

    card: int
    to: int


@dataclass(frozen=True)
class Play:
    """A card played; ``declared``: its lead declares a marriage (a half marriage, the four aces)."""

    card: int
    declared: bool = False
