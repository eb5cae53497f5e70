"""Work over fixed chunks on a thread pool, and buffers kept per thread: the one helper behind batch
runs (``sim.runs``), the solver's batches, the bid advisor and the bid tables.

Compiled kernels release the GIL, so threads run them in parallel. A chunk is fixed by its index
and bounds, never by the thread that runs it, so results do not depend on the number of threads.

The pool's threads are daemons and the caller only ever waits on futures: a compiled kernel cannot
be stopped halfway, so on Ctrl-C the caller stops waiting at once, keeps what has finished, and
the process can exit without waiting for the chunks in flight (they are abandoned, and a resumed
run plays them again). The caller waits in slices of ``POLL_SECONDS``, never in one blocking call,
so that its signal handlers (and any progress display) run promptly whatever the chunks' length.
Like ``sim.numba_config`` this module imports nothing else of the project.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TypeVar

from sim import InputError

__all__ = [
    "POLL_SECONDS", "THREADS_PER_CORE", "MIN_THREAD_LIMIT", "ThreadCountError", "thread_limit", "check_thread_count",
    "worker_count", "DaemonPool", "run_tasks", "run_chunks", "Tally", "thread_buffers",
]

POLL_SECONDS = 0.1  # the longest the calling thread waits in one call
# Threads beyond the cores add no speed (the kernels are compute-bound) and each holds its own
# buffers (a solver table of up to 6 MiB): at most THREADS_PER_CORE a core (and MIN_THREAD_LIMIT on
# any machine), far below what the system can start.
THREADS_PER_CORE = 8
MIN_THREAD_LIMIT = 32


class ThreadCountError(InputError):
    """A thread or worker count this machine cannot or should not run; the message names it."""


def thread_limit() -> int:
    """The most threads (or local workers) a command may ask for on this machine."""
    return max(MIN_THREAD_LIMIT, THREADS_PER_CORE * (os.cpu_count() or 1))


def check_thread_count(option: str, value: int | None) -> None:
    """Refuse a negative count or one above ``thread_limit``, naming ``option`` (0 or None: one per core)."""
    if value is None:
        return
    if value < 0:
        raise ThreadCountError(f"{option} must be 0 or more (0: one per core), not {value}")
    if value > thread_limit():
        raise ThreadCountError(f"{option} {value:,}: at most {thread_limit()} ({THREADS_PER_CORE} per core of the "
                               f"{os.cpu_count() or 1} here; more than one per core only costs memory)")


def worker_count(threads: int | None) -> int:
    """Threads to use: ``threads``, or one per core when it is None or 0."""
    check_thread_count("threads", threads)
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
              on_result: Callable[[object, object], None] | None = None,
              on_wait: Callable[[], None] | None = None) -> None:
    """``fn(*item)`` for every item (a tuple of arguments) on ``threads`` threads (None: one per
    core), at most two items a thread in flight so that memory stays flat however many there are.
    ``on_result(item, result)`` runs in the calling thread as each one finishes; ``on_wait()`` too,
    at most every POLL_SECONDS while it waits (to show progress). An exception in any item is
    raised here; Ctrl-C (KeyboardInterrupt) too, at once, the items in flight being abandoned."""
    queue_ = iter(items)
    workers = worker_count(threads)
    with DaemonPool(workers) as pool:
        pending: dict[Future, tuple] = {}
        for item in queue_:
            pending[pool.submit(fn, *item)] = item
            if len(pending) >= 2 * workers:
                break
        last_wait_call = time.monotonic()
        try:
            while pending:
                done, _ = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    item = pending.pop(future)
                    result = future.result()
                    if on_result is not None:
                        on_result(item, result)
                    nxt = next(queue_, None)
                    if nxt is not None:
                        pending[pool.submit(fn, *nxt)] = nxt
                if on_wait is not None and time.monotonic() - last_wait_call >= POLL_SECONDS:
                    on_wait()
                    last_wait_call = time.monotonic()
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def run_chunks(n: int, work: Callable[[int, int, int], None], *, size: int, threads: int | None = None,
               on_wait: Callable[[], None] | None = None) -> None:
    """``work(i, lo, hi)`` for every chunk ``i`` = ``[lo, hi)`` of ``size`` items out of ``n``
    (``run_tasks`` over the chunks)."""
    run_tasks(work, ((i, lo, min(n, lo + size)) for i, lo in enumerate(range(0, n, size))), threads=threads,
              on_wait=on_wait)


class Tally:
    """A count that worker threads add to and the calling thread reads (items done, for progress)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def add(self, k: int) -> None:
        with self._lock:
            self.value += k


_local = threading.local()
T = TypeVar("T")  # what a thread's buffer maker makes


def thread_buffers(key: str, make: Callable[[], T]) -> T:
    """The calling thread's buffers called ``key``, made by ``make()`` on the thread's first call:
    kernels take every buffer from their caller, and a buffer is never shared between threads."""
    cache = getattr(_local, "buffers", None)
    if cache is None:
        cache = _local.buffers = {}
    if key not in cache:
        cache[key] = make()
    return cache[key]
