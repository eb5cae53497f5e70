"""Regenerate ``pimc_deals.json``: a few deals played by PIMC seats (three players, and two with
both talon sizes). The test (``tests/players/test_pimc_bounds.py``) plays these deals again and
must find every row unchanged (the digest covers every column; the plays are kept to show a
difference). History: commit ea4b7e1, whose players computed every candidate's value in every
world, wrote the file that the players proving their choices from bounds replayed unchanged.
On 2026-12-01 a defender stopped counting a talon card the declarer had given away as the
declarer's (``play_nb.know_cards``: his worlds had held a card too many), which changed the
defenders' choices; the file was written again, and commit df396d7 with only that fix applied
writes the same bytes as the solver changes of that day (sure points, window searches).

    python tests/known_answers/make_pimc_deals.py
"""

import hashlib
import json
from pathlib import Path

from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules

# (name, rule options, players, deals): three- and two-player games, the latter with both talon sizes.
CASES = [
    ("three players", {}, "pimc", 12),
    ("two players", {"players": 2}, "pimc", 12),
    ("two players, talon of 3", {"players": 2, "two_player_talon": 3}, "pimc", 12),
]
SEED = 31


def play(options: dict, players: str, n: int) -> dict:
    """The deals' rows, each column as a list, and a digest of the whole table."""
    deals, _ = play_chunk(BatchSpec(mode="deals", n=n, seed=SEED, chunk_size=n, players=players,
                                    rules=HouseRules(**options)), 0)
    rows = {c: [int(x) if not isinstance(x, list) else [int(y) for y in x] for x in deals[c].to_list()]
            for c in deals.columns}
    return {"digest": hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest(), "plays": rows["plays"]}


def main() -> None:
    out = [{"case": name, "options": options, "players": players, "deals": n, "seed": SEED, **play(options, players, n)}
           for name, options, players, n in CASES]
    path = Path(__file__).with_name("pimc_deals.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
