"""``thousand simulate``: a batch run with a progress bar, resumable. The summary it prints comes
from ``analysis.summary`` (the command line joins the two; ``sim`` never imports ``analysis``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tqdm import tqdm

from sim.engine import BatchSpec
from sim.game.rules import load_rules
from sim.players import PlayerError
from sim.runner import RunDirError, run_batch, stored_units

USER_ERRORS = (PlayerError, RunDirError)


def simulate(*, games: int | None = None, deals: int | None = None, rules: str = "classic",
             players: str = "heuristic", seed: int = 0, out: Path = Path("out/run"),
             workers: int | None = None, chunk_size: int = 0, progress: bool = True,
             backend=None) -> str | None:
    """Run (or resume) a batch into ``out`` on ``backend`` (``sim.backend``; None: ``workers``
    threads). Returns None when every chunk is stored, or a note of what is stored when Ctrl-C
    interrupted the run."""
    if (games is None) == (deals is None):
        raise ValueError("give exactly one of --games N or --deals N")
    mode = "games" if games is not None else "deals"
    spec = BatchSpec(mode=mode, n=games if games is not None else deals, rules=load_rules(rules),
                     players=players, seed=seed, chunk_size=chunk_size)
    out = Path(out)
    if backend is None or not backend.remote:
        _warm_up(spec, progress)
    already = stored_units(spec, out) if (out / "run.json").exists() else 0
    bar = tqdm(total=spec.n, initial=already, unit=mode[:-1], unit_scale=True, disable=not progress,
               desc=f"{mode} ({spec.n_chunks} chunks)", dynamic_ncols=True, file=sys.stderr)
    with bar:
        result = run_batch(spec, out, workers=workers, on_chunk=bar.update, command=sys.argv, backend=backend)
    if result.interrupted:
        return (f"interrupted: {stored_units(spec, out):,} of {spec.n:,} {mode} kept in {out}; "
                "run the same command again to resume")
    return None


def _warm_up(spec: BatchSpec, progress: bool) -> None:
    """Load (or, on a first run, compile) the engine before the progress bar starts."""
    from sim.engine import play_chunk

    if progress:
        print("loading the compiled engine (the first run compiles it: about a minute)...", file=sys.stderr)
    t = time.perf_counter()
    tiny = BatchSpec(mode=spec.mode, n=1, rules=spec.rules, players=spec.players, seed=0, chunk_size=1)
    play_chunk(tiny, 0)
    if progress:
        print(f"engine ready in {time.perf_counter() - t:.1f}s", file=sys.stderr)
