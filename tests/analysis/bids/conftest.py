"""The small bid table several test files of ``analysis.bids`` read, built once a session."""

import pytest

from analysis.bids.table import build_bid_tables


@pytest.fixture(scope="session")
def table(tmp_path_factory):
    out = tmp_path_factory.mktemp("tables")
    path = build_bid_tables(deals=80, seed=4, out=out, pimc_deals=3, worlds=3)
    return out, path
