"""The budget ledger (dpcov.BudgetAccountant): totals, refusal before any noise, the active
accountant charged by every release and estimator, copies that share the budget, refit warnings."""

import copy
import math
import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import ClippingWarning, PrivateCovariance


@pytest.fixture
def rows():
    return np.random.default_rng(5).uniform(-0.5, 0.5, size=(80, 3))


def test_basic_accounting_adds_up_and_refuses_over_the_cap():
    with dpcov.BudgetAccountant(1.0, 1e-5) as budget:
        plan = dpcov.plan("laplace_sym", 3, 100, 1.0, 0.6, 0.0)
        budget.check(plan)
        assert budget.spent.charges == 0
        budget.charge(plan)
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            budget.charge(plan)
        assert budget.spent.charges == 1 and budget.spent.epsilon == 0.6


def test_releases_charge_the_active_accountant_and_are_refused_before_noise(rows):
    with dpcov.GramAccumulator(3) as gram, dpcov.Rng(3) as rng:
        gram.add_rows(rows, 1.0)
        with dpcov.BudgetAccountant(1.0, 1e-5) as budget:
            gram.release("analyze_gauss", 0.6, 5e-6, rng)
            state = rng.save_state()
            with pytest.raises(dpcov.PreconditionError):
                gram.release("analyze_gauss", 0.6, 5e-6, rng)
            assert rng.save_state() == state  # no noise was drawn
            assert budget.spent.charges == 1
        # Outside the block no accountant is charged.
        gram.release("analyze_gauss", 0.6, 5e-6, rng)
        assert budget.spent.charges == 1
        assert dpcov.active_accountant() is None


def test_estimators_and_their_clones_share_the_budget(rows):
    with dpcov.BudgetAccountant(2.0, 1e-5) as budget:
        model = PrivateCovariance(epsilon=1.0, delta=1e-6, bound=1.0, random_state=1)
        clone = copy.deepcopy(PrivateCovariance(**model.get_params()))
        model.fit(rows)
        clone.fit(rows)
        assert budget.spent.charges == 2 and budget.spent.epsilon == 2.0
        with pytest.warns(dpcov.PrivacyLeakWarning, match="fitted again"):
            with pytest.raises(dpcov.PreconditionError):
                model.fit(rows)
    assert copy.deepcopy(budget) is budget


def test_zcdp_accounting_allows_more_gaussian_releases_than_basic(rows):
    counts = {}
    for accounting in ("basic", "zcdp"):
        with dpcov.GramAccumulator(3) as gram, dpcov.Rng(3) as rng:
            gram.add_rows(rows, 1.0)
            with dpcov.BudgetAccountant(2.0, 1e-5, accounting=accounting) as budget:
                while True:
                    try:
                        gram.release("analyze_gauss", 0.25, 1e-7, rng)
                    except dpcov.PreconditionError:
                        break
                counts[accounting] = budget.spent.charges
                assert budget.spent.epsilon <= 2.0
    assert counts["basic"] == 8 and counts["zcdp"] > counts["basic"]


def test_advanced_accounting_fits_more_small_releases_than_basic_and_refuses_before_noise(rows):
    # wishart_additive is (epsilon, delta)-DP with no zCDP bound: zCDP accounting refuses it.
    counts = {}
    for accounting in ("basic", "advanced"):
        with dpcov.GramAccumulator(3) as gram, dpcov.Rng(3) as rng:
            gram.add_rows(rows, 1.0)
            with dpcov.BudgetAccountant(1.0, 1e-5, accounting=accounting) as budget:
                while True:
                    state = rng.save_state()
                    try:
                        gram.release("wishart_additive", 0.02, 1e-8, rng)
                    except dpcov.PreconditionError:
                        assert rng.save_state() == state  # refused before any noise
                        break
                counts[accounting] = budget.spent.charges
                assert budget.spent.epsilon <= 1.0 and budget.spent.delta <= 1e-5
    # Basic: 50 x 0.02 reaches 1 only with rounding down on the way, which the ledger refuses.
    assert counts["basic"] == 49 and counts["advanced"] == 99, counts


