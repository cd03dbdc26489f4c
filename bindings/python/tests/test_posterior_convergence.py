"""The posterior's chains that did not converge print no interval, with the reason, on the Python
surface (proofs/adassp_posterior.md, "Convergence"): d = 10 heavy-tailed rows at n = 500,
epsilon = 0.5, with 99 draws, too few for the chains to converge (at the default 999 they do
since "Mixing at d = 10"). Fixed seeds: deterministic."""

import math
import warnings

import numpy as np

import dpcov
from dpcov.adassp import adassp_intervals
from dpcov.rng import Rng


def heavy_rows(n=500, d=10, seed=3):
    gen = np.random.default_rng(seed)
    z = gen.standard_t(3, size=(n, d))
    y = z @ (np.array([(-1.0) ** j for j in range(1, d + 1)]) / math.sqrt(d)) + gen.normal(size=n)
    return np.clip(z / 10, -1, 1), np.clip(y / 12, -1, 1)


def test_unconverged_coefficients_print_nan_with_their_reason():
    x, y = heavy_rows()
    est = dpcov.PrivateLinearRegression(epsilon=0.5, delta=1e-6, bound=math.sqrt(10),
                                        label_bound=1.0, random_state=1, intervals="always",
                                        errors="homoscedastic", n_bootstrap=99)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(x, y)
    assert est.interval_method_ == "posterior"
    answer = adassp_intervals(est.release_, est._inference_rows(est.n_samples_), Rng(5, 2), 0,
                              0.95, 199)
    assert answer.unconverged.any()
    assert not answer.conclusive[answer.unconverged].any()
    assert np.array_equal(np.isnan(est.conf_int_).any(axis=1), ~est.conclusive_)
    flagged = [str(w.message) for w in caught if "did not converge" in str(w.message)]
    assert len(flagged) == 1 and "cannot support a conclusion about coefficients" in flagged[0]
    assert np.isnan(est.conf_int_[~est.conclusive_]).all()
    # The unconverged coefficients' standard errors and p-values are nan too; the rest are not.
    for v in (est.std_errors_, est.p_values_):
        assert np.isnan(v).any() and not np.isnan(v[est.conclusive_]).any()
