"""Each release plans once (dpcov/plan.h): release_gram and release (from a matrix) with an
accountant, and an accumulator made by GramAccumulator.bounded with exact numerics, call one C
entry point that calibrates per release.

The count is of the library's calls that run a calibration (the analytic Gaussian sigma, the exact
grid search): dpcov_plan_create, dpcov_plan_create_at_bound, dpcov_mechanism_plan,
dpcov_exact_plan, dpcov_mechanism_release_gram and dpcov_mechanism_release (which plan
themselves) and dpcov_gram_create_bounded given a release with exact numerics (which searches its
grid). Before, an exact bounded release made 3 such calls (4 with an accountant), and
release_gram and release with an accountant 2 each."""

import numpy as np
import pytest

import dpcov
from dpcov import _lib

PLANNING = ("dpcov_plan_create", "dpcov_plan_create_at_bound", "dpcov_mechanism_plan",
            "dpcov_exact_plan", "dpcov_mechanism_release_gram", "dpcov_mechanism_release")


@pytest.fixture
def plans(monkeypatch):
    """The planning calls made while the test runs, by name."""
    calls = []
    for name in PLANNING:
        monkeypatch.setattr(_lib.C, name,
                            lambda *a, _fn=getattr(_lib.C, name), _name=name:
                            (calls.append(_name), _fn(*a))[1])
    create = _lib.C.dpcov_gram_create_bounded

    def bounded(handle, cols, spec):
        s = spec._obj
        if s.mechanism in (1, 2) and s.numerics == 1:
            calls.append("dpcov_gram_create_bounded")
        return create(handle, cols, spec)

    monkeypatch.setattr(_lib.C, "dpcov_gram_create_bounded", bounded)
    return calls


@pytest.fixture
def rows():
    return 0.3 * np.sin(1.3 * np.arange(60.0)).reshape(20, 3)


@pytest.mark.parametrize("accountant", [False, True])
@pytest.mark.parametrize("mechanism,delta", [("analyze_gauss", 1e-6), ("laplace_sym", 0.0)])
def test_an_exact_bounded_release_plans_once(plans, rows, mechanism, delta, accountant):
    budget = dpcov.BudgetAccountant(10.0, 1e-3)
    with dpcov.Rng(3) as rng:
        if accountant:
            budget.__enter__()
        try:
            with dpcov.GramAccumulator.bounded(3, 1.0, mechanism=mechanism, epsilon=1.0,
                                               delta=delta) as gram:
                released = gram.add_raw_rows(rows).release(mechanism, 1.0, delta, rng)
        finally:
            if accountant:
                budget.__exit__(None, None, None)
    assert plans == ["dpcov_plan_create"]
    assert released.receipt.numerics == 1
    assert budget.spent.charges == (1 if accountant else 0)


def test_an_exact_bounded_release_of_another_budget_plans_it(plans, rows):
    """An accumulator's plan serves the release it was made for only: another epsilon is
    planned by the release (which may refuse it for its grid)."""
    with dpcov.Rng(3) as rng, dpcov.GramAccumulator.bounded(
            3, 1.0, mechanism="analyze_gauss", epsilon=1.0, delta=1e-6) as gram:
        gram.add_raw_rows(rows)
        try:
            gram.release("analyze_gauss", 0.5, 1e-6, rng)
        except dpcov.DpcovError:
            pass
    assert plans == ["dpcov_plan_create", "dpcov_mechanism_release_gram"]


@pytest.mark.parametrize("mechanism,delta", [("analyze_gauss", 1e-6), ("laplace_sym", 0.0),
                                             ("wishart_additive", 1e-6)])
def test_release_gram_with_an_accountant_plans_once(plans, rows, mechanism, delta):
    with dpcov.Rng(3) as rng, dpcov.BudgetAccountant(10.0, 1e-3) as budget, \
            dpcov.GramAccumulator.bounded(3, 1.0) as gram:
        gram.add_raw_rows(rows)
        released = dpcov.release_gram(mechanism, gram, 0.5, delta, rng)
        assert budget.spent.charges == 1
    assert plans == ["dpcov_plan_create"]
    assert released.receipt.numerics == 0


@pytest.mark.parametrize("mechanism,delta", [("analyze_gauss", 1e-6), ("laplace_sym", 0.0),
                                             ("wishart_additive", 1e-6)])
def test_release_from_a_matrix_with_an_accountant_plans_once(plans, rows, mechanism, delta):
    """The accountant checks the plan the release draws with: the same release, from the same
    seed, as without an accountant, charged once."""
    gram = rows.T @ rows
    with dpcov.Rng(3) as rng, dpcov.BudgetAccountant(10.0, 1e-3) as budget:
        accounted = dpcov.release(mechanism, gram, 20, 1.0, 0.5, delta, rng)
        assert budget.spent.charges == 1
    assert plans == ["dpcov_plan_create"]
    with dpcov.Rng(3) as rng:
        alone = dpcov.release(mechanism, gram, 20, 1.0, 0.5, delta, rng)
    assert plans == ["dpcov_plan_create", "dpcov_mechanism_release"]
    np.testing.assert_array_equal(accounted.matrix, alone.matrix)
    assert accounted.receipt.sigma == alone.receipt.sigma
    assert accounted.receipt.n == 20


def test_release_from_a_matrix_over_the_cap_plans_once_and_draws_nothing(plans, rows):
    gram = rows.T @ rows
    with dpcov.Rng(3) as rng, dpcov.BudgetAccountant(0.25, 1e-3) as budget:
        state = rng.save_state()
        with pytest.raises(dpcov.PreconditionError):
            dpcov.release("analyze_gauss", gram, 20, 1.0, 0.5, 1e-6, rng)
        assert rng.save_state() == state
        assert budget.spent.charges == 0
    assert plans == ["dpcov_plan_create"]
