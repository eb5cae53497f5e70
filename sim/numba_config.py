"""The one place that sets Numba options for the whole project.

The on-disk cache lives in a directory named after the package version and a hash of the
compiled modules' source: Numba's own cache index only notices edits to a kernel's own file, not
to the modules it calls, so any edit to any of them starts a fresh cache instead of reading a
stale one.

Numba reads ``NUMBA_CACHE_DIR`` from the environment when it is first imported, so a script that
imports numba (or anything that does) before this module would otherwise have the kernels cached
in Numba's in-tree ``__pycache__``. This module therefore sets Numba's configuration itself
(``numba.config.CACHE_DIR``) as well as the environment (for child processes and Numba's own
reloads of the environment), so the order of imports does not matter.

The folder: ``numba-<version>-<source hash>`` inside ``$NUMBA_CACHE_DIR`` when the user sets it
(the name is always added, so an edit never meets a stale cache there either), else inside
``$XDG_CACHE_HOME/thousand``, else ``~/.cache/thousand``.
"""

import hashlib
import importlib.util
import os
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["__version__", "jit", "jit_hot", "jit_inline", "CACHE_DIR", "JIT_DISABLED", "KERNEL_LOCKS", "is_cached",
           "kernel_lock_waits"]

try:
    __version__ = version("thousand")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+source"


def _source_hash() -> str:
    """A hash of every Python file of ``sim`` and its sub-packages (the compiled code's source)."""
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def _cache_dir() -> tuple[str, str | None]:
    """(the folder of the compiled cache, a note for the user when it is not the one asked for).

    Numba, given a folder it cannot write, caches beside the sources (``sim/**/__pycache__``),
    where its index notices no edit to a called module: the very staleness this module exists to
    prevent. So an unwritable folder falls back to one in the temporary directory, named after
    the same source hash, and failing that caching is switched off."""
    name = f"numba-{__version__}-{_source_hash()}"
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        # A child process inherits the folder this module chose (the environment is set below):
        # the name is already there, not to be added twice.
        asked = user_dir if Path(user_dir).name == name else str(Path(user_dir) / name)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        asked = str(base / "thousand" / name)
    if _writable(Path(asked)):
        return asked, None
    fallback = Path(tempfile.gettempdir()) / f"thousand-{os.getuid() if hasattr(os, 'getuid') else 'user'}" / name
    if _writable(fallback):
        return str(fallback), (f"note: the Numba cache folder {asked} cannot be written; compiled kernels are cached "
                               f"in {fallback} instead")
    return "", f"note: neither {asked} nor {fallback} can be written; compiled kernels are not cached (slow starts)"


CACHE_DIR, _cache_note = _cache_dir()
if _cache_note:
    print(_cache_note.encode("ascii", "backslashreplace").decode("ascii"), file=sys.stderr)
if CACHE_DIR:
    os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR
else:
    os.environ.pop("NUMBA_CACHE_DIR", None)

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set, for a first import of numba)
import numba.core.config  # noqa: E402
from numba.core import sigutils  # noqa: E402
from numba.core.compiler_lock import global_compiler_lock  # noqa: E402

try:
    import fcntl
except ImportError:  # no advisory locks (Windows): compiles are not serialised across processes
    fcntl = None

# numba may have been imported before this module, its configuration read then: set it too. The
# kernels' cache locator reads it when each kernel is decorated, after this line.
numba.core.config.CACHE_DIR = CACHE_DIR

JIT_DISABLED = bool(numba.config.DISABLE_JIT)

# Kernels are serial and release the GIL: runners parallelise over chunks with threads, so that
# results never depend on how many threads run them.
_CACHE = bool(CACHE_DIR)  # never Numba's in-tree fallback (see _cache_dir)


KERNEL_LOCKS = ".kernel-locks"  # the folder, in CACHE_DIR, of the kernels' own compile locks


