"""xoshiro256** random numbers on a 4-word state array, one state per chunk.

Our own generator rather than ``np.random`` inside kernels: its state lives in an array the caller
owns, so a chunk's stream depends only on the chunk's seed, never on which thread runs it.
"""

import numpy as np

from sim.numba_config import jit_hot

_U64 = np.uint64


def seed_state(words) -> np.ndarray:
    """A generator state from four 64-bit words (e.g. ``SeedSequence.generate_state(4, np.uint64)``)."""
    state = np.asarray(words, dtype=np.uint64).copy()
    if state.shape != (4,) or not state.any():
        raise ValueError("a xoshiro256** state is four 64-bit words, not all zero")
    return state


def state_from_sequence(sequence: np.random.SeedSequence) -> np.ndarray:
    """The generator state of one stream (``sim.streams.sequence``), so that every chunk (and every
    stream within it) is seeded independently of how many others there are."""
    return seed_state(sequence.generate_state(4, np.uint64))


def state_from_seed(seed: int, spawn_key: tuple[int, ...]) -> np.ndarray:
    """The generator state of ``SeedSequence(seed, spawn_key=...)``: for benchmarks and tests that
    key their own streams; the product's streams come from ``sim.streams``."""
    return state_from_sequence(np.random.SeedSequence(seed, spawn_key=spawn_key))


@jit_hot
def _rotl(x, k):
    return (x << _U64(k)) | (x >> _U64(64 - k))


@jit_hot
def next_u64(s):
    result = _rotl(s[1] * _U64(5), 7) * _U64(9)
    t = s[1] << _U64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@jit_hot
def below(s, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift)."""
    return np.int64(((next_u64(s) >> _U64(32)) * _U64(n)) >> _U64(32))


@jit_hot
def uniform(s):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(s) >> _U64(11)) * (1.0 / 9007199254740992.0)


_GOLDEN = _U64(0x9E3779B97F4A7C15)


@jit_hot
def _finalise(z):
    """splitmix64's output function: every bit of ``z`` moves about half the bits of the result."""
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    return z ^ (z >> _U64(31))


@jit_hot
def mix_key(key, word):
    """``key`` (uint64) with the non-negative int64 ``word`` mixed in: a hash built word by word."""
    return _finalise(key ^ (_U64(word) + _GOLDEN))


@jit_hot
def key_state(s, key):
    """Set the state ``s`` from the 64-bit ``key`` by splitmix64, as the xoshiro authors seed it:
    a stream that is a pure function of the key (all four words zero is out of reach)."""
    x = key
    for i in range(4):
        x += _GOLDEN
        s[i] = _finalise(x)
