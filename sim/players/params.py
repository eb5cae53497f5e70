"""The players' parameters: ``HeuristicParams``, the one record of every player's settings (the
heuristic player's weights and margins, which the dd, pimc and learned players' bidding reads too;
PIMC's worlds; the learned declarer's gifts and concession weight; the learned seat's search of its
last cards), its defaults for 2 players, the parameter matrix the kernels read (``params_matrix``:
a row per seat, or per slot and first hand with 4 players) with the learned seats' nets
(``learned_nets``), and TOML player files (``load_player_file``).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import numpy as np

from sim.game.rules import HouseRules
from sim.players import layout
from sim.players.heuristic_nb import fill_suit_tables
from sim.players.layout import CONTRACT_HEURISTIC, CONTRACT_WORLDS, H_NET, N_HEURISTIC, N_HEURISTIC_COLUMNS
from sim.players.learned.layout import NET_BIDDING
from sim.players.learned.weights import load_weights, weights_matrix
from sim.players.learned.win_table import load_win_table, win_table_for
from sim.players.pimc_inf_nb import CANDIDATES_PER_WORLD, CONTRACT_MARGIN, MAX_CANDIDATES, OPPONENT_TEMPERATURE
from sim.players.registry import (
    LEARNED_TYPES,
    PARAMETERISED_PLAYERS,
    PlayerError,
    learned_weights_files,
    reads_nets,
    reads_win_table,
    weights_file,
)

__all__ = [
    "PIMC_WORLDS", "MAX_PIMC_WORLDS", "GIFT_CANDIDATES", "MAX_GIFT_CANDIDATES", "HeuristicParams",
    "TWO_PLAYER_WEIGHTS", "default_params", "learned_nets", "score_aware_block", "has_bidding_blob",
    "row_seats", "params_matrix", "seat_params",
    "load_player_file",
]

PIMC_WORLDS = 20  # worlds a PIMC seat samples per decision in games (HeuristicParams.pimc_worlds)
# The most worlds a PIMC decision may average over, wherever the number comes from (a player file's
# pimc_worlds, the advisor's and the bid tables' --worlds): a decision's cost grows with it, and at
# 1,000 one deal with three PIMC seats already takes minutes of a core.
MAX_PIMC_WORLDS = 1000
# Gift pairs a learned declarer values with its net, cheapest first (learned.cards_nb.learned_discard).
GIFT_CANDIDATES = 4
MAX_GIFT_CANDIDATES = 90  # every ordered pair of two gifts from the declarer's ten cards
MAX_CONTRACT_MARGIN = 120  # a pimc-inf declarer's contract_margin lies within plus or minus the deck's points


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the heuristic player, in one record so that later work can tune them; the other
    players' settings ride in it too (the dd, pimc and learned players bid with these weights;
    ``pimc_worlds``, ``gift_candidates``, ``opponent_weight`` and the ``search_*`` fields below),
    since the kernels read one parameter row a seat (``layout``'s H_* columns).

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
    # A pimc-inf seat, and a learned-inf seat in its search, weighs its candidate worlds by the
    # other seats' calls at this temperature (points; fitted to opponents bidding as the heuristic
    # player; 0: only what the calls make certain, a bid above a hand's cap) and draws
    # inference_candidates of them for each world it searches (docs/pimc.md, "pimc-inf";
    # docs/learned.md, "learned-inf").
    inference_temperature: float = OPPONENT_TEMPERATURE
    inference_candidates: float = float(CANDIDATES_PER_WORLD)
    # ... where its net's best two legal cards are fewer points apart than this (1000: always).
    search_margin: float = 1000.0
    # A pimc-inf declarer's final contract and concession: 1 the best mean result over his
    # discard's worlds, each world's double-dummy value less contract_margin points for PIMC's
    # optimism (the default: +3.13 points a deal against pimc under classic rules where the
    # heuristic's rule gained +0.61), 0 the heuristic's estimate, as pimc (docs/pimc.md, "The final
    # contract by the worlds").
    contract_rule: float = float(CONTRACT_WORLDS)
    contract_margin: float = CONTRACT_MARGIN

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


def learned_nets(names: Sequence[str], prm: np.ndarray, n: int, rules: HouseRules | None = None) -> np.ndarray | None:
    """The packed nets of the learned and inferring seats of ``names`` (one row per distinct weights file, and one
    more per file a score-aware seat plays: that file's nets followed by the win-chance block of
    ``rules``, ``sim.players.learned.win_table``), or None when no seat is learned; sets each learned
    seat's H_NET in the parameter rows ``prm`` (``params_matrix``'s layout: with four players, block
    k's row s is seat (s + k) % 4)."""
    files = learned_weights_files(names)
    if not files:
        return None
    keys = list(dict.fromkeys((weights_file(name), reads_win_table(name)) for name in names if reads_nets(name)))
    row_of = {seat: keys.index((weights_file(name), reads_win_table(name)))
              for seat, name in enumerate(names) if reads_nets(name)}
    for r, seat in enumerate(row_seats(n)):
        if seat in row_of:
            prm[r, H_NET] = row_of[seat]
    if not any(win for _, win in keys):
        return weights_matrix(files)[0]
    block = score_aware_block(rules, n)
    blobs = [load_weights(path)[0] for path, _ in keys]
    blobs = [np.concatenate([b, block]) if win and has_bidding_blob(b) else b for b, (_, win) in zip(blobs, keys,
                                                                                                   strict=True)]
    net = np.zeros((len(blobs), max(b.size for b in blobs)), dtype=np.float32)
    for i, b in enumerate(blobs):
        net[i, :b.size] = b
    return net


