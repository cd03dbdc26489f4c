"""The small-n budget split through the Python binding (issue 33; proofs/adassp.md, "Without the
lambda_min step"): ``adassp_fit(without_lambda_min=True)`` releases X'X, X'y and y'y alone at
larger shares with the ridge at its public bound; ``adassp_small_n_split`` is the C decision, and
``PrivateLinearRegression`` takes it exactly where ``dpcov regress`` does: below the forecast's n
for the bootstrap at the public n (replace-one), with ``small_n="posterior"``; there the meat of
robust intervals is not released and ``inference_`` says why."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import PrivateLinearRegression


def rows(n, seed=5):
    gen = np.random.default_rng(seed)
    x = gen.uniform(-1, 1, (n, 2))
    y = np.clip(0.5 * x[:, 0] - 0.3 * x[:, 1] + 0.1 * gen.standard_normal(n), -1, 1)
    return x, y


def test_the_fit_without_lambda_min_says_so_in_its_receipt():
    g = np.eye(4) * 50.0
    with dpcov.Rng(seed=3) as rng:
        with_step = dpcov.adassp_fit(g, 3, [0, 1, 2], 2.0, 1.0, 1.0, 1e-6, rng,
                                     release_label_square=True)
        fit = dpcov.adassp_fit(g, 3, [0, 1, 2], 2.0, 1.0, 1.0, 1e-6, rng,
                               release_label_square=True, without_lambda_min=True)
    r = fit.receipt
    assert with_step.receipt.lambda_min_released == 1
    assert r.lambda_min_released == 0
    assert r.sigma_lambda_min == 0 and r.released_lambda_min == 0
    assert r.ridge == r.noise_norm_bound
    assert r.sigma_gram == pytest.approx(np.sqrt(0.75) * with_step.receipt.sigma_gram, rel=1e-8)
    plan = dpcov.adassp_plan(3, 2.0, 1.0, 1.0, 1e-6, release_label_square=True,
                             without_lambda_min=True)
    assert plan.sigma_cross == r.sigma_cross and plan.lambda_min_released == 0


def test_the_decision_is_the_forecasts_n_for_the_bootstrap():
    plan = dpcov.adassp_plan(3, 2.0, 1.0, 1.0, 1e-6, release_label_square=True)
    f = dpcov.regression_forecast(plan, n=100)
    for n in (50, 100, f.rows_for_intervals * 0.999, f.rows_for_intervals, 1e5):
        split = dpcov.adassp_small_n_split(plan, n)
        assert split.without_lambda_min == (n < f.rows_for_intervals)
        assert split.rows_for_bootstrap == f.rows_for_intervals
    with pytest.raises(dpcov.DpcovError):
        dpcov.adassp_small_n_split(dpcov.adassp_plan(3, 2.0, 1.0, 1.0, 1e-6,
                                                     without_lambda_min=True), 100)


def fitted(n, **options):
    x, y = rows(n)
    model = PrivateLinearRegression(epsilon=1.0, bound=1.5, label_bound=1.0, random_state=5,
                                    **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(x, y)


def test_the_estimator_takes_the_split_below_the_bootstraps_n():
    model = fitted(100)
    assert model.receipt_.lambda_min_released == 0
    assert model.receipt_.ridge == model.receipt_.noise_norm_bound
    assert "without AdaSSP's lambda_min step" in model.inference_
    assert "expects the small-n posterior to answer" in model.inference_
    # The default robust errors release no meat there.
    assert model.errors_ == "homoscedastic"
    assert not hasattr(model, "meat_")


@pytest.mark.parametrize("n, options", [(20000, {}), (100, {"neighbour": "add_remove"}),
                                        (100, {"small_n": "refuse"}),
                                        (100, {"intervals": False})])
def test_elsewhere_the_estimator_keeps_the_default(n, options):
    model = fitted(n, **options)
    assert model.receipt_.lambda_min_released == 1
    assert model.receipt_.sigma_lambda_min > 0
    assert "lambda_min step" not in model.inference_
