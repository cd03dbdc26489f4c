"""Every estimate read off a Gram mechanism's release reads its estimate of the Gram matrix
(``dpcov.gram_estimate``), not the release: the additive Wishart adds dof * scale * I on average,
which inflated PrivateCovariance's diagonal by about 38% (d = 3, n = 5e4, epsilon 0.9), a count
read off the constant column (59435 for 50000 rows in units) and acted as a ridge penalty in a
regression; the JL ridge adds w^2 I (it doubled the diagonal below), and the inverse Wishart's
release is (G + w^2 I) / (m - d - 1) on average (the covariance came out about m times too
small). ``second_moment_`` keeps the release itself."""

import warnings

import numpy as np
import pytest

import dpcov

ROWS = np.random.default_rng(0).standard_normal((50000, 3)) / 3.0
TRUTH = np.cov(ROWS.T)


def _fit(est, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(*args, **kwargs)


@pytest.mark.parametrize("options", [{"bound": 2.0}, {"bound": 2.0, "assume_centered": True},
                                     {"bounds": (-2.0, 2.0)}])
def test_a_wishart_covariance_estimates_the_datas(options):
    est = _fit(dpcov.PrivateCovariance(epsilon=0.9, delta=1e-6, mechanism="wishart_additive",
                                       random_state=1, **options), ROWS)
    # The noise's own spread here is about 0.002 per entry; its mean was 0.042.
    np.testing.assert_allclose(np.diag(est.covariance_), np.diag(TRUTH), atol=0.01)
    shift = est.receipt_.dof * est.receipt_.scale
    assert est.second_moment_[1, 1] > shift  # the release itself, mean included


def test_a_wishart_count_under_units_is_not_shifted():
    ids = np.repeat(np.arange(25000), 2)
    est = _fit(dpcov.PrivateCovariance(epsilon=0.9, delta=1e-6, mechanism="wishart_additive",
                                       bound=2.0, max_rows_per_unit=2, random_state=1),
               ROWS, privacy_unit=ids)
    assert abs(est.n_samples_ - 50000) < 500  # the mean included, it read 59435
    np.testing.assert_allclose(np.diag(est.covariance_), np.diag(TRUTH), atol=0.01)


def test_pca_explained_variance_is_the_datas():
    est = _fit(dpcov.PrivatePCA(n_components=2, epsilon=0.9, delta=1e-6,
                                mechanism="wishart_additive", bound=2.0, random_state=1), ROWS)
    top = np.linalg.eigvalsh(TRUTH)[::-1][:2]
    np.testing.assert_allclose(est.explained_variance_, top, atol=0.01)


# The options each mechanism needs; the projection (posterior) rows set the release's own spread.
RESCALED = {"jl_ridge": {"projection_rows": 4000}, "inverse_wishart": {"posterior_dof": 4000}}


@pytest.mark.parametrize("mechanism", sorted(RESCALED))
def test_a_projection_or_posterior_covariance_estimates_the_datas(mechanism):
    est = _fit(dpcov.PrivateCovariance(epsilon=0.9, delta=1e-6, mechanism=mechanism, bound=2.0,
                                       mechanism_options=RESCALED[mechanism], random_state=1),
               ROWS)
    # Each entry's own spread is about 0.11 * sqrt(2 / 4000) = 0.0025 plus the block's; read as
    # drawn, the JL diagonal was near 0.2 and the inverse Wishart's near 0.
    np.testing.assert_allclose(np.diag(est.covariance_), np.diag(TRUTH), atol=0.015)
    assert abs(est.location_).max() < 0.03


def test_gram_estimate_reports_the_mechanisms_it_cannot_unbias():
    release = np.diag([5.0, 4.0, 3.0])
    receipt = dpcov.plan("iev", dim=3, n=10, bound=1.0, epsilon=1.0, delta=0.0)
    estimate, unbiased = dpcov.gram_estimate(release, receipt)
    assert not unbiased
    np.testing.assert_array_equal(estimate, release)
