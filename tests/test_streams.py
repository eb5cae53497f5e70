"""``sim.streams``: every random stream's key in one table, and a proof of which uses can meet.

The proof. numpy's SeedSequence hashes its assembled entropy: the seed's words, then (only with a
spawn key) zeros up to the 4-word pool and one word per key element; words missing from the first
four hash as zeros. So a stream's *effective entropy* for a seed below 2**32 (one word) and index
words below 2**32 is a fixed-length tuple whose every word is either a constant (the seed, a tag, a
padding zero) or one index word. Two uses can draw the same stream under one seed only if their
tuples have the same length and agree wherever both hold a constant (an index word may be any
value). ``test_only_the_recorded_uses_can_meet`` decides that for every pair of the table and
requires the pairs that can meet to be exactly ``SHARED``; the other tests check the model
against numpy itself, and that no module keys a stream outside ``sim/streams.py``.
"""

from __future__ import annotations

import ast
import itertools
import random

import numpy as np
import pytest

from sim import streams
from sim.streams import ENTROPY, SHARED, SPAWN, STREAMS, sequence
from tests.test_structure import ROOT, source_files

POOL = 4  # SeedSequence's pool size in 32-bit words (numpy's default)
INDEX = None  # an index word in an effective-entropy pattern: any value below 2**32


def pattern(stream: streams.Stream) -> tuple:
    """The effective entropy of ``stream`` under one seed ``"seed"``, ``INDEX`` where an index word goes."""
    words = ("seed", *(INDEX,) * stream.indices, *stream.tag)
    if stream.space == SPAWN:
        return ("seed", *(0,) * (POOL - 1), *words[1:])
    assert len(words) <= POOL, "an entropy key longer than the pool is outside the proof"
    return (*words, *(0,) * (POOL - len(words)))


def can_meet(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x is INDEX or y is INDEX or x == y for x, y in zip(a, b, strict=True))


def effective_entropy(seq: np.random.SeedSequence) -> tuple[int, ...]:
    """What numpy's SeedSequence hashes, built as numpy assembles it (``get_assembled_entropy``)."""
    run = [int(w) for w in np.atleast_1d(np.asarray(seq.entropy, dtype=np.uint64))]
    assert all(w < 2**32 for w in run)
    if seq.spawn_key:
        run += [0] * (POOL - len(run))
    words = run + [int(w) for w in seq.spawn_key]
    return tuple(words + [0] * (POOL - len(words)))


def test_names_are_unique_and_listed():
    names = [s.name for s in STREAMS]
    assert len(set(names)) == len(names)
    public = {getattr(streams, n) for n in streams.__all__ if isinstance(getattr(streams, n), streams.Stream)}
    assert public == set(STREAMS)
    assert all(s.space in (SPAWN, ENTROPY) for s in STREAMS)


def test_only_the_recorded_uses_can_meet():
    meeting = {frozenset({a.name, b.name}) for a, b in itertools.combinations(STREAMS, 2)
               if can_meet(pattern(a), pattern(b))}
    assert meeting == set(SHARED), "a new pair of uses can draw the same stream: give one a tag of its own"


def test_retired_tags_stay_unused():
    tags = {s.tag for s in STREAMS if s.space == SPAWN}
    assert not tags & set(streams.RETIRED_TAGS)


@pytest.mark.parametrize("stream", STREAMS, ids=lambda s: s.name)
def test_the_pattern_is_what_numpy_hashes(stream):
    rng = random.Random(stream.name)
    for _ in range(20):
        seed, index = rng.randrange(2**32), tuple(rng.randrange(2**20) for _ in range(stream.indices))
        want = tuple(seed if w == "seed" else index[0] if w is INDEX else w for w in pattern(stream))
        assert effective_entropy(sequence(stream, seed, *index)) == want


def test_equal_effective_entropy_is_one_stream():
    """The padding rule the proof rests on: trailing zeros inside the pool do not count."""
    assert (np.random.SeedSequence([5, 0]).generate_state(4) == np.random.SeedSequence(5).generate_state(4)).all()
    spawned = np.random.SeedSequence(5, spawn_key=(3,)).generate_state(4)
    assert not (spawned == np.random.SeedSequence([5, 3]).generate_state(4)).all()


@pytest.mark.parametrize("pair", sorted(SHARED, key=sorted), ids=lambda p: "+".join(sorted(p)))
def test_recorded_shared_streams_do_meet(pair):
    """Each recorded pair really draws one stream for some index (so ``SHARED`` never goes stale)."""
    a, b = (next(s for s in STREAMS if s.name == n) for n in sorted(pair))
    found = False
    for i, j in itertools.product(range(10), repeat=2):
        ia, ib = (i,) * a.indices, (j,) * b.indices
        if (sequence(a, 11, *ia).generate_state(4) == sequence(b, 11, *ib).generate_state(4)).all():
            found = True
            break
    assert found


def test_today_keys_are_kept():
    """The keys every stored result was drawn from, spelled out once (results must not move)."""
    keyed = {s.name: s.words((7,) * s.indices) for s in STREAMS}
    assert keyed == {
        "chunk_players": (7,), "chunk_deals": (7, 1), "bid_table_deals": (7,), "sample_unseen": (7,),
        "playout_dd": (7, 1), "playout_pimc": (7, 2), "playout_heuristic": (7, 3), "playout_learned": (7, 5),
        "playout_lines": (7, 6), "positions_players": (7, 7), "positions_deals": (7, 8), "label_worlds": (7, 9),
        "bid_playout_players": (7, 11), "bid_playout_deals": (7, 12), "label_sample": (7, 13),
        "held_out_deals": (7,), "round_hold_out": (7,), "init_and_shuffle": (), "infer_worlds": (7, 14),
    }
    assert streams.LEARNED_SEARCH_SALT == np.uint64(0x5EA2C4ED1000)
    assert streams.rules_random(3, 5).random() == random.Random("thousand-train-rules/3/5").random()


# Calls that make or key a random stream; only sim/streams.py and the generator's own primitives
# (sim/game/rng_nb.py) may make them.
STREAM_MAKERS = {"SeedSequence", "default_rng", "state_from_seed", "Random", "RandomState", "seed", "PCG64",
                 "Generator", "SFC64", "MT19937", "Philox", "key_state"}
STREAM_HOMES = {"sim/streams.py", "sim/game/rng_nb.py"}
# The learned seat keys its search stream in a kernel (key_state on a hash salted by
# sim.streams.LEARNED_SEARCH_SALT).
KEYED_IN_KERNEL = {"sim/players/seat_nb.py": "LEARNED_SEARCH_SALT"}


def stream_making_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in STREAM_MAKERS:
                yield node.lineno, name
            if any(k.arg == "spawn_key" for k in node.keywords):
                yield node.lineno, "spawn_key="


def test_no_module_keys_a_stream_itself():
    found = []
    for path in source_files("sim", "analysis", "thousand", "cli.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in STREAM_HOMES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = list(stream_making_calls(tree))
        if rel in KEYED_IN_KERNEL:
            salt = KEYED_IN_KERNEL[rel]
            imported = any(isinstance(n, ast.ImportFrom) and n.module == "sim.streams"
                           and any(a.name == salt for a in n.names) for n in ast.walk(tree))
            assert imported, f"{rel} keys its stream without sim.streams.{salt}"
            calls = [c for c in calls if c[1] != "key_state"]
        found += [f"{rel}:{line} {name}" for line, name in calls]
    assert not found, "random streams keyed outside sim/streams.py: " + ", ".join(found)
