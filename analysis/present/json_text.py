"""The JSON a command prints with ``--json``: a result object's ``to_dict()``, its NaNs as null and
its NumPy scalars as Python numbers (``analysis.stats.json_ready``), indented by one space."""

from __future__ import annotations

import json
from typing import Protocol

from analysis.stats import json_ready
from sim import arguments

__all__ = ["HasDict", "to_json", "to_json_line"]


class HasDict(Protocol):
    """A result object: its fields as plain Python values, for JSON."""

    def to_dict(self) -> dict: ...


def to_json(result: HasDict) -> str:
    """``result.to_dict()`` as the JSON text the commands print (non-ASCII kept, NaN refused: a
    NaN left after ``json_ready`` is a bug). Anything without ``to_dict`` is refused naming
    ``result``, an ``InputError``."""
    if not callable(getattr(result, "to_dict", None)):
        raise arguments.refused("result", "a result object (what an analysis such as thousand.compare returns)", result)
    return json.dumps(json_ready(result.to_dict()), ensure_ascii=False, indent=1, allow_nan=False)


def to_json_line(result: HasDict) -> str:
    """``result.to_dict()`` as one line of JSON (a command that prints one object a line, as
    ``thousand solve --json`` does a layout)."""
    return json.dumps(json_ready(result.to_dict()), ensure_ascii=False, allow_nan=False)
