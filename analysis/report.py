"""``thousand report``: the strategy report, one document a Thousand player reads and keeps.

The report is built from the analyses, never beside them: each section calls the function behind
one ``--json`` command (``tables bids``, ``tables marriages``, ``tables barrel``, ``compare``,
``tournament``) on results stored under ``data`` (default ``out/report-<version>``), keeps that JSON
in the report's ``data/`` folder and writes its tables from it, so every number printed equals the
command's. Stored results are reused whenever they were made with the same rules, seed and sizes
by the same code (the bid table by its metadata, code fingerprint and SHA-256, the played runs by
their run specifications, fingerprints and verified shards); a second run with the same arguments
plays nothing. Results under ``data`` made by other code are refused before anything is played,
with one line naming them, unless ``fresh``: then each section concerned is redone into a folder
beside its own and put in its place once complete (an interrupted redo resumes), so a report never
mixes results of two fingerprints; ``provenance.json`` lists each section's fingerprint.

What lands in ``out`` (written under a temporary name, then renamed: never half a report):
``report.md``, ``report.html`` (one self-contained file: the plots embedded, no network needed),
the PNG plots, ``data/*.json`` and ``provenance.json`` (the command, rules, seeds, sizes, version,
code fingerprints and the SHA-256 of every stored input read). An existing ``out`` is replaced only
when it is empty or holds a previous report and nothing else; ``data`` may not lie inside ``out``
(it would be deleted with it) nor ``out`` inside ``data``.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import math
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.stored import holds_out
from sim import InputError, __version__
from sim.game.cards import SUIT_SYMBOLS

if TYPE_CHECKING:
    from collections.abc import Callable

    from sim.runs.backend import Backend
    from sim.runs.progress import Progress

__all__ = [
    "REPORT_MD", "REPORT_HTML", "PROVENANCE", "SECTIONS", "TOURNAMENT_PLAYERS", "RISKS", "Sizes", "QUICK", "FULL",
    "ReportError", "default_data_dir", "stage_estimates", "rule_sets_compared", "build_report", "check_folders",
    "SECTION_MODULES", "stale_results", "figure_specs", "stage_dirs", "stored_inputs", "pct", "num", "render_markdown",
    "render_html",
]

REPORT_MD = "report.md"
REPORT_HTML = "report.html"
PROVENANCE = "provenance.json"
# Anchors of the six sections, in order (the HTML test checks each is present).
SECTIONS = {"bids": "1. How much to bid", "marriages": "2. Marriages", "barrel": "3. The barrel",
            "rules": "4. House rules", "players": "5. Players", "method": "6. Method"}
TOURNAMENT_PLAYERS = ("heuristic", "leadage", "random")
RISKS = (0.3, 0.5)


@dataclass(frozen=True)
class Sizes:
    """Sample sizes of one report."""

    bid_deals: int  # random deals of the bid table (dd and heuristic declarers)
    pimc_deals: int  # of those, the first ones also declared by pimc
    marriage_deals: int  # random deals the exact marriage odds are measured against
    marriage_play_deals: int  # deals played to see what becomes of held marriages
    barrel_games: int  # whole games per rule set (barrel survival)
    compare_games: int  # whole games per rule set (house-rule comparison)
    tournament_games: int  # whole games per seating of the tournament
    min_n: int  # deals a hand class needs to appear in the cheat sheet


# --quick: under 10 minutes on a 2-core machine, compilation included; the intervals are wide
# and printed. The full report: the cheat sheet's classes of at least 400 deals have their
# 70%-bid pinned by the 95% intervals to within about one bid step (the Method section measures
# and prints this for the report at hand), and the rule and player effects of a few hundredths.
QUICK = Sizes(bid_deals=10_000, pimc_deals=300, marriage_deals=200_000, marriage_play_deals=10_000,
              barrel_games=5_000, compare_games=3_000, tournament_games=2_000, min_n=100)
FULL = Sizes(bid_deals=200_000, pimc_deals=3_000, marriage_deals=2_000_000, marriage_play_deals=50_000,
             barrel_games=50_000, compare_games=20_000, tournament_games=20_000, min_n=400)

# Seconds per unit on one 2-core machine (measured with a warm cache), for the estimate printed at
# the start: a bid-table deal (dd, heuristic and the pass line), a pimc deal, a random deal
# measured, a played deal, a whole heuristic game; and the first compilation.
_COST = {"bid": 0.0045, "pimc": 0.1, "marriage": 2e-5, "play": 4e-4, "game": 1e-3, "compile": 120.0}


class ReportError(InputError):
    """A report that cannot be made as asked (bad arguments)."""


def default_data_dir() -> Path:
    return Path("out") / f"report-{__version__}"


def stage_estimates(sizes: Sizes, n_rule_sets: int, cold: bool) -> dict[str, float]:
    """Estimated seconds of each stage."""
    return {
        "compile": _COST["compile"] if cold else 0.0,
        "bids": sizes.bid_deals * _COST["bid"] + sizes.pimc_deals * _COST["pimc"],
        "marriages": sizes.marriage_deals * _COST["marriage"] + sizes.marriage_play_deals * _COST["play"],
        "barrel": n_rule_sets * sizes.barrel_games * _COST["game"],
        "rules": n_rule_sets * sizes.compare_games * _COST["game"],
        "players": 6 * sizes.tournament_games * _COST["game"],
        "write": 5.0,
    }


def _cache_is_cold() -> bool:
    import sim.numba_config  # noqa: F401  (sets NUMBA_CACHE_DIR)

    cache = Path(os.environ.get("NUMBA_CACHE_DIR", ""))
    return not cache.is_dir() or not any(cache.rglob("playouts_nb*.nbi"))


def rule_sets_compared(rules: list[str]) -> list[str]:
    """The rule sets of the house-rule and barrel sections: those given when two or more, else the
    one given followed by every preset whose effective rules differ from it (a rules file that
    equals a preset is not compared with itself)."""
    from sim.game.rules import PRESETS, load_rules, preset

    if len(rules) >= 2:
        return list(rules)
    given = load_rules(rules[0])
    return [rules[0]] + [p for p in PRESETS if p != rules[0] and preset(p) != given]


@holds_out("data", "--data", default=default_data_dir)
def build_report(*, rules: list[str] | None = None, quick: bool = False, out: Path = Path("reports/report"),
                 data: Path | None = None, seed: int = 0, sizes: Sizes | None = None, threads: int | None = None,
                 progress: bool = True, command: list[str] | None = None, backend: Backend | None = None,
                 fresh: bool = False) -> Path:
    """Make the report in ``out`` from results stored (or played now) under ``data``; returns the
    path of ``report.html``. ``sizes`` overrides QUICK / FULL (the tests' small reports); what is
    played runs on ``backend`` (``sim.runs.backend``; None: threads of this process). Stored results of
    other code are refused (``ReportError``) unless ``fresh``, which redoes their sections."""
    from tqdm import tqdm

    from analysis.tables import TABLE_PART
    from sim.game.rules import load_rules

    rules = list(rules or ["classic"])
    if seed < 0:
        raise ReportError(f"--seed must be 0 or more, not {seed}")
    loaded = {spec: load_rules(spec) for spec in rules}
    main = loaded[rules[0]]
    if main.players != 3:
        raise ReportError(f"the report's bid advice is for the 3-player deal; rules {rules[0]!r} have players = "
                          f"{main.players}")
    counts = {spec: rec.players for spec, rec in loaded.items()}
    if len(set(counts.values())) > 1:
        raise ReportError("the rule sets given are for different player counts: "
                          + ", ".join(f"{k} ({v})" for k, v in counts.items()))
    sizes = sizes or (QUICK if quick else FULL)
    out = Path(out)
    data = Path(data) if data is not None else default_data_dir()
    from sim.runs import check_path_name

    check_path_name(out, "--out")
    check_path_name(data, "--data")
    check_folders(out, data)
    compared = rule_sets_compared(rules)
    with_barrel = [spec for spec in compared if load_rules(spec).barrel is not None]
    dirs = stage_dirs(data, rules=rules, compared=compared, seed=seed, sizes=sizes)
    used = [key for key in dirs if (key != "barrel" or with_barrel) and (key != "rules" or len(compared) >= 2)]
    stale = {key: found for key in used if (found := stale_results(dirs[key], SECTION_MODULES[key]))}
    if stale and not fresh:
        items = [item for found in stale.values() for item in found]
        more = f" (and {len(items) - 1} more)" if len(items) > 1 else ""
        raise ReportError(f"--data {data} holds results of other code that this report would reuse: {items[0]}{more}; "
                          "rerun with --fresh to redo them, or give another --data")
    cold = _cache_is_cold()
    estimates = stage_estimates(sizes, len(compared), cold)
    total = sum(estimates.values())
    say = (lambda text: print(text, file=sys.stderr)) if progress else (lambda text: None)
    say(f"report: {'quick' if quick else 'full'} sizes, rules {', '.join(rules)}; results stored in {data}. "
        f"Estimated time on a 2-core machine: about {_minutes(total)}"
        + (" (the compiled kernels are not cached yet: about 2 minutes of that is compiling)" if cold else "")
        + "; stored results are reused.")
    started = time.monotonic()
    sections: dict[str, dict] = {}
    with tqdm(total=round(total), unit="s", desc="report (estimated seconds of work)", disable=not progress,
              file=sys.stderr, dynamic_ncols=True,
              bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} est. s [{elapsed}<{remaining}]") as bar:
        def advance(stage: str, share: float = 1.0) -> None:
            bar.update(min(estimates[stage] * share, bar.total - bar.n))

        bids_progress = _PartsPlayed(advance)

        def section(key: str, compute) -> dict:
            return _section(key, dirs[key], compute, data=data, redo=fresh and key in stale, fresh=fresh)

        bar.set_postfix_str("bid tables (the first part also compiles)" if cold else "bid tables")
        sections["bids"] = section("bids", lambda d: _bids(d, rules[0], seed, sizes, threads, bids_progress, backend))
        if not bids_progress.played:
            advance("compile")
        n_parts = -(-sizes.bid_deals // TABLE_PART)
        advance("bids", max(0, n_parts - bids_progress.played) / n_parts)
        bar.set_postfix_str("marriages")
        sections["marriages"] = section("marriages", lambda d: _marriages(d, dirs["bids"], rules[0], seed, sizes,
                                                                          backend))
        advance("marriages")
        bar.set_postfix_str("barrel")
        sections["barrel"] = (section("barrel", lambda d: _barrel(d, with_barrel, seed, sizes, backend))
                              if with_barrel else None)
        advance("barrel")
        bar.set_postfix_str("house rules")
        sections["rules"] = (section("rules", lambda d: _compare(d, compared, seed, sizes, backend))
                             if len(compared) >= 2 else None)
        advance("rules")
        bar.set_postfix_str("tournament")
        sections["players"] = section("players", lambda d: _tournament(d, rules[0], seed, sizes, backend))
        advance("players")
        bar.set_postfix_str("writing")
        path = _write(out, data, dirs, sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                      command=command)
        advance("write")
    say(f"report written in {time.monotonic() - started:.0f} s: {path} (and {out / REPORT_MD})")
    return path


def check_folders(out: Path, data: Path) -> None:
    """Refuse an ``out`` whose replacement would delete what is not a report, and folders inside
    each other: the report replaces ``out`` whole, so ``data`` inside it would be deleted with it,
    and ``out`` inside ``data`` would mix a report with the stored results."""
    out_r, data_r = out.resolve(), data.resolve()
    if out_r == data_r or data_r in out_r.parents:
        raise ReportError(f"--out {out} is or lies inside --data {data}: the report must lie outside the stored "
                          "results")
    if out_r in data_r.parents:
        raise ReportError(f"--data {data} lies inside --out {out}: writing the report replaces --out whole and would "
                          "delete the stored results; give a --data outside --out")
    if not out.exists():
        return
    if not out.is_dir():
        raise ReportError(f"--out {out} is a file, not a folder")
    entries = sorted(out.iterdir())
    if not entries:
        return
    if not _is_report_provenance(out / PROVENANCE):
        raise ReportError(f"--out {out} is not empty and holds no report (no {PROVENANCE} of thousand report); the "
                          "report replaces the folder whole: choose a new or empty folder")
    foreign = [p for p in entries if not _is_report_file(p)]
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise ReportError(f"--out {out} holds a report and {foreign[0]}{more}, which a report does not write; the "
                          "report replaces the folder whole: move them, or choose another --out")


def _is_report_provenance(path: Path) -> bool:
    try:
        prov = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(prov, dict) and isinstance(prov.get("command"), list) and prov["command"][:2] == \
        ["thousand", "report"] and "sizes" in prov


def _is_report_file(path: Path) -> bool:
    """Whether ``path`` (in a report's folder) is one a report writes: its pages, provenance, plots and
    ``data/*.json``."""
    if path.is_symlink():
        return False
    if path.is_file():
        return path.name in (REPORT_MD, REPORT_HTML, PROVENANCE) or path.suffix == ".png"
    return path.name == "data" and path.is_dir() and all(p.is_file() and not p.is_symlink() and p.suffix == ".json"
                                                         for p in path.iterdir())


# The analysis module whose code computes each section's stored tables (its code fingerprint).
SECTION_MODULES = {"bids": "tables", "marriages": "marriages", "barrel": "barrel", "rules": "compare",
                   "players": "tournament"}


def stale_results(folder: Path, module: str) -> list[str]:
    """The stored results under a section's ``folder`` made by other code, in words: runs whose spec
    records another code fingerprint than this code's ``sim`` (or none), tables (and the parts of a
    bid table) whose metadata records another than this code's ``module``."""
    from analysis.stored import FINGERPRINT
    from analysis.tables import PARTS_DIR, PARTS_SPEC, read_metadata
    from sim.fingerprint import code_fingerprint, describe_difference
    from sim.runs import RUN_FILE

    found: list[str] = []
    if not folder.is_dir():
        return found
    for run_file in sorted(folder.rglob(RUN_FILE)):
        if any(part.startswith(".") for part in run_file.relative_to(folder).parts):
            continue  # a temporary folder of the runner's
        stored = _json_dict(run_file)
        current = code_fingerprint()
        if stored.get(FINGERPRINT) != current:
            found.append(describe_difference(f"the run {run_file.parent}", stored.get(FINGERPRINT), current))
    current = code_fingerprint(module)
    for table in sorted(folder.glob("*.parquet")):
        try:
            meta = read_metadata(table)
        except (OSError, ValueError):
            continue  # damaged: the section's own checks rebuild or refuse it
        if meta.get(FINGERPRINT) != current:  # every analysis's table records it: one without is older code's
            found.append(describe_difference(f"the table {table}", meta.get(FINGERPRINT), current))
    parts = folder / PARTS_DIR / PARTS_SPEC
    if parts.is_file() and (spec := _json_dict(parts)).get(FINGERPRINT) != current:
        found.append(describe_difference(f"the parts of a bid table in {parts.parent}", spec.get(FINGERPRINT), current))
    return found


class _PartsPlayed:
    """The report's bar following the bid table's parts (``progress(stage, done, total)`` of
    ``analysis.tables.build_bid_tables``, counting parts): each part stored now advances the bids'
    estimate by its share, the first also the compiling it waited for. ``played``: the parts
    stored while followed (those kept from an earlier build are not)."""

    def __init__(self, advance: Callable[[str, float], None]) -> None:
        self.advance = advance
        self.played = 0
        self.stage: str | None = None
        self.done = 0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == self.stage and done > self.done:
            if not self.played:
                self.advance("compile", 1.0)  # the first part waited for the compiler
            self.advance("bids", (done - self.done) / total)
            self.played += done - self.done
        self.stage, self.done = stage, done


def _json_dict(path: Path) -> dict:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _section(key: str, folder: Path, compute, *, data: Path, redo: bool, fresh: bool) -> dict:
    """A section's results (``compute(folder)``: its --json function on the results stored in
    ``folder``). ``redo``: the stored ones are of other code; they are redone in a folder beside
    (resumed if an earlier redo was interrupted), which then takes their place, so the old ones
    stay whole until the new are. A refusal of what is stored (other arguments) is one line naming
    --data, or with ``fresh`` a redo as well (a refusal that --fresh answers: a full disk is not one)."""
    from analysis.stored import StaleResultError
    from sim.runs import RunDirError, StorageError

    if not redo:
        try:
            return compute(folder)
        except (StaleResultError, RunDirError) as exc:
            if isinstance(exc, StorageError) or "--fresh" not in str(exc):
                raise  # not a refusal of what is stored (a full disk, a lock): --fresh would not help
            if not fresh:
                reason = re.sub(r"; [^;]*(--out|--fresh|--run)[^;]*$", "", str(exc))
                raise ReportError(f"--data {data}: the stored results of the {SECTIONS[key]!r} section cannot be "
                                  f"reused ({reason}); rerun with --fresh to redo them, or give another --data") \
                    from None
    redone = folder.with_name(f".{folder.name}.fresh")
    if redone.exists() and stale_results(redone, SECTION_MODULES[key]):
        shutil.rmtree(redone)  # an interrupted redo by yet other code
    compute(redone)
    old = folder.with_name(f".{folder.name}.stale-{os.getpid()}")
    if folder.exists():
        folder.rename(old)
    redone.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    return compute(folder)  # all stored now: the results as read from the section's own folder


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} minutes" if seconds >= 90 else f"{seconds:.0f} seconds"


# ---- the analyses, each through its --json function ---------------------------------------------
def _bids(folder: Path, rules: str, seed: int, sizes: Sizes, threads: int | None, progress: Progress | None,
          backend) -> dict:
    from analysis.present.json_text import to_json
    from analysis.present.plots import plot_bid_make_rates, plot_bid_methods
    from analysis.tables import tables_bids

    result = tables_bids(deals=sizes.bid_deals, rules=rules, seed=seed, out=folder, pimc_deals=sizes.pimc_deals,
                         threads=threads, progress=progress, min_n=sizes.min_n, backend=backend)
    plot_bid_make_rates(result, result.plot_file)
    if result.methods_plot_file is not None:
        plot_bid_methods(result, result.methods_plot_file)
    return json.loads(to_json(result))


def _marriages(folder: Path, bids: Path, rules: str, seed: int, sizes: Sizes, backend) -> dict:
    from analysis.marriages import tables_marriages
    from analysis.present.json_text import to_json
    from analysis.present.plots import plot_marriage_odds, plot_marriage_worth
    from analysis.tables import TABLE_FILE

    result = tables_marriages(deals=sizes.marriage_deals, seed=seed, rules=rules, out=folder,
                              play_deals=sizes.marriage_play_deals, players="heuristic", bids=bids / TABLE_FILE,
                              risk=RISKS[0], backend=backend)
    if result.plot_file is not None:
        plot_marriage_odds(result, result.plot_file)
    if result.worth is not None and result.worth_plot_file is not None:
        plot_marriage_worth(result.worth, result.worth_plot_file)
    return json.loads(to_json(result))


def _barrel(folder: Path, rules: list[str], seed: int, sizes: Sizes, backend) -> dict:
    from analysis.barrel import tables_barrel

    return json.loads(tables_barrel(games=sizes.barrel_games, rules=rules, players="heuristic", seed=seed,
                                    out=folder, as_json=True, backend=backend)[0])


def _compare(folder: Path, rules: list[str], seed: int, sizes: Sizes, backend) -> dict:
    from analysis.compare import compare

    return json.loads(compare(rules=rules, games=sizes.compare_games, players="heuristic", seed=seed,
                              out=folder, as_json=True, backend=backend)[0])


def _tournament(folder: Path, rules: str, seed: int, sizes: Sizes, backend) -> dict:
    from analysis.tournament import tournament

    return json.loads(tournament(players=list(TOURNAMENT_PLAYERS), games=sizes.tournament_games, rules=rules,
                                 seed=seed, out=folder, as_json=True, backend=backend)[0])


def figure_specs() -> dict[str, list[tuple[str, str]]]:
    """The plots each section shows: (file in the section's folder, caption)."""
    from analysis import barrel, compare, marriages, tables, tournament

    return {
        "bids": [(tables.PLOT_FILE,
                  "Make-rate of each contract by hand class (heuristic play with 95% bands, double dummy dashed)."),
                 (tables.METHODS_PLOT_FILE, "The same deals declared by double dummy, pimc and the heuristic player.")],
        "marriages": [(marriages.PLOT_FILE,
                       "Marriage odds: exact (bars) against random deals (points with 95% intervals)."),
                      (marriages.WORTH_PLOT_FILE, "What holding each suit's marriage adds to the declarer's points.")],
        "barrel": [(barrel.PLOT_FILE, "How barrel episodes end, leaving upward by attempt, and winning from a score.")],
        "rules": [(compare.PLOT_FILE, "Game length by rule set, and every difference to the first.")],
        "players": [(tournament.PLOT_FILE, "The tournament: win share, score per deal and make-rate.")],
    }


def _digest(obj) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:10]


def stage_dirs(data: Path, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes) -> dict[str, Path]:
    """Where each section's results are stored under ``data``: a folder per sample sizes and seed
    (``quick-seed0``, ``full-seed0``, ``sizes-<hash>-seed0``), and below it one per rule set(s) the
    section plays (a hash of their names and effective rules). Reports of other sizes, seeds or
    rules never meet each other's runs; the same arguments always find their own."""
    kind = "quick" if sizes == QUICK else "full" if sizes == FULL else f"sizes-{_digest(dataclasses.asdict(sizes))}"
    base = Path(data) / f"{kind}-seed{seed}"
    main = _digest([rules[0], _rules_dict(rules[0])])
    many = _digest([[spec, _rules_dict(spec)] for spec in compared])
    return {"bids": base / "bids" / main, "marriages": base / "marriages" / main, "barrel": base / "barrel" / many,
            "rules": base / "compare" / many, "players": base / "tournament" / main}


# ---- writing -------------------------------------------------------------------------------------
def _write(out: Path, data: Path, dirs: dict[str, Path], sections: dict, *, rules: list[str], compared: list[str],
           seed: int, sizes: Sizes, quick: bool, command: list[str] | None) -> Path:
    """Write the report into a temporary folder beside ``out``, then put it in place of ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    try:
        figures = {}
        for key, figs in figure_specs().items():
            figures[key] = []
            for name, caption in figs:
                if (dirs[key] / name).is_file() and sections.get(key) is not None:
                    shutil.copyfile(dirs[key] / name, tmp / name)
                    figures[key].append((name, caption))
        for key, value in sections.items():
            if value is not None:
                (tmp / "data" / f"{key}.json").write_text(json.dumps(value, ensure_ascii=False, indent=1),
                                                          encoding="utf-8")
        md = render_markdown(sections, figures, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick)
        (tmp / REPORT_MD).write_text(md, encoding="utf-8")
        (tmp / REPORT_HTML).write_text(render_html(md, tmp), encoding="utf-8")
        from sim.fingerprint import code_fingerprint

        provenance = {
            "command": command or ["thousand", "report"], "version": __version__,
            "code_fingerprint": code_fingerprint("report"),
            # Each section's results were made (or checked to be made) by this code: its analysis
            # module's fingerprint, and the engine's for the runs it played.
            "fingerprints": {key: code_fingerprint(SECTION_MODULES[key]) for key, value in sections.items()
                             if value is not None and key in SECTION_MODULES},
            "runs_fingerprint": code_fingerprint(),
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "rules": rules, "rule_sets_compared": compared, "seed": seed, "sizes": dataclasses.asdict(sizes),
            "quick": quick, "tournament_players": list(TOURNAMENT_PLAYERS), "data": str(data),
            "effective_rules": {spec: _rules_dict(spec) for spec in compared},
            "stored": {key: str(folder) for key, folder in dirs.items()},
            "inputs": stored_inputs(data, [dirs[key] for key, value in sections.items() if value is not None]),
        }
        (tmp / PROVENANCE).write_text(json.dumps(provenance, ensure_ascii=False, indent=1), encoding="utf-8")
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out / REPORT_HTML


def _rules_dict(spec: str) -> dict:
    from sim.game.rules import load_rules

    return load_rules(spec).to_dict()


def stored_inputs(data: Path, folders: list[Path]) -> list[dict]:
    """Every stored table and shard in the sections' ``folders`` (the report read them), with its
    size and SHA-256; paths relative to ``data``."""
    from sim.fingerprint import file_sha256

    # Not the parts of a bid table nor temporary files: folders whose names start with a dot.
    files = sorted({p for folder in folders for p in Path(folder).rglob("*.parquet")
                    if not any(part.startswith(".") for part in p.relative_to(folder).parts)})
    return [{"path": str(p.relative_to(data)), "bytes": p.stat().st_size, "sha256": file_sha256(p)} for p in files]


# ---- Markdown ------------------------------------------------------------------------------------
def _table(headers: list[str], rows: list[list]) -> list[str]:
    def cell(x) -> str:
        return str(x).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def pct(p, lo=None, hi=None, digits: int = 1) -> str:
    """A share as a percentage, with its 95% interval when given: ``31.0% [29.9, 32.2]``."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    text = f"{100 * p:.{digits}f}%"
    if lo is not None and hi is not None:
        text += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return text


def num(x, lo=None, hi=None, digits: int = 1, sign: bool = False) -> str:
    """A number with its 95% interval when given."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    text = f.format(x)
    if lo is not None and hi is not None:
        text += f" [{f.format(lo)}, {f.format(hi)}]"
    return text


def _heading(key: str) -> str:
    return f"## {SECTIONS[key]} {{#{key}}}"


def _figures(figs: list[tuple[str, str]]) -> list[str]:
    return [line for name, caption in figs for line in (f"![{caption}]({name})", "", f"*{caption}*", "")]


def render_markdown(sections: dict, figures: dict, *, rules: list[str], compared: list[str], seed: int,
                    sizes: Sizes, quick: bool) -> str:
    kind = "quick" if quick else "full"
    lines = ["# Thousand: a strategy report", "",
             f"Rules: **{', '.join(rules)}**{'' if rules == ['classic'] else ' (the first for sections 1, 2 and 5)'}; "
             f"seed {seed}; {kind} sample sizes; thousand {__version__}. Every number comes with its 95% interval; "
             "the data behind each section is in `data/`, and `provenance.json` says what made it.", "",
             "Contents: " + " · ".join(f"[{title}](#{key})" for key, title in SECTIONS.items()), ""]
    lines += _section_bids(sections["bids"], figures["bids"])
    lines += _section_marriages(sections["marriages"], figures["marriages"])
    lines += _section_barrel(sections["barrel"], figures["barrel"])
    lines += _section_rules(sections["rules"], figures["rules"])
    lines += _section_players(sections["players"], figures["players"])
    lines += _section_method(sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick)
    return "\n".join(lines) + "\n"


def _bid_range(row: dict, risk: float) -> str:
    key = f"bid_at_risk_{risk:g}"
    bid, lo, hi = row[key], row[key + "_low"], row[key + "_high"]
    if bid is None:
        return "none" if hi is None else f"none ({hi} possible)"
    return str(bid) if lo == hi == bid else f"{bid} ({lo or 'none'}–{hi})"


def _class_order(row: dict) -> tuple[int, str]:
    from analysis.tables import MARRIAGE_CLASSES

    marriage = row["hand_class"].split(",")[0]
    return (MARRIAGE_CLASSES.index(marriage) if marriage in MARRIAGE_CLASSES else len(MARRIAGE_CLASSES),
            row["hand_class"])


def _section_bids(s: dict, figs: list) -> list[str]:
    heur = sorted(s["cheat_sheet"]["heuristic"], key=_class_order)
    dd = {r["hand_class"]: r for r in s["cheat_sheet"]["dd"]}
    pimc = {r["hand_class"]: r for r in s["cheat_sheet"]["pimc"]}
    lines = [_heading("bids"), "",
             f"A bid table of {s['sample_size']:,} random deals (seed {s['seed']}): in each, the player in seat 0 "
             "takes the talon and plays every contract from 100 up. Three declarers play the same deals: the "
             "**heuristic** player (sees only his cards), **pimc** (sees only his cards and averages double-dummy "
             f"results over {s['worlds']} guessed layouts a decision; on the first {s['pimc_deals']:,} deals) and "
             "**double dummy** (dd: every seat sees every card and plays perfectly). A hand's class is the "
             "marriages it holds before the talon and its aces.", ""]
    lines += _figures(figs)
    lines += ["### The bidding cheat sheet", "",
              f"For each hand class with at least {s['min_n']:,} deals, from heuristic play: the highest bid made at "
              "least 70% and 50% of the time (in brackets, the bids the 95% intervals allow), and the bid of best "
              "expected score (made: +contract, failed: −contract, from a zero score). First hand must bid and "
              "takes the best bid; a later hand bids only when that beats passing and defending (measured on the "
              "same deals). Bids stop at the class's bidding cap (120 without a marriage). The last columns give "
              "dd's 70% bid (optimistic: it sees every card) and pimc's where pimc played enough deals.", ""]
    rows = []
    for r in heur:
        d, p = dd.get(r["hand_class"]), pimc.get(r["hand_class"])
        later = (f"{r['later_hand_bid']} ({num(r['later_hand_ev'], sign=True)})" if r["later_hand_bid"] is not None
                 else f"pass ({num(r['pass_ev'], sign=True)})")
        rows.append([r["hand_class"], f"{r['n']:,}", r["bidding_cap"], _bid_range(r, 0.3), _bid_range(r, 0.5),
                     f"{r['first_hand_bid'] or 'pass'} ({num(r['first_hand_ev'], sign=True)})", later,
                     _bid_range(d, 0.3) if d else "–", _bid_range(p, 0.3) if p else "–"])
    if rows:
        lines += _table(["hand (7 cards)", "deals", "cap", "highest bid at 70%", "at 50%", "first hand: best bid (EV)",
                         "later hands: best (EV)", "dd at 70%", "pimc at 70%"], rows)
    else:
        lines += [f"No hand class has {s['min_n']:,} deals in this table: the cheat sheet needs a larger one.", ""]
    lines += ["### Three declarers on the same deals", ""]
    comp = s["comparison"]
    if s["pimc_deals"]:
        lines += _table(["contract", "deals", "double dummy", "pimc", "heuristic"],
                        [[r["contract"], f"{r['n']:,}", pct(*r["dd"]), pct(*r["pimc"]), pct(*r["heuristic"])]
                         for r in comp])
    else:
        lines += ["pimc played no deal of this table.", ""]
    lines += ["### What this means at the table", ""] + _reading_bids(s, heur) + [""]
    return lines


def _reading_bids(s: dict, heur: list[dict]) -> list[str]:
    out = []
    bare = [r for r in heur if r["hand_class"].startswith("no marriage")]
    if bare:
        ok = [r for r in bare if r["bid_at_risk_0.3"] is not None]
        passing = [r for r in bare if r["later_hand_bid"] is None]
        if not ok:
            out.append("- **Without a marriage, even 100 is a gamble**: no class of hand without a marriage makes 100 "
                       "70% of the time. As first hand you are forced to open; "
                       + (f"as a later hand, passing scored better in {len(passing)} of the {len(bare)} such classes."
                          if passing else "a later hand still found bidding worth it."))
        else:
            best = max(ok, key=lambda r: r["bid_at_risk_0.3"])
            out.append(f"- Without a marriage, the strongest class ({best['hand_class']}) stops at "
                       f"{best['bid_at_risk_0.3']} at 70%.")
    married = [r for r in heur if not r["hand_class"].startswith("no marriage") and r["bid_at_risk_0.3"] is not None]
    for r in sorted(married, key=lambda r: -r["bid_at_risk_0.3"])[:3]:
        out.append(f"- {r['hand_class'].capitalize()}: bid up to **{r['bid_at_risk_0.3']}** if you accept failing "
                   f"3 times in 10, {r['bid_at_risk_0.5'] or 'no higher'} at even odds; the best expected score comes "
                   f"{'at ' + str(r['first_hand_bid']) if r['first_hand_bid'] else 'passing'} "
                   f"({num(r['first_hand_ev'], sign=True)} points a deal).")
    bidding = [r for r in heur if r["bid_at_risk_0.3"] is not None]
    passing = [r for r in bidding if r["later_hand_bid"] is None]
    if passing:
        out.append(f"- A later hand does better passing with {len(passing)} of the {len(bidding)} classes that can bid "
                   f"at 70% ({'; '.join(r['hand_class'] for r in passing)}): such a hand scores well in defence "
                   f"(+{passing[0]['pass_ev']:.0f} a deal for {passing[0]['hand_class']}), more than declaring "
                   "with its risk. Bid them as first hand, or to take a talon you need.")
    comp = {r["contract"]: r for r in s["comparison"]}
    if s["pimc_deals"] and "120" in comp:
        r = comp["120"]
        safe = r["pimc"][1] > r["heuristic"][2]  # pimc's interval wholly above the heuristic player's
        out.append(f"- On the {r['n']:,} deals all three declared, 120 was made {pct(r['dd'][0])} of the time by "
                   f"double dummy, {pct(r['pimc'][0])} by pimc and {pct(r['heuristic'][0])} by the heuristic player. "
                   "Double dummy sees every card: it is the optimistic bound. The cheat sheet rests on the heuristic "
                   "player, which sees only its own cards, as you do"
                   + ("; pimc, a stronger declarer that also sees only its own cards, makes more, so the sheet's "
                      "bids are on the safe side for a strong player." if safe else "."))
    return out or ["- The table is too small for a reading."]


# Exact marriage odds the report shows, in order.
_MARRIAGE_QUANTITIES = [
    "hand: at least one marriage", "hand: marriages = 0", "hand: marriages = 1", "hand: marriages = 2",
    "hand: ♥ marriage", "10 cards: at least one marriage", "talon: completes one of 1 half marriages",
    "talon: completes one of 2 half marriages", "talon: completes one of 3 half marriages",
    "talon: brings a whole marriage, 2 suits unheld", "talon: brings an ace, 2 not held",
    "deal: no marriage in any hand", "deal: marriages in the three hands = 1",
]


def _fraction(text: str) -> str:
    a, b = text.split("/") if "/" in text else (text, "1")
    return f"{a}/{b}"


def _section_marriages(s: dict, figs: list) -> list[str]:
    by = {r["quantity"]: r for r in s["rows"]}
    values = " ".join(f"{sym} {v}" for sym, v in zip(SUIT_SYMBOLS, s["rules"]["marriage_values"], strict=True))
    lines = [_heading("marriages"), "",
             f"Marriage values: {values}. The odds below are **exact** (counted over every deal) beside the same "
             f"quantity measured in {s['sample_size']:,} random deals (seed {s['seed']}).", ""]
    rows = [[q, _fraction(by[q]["exact"]), pct(by[q]["p"], digits=2),
             pct(by[q]["simulated"], by[q]["ci_low"], by[q]["ci_high"], digits=2), f"{by[q]['n']:,}"]
            for q in _MARRIAGE_QUANTITIES if q in by]
    inside = sum(r["inside"] for r in s["rows"])
    lines += _table(["quantity", "exact", "exact %", "simulated [95%]", "deals"], rows)
    lines += [f"All {len(s['rows'])} exact quantities are in `data/marriages.json`; {inside} of them lie inside the "
              f"simulated 95% interval (about {0.95 * len(s['rows']):.0f} expected by chance).", ""]
    lines += _figures(figs[:1])
    if s["worth"]:
        lines += ["### What a marriage is worth", "",
                  "From the bid table: the declarer's points with the suit's marriage among his 10 cards (hand and "
                  "talon) against without, and the highest contract dd makes 70% of the time in each group.", ""]
        lines += _table(["marriage", "deals with / without", "dd points gained", "same aces: dd gained",
                         "heuristic points gained", "70% contract (dd) with / without"],
                        [[f"{r['suit']} {_suit_value(s, r['suit'])}", f"{r['n_with']:,} / {r['n_without']:,}",
                          num(*r["dd_gain"], sign=True), num(*r["dd_gain_same_aces"], sign=True),
                          num(*r["heur_gain"], sign=True),
                          f"{r['contract_with']} / {r['contract_without']} ({r['contract_gain']:+d})"]
                         for r in s["worth"]])
        lines += _figures(figs[1:])
    if s["play"]:
        lines += ["### What becomes of a held marriage", "",
                  f"{_play_size(s)} deals played by the heuristic player: of the marriages each role held, the share "
                  "declared, the share whose cards fell without a trick won, and the share broken up by playing a "
                  "card first.", ""]
        lines += _table(["role", "suit", "held", "declared", "no trick won", "cards played first"],
                        [[r["role"], r["suit"], f"{r['held']:,}", pct(*r["declared"]), pct(*r["no trick won"]),
                          pct(*r["cards played first"])] for r in s["play"] if r["held"]])
    lines += ["### What this means at the table", ""]
    if "hand: at least one marriage" in by and "talon: completes one of 1 half marriages" in by:
        completes = by["talon: completes one of 1 half marriages"]["p"]
        lines.append(f"- You are dealt a marriage in {pct(by['hand: at least one marriage']['p'])} of hands; with "
                     f"one half marriage the talon completes it only {pct(completes)} of the time: do not bid on a "
                     "half marriage.")
    if s["worth"]:
        verdicts: dict[str, list[str]] = {}
        for r in s["worth"]:
            gain, face = r["dd_gain_same_aces"], _suit_value(s, r["suit"])
            verdict = ("less than its face value" if gain[2] < face else
                       "more than its face value" if gain[1] > face else "about its face value")
            verdicts.setdefault(verdict, []).append(f"{r['suit']} {face}: {num(*gain, sign=True)}")
        parts = [f"{verdict} for {'; '.join(items)}" for verdict, items in verdicts.items()]
        lines.append("- Among hands with as many aces, what a held marriage adds to the declarer's take is "
                     + ", and ".join(parts) + " points."
                     + (" It must be declared on a lead, and its cards can fall (the table above)."
                        if "less than its face value" in verdicts else ""))
    return lines + [""]


def _suit_value(s: dict, symbol: str) -> int:
    return s["rules"]["marriage_values"][SUIT_SYMBOLS.index(symbol)]


def _play_size(s: dict) -> str:
    runs = s.get("play_runs") or {}
    return f"{sum(r['sample_size'] for r in runs.values()):,}" if runs else "The"


def _section_barrel(s: dict | None, figs: list) -> list[str]:
    lines = [_heading("barrel"), ""]
    if s is None:
        return lines + ["None of the rule sets has a barrel (barrel = none): there is nothing to report.", ""]
    summaries = s["summaries"]
    labels = list(summaries)
    lines += [f"{s['games']:,} whole games per rule set, every seat the heuristic player (seed {s['seed']}). A "
              "barrel episode starts when a player climbs onto the barrel and ends when he leaves it: upward "
              "(he wins), or falling.", ""]
    def share(x):
        return pct(x["p"], x["ci_low"], x["ci_high"]) if x["n"] else "–"
    rows = [["games / episodes"] + [f"{v['games']:,} / {v['episodes']:,}" for v in summaries.values()]]
    rows.append(["leaves upward (wins)"] + [share(v["fates"]["up"]) for v in summaries.values()])
    for a in ("1", "2", "3"):
        rows.append([f"… on attempt {a}"] + [share(v["up_on_attempt"][a]) for v in summaries.values()])
    fates = [f for f in next(iter(summaries.values()))["fates"] if f.startswith("fell")]
    for f in fates:
        if any(v["fates"][f]["k"] for v in summaries.values()):
            rows.append([f] + [share(v["fates"][f]) for v in summaries.values()])
    rows.append(["falls to zero"] + [share(v["fell_to_zero"]) for v in summaries.values()])
    rows.append(["game length (deals)"] + [num(v["game_length"]["mean"], v["game_length"]["ci_low"],
                                               v["game_length"]["ci_high"]) for v in summaries.values()])
    lines += _table(["share of barrel episodes"] + labels, rows)
    lines += _figures(figs)
    first = summaries[labels[0]]
    curve = [(int(c), v) for c, v in first["win_from_score"].items() if v["n"] >= 30]
    if curve:
        lines += [f"Chance of winning the game from your score when you deal ({labels[0]}; classes of 100 points, "
                  "at least 30 games each):", ""]
        lines += _table(["score", "games", "wins the game"], [[f"{c} to {c + 95}", f"{v['n']:,}", share(v)]
                                                              for c, v in curve])
    up, fell = first["fates"]["up"], first["fell"]
    causes = sorted(((f, first["fates"][f]) for f in fates), key=lambda fv: -fv[1]["p"])
    lines += ["### What this means at the table", "",
              f"- Under {labels[0]}, a player on the barrel leaves it upward {pct(up['p'])} of the time and falls "
              f"{pct(fell['p'])}; the commonest fall is \"{causes[0][0].split(': ', 1)[-1]}\" "
              f"({pct(causes[0][1]['p'])} of episodes).",
              f"- The first attempt matters most: {pct(first['up_on_attempt']['1']['p'])} of episodes end in a win "
              f"on it, {pct(first['up_on_attempt']['2']['p'])} on the second.", ""]
    return lines


def _section_rules(s: dict | None, figs: list) -> list[str]:
    lines = [_heading("rules"), ""]
    if s is None:
        return lines + ["Only one rule set: give two or more with --rules to compare them.", ""]
    labels = list(s["rules"])
    lines += [f"{len(labels)} rule sets, {s['games']:,} whole games each on the same deals (common random numbers, "
              f"seed {s['seed']}), every seat the heuristic player. Each metric's difference to {labels[0]} with a "
              "paired 95% interval; a difference is **significant** when its Holm-corrected p-value (over every "
              "metric and rule set) is below 5%.", ""]
    rules_rows = []
    base = s["rules"][labels[0]]
    for label in labels:
        changes = {k: v for k, v in s["rules"][label].items() if base.get(k) != v}
        rules_rows.append([label, ", ".join(f"{k} = {v}" for k, v in changes.items()) or "(the first set)"])
    lines += _table(["rule set", "what differs from the first"], rules_rows)
    sig = sorted([r for r in s["rows"] if r["significant"]], key=lambda r: (r["rules"], r["p_holm"]))
    lines += [f"{len(sig)} of {len(s['rows'])} differences are significant:", ""]
    if sig:
        lines += _table(["rule set", "metric", labels[0], "this set", "difference [95%]", "p (Holm)"],
                        [[r["rules"], r["metric"], num(r["first"], digits=3), num(r["value"], digits=3),
                          num(r["diff"], r["ci_low"], r["ci_high"], digits=3, sign=True), f"{r['p_holm']:.2g}"]
                         for r in sig])
    lines += _figures(figs)
    lines += ["### What this means at the table", ""]
    length = [r for r in s["rows"] if r["metric"] == "game length (deals)"]
    for r in length:
        verdict = "significantly" if r["significant"] else "not significantly"
        lines.append(f"- {r['rules']}: games last {num(r['value'])} deals against {num(r['first'])} "
                     f"({num(r['diff'], r['ci_low'], r['ci_high'], sign=True)}), {verdict} different.")
    if not length:
        lines.append("- Every difference is listed in `data/rules.json`.")
    return lines + [""]


def _section_players(s: dict, figs: list) -> list[str]:
    lines = [_heading("players"), "",
             f"A duplicate tournament: {s['games']:,} whole games in each of the {s['seatings']} seatings of "
             f"{', '.join(sorted(r['player'] for r in s['players']))} (seed {s['seed']}), so every player meets the "
             "same cards in every seat. "
             "`leadage` is the computer player of the open-source game Leadage/tysyacha-1000, ported; `random` "
             "plays any legal card and bids at random, a floor.", ""]
    rows = [[k + 1, r["player"], pct(r["win_share"], r["win_ci_low"], r["win_ci_high"]),
             num(r["final_score"], r["score_ci_low"], r["score_ci_high"], digits=0),
             num(r["score_per_deal"], r["score_per_deal_ci_low"], r["score_per_deal_ci_high"])]
            for k, r in enumerate(s["players"])]
    lines += _table(["rank", "player", "win share [95%]", "final score", "score per deal"], rows)
    lines += ["How they bid and play their contracts:", ""]
    lines += _table(["player", "declares (share of deals)", "mean contract", "make-rate", "concedes",
                     "points as declarer", "points as defender"],
                    [[r["player"], pct(r["declarer_share"], r["declarer_share_ci_low"], r["declarer_share_ci_high"]),
                      num(r["mean_contract"], r["mean_contract_ci_low"], r["mean_contract_ci_high"]),
                      pct(r["make_rate"], r["make_rate_ci_low"], r["make_rate_ci_high"]),
                      pct(r["concession_rate"], r["concession_rate_ci_low"], r["concession_rate_ci_high"]),
                      num(r["declarer_points_per_deal"]), num(r["defender_points_per_deal"])] for r in s["players"]])
    lines += _table(["pair", "difference in win share [95%]", "p (Holm)", "significant"],
                    [[f"{r['player']} vs {r['against']}", num(r["diff"], r["ci_low"], r["ci_high"], digits=3,
                                                              sign=True),
                      f"{r['p_holm']:.2g}", "yes" if r["significant"] else "no"] for r in s["pairs"]])
    lines += _figures(figs)
    win, rest = s["players"][0], s["players"][1:]
    lines += ["### What this means at the table", ""]
    if rest:
        other = rest[0]
        lines.append(f"- {win['player']} wins {pct(win['win_share'])} of the games, {other['player']} "
                     f"{pct(other['win_share'])}.")
        lines.append(f"- The winner's bidding: it declares {pct(win['declarer_share'])} of the deals "
                     f"({other['player']}: {pct(other['declarer_share'])}) at a mean contract of "
                     f"{num(win['mean_contract'])} ({num(other['mean_contract'])}), makes {pct(win['make_rate'])} "
                     f"of the contracts it plays ({pct(other['make_rate'])}) and concedes "
                     f"{pct(win['concession_rate'])} ({pct(other['concession_rate'])}).")
    return lines + [""]


def _section_method(sections: dict, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes,
                    quick: bool) -> list[str]:
    bids = sections["bids"]
    pinned = [r for r in bids["cheat_sheet"]["heuristic"] if r["bid_at_risk_0.3"] is not None]
    tight = [r for r in pinned if r["bid_at_risk_0.3_low"] is not None
             and r["bid_at_risk_0.3_high"] - r["bid_at_risk_0.3_low"] <= 2 * bids["rules"]["bid_step"]]
    r0 = rules[0]
    rules_args = " ".join(f"--rules {r}" for r in compared)
    lines = [_heading("method"), "",
             "**Players.** *heuristic*: our rule-based player (hand evaluation, bidding with a margin, card play by "
             "rules of thumb; it sees only its cards). *pimc*: perfect-information Monte Carlo: at each decision it "
             "deals the unseen cards consistently with what it knows, solves each layout double dummy and plays the "
             "card best on average. *dd*: double dummy, every seat seeing every card and playing perfectly: an "
             "optimistic bound for the declarer (the defence never errs, but the declarer never guesses wrong "
             "either), never a forecast of real play. *leadage*: the ported bot; *random*: legal moves at random.",
             "",
             "**Statistics.** Shares carry Wilson 95% intervals; means normal intervals; differences between rule "
             "sets and players are paired (the same deals) and Holm-corrected. A bid's range in the cheat sheet is "
             "the set of bids whose make-rate interval reaches the threshold.", "",
             f"**Sizes and seeds** ({'quick' if quick else 'full'} report, seed {seed} everywhere):", ""]
    lines += _table(["what", "size"], [[k.replace("_", " "), f"{v:,}"] for k, v in dataclasses.asdict(sizes).items()])
    lines += [f"Stability of the cheat sheet: {len(tight)} of the {len(pinned)} hand classes with a 70% bid have it "
              f"pinned to within two bid steps by the 95% intervals. The full report's sizes are chosen so that "
              "the classes it shows (400 deals or more) meet this; the quick report's intervals are wider, and "
              "printed.", "",
              "**Reproduce every figure** (the same seed and sizes give the same numbers; each command's `--json` "
              "gives the data the report printed):", "",
              "```bash",
              f"thousand tables bids --deals {sizes.bid_deals} --pimc-deals {sizes.pimc_deals} --rules {r0} "
              f"--seed {seed} --min-n {sizes.min_n} --json",
              f"thousand tables marriages --deals {sizes.marriage_deals} --play-deals {sizes.marriage_play_deals} "
              f"--rules {r0} --seed {seed} --bids out/tables/bids.parquet --out out/marriages --json",
              f"thousand tables barrel --games {sizes.barrel_games} "
              + " ".join(f"--rules {r}" for r in compared if _rules_dict(r)["barrel"] is not None)
              + f" --seed {seed} --json",
              f"thousand compare {' '.join(compared)} --games {sizes.compare_games} --seed {seed} --json",
              f"thousand tournament {' '.join(TOURNAMENT_PLAYERS)} --games {sizes.tournament_games} --rules {r0} "
              f"--seed {seed} --json",
              f"thousand report {rules_args if len(rules) > 1 else '--rules ' + r0}{' --quick' if quick else ''} "
              f"--seed {seed}",
              "```", "",
              "The rules are in `provenance.json` (every option) and `docs/RULES.md` (what each means).", ""]
    return lines


# ---- HTML ----------------------------------------------------------------------------------------
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1.5em; line-height: 1.5; color: #222; }
h1 { border-bottom: 2px solid #444; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #aaa; margin-top: 2em; padding-bottom: .1em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .9em; }
/* On a phone a wide table scrolls sideways on its own instead of being cut at the screen's edge. */
@media (max-width: 800px) { table { display: block; overflow-x: auto; max-width: 100%; } }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: .5em 0; border: 1px solid #eee; }
code, pre { background: #f5f5f5; font-size: .9em; }
pre { padding: .8em; overflow-x: auto; }
"""


def render_html(md_text: str, folder: Path) -> str:
    """The Markdown as one self-contained HTML page: tables, section anchors, and every image
    embedded as a data URI (read from ``folder``)."""
    import markdown

    body = markdown.markdown(md_text, extensions=["tables", "attr_list", "fenced_code"])

    def embed(match: re.Match) -> str:
        src = html.unescape(match.group(1))
        path = folder / src
        if src.startswith(("data:", "http:", "https:")) or not path.is_file():
            return match.group(0)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'src="data:image/png;base64,{data}"'

    body = re.sub(r'src="([^"]+\.png)"', embed, body)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>Thousand: a strategy report</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
            "</body>\n</html>\n")
