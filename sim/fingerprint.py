"""The code fingerprint: which code made a stored result.

Every stored result (a run's spec and manifest, a bid, marriage, barrel, compare or tournament
table, a report's data and provenance) records the fingerprint of the code that computes it, and
is reused or resumed only by code of the same fingerprint (``describe_difference`` words the
refusal). The package version alone cannot do this: it moves by hand, code changes every day.

A fingerprint is a SHA-256 over

- every Python file of ``sim`` (the engine, the solver, the players, the runner), read as its
  syntax tree with docstrings dropped, so that a comment, a docstring or a line break does not
  count while any change to what runs does;
- every data file shipped under ``sim`` (the learned players' weights), byte for byte;
- for an analysis's stored table, the ``analysis`` modules it names and every ``analysis`` module
  they import, found from their syntax trees (so the bid table's, ``bids.table``, covers the
  parts, the hand, the deals, the summaries and the statistics it calls, and a report's covers
  every analysis it arranges).

The version discipline that goes with it (``CHANGELOG.md``, ``code_versions.json`` and
``tests/test_version_discipline.py``) makes a results-changing edit move the version.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

__all__ = [
    "SIM_DIR", "PROJECT_DIR", "ANALYSIS_DIR", "source_digest", "sim_files", "analysis_files", "file_digests",
    "code_fingerprint", "describe_difference", "file_sha256",
]

SIM_DIR = Path(__file__).resolve().parent
PROJECT_DIR = SIM_DIR.parent
ANALYSIS_DIR = PROJECT_DIR / "analysis"
# Files under sim/ that are not code and do not compute results.
_NOT_RESULTS = {"__pycache__"}
_LENGTH = 16  # hex digits shown and stored: 64 bits, enough to tell every version of the code apart


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


@cache
def source_digest(path: Path) -> str:
    """SHA-256 of what a file computes: a Python file's syntax tree without docstrings (comments
    and layout do not count), any other file's bytes."""
    data = Path(path).read_bytes()
    if Path(path).suffix == ".py":
        data = ast.dump(_strip_docstrings(ast.parse(data, filename=str(path)))).encode()
    return hashlib.sha256(data).hexdigest()


def sim_files() -> list[Path]:
    """Every file of ``sim`` that computes results: its Python sources and its data files."""
    return sorted(p for p in SIM_DIR.rglob("*") if p.is_file() and not _NOT_RESULTS & set(p.parts)
                  and p.suffix not in (".pyc", ".pyo"))


def _analysis_path(module: str) -> Path:
    """The file of an ``analysis`` module named relative to the package (``"compare"``, or
    ``"bids.table"`` in a sub-package; a sub-package's own name means its ``__init__.py``)."""
    name = module.removeprefix("analysis.")
    base = ANALYSIS_DIR.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    raise ValueError(f"no analysis module {module!r}")  # a bug of ours: the names are constants


def _is_analysis_module(name: str) -> bool:
    base = ANALYSIS_DIR.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _analysis_imports(path: Path) -> set[str]:
    """The ``analysis`` modules a module imports, at its top or inside functions, named relative to
    the package (``from analysis.bids import table`` names ``bids.table``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "analysis" or node.module.startswith("analysis."):
                base = node.module.removeprefix("analysis").removeprefix(".")
                if base:
                    found.add(base)
                found.update(f"{base}.{alias.name}".lstrip(".") for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("analysis.") for a in node.names if a.name.startswith("analysis."))
    return {name for name in found if _is_analysis_module(name)}


def analysis_files(*modules: str) -> list[Path]:
    """The files of the ``analysis`` modules named and of every ``analysis`` module they import."""
    todo = [m.removeprefix("analysis.") for m in modules]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # its sub-packages run first
        todo.extend(_analysis_imports(_analysis_path(name)))
    return sorted(_analysis_path(name) for name in seen)


def file_digests(*modules: str) -> dict[str, str]:
    """SHA-256 by project-relative path of every file a fingerprint covers."""
    return {p.relative_to(PROJECT_DIR).as_posix(): source_digest(p) for p in sim_files() + analysis_files(*modules)}


@cache
def code_fingerprint(*modules: str) -> str:
    """The fingerprint of the code that computes a result: ``sim`` (engine, players, weights,
    runner) and the ``analysis`` modules named with those they import; none named: a stored run's
    (``sim`` alone)."""
    digest = hashlib.sha256()
    for rel, sha in sorted(file_digests(*modules).items()):
        digest.update(f"{rel}\0{sha}\n".encode())
    return digest.hexdigest()[:_LENGTH]


def describe_difference(what: str, stored: object, current: str) -> str:
    """The words of a refusal to reuse a result made by other code."""
    if not stored:
        return f"{what} was made by an older version of thousand that recorded no code fingerprint"
    return f"{what} was made by other code (fingerprint {stored}; this code is {current})"


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in blocks (a stored part, a shard, a weights file)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
