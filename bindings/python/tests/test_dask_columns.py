"""Column bounds and the constant column on a local Dask cluster: each partition hands its raw rows to
the library's bounded accumulator; the merged exact states release byte for byte as the
single-process accumulator of all the rows with the same generator (idealized: to rounding)."""

import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
from dask_fixtures import DIM, client, lazy, rows  # noqa: F401 (fixtures)


def column_forms(rows):
    """The bounding forms: public column ranges (a few values outside, clamped), a constant."""
    lower, upper = np.quantile(rows, 0.01, axis=0), np.quantile(rows, 0.99, axis=0)
    return [{"lower": lower, "upper": upper}, {"constant": 1.0}]


@pytest.mark.parametrize("form", [0, 1])
@pytest.mark.parametrize("mechanism", dask_release.EXACT_MECHANISMS)
@pytest.mark.parametrize("neighbour", ["replace_one", "add_remove"])
def test_column_bounds_and_the_constant_column_equal_the_single_process_release(
        client, rows, form, mechanism, neighbour):
    bounding = column_forms(rows)[form]
    with dpcov.Rng(44) as rng:
        released, receipt = dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng, mechanism,
                                                      neighbour=neighbour, **bounding)
    with dpcov.GramAccumulator.bounded(DIM, 1.0, neighbour=neighbour, mechanism=mechanism,
                                       epsilon=1.0, delta=1e-6, **bounding) as gram, \
            dpcov.Rng(44) as rng:
        gram.add_raw_rows(rows)
        expected, expected_receipt = gram.release(mechanism, 1.0, 1e-6, rng, neighbour=neighbour)
    assert released.shape == (DIM + 1, DIM + 1) and receipt.numerics == 1
    assert receipt == expected_receipt
    assert released.tobytes() == expected.tobytes()


def test_the_constant_column_with_idealized_numerics_equals_the_single_process_release(
        client, rows):
    with dpcov.Rng(45) as rng:
        released, receipt = dask_release.dask_release(lazy(rows), 1.0, 0.9, 1e-6, rng,
                                                      "wishart_additive", constant=1.0)
    with dpcov.GramAccumulator.bounded(DIM, 1.0, constant=1.0, mechanism="wishart_additive",
                                       epsilon=0.9, delta=1e-6) as gram, dpcov.Rng(45) as rng:
        gram.add_raw_rows(rows)
        expected, expected_receipt = gram.release("wishart_additive", 0.9, 1e-6, rng)
    assert receipt == expected_receipt and receipt.numerics == 0
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12 * np.abs(expected).max())
