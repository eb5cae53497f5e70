"""The players: their names and integer codes (``layout``), the heuristic player's parameters (also
from TOML player files), and the compiled players: ``random_nb``, ``heuristic_nb``, ``dd_nb``
(double dummy), ``pimc_nb`` and ``pimc2_nb`` (perfect-information Monte Carlo, 3 and 2 seats),
``leadage_nb`` (a published bot, ported), ``scripted_nb`` (known-answer tests). The engine
reaches them only through ``seat_nb``, one function per kind of decision.
"""

from __future__ import annotations

import csv
import math
import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import numpy as np

from sim import InputError
from sim.game.rules import HouseRules
from sim.players import layout
from sim.players.layout import N_HEURISTIC, N_HEURISTIC_COLUMNS, PLAYER_CODES

__all__ = [
    "PIMC_WORLDS", "MAX_PIMC_WORLDS", "GIFT_CANDIDATES", "PlayerError", "HeuristicParams", "TWO_PLAYER_WEIGHTS",
    "default_params", "PLAYER_NAMES", "LEARNED_TYPES", "player_type", "is_learned", "weights_file", "parse_players",
    "player_codes", "learned_weights_files", "learned_nets", "row_seats", "params_matrix", "seat_params",
    "load_player_file", "PARAMETERISED_PLAYERS", "SEARCHING_PLAYERS", "seat_buffers", "seat_tuple",
    "MAX_GIFT_CANDIDATES",
]

PIMC_WORLDS = 20  # worlds a PIMC seat samples per decision in games (HeuristicParams.pimc_worlds)
# The most worlds a PIMC decision may average over, wherever the number comes from (a player file's
# pimc_worlds, the advisor's and the bid tables' --worlds): a decision's cost grows with it, and at
# 1,000 one deal with three PIMC seats already takes minutes of a core.
MAX_PIMC_WORLDS = 1000
# Gift pairs a learned declarer values with its net, cheapest first (learned_nb.learned_discard).
GIFT_CANDIDATES = 4
MAX_GIFT_CANDIDATES = 90  # every ordered pair of two gifts from the declarer's ten cards


class PlayerError(InputError):
    """An unknown player name or a wrong number of seats; the message names it."""


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the heuristic player, in one record so that later work can tune them.

    The hand-value weights come from a least-squares fit of the declarer's points (card points
    won + marriages) on these features over heuristic deals played to the end
    (``python -m analysis.bids.calibrate --deals 200000 --rounds 2``); the margins are judgement: how
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
    barrel_risk: float = -30.0  # on the barrel, bid (and contract) its minimum when the estimate less this reaches it
    raise_margin: float = 25.0  # raise the final contract only this far below the estimate
    concede_margin: float = 60.0  # concede when the estimate falls this far short of the contract
    block_margin: float = 20.0  # extra overbid to stop a player on the barrel from winning
    dark_deficit: float = 400.0  # go dark (where allowed) when this far behind the leading opponent
    pimc_worlds: float = float(PIMC_WORLDS)  # worlds a PIMC player samples per decision
    gift_candidates: float = float(GIFT_CANDIDATES)  # gift pairs a learned declarer values with its net
    # How much a learned declarer weighs the opponents' mean result against his own when he weighs
    # a concession (1: what a duplicate match compares, his result less theirs).
    opponent_weight: float = 1.0
    # A learned seat searches its cards as the PIMC player does, over search_worlds worlds, once it
    # holds search_cards cards or fewer (0: never). The last three tricks over 6 worlds gained 0.74
    # [0.50, 0.98] points a deal on the net alone and kept it under 50 times the heuristic's time a
    # deal (docs/learned.md, "Strength" and "Speed"); deeper searches gain more but cost 3 to 80
    # times that (4 cards over 6 worlds 130, 6 over 20 about 4,000 times the heuristic's time). Training
    # plays the net alone.
    search_cards: float = 3.0
    search_worlds: float = 6.0
    # ... where its net's best two legal cards are fewer points apart than this (1000: always).
    search_margin: float = 1000.0

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_HEURISTIC, dtype=np.float64)
        for f in fields(self):
            a[getattr(layout, "H_" + f.name.upper())] = getattr(self, f.name)
        return a

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


# The hand-value weights refitted on 2-player deals
# (``python -m analysis.bids.calibrate --deals 300000 --rounds 3 --players 2``):
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


# The learned players: "learned" plays the net's cards with the heuristic's bids, contract and gifts;
# "learned-cards" gives pimc's gifts instead, so that against pimc only the card play differs.
# "TYPE:PATH" plays the weights file PATH instead of the shipped one.
LEARNED_TYPES = ("learned", "learned-cards")


def player_type(name: str) -> str:
    """The player type of a seat's name (``learned:PATH`` is a learned player)."""
    kind = name.split(":", 1)[0]
    return kind if kind in LEARNED_TYPES else name


def is_learned(name: str) -> bool:
    return player_type(name) in LEARNED_TYPES


