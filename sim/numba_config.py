"""The one place that sets Numba options for the whole project.

The on-disk cache lives in a directory named after the package version and a hash of the
compiled modules' source: Numba's own cache index only notices edits to a kernel's own file, not
to the modules it calls, so any edit to any of them starts a fresh cache instead of reading a
stale one.
"""

import hashlib
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

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


os.environ.setdefault(
    "NUMBA_CACHE_DIR",
    str(Path.home() / ".cache" / "thousand" / f"numba-{__version__}-{_source_hash()}"),
)

import numba  # noqa: E402  (must come after NUMBA_CACHE_DIR is set)

JIT_DISABLED = bool(numba.config.DISABLE_JIT)

# Kernels are serial and release the GIL: runners parallelise over chunks with threads, so that
# results never depend on how many threads run them.
jit = numba.njit(cache=True, nogil=True, fastmath=False, error_model="numpy")
# For code that runs once per card or per deal and allocates nothing: without the Numba runtime's
# reference counting of array arguments (atomic increments on every call), a game plays about
# three times faster. Such functions take every buffer from their caller.
jit_hot = numba.njit(cache=True, nogil=True, fastmath=False, error_model="numpy", _nrt=False)
# The same, inlined into every caller at compile time: a caller passing a constant (the number of
# seats) gets code specialised for it.
jit_inline = numba.njit(cache=True, nogil=True, fastmath=False, error_model="numpy", _nrt=False, inline="always")
