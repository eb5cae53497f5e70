"""Every random stream of the project in one table: what each draws and the key it is drawn from.

A stream is a ``numpy.random.SeedSequence`` made from the run's seed and a key; its words seed
either our xoshiro256** kernels (``rng_nb.state_from_sequence``) or a numpy ``Generator``
(``generator``). No other module spells a key: each names its ``Stream`` here and calls
``sequence`` or ``generator`` (``tests/test_streams.py`` scans for any other ``SeedSequence``,
``default_rng`` or spawn key, and proves which uses can meet).

Two key spaces, as numpy assembles a SeedSequence's entropy (``get_assembled_entropy``):

- ``SPAWN``: ``SeedSequence(seed, spawn_key=(*index, *tag))``. With a spawn key numpy pads the
  seed's words with zeros to the pool size (4 words) and appends one word per key element, so for
  a seed below 2**128 and key elements below 2**32 (indices and tags are) the assembled entropy is
  the seed's 4 words followed by the key: two keys of different length or different words never
  give the same entropy.
- ``ENTROPY``: ``SeedSequence([seed, *index, *tag])`` (what ``default_rng(seed)`` and
  ``default_rng([seed, ...])`` make), no spawn key. SeedSequence hashes up to 4 words as if padded
  with zeros, so ``[seed]``, ``[seed, 0]`` and ``[seed, 0, 0]`` are the same stream: two uses of
  this space meet whenever their word lists agree after dropping trailing zeros. A seed below
  2**32 is one word. Entropy of at most 4 words never meets a ``SPAWN`` key, which always
  assembles more than 4.

Different entropy goes into SeedSequence's hash, whose job is to make distinct inputs give
unrelated states; that is the guarantee a distinct key buys. The keys below are today's, bit for
bit (every stored result depends on them), including the uses that share a stream on purpose or
by history: ``SHARED`` lists each pair with why it does no harm, and the test fails on any other
pair that can meet. Two streams use other generators altogether, their keys here too: the learned
seat's search (splitmix64 of a hash of what the seat sees, ``rng_nb.key_state``, salted by
``LEARNED_SEARCH_SALT``) and the training mixture's rule options (Python's ``random.Random`` on a
text key, ``rules_random``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

__all__ = [
    "SPAWN", "ENTROPY", "Stream", "CHUNK_PLAYERS", "CHUNK_DEALS", "BID_TABLE_DEALS", "SAMPLE_UNSEEN",
    "PLAYOUT_DD", "PLAYOUT_PIMC", "PLAYOUT_HEURISTIC", "PLAYOUT_LEARNED", "PLAYOUT_LINES", "POSITIONS_PLAYERS",
    "POSITIONS_DEALS", "LABEL_WORLDS", "BID_PLAYOUT_PLAYERS", "BID_PLAYOUT_DEALS", "LABEL_SAMPLE",
    "HELD_OUT_DEALS", "ROUND_HOLD_OUT", "INIT_AND_SHUFFLE", "INFER_WORLDS", "STREAMS", "SHARED", "PLAYOUT_STREAMS",
    "LEARNED_SEARCH_SALT", "RULES_MIXTURE_KEY", "RETIRED_TAGS", "spawn_key", "sequence", "generator",
    "rules_random",
]

SPAWN = "spawn"  # SeedSequence(seed, spawn_key=(*index, *tag))
ENTROPY = "entropy"  # SeedSequence([seed, *index, *tag])


@dataclass(frozen=True)
class Stream:
    """One use of randomness: ``indices`` words that vary per use (a chunk's number, a round's)
    followed by the fixed ``tag``, in key space ``space``."""

    name: str
    draws: str
    space: str
    indices: int
    tag: tuple[int, ...] = ()

    def words(self, index: tuple[int, ...]) -> tuple[int, ...]:
        """The key after the seed: the index words, then the tag."""
        if len(index) != self.indices:
            raise ValueError(f"stream {self.name} takes {self.indices} index words, not {len(index)}")
        return (*(int(i) for i in index), *self.tag)


# Chunks of a run (sim.engine.play_chunk), which thousand compare and the tournament reuse.
CHUNK_PLAYERS = Stream("chunk_players", "a run chunk's players' decisions", SPAWN, 1)
CHUNK_DEALS = Stream("chunk_deals", "a run chunk's deals", SPAWN, 1, (1,))
# The bid table's deals (analysis.deals.random_deals), 1,000 a key, by numpy's PCG64.
BID_TABLE_DEALS = Stream("bid_table_deals", "the bid table's deals, 1,000 a chunk (PCG64)", SPAWN, 1)
# Fixed-hand playouts (sim.engine.playouts): the unseen cards, then each method's own decisions.
SAMPLE_UNSEEN = Stream("sample_unseen", "a playout chunk's deals of the unseen cards", SPAWN, 1)
PLAYOUT_DD = Stream("playout_dd", "a playout chunk's double-dummy play", SPAWN, 1, (1,))
PLAYOUT_PIMC = Stream("playout_pimc", "a playout chunk's PIMC worlds", SPAWN, 1, (2,))
PLAYOUT_HEURISTIC = Stream("playout_heuristic", "a playout chunk's heuristic play", SPAWN, 1, (3,))
PLAYOUT_LEARNED = Stream("playout_learned", "a playout chunk's learned play", SPAWN, 1, (5,))
PLAYOUT_LINES = Stream("playout_lines", "a playout chunk's pass-line decisions", SPAWN, 1, (6,))
# Training (sim.training): positions, labels, bidding playouts.
POSITIONS_PLAYERS = Stream("positions_players", "a training chunk's learned play", SPAWN, 1, (7,))
POSITIONS_DEALS = Stream("positions_deals", "a training chunk's deals", SPAWN, 1, (8,))
LABEL_WORLDS = Stream("label_worlds", "the worlds a k-world label averages, per thread slice", SPAWN, 1, (9,))
BID_PLAYOUT_PLAYERS = Stream("bid_playout_players", "the bidding nets' playouts' play", SPAWN, 1, (11,))
BID_PLAYOUT_DEALS = Stream("bid_playout_deals", "the bidding nets' playouts' deals", SPAWN, 1, (12,))
LABEL_SAMPLE = Stream("label_sample", "which positions of a chunk are labelled (--label-shares)", ENTROPY, 1, (13,))
HELD_OUT_DEALS = Stream("held_out_deals", "the playout deals held out of the bidding fit", ENTROPY, 0, (7,))
ROUND_HOLD_OUT = Stream("round_hold_out", "the deals a training round holds out", ENTROPY, 1)
INIT_AND_SHUFFLE = Stream("init_and_shuffle", "a net's initial weights, then its fit's minibatch order",
                          ENTROPY, 0)
# Inference of the hidden hands (sim.inference): a chunk of candidate worlds.
INFER_WORLDS = Stream("infer_worlds", "a chunk of an inference's candidate worlds", SPAWN, 1, (14,))

STREAMS = (CHUNK_PLAYERS, CHUNK_DEALS, BID_TABLE_DEALS, SAMPLE_UNSEEN, PLAYOUT_DD, PLAYOUT_PIMC, PLAYOUT_HEURISTIC,
           PLAYOUT_LEARNED, PLAYOUT_LINES, POSITIONS_PLAYERS, POSITIONS_DEALS, LABEL_WORLDS, BID_PLAYOUT_PLAYERS,
           BID_PLAYOUT_DEALS, LABEL_SAMPLE, HELD_OUT_DEALS, ROUND_HOLD_OUT, INIT_AND_SHUFFLE, INFER_WORLDS)

RETIRED_TAGS = {(4,): "the former pass line's playout stream (never reuse: old runs drew from it)",
                (10,): "unused"}

# A playout method's stream (sim.engine.playouts); "sample" is the unseen cards' deals.
PLAYOUT_STREAMS = {"sample": SAMPLE_UNSEEN, "dd": PLAYOUT_DD, "pimc": PLAYOUT_PIMC, "heuristic": PLAYOUT_HEURISTIC,
                   "learned": PLAYOUT_LEARNED, "lines": PLAYOUT_LINES}

# The pairs of uses that can draw the same stream (same seed, same index words), and why that is
# harmless. Keys are kept as they are: changing one would change stored results.
SHARED = {
    frozenset({"chunk_players", "sample_unseen"}): "a run and a fixed-hand playout are separate commands,"
    " never mixed in one result",
    frozenset({"chunk_players", "bid_table_deals"}): "the bid table deals by PCG64, a run's players draw by"
    " xoshiro256** from the same words: different generators, and no result combines the two",
    frozenset({"sample_unseen", "bid_table_deals"}): "as above: separate commands, different generators",
    frozenset({"chunk_deals", "playout_dd"}): "a run's deals and a fixed-hand double-dummy playout are"
    " separate commands, never mixed in one result",
    frozenset({"round_hold_out", "init_and_shuffle"}): "thousand train's round 0 holds out deals from [seed, 0],"
    " the same stream as round 0's fit (seed + 0) initialises its weights and orders its batches from: which"
    " deals are held out is then tied to the initial weights' draws, not to any deal's content, so the"
    " validation stays fair",
    frozenset({"round_hold_out", "held_out_deals"}): "round 7 (of 8 or more) holds out positions by the same"
    " uniforms as the bidding fit holds out playout deals ([seed, 7]): two different data sets, never compared",
}

# The learned seat's search stream (sim.players.seat_nb): the first word of its key hash.
LEARNED_SEARCH_SALT = np.uint64(0x5EA2C4ED1000)
# The training mixture's rule options of chunk ``index`` (sim.training.positions.mixture_rules).
RULES_MIXTURE_KEY = "thousand-train-rules/{seed}/{index}"


def spawn_key(stream: Stream, *index: int) -> tuple[int, ...]:
    """The spawn key of a ``SPAWN`` stream for these index words."""
    if stream.space != SPAWN:
        raise ValueError(f"stream {stream.name} is keyed by its entropy, not a spawn key")
    return stream.words(index)


def sequence(stream: Stream, seed: int, *index: int) -> np.random.SeedSequence:
    """The SeedSequence of ``stream`` under ``seed`` for these index words (a chunk's number, ...)."""
    if stream.space == SPAWN:
        return np.random.SeedSequence(seed, spawn_key=spawn_key(stream, *index))
    words = stream.words(index)
    return np.random.SeedSequence([seed, *words] if words else seed)


def generator(stream: Stream, seed: int, *index: int) -> np.random.Generator:
    """numpy's default generator (PCG64) on ``sequence(stream, seed, *index)``."""
    return np.random.default_rng(sequence(stream, seed, *index))


def rules_random(seed: int, index: int) -> random.Random:
    """Python's generator on ``RULES_MIXTURE_KEY``: which options chunk ``index`` of a training
    mixture plays under."""
    return random.Random(RULES_MIXTURE_KEY.format(seed=seed, index=index))
