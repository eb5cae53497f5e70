"""Fixtures shared by the marriage tests: one small bid table, built once."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def bid_table(tmp_path_factory):
    from analysis import tables

    return tables.build_bid_tables(deals=600, seed=5, out=tmp_path_factory.mktemp("bids"), pimc_deals=0)
