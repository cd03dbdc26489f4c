"""Exact numerics (dpcov.exact_release_rows): the release is unit^2 times integers with the grid
and noise law of its plan, the default generator is ChaCha20, and bad input raises with nothing
drawn."""

import numpy as np
import pytest

import dpcov


@pytest.fixture
def rows():
    return np.random.default_rng(7).uniform(-0.5, 0.5, size=(60, 3))


@pytest.mark.parametrize("mechanism,delta", [("analyze_gauss", 1e-6), ("laplace_sym", 0.0)])
def test_release_is_unit_squared_times_integers_and_matches_its_plan(rows, mechanism, delta):
    receipt, grid = dpcov.exact_plan(mechanism, 3, 60, 1.0, 1.0, delta)
    assert receipt.numerics == 1 and grid.bits == 12 and grid.unit == 2.0 ** -12
    with dpcov.Rng() as rng:
        out = dpcov.exact_release_rows(mechanism, rows, 1.0, 1.0, delta, rng)
    assert out.receipt.numerics == 1 and out.receipt.generator == 2  # exact, ChaCha20
    assert out.grid == grid
    units = out.matrix / grid.unit ** 2
    assert np.array_equal(units, np.round(units))
    assert np.array_equal(out.matrix, out.matrix.T)
    assert out.receipt.sigma == receipt.sigma and out.receipt.scale == receipt.scale


def test_bad_input_raises_and_draws_nothing(rows):
    with dpcov.Rng(4) as rng:
        before = rng.save_state()
        bad = rows.copy()
        bad[3, 1] = np.nan
        with pytest.raises(dpcov.NonFiniteError):
            dpcov.exact_release_rows("analyze_gauss", bad, 1.0, 1.0, 1e-6, rng)
        with pytest.raises(dpcov.InvalidArgumentError):
            dpcov.exact_release_rows("iev", rows, 1.0, 1.0, 1e-6, rng)
        with pytest.raises(dpcov.InvalidArgumentError):
            dpcov.exact_release_rows("analyze_gauss", rows, 1.0, 1.0, 1e-6, rng, policy="drop")
        with pytest.raises(dpcov.NormBoundError):
            dpcov.exact_release_rows("laplace_sym", rows * 10, 1.0, 1.0, 0.0, rng,
                                     policy="reject")
        assert rng.save_state() == before


@pytest.mark.parametrize("mechanism,delta", [("analyze_gauss", 1e-6), ("laplace_sym", 0.0)])
def test_an_exact_gram_fed_in_chunks_releases_what_the_rows_release(rows, mechanism, delta):
    with dpcov.Rng(9) as one, dpcov.Rng(9) as two:
        whole = dpcov.exact_release_rows(mechanism, rows, 1.0, 1.0, delta, one)
        with dpcov.ExactGram(mechanism, 3, 1.0, 1.0, delta) as left, \
                dpcov.ExactGram(mechanism, 3, 1.0, 1.0, delta) as right:
            left.add_rows(rows[:25])
            right.add_rows(np.asfortranarray(rows[25:]))
            left.merge(right)
            assert left.info().rows == 60 and left.info().clipped == 0
            streamed = left.release(two, order="F")
    assert np.array_equal(streamed.matrix, whole.matrix)
    assert streamed.receipt == whole.receipt and streamed.grid == whole.grid


def test_an_exact_gram_refuses_bad_input_unchanged(rows):
    with dpcov.Rng(4) as rng, dpcov.ExactGram("analyze_gauss", 3, 1.0, 1.0, 1e-6,
                                              policy="reject") as acc:
        with pytest.raises(dpcov.InvalidArgumentError):
            dpcov.ExactGram("analyze_gauss", 3, 1.0, 1.0, 1e-6, policy="drop")
        acc.add_rows(rows)
        bad = rows.copy()
        bad[3, 1] = np.nan
        with pytest.raises(dpcov.NonFiniteError):
            acc.add_rows(bad)
        with pytest.raises(dpcov.NormBoundError):
            acc.add_rows(rows * 10)
        with pytest.raises(dpcov.IncompatibleError):
            acc.merge(dpcov.ExactGram("analyze_gauss", 3, 2.0, 1.0, 1e-6))
        assert acc.info().rows == 60
        before = rng.save_state()
        with pytest.raises(dpcov.NullPointerError):
            dpcov.ExactGram("analyze_gauss", 3, 1.0, 1.0, 1e-6).release(None)
        assert rng.save_state() == before


def test_a_constant_column_holds_the_grid_value_the_library_gives():
    # B = 1.5, k = 3: 1 is round(8 / 1.5) = 5 units of 1.5 / 8.
    assert dpcov.exact_grid_value(1.5, 3, 1.0) == 0.9375
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.exact_grid_value(1.0, 3, 2.0)
    # An exact accumulator with a constant column holds that value.
    with dpcov.GramAccumulator.bounded(2, bound=1.0, constant=1.0, mechanism="analyze_gauss",
                                       epsilon=1.0, delta=1e-6) as gram:
        assert gram.exact
        grid = gram.kept_plan("analyze_gauss", 1.0, 1e-6, {}).exact_grid()
        held = gram.held_constant(1.0)
        assert held == dpcov.exact_grid_value(gram.info().bound, grid.bits, 1.0)
        assert held != 1.0 and abs(held - 1.0) <= grid.unit / 2


def test_the_standard_audit_rows_are_the_auditors():
    assert dpcov.audit_standard_rows("analyze_gauss", 3, 1.0, 1.0, 1e-6, fallback=77) == 77
    assert dpcov.audit_standard_rows("ols_jl", 3, 1.0, 1.0, 1e-6,
                                     mechanism_options={"projection_rows": 20}) > 50
