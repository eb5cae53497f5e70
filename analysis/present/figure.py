"""What every plot shares: the Agg backend (no screen), one style and an atomic save, so that a
plot file is never half written. Each study's presenter (``analysis.present.<study>``) draws its
own plots with these."""

from __future__ import annotations

import io
import math
import textwrap
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from sim.runs import write_bytes_if_different

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
    stored with these very bytes is left as it is (``sim.runs.write_bytes_if_different``, as every
    stored table): a current result is read, not rewritten (a read-only mount will do)."""
    plt = pyplot()
    _fit_suptitle(fig)
    if tight:
        fig.tight_layout()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(fig)
    write_bytes_if_different(Path(path), buffer.getvalue())


def _fit_suptitle(fig: Figure) -> None:
    """Wrap the figure's title where a line is wider than the figure, so that a narrow figure (a
    two-panel tournament with a long field) never shows it clipped at both sides: each line too
    wide is broken at spaces into as few lines of even length as fit."""
    text = fig.get_suptitle()
    # The suptitle is one of the figure's texts (Figure.suptitle places it with Figure.text).
    title = next((t for t in fig.texts if t.get_text() == text), None) if text else None
    if title is None:
        return
    renderer = fig.canvas.get_renderer()
    room = 0.96 * fig.bbox.width
    lines = []
    for line in title.get_text().split("\n"):
        title.set_text(line)
        wide = title.get_window_extent(renderer).width
        if wide <= room:
            lines.append(line)
            continue
        # As few lines as fit, of even length: the narrowest wrap into that many lines.
        count = math.ceil(wide / room)
        most = max(20, int(len(line) * room / wide))
        width = math.ceil(len(line) / count)
        while width < most and len(textwrap.wrap(line, width=width)) > count:
            width += 1
        lines += textwrap.wrap(line, width=width)
    title.set_text("\n".join(lines))
