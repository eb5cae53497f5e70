"""Compiling, shown, taken in turns and shared: a line on stderr counting the kernels compiled and
left while Numba compiles; the cache folder's lock, so that two commands never compile into one
cold cache at once; and a second process that compiles some of a command's kernels on another core
(``compile_aside``, below), each kernel's compile under its own lock (``sim.numba_config``).

A kernel compiles on its first call when the on-disk cache (``sim.numba_config``) does not hold
it: the first run of a version on a machine. ``compiling()`` listens to Numba's compile events for
as long as its block runs (the command line wraps every command in it). When a kernel starts to
compile from Python, the kernels it can reach (its callees, through the names its code reads, and
theirs) are added to those expected; the line says how many specialisations are compiled, how many
of the expected kernels are not compiled yet, and the time so far. A spell of compiling shows from
its first second and ends when nothing has compiled for a second. On a terminal the line is redrawn
in place once a second (a tqdm status line, above the bars of the work that waits for the
kernels); otherwise a plain line is written every ``PLAIN_EVERY`` seconds. When the spell is over,
one line says how many kernels compiled in how long (measured, as every time the line states), and
"on two cores" when a second process compiled some of them. A
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

import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import numba
from numba.core import event
from numba.core.dispatcher import Dispatcher
from tqdm import tqdm

from sim.numba_config import CACHE_DIR, JIT_DISABLED, is_cached

try:
    import fcntl
except ImportError:  # no advisory locks (Windows): compiles are not serialised across processes
    fcntl = None

__all__ = ["compiling", "cache_lock", "reachable_kernels", "compile_aside", "aside_wanted", "aside_main",
           "usable_cores", "spell_signature", "read_signature", "AsideKernel", "LOCK_NAME", "PLAIN_EVERY",
           "ASIDE_ENV"]

LOCK_NAME = ".compile.lock"
PLAIN_EVERY = 5.0  # seconds between two plain lines (stderr not a terminal)
_TTY_EVERY = 1.0  # seconds between two redraws on a terminal
_GRACE = 1.0  # seconds without a compile that end a spell
_TICK = 0.25
ASIDE_ENV = "THOUSAND_COMPILE_ASIDE"  # set to 0: never compile in a second process
AsideKernel = tuple[str, str, str]  # (module, kernel, its argument types as spell_signature writes them)


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
        self.aside_running = 0  # second processes compiling for this one (compile_aside)
        self.aside_compiled = 0  # specialisations they compiled in this spell
        self.aside_names: set[str] = set()  # the kernels they compiled ("module.name")
        self.aside_kernels: frozenset[Dispatcher] = frozenset()  # the kernels they may compile

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
            self._start_spell()

    def on_end(self, ev) -> None:
        self.local.depth -= 1
        with self.guard:
            self.active -= 1
            self.compiled += 1
            if self.active == 0:
                self.idle_since = time.perf_counter()
        if self.local.depth == 0:
            _LOCK.release()

    def _start_spell(self) -> None:
        """Under ``guard``: a spell begins (its line and its ticking thread)."""
        if self.started is None:
            self.started, self.written = time.perf_counter(), None
            threading.Thread(target=self._tick, daemon=True).start()

    def aside(self, kernels: frozenset[Dispatcher], running: int) -> None:
        """A second process starts (``running`` 1, with the kernels it may compile) or ends (-1)."""
        with self.guard:
            self.aside_running += running
            self.aside_kernels = kernels if running > 0 else frozenset()
            self.expected |= kernels
            if self.active == 0:
                self.idle_since = time.perf_counter()

    def on_aside(self, name: str) -> None:
        """A second process compiled a specialisation of kernel ``name``."""
        with self.guard:
            self.compiled += 1
            self.aside_compiled += 1
            self.aside_names.add(name)
            if self.active == 0:
                self.idle_since = time.perf_counter()
            self._start_spell()

    def _left(self) -> int:
        return sum(1 for d in list(self.expected)
                   if not d.overloads and f"{d.py_func.__module__}.{d.py_func.__qualname__}" not in self.aside_names)

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
            aside = " on two cores" if self.aside_compiled else ""  # a second process compiled some
            self._write(f"compiled {self.compiled} kernels in "
                        f"{_clock((self.idle_since or time.perf_counter()) - self.started)}{aside} "
                        "(cached: later runs load them)", final=True)
        self.started, self.compiled, self.aside_compiled = None, 0, 0
        self.expected = set(self.aside_kernels) if self.aside_running else set()
        self.aside_names.clear()

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
                if self.active == 0 and not self.aside_running and now - self.idle_since >= _GRACE:
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


# Compiling on a second core. Numba compiles serially within a process (one compiler lock), so a
# command whose first run compiles minutes of kernels uses one core. ``compile_aside`` starts a
# second Python process that compiles a list of the command's kernels, each for the argument types
# the command will call it with (``AsideKernel``: the kernels the command reaches last), into the
# same cache folder, while this process compiles the command's own way through the others; when
# it reaches a kernel the second has compiled, it loads it from the cache. The two never compile
# one kernel at once: every compile holds the kernel's own lock (``sim.numba_config``), and the one
# that waited for it finds it cached. This process holds the cache folder's lock (``LOCK_NAME``)
# for as long as the second runs, so a third process waits for both. The second process writes a
# line to this one for each specialisation it compiled (counted on the progress line) and ends
# with this one: at the end of the block, or when this one dies (its standard input closes).


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return os.cpu_count() or 1


def _spell(t) -> str:
    if isinstance(t, numba.types.Array):
        readonly = "" if t.mutable else ", readonly=True"
        return f"Array({_spell(t.dtype)}, {t.ndim}, {t.layout!r}{readonly})"
    if isinstance(t, numba.types.Literal):
        return f"literal({t.literal_value!r})"
    if isinstance(t, numba.types.Boolean):
        return "boolean"
    if isinstance(t, numba.types.Integer | numba.types.Float):
        return t.name
    if isinstance(t, numba.types.UniTuple):
        return f"UniTuple({_spell(t.dtype)}, {t.count})"
    if isinstance(t, numba.types.Tuple):
        return f"Tuple(({''.join(_spell(x) + ', ' for x in t.types)}))"
    if isinstance(t, numba.types.Omitted):
        return f"Omitted({t.value!r})"
    if isinstance(t, numba.types.NoneType):
        return "none"
    raise ValueError(f"no spelling for the Numba type {t}")


def spell_signature(args: Sequence) -> str:
    """Numba argument types as text that ``read_signature`` reads back to the same types."""
    text = f"({''.join(_spell(a) + ', ' for a in args)})"
    if tuple(read_signature(text)) != tuple(args):
        raise ValueError(f"the spelling {text} does not read back as {args}")
    return text


def read_signature(text: str) -> tuple:
    """The Numba argument types that ``spell_signature`` wrote as ``text``."""
    return tuple(eval(text, {"__builtins__": {}}, vars(numba.types)))  # noqa: S307 (the project's own text)


def _dispatcher(module: str, kernel: str) -> Dispatcher:
    return getattr(importlib.import_module(module), kernel)


def aside_wanted(plan: Sequence[AsideKernel]) -> bool:
    """Whether a second process should compile ``plan``: some of it is not cached, the cache can be
    written and locked, and this process may use two cores or more (``ASIDE_ENV`` not 0)."""
    return (bool(plan) and bool(CACHE_DIR) and not JIT_DISABLED and fcntl is not None
            and os.environ.get(ASIDE_ENV, "1") != "0" and usable_cores() >= 2
            and not all(is_cached(module, kernel) for module, kernel, _ in plan))


class _Aside:
    """The second process, its lines read by a thread of this one."""

    def __init__(self, plan: Sequence[AsideKernel], progress: _Progress | None) -> None:
        self.progress = progress
        self.kernels = frozenset().union(*(reachable_kernels(_dispatcher(m, k)) for m, k, _ in plan))
        self.compiled: list[str] = []  # "module.kernel" of each specialisation the process compiled
        self.done: list[str] = []  # the plan's kernels compiled (or found cached)
        self.failed: list[str] = []  # the plan's kernels that could not be compiled, with why
        self.errors: list[str] = []  # the last lines of its standard error
        root = str(Path(__file__).resolve().parent.parent)  # the folder holding sim/: this very code
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from sim.compiling import aside_main; aside_main()",
             *(":".join(entry) for entry in plan)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True, cwd=root)
        if progress is not None:
            progress.aside(self.kernels, 1)
        self.errors_thread = threading.Thread(target=self._read_errors, daemon=True)
        self.errors_thread.start()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read_errors(self) -> None:
        for line in self.process.stderr:
            self.errors = [*self.errors[-19:], line.rstrip()]

    def _read(self) -> None:
        try:
            for line in self.process.stdout:
                kind, _, name = line.strip().partition(" ")
                if kind == "compiled":
                    self.compiled.append(name)
                    if self.progress is not None:
                        self.progress.on_aside(name)
                elif kind == "done":
                    self.done.append(name)
                elif kind == "failed":
                    self.failed.append(name)
            self.process.wait()
        finally:
            if self.progress is not None:
                self.progress.aside(frozenset(), -1)
            _LOCK.release()

    def stop(self) -> None:
        """End the process if it still runs, and wait for its lines to be read."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.reader.join()
        self.errors_thread.join()
        self.process.stdin.close()


