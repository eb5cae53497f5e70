"""Checks shared by the fault-injection tests (``tests/faults``): what a refused command prints,
and every file of a folder, to show that a refusal touched nothing; and a folder made read-only,
even to root."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest


def one_error_line(res) -> str:
    """The output of a refused command (a typer ``CliRunner`` result): exactly one line,
    ``error: ...`` (no progress bar before it, no traceback), and exit code 2."""
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and isinstance(res.exception, SystemExit), res.exception
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(res, *words: str) -> str:
    """The same for a command that may say "loading the compiled kernels..." before refusing:
    exit code 2 and, besides that note, one ``error:`` line holding ``words``, no traceback."""
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    lines = [ln for ln in res.output.splitlines() if ln.strip() and not ln.startswith("loading the compiled")]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for w in words:
        assert w in lines[0], lines[0]
    assert "Traceback" not in res.output
    return lines[0]


def mount(*args: str) -> bool:
    """``mount ARGS`` when this process may (as root); whether it was done."""
    return os.geteuid() == 0 and subprocess.run(["mount", *args], capture_output=True).returncode == 0


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` read-only: a read-only bind mount as root (root ignores permissions), else no write
    permission."""
    if os.geteuid() == 0:
        if not mount("--bind", str(folder), str(folder)):
            pytest.skip("a read-only bind mount needs mount permission")
        try:
            assert mount("-o", "remount,bind,ro", str(folder))
            yield
        finally:
            subprocess.run(["umount", "--lazy", str(folder)], check=False)
        return
    dirs = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
    for d in dirs:
        d.chmod(0o555)
    try:
        yield
    finally:
        for d in dirs:
            d.chmod(0o755)
