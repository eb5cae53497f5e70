"""The version discipline's record: what the current version's code is and what it computes.

``code_versions.json`` (at the project root) holds, for the version in ``pyproject.toml``:

- ``files``: the digest (``sim.fingerprint.source_digest``) of every results-changing source file,
  every file of ``sim/`` and ``analysis/``;
- ``results``: the SHA-256 of what a fixed set of small runs and a bid-table part compute (their
  rows as CSV, so that neither Parquet's nor Polars' encoding counts), covering every player type,
  2, 3 and 4 players and the presets.

``tests/test_version_discipline.py`` fails when either differs from the code at hand, so an edit
that changes stored results cannot land without a new version and its CHANGELOG entry, and one
that does not must still be recorded. Record with::

    python tests/version_record.py

which refuses to record changed results under the version already recorded.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "code_versions.json"
CHANGELOG = ROOT / "CHANGELOG.md"

# (name, mode, size, rules, players, seed, chunk size): small, but every player type, seat count and
# preset, whole games and single deals, several chunks.
RUNS = (
    ("classic_heuristic", "games", 40, "classic", "heuristic", 1, 15),
    ("online_mixed", "games", 40, "online", "heuristic,random,random", 2, 20),
    ("short_random", "games", 30, "short", "random", 3, 30),
    ("long_leadage", "games", 10, "long", "leadage,heuristic,heuristic", 4, 10),
    ("strict_dd", "deals", 20, "strict", "dd", 5, 10),
    ("classic_pimc", "deals", 3, "classic", "pimc,heuristic,pimc", 6, 3),
    ("four_mixed", "deals", 40, {"players": 4, "sitout_half_marriage": True}, "dd,random,heuristic,leadage", 7, 20),
    ("two_pimc", "deals", 4, {"players": 2, "two_player_talon": 3}, "pimc,heuristic", 8, 4),
    ("house_heuristic", "games", 20, {"must_head": True, "dark_game": True, "golden_round": True,
                                      "redeal_four_aces": True, "half_marriage": True, "ace_marriage": 200},
     "heuristic", 9, 10),
    # the shipped weights play here: new weights change results, and so the version
    ("online_learned", "deals", 60, "online", "learned,learned-cards,heuristic", 10, 30),
    # the score-aware player and its shipped win-chance tables: whole games, where the score is in play
    ("polish_learned_win", "games", 20, "polish", "learned-win,learned,learned-win", 11, 10),
    ("classic_learned_win", "games", 20, "classic", "learned-win,learned,learned", 12, 10),
    # pimc weighing its worlds by the auction under the shipped bidding nets
    ("classic_pimc_inf", "deals", 3, "classic", "pimc-inf,pimc,heuristic", 13, 3),
    # the learned player whose last cards' search weighs its worlds by the auction
    ("classic_learned_inf", "deals", 6, "classic", "learned-inf,learned,heuristic", 14, 3),
)
BID_TABLE_DEALS = 12  # one bid-table part of this many deals, pimc on the first 2


def pyproject_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def current_files() -> dict[str, str]:
    from sim.fingerprint import ANALYSIS_DIR, file_digests

    modules = (p.relative_to(ANALYSIS_DIR).with_suffix("").as_posix().replace("/", ".").removesuffix(".__init__")
               for p in ANALYSIS_DIR.rglob("*.py"))
    return file_digests(*sorted(m for m in modules if m != "__init__"))


def _csv_digest(frame) -> str:
    """SHA-256 of a frame's values written as CSV, nested columns (a deal's plays, the made
    flags by level) joined into one text field."""
    import polars as pl

    flat = [pl.col(c).cast(pl.List(t.inner)).list.eval(pl.element().cast(pl.String)).list.join(" ")
            if isinstance(t, pl.Array | pl.List) else pl.col(c) for c, t in frame.schema.items()]
    return hashlib.sha256(frame.select(flat).write_csv().encode()).hexdigest()


def current_results() -> dict[str, str]:
    """SHA-256 of the rows each fixed run and the bid-table part compute with the code at hand."""
    from analysis.bids.parts import levels_for, play_part
    from analysis.deals import random_deals
    from sim.engine import BatchSpec, play_chunk
    from sim.game.rules import HouseRules, preset

    out = {}
    for name, mode, n, rules, players, seed, chunk in RUNS:
        rec = preset(rules) if isinstance(rules, str) else HouseRules.from_dict(rules)
        spec = BatchSpec(mode=mode, n=n, rules=rec, players=tuple(players.split(",")), seed=seed, chunk_size=chunk)
        digest = hashlib.sha256()
        for index in range(spec.n_chunks):
            deals, games = play_chunk(spec, index)
            digest.update(_csv_digest(deals).encode())
            if games is not None:
                digest.update(_csv_digest(games).encode())
        out[name] = digest.hexdigest()
    rec = HouseRules()
    part = play_part(random_deals(BID_TABLE_DEALS, 3), 0, rec, 3, 2, 6, 1, levels_for(rec))
    out["bid_table_part"] = _csv_digest(part)
    return out


def read_record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.is_file() else {}


def changelog_versions() -> list[str]:
    return re.findall(r"^## (\S+)", CHANGELOG.read_text(encoding="utf-8"), flags=re.M) if CHANGELOG.is_file() else []


def record() -> str:
    """Write ``code_versions.json`` for the code at hand; refuse results that changed under the
    version already recorded, and a version without its CHANGELOG entry."""
    version = pyproject_version()
    if version not in changelog_versions():
        raise SystemExit(f"CHANGELOG.md has no '## {version}' section: say what changed in results first")
    old = read_record()
    results = current_results()
    # A run added to the set is recorded (it has no earlier result); one whose result moved is refused.
    changed = sorted(k for k in results if k in old.get("results", {}) and old["results"][k] != results[k])
    if old.get("version") == version and changed:
        raise SystemExit(f"results changed ({', '.join(changed)}) but the version is still {version}: bump the "
                         "version in pyproject.toml, say what changed in CHANGELOG.md, reinstall, and record again")
    data = {"version": version, "files": current_files(), "results": results}
    RECORD.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return f"recorded version {version}: {len(data['files'])} files, {len(results)} results"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(record())
