"""The library's row bounding, which the scikit-learn estimators hand their rows to, clips a row
whose sum of squares overflows (a norm above about 1.3e154, up to the largest double), or whose
factor bound / norm underflows, to the bound in its own direction (tests/unit/
capi_row_overflow_test.cpp): the estimators' own copy once zeroed such a row while counting it as
clipped. Checked over random rows of every magnitude."""

import warnings

import numpy as np

from dpcov.gram import bound_rows
from dpcov.learn import PrivateCovariance

MAGNITUDES = [1e-300, 1e-3, 1.0, 1e100, 1e150, 1e154, 1.4e154, 1e200, 1e300, 1.7976931348623157e308]


def _scaled_norms(X):
    """Row norms without overflow, for the checks: each row scaled by its largest entry first."""
    m = np.max(np.abs(X), axis=1)
    safe = np.where(m > 0, m, 1.0)
    u = X / safe[:, None]
    with np.errstate(over="ignore"):
        return m, np.sqrt(np.einsum("ij,ij->i", u, u)), u


def test_rows_over_the_bound_are_clipped_in_their_direction_whatever_their_norm():
    gen = np.random.default_rng(20261124)
    for case in range(300):
        n, d = int(gen.integers(1, 8)), int(gen.integers(1, 5))
        X = gen.uniform(-1.0, 1.0, (n, d)) * gen.choice(MAGNITUDES, size=(n, 1))
        bound = float(gen.choice([1e-200, 1e-100, 1.0, 1e100]))
        out, info = bound_rows(X, bound, "clip")
        clipped = info.clipped
        assert np.isfinite(out).all(), case
        m_in, rest_in, u_in = _scaled_norms(X)
        with np.errstate(over="ignore"):
            norm_in = m_in * rest_in  # may be inf: above every bound here
        m_out, rest_out, u_out = _scaled_norms(out)
        over = norm_in > bound
        assert clipped == int(over.sum()), case
        for i in np.flatnonzero(over):
            if bound / norm_in[i] < np.finfo(float).tiny:
                # The factor bound / norm is below the normal doubles (a norm of 1e150 at a bound
                # of 1e-200): the library's range of exact clipping ends there
                # (proofs/row_bound.md); such a row adds B^2 < 1e-300 to a Gram entry.
                assert np.all(np.abs(out[i]) <= bound), case
                continue
            norm_out = m_out[i] * rest_out[i]
            # On the sphere up to rounding (the accumulator's own clip takes the last ulps).
            assert abs(norm_out - bound) <= 1e-12 * bound, (case, i, norm_out, bound)
            # The same direction: the unit vectors agree.
            assert np.allclose(u_out[i] / rest_out[i], u_in[i] / rest_in[i], rtol=0, atol=1e-12), case
        assert np.array_equal(out[~over], X[~over]), case


def test_a_row_beyond_the_overflow_releases_as_the_row_on_the_sphere():
    X = np.zeros((50, 2))
    X[:, 1] = 0.1
    releases = []
    for first in ([1e200, 0.0], [1.7976931348623157e308, 0.0], [1.0, 0.0]):
        X[0] = first
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = PrivateCovariance(epsilon=1e6, bound=1.0, assume_centered=True,
                                    random_state=7).fit(X)
        releases.append(est.second_moment_)
    assert np.allclose(releases[0], releases[2], rtol=1e-12, atol=1e-12)
    assert np.allclose(releases[1], releases[2], rtol=1e-12, atol=1e-12)


def test_choosing_a_bound_logs_nothing_about_a_row_whose_norm_overflows():
    # Its norm is +inf, in the cell above every candidate; NumPy's overflow warning would have
    # told the log that such a row exists.
    import dpcov
    from dpcov.private_bound import choose_bound

    X = np.ones((40, 3))
    X[5] = [1e200, -1e200, 1.7976931348623157e308]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bound = choose_bound(X, 1.0, dpcov.Rng.seeded(3))
    assert np.isfinite(bound)
