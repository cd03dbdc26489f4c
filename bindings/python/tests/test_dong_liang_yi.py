"""The Dong-Liang-Yi mechanisms through the Python binding."""

import numpy as np
import pytest

import dpcov


def test_each_variant_releases_a_symmetric_estimate_with_its_receipt():
    rng_data = np.random.default_rng(2)
    x = rng_data.standard_normal((2000, 5))
    x /= 8 * np.linalg.norm(x, axis=1, keepdims=True)
    exact = x.T @ x / len(x)
    for variant in ("gauss", "separate", "adaptive", "adaptive_paper"):
        with dpcov.Rng(seed=3) as rng:
            out = dpcov.dly_release(x, rng, variant=variant, rho=1.0)
        assert np.array_equal(out.covariance, out.covariance.T)
        assert np.linalg.norm(out.covariance - exact) < 0.05
        assert out.receipt["variant"] == variant and out.receipt["seed_fixed"]
        assert out.receipt["branch"] in ("gauss", "separate")
    plan = dpcov.dly_plan(2000, 5)
    assert plan["branch"] is None and plan["svt_queries"] == 80


def test_bad_settings_raise():
    with dpcov.Rng(seed=1) as rng:
        with pytest.raises(ValueError):
            dpcov.dly_release(np.zeros((4, 2)), rng, variant="laplace")
        with pytest.raises(dpcov.DpcovError):
            dpcov.dly_release(np.zeros((4, 2)), rng, rho=0.0)


def test_a_release_whose_epsilon_converts_to_zero_is_charged():
    # At rho = 1e-13 and delta = 1e-6 the zCDP guarantee converts to (0, delta)-DP; the
    # accountant used to refuse the charge (epsilon must be > 0), so the release could not run.
    assert dpcov.zcdp_epsilon(1e-13, 1e-6) == 0.0
    x = np.zeros((100, 3))
    with dpcov.BudgetAccountant(epsilon=1.0, delta=1e-5, accounting="zcdp") as budget:
        with dpcov.Rng(seed=1) as rng:
            out = dpcov.dly_release(x, rng, variant="gauss", rho=1e-13)
    assert out.receipt["epsilon"] == 0.0
    assert budget.spent.charges == 1 and budget.spent.rho == 1e-13