class _KernelLocks:
    """One advisory lock a kernel, in ``CACHE_DIR/KERNEL_LOCKS``, held while this process compiles it
    and writes it to the cache. Numba's cache index of a kernel (one file for all its
    specialisations) is read, amended and written back by each save: two processes saving two
    specialisations of one kernel at once can both take the same data file's name, so that one
    signature's entry names the other's code (the "Symbol not found" abort of
    docs/compiling.md). Under this lock a process that waited for another finds the kernel in the
    cache and loads it instead. Re-entrant within the process (a recursive kernel, or a kernel
    reached twice while compiling); every use runs under Numba's compiler lock, one thread at a
    time, so the counts need no lock of their own."""

    def __init__(self) -> None:
        self.held: dict[str, list] = {}  # name -> [open file, depth]
        self.waited = 0.0  # seconds spent waiting for another process's compiles (kernel_lock_waits)

    def acquire(self, name: str) -> None:
        entry = self.held.get(name)
        if entry is None:
            folder = Path(CACHE_DIR) / KERNEL_LOCKS
            folder.mkdir(parents=True, exist_ok=True)
            handle = open(folder / f"{name}.lock", "a")  # noqa: SIM115 (held until release)
            try:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:  # another process compiles it: wait, then load what it saved
                    started = time.perf_counter()
                    fcntl.flock(handle, fcntl.LOCK_EX)
                    self.waited += time.perf_counter() - started
            except BaseException:
                handle.close()
                raise
            entry = self.held[name] = [handle, 0]
        entry[1] += 1

    def release(self, name: str) -> None:
        entry = self.held[name]
        entry[1] -= 1
        if entry[1] == 0:
            del self.held[name]
            fcntl.flock(entry[0], fcntl.LOCK_UN)
            entry[0].close()


_KERNEL_LOCKS = _KernelLocks()


def kernel_lock_waits() -> float:
    """The seconds this process has waited, so far, for kernels another process was compiling
    (``benchmarks/compile_profile.py`` prints them: on two cores, how long the command waited for
    the second process)."""
    return _KERNEL_LOCKS.waited


def _compiled_under_lock(dispatcher):
    """``dispatcher`` whose compiles (a first call from Python, or a call typed inside another
    kernel: both go through ``compile``) hold the kernel's own lock (``_KernelLocks``) while the
    cache is looked up, the kernel compiled and saved. An overload this process holds already
    takes no lock."""
    compile_ = dispatcher.compile
    name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"

    def compile(sig):  # noqa: A001 (Numba's method name)
        with global_compiler_lock:
            if fcntl is None or not _CACHE or tuple(sigutils.normalize_signature(sig)[0]) in dispatcher.overloads:
                return compile_(sig)
            _KERNEL_LOCKS.acquire(name)
            try:
                return compile_(sig)
            finally:
                _KERNEL_LOCKS.release(name)

    dispatcher.compile = compile
    return dispatcher


def _int_literals_widened(decorator):
    """``decorator`` (a ``numba.njit``), whose kernels, called from another kernel with a constant
    integer argument (``f(x, 0)``), are compiled for ``int64`` rather than once more for the constant
    (Numba types a constant argument ``Literal[int](0)`` and would compile a specialisation for each
    constant: 82 of the 348 compiles of a first ``thousand simulate``, docs/compiling.md). What is
    computed is the same; a constant ``True``/``False`` still compiles its own specialisation, whose
    dead branches are pruned (the solver's move generators ask for that). Its compiles hold the
    kernel's own lock (``_compiled_under_lock``)."""

    def widen(t):
        return numba.types.unliteral(t) if isinstance(t, numba.types.IntegerLiteral) else t

    def wrapped(func):
        dispatcher = decorator(func)
        if not hasattr(dispatcher, "get_call_template"):  # NUMBA_DISABLE_JIT=1: the plain function
            return dispatcher
        call_template = dispatcher.get_call_template

        def get_call_template(args, kws):
            return call_template(tuple(widen(a) for a in args), {k: widen(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return _compiled_under_lock(dispatcher)

    return wrapped


jit = _int_literals_widened(numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy"))
# For code that runs once per card or per deal and allocates nothing: without the Numba runtime's
# reference counting of array arguments (atomic increments on every call), a game plays about
# three times faster. Such functions take every buffer from their caller.
jit_hot = _int_literals_widened(numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy",
                                           _nrt=False))
# The same, inlined into every caller at compile time: a caller passing a constant (the number of
# seats) gets code specialised for it.
jit_inline = numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy", _nrt=False, inline="always")


def is_cached(module: str, function: str) -> bool:
    """Whether the compiled cache holds kernel ``function`` of the module ``module`` (as
    "sim.engine.playouts_nb", "line_samples") compiled from this checkout: when not, its first call
    compiles it and what it calls. A command says so before it starts (a first run of a version
    takes minutes, later ones load). Numba files a kernel under a folder named after its source
    folder's absolute path (``NAME_<SHA-1 of the path>``), so the kernels another checkout of the
    same code compiled into the same ``CACHE_DIR`` (named after the version and the source hash)
    are not this checkout's: its first answer compiles."""
    if not CACHE_DIR or JIT_DISABLED:
        return False
    spec = importlib.util.find_spec(module)  # the module's file, as Numba's locator names its folder
    if spec is None or not spec.origin:
        return False
    folder = os.path.dirname(os.path.abspath(spec.origin))
    numba_folder = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    return any((Path(CACHE_DIR) / numba_folder).glob(f"{module.split('.')[-1]}.{function}-*.nbi"))
