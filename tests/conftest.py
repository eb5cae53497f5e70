"""Shared pytest options and fixtures: ``--runslow`` runs the tests marked ``slow``;
``engine_compiled`` compiles the engine once per session. Under CI (the ``CI`` environment
variable) Hypothesis draws a fixed set of examples, so that a CI result never depends on luck;
local runs keep exploring new examples.

Tests sit in one folder per package (game, solver, players, engine, analysis); the slow, obviously
correct twins they compare against (``reference_game``, ``reference_solver``) and the known-answer
files stay here, importable from every folder."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # the reference implementations

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def engine_compiled():
    """Compile the engine's kernels once per session: a one-game and a one-deal chunk."""
    # Imported here so that tests which never play cards do not load the engine.
    from sim.engine import BatchSpec, play_chunk

    play_chunk(BatchSpec(mode="games", n=1, seed=0, chunk_size=1), 0)
    play_chunk(BatchSpec(mode="deals", n=1, seed=0, chunk_size=1), 0)
    return True