def test_an_automatic_bound_is_charged_in_two_steps_and_refused_before_either_draws():
    X = np.random.default_rng(6).normal(50.0, 10.0, size=(3000, 3))
    norms = np.linalg.norm(X, axis=1)
    # At epsilon 10 (the bound's share 1); the scan lands near the quantile at 1 too
    # (proofs/private_bound.md, "The scan").
    for accounting in ("basic", "zcdp"):
        with dpcov.BudgetAccountant(30.0, 1e-5, accounting=accounting) as budget:
            with warnings.catch_warnings():
                warnings.simplefilter("error", dpcov.PrivacyLeakWarning)
                warnings.simplefilter("ignore", ClippingWarning)  # ~5% of rows, by design
                model = PrivateCovariance(epsilon=10.0, bound="auto", random_state=2).fit(X)
            assert np.quantile(norms, 0.8) < model.bound_ < np.quantile(norms, 0.999) * 1.25
            assert model.receipt_.epsilon == dpcov.private_bound.bound_step_rest(10.0, 1.0) == 9.0
            assert budget.spent.charges == 2
            assert budget.spent.epsilon <= 30.0
    # A cap the bound step fits in but the release does not: nothing is charged or drawn.
    with dpcov.BudgetAccountant(0.5, 1e-5) as budget, dpcov.Rng(4) as rng:
        state = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            PrivateCovariance(epsilon=1.0, bound="auto", random_state=rng).fit(X)
        assert budget.spent.charges == 0 and rng.save_state() == state


def test_a_bound_selection_is_charged_after_its_draw_and_a_bad_argument_is_not():
    pb = dpcov.private_bound
    grid = pb.grid()
    counts = pb.histogram(np.linalg.norm(np.ones((50, 3)), axis=1), grid)
    with dpcov.BudgetAccountant(5.0, 1e-3) as budget, dpcov.Rng(3) as rng:
        for choose in (pb.scan, pb.select):
            with pytest.raises(dpcov.ArgumentError, match="target_clipped"):
                choose(counts, grid, -1, 0.5, rng)
            assert budget.spent.charges == 0
        pb.scan(counts, grid, 5, 0.5, rng)
        assert budget.spent.charges == 1 and budget.spent.epsilon == 0.5


def test_an_advanced_ledger_takes_a_bound_step_and_its_release_as_one_release():
    # Advanced composition fixes the per-release budget at the first charge: a bound step (a
    # tenth) charged alone would leave no room for the release (nine tenths) after it. As the
    # command line does, the two are one release of their epsilons' sum rounded up
    # (dpcov_bound_step_total); releases after them (robust errors' meat) are their own.
    gen = np.random.default_rng(8)
    X = gen.uniform(-0.5, 0.5, size=(500, 2))
    y = np.clip(X @ [0.5, -0.3], -1, 1)
    rest = dpcov.private_bound.bound_step_rest(1.0, 0.1)
    total = dpcov.ledger.bound_step_total(0.1, rest)
    assert total <= 1.0
    with dpcov.BudgetAccountant(10.0, 1e-5, accounting="advanced") as budget:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = dpcov.PrivateLinearRegression(epsilon=1.0, bound=1.0, label_bound=1.0,
                                                bound_epsilon=0.1, errors="homoscedastic",
                                                random_state=1).fit(X, y)
        assert fit.receipt_.epsilon == rest
        assert budget.spent.charges == 1 and budget.spent.epsilon == total
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            PrivateCovariance(epsilon=1.0, bound="auto", random_state=2).fit(X)
        assert budget.spent.charges == 2 and budget.spent.epsilon == 2 * total
    # Under basic accounting each step is its own charge.
    with dpcov.BudgetAccountant(10.0, 1e-5) as budget:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            PrivateCovariance(epsilon=1.0, bound="auto", random_state=2).fit(X)
        assert budget.spent.charges == 2 and budget.spent.epsilon <= 1.0
    # Robust errors: the bound step and the fit as one release, then the meat.
    with dpcov.BudgetAccountant(10.0, 1e-5, accounting="advanced") as budget:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = dpcov.PrivateLinearRegression(epsilon=1.0, bound=1.0, label_bound=1.0,
                                                bound_epsilon=0.1, errors="robust",
                                                random_state=1).fit(np.tile(X, (40, 1)),
                                                                    np.tile(y, 40))
        assert fit.errors_ == "robust" and fit.meat_receipt_ is not None
        assert budget.spent.charges == 2
    # A cap the two steps do not fit in as one release: refused before either draws.
    with dpcov.BudgetAccountant(0.95, 1e-5, accounting="advanced") as budget:
        with pytest.raises(dpcov.PreconditionError):
            PrivateCovariance(epsilon=1.0, bound="auto", random_state=2).fit(X)
        assert budget.spent.charges == 0


def test_bad_caps_are_refused():
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.BudgetAccountant(0.0)
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.BudgetAccountant(1.0, 0.0, accounting="zcdp")
    with pytest.raises(KeyError):
        dpcov.BudgetAccountant(1.0, accounting="fancy")


