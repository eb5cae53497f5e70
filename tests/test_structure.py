"""The plan of the code, checked from its imports: every import runs downward through the layers
(numba_config, parallel, fingerprint, streams ← game ← solver ← players ← engine ← runs, training ← the analysis core
(study, stats, stored, analysis_dir, players, deals, measures) ← the studies ← analysis.present ←
analysis.report ← cli, thousand): no study imports another (but the marriages read the stored bid
table through the module that writes it), every played study runs on the core's one pipeline,
the analyses return data and never import the wing that presents it, the report composes what
is presented, ``thousand`` is the Python face that re-exports them; no two modules of the project
import each other, even by a path of several imports; a module of the project is imported under
one name wherever it is imported; and no underscore name is imported from another file."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Layer of each module (by dotted-name prefix); a module may import its own layer and those below.
LAYERS = [
    ("sim.numba_config", 0), ("sim.parallel", 0), ("sim.fingerprint", 0), ("sim.streams", 0),
    ("sim.game", 1), ("sim.solver", 2), ("sim.players", 3), ("sim.engine", 4),
    ("sim.runs", 5), ("sim.training", 5), ("sim.records", 5), ("sim.inference", 5),
    ("sim", 0),  # the package face: the version and the error family (ThousandError, InputError)
    # the analysis core: the one pipeline of a played study, its statistics, stored results, folder
    # names, who plays when nobody is named, the random deals and the measures several studies take
    ("analysis.study", 6), ("analysis.stats", 6), ("analysis.stored", 6), ("analysis.analysis_dir", 6),
    ("analysis.players", 6), ("analysis.deals", 6), ("analysis.measures", 6),
    ("analysis.present", 8),  # presenting: one module a study, and what they share (format, figure, JSON)
    ("analysis.report", 9),  # the report: its plan (sizes, cost model), build, page and HTML
    ("analysis", 7),  # the studies
    ("cli", 10), ("thousand", 10),  # the Python face re-exports the analyses
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
    for path in source_files("sim", "analysis", "cli.py", "thousand"):
        me = module_name(path)
        for target, _alias, line in project_imports(path):
            if layer(target) > layer(me):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def import_graph() -> dict[str, set[str]]:
    """{module: the project modules it imports}, at any depth (a lazy import, or one only for type
    checking, counts: each says that the module needs the other)."""
    graph: dict[str, set[str]] = {}
    for path in source_files("sim", "analysis", "cli.py", "thousand"):
        me = module_name(path)
        graph.setdefault(me, set()).update(target for target, _alias, _line in project_imports(path) if target != me)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: each set of two or more modules that reach one another through
    their imports (its strongly connected components, by Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    circles.append(sorted(members))
    return circles


def test_no_import_circle():
    """No modules of the project import each other, directly or through others: the layers alone
    cannot see a circle within one layer."""
    circles = import_circles(import_graph())
    assert not circles, "modules that import each other:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_import_circles_are_found():
    """The circle finder sees a circle of two, one of three, and none in a chain."""
    assert import_circles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_played_studies_run_on_the_pipeline():
    """The studies that play their runs and store their tables (compare, tournament, tables barrel,
    strategy, win chances, tables marriages) do so through ``analysis.study.run_study``, never by the folder's
    machinery themselves."""
    for name in ("compare", "tournament", "barrel", "strategy/study", "win_chances", "marriages/odds"):
        source = (ROOT / "analysis" / f"{name}.py").read_text(encoding="utf-8")
        assert "run_study(" in source, f"analysis/{name}.py does not run on analysis.study.run_study"
        for machinery in ("Study(", "store_table(", "play_runs(", ".home(", ".commit("):
            assert machinery not in source, f"analysis/{name}.py calls {machinery[:-1]} itself, not through run_study"


STUDY_LAYER = 7
# The one import from a study into another allowed by design: the marriages (a module, or a package
# of modules) read the stored bid table through the module that writes it.
STUDY_IMPORTS_ALLOWED = {("analysis.marriages", "analysis.bids.table")}


def study_of(module: str) -> str | None:
    """The study a module belongs to: ``analysis.NAME`` for the module ``analysis.NAME`` and for every
    module of the sub-package ``analysis.NAME``; None for a module that is no study's (sim, the
    analysis core, the presenting wing, the report, the faces)."""
    parts = module.split(".")
    if parts[0] != "analysis" or len(parts) < 2 or layer(module) != STUDY_LAYER:
        return None
    return ".".join(parts[:2])


def study_import_allowed(me: str, target: str) -> bool:
    """Whether ``me`` may import ``target`` of another study: only the listed pairs, a pair's first
    module standing for itself and every module of it as a package (``analysis.marriages`` and
    ``analysis.marriages.*``), its second for the very module named."""
    return any((me == source or me.startswith(source + ".")) and target == allowed
               for source, allowed in STUDY_IMPORTS_ALLOWED)


def test_no_study_imports_another_study():
    """A study (a module of ``analysis`` on the studies' layer, or a sub-package of it such as
    ``analysis.bids``) imports the core, ``sim`` and its own modules, never another study: what two
    studies share belongs in the core (``analysis.deals``, ``analysis.measures``, ...). The one
    exception by design: the marriages read the stored bid table through ``analysis.bids.table``."""
    crossing: dict[str, None] = {}  # each crossing once, in the order found
    for path in source_files("analysis"):
        me = module_name(path)
        mine = study_of(me)
        if mine is None:
            continue
        for target, _alias, line in project_imports(path):
            theirs = study_of(target)
            if theirs is not None and theirs != mine and not study_import_allowed(me, target):
                crossing[f"{path.relative_to(ROOT)}:{line} imports {target}"] = None
    assert not crossing, "studies importing another study (share it through the core instead):\n" + \
        "\n".join(crossing)


def test_the_study_exception_holds_for_the_marriages_module_and_package():
    """The marriages may read the bid table whether they are one module or a package; nothing else
    of the bid package, and no other study, is let through."""
    assert study_of("analysis.bids.table") == "analysis.bids" and study_of("analysis.compare") == "analysis.compare"
    assert study_of("analysis.stats") is None and study_of("analysis.present.bids") is None
    assert study_import_allowed("analysis.marriages", "analysis.bids.table")
    assert study_import_allowed("analysis.marriages.worth", "analysis.bids.table")
    assert not study_import_allowed("analysis.marriages", "analysis.bids.parts")
    assert not study_import_allowed("analysis.marriagesx", "analysis.bids.table")
    assert not study_import_allowed("analysis.compare", "analysis.bids.table")


def test_a_module_has_one_name():
    names = defaultdict(set)
    for path in source_files("sim", "analysis", "cli.py", "thousand", "tests", "benchmarks"):
        for target, alias, _line in project_imports(path):
            if alias is not None:
                names[target].add(alias)
    several = {m: sorted(a) for m, a in names.items() if len(a) > 1}
    assert not several, f"modules imported under several names: {several}"


def test_every_sub_package_says_what_it_holds():
    for package in ("sim", "sim/game", "sim/solver", "sim/players", "sim/players/learned", "sim/engine", "sim/runs",
                    "analysis", "analysis/present", "analysis/marriages", "analysis/bids", "analysis/strategy"):
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"{package}/__init__.py needs a docstring describing the package"


def module_level_statements(body):
    """The statements that run at module level: the body, and the bodies of its ``if`` and ``try``
    blocks (a ``TYPE_CHECKING`` import, a name set in a ``try``), never a function's or a class's."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from module_level_statements(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            yield from module_level_statements(node.body + handlers + node.orelse + node.finalbody)


