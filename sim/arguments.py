"""The checks of the Python API's arguments (``import thousand``), made at the top of every public
function before anything is read, played or written.

The command line's options arrive typed (typer converts them), but a notebook may pass
``games="10"``, ``deals=10.5``, ``out=5`` or ``rules="classic"`` where a list is meant. Without
these checks such a value fails several frames deep with a builtin error, sometimes after a folder
was made or a table stored, or is silently misread (a string taken as a list of its characters).
Each check refuses a value of the wrong type with an ``InputError`` naming the argument, and
returns the value in the one form the function works with (a ``Path`` for a path given as text,
an ``int`` for a NumPy integer). What values are allowed (a seed of 0 or more, a risk between 0
and 1) each function still says itself, in the words of its command's options. A rules argument
is checked by ``sim.game.rules.load_rules``, which also validates a ``HouseRules`` passed in.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from sim import InputError

__all__ = ["shown", "refused", "integer", "number", "flag", "text", "path", "texts", "function"]


def shown(value: Any) -> str:
    """``value`` as a refusal shows it: its repr, cut to 60 characters, and its type."""
    text = repr(value)
    return f"{text if len(text) <= 60 else text[:57] + '...'} ({type(value).__name__})"


def refused(name: str, expected: str, value: Any) -> InputError:
    """The error naming argument ``name``, what it must be, and what it was given."""
    return InputError(f"{name} must be {expected}, not {shown(value)}")


def integer(name: str, value: Any, *, optional: bool = False) -> int | None:
    """An integer (a NumPy integer too), never a bool, a float or a text; None when ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise refused(name, "an integer" + (" or None" if optional else ""), value)
    return int(value)


def number(name: str, value: Any, *, optional: bool = False) -> float | None:
    """A real number (an integer too), never a bool or a text; None when ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise refused(name, "a number" + (" or None" if optional else ""), value)
    return float(value)


def flag(name: str, value: Any) -> bool:
    """True or False (a NumPy bool too); never a text such as "no", which Python takes for true."""
    if not isinstance(value, bool | np.bool_):
        raise refused(name, "True or False", value)
    return bool(value)


def text(name: str, value: Any, *, optional: bool = False) -> str | None:
    """A text; None when ``optional``."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise refused(name, "a text" + (" or None" if optional else ""), value)
    return value


def path(name: str, value: Any, *, optional: bool = False) -> Path | None:
    """A file or folder, given as a ``Path`` or a text; None when ``optional``."""
    if value is None and optional:
        return None
    if not isinstance(value, str | os.PathLike) or str(value) == "":
        raise refused(name, "a path (a Path or a text naming a file or folder)" + (" or None" if optional else ""),
                      value)
    return Path(value)


def texts(name: str, value: Any, *, what: str, optional: bool = False) -> list[str] | None:
    """A list (or tuple) of texts, each one of ``what`` (e.g. "presets or TOML files"); a ``Path``
    is taken as its text. A lone text is refused, not split into its characters: ``["classic"]``,
    never ``"classic"``. None when ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, str | os.PathLike):
        raise InputError(f"{name} must be a list of {what}, not the single {value!r}: write [{str(value)!r}]")
    if not isinstance(value, list | tuple):
        raise refused(name, f"a list of {what}" + (" or None" if optional else ""), value)
    for item in value:
        if not isinstance(item, str | os.PathLike):
            raise InputError(f"{name} must be a list of {what}, and it holds {shown(item)}")
    return [str(item) for item in value]


def function(name: str, value: Any) -> Callable | None:
    """A function to call, or None (a progress report, a log)."""
    if value is not None and not callable(value):
        raise refused(name, "a function or None", value)
    return value
