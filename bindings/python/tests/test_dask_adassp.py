"""AdaSSP on a local Dask cluster: X'X, X'y and y'y bounded in the partitions by the library, summed,
released once at the driver; equal to the single-process fit with the same generator, the
constants exactly, the released values to the rounding of the compensated sums."""

import numpy as np
import pytest

import dpcov
import dpcov.dask_adassp as dask_adassp
from dask_fixtures import DIM, ROWS, client, lazy, rows  # noqa: F401 (fixtures)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_adassp_from_cluster_statistics_equals_the_single_process_fit(client, rows,
                                                                      fit_intercept):
    x, y = rows[:, 1:], rows[:, 0] + 0.2 * np.random.default_rng(46).normal(size=ROWS)
    with dpcov.Rng(47) as rng:
        fit = dask_adassp.dask_adassp(lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng,
                                      fit_intercept=fit_intercept, release_label_square=True)
    spec = dask_adassp.adassp_spec(1.0, 1.0, fit_intercept)
    assert spec["balanced"]
    with dpcov.GramAccumulator.bounded(DIM, **spec) as gram, dpcov.Rng(47) as rng:
        gram.add_raw_rows(np.column_stack([x, y]))
        matrix, label, features, bound_x = dask_adassp.adassp_statistics(gram, fit_intercept)
        expected = dpcov.adassp_fit(matrix, label, features, bound_x, 1.0, 1.0, 1e-6, rng,
                                    release_label_square=True)
    # The fit is of the balanced rows; its coefficients are mapped to the data's units.
    factors = dpcov.coefficient_factors(DIM, 1.0, float(fit_intercept), 1.0, balanced=True)
    assert len(fit.coefficients) == DIM - 1 + fit_intercept
    assert_equal_to_rounding(fit, expected._replace(coefficients=expected.coefficients * factors))


def assert_equal_to_rounding(fit, expected):
    """The constants of the receipts equal; the released values (a function of the sums) and
    the coefficients to the rounding of the compensated sums."""
    got, want = fit.receipt.to_dict(), expected.receipt.to_dict()
    released = {k for k in want if k.startswith("released") or k in ("ridge",)}
    assert {k: got[k] for k in want if k not in released} == \
        {k: want[k] for k in want if k not in released}
    for k in released:
        assert got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(fit.coefficients, expected.coefficients, rtol=0, atol=1e-12)


def test_a_fit_at_the_level_of_privacy_units_is_the_single_process_one(client, rows):
    # Each unit's rows are gathered and cut to k before they are summed, so the receipt's k is
    # true; the byte-for-byte comparisons are in test_dask_adassp_units.py.
    x, y = rows[:, 1:], rows[:, 0]
    units = np.arange(ROWS) // 2
    with dpcov.Rng(48) as rng:
        fit = dask_adassp.dask_adassp(lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng,
                                      privacy_unit=lazy(units), max_rows_per_unit=2)
    with dpcov.Rng(48) as rng:
        expected = dpcov.adassp_units_fit(x, y, units, 2, 1.0, 1.0, 1.0, 1e-6, rng)
    assert fit.fit.receipt.max_rows_per_unit == 2
    assert (fit.bound_x, fit.clipped, fit.truncated) == \
        (expected.bound_x, expected.clipped, expected.truncated)
    np.testing.assert_array_equal(fit.unit_factors, expected.unit_factors)
    assert_equal_to_rounding(fit.fit, expected.fit)


def test_a_row_that_is_not_finite_is_named_at_its_row_of_x(client, rows):
    # Each partition's library call sees its own rows from 0; the refusal names x's row.
    x, y = rows[:, 1:].copy(), rows[:, 0]
    x[2100, 2] = np.nan  # the third partition (CHUNKS) starts at row 2000
    with pytest.raises(dpcov.errors.NonFiniteError, match=r"row 2100, column 2 \(0-based\)"):
        dask_adassp.dask_adassp(lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, dpcov.Rng(1))
    # Where Dask does not know the partitions' lengths, the row is named in its partition.
    blocks = lazy(x)
    blocks = blocks[blocks[:, 0] < 10]
    with pytest.raises(dpcov.errors.NonFiniteError, match=r"row 100 of partition 2, column 2"):
        dpcov.dask.dask_release(blocks, 2.0, 1.0, 1e-6, dpcov.Rng(1))
