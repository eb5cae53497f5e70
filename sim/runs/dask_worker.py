"""What a Dask worker does once, as it joins: load (or, with an empty cache, compile) the engine's
Numba kernels, so that no chunk pays for it, one worker at a time (the cache's compile lock, held
for the whole warm-up: two processes compiling into one cold cache at once crashed one of them
inside LLVM; the second worker waits, then loads). Imported only where Dask is installed
(``sim.runs.backend.open_backend``)."""

from __future__ import annotations

from distributed import WorkerPlugin

from sim.compiling import cache_lock
from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules

__all__ = ["WarmUp"]


class WarmUp(WorkerPlugin):
    """Plays one tiny chunk of each player count in the worker's process (a chunk kernel a count):
    the kernels load from the on-disk cache (``sim.numba_config``) or compile, once per worker."""

    idempotent = True

    def setup(self, worker) -> None:
        with cache_lock():
            for players in (3, 4, 2):
                play_chunk(BatchSpec(mode="games", n=1, rules=HouseRules(players=players), players="heuristic", seed=0,
                                     chunk_size=1), 0)
