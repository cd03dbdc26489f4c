"""Exact (floating-point-safe) numerics are the default of every Python surface that releases
analyze_gauss or laplace_sym from rows: the bounded accumulator naming the mechanism, and every
estimator; ``numerics="idealized"`` still works and is labelled; a release from a matrix, and a
mechanism with no exact form, say idealized. Deterministic: fixed seeds, no statistical test."""

import math
import pickle
import warnings

import numpy as np
import pytest

import dpcov
from dpcov.ledger import ledger_charge
from dpcov.learn import ClippingWarning, SeededNoiseWarning

EXACT, IDEALIZED = 1, 0
EXACT_MECHANISMS = ("analyze_gauss", "laplace_sym")


@pytest.fixture(scope="module")
def rows():
    gen = np.random.default_rng(350)
    x = gen.normal(size=(2000, 3)) * [0.3, 0.2, 0.1] + [0.2, -0.1, 0.05]
    y = np.clip(x @ np.array([0.5, -0.25, 0.75]) + 0.05 * gen.normal(size=2000), -1, 1)
    return x, y


def quiet(fit):
    with warnings.catch_warnings():
        for category in (SeededNoiseWarning, ClippingWarning, UserWarning):
            warnings.simplefilter("ignore", category)
        return fit()


@pytest.mark.parametrize("mechanism", EXACT_MECHANISMS)
def test_bounded_accumulator_naming_the_mechanism_releases_exactly(rows, mechanism):
    x, _ = rows
    gram = dpcov.GramAccumulator.bounded(3, bound=1.0, mechanism=mechanism, epsilon=1.0,
                                         delta=1e-6)
    assert gram.exact and gram.info().numerics == EXACT
    gram.add_raw_rows(x[:700]).add_raw_rows(x[700:])
    with dpcov.Rng(1) as rng:
        released, receipt = quiet(lambda: gram.release(mechanism, 1.0, 1e-6, rng))
    assert receipt.numerics == EXACT and receipt.n == len(x)
    # The same rows through the exact accumulator of dpcov.exact: the same integers and draws.
    with dpcov.ExactGram(mechanism, 3, 1.0, 1.0, 1e-6) as exact, dpcov.Rng(1) as rng:
        expected = exact.add_rows(x).release(rng)
    np.testing.assert_array_equal(released, expected.matrix)
    assert receipt.sigma == expected.receipt.sigma and receipt.scale == expected.receipt.scale


@pytest.mark.parametrize("mechanism", EXACT_MECHANISMS)
def test_idealized_on_request_is_labelled(rows, mechanism):
    x, _ = rows
    gram = dpcov.GramAccumulator.bounded(3, bound=1.0, mechanism=mechanism,
                                         numerics="idealized")
    assert not gram.exact
    with dpcov.Rng(1) as rng:
        receipt = quiet(lambda: gram.add_raw_rows(x).release(mechanism, 1.0, 1e-6, rng)).receipt
    assert receipt.numerics == IDEALIZED


@pytest.mark.parametrize("mechanism", EXACT_MECHANISMS)
def test_release_rows_is_exact_by_default_and_idealized_on_request(rows, mechanism):
    x, _ = rows
    for numerics, expected in ((None, EXACT), ("idealized", IDEALIZED)):
        options = {} if numerics is None else {"numerics": numerics}
        with dpcov.Rng(6) as rng:
            released, receipt = quiet(lambda: dpcov.release_rows(
                mechanism, x, 1.0, 1.0, 1e-6, rng, neighbour="add_remove", **options))
        assert receipt.numerics == expected and released.shape == (3, 3)
        assert receipt.public().n == dpcov.RECEIPT_N_WITHHELD


def test_a_release_from_a_matrix_and_a_mechanism_without_exact_form_are_idealized(rows):
    x, _ = rows
    with dpcov.Rng(2) as rng:
        receipt = quiet(lambda: dpcov.release("analyze_gauss", x.T @ x, len(x), 2.0, 1.0, 1e-6,
                                              rng)).receipt
    assert receipt.numerics == IDEALIZED
    gram = dpcov.GramAccumulator.bounded(3, bound=1.0, mechanism="wishart_additive",
                                         epsilon=0.5)
    assert not gram.exact
    with dpcov.Rng(2) as rng:
        receipt = quiet(lambda: gram.add_raw_rows(x).release("wishart_additive", 0.5, 1e-6,
                                                             rng)).receipt
    assert receipt.numerics == IDEALIZED


ESTIMATORS = {
    "covariance": lambda m, **k: dpcov.PrivateCovariance(bound=1.0, mechanism=m, **k),
    "covariance_uncentred": lambda m, **k: dpcov.PrivateCovariance(
        bound=1.0, mechanism=m, assume_centered=True, **k),
    "covariance_bounds": lambda m, **k: dpcov.PrivateCovariance(bounds=(-1.0, 1.0), mechanism=m,
                                                                **k),
    "covariance_auto": lambda m, **k: dpcov.PrivateCovariance(bound="auto", mechanism=m, **k),
    "pca": lambda m, **k: dpcov.PrivatePCA(n_components=2, bound=1.0, mechanism=m, **k),
    "pca_auto": lambda m, **k: dpcov.PrivatePCA(n_components=2, bound="auto", mechanism=m, **k),
    "regression": lambda m, **k: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, mechanism=m, n_bootstrap=50, **k),
    "regression_no_intercept": lambda m, **k: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, mechanism=m, fit_intercept=False, n_bootstrap=50, **k),
}


