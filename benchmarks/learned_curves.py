"""The training curves of a `thousand train` folder as one plot: training loss and validation
regret (points lost a decision to the labels' best card) per epoch, round after round, and the
validation regret by trick at the end of each round.

    python benchmarks/learned_curves.py TRAIN_DIR OUT.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("train_dir", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    rounds = sorted(args.train_dir.glob("r*/model.json"), key=lambda p: int(p.parent.name[1:]))
    if not rounds:
        raise SystemExit(f"{args.train_dir} holds no fitted round (r*/model.json)")
    fig, (ax_loss, ax_regret, ax_trick) = plt.subplots(1, 3, figsize=(13, 4))
    x0 = 0
    for path in rounds:
        meta = json.loads(path.read_text(encoding="utf-8"))
        hist = meta["history"]
        xs = [x0 + h["epoch"] for h in hist]
        label = f"round {meta['round']} ({meta['data']['positions'] / 1e6:.1f}M positions)"
        ax_loss.plot(xs, [h["train_loss"] for h in hist], marker="o", label=label)
        ax_regret.plot(xs, [h["val_regret"] for h in hist], marker="o", label=label)
        by_trick = hist[-1]["val_regret_by_trick"]
        ax_trick.plot([t + 1 for t, v in enumerate(by_trick) if v is not None], [v for v in by_trick if v is not None],
                      marker="o", label=label)
        x0 = xs[-1]
    ax_loss.set(title="training loss (centred squared error)", xlabel="epoch, rounds in turn", ylabel="loss")
    ax_regret.set(title="validation regret", xlabel="epoch, rounds in turn",
                  ylabel="points a decision, against the true deal")
    ax_trick.set(title="validation regret by trick (end of round)", xlabel="trick", ylabel="points a decision")
    for ax in (ax_loss, ax_regret, ax_trick):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
