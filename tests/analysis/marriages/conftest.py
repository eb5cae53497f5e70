"""Fixtures shared by the marriage tests: one small bid table, built once."""

from __future__ import annotations

import pytest

from analysis.bids import table


@pytest.fixture(scope="session")
def bid_table(tmp_path_factory):
    return table.build_bid_tables(deals=600, seed=5, out=tmp_path_factory.mktemp("bids"), pimc_deals=0)
