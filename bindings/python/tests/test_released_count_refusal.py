"""A release whose count the noise swamps (add/remove: the count is read off the release, and it
can fall below 1) is paid for, so its refusal is an output: no exception, NaN location and
covariance, a UserWarning that says why, and the release kept in ``second_moment_`` with its
``receipt_``, on every fit path of PrivateCovariance and PrivatePCA."""

import warnings

import numpy as np
import pytest

from dpcov.learn import PrivateCovariance, PrivatePCA

ADD_REMOVE = {"neighbour": "add_remove"}
X = np.random.default_rng(0).uniform(-0.1, 0.1, (4, 2))
UNITS = np.arange(4) // 2
FITS = {
    "rows": lambda s: (PrivateCovariance(epsilon=0.05, bound=1.0, random_state=s,
                                         mechanism_options=ADD_REMOVE), {}),
    "bounds": lambda s: (PrivateCovariance(epsilon=0.05, bounds=([-1, -1], [1, 1]),
                                           random_state=s, mechanism_options=ADD_REMOVE), {}),
    "units": lambda s: (PrivateCovariance(epsilon=0.05, bound=1.0, max_rows_per_unit=2,
                                          random_state=s),
                        {"privacy_unit": UNITS}),
    "pca": lambda s: (PrivatePCA(epsilon=0.05, bound=1.0, random_state=s,
                                 mechanism_options=ADD_REMOVE), {}),
}


def fit(path, seed):
    est, kwargs = FITS[path](seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, **kwargs)
    return est, [str(w.message) for w in caught if "no location" in str(w.message)]


@pytest.mark.parametrize("path", list(FITS))
def test_a_swamped_count_keeps_the_release(path):
    swamped = 0
    for seed in range(12):
        est, said = fit(path, seed)
        assert np.isfinite(est.second_moment_).all() and est.receipt_ is not None
        if np.isfinite(est.covariance_).all():
            assert not said and est.n_samples_ >= 1
            continue
        swamped += 1
        assert len(said) == 1 and "below 1" in said[0] and "second_moment_" in said[0], said
        location = est.mean_ if path == "pca" else est.location_
        assert np.isnan(location).all() and np.isnan(est.n_samples_)
        if path == "pca":
            assert np.isnan(est.components_).all() and est.subspace_error_ is None
            assert np.isnan(est.transform(X)).all()
        else:
            assert np.isnan(est.get_precision()).all()
    assert swamped >= 2, "no seed swamped the count: the test checks nothing"

