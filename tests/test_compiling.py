"""The compile progress line, the cache folder's compile lock and the kernels' own locks, and the
second process compiling on another core (``sim.compiling``, ``sim.numba_config``)."""

import importlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numba
import pytest
from numba.core.dispatcher import Dispatcher

import sim.compiling as compiling_module
from sim.compiling import (
    ASIDE_ENV,
    LOCK_NAME,
    aside_wanted,
    compiling,
    reachable_kernels,
    read_signature,
    spell_signature,
    usable_cores,
)
from sim.engine.chunks_nb import run_games3
from sim.engine.deals_nb import deal_and_play2, deal_and_play3, deal_and_play4, play_hands3
from sim.engine.playouts import COMPILE_ASIDE
from sim.numba_config import CACHE_DIR, JIT_DISABLED
from sim.runs.simulate import SIMULATE_ASIDE

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


# Compiling on a second core (``compile_aside``): kernels of a module written for the test, compiled
# into a fresh cache folder by a process of their own, so that nothing is cached before.

KERNELS = '''
from sim.numba_config import jit


@jit
def leaf(x):
    return x * 3 + 1


@jit
def aside_root(x):
    return leaf(x) - 1


@jit
def main_root(x):
    return aside_root(x) + 2
'''

ASIDE_PLAN = '[("asidekernels", "aside_root", "(int64, )")]'

# The main process: starts the second process, waits for it to end (so that what it compiled is
# fixed), then calls the kernel that reaches the one it compiled; prints what each compiled.
MAIN = f'''
import fcntl, json, sys, time
from pathlib import Path
from numba.core import event
from sim.compiling import LOCK_NAME, compile_aside, compiling
from sim.numba_config import CACHE_DIR

here = []


class Heard(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        here.append(ev.data["dispatcher"].py_func.__qualname__)


event.register("numba:compile", Heard())
import asidekernels
with compiling(sys.stderr, first_after=0.0):
    with compile_aside({ASIDE_PLAN}) as aside:
        locked = None
        if aside is not None:
            with open(Path(CACHE_DIR) / LOCK_NAME, "a") as f:  # held by this process for the second
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    locked = False
                except BlockingIOError:
                    locked = True
            aside.process.wait()
        value = asidekernels.main_root(5)
    time.sleep(1.6)  # the spell ends after a second idle: its last line
    with open(Path(CACHE_DIR) / LOCK_NAME, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when the second process ended
print(json.dumps({{"value": value, "aside": aside is not None, "locked": locked, "here": here,
                  "there": aside.compiled if aside else [], "done": aside.done if aside else []}}))
'''


def _aside_env(tmp_path: Path, **extra: str) -> dict:
    root = Path(__file__).resolve().parent.parent
    (tmp_path / "asidekernels.py").write_text(KERNELS)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", ASIDE_ENV)}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join([str(root), str(tmp_path)]),
               **extra)
    return env


def _run_main(tmp_path: Path, **extra: str) -> dict:
    run = subprocess.run([sys.executable, "-c", MAIN], env=_aside_env(tmp_path, **extra), cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1]) | {"stderr": run.stderr}


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "sched_getaffinity") or usable_cores() < 2,
                    reason="no flock, or one core: no second process")
def test_a_cold_cache_compiles_aside_and_a_warm_one_starts_nothing(tmp_path):
    cold = _run_main(tmp_path)
    assert cold["aside"] and cold["value"] == 5 * 3 + 1 - 1 + 2
    assert sorted(cold["there"]) == ["asidekernels.aside_root", "asidekernels.leaf"]  # compiled there
    assert cold["done"] == ["asidekernels.aside_root"]
    assert cold["here"] == ["main_root"]  # and loaded here: only the kernel of this process compiled
    assert cold["locked"]  # the cache folder's lock was held while the second process ran
    assert cold["stderr"].splitlines()[-1].startswith("compiled 3 kernels in 0:0")  # counted on the line
    assert cold["stderr"].splitlines()[-1].endswith(" on two cores (cached: later runs load them)")
    warm = _run_main(tmp_path)
    assert not warm["aside"] and warm["value"] == cold["value"] and warm["here"] == []


