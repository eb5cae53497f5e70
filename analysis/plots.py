"""What every plot of the analyses shares: the Agg backend (no screen) and an atomic save, so that
a plot file is never half written."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """matplotlib.pyplot on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, path: Path, *, tight: bool = True) -> None:
    """Save ``fig`` as PNG to ``path`` through a temporary name, then close it."""
    plt = pyplot()
    if tight:
        fig.tight_layout()
    tmp = Path(path).with_name(f".{Path(path).name}.tmp.png")
    try:
        fig.savefig(tmp, dpi=110)
        tmp.replace(path)
    finally:
        plt.close(fig)
        tmp.unlink(missing_ok=True)
