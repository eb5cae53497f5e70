"""How a command's text fits the terminal, written once: the width it is written for, prose wrapped
at that width, and tables that narrow by dropping their least needed columns (``--wide`` keeps
them all, and the lines as long as they are).

The width is ``COLUMNS`` when set, else the terminal's when the output is one, else 80 (a pipe, a
file, a test), kept between ``MIN_WIDTH`` and ``MAX_WIDTH``: prose wider than that is hard to
read, and no table of ours fits fewer columns. A presenter is given the width; it never reads the
terminal itself."""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

__all__ = ["DEFAULT_WIDTH", "MIN_WIDTH", "MAX_WIDTH", "MIN_LABEL", "terminal_width", "wrap", "fit", "Column",
           "Span", "table", "paths"]

DEFAULT_WIDTH = 80
MIN_WIDTH = 60
MAX_WIDTH = 120
MIN_LABEL = 16  # the narrowest a table's first column is made


def terminal_width(stream: TextIO | None = None) -> int:
    """The width a command writes for: ``COLUMNS`` when it is a number, else the terminal's width
    when ``stream`` is a terminal, else ``DEFAULT_WIDTH``; between ``MIN_WIDTH`` and ``MAX_WIDTH``."""
    width = DEFAULT_WIDTH
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit():
        width = int(columns)
    elif stream is not None:
        try:
            if stream.isatty():
                width = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            pass
    return max(MIN_WIDTH, min(MAX_WIDTH, width))


def wrap(text: str, width: int | None, indent: str = "", hang: str = "  ") -> list[str]:
    """``text`` as lines of at most ``width`` characters (its words never broken: a path stays
    whole), the first starting with ``indent``, the others with ``indent + hang``; one line as it
    is when ``width`` is None (``--wide``)."""
    if width is None or len(indent) + len(text) <= width:
        return [indent + text]
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent + hang,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def fit(lines: Sequence[str], width: int | None) -> list[str]:
    """Each line longer than ``width`` wrapped as prose (``wrap``), its own leading spaces kept as
    the indent; every line as it is when ``width`` is None. For lines of prose only: a table's rows
    are narrowed by ``table``."""
    out: list[str] = []
    for line in lines:
        body = line.lstrip(" ")
        out += wrap(body, width, indent=line[:len(line) - len(body)])
    return out


@dataclass(frozen=True)
class Column:
    """A table's column: its header, ``<`` or ``>`` alignment, and ``keep``: the columns of lowest
    ``keep`` are dropped first when the table is too wide (0: never dropped)."""

    header: str
    align: str = ">"
    keep: int = 0


@dataclass(frozen=True)
class Span:
    """A row that is one text across the table (a note in place of the numbers)."""

    text: str


def table(columns: Sequence[Column], rows: Sequence[Sequence[str] | Span], width: int | None,
          indent: str = "  ", gap: int = 2, label: int | None = None) -> tuple[list[str], list[str]]:
    """(lines, dropped headers): the header and rows, each column as wide as its widest cell, the
    columns of lowest ``keep`` dropped until the table fits ``width`` (all kept when ``width`` is
    None), the first column (a label) first narrowed down to ``label`` characters, its longer cells
    wrapped, and further when nothing is left to drop; a ``Span`` row is written after the indent,
    wrapped to the width."""
    cells = [r for r in rows if not isinstance(r, Span)]
    sizes = [max([len(c.header)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    shown = list(range(len(columns)))

    def total(idx: list[int]) -> int:
        return len(indent) + sum(sizes[i] for i in idx) + gap * (len(idx) - 1)

    if width is not None and label is not None and columns[0].align == "<":
        sizes[0] = max(min(sizes[0], label), sizes[0] - max(0, total(shown) - width))
    if width is not None:
        for i in sorted((i for i, c in enumerate(columns) if c.keep > 0), key=lambda i: (columns[i].keep, -i)):
            if total(shown) <= width:
                break
            shown.remove(i)

    # Still too wide with every droppable column gone: the first column (a label) is narrowed, a
    # longer label wrapped onto lines of its own below the row's numbers.
    if width is not None and total(shown) > width and columns[0].align == "<":
        sizes[0] = max(MIN_LABEL, sizes[0] - (total(shown) - width))

    def line(values: Sequence[str]) -> list[str]:
        label = [values[0]] if len(values[0]) <= sizes[0] else wrap(values[0], sizes[0], hang=" ")
        parts = [f"{label[0]:{columns[0].align}{sizes[0]}}"] + [f"{values[i]:{columns[i].align}{sizes[i]}}"
                                                               for i in shown if i > 0]
        return [(indent + (" " * gap).join(parts)).rstrip()] + [indent + more for more in label[1:]]

    out = line([c.header for c in columns])
    for r in rows:
        if isinstance(r, Span):
            out += wrap(r.text, width, indent=indent)
        else:
            out += line(r)
    dropped = [c.header for i, c in enumerate(columns) if i not in shown]
    return out, dropped


def paths(width: int | None, **named: object) -> list[str]:
    """Where a result's files are, as "table: T; plot: P" when that fits ``width``, else a line
    each (a path is never broken, so a long one may still be wider)."""
    parts = [f"{name}: {path}" for name, path in named.items()]
    one = "; ".join(parts)
    return [one] if width is None or len(one) <= width else parts
