"""A regression on raw rows under a norm bound warns where its intercept's constant 1 and the
regressors' scale bound / sqrt(p) are far apart (outside [DPCOV_INTERCEPT_SCALE_LOW,
DPCOV_INTERCEPT_SCALE_HIGH]): there the fit
depends on the units of X (bench/results/unit_scale.md), and nothing else says so."""

import math
import warnings

import numpy as np
import pytest

import dpcov
from dpcov._generated import DPCOV_INTERCEPT_SCALE_HIGH, DPCOV_INTERCEPT_SCALE_LOW
from dpcov.learn import PrivateLinearRegression


def rows(n=200, d=3, seed=1):
    gen = np.random.default_rng(seed)
    return gen.uniform(-0.5, 0.5, (n, d)), gen.uniform(-0.5, 0.5, n)


def scale_warnings(**params):
    x, y = rows()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrivateLinearRegression(epsilon=1, label_bound=1, random_state=2, **params).fit(x, y)
    return [str(w.message) for w in caught if "beside the intercept's constant 1" in str(w.message)]


def test_the_ends_are_the_headers():
    assert (DPCOV_INTERCEPT_SCALE_LOW, DPCOV_INTERCEPT_SCALE_HIGH) == (0.5, 4.0)


@pytest.mark.parametrize("factor", [10.0, 0.1])
def test_a_fit_on_balanced_rows_does_not_warn(factor):
    # The rows are balanced (tests/test_balanced_rows.py): the units no longer matter.
    for mechanism in ("adassp", "analyze_gauss"):
        assert scale_warnings(bound=math.sqrt(3) * factor, mechanism=mechanism) == []


def test_dask_warns_as_the_estimator_does():
    da = pytest.importorskip("dask.array")
    from dpcov.dask_adassp import dask_adassp
    x, y = rows()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with dpcov.Rng(3) as rng:
            dask_adassp(da.from_array(x * 10, chunks=50), da.from_array(y, chunks=50),
                        math.sqrt(3) * 10, 1.0, 1.0, 1e-6, rng)
    assert [w for w in caught if "is lost in the features' noise" in str(w.message)]


@pytest.mark.parametrize("factor", [1.0, 3.9, 0.55])
def test_a_balanced_bound_does_not_warn(factor):
    assert scale_warnings(bound=math.sqrt(3) * factor) == []


def test_no_warning_without_the_constant_or_with_column_bounds():
    assert scale_warnings(bound=100.0, fit_intercept=False) == []
    x, y = rows()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrivateLinearRegression(epsilon=1, bounds=([-50] * 4, [50] * 4),
                                random_state=2).fit(x, y)
    assert not [w for w in caught if "intercept's constant" in str(w.message)]
