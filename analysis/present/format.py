"""What every presenter shares, written once: a number or a share with its 95% interval (the one
formatting of an interval, ``interval``; ``num`` and ``pct`` add the dash of a missing value), who
played a result's deals in words, and a Markdown table and figure as the report's sections write
them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.engine.playouts import Situation

__all__ = ["finite", "interval", "pct", "num", "players_text", "scores_text", "markdown_table", "markdown_figures"]


def finite(x: float | None) -> bool:
    """A bound to print: not None (no interval in JSON) and not NaN (no interval in a result)."""
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def interval(x: float, lo: float | None = None, hi: float | None = None, digits: int = 1, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals (and its sign when ``sign``), then its 95% interval in brackets
    when both bounds are given and finite: ``+14.2 [9.0, 19.4]``. The one way every presenter
    writes a number with its interval."""
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    text = f.format(x)
    if finite(lo) and finite(hi):
        text += f" [{f.format(lo)}, {f.format(hi)}]"
    return text


def pct(p: float | None, lo: float | None = None, hi: float | None = None, digits: int = 1) -> str:
    """A share as a percentage, with its 95% interval when given: ``31.0% [29.9, 32.2]``."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    text = f"{100 * p:.{digits}f}%"
    if finite(lo) and finite(hi):
        text += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return text


def num(x: float | None, lo: float | None = None, hi: float | None = None, digits: int = 1,
        sign: bool = False) -> str:
    """A number with its 95% interval when given (``interval``); "–" for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return interval(x, lo, hi, digits, sign)


def p_value(p: float) -> str:
    """A p-value as the report prints it: "< 0.001", else two significant figures."""
    return "< 0.001" if p < 0.001 else f"{p:.2g}"


def players_text(players: Sequence[str]) -> str:
    """Who played a result's deals, as a reader says it: "learned player, all seats" when every seat
    is one player, else the players seat by seat ("heuristic, random, random (seat by seat)"). A
    learned player of other weights (``learned:PATH``) is named by the file and its folder."""

    def name(p: str) -> str:
        kind, sep, path = p.partition(":")
        return f"{kind}:{'/'.join(Path(path).parts[-2:])}" if sep else p

    names = [name(p) for p in players]
    if len(set(names)) == 1:
        return f"{names[0]} player, all seats"
    return f"{', '.join(names)} (seat by seat)"


def scores_text(s: Situation) -> str:
    """The score situation before a deal in words: "you 880 (on the barrel, 2 barrel attempts used),
    left 600, right 600" (your counters beside your score, when not 0)."""

    def one(name: str, score: int, sits: bool, counters: tuple[str, ...] = ()) -> str:
        notes = ("on the barrel",) * sits + counters
        return f"{name} {score}" + (f" ({', '.join(notes)})" if notes else "")

    mine = tuple(f"{n} {word}" for n, word in ((s.attempts, "barrel attempts used"),
                                                (s.bolts, "bolts toward the penalty"),
                                                (s.passes, "deals in a row without declaring")) if n)
    return ", ".join((one("you", s.score, s.on_barrel, mine), one("left", s.others[0], s.others_on_barrel[0]),
                      one("right", s.others[1], s.others_on_barrel[1])))


def markdown_table(headers: list[str], rows: list[list]) -> list[str]:
    """A Markdown table of ``headers`` and ``rows`` (a cell's ``|`` escaped), then a blank line."""

    def cell(x) -> str:
        return str(x).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def markdown_figures(figs: list[tuple[str, str]]) -> list[str]:
    """Each (file, caption) as a Markdown image with its caption in italics below."""
    return [line for name, caption in figs for line in (f"![{caption}]({name})", "", f"*{caption}*", "")]
