"""``thousand simulate``: a batch run with a progress bar, resumable. The summary it prints comes
from ``analysis.summary`` (the command line joins the two; ``sim`` never imports ``analysis``)."""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from sim import InputError, arguments
from sim.compiling import AsideKernel, compiling
from sim.engine import BatchSpec, play_chunk
from sim.engine.playouts import COMPILE_ASIDE
from sim.game.rules import HouseRules, load_rules, rules_file_text
from sim.players.registry import default_player
from sim.records.record import format_json
from sim.records.trace import rules_name, trace_chunk
from sim.runs.folder import RECORDS_FILE, RECORDS_RULES_FILE, write_atomic_bytes, write_atomic_lines
from sim.runs.play import check_run_dir, run_batch, stored_units

if TYPE_CHECKING:
    from sim.runs.backend import Backend

__all__ = ["simulate", "write_records", "SIMULATE_ASIDE"]


# What a second process compiles while ``thousand simulate``'s first run on a cold cache compiles the
# rest (``sim.compiling.compile_aside``, docs/compiling.md): the settlement and the players' card,
# gift and contract choices, which the chunk kernel reaches late (the settlement last, about 95 s
# into a one-core compile of 112 CPU seconds), each for the argument types the engine calls it
# with, the largest first: the advisor's plan (``COMPILE_ASIDE``: the engine calls the settlement
# and the players' choices with the same types) but its make-rate table, and pimc-inf's gifts and
# cards. Copied from a log of ``benchmarks/compile_profile.py -- simulate --games 1000`` (its
# ``sig``); a signature the engine no longer calls is compiled for nothing, and the command compiles
# what it needs itself (tests/test_compiling.py checks that none is left so).
_SETTLEMENT = next(k for k in COMPILE_ASIDE if k[1] == "apply_deal34")
SIMULATE_ASIDE: tuple[AsideKernel, ...] = (
    _SETTLEMENT,
    ("sim.players.pimc_inf_nb", "pimc_inf_choose_discard",
     "(int64, int64, int64, int64, int64, Array(int64, 1, 'C'), Array(float64, 2, 'C'), Array(uint64, 1, "
     "'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), Array(int64, 2, 'C'), Array(int64, 1, 'C'), "
     "Array(int64, 2, 'C'), Array(float32, 2, 'C'), Array(float32, 2, 'C'), Array(int64, 1, 'C'), "
     "Array(float64, 1, 'C'), Array(float64, 2, 'C'), int64, float64, )"),
    ("sim.players.pimc_inf_nb", "pimc_inf_choose_card",
     "(Array(int64, 1, 'C'), int64, int64, Array(int64, 1, 'C'), int64, int64, int64, int64, int64, int64,"
     " int64, int64, int64, Array(int64, 1, 'C'), Array(int64, 1, 'C'), Array(int64, 1, 'C'), int64, "
     "int64, Array(int64, 1, 'C'), Array(float64, 2, 'C'), Array(uint64, 1, 'C'), Array(int64, 1, 'C'), "
     "Array(int64, 2, 'C'), Array(int64, 2, 'C'), Array(int64, 1, 'C'), Array(int64, 2, 'C'), "
     "Array(float32, 2, 'C'), Array(float32, 2, 'C'), Array(int64, 1, 'C'), Array(float64, 1, 'C'), "
     "Array(float64, 2, 'C'), int64, float64, )"),
) + tuple(k for k in COMPILE_ASIDE if k[0].startswith("sim.players.") and k != _SETTLEMENT)


