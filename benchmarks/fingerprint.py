"""Fingerprint of what a checkout computes, through its command line only, so that two checkouts
(before and after a redesign) can be compared line by line:

    python benchmarks/fingerprint.py --tree ../before > before.txt
    python benchmarks/fingerprint.py --tree . > after.txt
    diff before.txt after.txt && echo identical

It plays simulate runs of 2, 3 and 4 players with every player type under several presets and
house-rule files (each with an explicit chunk size, which is part of what fixes the results), and
prints the SHA-256 of every stored shard, of run.json and of the printed summary; then the JSON of
three solver layouts, two bid advices and the hash of a bid table; then, for every analysis command
(tables, compare, tournament, bid, solve, runs combine), the SHA-256 of what it prints, as text and
as ``--json``, and of the tables and plots it stores (``--analyses-only`` runs this part alone).

Two checkouts differ in their code fingerprints by definition, and a redesign moves the version, so
every dotted version x.y.z (thousand's, wherever printed or stored) and every recorded code fingerprint
(``"code_fingerprint": "..."`` in JSON, run.json and a Parquet file's metadata, and ``code=...`` in a
printed summary) is masked before
hashing; a Parquet file is hashed as its table and its metadata, not as bytes (which carry the
masked fingerprint).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RULE_FILES = {
    "four.toml": "players = 4\n",
    "two.toml": "players = 2\n",
    "two3.toml": "players = 2\ntwo_player_talon = 3\nmarriage_optional = true\n",
    "mixed.toml": ('preset = "online"\nmust_head = true\ndark_game = true\ngolden_round = true\n'
                   "redeal_four_aces = true\nhalf_marriage = true\nace_marriage = 200\n"),
}
# name: (mode, n, rules, players, seed, chunk size)
RUNS = {
    "classic_h": ("games", 300, "classic", "heuristic", 3, 100),
    "online_mix": ("games", 200, "online", "heuristic,random,random", 4, 70),
    "short_rand": ("games", 200, "short", "random", 5, 500),
    "mixed_h": ("games", 200, "mixed.toml", "heuristic", 6, 50),
    "dd3": ("deals", 300, "classic", "dd", 7, 100),
    "pimc3": ("deals", 40, "classic", "pimc,heuristic,dd", 8, 20),
    "four_h": ("games", 100, "four.toml", "heuristic", 9, 500),
    "four_mix": ("deals", 60, "four.toml", "dd,pimc,random,heuristic", 10, 30),
    "two_h": ("games", 200, "two.toml", "heuristic", 11, 500),
    "two_dd": ("deals", 100, "two.toml", "dd", 12, 50_000),
    "two_pimc": ("deals", 30, "two3.toml", "pimc,heuristic", 13, 50_000),
    "long_rh": ("games", 50, "long", "random,heuristic,heuristic", 14, 500),
}
SOLVES = [
    ["AH TH KH QH AS 9C JD | KS QS TS 9S KD QD AD | AC TC KC QC JC TD 9D", "--json"],
    ["AH TH KH QH AS 9C | KS QS 9S KD QD AD; last_bonus=15", "--json"],
    ["AH KH QH AS | KS QS TS 9S | AC TC KC QC", "--trump", "S", "--leader", "1", "--won", "0", "--rules", "online",
     "--json"],
]
BIDS = [
    ["AH TH KH QH AS 9C JD", "--samples", "300", "--method", "dd,heuristic,pimc", "--pimc-samples", "20",
     "--worlds", "8", "--json"],
    ["KS QS AD TD 9C JC QH", "--samples", "200", "--seat", "second", "--method", "dd,heuristic", "--rules", "strict",
     "--json"],
]

# name: arguments of one analysis command at small sizes ("{work}" is the scratch folder). Each runs
# twice where it has --json: as text, then as JSON (which reads the results the first call stored).
ANALYSES = {
    "tables_bids": (["tables", "bids", "--deals", "300", "--pimc-deals", "10", "--worlds", "6", "--seed", "21",
                     "--min-n", "5", "--out", "{work}/a_bids"], True),
    "tables_marriages": (["tables", "marriages", "--deals", "3000", "--seed", "22", "--play-deals", "300",
                          "--out", "{work}/a_marriages"], True),
    "tables_marriages_worth": (["tables", "marriages", "--deals", "2000", "--seed", "22", "--bids",
                                "{work}/a_bids/bids.parquet"], True),
    "tables_barrel": (["tables", "barrel", "--games", "120", "--rules", "classic", "--rules", "short", "--seed", "23",
                       "--out", "{work}/a_barrel"], True),
    "compare": (["compare", "classic", "online", "--games", "150", "--seed", "24", "--out", "{work}/a_compare"], True),
    "tournament_games": (["tournament", "heuristic", "random", "leadage", "--games", "40", "--seed", "25", "--out",
                          "{work}/a_tour_games"], True),
    "tournament_deals": (["tournament", "learned", "heuristic", "dd", "--deals", "60", "--rules", "online", "--seed",
                          "26", "--out", "{work}/a_tour_deals"], True),
    "bid": (["bid", "AH TH KH QH AS 9C JD", "--samples", "200", "--method", "dd,heuristic", "--seed", "27"], True),
    "bid_csv": (["bid", "KS QS AD TD 9C JC QH", "--samples", "200", "--seed", "28", "--csv"], False),
    "solve_text": (["solve", "AH TH KH QH AS 9C | KS QS 9S KD QD AD; last_bonus=15"], False),
    "combine": (["runs", "combine", "{work}/classic_h", "{work}/c_second", "--out", "{work}/a_combined"], False),
}


FINGERPRINT_FIELD = re.compile(rb'(\\?"code_fingerprint\\?":\s*\\?"|\bcode=)[0-9a-f]{16}\b')


# Every dotted version (x.y.z): masked too, since a redesign moves thousand's by definition, and what a
# command prints is the installed package's version, not the checkout's (library versions in a
# manifest are masked with it, the same on both sides).
VERSION_TEXT = re.compile(rb"\b\d+\.\d+\.\d+\b")


def sha(data: bytes) -> str:
    return hashlib.sha256(VERSION_TEXT.sub(b"<version>", FINGERPRINT_FIELD.sub(rb"\1-", data))).hexdigest()


def file_sha(path: Path) -> str:
    """A file's hash, a code fingerprint masked; a Parquet file's over its table and metadata."""
    if path.suffix != ".parquet":
        return sha(path.read_bytes())
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != b"ARROW:schema"}
    sink = io.BytesIO()
    with ipc.new_stream(sink, table.schema.remove_metadata()) as w:
        w.write_table(table.replace_schema_metadata(None))
    return sha(sink.getvalue() + repr(sorted(meta.items())).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=".", help="the checkout to run (its cli.py and sim/)")
    ap.add_argument("--analyses-only", action="store_true", help="only the analysis commands' outputs")
    ap.add_argument("--keep", type=Path, help="also write each analysis command's printed output to this folder")
    args = ap.parse_args()
    tree = Path(args.tree).resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "cli.py", *args], cwd=tree, env=env, capture_output=True, text=True)
        return done.stdout

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, text in RULE_FILES.items():
            (work / name).write_text(text)
        for name, (mode, n, rules, players, seed, chunk) in RUNS.items():
            if args.analyses_only and name != "classic_h":
                continue
            rules = str(work / rules) if rules.endswith(".toml") else rules
            out = work / name
            summary = cli("simulate", f"--{mode}", str(n), "--rules", rules, "--players", players, "--seed", str(seed),
                          "--chunk-size", str(chunk), "--out", str(out), "--no-progress")
            files = sorted(out.rglob("*.parquet")) + [out / "run.json"]
            for f in files:
                print(name, file_sha(f), f.relative_to(out))
            print(name, sha(summary.replace(str(work) + "/", "").encode()), "summary")
        if not args.analyses_only:
            for a in SOLVES:
                print(cli("solve", *a).strip())
            for a in BIDS:
                print(cli("bid", *a).strip())
            cli("tables", "bids", "--deals", "200", "--pimc-deals", "10", "--worlds", "6", "--seed", "2", "--out",
                str(work / "tables"))
            print("tables", file_sha(work / "tables" / "bids.parquet"))
        # a second run of classic_h's rules and players (another seed) for runs combine
        cli("simulate", "--games", "300", "--rules", "classic", "--players", "heuristic", "--seed", "30",
            "--chunk-size", "100", "--out", str(work / "c_second"), "--no-progress")
        for name, (a, has_json) in ANALYSES.items():
            a = [x.replace("{work}", str(work)) for x in a]
            for variant in ("", "--json") if has_json else ("",):
                printed = cli(*a, *([variant] if variant else []))
                printed = printed.replace(str(work) + "/", "")
                print(name, variant or "text", sha(printed.encode()), f"{len(printed.splitlines())} lines")
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{name}{variant.replace('--', '.') or '.txt'}").write_text(printed)
            outs = [Path(x) for x in a if x.startswith(str(work) + "/a_")]
            for folder in outs:
                for f in sorted([*folder.glob("*.parquet"), *folder.glob("*.png")]):
                    print(name, file_sha(f), f.relative_to(work))


if __name__ == "__main__":
    main()
