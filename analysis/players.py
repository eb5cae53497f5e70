"""Who plays an analysis's deals when nobody is named, and what a stored result records of its
players.

The analyses that play whole games (``tables barrel``, ``compare``, ``tournament``, ``tables
strategy`` and the report's sections of whole games) play the **score-aware learned player**
(``learned-win``) by default where the rules have its win-chance table (every preset ships one:
``sim.players.learned.win_table``): in a game the score is known, and a strong player's bids read it
(the dump truck at 555, the barrel, a sitter's threat, bolts; docs/learned.md). Elsewhere, and for
independent deals from a zero score (``tables marriages --play-deals``, the bid tables), they play
the **learned player**: the most realistic player at Monte Carlo speed. A comparison of several rule
sets plays one player in all of them (``common_player``), so that its differences are the rules':
``learned-win`` when every rule set has its table, else ``learned``. For the 2-player game, for
which no weights are trained, the default is the heuristic player. The tournament's default field
is the default player of whole games, the heuristic player and the ported Leadage bot
(``tournament_field``).

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
from sim.players.registry import (
    DEFAULT_PLAYER,
    FALLBACK_PLAYER,
    GAME_PLAYER,
    default_player,
    is_learned,
    player_type,
    reads_win_table,
    weights_file,
)
from sim.training.positions import MIXTURE, PLAY_OPTIONS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sim.game.rules import HouseRules

__all__ = ["DEFAULT_PLAYER", "GAME_PLAYER", "FALLBACK_PLAYER", "TOURNAMENT_OTHERS", "default_player",
           "common_player", "players_or_default", "tournament_field", "score_blind", "learned_weights",
           "TRAINED_PRESETS",
           "untrained_options"]

# The tournament's default field: the default player of whole games, our heuristic and the ported
# bot. The random player is not among them: it declared 73% of the deals and made 2%, and so
# decided every other player's games (issue 27).
TOURNAMENT_OTHERS = ("heuristic", "leadage")


def common_player(rule_sets: Iterable[HouseRules]) -> str:
    """The one player of whole games under every rule set of ``rule_sets`` (one player count):
    ``default_player`` of each when they agree, else the learned player, which plays them all."""
    names = {default_player(rules, games=True) for rules in rule_sets}
    return names.pop() if len(names) == 1 else DEFAULT_PLAYER


def players_or_default(players: str | None, rules: HouseRules, *, games: bool = False) -> str:
    """``players`` as given, or the default player of ``rules`` when None (``games``: of whole games)."""
    return default_player(rules, games=games) if players is None else players


def tournament_field(rules: HouseRules, *, games: bool = True) -> tuple[str, ...]:
    """The tournament's players when none are named, one a seat of the 3-player game: the learned
    player (of whole games, ``games``, the score-aware one where ``rules`` have its table), then
    ``TOURNAMENT_OTHERS``."""
    return (default_player(rules, games=games), *TOURNAMENT_OTHERS)



def score_blind(players: Sequence[str]) -> tuple[str, ...]:
    """``players`` with each score-aware seat (``learned-win``, ``learned-win:PATH``) played by its
    score-blind twin (``learned``, ``learned:PATH``: the same weights): the players of deals from a
    zero score, where no score is in play (and whose rules, such as the strategy's concession
    switched off, may have no win-chance table)."""
    return tuple(DEFAULT_PLAYER + name[len(player_type(name)):] if reads_win_table(name) else name
                 for name in players)


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
