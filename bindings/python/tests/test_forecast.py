"""The regression forecast (dpcov/forecast.h) through the Python binding: from a plan's receipt,
with no data and no privacy spent; the closed form of the reference design, and simulation of
that design within 20% (docs/forecast.md)."""

import numpy as np
import pytest

import dpcov


def test_release_forecast_is_the_closed_form_of_the_reference_design():
    receipt = dpcov.plan("analyze_gauss", 4, 2000, 1.0, 1.0, 1e-6)
    f = dpcov.regression_forecast(receipt)
    m = 1.0 / 4  # fill B^2 / d
    assert f.rows == 2000 and f.level == 0.95 and f.fill == 1.0
    assert f.crossover_rows == pytest.approx(receipt.sigma ** 2 / m ** 2, rel=1e-12)
    assert f.standard_error == pytest.approx(np.sqrt(1 / 2000 + f.crossover_rows / 2000 ** 2))
    assert f.interval_width == pytest.approx(2 * 1.959963984540054 * f.standard_error)
    quarter = dpcov.regression_forecast(receipt, n=2000, fill=0.25)
    assert quarter.crossover_rows == pytest.approx(16 * f.crossover_rows)


def test_adassp_forecast_needs_n_and_reads_the_plan():
    plan = dpcov.adassp_plan(3, 1.0, 2.0, 1.0, 1e-6, release_label_square=True)
    with pytest.raises(TypeError):
        dpcov.regression_forecast(plan)
    f = dpcov.regression_forecast(plan, n=5000, level=0.9)
    assert f.crossover_rows == pytest.approx(plan.sigma_cross ** 2 / ((1 / 3) * 4.0))
    assert bool(f.intervals_expected) == (5000 >= f.rows_for_intervals
                                          and 1.6448536269514722 * f.standard_error < 1)
    assert f.posterior_min_sampling_share == pytest.approx(
        (1.6448536269514722 / 2.3263478740408408) ** 2)
    assert bool(f.posterior_intervals_expected) == (5000 >= f.rows_for_posterior_intervals)
    assert f.rows_for_posterior_intervals >= f.rows_for_intervals
    assert np.isnan(dpcov.regression_forecast(dpcov.plan("analyze_gauss", 4, 2000, 1.0, 1.0,
                                                         1e-6)).posterior_sampling_share)


def test_adassp_forecast_with_an_intercept_reads_the_features_moment():
    # 3 features of norm <= B = 1 after an intercept (bound_x^2 = 2): each feature's second
    # moment is 1/3, not bound_x^2 / 4 = 1/2, so a slope's crossover is 1.5 times the plain one.
    plan = dpcov.adassp_plan(4, 2 ** 0.5, 1.0, 1.0, 1e-6, release_label_square=True)
    slope = dpcov.regression_forecast(plan, n=1000, intercept=True)
    plain = dpcov.regression_forecast(plan, n=1000)
    assert slope.intercept == 1 and plain.intercept == 0
    assert slope.crossover_rows == pytest.approx(plan.sigma_cross ** 2 / (1 / 3), rel=1e-12)
    assert slope.crossover_rows == pytest.approx(1.5 * plain.crossover_rows, rel=1e-12)
    with pytest.raises(dpcov.InvalidArgumentError, match="intercept"):
        dpcov.regression_forecast(dpcov.adassp_plan(3, 1.0, 1.0, 1.0, 1e-6), n=100,
                                  intercept=True)
    with pytest.raises(ValueError, match="AdaSSP"):
        dpcov.regression_forecast(dpcov.plan("analyze_gauss", 4, 2000, 1.0, 1.0, 1e-6),
                                  intercept=True)


def test_bad_arguments_raise_typed_errors():
    receipt = dpcov.plan("analyze_gauss", 4, 2000, 1.0, 1.0, 1e-6)
    with pytest.raises(dpcov.InvalidArgumentError, match="fill"):
        dpcov.regression_forecast(receipt, fill=2.0)
    with pytest.raises(dpcov.InvalidArgumentError, match="level"):
        dpcov.regression_forecast(receipt, level=1.0)
    with pytest.raises(TypeError):
        dpcov.regression_forecast("analyze_gauss")