def score_aware_block(rules: HouseRules | None, n: int) -> np.ndarray:
    """The win block a score-aware seat (``learned-win``) reads under ``rules``: the shipped table
    made under these rules (a ``WinTableError`` when there is none; the 3-player game only)."""
    if rules is None or n != 3:
        raise PlayerError("the score-aware player learned-win plays the 3-player game, with its rules given")
    return load_win_table(win_table_for(rules))[0]


def has_bidding_blob(blob: np.ndarray) -> bool:
    """Whether a packed blob holds the bidding nets (without them learned-win bids as learned does,
    as the heuristic player)."""
    return blob[NET_BIDDING] > 0


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
    the parameters: dd, pimc, learned, learned-cards, learned-win, pimc-inf, learned-inf) and any
    ``HeuristicParams`` field; the rest are the defaults for an ``n``-player game. A learned
    player's ``weights`` names its weights file (relative to the player file's folder). Returns
    (player name, parameters: ``learned:PATH`` for named weights); errors name the file and the key."""
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
                              f"(player = \"learned\", \"learned-cards\", \"learned-win\" or \"learned-inf\"), "
                              "as a path")
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
                           ("search_cards", 0, 8), ("gift_candidates", 1, MAX_GIFT_CANDIDATES),
                           ("inference_candidates", 1, MAX_CANDIDATES)):
        if key in data and not float(data[key]).is_integer():  # a count: the kernels would cut it short
            raise PlayerError(f"player file {str(path)!r}: {key} is a count, a whole number from {low} to {high}, "
                              f"not {data[key]}")
        if key in data and not low <= data[key] <= high:
            raise PlayerError(f"player file {str(path)!r}: {key} must be from {low} to {high}, not {data[key]}")
    if data.get("inference_temperature", 0) < 0:
        raise PlayerError(f"player file {str(path)!r}: inference_temperature must be at least 0 points, not "
                          f"{data['inference_temperature']}")
    if "contract_rule" in data and data["contract_rule"] not in (CONTRACT_HEURISTIC, CONTRACT_WORLDS):
        raise PlayerError(f"player file {str(path)!r}: contract_rule must be {CONTRACT_HEURISTIC} (the heuristic's "
                          f"estimate) or {CONTRACT_WORLDS} (the discard's worlds), not {data['contract_rule']}")
    if not -MAX_CONTRACT_MARGIN <= data.get("contract_margin", 0) <= MAX_CONTRACT_MARGIN:
        raise PlayerError(f"player file {str(path)!r}: contract_margin must be from {-MAX_CONTRACT_MARGIN} to "
                          f"{MAX_CONTRACT_MARGIN} points, not {data['contract_margin']}")
    if data.get("search_margin", 0) < 0:
        raise PlayerError(f"player file {str(path)!r}: search_margin must be at least 0 points, not "
                          f"{data['search_margin']}")
    return kind, replace(default_params(n), **{k: float(v) for k, v in data.items()})
