"""The players a user may name: their names and the codes compiled code knows them by
(``layout.PLAYER_CODES``), the parsing of a ``--players`` value (``parse_players``: one name for
every seat or one a seat, ``learned:PATH`` for a learned player with its own weights file), which
types are learned, which search (their chunks need the solver's buffers) and which read the
heuristic parameters, and the weights files the learned seats play.

The experimental ``pimc-fast`` (PIMC with worlds added until the best card is clear) left the
product after 0.9.1: its measurements are in docs/pimc.md, its code at commit 92c9419; the name is
refused as any unknown player is, with the list of players.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sim import InputError
from sim.players.layout import PLAYER_CODES
from sim.players.learned.weights import DEFAULT_WEIGHTS, load_weights
from sim.players.learned.win_table import has_win_table

if TYPE_CHECKING:
    from sim.game.rules import HouseRules

__all__ = [
    "PlayerError", "PLAYER_NAMES", "LEARNED_TYPES", "player_type", "is_learned", "weights_file", "parse_players",
    "player_codes", "learned_weights_files", "PARAMETERISED_PLAYERS", "SEARCHING_PLAYERS", "SCORE_AWARE_TYPES",
    "reads_win_table", "DEFAULT_PLAYER", "GAME_PLAYER", "FALLBACK_PLAYER", "default_player", "INFERRING_TYPES",
    "reads_nets",
]

DEFAULT_PLAYER = "learned"  # deals from a zero score, and whole games where GAME_PLAYER has no table
GAME_PLAYER = "learned-win"  # whole games where the rules have its win-chance table
FALLBACK_PLAYER = "heuristic"  # where the learned player does not play: the 2-player game


class PlayerError(InputError):
    """An unknown player name or a wrong number of seats; the message names it."""


PLAYER_NAMES = tuple(PLAYER_CODES)


# The learned players: "learned" plays the net's cards, gifts, bids and contract; "learned-cards" gives
# pimc's gifts and the heuristic's bidding instead, so that against pimc only the card play differs;
# "learned-win" is "learned" whose bids and final contract weigh the chance of winning the game
# (a win-chance table of the rules beside its nets: sim.players.learned.win_table); "learned-inf" is
# "learned" whose search of its last cards draws its worlds as pimc-inf does (weighed by the calls).
# "TYPE:PATH" plays the weights file PATH instead of the shipped one.
LEARNED_TYPES = ("learned", "learned-cards", "learned-win", "learned-inf")
SCORE_AWARE_TYPES = ("learned-win",)  # the learned players that read a win-chance table
# The players that weigh their worlds by the other seats' calls under the learned player's bidding
# nets (the shipped weights): pimc-inf. They play no net's cards, but their chunks carry the nets.
INFERRING_TYPES = ("pimc-inf",)


def player_type(name: str) -> str:
    """The player type of a seat's name (``learned:PATH`` is a learned player)."""
    kind = name.split(":", 1)[0]
    return kind if kind in LEARNED_TYPES else name


def is_learned(name: str) -> bool:
    return player_type(name) in LEARNED_TYPES


def reads_nets(name: str) -> bool:
    """Whether a seat of this name reads the learned nets: a learned player (its weights file) or
    one that infers the hidden hands with them (the shipped weights)."""
    return is_learned(name) or player_type(name) in INFERRING_TYPES


def reads_win_table(name: str) -> bool:
    """Whether a seat of this name reads a win-chance table (``learned-win``)."""
    return player_type(name) in SCORE_AWARE_TYPES


def weights_file(name: str) -> Path:
    """The weights file a learned seat of this name plays (an inferring seat: the shipped one)."""
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
        load_weights(path)  # a WeightsError names the file and what is wrong
    if n == 2 and any(is_learned(name) for name in names):
        raise PlayerError("the learned player plays 3 and 4 players, not players = 2: no weights are trained for the "
                          "2-player deal")
    if n == 2 and any(player_type(name) in INFERRING_TYPES for name in names):
        raise PlayerError("pimc-inf plays 3 and 4 players, not players = 2: it weighs its worlds with the learned "
                          "player's bidding nets, which are not trained for the 2-player deal")
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
    """The distinct weights files the learned and inferring seats of ``names`` read, in order of
    first seat (``learned``, ``pimc-inf``: the shipped weights)."""
    files: list[Path] = []
    for name in names:
        if reads_nets(name) and weights_file(name) not in files:
            files.append(weights_file(name))
    return files


# The player types whose decisions read the heuristic parameters (dd, pimc and the learned players
# bid like the heuristic player; pimc_worlds sets the pimc player's sample, gift_candidates the learned
# declarer's).
PARAMETERISED_PLAYERS = ("heuristic", "dd", "pimc", "learned", "learned-cards", "learned-win", "pimc-inf",
                         "learned-inf")
# The player types that search (double-dummy searches): their chunks need the solver's buffers.
SEARCHING_PLAYERS = ("dd", "pimc", "learned-cards", "pimc-inf")


def default_player(rules: HouseRules, *, games: bool = False) -> str:
    """The player of every seat when none is named, for every analysis and ``simulate`` alike: for
    whole games (``games``) the score-aware learned player where the rules have its win-chance table,
    else the learned player; the heuristic player in the 2-player game (no learned weights are
    trained for it). ``analysis.players`` says why."""
    if rules.players == 2:
        return FALLBACK_PLAYER
    return GAME_PLAYER if games and has_win_table(rules) else DEFAULT_PLAYER