def test_no_second_process_on_one_core_or_when_told(monkeypatch, tmp_path):
    plan = [("sim.engine.settle_nb", "apply_deal34", "(int64, )")]  # a kernel never compiled for this
    monkeypatch.setattr(compiling_module, "is_cached", lambda module, kernel: False)
    monkeypatch.setattr(compiling_module, "usable_cores", lambda: 2)
    monkeypatch.delenv(ASIDE_ENV, raising=False)
    assert aside_wanted(plan) == bool(CACHE_DIR and hasattr(compiling_module, "fcntl")
                                      and compiling_module.fcntl is not None)
    monkeypatch.setattr(compiling_module, "usable_cores", lambda: 1)
    assert not aside_wanted(plan)
    monkeypatch.setattr(compiling_module, "usable_cores", lambda: 2)
    monkeypatch.setenv(ASIDE_ENV, "0")
    assert not aside_wanted(plan)
    monkeypatch.delenv(ASIDE_ENV)
    monkeypatch.setattr(compiling_module, "is_cached", lambda module, kernel: True)
    assert not aside_wanted(plan)  # all cached: nothing to compile aside


def test_signatures_are_spelled_and_read_back():
    t = numba.types
    args = (t.int64, t.float32, t.boolean, t.literal(False), t.Array(t.int8, 2, "C"),
            t.Array(t.uint64, 1, "A", readonly=True), t.UniTuple(t.int64, 2),
            t.Tuple((t.Array(t.int64, 1, "C"), t.float64)), t.Omitted(-1), t.none)
    assert read_signature(spell_signature(args)) == args
    with pytest.raises(ValueError, match="no spelling"):
        spell_signature((t.unicode_type,))


def test_the_advisors_plan_reads_back_to_kernels():
    """Every kernel ``thousand bid`` compiles aside exists and its signature reads back (whether the
    advisor still calls it so is the slow test below)."""
    for module, kernel, signature in COMPILE_ASIDE:
        assert isinstance(getattr(importlib.import_module(module), kernel), Dispatcher)
        assert spell_signature(read_signature(signature)) == signature


