"""Fingerprint of what a checkout computes, through its command line only, so that two checkouts
(before and after a redesign) can be compared line by line:

    python benchmarks/fingerprint.py --tree ../before > before.txt
    python benchmarks/fingerprint.py --tree . > after.txt
    diff before.txt after.txt && echo identical

It plays simulate runs of 2, 3 and 4 players with every player type under several presets and
house-rule files (each with an explicit chunk size, which is part of what fixes the results), and
prints the SHA-256 of every stored shard, of run.json and of the printed summary; then the JSON of
three solver layouts, two bid advices and the hash of a bid table.
"""

from __future__ import annotations

import argparse
import hashlib
import os
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


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=".", help="the checkout to run (its cli.py and sim/)")
    tree = Path(ap.parse_args().tree).resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "cli.py", *args], cwd=tree, env=env, capture_output=True, text=True)
        return done.stdout

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, text in RULE_FILES.items():
            (work / name).write_text(text)
        for name, (mode, n, rules, players, seed, chunk) in RUNS.items():
            rules = str(work / rules) if rules.endswith(".toml") else rules
            out = work / name
            summary = cli("simulate", f"--{mode}", str(n), "--rules", rules, "--players", players, "--seed", str(seed),
                          "--chunk-size", str(chunk), "--out", str(out), "--no-progress")
            files = sorted(out.rglob("*.parquet")) + [out / "run.json"]
            for f in files:
                print(name, sha(f.read_bytes()), f.relative_to(out))
            print(name, sha(summary.replace(str(work) + "/", "").encode()), "summary")
        for args in SOLVES:
            print(cli("solve", *args).strip())
        for args in BIDS:
            print(cli("bid", *args).strip())
        cli("tables", "bids", "--deals", "200", "--pimc-deals", "10", "--worlds", "6", "--seed", "2", "--out",
            str(work / "tables"))
        print("tables", sha((work / "tables" / "bids.parquet").read_bytes()))


if __name__ == "__main__":
    main()
