"""Every estimate read off a Gram mechanism's release has the noise's mean removed first: the
additive Wishart adds dof * scale * I on average, which inflated PrivateCovariance's diagonal by
about 38% (d = 3, n = 5e4, epsilon 0.9), a count read off the constant column (59435 for 50000
rows in units) and acted as a ridge penalty in a regression. ``second_moment_`` keeps the
release itself."""

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