def test_forecast_holds_against_simulation_within_20_percent():
    # Rows of independent signs +-B / sqrt(d) (the reference design at fill 1), Analyze Gauss
    # noise of the plan's sigma on the upper triangle, 1000 repetitions at the crossover n: the
    # simulated standard error has a relative error of about 1.3% (3000 pooled coordinates), so a
    # 20% miss is beyond 15 standard errors (false-failure rate far below 1e-9). Seed fixed.
    d, p = 4, 3
    receipt = dpcov.plan("analyze_gauss", d, 1, 1.0, 1.0, 1e-6)
    n = int(round(dpcov.regression_forecast(receipt, n=1).crossover_rows))
    f = dpcov.regression_forecast(receipt, n=n)
    gen = np.random.default_rng(20261129)
    total = []
    for _ in range(1000):
        a = gen.choice([-0.5, 0.5], size=(n, d))
        g = a.T @ a
        e = np.triu(gen.normal(0.0, receipt.sigma, (d, d)))
        g = g + e + np.triu(e, 1).T
        total.extend(np.linalg.solve(g[:p, :p], g[:p, p]))
    assert np.sqrt(np.mean(np.square(total))) == pytest.approx(f.standard_error, rel=0.2)


def test_private_linear_regression_keeps_the_forecast_of_the_fit_that_ran():
    # Robust errors (the default) fit at a share of the budget: forecast_ is that fit's, a
    # slope's with the intercept (the receipt's sigma_cross over the features' moment d / p of
    # the balanced rows, whose x has norm bound sqrt(d));
    # at n = 50 y'y is not released and forecast_ is the forecast that decided so (no intercept
    # read: the decisions take the plan as it is); under add/remove n is private: None.
    import warnings
    gen = np.random.default_rng(5)
    x = gen.uniform(-1, 1, (5000, 2))
    y = np.clip(0.5 * x[:, 0] - 0.3 * x[:, 1] + 0.1 * gen.standard_normal(5000), -1, 1)
    args = dict(epsilon=1.0, delta=1e-6, bound=1.5, label_bound=1.0, random_state=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = dpcov.PrivateLinearRegression(**args).fit(x, y)
        small = dpcov.PrivateLinearRegression(**args).fit(x[:50], y[:50])
        private = dpcov.PrivateLinearRegression(neighbour="add_remove", **args).fit(x, y)
        gram = dpcov.PrivateLinearRegression(mechanism="analyze_gauss", **args).fit(x, y)
    assert fit.errors_ == "robust" and fit.forecast_.intercept == 1
    assert fit.forecast_.crossover_rows == pytest.approx(
        fit.receipt_.sigma_cross ** 2 / (2 / 2), rel=1e-9)
    whole = dpcov.regression_forecast(dpcov.adassp_plan(
        3, fit.receipt_.bound, 1.0, 1.0, 1e-6, release_label_square=True), n=5000,
        intercept=True)
    assert fit.forecast_.crossover_rows > 1.2 * whole.crossover_rows
    assert small.forecast_.intercept == 0 and not small.forecast_.intervals_expected
    assert "not attempted" in small.inference_
    assert private.forecast_ is None and gram.forecast_ is None


def test_adassp_default_fit_decides_from_public_values():
    # Robust errors' share at n = 5000; at n = 50 the small-n split, no y'y and no meat; under
    # add/remove no decision reads n (the robust split as asked). bound_x = sqrt(1 + 2.25).
    large = dpcov.adassp_default_fit(3, 1.8027756377319946, 1.0, 1.0, 1e-6, 5000)
    assert large.robust and large.fit_epsilon == pytest.approx(0.8)
    assert large.meat_epsilon == pytest.approx(0.2) and large.release_label_square
    assert large.forecast.intervals_expected and large.forecast.rows == 5000
    small = dpcov.adassp_default_fit(3, 1.8027756377319946, 1.0, 1.0, 1e-6, 50)
    assert small.small_n_split and small.label_square_refused and small.robust_skipped
    assert not small.robust and small.fit_epsilon == 1.0 and not small.release_label_square
    hidden = dpcov.adassp_default_fit(3, 1.8027756377319946, 1.0, 1.0, 1e-6, float("nan"),
                                      neighbour="add_remove")
    assert hidden.robust and hidden.forecast is None
    assert not dpcov.adassp_default_fit(3, 1.8, 1.0, 1.0, 1e-6, 5000, intervals=False).robust
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.adassp_default_fit(3, 1.8, 1.0, 1.0, 1e-6, 0.0)
