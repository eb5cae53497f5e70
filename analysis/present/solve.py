"""One solved layout as ``thousand solve`` prints it (``sim.solver.SolvedLayout``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.game.cards import format_card

if TYPE_CHECKING:
    from sim.solver import SolvedLayout

__all__ = ["solved_layout_lines"]


def solved_layout_lines(result: SolvedLayout) -> list[str]:
    """What ``thousand solve`` prints for one layout: its line as a title when it came from a file,
    the value, the value of each lead (best first) and the principal variation trick by trick
    (``*``: the card declares a marriage)."""
    lines = [result.layout] if result.from_file else []
    lines.append(f"value {result.value}")
    leads = "  ".join(f"{format_card(c)} {v}" for c, v in result.lead_values)
    lines.append(f"leads by seat {result.leader}: {leads}")
    tricks = []
    for i in range(0, len(result.plays), result.seats):
        tricks.append(" ".join(f"{p.seat}:{format_card(p.card)}{'*' if p.declared else ''}"
                               for p in result.plays[i:i + result.seats]))
    lines.append("play: " + " | ".join(tricks) + ("   (* declares)" if any(p.declared for p in result.plays) else ""))
    return lines
