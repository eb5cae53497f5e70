"""The compile progress line and the cache folder's compile lock (``sim.compiling``)."""

import io
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numba
import pytest

from sim.compiling import LOCK_NAME, compiling, reachable_kernels
from sim.engine.chunks_nb import run_games3
from sim.engine.deals_nb import deal_and_play2, deal_and_play3, deal_and_play4, play_hands3
from sim.numba_config import CACHE_DIR, JIT_DISABLED

pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="nothing compiles with NUMBA_DISABLE_JIT")


def _fresh_kernel():
    """A kernel never compiled before (no cache): its first call compiles it and one callee."""

    @numba.njit
    def inner(x):
        return x * 3 + 1

    @numba.njit
    def outer(x):
        return inner(x) - 1

    return outer


def test_a_compile_is_shown_and_counted():
    out = io.StringIO()
    kernel = _fresh_kernel()
    with compiling(out, first_after=0.0):
        assert kernel(4) == 12
        time.sleep(1.6)  # the line shows within a quarter of a second; the spell ends after a second idle
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("compiling the kernels (a first run of this code; cached after): ")
    assert lines[-1].startswith("compiled 2 kernels in 0:0")  # outer and inner, in seconds


def test_nothing_compiled_nothing_said():
    kernel = _fresh_kernel()
    kernel(1)  # compiled before the block
    out = io.StringIO()
    with compiling(out):
        kernel(2)
    assert out.getvalue() == ""


def test_the_kernels_left_are_those_the_entry_reaches():
    """The 3-player game's chunk kernel reaches the 3-player deal and its callees, never the deals
    of the other player counts; an inlined function (``deal_and_play``'s loop) is not counted."""
    reach = reachable_kernels(run_games3)
    assert run_games3 in reach and deal_and_play3 in reach and play_hands3 in reach
    assert deal_and_play2 not in reach and deal_and_play4 not in reach
    assert all(not d.targetoptions.get("inline") for d in reach)


@pytest.mark.skipif(not CACHE_DIR or sys.platform == "win32", reason="no cache folder, or no flock")
def test_a_second_process_waits_for_the_compile_lock():
    """Another process holding the lock (compiling): this one says it waits, and compiles after."""
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, sys, time
        with open({str(Path(CACHE_DIR) / LOCK_NAME)!r}, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            print("held", flush=True)
            time.sleep(2)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        out = io.StringIO()
        kernel = _fresh_kernel()
        started = time.perf_counter()
        with compiling(out, first_after=0.0):
            assert kernel(0) == 0
        waited = time.perf_counter() - started
    finally:
        holder.wait()
    assert out.getvalue().startswith("another process is compiling into ")
    assert waited > 1.0  # it waited for the holder's 2 s
