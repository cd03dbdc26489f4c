"""A release made at a share of the user's epsilon (the robust regression's fit beside its meat,
``bound="auto"``'s release after the bound step) that fails a theorem's precondition on epsilon is
reported against the epsilon the user passed, with what spends the rest: the library's own
message names only the share (the additive Wishart's eps < 1 at 0.8 of 4 said "epsilon = 3.2").
Privacy units drawn per row by group privacy likewise. Nothing is charged to an active
accountant."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.errors import UnmetPreconditionError
from dpcov.learn import PrivateCovariance, PrivatePCA, PrivateLinearRegression

# Gram mechanisms with an upper bound on epsilon in their theorem, with the options they need.
CAPPED = {"wishart_additive": {}, "jl_ridge": {"projection_rows": 40},
          "inverse_wishart": {"posterior_dof": 40}}


def _rows(n=2000, d=3, seed=5):
    gen = np.random.default_rng(seed)
    return np.clip(gen.standard_normal((n, d)) / 3.0, -1.0, 1.0)


def _fit(est, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(*args, **kwargs)


def _names_the_request(error, epsilon, rest):
    text = str(error)
    assert f"requested epsilon = {epsilon:g}" in text, text
    assert rest in text, text


@pytest.mark.parametrize("mechanism", sorted(CAPPED))
@pytest.mark.parametrize("cls", [PrivatePCA, PrivateCovariance])
def test_auto_bound_release_names_the_requested_epsilon(mechanism, cls):
    x = _rows()
    kwargs = {"n_components": 2} if cls is PrivatePCA else {}
    raised = 0
    for epsilon in (0.5, 1.5, 4.0):
        est = cls(epsilon=epsilon, delta=1e-6, mechanism=mechanism, bound="auto",
                  mechanism_options=CAPPED[mechanism], random_state=3, **kwargs)
        try:
            _fit(est, x)
        except UnmetPreconditionError as e:
            raised += 1
            _names_the_request(e, epsilon, "the private bound's step spends the rest")
    assert raised == 2  # 1.5 and 4: every capped theorem fails at 0.9 of either


def test_robust_regression_release_names_the_requested_epsilon():
    x = _rows()
    y = np.clip(x @ np.array([0.3, -0.3, 0.3]) + 0.1 * _rows(2000, 1, 6)[:, 0], -1.0, 1.0)
    est = PrivateLinearRegression(epsilon=4.0, mechanism="wishart_additive", bound=np.sqrt(3.0),
                                  label_bound=1.0, random_state=3)
    with pytest.raises(UnmetPreconditionError) as e:
        _fit(est, x, y)
    _names_the_request(e.value, 4.0, "errors='homoscedastic' gives the release all of it")
    assert "gets epsilon = 3.2 of" in str(e.value)
    # Where the fit's share meets the theorem and the whole epsilon does not, robust answers
    # (on enough rows for the release minus its noise's mean to stay positive definite).
    x = _rows(50000)
    y = np.clip(x @ np.array([0.3, -0.3, 0.3]) + 0.1 * _rows(50000, 1, 6)[:, 0], -1.0, 1.0)
    est = PrivateLinearRegression(epsilon=1.1, mechanism="wishart_additive", bound=np.sqrt(3.0),
                                  label_bound=1.0, random_state=3)
    _fit(est, x, y)
    assert est.errors_ == "robust" and np.all(np.isfinite(est.coef_))


def test_a_refused_share_charges_nothing():
    x = _rows()
    budget = dpcov.BudgetAccountant(10.0, 1e-3)
    with budget:
        with pytest.raises(UnmetPreconditionError, match="requested epsilon = 1.5"):
            _fit(PrivatePCA(n_components=2, epsilon=1.5, mechanism="wishart_additive",
                            bound="auto", random_state=3), x)
        with pytest.raises(UnmetPreconditionError, match="requested epsilon = 4"):
            _fit(PrivateLinearRegression(epsilon=4.0, mechanism="wishart_additive",
                                         bound=np.sqrt(3.0), label_bound=1.0, random_state=3),
                 x[:, :2], x[:, 2])
    assert budget.spent.charges == 0


def test_privacy_units_name_the_requested_epsilon():
    # Units by group privacy are drawn at a per-row epsilon (the library says so): 5 over units
    # of 2 rows gives the additive Wishart 1.25, above its theorem's eps < 1.
    x = _rows(3000, 2)
    ids = np.repeat(np.arange(1500), 2)
    est = PrivateCovariance(epsilon=5.0, delta=1e-6, mechanism="wishart_additive", bound=1.0,
                            max_rows_per_unit=2, random_state=3)
    with pytest.raises(UnmetPreconditionError, match="of the requested epsilon = 5 "):
        _fit(est, x, privacy_unit=ids)
    est.set_params(epsilon=3.0)
    _fit(est, x, privacy_unit=ids)