@pytest.mark.parametrize("mechanism", EXACT_MECHANISMS)
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_every_estimator_releases_exactly_by_default(rows, name, mechanism):
    x, y = rows
    est = quiet(lambda: ESTIMATORS[name](mechanism, epsilon=4.0, random_state=3).fit(x, y))
    assert est.receipt_.numerics == EXACT
    assert est.receipt_.public().numerics == EXACT
    idealized = quiet(lambda: ESTIMATORS[name](mechanism, epsilon=4.0, random_state=3,
                                               numerics="idealized").fit(x, y))
    assert idealized.receipt_.numerics == IDEALIZED


@pytest.mark.parametrize("epsilon", [1.0, 0.01])
def test_bounds_under_add_remove_release_on_the_grid_of_their_relation(rows, epsilon):
    # The accumulator's grid is planned for the release's neighbour relation: at epsilon 0.01
    # replace-one and add/remove choose different grids, and a grid planned for the wrong one
    # was refused at release (DPCOV_E_INCOMPATIBLE).
    x, _ = rows
    est = quiet(lambda: dpcov.PrivateCovariance(
        bounds=(-1.0, 1.0), epsilon=epsilon, random_state=1,
        mechanism_options={"neighbour": "add_remove"}).fit(x))
    assert est.receipt_.numerics == EXACT
    assert est.receipt_.public().n == dpcov.RECEIPT_N_WITHHELD


def test_exact_estimates_stay_close_to_the_idealized_ones(rows):
    # epsilon 1e6: the noise is negligible, so what is left is the grid's rounding (about
    # 2^-12 of B per coordinate) and the constant column held on the grid, which the estimators
    # account for (constant_); a constant taken as B instead would move the mean by up to 2e-4.
    x, y = rows
    kw = {"epsilon": 1e6, "random_state": 4}
    exact = quiet(lambda: dpcov.PrivateCovariance(bound=1.0, **kw).fit(x))
    ideal = quiet(lambda: dpcov.PrivateCovariance(bound=1.0, numerics="idealized", **kw).fit(x))
    assert exact.constant_ != 1.0 and abs(exact.constant_ - 1.0) < 2e-4
    np.testing.assert_allclose(exact.location_, ideal.location_, atol=2e-5)
    np.testing.assert_allclose(exact.covariance_, ideal.covariance_, atol=2e-5)
    reg = {num: quiet(lambda: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, mechanism="analyze_gauss", intervals=False, numerics=num,
        **kw).fit(x, y)) for num in ("exact", "idealized")}
    # The two regressions draw different noise (AdaSSP's at epsilon 1e6 is not negligible next to
    # the grid): over random_state 1-40 their largest coefficient difference has median 2.1e-4
    # and maximum 6.9e-4 (2.3e-4 and 5.9e-4 before the exact samplers' faster draws), so 2e-4
    # held by the seed alone; 1.5e-3 is twice the largest seen.
    np.testing.assert_allclose(reg["exact"].params_, reg["idealized"].params_, atol=1.5e-3)
    assert reg["exact"].receipt_.numerics == EXACT
    assert reg["exact"].n_samples_ == len(x)


def test_an_exact_accumulator_is_pickled_with_its_integers():
    gram = dpcov.GramAccumulator.bounded(3, mechanism="analyze_gauss")
    gram.add_raw_rows(np.sin(np.arange(30.0)).reshape(10, 3))
    clone = pickle.loads(pickle.dumps(gram))
    assert clone.info() == gram.info() and clone.info().numerics == EXACT
    assert clone.to_bytes() == gram.to_bytes()


def test_numerics_must_be_exact_or_idealized():
    with pytest.raises(ValueError):
        dpcov.GramAccumulator.bounded(3, mechanism="analyze_gauss", numerics="fast")
    with pytest.raises(ValueError):
        dpcov.GramAccumulator.bounded(3, numerics="fast")


def test_bound_auto_charges_a_zcdp_budget_the_exact_release_cost():
    # bound="auto" checks and charges both of its steps at the cost of the releases it makes: the
    # exact Analyze Gauss release's rho (its discrete Gaussian's, from its receipt), not the
    # idealized plan's. The two differ in the last bits only (the exact noise is the analytic
    # Gaussian's plus a rounding, proofs/discrete_gaussian_smoothing.md), so the ledger's total
    # must equal the exact one exactly.
    x = np.random.default_rng(5).normal(size=(3000, 3)) * 0.3
    bound_epsilon, rest = 0.1, math.nextafter(0.9, 0.0)
    totals = {}
    for name, planned in (("exact", dpcov.exact_plan("analyze_gauss", 4, 3000, 1.0, rest, 1e-6)[0]),
                          ("idealized", dpcov.plan("analyze_gauss", 4, 3000, 1.0, rest, 1e-6))):
        ledger = dpcov.BudgetAccountant(100.0, 1e-3, accounting="zcdp")
        ledger.charge(ledger_charge(bound_epsilon, 0.0))
        ledger.charge(planned)
        totals[name] = ledger.spent.rho
    assert totals["exact"] != totals["idealized"]
    with dpcov.BudgetAccountant(100.0, 1e-3, accounting="zcdp") as budget:
        est = quiet(lambda: dpcov.PrivateCovariance(bound="auto", epsilon=1.0, random_state=2)
                    .fit(x))
        assert est.receipt_.numerics == EXACT and budget.spent.charges == 2
        assert budget.spent.rho == totals["exact"]
