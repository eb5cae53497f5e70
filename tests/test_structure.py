"""The plan of the code, checked from its imports: every import runs downward through the layers
(numba_config, parallel ← game ← solver ← players ← engine ← runs, training ← analysis ← cli),
and a module of the project is imported under one name wherever it is imported."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Layer of each module (by dotted-name prefix); a module may import its own layer and those below.
LAYERS = [
    ("sim.numba_config", 0), ("sim.parallel", 0), ("sim.fingerprint", 0),
    ("sim.game", 1), ("sim.solver", 2), ("sim.players", 3), ("sim.engine", 4),
    ("sim.runs", 5), ("sim.training", 5),
    ("sim", 0),  # the package face: the version and the error family (ThousandError, InputError)
    ("analysis", 6), ("cli", 7),
]


def layer(module: str) -> int | None:
    for prefix, rank in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return rank
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path):
    """(imported module, alias or None, line) for every import of a project module in ``path``,
    at any depth (lazy imports inside functions count)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if layer(a.name) is not None:
                    yield a.name, a.asname, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and layer(node.module) is not None:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                if (ROOT / (sub.replace(".", "/") + ".py")).exists() or (ROOT / sub.replace(".", "/")).is_dir():
                    yield sub, a.asname or a.name, node.lineno  # a module imported from its package
                else:
                    yield node.module, None, node.lineno


def source_files(*tops: str) -> list[Path]:
    files = []
    for top in tops:
        p = ROOT / top
        files += [p] if p.suffix == ".py" else sorted(p.rglob("*.py"))
    return files


def test_imports_run_downward():
    upward = []
    for path in source_files("sim", "analysis", "cli.py"):
        me = module_name(path)
        for target, _alias, line in project_imports(path):
            if layer(target) > layer(me):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_a_module_has_one_name():
    names = defaultdict(set)
    for path in source_files("sim", "analysis", "cli.py", "tests", "benchmarks"):
        for target, alias, _line in project_imports(path):
            if alias is not None:
                names[target].add(alias)
    several = {m: sorted(a) for m, a in names.items() if len(a) > 1}
    assert not several, f"modules imported under several names: {several}"


def test_every_sub_package_says_what_it_holds():
    for package in ("sim", "sim/game", "sim/solver", "sim/players", "sim/engine", "sim/runs", "analysis"):
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"{package}/__init__.py needs a docstring describing the package"
