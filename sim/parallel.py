"""Work over fixed chunks on a thread pool, and buffers kept per thread: the one helper behind batch
runs (``sim.runner``), the solver's batches, the bid advisor and the bid tables.

Compiled kernels release the GIL, so threads run them in parallel. A chunk is fixed by its index
and bounds, never by the thread that runs it, so results do not depend on the number of threads.

The pool's threads are daemons and the caller only ever waits on futures: a compiled kernel cannot
be stopped halfway, so on Ctrl-C the caller stops waiting at once, keeps what has finished, and
the process can exit without waiting for the chunks in flight (they are abandoned, and a resumed
run plays them again). Like ``sim.numba_config`` this module imports nothing else of the project.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait


def worker_count(threads: int | None) -> int:
    """Threads to use: ``threads``, or one per core when it is None or 0."""
    return max(1, threads or os.cpu_count() or 1)


class DaemonPool:
    """A fixed set of daemon threads running submitted calls in order; ``submit`` returns a
    ``concurrent.futures.Future``. Its threads never hold up the process's exit."""

    def __init__(self, workers: int):
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, daemon=True, name=f"thousand-worker-{i}")
                         for i in range(max(1, workers))]
        for t in self._threads:
            t.start()

    def _work(self) -> None:
        while True:
            task = self._tasks.get()
            if task is None:
                return
            future, fn, args = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001  (handed to the waiting caller)
                future.set_exception(exc)

    def submit(self, fn: Callable, *args) -> Future:
        future: Future = Future()
        self._tasks.put((future, fn, args))
        return future

    def close(self) -> None:
        """No more work: each thread ends once its queue is empty (nobody waits for it)."""
        for _ in self._threads:
            self._tasks.put(None)

    def __enter__(self) -> DaemonPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def run_tasks(fn: Callable, items: Iterable, *, threads: int | None = None,
              on_result: Callable[[object, object], None] | None = None) -> None:
    """``fn(*item)`` for every item (a tuple of arguments) on ``threads`` threads (None: one per
    core), at most two items a thread in flight so that memory stays flat however many there are.
    ``on_result(item, result)`` runs in the calling thread as each one finishes. An exception in any
    item is raised here; Ctrl-C (KeyboardInterrupt) too, at once, the items in flight being
    abandoned."""
    queue_ = iter(items)
    workers = worker_count(threads)
    with DaemonPool(workers) as pool:
        pending: dict[Future, tuple] = {}
        for item in queue_:
            pending[pool.submit(fn, *item)] = item
            if len(pending) >= 2 * workers:
                break
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    item = pending.pop(future)
                    result = future.result()
                    if on_result is not None:
                        on_result(item, result)
                    nxt = next(queue_, None)
                    if nxt is not None:
                        pending[pool.submit(fn, *nxt)] = nxt
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def run_chunks(n: int, work: Callable[[int, int, int], None], *, size: int, threads: int | None = None) -> None:
    """``work(i, lo, hi)`` for every chunk ``i`` = ``[lo, hi)`` of ``size`` items out of ``n``
    (``run_tasks`` over the chunks)."""
    run_tasks(work, ((i, lo, min(n, lo + size)) for i, lo in enumerate(range(0, n, size))), threads=threads)


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
