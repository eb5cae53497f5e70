"""The random deals of the analysis core (``analysis.deals``)."""

import numpy as np

from analysis.deals import random_deals


def test_deals_do_not_depend_on_n():
    assert np.array_equal(random_deals(30, 1), random_deals(1200, 1)[:30])
