"""Where a command's compile time goes: runs one ``thousand`` command in this process with a
listener on Numba's ``numba:compile`` events, and writes one JSON line per kernel specialisation
compiled (the kernel, its argument types, the seconds inclusive and exclusive of the kernels it
compiled inside it, wall and CPU of its thread) to ``--log``; then ``--table LOG`` prints the table
by kernel (specialisations, exclusive seconds), the duplicates first. Each line's ``sig`` spells its
argument types as a ``sim.compiling.AsideKernel`` reads them (the kernels a command compiles on a
second core are copied from such a log: docs/compiling.md).

Measure on a cold cache (a fresh empty ``NUMBA_CACHE_DIR``), else nothing compiles:

    NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/compile_profile.py --log out/c.jsonl -- \\
        simulate --games 1000 --out /tmp/run
    python benchmarks/compile_profile.py --table out/c.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from numba.core import event

from sim.compiling import spell_signature
from sim.numba_config import kernel_lock_waits


def _spelled(args) -> str | None:
    try:
        return spell_signature(args)
    except ValueError:  # a type of Numba's own kernels that no AsideKernel needs
        return None


class _Recorder(event.Listener):
    """Per thread, a stack of the compiles in progress: a kernel's exclusive time is its own
    minus that of the kernels compiled while it was (its callees)."""

    def __init__(self, log) -> None:
        self.log, self.local, self.lock, self.t0 = log, threading.local(), threading.Lock(), time.perf_counter()

    def _stack(self) -> list:
        if not hasattr(self.local, "stack"):
            self.local.stack = []
        return self.local.stack

    def on_start(self, ev) -> None:
        self._stack().append([time.perf_counter(), time.thread_time(), 0.0, 0.0])

    def on_end(self, ev) -> None:
        wall0, cpu0, inner_wall, inner_cpu = self._stack().pop()
        wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
        if self._stack():
            self._stack()[-1][2] += wall
            self._stack()[-1][3] += cpu
        d = ev.data["dispatcher"]
        row = {"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}",
               "args": ", ".join(str(a) for a in ev.data["args"]), "sig": _spelled(ev.data["args"]),
               "depth": len(self._stack()),
               "at": round(time.perf_counter() - self.t0, 2),
               "wall": round(wall, 3), "cpu": round(cpu, 3),
               "own_wall": round(wall - inner_wall, 3), "own_cpu": round(cpu - inner_cpu, 3)}
        with self.lock:
            self.log.write(json.dumps(row) + "\n")
            self.log.flush()


def table(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by = defaultdict(list)
    for r in rows:
        by[r["kernel"]].append(r)
    lines = [f"{len(rows)} specialisations of {len(by)} kernels, {sum(r['own_cpu'] for r in rows):.0f} s CPU "
             f"({sum(r['own_wall'] for r in rows):.0f} s wall) compiling",
             "| kernel | specialisations | own CPU s | own wall s |", "|---|---:|---:|---:|"]
    for name, rs in sorted(by.items(), key=lambda kv: -sum(r["own_cpu"] for r in kv[1])):
        lines.append(f"| {name} | {len(rs)} | {sum(r['own_cpu'] for r in rs):.1f} | "
                     f"{sum(r['own_wall'] for r in rs):.1f} |")
    dup = {k: v for k, v in by.items() if len(v) > 1}
    if dup:
        lines.append("\nkernels compiled more than once, with their argument types:")
        for name, rs in dup.items():
            lines.append(f"  {name}")
            lines.extend(f"    {r['own_cpu']:6.1f} s  ({r['args']})" for r in rs)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", type=Path, help="the JSON lines to write, one per specialisation compiled")
    ap.add_argument("--table", type=Path, help="print the table of a log written before, and stop")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- then the thousand command and its arguments")
    args = ap.parse_args()
    if args.table:
        print(table(args.table))
        return
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not args.log or not command:
        ap.error("give --log FILE -- COMMAND ...")
    import cli  # the command line, run in this process so that the listener hears its compiles

    log = args.log.open("w")
    event.register("numba:compile", _Recorder(log))
    sys.argv = ["thousand", *command]
    try:
        cli.main()
    finally:
        log.close()
        print(f"compile_profile: waited {kernel_lock_waits():.1f} s for kernels another process compiled; "
              f"{time.process_time():.1f} CPU s in this process", file=sys.stderr)


if __name__ == "__main__":
    main()
