"""A release planned once (dpcov.Plan over dpcov/plan.h): an accumulator made for the plan
releases what GramAccumulator.bounded and release give from the same seed, an exact plan moved to
another bound keeps its grid, and an accumulator of another shape is refused."""

import numpy as np
import pytest

import dpcov


@pytest.fixture
def rows():
    return 0.3 * np.sin(1.3 * np.arange(60.0)).reshape(20, 3)


@pytest.mark.parametrize("mechanism,delta,exact", [("analyze_gauss", 1e-6, True),
                                                   ("laplace_sym", 0.0, True),
                                                   ("analyze_gauss", 1e-6, False)])
def test_a_planned_release_is_the_one_call_release(rows, mechanism, delta, exact):
    numerics = "exact" if exact else "idealized"
    with dpcov.Rng(5) as one, dpcov.Rng(5) as two, \
            dpcov.Plan(mechanism, 3, 0, 1.0, 1.0, delta, exact=exact) as plan:
        with dpcov.GramAccumulator.bounded(3, 1.0, mechanism=mechanism, epsilon=1.0, delta=delta,
                                           numerics=numerics) as direct:
            expected = direct.add_raw_rows(rows).release(mechanism, 1.0, delta, one)
        with plan.accumulator(3, 1.0) as gram:
            got = plan.release(gram.add_raw_rows(rows), two)
    assert np.array_equal(got.matrix, expected.matrix)
    assert got.receipt == expected.receipt
    assert got.receipt.n == 20


def test_a_moved_exact_plan_keeps_its_grid():
    with dpcov.Plan("analyze_gauss", 3, 0, 1.0, 1.0, 1e-6) as plan, plan.at_bound(4.0) as moved:
        grid, moved_grid = plan.exact_grid(), moved.exact_grid()
        assert (moved_grid.bits, moved_grid.noise_parameter) == (grid.bits, grid.noise_parameter)
        assert moved_grid.unit == 4.0 * grid.unit
        assert moved.receipt().bound == 4.0


def test_an_accumulator_of_another_shape_is_refused(rows):
    with dpcov.Plan("analyze_gauss", 3, 0, 1.0, 1.0, 1e-6) as plan:
        with pytest.raises(dpcov.DpcovError):
            plan.accumulator(2, 1.0)
        with pytest.raises(dpcov.DpcovError):
            dpcov.Plan("analyze_gauss", 3, 0, 1.0, 1.0, 1e-6, exact=False).exact_grid()
