"""The version moves whenever stored results would change, and a forgotten bump is caught here, in
CI, not by a user reusing a stale result.

``code_versions.json`` records, for the version in ``pyproject.toml``, the digest of every
results-changing source file and what a fixed set of small runs computes (``version_record``).
An edit to a recorded file fails ``test_sources_are_the_recorded_ones`` until it is recorded; an
edit that changes results also fails ``test_results_are_the_recorded_ones``, and the recorder
refuses it under the same version, so it needs a new version and its CHANGELOG entry."""

from __future__ import annotations

import pytest
import version_record as vr

RECORD_HINT = ("if stored results change, bump the version in pyproject.toml and say what changed in CHANGELOG.md; "
               "then run `python tests/version_record.py`")


@pytest.fixture(scope="module")
def recorded():
    data = vr.read_record()
    assert data, f"{vr.RECORD.name} is missing: run `python tests/version_record.py`"
    return data


def test_version_is_the_recorded_one_and_in_the_changelog(recorded):
    from sim import __version__

    version = vr.pyproject_version()
    assert recorded["version"] == version, (
        f"pyproject.toml says {version}, {vr.RECORD.name} was recorded for {recorded['version']}: {RECORD_HINT}")
    assert version in vr.changelog_versions(), f"CHANGELOG.md has no '## {version}' section"
    assert __version__ == version, (f"the installed package is {__version__}, pyproject.toml says {version}: "
                                    "reinstall (pip install -e .)")


def test_sources_are_the_recorded_ones(recorded):
    now = vr.current_files()
    old = recorded["files"]
    changed = sorted(k for k in now.keys() & old.keys() if now[k] != old[k])
    added, removed = sorted(now.keys() - old.keys()), sorted(old.keys() - now.keys())
    assert not (changed or added or removed), (
        f"results-changing sources differ from those of version {recorded['version']}: changed {changed}, "
        f"new {added}, gone {removed}. {RECORD_HINT}")


def test_results_are_the_recorded_ones(recorded, engine_compiled):
    now = vr.current_results()
    changed = sorted(k for k in now if recorded["results"].get(k) != now[k])
    assert not changed, (f"what {', '.join(changed)} compute(s) changed, but the version is still "
                         f"{recorded['version']}: {RECORD_HINT}")
