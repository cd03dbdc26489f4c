"""The private graphical lasso keeps its release: the estimate is the solve of
``private_glasso_covariance``'s S~ (bit for bit the C one call's), a solve that fails after the
release raises with the paid S~ and receipt to solve again for free, the accountant is charged
once, and settings the solve would refuse are refused before anything is drawn."""

import numpy as np
import pytest

import dpcov

X = np.random.default_rng(4).uniform(-0.5, 0.5, (200, 4))
GRAM = X.T @ X


def test_the_estimate_is_the_solve_of_the_kept_covariance():
    for mechanism, delta in (("laplace_sym", 0.0), ("analyze_gauss", 1e-6)):
        one = dpcov.private_glasso_release(mechanism, GRAM, 200, 1.0, 1.0, delta, 0.05,
                                           dpcov.Rng(9))
        s, receipt = dpcov.private_glasso_covariance(mechanism, GRAM, 200, 1.0, 1.0, delta,
                                                     dpcov.Rng(9))
        assert np.array_equal(dpcov.glasso_solve(s, 0.05).precision, one.precision)
        assert np.min(np.linalg.eigvalsh(s)) >= -1e-12 and np.array_equal(s, s.T)
        assert receipt.glasso_rho == 0 and one.receipt.glasso_rho == 0.05
        assert receipt.epsilon == one.receipt.epsilon


def test_a_failed_solve_keeps_the_paid_release_and_charges_once():
    budget = dpcov.BudgetAccountant(epsilon=10.0, delta=1e-3)
    with budget:
        with pytest.raises(dpcov.NoConvergenceError) as raised:
            dpcov.private_glasso_release("laplace_sym", GRAM, 200, 1.0, 1.0, 0.0, 0.05,
                                         dpcov.Rng(9), glasso={"max_iter": 1, "tol": 1e-300})
    assert budget.spent.charges == 1 and budget.spent.epsilon == 1.0  # the release, once
    err = raised.value
    assert "kept in this error's covariance" in str(err)
    again = dpcov.glasso_solve(err.covariance, 0.05)  # free: post-processing
    one = dpcov.private_glasso_release("laplace_sym", GRAM, 200, 1.0, 1.0, 0.0, 0.05,
                                       dpcov.Rng(9))
    assert np.array_equal(again.precision, one.precision)
    assert err.receipt.epsilon == 1.0


@pytest.mark.parametrize("rho, glasso", [(0.0, None), (-1.0, None), (float("nan"), None),
                                         (0.05, {"tol": 0.0}), (0.05, {"max_iter": 0}),
                                         (0.05, {"penalize_diagonal": "no"}),
                                         (0.05, {"warm": 1})])
def test_what_the_solve_would_refuse_is_refused_before_the_release(rho, glasso):
    rng = dpcov.Rng(9)
    before = rng.save_state()
    budget = dpcov.BudgetAccountant(epsilon=10.0, delta=1e-3)
    with budget:
        with pytest.raises((ValueError, TypeError)):
            dpcov.private_glasso_release("laplace_sym", GRAM, 200, 1.0, 1.0, 0.0, rho, rng,
                                         glasso=glasso)
    assert rng.save_state() == before and budget.spent.charges == 0
