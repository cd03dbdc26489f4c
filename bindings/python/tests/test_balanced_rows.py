"""A regression on raw rows is the same whatever the units of X and y: the library bounds them
as balanced rows [1, x sqrt(d) / B, y / B_y] (dpcov_row_bounding::balanced), and the fit is
mapped back by public factors (``unit_factors_``). The same rows in other units, with their
bounds in those units and the same seed, give the same fit in those units, on every mechanism,
with or without an intercept, with privacy units and on Dask; the noise is drawn once, so the
comparison is exact up to rounding."""

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


def fitted(x, y, s, t, privacy_unit=None, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PrivateLinearRegression(label_bound=1.5 * t, bound=1.2 * s, random_state=4,
                                       n_bootstrap=99, **params).fit(x * s, y * t, privacy_unit)


def unit_map(s, t, d, intercept=True):
    """The factors that take coefficients from the units (x, y) to (s x, t y)."""
    return np.r_[[t] if intercept else [], np.full(d, t / s)]


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


@pytest.mark.parametrize("s, t", UNITS)
@pytest.mark.parametrize("params", [
    {}, {"fit_intercept": False}, {"neighbour": "add_remove"},
], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_a_fit_of_privacy_units_in_other_units_is_the_fit_mapped_to_them(params, s, t):
    # Three rows per unit, two kept: the rows kept are drawn from the seed, not the values.
    x, y = rows()
    units = np.arange(len(y)) % 1000
    base = fitted(x, y, 1.0, 1.0, units, max_rows_per_unit=2, **params)
    other = fitted(x, y, s, t, units, max_rows_per_unit=2, **params)
    unit = unit_map(s, t, x.shape[1], other.fit_intercept)
    np.testing.assert_allclose(other.params_, base.params_ * unit, rtol=1e-7)
    np.testing.assert_allclose(other.unit_factors_, base.unit_factors_ * unit, rtol=1e-12)
    # The receipts' constants are equal, their released values to the rounding of the rows.
    released = ("released_lambda_min", "ridge")
    got, want = other.receipt_.to_dict(), base.receipt_.to_dict()
    assert {k: got[k] for k in got if k not in released} == \
        {k: want[k] for k in want if k not in released}
    for k in released:
        assert got[k] == pytest.approx(want[k], rel=1e-9)
    assert other.n_units_truncated_ == base.n_units_truncated_ == 1000


@pytest.mark.parametrize("s, t", UNITS)
@pytest.mark.parametrize("options", [
    {}, {"fit_intercept": False}, {"neighbour": "add_remove", "release_label_square": True},
    {"max_rows_per_unit": 2},
], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_dask_adassp_in_other_units_is_the_fit_mapped_to_them(options, s, t):
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    from dpcov.dask_adassp import dask_adassp
    x, y = rows()
    lazy = (lambda a: da.from_array(a, chunks=(700,) + a.shape[1:]))
    if "max_rows_per_unit" in options:
        options = dict(options, privacy_unit=lazy(np.arange(len(y)) % 1000))

    def fit(s, t):
        # In this process: a bag's default scheduler would start a pool of processes.
        with dask.config.set(scheduler="synchronous"), dpcov.Rng(6) as rng:
            out = dask_adassp(lazy(x * s), lazy(y * t), 1.2 * s, 1.5 * t, 1.0, 1e-6, rng,
                              **options)
        return out.fit if "max_rows_per_unit" in options else out

    base, other = fit(1.0, 1.0), fit(s, t)
    unit = unit_map(s, t, x.shape[1], options.get("fit_intercept", True))
    np.testing.assert_allclose(other.coefficients, base.coefficients * unit, rtol=1e-7)
    # The release is of the balanced rows, the same in any units.
    np.testing.assert_allclose(other.released_xtx, base.released_xtx, rtol=1e-9, atol=1e-9)
    assert other.receipt.bound == base.receipt.bound and other.receipt.bound_y == 1.0


@pytest.mark.parametrize("factor", [10.0, 0.1])
def test_no_fit_on_raw_rows_says_it_depends_on_the_units(factor):
    # Every regression on raw rows is balanced, with an intercept or without, so none warns
    # that a bound far from sqrt(d) makes the fit depend on the units of X.
    x, y = rows(400)
    units = np.arange(400) // 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for params in ({}, {"mechanism": "analyze_gauss"}, {"fit_intercept": False}):
            PrivateLinearRegression(bound=np.sqrt(3) * factor, label_bound=1.5, random_state=2,
                                    **params).fit(x, y)
        PrivateLinearRegression(bound=np.sqrt(3) * factor, label_bound=1.5, random_state=2,
                                max_rows_per_unit=2, intervals=False).fit(x, y, units)
    assert not [w for w in caught if "units of X" in str(w.message)]
