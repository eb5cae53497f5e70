"""What every plot shares: the Agg backend (no screen), one style and an atomic save, so that a
plot file is never half written. Each study's presenter (``analysis.present.<study>``) draws its
own plots with these."""

from __future__ import annotations

import io
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["STYLE", "pyplot", "save"]


# One style for every plot of the tool (the report shows them side by side): text large enough to
# read when a wide figure is shown about 1,000 pixels wide, light grids, no top and right frame.
STYLE = {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "legend.fontsize": 9,
         "xtick.labelsize": 10, "ytick.labelsize": 10, "figure.titlesize": 13, "axes.spines.top": False,
         "axes.spines.right": False, "grid.alpha": 0.3}


def pyplot() -> ModuleType:
    """matplotlib.pyplot on the Agg backend, with the tool's STYLE."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save(fig: Figure, path: Path, *, tight: bool = True) -> None:
    """Save ``fig`` as PNG to ``path`` through a temporary name, then close it. A plot already
    stored with these very bytes is left as it is: a current result is read, not rewritten (a
    read-only mount will do)."""
    plt = pyplot()
    if tight:
        fig.tight_layout()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(fig)
    data = buffer.getvalue()
    try:
        if Path(path).read_bytes() == data:
            return
    except OSError:
        pass  # none stored yet (or unreadable): written
    tmp = Path(path).with_name(f".{Path(path).name}.tmp.png")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