def assignment_targets(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def module_level_names(tree: ast.Module) -> set[str]:
    """Every name a module defines or imports at module level."""
    names = set()
    for node in module_level_statements(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            names |= {n.id for t in assignment_targets(node) for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    return names


def test_every_public_module_names_its_api():
    """Every module of ``sim`` and ``analysis`` but the compiled kernels (``*_nb.py``) says what it
    offers in ``__all__``: a list or tuple of strings, each a name the module defines or imports,
    none twice. Read from the source only: importing would compile the kernels."""
    problems = []
    for path in source_files("sim", "analysis", "thousand"):
        if path.name.endswith("_nb.py"):
            continue
        where = path.relative_to(ROOT)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        values = [
            node.value for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in assignment_targets(node))
        ]
        if not values:
            problems.append(f"{where}: no module-level __all__")
            continue
        if len(values) > 1:
            problems.append(f"{where}: __all__ is assigned {len(values)} times")
        value = values[-1]
        if not isinstance(value, (ast.List, ast.Tuple)) or not all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
        ):
            problems.append(f"{where}: __all__ is not a list or tuple of strings")
            continue
        names = [e.value for e in value.elts]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            problems.append(f"{where}: __all__ names {twice} more than once")
        unknown = [n for n in names if n not in module_level_names(tree)]
        if unknown:
            problems.append(f"{where}: __all__ names {unknown}, which the module neither defines nor imports")
    assert not problems, "modules whose __all__ is missing or wrong:\n" + "\n".join(problems)


def test_public_functions_carry_type_hints():
    """Every function a module offers in ``__all__`` (but the compiled kernels') annotates its
    parameters and its return: the Python API's signatures say what they take and give."""
    missing = []
    for path in source_files("sim", "analysis", "thousand"):
        if path.name.endswith("_nb.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offered: set[str] = set()
        for node in module_level_statements(tree.body):
            if (isinstance(node, (ast.Assign, ast.AnnAssign))
                    and any(isinstance(t, ast.Name) and t.id == "__all__" for t in assignment_targets(node))
                    and isinstance(node.value, (ast.List, ast.Tuple))):
                offered = {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in offered:
                args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                bare = [a.arg for a in args if a.annotation is None]
                bare += [f"**{node.args.kwarg.arg}"] if node.args.kwarg and node.args.kwarg.annotation is None else []
                if bare or node.returns is None:
                    where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                    missing.append(f"{where}: {', '.join(bare) or ''}{' (return)' if node.returns is None else ''}")
    assert not missing, "public functions without type hints:\n" + "\n".join(missing)


# Underscore names still imported from another file, each to be made public or moved by the part of
# issue 44 that restructures its package (file, module imported from, name).
UNDERSCORE_IMPORTS_ALLOWED: set[tuple[str, str, str]] = set()


def project_module(module: str) -> bool:
    """Whether ``module`` is one of the project's: a package of it, ``cli``, or a helper module of
    ``tests`` or ``benchmarks`` (imported by its bare name, their folder being on the path)."""
    top = module.split(".")[0]
    return (layer(module) is not None or top in ("tests", "benchmarks")
            or (ROOT / "tests" / f"{top}.py").exists() or (ROOT / "benchmarks" / f"{top}.py").exists())


def is_private(name: str) -> bool:
    """An underscore name, its file's own business (a dunder such as ``__version__`` is public)."""
    return name.startswith("_") and not name.startswith("__")


def underscore_imports(path: Path):
    """(module, name, line) for every underscore name ``path`` imports from a project module, at
    any depth: ``from m import _x`` and ``import m._x`` (dunders such as ``__version__`` are
    public)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and project_module(node.module):
            yield from ((node.module, a.name, node.lineno) for a in node.names if is_private(a.name))
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if project_module(a.name) and any(is_private(p) for p in parts):
                    yield a.name, next(p for p in parts if is_private(p)), node.lineno


def test_no_underscore_name_crosses_files():
    """A name that another file uses is public: in its module's ``__all__``, with a docstring. An
    underscore name is the business of its own file, which may change it without looking
    elsewhere. The allowed exceptions are listed, each with the part of issue 44 that ends it."""
    found, seen = [], set()
    for path in source_files("sim", "analysis", "cli.py", "thousand", "tests", "benchmarks"):
        where = path.relative_to(ROOT).as_posix()
        for module, name, line in underscore_imports(path):
            seen.add((where, module, name))
            if (where, module, name) not in UNDERSCORE_IMPORTS_ALLOWED:
                found.append(f"{where}:{line} imports {name} from {module}")
    assert not found, "underscore names imported from another file (make them public or move the code):\n" + \
        "\n".join(found)
    stale = sorted(UNDERSCORE_IMPORTS_ALLOWED - seen)
    assert not stale, f"allowed underscore imports that no longer occur (drop them from the list): {stale}"


# The solver's own floors: what both searches share, then each node search, then the questions
# asked of either (each driver written once), then the discard, then the Python API.
SOLVER_FLOORS = {"sim.solver.core_nb": 0, "sim.solver.search3_nb": 1, "sim.solver.search2_nb": 1,
                 "sim.solver.drivers_nb": 2, "sim.solver.discard_nb": 3, "sim.solver": 4}


def test_solver_files_import_downward():
    """Inside ``sim/solver``: every import runs down ``SOLVER_FLOORS`` (the two node searches never
    import each other: each is self-recursive and shares only ``core_nb``), and every file of it has
    a floor (no underscore name crosses files: test_no_underscore_name_crosses_files)."""
    files = source_files("sim/solver")
    assert {module_name(p) for p in files} == set(SOLVER_FLOORS), "a file of sim/solver has no floor"
    problems = []
    for path in files:
        me = module_name(path)
        for target, _alias, line in project_imports(path):
            if target in SOLVER_FLOORS and target != me and SOLVER_FLOORS[target] >= SOLVER_FLOORS[me]:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not problems, "imports against the solver's floors:\n" + "\n".join(problems)


# Imported where they are used, not at a file's top, each for a reason no refactoring removes:
# the optional extras (pyproject's [project.optional-dependencies]: a user without them runs
# everything else) and the modules that import them at their top; and two heavy imports a command
# pays only when it needs them: matplotlib (two seconds to import pyplot) only by a command that
# draws, Polars (a third of a second) not by the bid advisor, whose playouts use the engine alone and
# whose answer is a table only when asked (``Advice.to_polars``).
LATE_IMPORTS_ALLOWED = {
    "jax": "*", "jaxlib": "*", "optax": "*", "distributed": "*", "dask": "*", "sim.runs.dask_worker": "*",
    "matplotlib": "analysis/present/",
    "polars": ("sim/engine/__init__.py", "sim/engine/schema.py", "analysis/bids/advice.py"),
}


def late_imports(path: Path):
    """(module, line) of every import below a file's top: inside a function or a class (a
    module-level ``if TYPE_CHECKING`` or ``try`` block runs on import, and counts as the top)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    at_top = {id(node) for node in module_level_statements(tree.body)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in at_top:
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for name in names:
                yield name, node.lineno


def late_import_allowed(where: str, module: str) -> bool:
    for prefix, places in LATE_IMPORTS_ALLOWED.items():
        if module == prefix or module.startswith(prefix + "."):
            return places == "*" or where.startswith(places) if isinstance(places, str) else where in places
    return False


def test_imports_stand_at_the_top():
    """A file says what it needs at its top, so that its dependencies are read in one place and an
    import circle cannot hide inside a function. ``cli.py`` imports each command's modules when the
    command runs (the start-up of ``thousand --help``); the exceptions above are the only others."""
    late = []
    for path in source_files("sim", "analysis", "thousand"):
        where = path.relative_to(ROOT).as_posix()
        late += [f"{where}:{line} imports {name}" for name, line in late_imports(path)
                 if not late_import_allowed(where, name)]
    assert not late, "imports inside a function or a class (move them to the top):\n" + "\n".join(late)


def test_the_late_import_rule_reads_its_exceptions():
    assert late_import_allowed("sim/training/fit.py", "jax.numpy")
    assert late_import_allowed("analysis/present/figure.py", "matplotlib.pyplot")
    assert not late_import_allowed("analysis/compare.py", "matplotlib")
    assert late_import_allowed("sim/engine/schema.py", "polars")
    assert not late_import_allowed("analysis/compare.py", "polars")
    assert not late_import_allowed("sim/engine/playouts.py", "sim.engine")
