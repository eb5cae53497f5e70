"""Tests of the strategy report (``analysis.report``): its build, page and provenance."""
