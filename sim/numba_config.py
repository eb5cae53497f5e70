"""The one place that sets Numba options for the whole project.

The on-disk cache lives in a directory named after the package version and a hash of the
compiled modules' source: Numba's own cache index only notices edits to a kernel's own file, not
to the modules it calls, so any edit to any of them starts a fresh cache instead of reading a
stale one.
"""

import hashlib
import os
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["__version__", "jit", "jit_hot", "jit_inline", "CACHE_DIR", "JIT_DISABLED"]

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
    asked = os.environ.get("NUMBA_CACHE_DIR") or str(Path.home() / ".cache" / "thousand" / name)
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

import numba  # noqa: E402  (must come after NUMBA_CACHE_DIR is set)

JIT_DISABLED = bool(numba.config.DISABLE_JIT)

# Kernels are serial and release the GIL: runners parallelise over chunks with threads, so that
# results never depend on how many threads run them.
_CACHE = bool(CACHE_DIR)  # never Numba's in-tree fallback (see _cache_dir)
jit = numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy")
# For code that runs once per card or per deal and allocates nothing: without the Numba runtime's
# reference counting of array arguments (atomic increments on every call), a game plays about
# three times faster. Such functions take every buffer from their caller.
jit_hot = numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy", _nrt=False)
# The same, inlined into every caller at compile time: a caller passing a constant (the number of
# seats) gets code specialised for it.
jit_inline = numba.njit(cache=_CACHE, nogil=True, fastmath=False, error_model="numpy", _nrt=False, inline="always")
