"""CoinPress and the zCDP conversion through the Python binding."""

import numpy as np
import pytest

import dpcov


def test_coinpress_release_estimates_the_covariance_and_reports_its_constants():
    x = np.random.default_rng(3).standard_normal((5000, 4)) * np.sqrt([1.0, 2.0, 4.0, 8.0])
    with dpcov.Rng(seed=4) as rng:
        out = dpcov.coinpress_release(x, k_bound=20.0, rng=rng, rho=1.0)
    assert out.covariance.shape == (4, 4)
    assert np.array_equal(out.covariance, out.covariance.T)
    scale = 1 / np.sqrt([1.0, 2.0, 4.0, 8.0])
    assert np.linalg.norm(scale[:, None] * out.covariance * scale - np.eye(4)) < 0.5
    r = out.receipt
    assert r["steps"] == 3 and r["step_rho"] == [0.125, 0.125, 0.75] and r["seed_fixed"]
    assert r == {**dpcov.coinpress_plan(5000, 4, k_bound=20.0, rho=1.0), "seed_fixed": True}


def test_coinpress_refuses_a_missing_prior_and_bad_budgets():
    x = np.zeros((10, 2))
    with dpcov.Rng(seed=1) as rng:
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_release(x, k_bound=0.0, rng=rng)
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_release(x, k_bound=10.0, rng=rng, rho=-1.0)


def test_zcdp_conversions_are_inverse():
    eps = dpcov.zcdp_epsilon(0.5, 1e-6)
    assert 5.22153444 < eps < 5.22153445
    rho = dpcov.zcdp_rho(eps, 1e-6)
    assert rho == pytest.approx(0.5, rel=1e-9) and dpcov.zcdp_epsilon(rho, 1e-6) <= eps

