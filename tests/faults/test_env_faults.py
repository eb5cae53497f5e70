"""Faults of the machine around a command (issue 24): an unwritable compiled-cache folder (item 12)
and a standard output that cannot be written (item 23)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Compiles and caches one small kernel of the project.
COMPILE_ONE = ("import numpy as np, sim.numba_config as c; from sim.game.bits_nb import popcount; "
               "popcount(np.int64(7)); print(c.CACHE_DIR)")


def _in_tree_cache_files() -> set[Path]:
    return {p for p in (ROOT / "sim").rglob("__pycache__/*") if p.suffix in (".nbi", ".nbc")}


def test_an_unwritable_numba_cache_falls_back_to_a_temporary_folder_and_says_so(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    before = _in_tree_cache_files()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(blocker / "cache")}
    done = subprocess.run([sys.executable, "-c", COMPILE_ONE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    used = Path(done.stdout.strip())
    assert "cannot be written" in done.stderr and str(used) in done.stderr
    assert str(used).startswith(os.environ.get("TMPDIR", "/tmp")) and used.is_dir()
    assert _in_tree_cache_files() == before, "Numba cached inside the package tree, where edits make it stale"


def _cli(*args: str, stdout) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=300)


def test_a_full_standard_output_is_one_line_not_a_traceback():
    with open("/dev/full", "w") as full:
        for args in (("rules",), ("rules", "show", "online"), ("solve", "AH KH | QH TH | 9H JH")):
            done = _cli(*args, stdout=full)
            assert done.returncode == 2, (args, done.stderr)
            assert done.stderr.strip().splitlines() == ["error: cannot write the output: No space left on device"], \
                (args, done.stderr)


def test_a_reader_that_stops_early_ends_the_command_quietly():
    proc = subprocess.Popen([sys.executable, "cli.py", "rules"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # as `| head -0` does: every write meets a closed pipe
    assert proc.wait(timeout=300) == 141
    assert "Traceback" not in proc.stderr.read()


# Imports numba before the project (as a notebook might), then compiles one kernel: where its cache lands.
NUMBA_FIRST = ("import numba, numpy as np; import sim.numba_config as c; from sim.game.bits_nb import popcount; "
               "popcount(np.int64(7)); print(c.CACHE_DIR); print(popcount._cache._cache_path)")


def test_importing_numba_first_still_caches_in_the_source_hashed_folder(tmp_path):
    """Issue 43 item 4: Numba reads NUMBA_CACHE_DIR when first imported; the project sets Numba's
    configuration itself, so a script that imports numba first caches beside the other kernels."""
    before = _in_tree_cache_files()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run([sys.executable, "-c", NUMBA_FIRST], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    chosen, kernel_cache = (Path(line) for line in done.stdout.split())
    assert _in_tree_cache_files() == before, "Numba cached inside the package tree, where edits make it stale"
    assert kernel_cache.is_relative_to(chosen) and any(kernel_cache.glob("*.nbi"))
    assert chosen.parent == tmp_path / "xdg" / "thousand" and chosen.name.startswith("numba-")


def test_a_users_numba_cache_dir_gets_the_source_hashed_folder_inside_it(tmp_path):
    """Issue 46: a user's NUMBA_CACHE_DIR holds the versioned, source-hashed folder (never used bare,
    where an edit could meet a stale cache), and a child process given the chosen folder keeps it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    done = subprocess.run([sys.executable, "-c", COMPILE_ONE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    chosen = Path(done.stdout.strip())
    assert chosen.parent == tmp_path / "mine" and chosen.name.startswith("numba-")
    child_env = {**os.environ, "NUMBA_CACHE_DIR": str(chosen)}
    again = subprocess.run([sys.executable, "-c", COMPILE_ONE], cwd=ROOT, env=child_env, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0 and Path(again.stdout.strip()) == chosen, again.stderr


IS_CACHED = "import sim.numba_config as c; print(c.is_cached('sim.game.bits_nb', 'popcount'))"


def test_only_this_checkouts_compiled_kernels_count_as_cached(tmp_path):
    """Issue 45: ``is_cached`` (whether ``thousand bid`` says it loads or compiles) sees the kernels
    this checkout compiled, not those another checkout of the same code left in the same folder:
    Numba files a kernel under a folder named after its source folder's path."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run(code: str) -> str:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run(IS_CACHED) == "False"
    chosen = Path(run(COMPILE_ONE))
    assert run(IS_CACHED) == "True"
    (folder,) = [p for p in chosen.iterdir() if any(p.glob("bits_nb.popcount-*.nbi"))]
    folder.rename(folder.with_name(f"game_{'0' * 40}"))  # as another checkout's folder would be named
    assert run(IS_CACHED) == "False"
