"""Simulation core of `thousand`: the game, the solver, the players and the engine, as sub-packages
whose imports run one way only (``tests/test_structure.py`` checks it):

- ``sim.game``: the rules core (cards and notation, the house-rules record and its array layout,
  the game state's layout, trick primitives, bit tricks, the random generator). It imports nothing
  else of the project.
- ``sim.solver``: the double-dummy searches (3 and 2 seats) and their Python API; imports ``game``.
- ``sim.players``: the random, heuristic, dd and pimc players, their codes and parameters, and the
  one door through which the engine asks a seat for a decision (``seat_nb``); imports ``game`` and
  ``solver``.
- ``sim.engine``: a deal phase by phase, the chunk kernels, the workspace, the stored tables'
  schema and the Python API (batch chunks, scripted deals); imports the three above.
- ``sim.runner`` (chunks stored as Parquet shards) and ``sim.simulate`` (``thousand simulate``).

Under them all, ``sim.numba_config`` sets every Numba option and ``sim.parallel`` runs chunks on a
thread pool. ``sim`` never imports ``analysis`` or the command line.
"""

from sim.numba_config import __version__

__all__ = ["__version__"]
