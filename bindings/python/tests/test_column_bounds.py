"""Public per-column bounds (dpcov/column_bounds.h) and the estimators' ``bounds=``: raw columns
in their own units, scaled into the box, released once, and read back in the user's units."""

import os
import warnings

import numpy as np
import pytest

import dpcov
from dpcov import column_bounds

NEGLIGIBLE_NOISE = dict(epsilon=1e12, delta=1e-6)
DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "data")


def raw_rows(n=400, seed=3):
    """Columns of very different scales: age in years, income in dollars, a score in [-1, 0]."""
    gen = np.random.default_rng(seed)
    return np.column_stack([gen.uniform(20, 80, n), gen.gamma(2.0, 30000.0, n).clip(0, 249000),
                            -gen.uniform(0, 1, n)])


LOWER, UPPER = [18.0, 0.0, -1.0], [90.0, 250000.0, 0.0]


def test_scaled_rows_lie_in_the_box_and_map_back_exactly():
    x = raw_rows()
    z, clamped = column_bounds.scale_rows(x, LOWER, UPPER)
    assert clamped == 0 and z.shape == (400, 4)
    assert np.all(z[:, 0] == 1.0) and np.all(np.abs(z) <= 1.0)
    b = column_bounds.norm_bound(3)
    assert b * b >= 4.0 and np.all(np.linalg.norm(z, axis=1) <= b)
    x1 = np.column_stack([np.ones(400), x])
    user = column_bounds.transform(z.T @ z, LOWER, UPPER, "user")
    np.testing.assert_allclose(user, x1.T @ x1, rtol=1e-10)
    back = column_bounds.transform(user, LOWER, UPPER, "scaled")
    np.testing.assert_allclose(back, z.T @ z, rtol=1e-8, atol=1e-8)
    with pytest.raises(dpcov.InvalidArgumentError):
        column_bounds.scale_rows(x, UPPER, LOWER)
    with pytest.raises(ValueError):
        column_bounds.transform(user, LOWER, UPPER, "metres")


def test_covariance_with_bounds_is_in_the_users_units():
    x = raw_rows()
    est = dpcov.PrivateCovariance(bounds=(LOWER, UPPER), random_state=1, **NEGLIGIBLE_NOISE).fit(x)
    # Exact numerics (the default) round each scaled coordinate to a grid of sqrt(d + 1) 2^-12:
    # the mean of 400 rows moves by about 1e-5 relatively (1e-6 with idealized numerics).
    np.testing.assert_allclose(est.location_, x.mean(axis=0), rtol=1e-4)
    np.testing.assert_allclose(est.covariance_, np.cov(x.T, bias=True), rtol=1e-4,
                               atol=1e-6 * np.abs(np.cov(x.T)).max())
    assert est.receipt_.dim == 4 and est.n_clipped_ == 0
    assert est.second_moment_[0, 0] == pytest.approx(400, rel=1e-6)


def test_values_outside_the_bounds_are_clamped_with_a_warning():
    x = raw_rows()
    x[0, 1] = 1e6
    with pytest.warns(dpcov.ClippingWarning, match="1 values were outside their bounds"):
        est = dpcov.PrivateCovariance(bounds=(LOWER, UPPER), random_state=1).fit(x)
    assert est.n_clipped_ == 1


def test_a_defaulted_bound_warns_and_names_the_options():
    with pytest.warns(dpcov.PrivacyLeakWarning, match="bounds=\\(lower, upper\\)"):
        dpcov.PrivateCovariance(random_state=1).fit(raw_rows() / 1e6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", dpcov.PrivacyLeakWarning)
        dpcov.PrivateCovariance(bound=1.0, random_state=1).fit(raw_rows() / 1e6)
    with pytest.raises(ValueError, match="exclude each other"):
        dpcov.PrivateCovariance(bound=1.0, bounds=(0, 1)).fit(raw_rows())


def test_a_defaulted_regression_bound_warns_and_names_the_option():
    gen = np.random.default_rng(4)
    X = gen.uniform(-0.5, 0.5, size=(200, 2))
    y = np.clip(X @ [0.5, -0.3], -1, 1)
    with pytest.warns(dpcov.PrivacyLeakWarning) as caught:
        dpcov.PrivateLinearRegression(random_state=1, intervals=False).fit(X, y)
    messages = [str(w.message) for w in caught if w.category is dpcov.PrivacyLeakWarning]
    assert any("no bound given" in m and "bound=B" in m for m in messages), messages
    assert any("no label_bound given" in m and "label_bound=" in m for m in messages), messages
    with warnings.catch_warnings():
        warnings.simplefilter("error", dpcov.PrivacyLeakWarning)
        dpcov.PrivateLinearRegression(bound=1.0, label_bound=1.0, random_state=1,
                                      intervals=False).fit(X, y)


def test_raw_diabetes_pca_in_a_few_lines():
    # The raw-data workflow: public bounds from the data's codebook, one release, PCA in the
    # user's units with the private mean.
    table = np.genfromtxt(os.path.join(DATA, "diabetes_bounds.csv"), delimiter=",", names=True,
                          dtype=None, encoding="utf-8")
    X = np.genfromtxt(os.path.join(DATA, "diabetes.csv"), delimiter=",", skip_header=1)
    pca = dpcov.PrivatePCA(n_components=2, bounds=(table["min"], table["max"]), epsilon=1e9,
                           random_state=2).fit(X)
    np.testing.assert_allclose(pca.mean_, X.mean(axis=0), rtol=1e-4)
    exact = np.linalg.eigh(np.cov(X.T, bias=True))[1][:, -1]
    assert abs(float(pca.components_[0] @ exact)) > 0.999


def test_a_seeded_release_does_not_claim_privacy():
    x = raw_rows() / 1e6
    seeded = dpcov.PrivateCovariance(bound=1.0, random_state=1).fit(x).receipt_
    assert seeded.seed_fixed == 1 and seeded.differentially_private is False
    assert seeded.privacy_claim == "reproducible: not private if the seed is known"
    fresh = dpcov.PrivateCovariance(bound=1.0).fit(x).receipt_
    assert fresh.differentially_private is True and fresh.privacy_claim == "private"


def test_centring_an_exact_moment_gives_the_mean_and_covariance():
    x = raw_rows()
    x1 = np.column_stack([np.ones(len(x)), x])
    mean, cov, count = dpcov.centre_second_moment(x1.T @ x1, 0, 1.0, 0)
    assert count == pytest.approx(len(x))
    np.testing.assert_allclose(mean, x.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(cov, np.cov(x.T, bias=True), rtol=1e-6)
