"""Where the chunks of a long command run: threads of this process (the default), or a Dask cluster
(``--scheduler ADDRESS``, or ``--cluster local --workers N``).

A chunk is a module-level, pure function of its arguments (the rules, players, seed, chunk number
and size, all inside a ``BatchSpec``) that returns one shard: ``sim.engine.play_chunk`` for the
batch runs, ``analysis.bids.parts.play_part`` for the bid table. On threads the chunk also writes its
shard where it runs. On Dask a worker that sees the run's directory (a shared disk, or the same
machine: the command writes a token there for the worker to read back) writes the shard there
itself, atomically, and returns only its hashes; a worker that does not see it sends the shard
back to this process, which writes it. Either way this process records it in the run's manifest,
so the workers need no shared disk, and a lost worker loses nothing but its chunks in flight,
which Dask runs again elsewhere. The bytes stored are the same on every path: the same function
makes the shard and the same writer stores it (``sim.runs.play.play_chunk_remote``).

Dask is an optional extra (``pip install -e '.[distributed]'``); without it the flags say so in one
line. Each worker loads (or, with an empty cache, compiles) the Numba kernels once, when it joins,
through the worker plugin of ``sim.runs.dask_worker``, not once per chunk.
"""

from __future__ import annotations

import contextlib
import sys
from asyncio import CancelledError
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError as FutureCancelled

from sim import InputError
from sim.parallel import run_tasks

__all__ = ["INSTALL_HINT", "BackendError", "ThreadBackend", "DaskBackend", "Backend", "check_options", "open_backend"]

INSTALL_HINT = "Dask is not installed: pip install -e '.[distributed]' (or pip install 'dask[distributed]')"


class BackendError(InputError):
    """A backend that cannot be used as asked (Dask missing, contradictory flags)."""


class ThreadBackend:
    """Chunks on threads of this process (the compiled kernels release the GIL)."""

    remote = False

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def map(self, fn: Callable, items: Iterable[tuple], on_result: Callable[[tuple, object], None]) -> None:
        run_tasks(fn, items, threads=self.threads, on_result=on_result)

    def describe(self) -> str:
        return f"{self.threads or 'one thread a core'} thread(s) in this process"


class DaskBackend:
    """Chunks as tasks of a Dask cluster; results come back to this process in the order they
    finish. At most two tasks a worker thread are in flight, so memory stays flat."""

    remote = True

    def __init__(self, client, *, shared_disk: bool = True):
        self.client = client
        # Workers that see the run's directory store their chunks there themselves
        # (sim.runs.play.play_chunk_remote); False: every shard comes back to be stored here.
        self.shared_disk = shared_disk

    def _slots(self) -> int:
        threads = sum(w.get("nthreads", 1) for w in self.client.scheduler_info().get("workers", {}).values())
        return 2 * max(1, threads)

    def map(self, fn: Callable, items: Iterable[tuple], on_result: Callable[[tuple, object], None]) -> None:
        from distributed import as_completed

        queue = iter(items)
        pending = {}
        done = as_completed()

        def submit(item: tuple) -> None:
            future = self.client.submit(fn, *item, pure=False)
            pending[future] = item
            done.add(future)

        slots = self._slots()
        for item in queue:
            submit(item)
            if len(pending) >= slots:
                break
        failures = _cluster_failures()

        def lost(exc: BaseException) -> BackendError:
            return BackendError(f"the Dask cluster failed ({type(exc).__name__}: {exc}); the chunks that finished "
                                "are stored: run the same command again to resume")

        try:
            for future in done:
                item = pending.pop(future)
                try:
                    result = future.result()
                except failures as exc:
                    raise lost(exc) from exc
                del future
                on_result(item, result)  # its own errors (a full disk, ...) pass through as they are
                nxt = next(queue, None)
                if nxt is not None:
                    try:
                        submit(nxt)
                    except failures as exc:
                        raise lost(exc) from exc
        except BaseException:
            for future in pending:
                with contextlib.suppress(Exception):  # the cluster may be gone
                    future.cancel()
            raise

    def describe(self) -> str:
        info = self.client.scheduler_info()
        workers = info.get("workers", {})
        threads = sum(w.get("nthreads", 1) for w in workers.values())
        return f"Dask at {info.get('address', '?')}: {len(workers)} worker(s), {threads} thread(s)"


Backend = ThreadBackend | DaskBackend  # where chunks run: what open_backend gives and the analyses take


def _cluster_failures() -> tuple[type[BaseException], ...]:
    """What a lost worker, scheduler or connection raises (a chunk's own errors pass through)."""
    from distributed import KilledWorker
    from distributed.client import ClosedClientError
    from distributed.comm.core import CommClosedError

    return (KilledWorker, ClosedClientError, CommClosedError, CancelledError, FutureCancelled, OSError, TimeoutError)


def check_options(*, scheduler: str | None, cluster: str | None, workers: int | None) -> None:
    """Refuse contradictory or incomplete backend options, before anything runs."""
    if scheduler and cluster:
        raise BackendError("give --scheduler ADDRESS (a running cluster) or --cluster local, not both")
    if cluster is not None and cluster != "local":
        raise BackendError(f"--cluster {cluster!r}: the only cluster started here is 'local' (for another, start it "
                           "and give --scheduler ADDRESS)")
    if workers is not None and workers < 1:
        raise BackendError(f"--workers must be 1 or more, not {workers}")
    if scheduler or cluster:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise BackendError(INSTALL_HINT) from None


@contextlib.contextmanager
def open_backend(*, scheduler: str | None = None, cluster: str | None = None, workers: int | None = None,
                 threads: int | None = None, progress: bool = False) -> Iterator[ThreadBackend | DaskBackend]:
    """The backend the options ask for: threads (``threads`` of them; None = one a core) when
    neither ``scheduler`` nor ``cluster`` is given; else a Dask client, to the scheduler at
    ``scheduler`` or to a local cluster of ``workers`` processes (default 2, one thread each)
    started here and closed on exit. Every worker warms its kernels once as it joins."""
    check_options(scheduler=scheduler, cluster=cluster, workers=workers)
    if not scheduler and not cluster:
        yield ThreadBackend(threads)
        return
    from distributed import Client, LocalCluster

    from sim.runs.dask_worker import WarmUp

    local = None
    if progress:
        print("starting the Dask " + ("local cluster" if cluster else f"client to {scheduler}") + "...",
              file=sys.stderr)
    try:
        if cluster:
            local = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                 dashboard_address=":0")
            client = Client(local)
        else:
            client = Client(scheduler, timeout="20s")
    except OSError as exc:
        raise BackendError(f"cannot reach the Dask scheduler {scheduler or 'of the local cluster'}: {exc}") from None
    try:
        client.register_plugin(WarmUp(), name="thousand-warm-up")
        backend = DaskBackend(client)
        if progress:
            print(backend.describe(), file=sys.stderr)
        yield backend
    finally:
        client.close()
        if local is not None:
            local.close()
