"""Compiling, shown and taken in turns: a line on stderr counting the kernels compiled and left
while Numba compiles, and the cache folder's lock, so that two processes never compile into one
cold cache at once.

A kernel compiles on its first call when the on-disk cache (``sim.numba_config``) does not hold
it: the first run of a version on a machine. ``compiling()`` listens to Numba's compile events for
as long as its block runs (the command line wraps every command in it). When a kernel starts to
compile from Python, the kernels it can reach (its callees, through the names its code reads, and
theirs) are added to those expected; the line says how many specialisations are compiled, how many
of the expected kernels are not compiled yet, and the time so far. A spell of compiling shows from
its first second and ends when nothing has compiled for a second. On a terminal the line is redrawn
in place once a second (a tqdm status line, above the bars of the work that waits for the
kernels); otherwise a plain line is written every ``PLAIN_EVERY`` seconds. When the spell is over,
one line says how many kernels compiled in how long (measured, as every time the line states). A
warm cache compiles nothing and the line never shows. "Left" counts what the code could reach:
a branch Numba prunes (the 2-player search in a 3-player deal) never compiles, so a few are left
at the end.

The lock: two processes compiling the same kernels into one cold cache at once crashed one of them
inside LLVM (a "Symbol not found" abort while finalizing a kernel, twice on 2026-12-06). So a
process holds ``LOCK_NAME`` in the cache folder (an advisory ``flock``) while it compiles; a second
process that starts compiling meanwhile says that it waits and waits, then loads from the cache
what the first compiled (each kernel a compile reaches is looked up in the cache first). The lock
is held only while something compiles, so runs on a warm cache never wait for each other.
``cache_lock()`` takes the same lock for a whole block (the test workers' warm-up).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from numba.core import event
from numba.core.dispatcher import Dispatcher
from tqdm import tqdm

from sim.numba_config import CACHE_DIR

try:
    import fcntl
except ImportError:  # no advisory locks (Windows): compiles are not serialised across processes
    fcntl = None

__all__ = ["compiling", "cache_lock", "reachable_kernels", "LOCK_NAME", "PLAIN_EVERY"]

LOCK_NAME = ".compile.lock"
PLAIN_EVERY = 5.0  # seconds between two plain lines (stderr not a terminal)
_TTY_EVERY = 1.0  # seconds between two redraws on a terminal
_GRACE = 1.0  # seconds without a compile that end a spell
_TICK = 0.25


def _is_inlined(dispatcher: Dispatcher) -> bool:
    """Inlined into its callers (``jit_inline``): compiled as part of them, never by itself."""
    return dispatcher.targetoptions.get("inline") == "always"


def _names(code) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            yield from _names(const)


_REACH: dict[Dispatcher, frozenset[Dispatcher]] = {}


def reachable_kernels(dispatcher: Dispatcher) -> frozenset[Dispatcher]:
    """The kernels that compiling ``dispatcher`` may compile: itself unless inlined, and every kernel
    the names of its code reach (a global, or an attribute of a module it reads), through the
    inlined ones too, recursively: the project's kernels, not Numba's own (``np.zeros``...)."""
    if dispatcher in _REACH:
        return _REACH[dispatcher]
    if not dispatcher.py_func.__module__.startswith("sim."):  # Numba's own: not counted
        return frozenset()
    _REACH[dispatcher] = frozenset()  # a kernel reaching itself (recursion) stops here
    found: set[Dispatcher] = set() if _is_inlined(dispatcher) else {dispatcher}
    func = dispatcher.py_func
    names = set(_names(func.__code__))
    for name in names:
        value = func.__globals__.get(name)
        if isinstance(value, Dispatcher):
            found |= reachable_kernels(value)
        elif isinstance(value, type(sys)):  # a module: the names read as its attributes
            for attr in names:
                inner = getattr(value, attr, None)
                if isinstance(inner, Dispatcher):
                    found |= reachable_kernels(inner)
    _REACH[dispatcher] = frozenset(found)
    return _REACH[dispatcher]


class _CacheLock:
    """The process's hold on the cache folder's lock file, re-entrant across threads and callers:
    the file is locked by the first holder and unlocked by the last."""

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.count = 0
        self.file = None

    def acquire(self, say: TextIO | None) -> None:
        if fcntl is None or not CACHE_DIR:
            return
        with self.guard:
            if self.count == 0:
                Path(CACHE_DIR).mkdir(parents=True, exist_ok=True)
                self.file = open(Path(CACHE_DIR) / LOCK_NAME, "a")  # noqa: SIM115 (held across calls)
                try:
                    fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if say is not None:
                        print(f"another process is compiling into {CACHE_DIR}: waiting for it, then loading "
                              "what it compiled", file=say, flush=True)
                    fcntl.flock(self.file, fcntl.LOCK_EX)
            self.count += 1

    def release(self) -> None:
        if fcntl is None or not CACHE_DIR:
            return
        with self.guard:
            self.count -= 1
            if self.count == 0:
                fcntl.flock(self.file, fcntl.LOCK_UN)
                self.file.close()
                self.file = None


_LOCK = _CacheLock()


@contextmanager
def cache_lock(say: TextIO | None = None) -> Iterator[None]:
    """Hold the cache folder's compile lock for the block (waiting, with a line on ``say``, while
    another process compiles)."""
    _LOCK.acquire(say)
    try:
        yield
    finally:
        _LOCK.release()


def _clock(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


class _Progress(event.Listener):
    """The compile events of every thread of this process, counted and shown on ``stream``. A spell
    of compiling is shown from its ``first_after``-th second (a few kernels compiled in passing
    say nothing) and ends when nothing has compiled for ``_GRACE`` seconds (the kernels a command
    compiles one after another are one spell)."""

    def __init__(self, stream: TextIO, first_after: float) -> None:
        self.stream, self.tty, self.first_after = stream, stream.isatty(), first_after
        self.every = _TTY_EVERY if self.tty else PLAIN_EVERY
        self.guard = threading.Lock()
        self.local = threading.local()
        self.active = 0  # compiles in progress, nested ones included
        self.compiled = 0  # specialisations compiled in this spell
        self.expected: set[Dispatcher] = set()
        self.started = None  # when the spell began (None: no spell)
        self.idle_since = None  # when the last compile in progress ended
        self.written = None  # when the spell's line was last written (None: not yet)
        self.status = None  # the terminal's status line (a tqdm), while it shows

    def on_start(self, ev) -> None:
        depth = getattr(self.local, "depth", 0)
        self.local.depth = depth + 1
        if depth == 0:  # a kernel called from Python: the lock, and what it may compile
            _LOCK.acquire(self.stream)
        with self.guard:
            self.active += 1
            self.idle_since = None
            if depth == 0:
                self.expected |= reachable_kernels(ev.data["dispatcher"])
            if self.started is None:
                self.started, self.written = time.perf_counter(), None
                threading.Thread(target=self._tick, daemon=True).start()

    def on_end(self, ev) -> None:
        self.local.depth -= 1
        with self.guard:
            self.active -= 1
            self.compiled += 1
            if self.active == 0:
                self.idle_since = time.perf_counter()
        if self.local.depth == 0:
            _LOCK.release()

    def _left(self) -> int:
        return sum(1 for d in list(self.expected) if not d.overloads)

    def _write(self, line: str, *, final: bool) -> None:
        """On a terminal, a one-line tqdm status (so that the progress bars drawn meanwhile, the
        advisor's, stack under it rather than over it), its last line left in place; else a line."""
        if self.tty:
            if self.status is None:
                self.status = tqdm(file=self.stream, bar_format="{desc}", leave=False)
            if final:
                self.status.close()
                self.status = None
                tqdm.write(line, file=self.stream)
            else:
                self.status.set_description_str(line)
        else:
            self.stream.write(line + "\n")
            self.stream.flush()
        self.written = time.perf_counter()

    def _end(self, *, say: bool = True) -> None:
        """The spell's last line (when it had a line and ``say``), and the end of the spell."""
        if self.status is not None and not say:
            self.status.close()
            self.status = None
        if self.written is not None and say:
            self._write(f"compiled {self.compiled} kernels in "
                        f"{_clock((self.idle_since or time.perf_counter()) - self.started)} "
                        "(cached: later runs load them)", final=True)
        self.started, self.compiled = None, 0
        self.expected.clear()

    def close(self, *, say: bool) -> None:
        """End a spell still in progress: with its last line (``say``: the engine's warm-up, before a
        progress bar), or without it at the end of a command, where it would come after what the
        command printed (its answer must stay the last line)."""
        with self.guard:
            if self.started is not None:
                self._end(say=say)

    def _tick(self) -> None:
        """The spell's line, until the spell ends."""
        while True:
            time.sleep(_TICK)
            with self.guard:
                now = time.perf_counter()
                if self.started is None:  # ended by close()
                    return
                if self.active == 0 and now - self.idle_since >= _GRACE:
                    self._end()
                    return
                due = self.started + self.first_after if self.written is None else self.written + self.every
                if now >= due:
                    self._write(f"compiling the kernels (a first run of this code; cached after): {self.compiled} "
                                f"compiled, {self._left()} left, {_clock(now - self.started)}", final=False)


_ACTIVE: list[_Progress] = []  # the listener of the outermost ``compiling()`` block in progress


@contextmanager
def compiling(stream: TextIO | None = None, *, first_after: float = 1.0) -> Iterator[None]:
    """For the block: a line on ``stream`` (stderr) counting the kernels compiled and left while
    anything compiles (from the ``first_after``-th second of a spell of compiling), and the cache
    folder's lock held while it does (module docstring). A spell still in progress when the block
    ends ends with it, without its last line. A block inside another (the command line's around a command,
    the engine's warm-up inside it) adds no second line: its end ends the spell in progress, so that
    what follows (a progress bar) starts on a line of its own."""
    if _ACTIVE:
        try:
            yield
        finally:
            _ACTIVE[0].close(say=True)
        return
    progress = _Progress(stream or sys.stderr, first_after)
    _ACTIVE.append(progress)
    try:
        with event.install_listener("numba:compile", progress):
            yield
    finally:
        _ACTIVE.clear()
        progress.close(say=False)
