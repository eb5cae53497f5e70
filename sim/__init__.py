"""Simulation core of `thousand`: the game, the solver, the players and the engine, as sub-packages
whose imports run one way only (``tests/test_structure.py`` checks it):

- ``sim.game``: the rules core (cards and notation, the house-rules record and its array layout,
  the game state's layout, trick primitives, bit tricks, the random generator). It imports nothing
  else of the project.
- ``sim.solver``: the double-dummy searches (3 and 2 seats) and their Python API; imports ``game``.
- ``sim.players``: the random, heuristic, dd, pimc, learned and leadage (the ported tysyacha-1000
  bot) players, their codes and parameters (also from TOML player files), the learned player's
  layouts, labels and shipped weights, and the one door through which the engine asks a seat for a
  decision (``seat_nb``); imports ``game`` and ``solver``.
- ``sim.engine``: a deal phase by phase, the chunk kernels, the workspace, the stored tables'
  schema and the Python API (batch chunks, scripted deals, and in ``sim.engine.playouts`` the bid
  advisor's playouts of fixed deals); imports the three above.
- ``sim.training``: ``thousand train``, the learned player's positions, the solver's labels and
  the fit (JAX, an optional extra); imports the engine and below.
- ``sim.runs``: running and storing chunks (chunks stored as Parquet shards, the manifest,
  resuming, reading runs verified, combining runs), where they run (``sim.runs.backend``: threads
  or a Dask cluster, whose workers warm up through ``sim.runs.dask_worker``) and
  ``sim.runs.simulate`` (``thousand simulate``); imports the engine and below.
  ``sim.fingerprint`` hashes the code that stored results record.

Under them all, ``sim.numba_config`` sets every Numba option, ``sim.parallel`` runs chunks on a
thread pool, ``sim.arguments`` checks the types of the Python API's arguments and ``sim.progress``
holds the one progress callback, ``progress(stage, done, total)``, and its bars on stderr
(``StageBars``: a module of its own, so that the bid advisor reports progress without importing
the runs' machinery and Polars). ``sim`` never
imports ``analysis`` or the command line.

The package face holds the version and the family of errors a user can mend: every error the
project raises for bad input or a folder that holds something else is a ``ThousandError`` (bad
input also an ``InputError``, which is a ``ValueError``), which the command line prints as one
line. Any other exception is a bug of ours and keeps its traceback.
"""

from sim.numba_config import __version__

__all__ = ["__version__", "ThousandError", "InputError"]


class ThousandError(Exception):
    """What the user can mend: bad input, a folder that holds something else, a missing extra, a
    machine that cannot do what is asked. The message names what is wrong, in one line."""


class InputError(ThousandError, ValueError):
    """A bad option, value or file; the message names it and what is wrong."""
