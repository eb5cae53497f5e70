"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

__all__: list[str] = []