def simulate(*, games: int | None = None, deals: int | None = None, rules: str | HouseRules = "classic",
             players: str | None = None, seed: int = 0, out: Path = Path("out/run"),
             workers: int | None = None, chunk_size: int = 0, progress: bool = True,
             backend: Backend | None = None, fresh: bool = False, records: bool = False) -> str | None:
    """Run (or resume) a batch into ``out`` on ``backend`` (``sim.runs.backend``; None: ``workers``
    threads). ``rules``: a preset, a TOML file or a ``HouseRules`` (validated as a file's are).
    ``players``: None plays every analysis's default (``sim.players.registry.default_player``:
    ``learned-win`` in whole games where the rules ship its win table, else ``learned``;
    ``heuristic`` with 2 players).
    ``fresh``: redo it there even though ``out`` holds another run (of other arguments, or made by
    other code), the old run staying whole until the new one is complete
    (``sim.runs.play.run_batch``). ``records``: once every chunk is stored, write every deal's record
    (docs/records.md) to ``out/records.jsonl``, one JSON record a line in the run's order
    (``sim.records.trace``: the deals played again from their seeds, each record replayed through
    the engine; the run's tables are untouched). Returns None when every chunk is stored, or a note of what is
    stored when Ctrl-C interrupted the run. Arguments of the wrong type are refused
    (``sim.arguments``) before anything is written."""
    games = arguments.integer("games", games, optional=True)
    deals = arguments.integer("deals", deals, optional=True)
    players = arguments.text("players", players, optional=True)
    seed = arguments.integer("seed", seed)
    out = arguments.path("out", out)
    workers = arguments.integer("workers", workers, optional=True)
    chunk_size = arguments.integer("chunk_size", chunk_size)
    progress = arguments.flag("progress", progress)
    fresh = arguments.flag("fresh", fresh)
    records = arguments.flag("records", records)
    if (games is None) == (deals is None):
        raise InputError("give exactly one of --games N or --deals N")
    mode = "games" if games is not None else "deals"
    rules = load_rules(rules)
    if players is None:
        players = default_player(rules, games=mode == "games")
    spec = BatchSpec(mode=mode, n=games if games is not None else deals, rules=rules,
                     players=players, seed=seed, chunk_size=chunk_size)
    if records:
        _records_allowed(spec)
    check_run_dir(spec, out, fresh=fresh)  # a refusal comes at once, before the engine loads
    if backend is None or not backend.remote:
        _warm_up(spec, progress)
    already = stored_units(spec, out, fresh=fresh)
    bar = tqdm(total=spec.n, initial=already, unit=mode[:-1], unit_scale=True, disable=not progress,
               desc=f"{mode} ({spec.n_chunks} chunks)", dynamic_ncols=True, file=sys.stderr)
    with bar:
        result = run_batch(spec, out, workers=workers, on_chunk=bar.update, command=sys.argv, backend=backend,
                           fresh=fresh)
    if result.interrupted:
        where = f"in {out}" if result.played_in in (None, out) else \
            f"in {result.played_in} (the redo of {out}, which keeps what it holds until the redo is complete)"
        return (f"interrupted: {stored_units(spec, out, fresh=fresh):,} of {spec.n:,} {mode} kept {where}; "
                "run the same command again to resume")
    if records:
        write_records(spec, out, progress=progress)
    return None


def _records_allowed(spec: BatchSpec) -> None:
    """--records holds 3-player deals (a record is one)."""
    if spec.rules.players != 3:
        raise InputError(f"--records: a record holds a 3-player deal; these rules have players = {spec.rules.players}")


def write_records(spec: BatchSpec, out: Path, *, progress: bool = False) -> Path:
    """Every deal of the run in ``out`` as a record, one JSON line each, in ``out/records.jsonl``
    (streamed under a temporary name, then renamed). A record names the run's rules by their
    preset; rules that are none are written beside it as ``out/rules.toml``, which each record
    names (a relative rules file is read from the record file's folder)."""
    _records_allowed(spec)
    out = Path(out)
    rules_file = None
    if rules_name(spec.rules) is None:
        rules_file = RECORDS_RULES_FILE
        write_atomic_bytes(out / rules_file, rules_file_text(spec.rules).encode("utf-8"))
    path = out / RECORDS_FILE

    def lines():
        with tqdm(total=spec.n, unit=spec.mode[:-1], unit_scale=True, disable=not progress, desc="records",
                  dynamic_ncols=True, file=sys.stderr) as bar:
            for index in range(spec.n_chunks):
                for rec in trace_chunk(spec, index, rules_file=rules_file):
                    yield format_json(rec)
                bar.update(spec.chunk_bounds(index)[1])

    write_atomic_lines(path, lines())
    return path


def _warm_up(spec: BatchSpec, progress: bool) -> None:
    """Load (or, on a first run, compile) the engine before the progress bar starts."""
    if progress:
        print("loading the engine...", file=sys.stderr)
    t = time.perf_counter()
    tiny = BatchSpec(mode=spec.mode, n=1, rules=spec.rules, players=spec.players, seed=0, chunk_size=1)
    with compiling() if progress else nullcontext():  # the kernels counted while they compile, before the bar
        play_chunk(tiny, 0)
    if progress:
        print(f"engine ready in {time.perf_counter() - t:.1f}s", file=sys.stderr)
