"""Work over fixed chunks on a thread pool, and buffers kept per thread: the one helper behind the
solver's batches, the bid advisor and the bid tables (batch runs have their own streaming loop in
``sim.runner``).

Compiled kernels release the GIL, so threads run them in parallel. A chunk is fixed by its index
and bounds, never by the thread that runs it, so results do not depend on the number of threads.
Like ``sim.numba_config`` this module imports nothing else of the project.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


def worker_count(threads: int | None) -> int:
    """Threads to use: ``threads``, or one per core when it is None or 0."""
    return max(1, threads or os.cpu_count() or 1)


def run_chunks(n: int, work: Callable[[int, int, int], None], *, size: int, threads: int | None = None) -> None:
    """``work(i, lo, hi)`` for every chunk ``i`` = ``[lo, hi)`` of ``size`` items out of ``n``, on
    ``threads`` threads (None: one per core); in the calling thread when there is one thread or
    one chunk. An exception in any chunk is raised here."""
    starts = list(range(0, n, size))
    workers = worker_count(threads)
    if workers == 1 or len(starts) <= 1:
        for i, lo in enumerate(starts):
            work(i, lo, min(n, lo + size))
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda chunk: work(chunk[0], chunk[1], min(n, chunk[1] + size)), enumerate(starts)))


_local = threading.local()


def thread_buffers(key: str, make: Callable[[], object]):
    """The calling thread's buffers called ``key``, made by ``make()`` on the thread's first call:
    kernels take every buffer from their caller, and a buffer is never shared between threads."""
    cache = getattr(_local, "buffers", None)
    if cache is None:
        cache = _local.buffers = {}
    if key not in cache:
        cache[key] = make()
    return cache[key]