@contextmanager
def compile_aside(plan: Sequence[AsideKernel], stream: TextIO | None = None) -> Iterator[_Aside | None]:
    """For the block, a second process compiling ``plan`` into the cache when ``aside_wanted`` (else
    nothing: a warm cache, one core); yields it, or None. Inside ``compiling()`` its compiles are
    counted on the progress line. The cache folder's lock is taken first (waiting, with a line on
    ``stream``, while another process compiles): what that process compiled may leave nothing to
    compile aside."""
    if not aside_wanted(plan):
        yield None
        return
    _LOCK.acquire(stream or sys.stderr)
    try:
        wanted = aside_wanted(plan)
    except BaseException:
        _LOCK.release()
        raise
    if not wanted:
        _LOCK.release()
        yield None
        return
    try:
        aside = _Aside(plan, _ACTIVE[0] if _ACTIVE else None)
    except BaseException:
        _LOCK.release()
        raise
    try:
        yield aside
    finally:
        aside.stop()


def _orphaned() -> None:
    """Ends the second process when the first closes its standard input (it ended, or died)."""
    sys.stdin.read()
    os._exit(0)


class _Announce(event.Listener):
    def on_start(self, ev) -> None:
        pass

    def on_end(self, ev) -> None:
        func = ev.data["dispatcher"].py_func
        print(f"compiled {func.__module__}.{func.__qualname__}", flush=True)


def aside_main() -> None:
    """The second process of ``compile_aside``: compiles each "module:kernel:signature" of its
    arguments in turn, a line on standard output for each specialisation compiled, then each kernel
    done or failed (a signature the code no longer takes: the command compiles it itself)."""
    threading.Thread(target=_orphaned, daemon=True).start()
    try:
        with event.install_listener("numba:compile", _Announce()):
            for entry in sys.argv[1:]:
                module, kernel, signature = entry.split(":", 2)
                try:
                    _dispatcher(module, kernel).compile(read_signature(signature))
                except Exception as exc:  # noqa: BLE001 (reported; the command compiles what it needs)
                    print(f"failed {module}.{kernel}: {type(exc).__name__}", flush=True)
                else:
                    print(f"done {module}.{kernel}", flush=True)
    except KeyboardInterrupt:  # Ctrl-C on the terminal reaches both processes: end quietly
        os._exit(1)
