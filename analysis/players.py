"""Who plays an analysis's deals when nobody is named, and what a stored result records of its
players.

The analyses that play (``tables marriages --play-deals``, ``tables barrel``, ``compare``,
``tournament`` and the report's sections) play the **learned player** by default: the most
realistic player that plays at Monte Carlo speed (docs/learned.md). It plays 3 and 4 players; for
the 2-player game, for which no weights are trained, the default is the heuristic player. The
tournament's default field is the learned player, the heuristic player and the ported Leadage bot.

A result records its players by name and, for every learned player among them, what it played of
its weights file (``learned_weights``: ``sim.players.learned.weights.weights_identity``, the npz
and what its manifest makes of it), so that a result of other weights, or of the same weights
under an edited manifest, is never taken for this one's (the shipped weights are also covered by
the code fingerprint).

The shipped weights were trained under the presets ``TRAINED_PRESETS`` and random play options
(``sim.training.positions.MIXTURE``); ``untrained_options`` names what a rule set asks beyond
them, so that a result played under it can say that its numbers are those of a player not trained
for these rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sim.game.rules import preset
from sim.players.learned.weights import weights_identity
from sim.players.registry import is_learned, weights_file
from sim.training.positions import MIXTURE, PLAY_OPTIONS

if TYPE_CHECKING:
    from sim.game.rules import HouseRules

__all__ = ["DEFAULT_PLAYER", "FALLBACK_PLAYER", "TOURNAMENT_PLAYERS", "default_player", "players_or_default",
           "learned_weights", "TRAINED_PRESETS", "untrained_options"]

DEFAULT_PLAYER = "learned"
FALLBACK_PLAYER = "heuristic"  # where the learned player does not play: the 2-player game
# The tournament's default field: the learned player, our heuristic and the ported bot. The random
# player is not among them: it declared 73% of the deals and made 2%, and so decided every other
# player's games (issue 27).
TOURNAMENT_PLAYERS = ("learned", "heuristic", "leadage")


def default_player(rules: HouseRules) -> str:
    """The player of every seat when none is named: the learned player, or the heuristic player in
    the 2-player game (no learned weights are trained for it)."""
    return DEFAULT_PLAYER if rules.players != 2 else FALLBACK_PLAYER


def players_or_default(players: str | None, rules: HouseRules) -> str:
    """``players`` as given, or the default player of ``rules`` when None."""
    return default_player(rules) if players is None else players


def learned_weights(players: Sequence[str]) -> dict[str, str]:
    """{learned player's name: the identity of what it plays (``weights_identity``)}, one entry per
    distinct learned player of ``players`` (empty when none is learned)."""
    return {name: weights_identity(weights_file(name)) for name in dict.fromkeys(players) if is_learned(name)}


TRAINED_PRESETS = tuple(kind for kind in MIXTURE if kind != "options")
# What the training mixture varies at random besides its presets: any value of these was trained for.
_VARIED = frozenset(PLAY_OPTIONS) | {"marriage_values", "ace_marriage"}


def untrained_options(rules: HouseRules) -> tuple[str, ...]:
    """The options of ``rules`` whose value none of the presets the shipped weights were trained
    under (``TRAINED_PRESETS``) has, leaving out the play options the training varied at random:
    empty for rules the learned player was trained for."""
    trained = [preset(kind).to_dict() for kind in TRAINED_PRESETS]
    return tuple(name for name, value in rules.to_dict().items()
                 if name not in _VARIED and all(t.get(name) != value for t in trained))