def test_clipping_is_never_silent():
    X = np.random.default_rng(2).normal(50.0, 10.0, size=(40, 3))
    with pytest.warns(dpcov.ClippingWarning, match="EVERY row"):
        PrivateCovariance(epsilon=1.0, bound=1.0, random_state=1).fit(X)


# charged_if_drawn decides by the generator's state, not by the exception. The release is a test
# double: one next_u64 is its draw, and it fails with an exception the status list of earlier
# versions (RefusedError, NumericalError) did not charge.
def _error(kind, status):
    return kind(int(status), status.name, "after the draw")


@pytest.mark.parametrize("error", [
    _error(dpcov.errors.NonFiniteError, dpcov.errors.Status.NON_FINITE),
    _error(dpcov.errors.InvalidArgumentError, dpcov.errors.Status.INVALID_ARGUMENT),
    _error(dpcov.errors.InternalError, dpcov.errors.Status.INTERNAL),
    ValueError("a binding's check after the draw"),
    KeyboardInterrupt(), SystemExit(1)])
def test_a_failure_after_a_draw_is_charged_whatever_it_is(error):
    from dpcov.ledger import charged_if_drawn
    plan = dpcov.plan("laplace_sym", 3, 100, 1.0, 0.5, 0.0)
    with dpcov.BudgetAccountant(1.0) as budget, dpcov.Rng(4) as rng:
        with pytest.raises(type(error)):
            with charged_if_drawn(budget, plan, rng):
                rng.next_u64()
                raise error
        assert budget.spent.charges == 1 and budget.spent.epsilon == 0.5


def test_a_failure_before_any_draw_is_not_charged_and_a_refusal_is_anyway():
    from dpcov.ledger import charged_if_drawn
    plan = dpcov.plan("laplace_sym", 3, 100, 1.0, 0.5, 0.0)
    with dpcov.BudgetAccountant(1.0) as budget, dpcov.Rng(4) as rng:
        with pytest.raises(dpcov.errors.NonFiniteError):
            with charged_if_drawn(budget, plan, rng):
                raise _error(dpcov.errors.NonFiniteError, dpcov.errors.Status.NON_FINITE)
        assert budget.spent.charges == 0
        # The second guard: a refusal only follows a draw, charged even without an advance.
        with pytest.raises(dpcov.RefusedError):
            with charged_if_drawn(budget, plan, rng):
                raise _error(dpcov.RefusedError, dpcov.errors.Status.REFUSED)
        assert budget.spent.charges == 1


def test_a_release_refused_before_its_draw_leaves_the_accountant_alone(rows):
    # A real release with a bad argument (epsilon <= 0 is caught by its plan before any draw).
    with dpcov.BudgetAccountant(1.0, 1e-5) as budget, dpcov.Rng(4) as rng:
        gram = rows.T @ rows
        state = rng.save_state()
        with pytest.raises(dpcov.ArgumentError):
            dpcov.release("analyze_gauss", gram, 80, 1.0, -1.0, 1e-6, rng)
        assert rng.save_state() == state and budget.spent.charges == 0


@pytest.mark.parametrize("accounting", ["basic", "zcdp"])
def test_an_adassp_receipt_is_charged_through_its_prefix_as_its_zcdp_statement(accounting):
    plan = dpcov.adassp_plan(3, 1.0, 1.0, 0.5, 1e-7)
    by_receipt = dpcov.BudgetAccountant(10.0, 1e-3, accounting)
    by_statement = dpcov.BudgetAccountant(10.0, 1e-3, accounting)
    by_receipt.charge(plan)
    by_statement.charge(dpcov.ZcdpCharge(plan.rho, plan.epsilon, plan.delta))
    a, b = by_receipt.spent, by_statement.spent
    assert (a.charges, a.epsilon, a.delta, a.rho) == (b.charges, b.epsilon, b.delta, b.rho)


def test_a_receipt_with_a_forged_privacy_model_is_refused_and_charges_nothing():
    plan = dpcov.adassp_plan(3, 1.0, 1.0, 0.5, 1e-7)
    forged = copy.copy(plan._struct)
    forged.privacy_model = 3  # zCDP: the registry states AdaSSP as approximate DP
    budget = dpcov.BudgetAccountant(10.0, 1e-3)
    with pytest.raises(dpcov.InvalidArgumentError, match="privacy_model"):
        budget.charge(forged)
    assert budget.spent.charges == 0
