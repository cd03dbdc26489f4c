"""A fit that is refused spends nothing where the refusal needs no data, and leaves nothing of a
previous fit behind: a bad ridge or number of bootstrap draws is refused before any release, at
any units; a refit that fails leaves the estimator unfitted for prediction (the attributes of
the earlier fit are gone), so no attribute of one fit is read with those of another."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import NotFittedError, PrivateCovariance, PrivateLinearRegression, PrivatePCA


def rows(n=2000, d=3, seed=1):
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((n, d)) / np.sqrt(d)
    y = np.clip(0.3 + x @ np.linspace(0.5, -0.5, d) + 0.3 * gen.standard_normal(n), -1.5, 1.5)
    return x, y


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("mechanism", ["analyze_gauss", "laplace_sym", "wishart_additive"])
@pytest.mark.parametrize("ridge", [-1.0, float("nan"), float("inf"), "1", True])
def test_a_bad_ridge_is_refused_before_any_release(mechanism, ridge):
    x, y = rows()
    est = PrivateLinearRegression(bound=1.2, label_bound=1.5, mechanism=mechanism, ridge=ridge)
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as budget:
        with pytest.raises(ValueError, match="ridge must be a finite number >= 0"):
            est.fit(x, y)
        assert budget.spent.epsilon == 0
    assert not hasattr(est, "release_")


@pytest.mark.parametrize("mechanism", ["analyze_gauss", "laplace_sym"])
def test_tiny_units_fit_as_unit_ones_and_an_overflowing_ridge_is_refused_first(mechanism):
    # The balanced rows do not depend on the units: at bound 1.2e-200 the fit is the one at
    # 1.2, mapped. A ridge in the data's units is lambda (sqrt(d) / B)^2 on the balanced rows,
    # which overflows there: refused before the release.
    x, y = rows()
    base = dict(label_bound=1.5, mechanism=mechanism, random_state=4, n_bootstrap=99)
    unit = PrivateLinearRegression(bound=1.2, **base).fit(x, y)
    tiny = PrivateLinearRegression(bound=1.2e-200, **base).fit(x * 1e-200, y)
    np.testing.assert_allclose(tiny.params_ * np.r_[1.0, np.full(3, 1e-200)], unit.params_,
                               rtol=1e-9)
    est = PrivateLinearRegression(bound=1.2e-200, ridge=3.0, **base)
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as budget:
        with pytest.raises(ValueError, match="overflows"):
            est.fit(x * 1e-200, y)
        assert budget.spent.epsilon == 0
    assert not hasattr(est, "release_")


def test_a_failed_refit_leaves_nothing_of_the_earlier_fit():
    x, y = rows()
    est = PrivateLinearRegression(bound=1.2, label_bound=1.5, random_state=4,
                                  mechanism="analyze_gauss", plug_in=True).fit(x, y)
    assert hasattr(est, "coef_") and hasattr(est, "plug_in_")
    est.set_params(epsilon=-1.0)
    with pytest.raises(ValueError):
        est.fit(x[:100, :2], y[:100])
    for name in ("coef_", "intercept_", "params_", "release_", "receipt_", "plug_in_"):
        assert not hasattr(est, name), name
    with pytest.raises(NotFittedError):
        est.predict(x[:2, :2])


@pytest.mark.parametrize("make", [
    lambda: PrivateCovariance(bound=1.0, random_state=4),
    lambda: PrivatePCA(n_components=2, bound=1.0, random_state=4)])
def test_a_failed_refit_of_the_covariance_and_pca_leaves_nothing_of_the_earlier_fit(make):
    x, _ = rows()
    est = make().fit(x)
    est.set_params(epsilon=-1.0)
    with pytest.raises(ValueError):
        est.fit(x)
    assert not hasattr(est, "receipt_")
    with pytest.raises(NotFittedError):
        est.transform(x) if isinstance(est, PrivatePCA) else est.get_precision()


@pytest.mark.parametrize("mechanism", ["adassp", "analyze_gauss"])
@pytest.mark.parametrize("draws", [0, 38, 1.5, "999"])
def test_draws_the_intervals_refuse_are_refused_before_any_release(mechanism, draws):
    x, y = rows()
    est = PrivateLinearRegression(bound=1.2, label_bound=1.5, mechanism=mechanism,
                                  n_bootstrap=draws)
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as budget:
        with pytest.raises((ValueError, TypeError), match="bootstrap draws"):
            est.fit(x, y)
        assert budget.spent.epsilon == 0
    assert not hasattr(est, "release_")
    # The public check is the intervals' own rule.
    dpcov.bootstrap_draws_check(0.95, 39)
    with pytest.raises(ValueError, match=">= 3 at level 0.5,"):
        dpcov.bootstrap_draws_check(0.5, 2)


def test_recomputed_intervals_are_the_fits_outcome():
    # noise_aware_intervals() prints no interval where fit prints none (conclusive_ False), and
    # refuses where the fit has none to recompute: a ridge, privacy units.
    x, y = rows()
    fit = PrivateLinearRegression(bounds=([-2, -2, -2, -1.5], [2, 2, 2, 1.5]), random_state=4,
                                  n_bootstrap=99).fit(x, y)
    std_errors, p_values, conf_int = fit.noise_aware_intervals()
    np.testing.assert_array_equal(np.isnan(conf_int).all(axis=1), ~fit.conclusive_)
    ridge = PrivateLinearRegression(bound=1.2, label_bound=1.5, random_state=4,
                                    mechanism="analyze_gauss", ridge=5.0).fit(x, y)
    with pytest.raises(ValueError, match="ridge = 0"):
        ridge.noise_aware_intervals()
    units = PrivateLinearRegression(bound=1.2, label_bound=1.5, random_state=4,
                                    max_rows_per_unit=2).fit(x, y, np.arange(len(y)) % 700)
    with pytest.raises(ValueError, match="privacy units"):
        units.noise_aware_intervals()


def test_a_bool_is_no_seed():
    x, y = rows()
    with pytest.raises(TypeError, match="random_state must be None, an int or a dpcov.Rng"):
        PrivateLinearRegression(bound=1.2, label_bound=1.5, random_state=True).fit(x, y)
