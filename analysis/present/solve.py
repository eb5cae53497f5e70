"""One solved layout as ``thousand solve`` prints it (``sim.solver.SolvedLayout``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.present.layout import DEFAULT_WIDTH, fit
from sim.game.cards import format_card

if TYPE_CHECKING:
    from sim.solver import SolvedLayout

__all__ = ["solved_layout_lines"]


def solved_layout_lines(result: SolvedLayout, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand solve`` prints for one layout: its line as a title when it came from a file,
    the value, the value of each lead (best first) and the principal variation trick by trick
    (``*``: the card declares a marriage), a trick never split across lines at ``width`` (None: one
    line)."""
    lines = [result.layout] if result.from_file else []
    lines.append(f"value {result.value}")
    leads = "  ".join(f"{format_card(c)} {v}" for c, v in result.lead_values)
    lines.append(f"leads by seat {result.leader}: {leads}")
    tricks = []
    for i in range(0, len(result.plays), result.seats):
        tricks.append(" ".join(f"{p.seat}:{format_card(p.card)}{'*' if p.declared else ''}"
                               for p in result.plays[i:i + result.seats]))
    if any(p.declared for p in result.plays):
        tricks[-1] += "   (* declares)"
    play = ["play:"]
    for k, trick in enumerate(tricks):
        piece = (" " if k == 0 else " | ") + trick
        if width is not None and len(play[-1]) + len(piece) > width:
            play[-1] += " |"
            play.append("     " + " " + trick)
        else:
            play[-1] += piece
    return fit(lines, width) + play
