"""A fitted estimator survives pickling whole (joblib, parallel grid search, saved models): its
receipts are rebuilt as the C structs the library reads, so the intervals of an unpickled fit
are the original's, for every mechanism that keeps its release, and the public part of a
receipt is still available."""

import pickle
import warnings

import numpy as np
import pytest

from dpcov.learn import PrivateLinearRegression


@pytest.mark.parametrize("params", [
    {}, {"errors": "homoscedastic"}, {"mechanism": "analyze_gauss"},
    {"mechanism": "laplace_sym", "errors": "homoscedastic"}])
def test_an_unpickled_fit_gives_the_same_intervals(params):
    gen = np.random.default_rng(1)
    x = gen.standard_normal((2000, 3)) / np.sqrt(3)
    y = np.clip(0.3 + x @ [0.5, 0.0, -0.5] + 0.3 * gen.standard_normal(2000), -1.5, 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = PrivateLinearRegression(bound=1.2, label_bound=1.5, random_state=4,
                                         n_bootstrap=99, **params).fit(x, y)
        copy = pickle.loads(pickle.dumps(fitted))
        assert copy.receipt_ == fitted.receipt_
        for a, b in zip(fitted.noise_aware_intervals(), copy.noise_aware_intervals()):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(copy.predict(x[:5]), fitted.predict(x[:5]))
        assert copy.receipt_.public() == fitted.receipt_.public()