def weights_file(name: str) -> Path:
    """The weights file a learned seat of this name plays."""
    from sim.players.learned_weights import DEFAULT_WEIGHTS

    return Path(name.split(":", 1)[1]) if ":" in name else DEFAULT_WEIGHTS


def _normal_name(name: str) -> str:
    name = name.strip()
    kind, sep, rest = name.partition(":")
    if sep and kind.lower() in LEARNED_TYPES:
        return kind.lower() + ":" + rest  # a path keeps its case
    return name.lower()


def parse_players(spec: str | list[str] | tuple[str, ...], n: int = 3) -> tuple[str, ...]:
    """``"heuristic"`` (every seat) or ``"heuristic,random,random"`` (seat by seat, ``n`` seats);
    ``learned:PATH`` names a learned player with the weights file PATH (checked here). A player
    holding a comma (a weights path) is quoted as in CSV: ``'"learned:a,b.npz",heuristic,heuristic'``."""
    names = [_normal_name(n_) for n_ in (_split_players(spec) if isinstance(spec, str) else spec)]
    # where a weights path holding a comma was cut in two, the way to give it
    hint = _COMMA_HINT if isinstance(spec, str) and ":" in spec and "," in spec else ""
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise PlayerError(f"players {spec!r}: give one player for every seat or {_WORDS.get(n, n)}, comma-separated"
                          + ("" if n == 3 else f" (players = {n})") + hint)
    for name in names:
        if player_type(name) not in PLAYER_CODES:
            raise PlayerError(f"unknown player {name!r}; players are: {', '.join(PLAYER_NAMES)}, or learned:PATH "
                              "(the weights file PATH of `thousand train`)" + hint)
        if is_learned(name) and ":" in name and not name.split(":", 1)[1].strip():
            raise PlayerError(f"player {name!r} names no weights file: give learned:PATH, PATH the weights file of "
                              "`thousand train`")
    for path in learned_weights_files(names):
        from sim.players.learned_weights import load_weights

        load_weights(path)  # a WeightsError names the file and what is wrong
    if n == 2 and any(is_learned(name) for name in names):
        raise PlayerError("the learned player plays 3 and 4 players, not players = 2: no weights are trained for the "
                          "2-player deal")
    if n == 2 and "leadage" in names:
        raise PlayerError("the leadage player (the ported tysyacha-1000 bot) plays 3 and 4 players only, as its "
                          "source does, not players = 2")
    return tuple(names)


_WORDS = {2: "two", 3: "three", 4: "four"}
_COMMA_HINT = ("; a weights path holding a comma is given in double quotes, as in CSV: "
               "'\"learned:PATH\",heuristic,heuristic' (or in a player file's weights)")


def _split_players(spec: str) -> list[str]:
    """The comma-separated players of ``spec``, an item in double quotes keeping its commas (CSV)."""
    return next(csv.reader([spec], skipinitialspace=True), None) or [""]


def player_codes(names: tuple[str, ...]) -> np.ndarray:
    return np.array([PLAYER_CODES[player_type(n)] for n in names], dtype=np.int64)


def learned_weights_files(names: Sequence[str]) -> list[Path]:
    """The distinct weights files the learned seats of ``names`` play, in order of first seat
    (``learned``: the shipped weights)."""
    files: list[Path] = []
    for name in names:
        if is_learned(name) and weights_file(name) not in files:
            files.append(weights_file(name))
    return files


def learned_nets(names: Sequence[str], prm: np.ndarray, n: int) -> np.ndarray | None:
    """The packed nets of the learned seats of ``names`` (one row per distinct weights file), or
    None when no seat is learned; sets each learned seat's H_NET in the parameter rows ``prm``
    (``params_matrix``'s layout: with four players, block k's row s is seat (s + k) % 4)."""
    from sim.players.layout import H_NET
    from sim.players.learned_weights import weights_matrix

    files = learned_weights_files(names)
    if not files:
        return None
    row_of = {seat: files.index(weights_file(name)) for seat, name in enumerate(names) if is_learned(name)}
    for r, seat in enumerate(row_seats(n)):
        if seat in row_of:
            prm[r, H_NET] = row_of[seat]
    return weights_matrix(files)[0]


def row_seats(n: int) -> list[int]:
    """The seat of each row of ``params_matrix``: three rows (players = 2 repeats seat 0), or with
    four players four blocks of three, block k's row s being seat (s + k) % 4."""
    return [(s + k) % n for k in range(4) for s in range(3)] if n == 4 else [s % n for s in range(3)]


def params_matrix(params: HeuristicParams | tuple[HeuristicParams, ...] | None = None,
                  rules: HouseRules | None = None) -> np.ndarray:
    """The array kernels read: one row per seat (one ``HeuristicParams`` for every seat, or one per
    seat), the weights followed by hand-value tables derived from them and the rules' marriage values.

    A 4-player deal is played by three slots (``play_hands4``: slot ``s`` is seat ``(s + k) % 4``
    when seat ``k`` is first hand), so for players = 4 the matrix has four blocks of three rows,
    block ``k`` holding those seats' rows; block 0 is seats 0..2. Other games have three rows
    (players = 2 uses two)."""
    from sim.players.heuristic_nb import fill_suit_tables

    rules = rules or HouseRules()
    n = rules.players
    per_seat = seat_params(params, n)
    rows = [per_seat[seat] for seat in row_seats(n)]
    prm = np.zeros((len(rows), N_HEURISTIC_COLUMNS), dtype=np.float64)
    for i, row in enumerate(rows):
        prm[i, :N_HEURISTIC] = row.to_array()
    fill_suit_tables(prm, rules.to_array())
    return prm


