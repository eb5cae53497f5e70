"""Regenerate ``bid_dd.json``: an independent estimate of the dd method's p_make for fixed hands.

Straightforward on purpose, sharing nothing with ``analysis.bids.advisor`` but the solver's public API: the
17 unseen cards are shuffled with numpy's default generator (not the advisor's xoshiro streams),
split talon 3 / left 7 / right 7, and ``sim.solver.best_discard`` gives the exact value of the best
discard; p_make(b) is the share of samples whose value reaches b.

    python tests/known_answers/make_bid_dd.py
"""

import json
from pathlib import Path

import numpy as np

from sim.game.cards import parse_hand
from sim.solver import best_discard

HANDS = ["AH TH KH QH AS 9C JD", "AS KS 9H JC QD 9D TC", "KC QC AD TD 9S JS AH"]
SEED = 20240501
SAMPLES = 400
CONTRACTS = list(range(100, 225, 5))


def estimate(hand_text: str, rng: np.random.Generator) -> dict:
    hand = parse_hand(hand_text)
    unseen = [c for c in range(24) if not hand >> c & 1]
    values = []
    for _ in range(SAMPLES):
        p = rng.permutation(unseen)
        talon = sum(1 << int(c) for c in p[:3])
        left = sum(1 << int(c) for c in p[3:10])
        right = sum(1 << int(c) for c in p[10:17])
        values.append(best_discard(hand | talon, left, right)[2])
    v = np.array(values)
    return {"hand": hand_text, "samples": SAMPLES,
            "p_make": {str(b): float((v >= b).mean()) for b in CONTRACTS}}


def main() -> None:
    rng = np.random.default_rng(SEED)
    out = {"seed": SEED, "samples": SAMPLES, "rules": "classic", "method": "dd",
           "how": "numpy default_rng permutations of the unseen cards; sim.solver.best_discard per sample",
           "hands": [estimate(h, rng) for h in HANDS]}
    path = Path(__file__).with_name("bid_dd.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
