"""Simulation core of `thousand`: cards, rules, the compiled engine, players and runners."""

from sim.numba_config import __version__

__all__ = ["__version__"]
