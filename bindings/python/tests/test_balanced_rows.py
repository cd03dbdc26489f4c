"""A regression on raw rows is the same whatever the units of X and y: the library bounds them
as balanced rows [1, x sqrt(d) / B, y / B_y] (dpcov_row_bounding::balanced), and the fit is
mapped back by public factors (``unit_factors_``). The same rows in other units, with their
bounds in those units and the same seed, give the same fit in those units, on every mechanism
and with or without an intercept; the noise is drawn once, so the comparison is exact up to
rounding."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import PrivateLinearRegression


def rows(n=3000, d=3, seed=1):
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((n, d)) / np.sqrt(d)
    y = np.clip(0.3 + x @ np.linspace(0.5, -0.5, d) + 0.3 * gen.standard_normal(n), -1.5, 1.5)
    return x, y


def fitted(x, y, s, t, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PrivateLinearRegression(label_bound=1.5 * t, bound=1.2 * s, random_state=4,
                                       n_bootstrap=99, **params).fit(x * s, y * t)


UNITS = [(1e-3, 1.0), (1e3, 1.0), (1.0, 1e-4), (250.0, 40.0)]


@pytest.mark.parametrize("s, t", UNITS)
@pytest.mark.parametrize("params", [
    {}, {"fit_intercept": False}, {"errors": "homoscedastic"}, {"bound_epsilon": 0},
    {"mechanism": "analyze_gauss"}, {"mechanism": "analyze_gauss", "errors": "homoscedastic"},
    {"mechanism": "laplace_sym", "neighbour": "add_remove"}, {"mechanism": "wishart_additive"},
    {"mechanism": "analyze_gauss", "ridge": 5.0, "intervals": False},
], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_the_fit_in_other_units_is_the_fit_mapped_to_them(params, s, t):
    x, y = rows()
    # A ridge is in the data's units: lambda ||beta||^2 is the same penalty at lambda s^2.
    scaled = dict(params, ridge=params.get("ridge", 0.0) * s * s)
    base, other = fitted(x, y, 1.0, 1.0, **params), fitted(x, y, s, t, **scaled)
    unit = np.r_[[t], np.full(x.shape[1], t / s)] if other.fit_intercept else \
        np.full(x.shape[1], t / s)
    np.testing.assert_allclose(other.params_, base.params_ * unit, rtol=1e-7)
    np.testing.assert_allclose(other.std_errors_, base.std_errors_ * unit, rtol=1e-7)
    np.testing.assert_allclose(other.conf_int_, base.conf_int_ * unit[:, None], rtol=1e-7)
    np.testing.assert_array_equal(np.isnan(other.conf_int_), np.isnan(base.conf_int_))
    assert other.inference_ == base.inference_ or "bound" in base.inference_
    if params.get("neighbour") == "add_remove":
        assert other.n_samples_ == pytest.approx(base.n_samples_, rel=1e-9)
    np.testing.assert_allclose(other.predict(x[:7] * s), base.predict(x[:7]) * t, rtol=1e-6,
                               atol=1e-9 * t)


def test_the_default_prints_its_intervals_in_any_units():
    # The units that used to decide the outcome (bench/results/unit_scale.md: 0 of 40 fits
    # printed at a quarter of the units, 0.15 at ten times): every scale now prints.
    x, y = rows(5000)
    for s in (0.01, 0.25, 1.0, 10.0, 1000.0):
        fit = fitted(x, y, s, 1.0)
        assert np.isfinite(fit.conf_int_).all(), (s, fit.inference_)


def test_noise_aware_intervals_are_in_the_data_units():
    x, y = rows()
    fit = fitted(x, y, 100.0, 0.1, errors="homoscedastic")
    se, _, ci = fit.noise_aware_intervals(n_bootstrap=99, random_state=5)
    again = fitted(x, y, 1.0, 1.0, errors="homoscedastic")
    se1, _, ci1 = again.noise_aware_intervals(n_bootstrap=99, random_state=5)
    unit = np.r_[0.1, np.full(3, 0.1 / 100.0)]
    np.testing.assert_allclose(se, se1 * unit, rtol=1e-7)
    np.testing.assert_allclose(ci, ci1 * unit[:, None], rtol=1e-7)


def test_the_factors_are_the_librarys():
    f = dpcov.coefficient_factors(4, 8.0, constant=1.0, label_bound=2.0, balanced=True)
    np.testing.assert_allclose(f, [2.0] + [np.sqrt(3) / 8.0 * 2.0] * 3, rtol=1e-15)
    np.testing.assert_array_equal(dpcov.coefficient_factors(4, 8.0, 1.0, 2.0), [1, 1, 1, 1])
    with pytest.raises(TypeError, match="balanced must be True or False"):
        dpcov.coefficient_factors(4, 8.0, balanced="yes")
