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


@pytest.fixture(scope="session", autouse=True)
def _compiled_once_across_workers():
    """Under pytest-xdist, the first worker compiles the engine's kernels while the others wait,
    then load them from the Numba cache: the tool's own compile lock (``sim.compiling.cache_lock``)
    held for the whole warm-up, so that a second worker does not even start a compile. Two
    processes compiling the same kernels into one cold cache at once crashed a worker inside LLVM
    (a "Symbol not found" abort while finalizing a kernel, twice on 2026-12-06); compiled one
    process at a time they never did (each kernel's compile now holds a lock of its own as well:
    docs/compiling.md). A run without workers compiles as before, lazily."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    from sim.compiling import cache_lock  # imported late, as the engine: most tests never compile

    with cache_lock():
        compile_engine()
    yield


def compile_engine() -> None:
    """A one-game and a one-deal chunk of each player count: every kernel a chunk reaches (the
    rules, the solver, every player, the settlement; one chunk kernel a player count) compiled, or
    loaded from the cache."""
    from sim.engine import BatchSpec, play_chunk  # late: tests which never play cards do not load the engine
    from sim.game.rules import HouseRules

    for players in (3, 2, 4):
        for mode in ("games", "deals"):
            play_chunk(BatchSpec(mode=mode, n=1, seed=0, chunk_size=1, rules=HouseRules(players=players)), 0)


@pytest.fixture(autouse=True)
def _text_at_80_columns(monkeypatch):
    """The commands write for the terminal's width (``COLUMNS``): every test at the default 80, so
    that a command's text equals its presenter's lines whatever terminal runs the tests."""
    monkeypatch.setenv("COLUMNS", "80")


@pytest.fixture(scope="session")
def engine_compiled():
    """Compile the engine's kernels once per session: a one-game and a one-deal chunk of each player count."""
    compile_engine()
    return True
