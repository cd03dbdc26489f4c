"""The private bound (dpcov/private_bound.h) through Python: the grid, the histogram's cells as
the C ABI defines them, a choice near the target quantile, and bad arguments raised."""

import numpy as np
import pytest

import dpcov
from dpcov import private_bound


def test_grid_and_histogram_cells():
    g = private_bound.grid(0.5, 7.0, 2.0)
    assert list(g) == [0.5, 1.0, 2.0, 4.0, 8.0]
    # A norm equal to a candidate falls in that candidate's cell; above the top, the last cell.
    assert list(private_bound.histogram([0.1, 0.5, 0.6, 8.0, 9.0], g)) == [2, 1, 0, 0, 1, 1]


def test_choice_is_near_the_quantile():
    x = np.random.default_rng(1).normal(size=(2000, 3)) * 50.0
    bound = private_bound.choose_bound(x, 1.0, dpcov.Rng(seed=5), quantile=0.9)
    norms = np.linalg.norm(x, axis=1)
    assert np.quantile(norms, 0.8) < bound < np.quantile(norms, 0.97)


def test_bad_arguments_raise():
    g = private_bound.grid()
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.grid(1.0, 0.5)
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.select(np.zeros(len(g) + 1), g, -1, 1.0, dpcov.Rng(seed=1))
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.select(np.zeros(len(g) + 1), g[::-1].copy(), 0, 1.0, dpcov.Rng(seed=1))
    with pytest.raises(dpcov.DimensionError):
        private_bound.select(np.zeros(len(g)), g, 0, 1.0, dpcov.Rng(seed=1))


def test_tightening_grid_stays_at_or_below_the_public_bound():
    g = private_bound.below_grid(3.0)
    assert len(g) == 13 and g[-1] == 3.0 and np.all(np.diff(g) > 0)
    np.testing.assert_allclose(g[:-1], 3.0 / 1.25 ** np.arange(12, 0, -1))
    norms = np.linspace(0.0, 1.0, 1000)
    chosen = private_bound.tighten_bound(norms, 3.0, 10.0, dpcov.Rng(seed=2))
    assert chosen in g and 0.8 < chosen < 1.25
    with pytest.raises(ValueError):
        private_bound.below_grid(0.0)
    with pytest.raises(ValueError):
        private_bound.tighten_bound(norms, 3.0, 1.0, dpcov.Rng(seed=2), quantile=1.0)