def seat_params(params: HeuristicParams | tuple[HeuristicParams, ...] | None, n: int) -> tuple[HeuristicParams, ...]:
    """``params`` as one record per seat of an ``n``-player game (None: the defaults for ``n``)."""
    if params is None:
        params = default_params(n)
    if isinstance(params, HeuristicParams):
        return (params,) * n
    params = tuple(params)
    if len(params) != n or not all(isinstance(p, HeuristicParams) for p in params):
        raise PlayerError(f"give one set of heuristic parameters for each of the {n} seats, not {len(params)}")
    return params


def load_player_file(path: str | Path, n: int) -> tuple[str, HeuristicParams]:
    """A player defined in a TOML file: ``player = "heuristic"`` (or another type whose bidding reads
    the parameters: dd, pimc, pimc-fast, learned, learned-cards) and any ``HeuristicParams`` field; the
    rest are the defaults for an ``n``-player game. A learned player's ``weights`` names its weights
    file (relative to the player file's folder). Returns (player name, parameters: ``learned:PATH``
    for named weights); errors name the file and the key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlayerError(f"player file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlayerError(f"player file {str(path)!r} cannot be read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise PlayerError(f"player file {str(path)!r} is not valid TOML: {e}") from None
    kind = data.pop("player", "heuristic")
    if kind not in PARAMETERISED_PLAYERS:
        raise PlayerError(f"player file {str(path)!r}: player = {kind!r} reads no parameters; "
                          f"use one of {', '.join(PARAMETERISED_PLAYERS)}")
    weights = data.pop("weights", None)
    if weights is not None:
        if kind not in LEARNED_TYPES or not isinstance(weights, str) or not weights:
            raise PlayerError(f"player file {str(path)!r}: weights names the weights file of a learned player "
                              f"(player = \"learned\" or \"learned-cards\"), as a path")
        kind = f"{kind}:{(path.parent / weights) if not Path(weights).is_absolute() else Path(weights)}"
    known = {f.name for f in fields(HeuristicParams)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise PlayerError(f"player file {str(path)!r}: unknown parameter {unknown[0]!r}; parameters are: "
                          + ", ".join(sorted(known)))
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise PlayerError(f"player file {str(path)!r}: {key} must be a number, not {value!r}")
    for key, low, high in (("pimc_worlds", 1, MAX_PIMC_WORLDS), ("search_worlds", 1, MAX_PIMC_WORLDS),
                           ("search_cards", 0, 8), ("gift_candidates", 1, MAX_GIFT_CANDIDATES)):
        if key in data and not float(data[key]).is_integer():  # a count: the kernels would cut it short
            raise PlayerError(f"player file {str(path)!r}: {key} is a count, a whole number from {low} to {high}, "
                              f"not {data[key]}")
        if key in data and not low <= data[key] <= high:
            raise PlayerError(f"player file {str(path)!r}: {key} must be from {low} to {high}, not {data[key]}")
    if data.get("search_margin", 0) < 0:
        raise PlayerError(f"player file {str(path)!r}: search_margin must be at least 0 points, not "
                          f"{data['search_margin']}")
    return kind, replace(default_params(n), **{k: float(v) for k, v in data.items()})


# The player types whose decisions read the heuristic parameters (dd, the pimc and the learned players
# bid like the heuristic player; pimc_worlds sets the pimc players' sample, gift_candidates the learned
# declarer's).
PARAMETERISED_PLAYERS = ("heuristic", "dd", "pimc", "pimc-fast", "learned", "learned-cards")
# The player types that search (double-dummy searches): their chunks need the solver's buffers.
SEARCHING_PLAYERS = ("dd", "pimc", "pimc-fast", "learned-cards")


def seat_buffers(table_log2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """New buffers of a searching seat (dd or pimc): the solver's state, move rows and table of
    2**table_log2 rows, and the PIMC worlds' scratch."""
    from sim.players.pimc_nb import new_pimc_buffer
    from sim.solver import search_buffers

    return (*search_buffers(table_log2), new_pimc_buffer())


def seat_tuple(table_log2: int, net: np.ndarray | None = None, rec_rows: int = 1) -> tuple[np.ndarray, ...]:
    """Everything a chunk's seats decide with, the ``solver`` argument of the engine's kernels: a
    searching seat's buffers (``seat_buffers``), then the learned seats' packed nets, scratch and
    position record (``learned_nb.new_learned_buffers``: tokens when no seat is learned)."""
    from sim.players.learned_nb import new_learned_buffers

    return (*seat_buffers(table_log2), *new_learned_buffers(net, rec_rows))
