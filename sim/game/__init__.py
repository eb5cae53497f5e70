"""The rules core, which knows no player: cards and their notation (``cards``), the house-rules
record and presets (``rules``) with the array layout the kernels read (``rules_layout``), the
game state's layout (``state_layout``), the compiled rules of play on card masks (``play_nb``), bit
tricks (``bits_nb``) and the random generator (``rng_nb``). It imports nothing else of the project
but ``sim.numba_config``.
"""

__all__ = []
