"""The players: their names and integer codes (``layout``), the heuristic player's parameters, and
the compiled players: ``random_nb``, ``heuristic_nb``, ``dd_nb`` (double dummy), ``pimc_nb`` and
``pimc2_nb`` (perfect-information Monte Carlo, 3 and 2 seats), ``scripted_nb`` (known-answer
tests). The engine reaches them only through ``seat_nb``, one function per kind of decision.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from sim.game.rules import HouseRules
from sim.players import layout
from sim.players.layout import N_HEURISTIC, N_HEURISTIC_COLUMNS, PLAYER_CODES

PIMC_WORLDS = 20  # worlds a PIMC seat samples per decision in games (HeuristicParams.pimc_worlds)


class PlayerError(ValueError):
    """An unknown player name or a wrong number of seats; the message names it."""


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the heuristic player, in one record so that later work can tune them.

    The hand-value weights come from a least-squares fit of the declarer's points (card points
    won + marriages) on these features over heuristic deals played to the end
    (``python -m analysis.calibrate --deals 200000 --rounds 2``); the margins are judgement: how
    sure the player wants to be.
    """

    # Value of an 8-card hand after the talon and discard: base + sum of card weights.
    base: float = -10.9
    ace: float = 26.65
    ten_with_ace: float = 9.29
    ten_side: float = 10.79  # ten without its ace, in a suit of three or more
    ten_bare: float = 8.3  # ten without its ace, in a suit of one or two
    king: float = -0.32  # a king or queen outside a marriage
    queen: float = -1.21
    marriage: float = 0.92  # share of a held marriage's value that the player realises
    marriage_cards: float = -3.93
    length: float = 12.26  # per card beyond three in a suit
    # Before the talon: talon + talon_scale × card weights + talon_marriage × chance value.
    talon: float = 18.4
    talon_scale: float = 0.94
    talon_marriage: float = 0.72
    # Decisions.
    risk: float = 10.0  # bid up to the estimate minus this
    raise_margin: float = 25.0  # raise the final contract only this far below the estimate
    concede_margin: float = 25.0  # concede when the estimate falls this far short of the contract
    block_margin: float = 20.0  # extra overbid to stop a player on the barrel from winning
    dark_deficit: float = 400.0  # go dark (where allowed) when this far behind the leading opponent
    pimc_worlds: float = float(PIMC_WORLDS)  # worlds a PIMC player samples per decision

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_HEURISTIC, dtype=np.float64)
        for f in fields(self):
            a[getattr(layout, "H_" + f.name.upper())] = getattr(self, f.name)
        return a

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


# The hand-value weights refitted on 2-player deals
# (``python -m analysis.calibrate --deals 300000 --rounds 3 --players 2``):
# ten cards, a talon of two and the buried cards make a hand worth more than in the 3-player game.
# Residual sd 33 points after the talon, 44 before.
TWO_PLAYER_WEIGHTS: dict[str, float] = {
    "base": 31.04, "ace": 16.06, "ten_with_ace": 9.23, "ten_side": 6.10, "ten_bare": 21.04, "king": 0.15,
    "queen": -1.24, "marriage": 0.90, "marriage_cards": -9.11, "length": 5.86,
    "talon": 26.44, "talon_scale": 1.00, "talon_marriage": 0.64,
}


def default_params(players: int = 3) -> HeuristicParams:
    """The heuristic player's weights for a game of ``players`` (4 plays 3-player deals)."""
    return HeuristicParams(**TWO_PLAYER_WEIGHTS) if players == 2 else HeuristicParams()


PLAYER_NAMES = tuple(PLAYER_CODES)


def parse_players(spec: str | list[str] | tuple[str, ...], n: int = 3) -> tuple[str, ...]:
    """``"heuristic"`` (every seat) or ``"heuristic,random,random"`` (seat by seat, ``n`` seats)."""
    names = [n_.strip().lower() for n_ in (spec.split(",") if isinstance(spec, str) else spec)]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise PlayerError(f"players {spec!r}: give one player for every seat or {_WORDS.get(n, n)}, comma-separated"
                          + ("" if n == 3 else f" (players = {n})"))
    for name in names:
        if name not in PLAYER_CODES:
            raise PlayerError(f"unknown player {name!r}; players are: {', '.join(PLAYER_NAMES)}")
    return tuple(names)


_WORDS = {2: "two", 3: "three", 4: "four"}


def player_codes(names: tuple[str, ...]) -> np.ndarray:
    return np.array([PLAYER_CODES[n] for n in names], dtype=np.int64)


def params_matrix(params: HeuristicParams | None = None, rules: HouseRules | None = None) -> np.ndarray:
    """The array kernels read, one row per seat: the weights, then hand-value tables derived
    from them and the rules' marriage values."""
    from sim.players.heuristic_nb import fill_suit_tables

    rules = rules or HouseRules()
    prm = np.zeros((max(3, rules.players), N_HEURISTIC_COLUMNS), dtype=np.float64)
    prm[:, :N_HEURISTIC] = (params or default_params(rules.players)).to_array()
    fill_suit_tables(prm, rules.to_array())
    return prm


def seat_buffers(table_log2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """New buffers of a searching seat (dd or pimc): the solver's state, move rows and table of
    2**table_log2 rows, and the PIMC worlds' scratch."""
    from sim.players.pimc_nb import new_pimc_buffer
    from sim.solver import search_buffers

    return (*search_buffers(table_log2), new_pimc_buffer())
