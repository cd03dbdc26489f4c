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
    assert r == {**dpcov.coinpress_plan(5000, 4, k_bound=20.0, rho=1.0), "seed_fixed": True,
                 "generator": dpcov.types.Generator.PCG64}


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



def test_coinpress_mean_release_estimates_the_mean_and_reports_its_constants():
    mu = np.array([3.0, -2.0, 0.5, 1.0, 0.0])
    x = np.random.default_rng(5).standard_normal((4000, 5)) + mu
    with dpcov.Rng(seed=6) as rng:
        out = dpcov.coinpress_mean_release(x, radius=50.0, rng=rng, centre=np.ones(5))
    assert out.mean.shape == (5,)
    assert np.linalg.norm(out.mean - mu) < 0.3
    r = out.receipt
    assert r["steps"] == 3 and r["step_rho"] == [0.0625, 0.0625, 0.375] and r["seed_fixed"]
    assert r["step_clip_radius"][0] > r["step_clip_radius"][2]
    assert r == {**dpcov.coinpress_mean_plan(4000, 5, radius=50.0), "seed_fixed": True,
                 "generator": dpcov.types.Generator.PCG64}
    xf = np.asfortranarray(x)
    with dpcov.Rng(seed=6) as rng:
        same = dpcov.coinpress_mean_release(xf, radius=50.0, rng=rng, centre=np.ones(5))
    assert np.allclose(same.mean, out.mean, rtol=0, atol=1e-12)


def test_coinpress_mean_refuses_a_missing_prior_and_bad_arguments():
    x = np.zeros((10, 2))
    with dpcov.Rng(seed=1) as rng:
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_mean_release(x, radius=-1.0, rng=rng)
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_mean_release(x, radius=1.0, rng=rng, scale=0.0)
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_mean_release(x, radius=1.0, rng=rng, centre=np.ones(3))
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_mean_release(x, radius=1.0, rng=rng, centre=[np.nan, 0.0])


def test_coinpress_centring_split():
    assert dpcov.coinpress_centring_split(0.5) == (0.0625, 0.4375)
    with pytest.raises(dpcov.DpcovError):
        dpcov.coinpress_centring_split(0.0)


def test_coinpress_centred_release_estimates_the_covariance_of_rows_with_a_far_mean():
    mu = np.array([30.0, -10.0, 5.0])
    x = np.random.default_rng(8).standard_normal((8000, 3)) * [1.0, 1.5, 2.0] + mu
    with dpcov.BudgetAccountant(epsilon=10.0, delta=1e-5, accounting="zcdp") as budget:
        with dpcov.Rng(seed=9) as rng:
            out = dpcov.coinpress_centred_release(x, k_bound=10.0, radius=100.0, rng=rng, rho=1.0)
        assert budget.spent.charges == 1
        assert budget.spent.rho == pytest.approx(1.0)
    assert np.linalg.norm(out.mean - mu) < 0.3
    np.testing.assert_allclose(np.diag(out.covariance), [1.0, 2.25, 4.0], rtol=0.25)
    assert out.mean_receipt["rho"] + out.covariance_receipt["rho"] <= 1.0
    assert out.mean_receipt["scale"] == pytest.approx(np.sqrt(10.0))
    with dpcov.BudgetAccountant(epsilon=1.0, delta=1e-5, accounting="zcdp") as small:
        with dpcov.Rng(seed=9) as rng:
            with pytest.raises(dpcov.PreconditionError):
                dpcov.coinpress_centred_release(x, k_bound=10.0, radius=100.0, rng=rng, rho=1.0)
        assert small.spent.charges == 0


def test_a_release_refused_after_its_draw_is_charged_and_a_bad_argument_is_not():
    # K = DBL_MAX at rho = 1e-8: the noise (sigma about 1e3) is drawn, then K Z overflows. The
    # refusal is an output of that noise: retrying until a release succeeds must spend the budget
    # each time. A bad argument fails before any draw and costs nothing.
    x = np.sin(0.7 * np.arange(600.0)).reshape(200, 3) * 2.0
    with dpcov.BudgetAccountant(epsilon=1e6, delta=1e-3, accounting="zcdp") as budget:
        with dpcov.Rng(seed=9) as rng:
            with pytest.raises(dpcov.NumericalError):
                dpcov.coinpress_release(x, k_bound=1.7976931348623157e308, rng=rng, rho=1e-8,
                                        steps=1)
            assert budget.spent.charges == 1 and budget.spent.rho == 1e-8
            with pytest.raises(dpcov.DpcovError):
                dpcov.coinpress_release(x, k_bound=0.5, rng=rng)
            assert budget.spent.charges == 1
            # The centred release: the mean draws first; the covariance's K is checked before.
            with pytest.raises(dpcov.DpcovError):
                dpcov.coinpress_centred_release(x, k_bound=0.5, radius=10.0, rng=rng)
            assert budget.spent.charges == 1
            with pytest.raises(dpcov.NumericalError):
                dpcov.coinpress_centred_release(x, k_bound=1.7976931348623157e308, radius=10.0,
                                                rng=rng, rho=1e-8, steps=1)
            assert budget.spent.charges == 2


def test_coinpress_mean_session_over_two_partials_equals_the_in_memory_release():
    mu = np.array([3.0, -2.0, 0.5])
    x = np.random.default_rng(7).standard_normal((900, 3)) + mu
    with dpcov.Rng(seed=8) as rng:
        whole = dpcov.coinpress_mean_release(x, radius=20.0, rng=rng, centre=np.ones(3))
    rng = dpcov.Rng(seed=8)
    with dpcov.RowSession.coinpress_mean(900, 3, rng, radius=20.0, centre=np.ones(3)) as session:
        while not session.done:
            merged = session.partial().add_rows(x[:400])
            other = dpcov.RowPartial.from_bytes(session.partial().to_bytes()).add_rows(x[400:])
            merged.merge(dpcov.RowPartial.from_bytes(other.to_bytes()))
            session.finish_pass(merged)
        parted = session.result()
    assert parted.receipt == whole.receipt
    assert np.allclose(parted.mean, whole.mean, rtol=0, atol=1e-12)
