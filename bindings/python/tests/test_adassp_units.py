"""AdaSSP at the level of privacy units (proofs/adassp_units.md): PrivateLinearRegression's
``fit(X, y, privacy_unit=...)`` is the library's unit accumulator then ``dpcov_adassp_fit`` with
``max_rows_per_unit``, byte for byte; its receipt depends on public values only; its noise is k
times the row-level noise; and it has no intervals, the same answer on every surface."""

import warnings

import numpy as np
import pytest

import dpcov

K = 3
RELEASED = ("released_lambda_min", "ridge", "eigenvalues_floored", "released_label_square",
            "generator", "generator_name", "seed_fixed")


def people(units=40, seed=1):
    """Rows of `units` people with 1 to 6 rows each, x in the unit ball, |y| <= 1."""
    gen = np.random.default_rng(seed)
    sizes = gen.integers(1, 7, size=units)
    ids = np.repeat(np.arange(units) * 7 + 100, sizes)
    x = gen.normal(size=(len(ids), 2)) * 0.4
    y = np.clip(x @ [0.8, -0.5] + 0.1 * gen.normal(size=len(ids)), -1, 1)
    order = gen.permutation(len(ids))  # units need not be contiguous
    return x[order], y[order], ids[order]


def model(**kwargs):
    options = dict(epsilon=1.0, delta=1e-6, bound=1.0, label_bound=1.0, random_state=dpcov.Rng(9),
                   max_rows_per_unit=K, intervals=False)
    options.update(kwargs)
    return dpcov.PrivateLinearRegression(**options)


def balanced_bound(d=2):
    """The norm bound of the balanced regressors [1, x sqrt(d) / B] the fit uses, whatever B."""
    return dpcov.gram.bound_rows(np.empty((0, d)), 1.0, constant=1.0, balanced=True)[1].bound


def quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def test_the_estimator_is_the_kernels_unit_release_byte_for_byte():
    x, y, ids = people()
    fitted = quiet(lambda: model().fit(x, y, privacy_unit=ids))
    # The same release by hand: the library's accumulator of units of the balanced rows, then
    # dpcov_adassp_fit at their bounds, its coefficients mapped to the data's units.
    with dpcov.Rng(9) as rng:
        order, units = dpcov.gram.unit_ids(ids)
        with dpcov.GramAccumulator.bounded(3, 1.0, "clip", "replace_one", 1.0, label_bound=1.0,
                                           max_rows_per_unit=K, balanced=True) as gram:
            gram.add_unit_rows(np.column_stack((x, y))[order], units, rng).finish_units()
            g = gram.matrix()
        fit = quiet(lambda: dpcov.adassp_fit(g, 3, [0, 1, 2], balanced_bound(), 1.0, 1.0, 1e-6,
                                             rng, max_rows_per_unit=K))
    factors = dpcov.coefficient_factors(3, 1.0, 1.0, 1.0, balanced=True)
    assert np.array_equal(fitted.unit_factors_, factors)
    assert np.array_equal(fitted.params_, fit.coefficients * factors)
    assert np.array_equal(fitted.release_.released_xtx, fit.released_xtx)
    assert np.array_equal(fitted.release_.released_xty, fit.released_xty)
    assert fitted.receipt_.to_dict() == fit.receipt.to_dict()
    assert fitted.receipt_.max_rows_per_unit == K
    assert fitted.n_samples_ is None and fitted.n_units_truncated_ > 0


def test_the_receipt_is_the_same_for_other_data_with_the_same_number_of_units():
    receipts = []
    for seed in (1, 2):
        x, y, ids = people(seed=seed)
        receipts.append(quiet(lambda: model().fit(x, y, privacy_unit=ids)).receipt_.to_dict())
    for r in receipts:
        for field in RELEASED:
            r.pop(field, None)
    assert receipts[0] == receipts[1]
    assert receipts[0]["n"] == dpcov.RECEIPT_N_WITHHELD


@pytest.mark.parametrize("neighbour", ["replace_one", "add_remove"])
def test_the_noise_is_k_times_the_row_level_noise(neighbour):
    x, y, ids = people()
    unit = quiet(lambda: model(neighbour=neighbour).fit(x, y, privacy_unit=ids)).receipt_
    row = dpcov.adassp_plan(3, balanced_bound(), 1.0, 1.0, 1e-6, neighbour)
    for field in ("sigma_lambda_min", "sigma_gram", "sigma_cross"):
        assert getattr(unit, field) == pytest.approx(K * getattr(row, field), rel=1e-13)
    assert unit.rho == pytest.approx(row.rho, rel=1e-13)


def test_intervals_asked_for_are_nan_with_the_reason_and_a_warning():
    x, y, ids = people()
    with pytest.warns(UserWarning, match="privacy units"):
        fitted = model(intervals=True).fit(x, y, privacy_unit=ids)
    assert np.isnan(fitted.conf_int_).all() and np.isnan(fitted.std_errors_).all()
    assert fitted.inference_ == "none: " + dpcov.adassp_units.UNITS_NO_INTERVALS
    assert not fitted.receipt_.label_square_released  # no budget spent on y'y
    with dpcov.Rng(3) as rng, pytest.raises(dpcov.DpcovError, match="privacy units"):
        dpcov.adassp.adassp_intervals(fitted.release_, 100, rng)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model(intervals=False).fit(x, y, privacy_unit=ids)
    assert not [w for w in caught if "intervals" in str(w.message)]


def test_bad_units_settings_are_refused_before_anything_is_drawn():
    x, y, ids = people()
    with pytest.raises(ValueError, match="max_rows_per_unit"):
        model(max_rows_per_unit=None).fit(x, y, privacy_unit=ids)
    with pytest.raises(ValueError, match="max_rows_per_unit"):
        model(max_rows_per_unit=0).fit(x, y, privacy_unit=ids)
    with pytest.raises(dpcov.DpcovError, match="max_rows_per_unit"):
        quiet(lambda: model(max_rows_per_unit=2 ** 20 + 1).fit(x, y, privacy_unit=ids))
    with pytest.raises(ValueError, match="adassp"):
        model(mechanism="analyze_gauss").fit(x, y, privacy_unit=ids)
    with pytest.raises(ValueError, match="privacy_unit has"):
        model().fit(x, y, privacy_unit=ids[1:])
    with pytest.raises(dpcov.DpcovError, match="joint analytic"):
        quiet(lambda: model(calibration="paper").fit(x, y, privacy_unit=ids))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_row_that_is_not_finite_is_named_at_the_callers_row(bad):
    # The rows are grouped by unit before the library reads them; its refusal names the row of
    # the grouped rows, which the binding maps back to the caller's.
    x, y, ids = people()
    x = x.copy()
    x[5, 1] = bad
    grouped_row = int(np.flatnonzero(dpcov.gram.unit_ids(ids)[0] == 5)[0])
    assert grouped_row != 5
    calls = [lambda: dpcov.adassp_units.adassp_units_fit(x, y, ids, K, 1.0, 1.0, 1.0, 1e-6,
                                                         dpcov.Rng(1)),
             lambda: dpcov.release_rows("analyze_gauss", x, 1.0, 1.0, 1e-6, dpcov.Rng(1),
                                        privacy_unit=ids, max_rows_per_unit=K)]
    for call in calls:
        with pytest.raises(dpcov.errors.NonFiniteError, match=r"^DPCOV_E_NON_FINITE: row 5, "
                           r"column 1 \(0-based\)") as refused:
            call()
        assert refused.value.row == 5
