"""Positions for training: deals played by learned seats that record every card decision with a
choice (``sim.players.learned.cards_nb.record_position``), and the rule sets they are played under.

A chunk of positions is a pure function of (rules, seed, chunk index, deals, the nets and the
exploration rate), as a run's chunks are: its generator states come from
``sim.streams.POSITIONS_PLAYERS`` and ``POSITIONS_DEALS``.
"""

from __future__ import annotations

import numpy as np

from sim.engine import chunk_rng, solver_buffers
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.engine.workspace import new_game_state, new_workspace
from sim.game.rules import HouseRules, preset
from sim.players.layout import H_EPSILON, H_NET, H_SEARCH_CARDS
from sim.players.learned.layout import P_N, P_PLAYED
from sim.players.params import params_matrix
from sim.players.registry import player_codes
from sim.streams import POSITIONS_DEALS, POSITIONS_PLAYERS, rules_random

__all__ = [
    "MAX_POSITIONS_PER_DEAL", "MIXTURE", "RANDOM_OPTION_SHARE", "PLAY_OPTIONS", "mixture_rules",
    "generate_positions", "deal_ids", "cards_gone", "trick_of",
]

MAX_POSITIONS_PER_DEAL = 24  # a deal's card decisions: 8 tricks of 3

# The mixture the default weights are trained on: the presets whose play rules differ, and random
# play options (each on with probability RANDOM_OPTION_SHARE, the marriage values permuted).
MIXTURE = ("classic", "online", "strict", "options")
RANDOM_OPTION_SHARE = 0.25
PLAY_OPTIONS = ("must_head", "marriage_first_lead", "marriage_burns_without_trick", "marriage_optional",
                "half_marriage", "no_lead_foreign_trump", "must_lead_trump", "round_declarer",
                "talon_hidden_at_100", "talon_shown_to_declarer_only", "discard_face_down")


def mixture_rules(seed: int, index: int) -> HouseRules:
    """Chunk ``index``'s rule set of the training mixture (the same for the same seed and index)."""
    kind = MIXTURE[index % len(MIXTURE)]
    if kind != "options":
        return preset(kind)
    rng = rules_random(seed, index)
    options = {name: rng.random() < RANDOM_OPTION_SHARE for name in PLAY_OPTIONS}
    if options["marriage_burns_without_trick"]:
        options["marriage_first_lead"] = True  # burning needs marriage_first_lead (RULES.md)
    if rng.random() < RANDOM_OPTION_SHARE:
        options["ace_marriage"] = 200
    values = [40, 60, 80, 100]
    rng.shuffle(values)
    options["marriage_values"] = tuple(values)
    return HouseRules.from_dict(options, source="training mixture")


def generate_positions(rules: HouseRules, seed: int, index: int, n_deals: int, net: np.ndarray | None,
                       model: int, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """(positions int64 (k, P_N), deal of each position (0..n_deals-1)) recorded from ``n_deals``
    deals whose every seat is learned: model row ``model`` of ``net`` (-1: the heuristic player's
    cards), playing a random legal card with probability ``epsilon``. Bids, the contract and the
    gifts are the heuristic player's."""
    prm = params_matrix(rules=rules)
    prm[:, H_NET] = model
    prm[:, H_EPSILON] = epsilon
    prm[:, H_SEARCH_CARDS] = 0  # every card is the net's: its positions are what training labels
    players = ("learned",) * rules.players
    solver = solver_buffers(players, net if net is not None else np.zeros((1, 4), dtype=np.float32),
                            rec_rows=n_deals * MAX_POSITIONS_PER_DEAL + 1)
    rec = np.zeros((n_deals, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((n_deals, N_PLAYS), dtype=np.int8)
    status = run_deals(chunk_rng(seed, index, POSITIONS_PLAYERS), chunk_rng(seed, index, POSITIONS_DEALS),
                       rules.to_array(), player_codes(players), prm, 0, n_deals, rec, plays, new_game_state(),
                       new_workspace(), np.zeros(1, dtype=np.int64), solver)
    if status < 0:
        raise RuntimeError(f"illegal action while generating positions (seed {seed}, chunk {index})")
    store = solver[7]
    pos = store[1:store[0, 0] + 1].copy()
    assert pos.shape[1] == P_N
    return pos, deal_ids(pos)


def deal_ids(pos: np.ndarray) -> np.ndarray:
    """The deal of each recorded position: a deal's decisions are recorded in order, each with
    more cards gone than the one before, so a new deal starts where no more are gone."""
    gone = cards_gone(pos)
    starts = np.ones(len(pos), dtype=bool)
    starts[1:] = gone[1:] <= gone[:-1]
    return np.cumsum(starts) - 1


def cards_gone(pos: np.ndarray) -> np.ndarray:
    """int64 (n,): the cards played before each recorded position, the current trick's included."""
    return np.array([int(p).bit_count() for p in pos[:, P_PLAYED]], dtype=np.int64)


def trick_of(pos: np.ndarray) -> np.ndarray:
    """int64 (n,): the trick of each recorded position, 0 to 7."""
    return (cards_gone(pos) // 3).clip(0, 7)
