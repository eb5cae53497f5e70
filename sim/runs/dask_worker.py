"""What a Dask worker does once, as it joins: load (or, with an empty cache, compile) the engine's
Numba kernels, so that no chunk pays for it. Imported only where Dask is installed
(``sim.runs.backend.open_backend``)."""

from __future__ import annotations

from distributed import WorkerPlugin

from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules

__all__ = ["WarmUp"]


class WarmUp(WorkerPlugin):
    """Plays one tiny chunk in the worker's process: the kernels load from the on-disk cache
    (``sim.numba_config``) or compile, once per worker."""

    idempotent = True

    def setup(self, worker) -> None:
        play_chunk(BatchSpec(mode="games", n=1, rules=HouseRules(), players="heuristic", seed=0, chunk_size=1), 0)
