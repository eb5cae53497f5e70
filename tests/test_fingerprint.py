"""What a stored result's code fingerprint covers (``sim.fingerprint``): every file of ``sim``, and
the ``analysis`` modules a result names with every ``analysis`` module they import, sub-packages
included, found from the syntax trees alone."""

from __future__ import annotations

from pathlib import Path

import pytest

import sim.fingerprint as fp


@pytest.fixture
def analysis_tree(tmp_path, monkeypatch):
    """A small ``analysis`` package: a study importing a sub-package's module in each spelling."""
    root = tmp_path / "analysis"
    (root / "bids").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "stats.py": "X = 1\n",
        "study.py": "from analysis.stats import X\n",
        "bids/__init__.py": "",
        "bids/table.py": "import analysis.study\n",
        "bids/value.py": "from analysis import stats\n",
        "compare.py": "from analysis.bids import table\n\ndef f():\n    from analysis.bids.value import g\n",
        "lone.py": "import numpy\n",
    }
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    monkeypatch.setattr(fp, "ANALYSIS_DIR", root)
    return root


def names(paths: list[Path], root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in paths)


def test_a_result_covers_what_its_modules_import_through_sub_packages(analysis_tree):
    assert names(fp.analysis_files("compare"), analysis_tree) == [
        "bids/__init__.py", "bids/table.py", "bids/value.py", "compare.py", "stats.py", "study.py"]
    assert names(fp.analysis_files("bids.value"), analysis_tree) == ["bids/__init__.py", "bids/value.py", "stats.py"]
    assert names(fp.analysis_files("analysis.lone"), analysis_tree) == ["lone.py"]


def test_an_unknown_module_is_our_bug_and_says_so(analysis_tree):
    with pytest.raises(ValueError, match="no analysis module 'bids.nothing'"):
        fp.analysis_files("bids.nothing")


def test_the_project_s_report_covers_every_study_it_arranges():
    covered = {p.relative_to(fp.ANALYSIS_DIR).as_posix() for p in fp.analysis_files("report.build")}
    assert {"compare.py", "tournament.py", "stats.py"} <= {c.rsplit("/", 1)[-1] for c in covered}