@pytest.mark.skipif(not CACHE_DIR or sys.platform == "win32", reason="no cache folder, or no flock")
def test_a_kernel_another_process_compiles_is_waited_for(tmp_path):
    """A kernel's own lock held by another process (compiling it): this one waits, then compiles."""
    env = _aside_env(tmp_path)
    lock = tmp_path / "cache" / "held"
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, subprocess, sys, time
        from pathlib import Path
        from sim.numba_config import CACHE_DIR, KERNEL_LOCKS
        path = Path(CACHE_DIR) / KERNEL_LOCKS / "asidekernels.leaf.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        holder = subprocess.Popen([sys.executable, "-c", '''
        import fcntl, time
        with open({{!r}}, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            open({str(lock)!r}, "w").close()
            time.sleep(2)
        '''.format(str(path))])
        while not Path({str(lock)!r}).exists():
            time.sleep(0.05)
        import asidekernels
        started = time.perf_counter()
        assert asidekernels.leaf(2) == 7
        print(time.perf_counter() - started)
        holder.wait()
        """)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert float(run.stdout.split()[-1]) > 1.0  # it waited for the holder's 2 s


SLOW_PLAN = ('[("sim.engine.settle_nb", "apply_deal34", ' + repr(next(s for m, k, s in COMPILE_ASIDE
                                                                     if k == "apply_deal34")) + ")]")


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "sched_getaffinity") or usable_cores() < 2,
                    reason="no signals as on POSIX, or one core: no second process")
@pytest.mark.parametrize("how", ["interrupt", "kill"])
def test_the_second_process_ends_with_the_first(tmp_path, how):
    """Ctrl-C (SIGINT) in the first process ends the second; so does the first's death (SIGKILL:
    the second sees its standard input close)."""
    main = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from sim.compiling import compile_aside
        with compile_aside({SLOW_PLAN}) as aside:
            print(aside.process.pid, flush=True)
            time.sleep(120)
        """)], env=_aside_env(tmp_path), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        second = int(main.stdout.readline())
        time.sleep(2)  # the second process is importing or compiling (apply_deal34 takes seconds)
        assert _alive(second)
        main.send_signal(signal.SIGINT if how == "interrupt" else signal.SIGKILL)
        main.wait(30)
        deadline = time.perf_counter() + 30
        while _alive(second) and time.perf_counter() < deadline:
            time.sleep(0.1)
        assert not _alive(second)
    finally:
        if main.poll() is None:
            main.kill()
            main.wait()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped by its parent, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


BID = ["bid", "AH TH KH QH AS 9C JD", "--seat", "second", "--samples", "400", "--make-samples", "200", "--json"]


def _compiled_aside(tmp_path, argv, plan, same_output=True):
    """``thousand ARGV`` on an empty cache: a second process compiles ``plan``, each kernel cached
    for the plan's signature only (a stale one would be compiled a second time, for the signature
    the command calls); the command's output is that of the warm cache after it."""
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != ASIDE_ENV}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(root))
    log = tmp_path / "compiles.jsonl"
    cold = subprocess.run([sys.executable, str(root / "benchmarks" / "compile_profile.py"), "--log", str(log), "--",
                           *argv], env=env, cwd=root, capture_output=True, text=True, timeout=1800)
    assert cold.returncode == 0, cold.stderr
    assert "on two cores" in cold.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    here = {(row["kernel"], row["sig"]) for row in rows}
    cache = next((tmp_path / "cache").glob("numba-*"))
    # more specialisations cached than this process compiled: the rest were the second process's
    assert len(list(cache.glob("*/*.nbc"))) > sum(row["kernel"].startswith("sim.") for row in rows)
    for module, kernel, signature in plan:
        # compiled here (this process reached it first) for the plan's signature only, or loaded;
        # and cached once: never for a signature the plan does not name
        assert {s for k, s in here if k == f"{module}.{kernel}"} <= {signature}
        assert len(list(cache.glob(f"*/{module.split('.')[-1]}.{kernel}-*.nbc"))) == 1, kernel
    warm = subprocess.run([sys.executable, str(root / "cli.py"), *argv], env=env, cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    assert "on two cores" not in warm.stderr
    if same_output:
        assert warm.stdout == cold.stdout


TWO_CORES = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "sched_getaffinity") or usable_cores() < 2,
                               reason="no flock, or one core: no second process")


@pytest.mark.slow
@TWO_CORES
def test_thousand_bid_on_a_cold_cache_compiles_its_plan_aside(tmp_path):
    """``thousand bid`` on an empty cache compiles ``COMPILE_ASIDE`` in a second process. About 100
    CPU seconds."""
    _compiled_aside(tmp_path, BID, COMPILE_ASIDE)


@pytest.mark.slow
@TWO_CORES
def test_thousand_simulate_on_a_cold_cache_compiles_its_plan_aside(tmp_path):
    """``thousand simulate`` on an empty cache compiles ``SIMULATE_ASIDE`` in a second process (the
    warm run reuses the stored run: its summary is compared apart). About 110 CPU seconds."""
    out = tmp_path / "run"
    _compiled_aside(tmp_path, ["simulate", "--games", "60", "--out", str(out)], SIMULATE_ASIDE, same_output=False)
    assert (out / "manifest.json").exists() or any(out.iterdir())


@pytest.mark.slow
def test_without_the_jit_the_package_runs_and_plays_the_same_bytes(tmp_path):
    """``NUMBA_DISABLE_JIT=1`` (kernels run as plain Python, for a debugger) imports the package and
    plays two heuristic games to the very bytes of the compiled run: the kernels' wrappers hand the
    plain function through."""
    root = Path(__file__).resolve().parent.parent
    stored = {}
    for name, extra in (("compiled", {}), ("plain", {"NUMBA_DISABLE_JIT": "1"})):
        out = tmp_path / name
        subprocess.run([sys.executable, str(root / "cli.py"), "simulate", "--games", "2", "--players", "heuristic",
                        "--out", str(out), "--no-progress"], check=True, capture_output=True, cwd=root,
                       env={**os.environ, **extra}, timeout=600)
        stored[name] = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.parquet"))}
    assert stored["plain"] and stored["plain"] == stored["compiled"]
