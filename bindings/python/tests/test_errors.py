"""Failed calls raise typed exceptions with the library's message, and leave outputs untouched."""

import threading

import numpy as np
import pytest

import dpcov
from dpcov import errors


def test_every_status_code_maps_to_its_own_class_under_its_family():
    families = {
        errors.ArgumentError: {"NULL_POINTER", "INVALID_ARGUMENT", "DIMENSION", "LAYOUT",
                               "NON_FINITE", "TOO_LARGE", "INCOMPATIBLE", "BUFFER_TOO_SMALL"},
        errors.DataError: {"NORM_BOUND"},
        errors.PreconditionError: {"PRECONDITION"},
        errors.PrivacyError: {"NOT_PRIVATE", "REFUSED"},
        errors.NumericalError: {"NOT_POSITIVE_DEFINITE", "NO_CONVERGENCE", "NUMERICAL"},
        errors.ResourceError: {"ENTROPY", "NOMEM", "INTERNAL"},
    }
    seen = set()
    for family, names in families.items():
        for name in names:
            code = dpcov.Status[name]
            cls = errors.ERROR_CLASSES[code]
            assert issubclass(cls, family) and issubclass(cls, dpcov.DpcovError)
            assert dpcov.status_string(code) == f"DPCOV_E_{name}"
            seen.add(cls)
    assert len(seen) == len(errors.ERROR_CLASSES) == len(dpcov.Status) - 1


def test_unknown_status_codes_still_raise_a_dpcov_error():
    err = errors.error_for(-1000, dpcov.status_string(-1000), "from a newer library")
    assert isinstance(err, errors.UnknownStatusError)
    assert err.status_name == "DPCOV_E_UNKNOWN"


def test_a_bad_epsilon_raises_with_the_c_message_and_leaves_out_untouched(spd):
    out = np.full((4, 4), 7.0)
    with dpcov.Rng(1) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.InvalidArgumentError) as info:
            dpcov.release("analyze_gauss", spd, n=100, bound=10.0, epsilon=-1.0, delta=1e-6,
                          rng=rng, out=out)
        assert rng.save_state() == before
    err = info.value
    assert err.status == dpcov.Status.INVALID_ARGUMENT
    assert err.status_name == "DPCOV_E_INVALID_ARGUMENT"
    assert "epsilon" in err.message and "-1" in err.message
    assert err.message == dpcov.last_error_message()
    assert np.all(out == 7.0)


def test_nan_rows_are_refused_and_the_accumulator_keeps_its_state(data):
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data[:10], 2.0)
        before = gram.matrix()
        bad = data[10:20].copy()
        bad[3, 2] = np.nan
        with pytest.raises(dpcov.NonFiniteError, match="row 3, column 2"):
            gram.add_rows(bad, 2.0)
        assert gram.rows == 10
        assert np.array_equal(gram.matrix(), before)


@pytest.mark.parametrize("bound", [5e-324, 2.0 ** -1000, 2.0 ** -961])
def test_a_row_bound_below_the_proven_range_is_refused_everywhere(data, spd, bound):
    # The library's one range for row bounds, B >= 2^-960 (proofs/row_bound.md): the accumulator,
    # a mechanism's B and the Dong-Liang-Yi radius refuse alike, naming the range.
    with dpcov.GramAccumulator(4) as gram:
        with pytest.raises(dpcov.InvalidArgumentError, match=r"2\^-960"):
            gram.add_rows(data, bound)
        assert gram.rows == 0
    with pytest.raises(dpcov.InvalidArgumentError, match=r"2\^-960"):
        dpcov.plan("analyze_gauss", dim=4, n=100, bound=bound, epsilon=1.0, delta=1e-6)
    out = np.full((4, 4), 7.0)
    with dpcov.Rng(1) as rng:
        with pytest.raises(dpcov.InvalidArgumentError, match=r"2\^-960"):
            dpcov.release("analyze_gauss", spd, n=100, bound=bound, epsilon=1.0, delta=1e-6,
                          rng=rng, out=out)
    assert np.all(out == 7.0)
    with pytest.raises(dpcov.InvalidArgumentError, match=r"2\^-960"):
        dpcov.dly_plan(100, 4, radius=bound)
    # The end of the range is accepted.
    assert dpcov.dly_plan(100, 4, radius=2.0 ** -960) is not None
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data, 2.0 ** -960)
        assert gram.rows == len(data)


def test_the_reject_policy_names_the_offending_row(data):
    with dpcov.GramAccumulator(4) as gram:
        with pytest.raises(dpcov.NormBoundError) as info:
            gram.add_rows(data, 0.5, policy="reject")
        assert isinstance(info.value, dpcov.DataError)
        assert "row" in info.value.message
        assert gram.rows == 0


def test_a_precondition_failure_is_a_precondition_error():
    with pytest.raises(dpcov.UnmetPreconditionError) as info:
        dpcov.plan("wishart_additive", dim=3, n=10, bound=1.0, epsilon=2.0, delta=1e-6)
    assert isinstance(info.value, dpcov.PreconditionError)
    assert "epsilon" in info.value.message


def test_the_jiang_mechanism_needs_the_audit_unlock():
    with pytest.raises(dpcov.NotPrivateError):
        dpcov.plan("wishart_jiang", dim=3, n=10, bound=1.0, epsilon=1.0, delta=0.0)
    receipt = dpcov.plan("wishart_jiang", dim=3, n=10, bound=1.0, epsilon=1.0, delta=0.0,
                         audit_only_not_private=True)
    assert receipt.not_dp == 1


def test_an_indefinite_scale_raises_not_positive_definite_and_keeps_the_generator():
    scale = np.diag([1.0, -1.0, 1.0])
    with dpcov.Rng(3) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.NotPositiveDefiniteError) as info:
            rng.wishart(5.0, scale)
        assert isinstance(info.value, ArithmeticError)
        assert rng.save_state() == before


def test_in_place_post_processing_leaves_the_input_untouched_on_failure():
    a = np.array([[1.0, 2.0], [2.5, 1.0]])  # not symmetric
    with pytest.raises(dpcov.InvalidArgumentError, match="symmetric"):
        dpcov.psd_project(a, inplace=True)
    assert np.array_equal(a, [[1.0, 2.0], [2.5, 1.0]])


def test_an_unknown_mechanism_option_is_a_type_error():
    with pytest.raises(TypeError, match="unknown mechanism option"):
        dpcov.plan("analyze_gauss", 3, 10, 1.0, 1.0, 1e-6, sigma=2.0)


def test_an_option_that_does_not_apply_is_refused_by_the_library():
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.plan("analyze_gauss", 3, 10, 1.0, 1.0, 1e-6, projection_rows=5)


class TestArraysTheBindingRefusesInsteadOfCopying:
    def test_float32_arrays(self, data):
        with dpcov.GramAccumulator(4) as gram, pytest.raises(dpcov.InvalidArgumentError,
                                                             match="float64"):
            gram.add_rows(data.astype(np.float32), 2.0)

    def test_arrays_with_no_unit_stride(self, data):
        with dpcov.GramAccumulator(2) as gram, pytest.raises(dpcov.LayoutError,
                                                             match="ascontiguousarray"):
            gram.add_rows(data[::2, ::2], 2.0)

    def test_a_matrix_of_the_wrong_order_next_to_a_non_symmetric_one(self):
        a = np.arange(6.0).reshape(2, 3)
        with pytest.raises(dpcov.LayoutError, match="row-major"):
            dpcov.metric_frobenius_error(a, np.asfortranarray(a))

    def test_non_square_and_mismatched_matrices(self, spd):
        with dpcov.Rng(1) as rng:
            with pytest.raises(dpcov.DimensionError, match="square"):
                rng.wishart(5.0, spd[:, :3])
        with pytest.raises(dpcov.DimensionError, match="shape"):
            dpcov.log_density_wishart(spd[:3, :3], 5.0, spd)

    def test_read_only_arrays_for_in_place_work(self, spd):
        spd.setflags(write=False)
        with pytest.raises(dpcov.InvalidArgumentError, match="read-only"):
            dpcov.psd_project(spd, inplace=True)


def test_each_thread_gets_its_own_error_message():
    """The C message is thread-local; ctypes releases the GIL during calls, so threads that fail
    concurrently must each see their own message."""
    failures = []

    def worker(epsilon):
        for _ in range(200):
            try:
                dpcov.plan("analyze_gauss", 3, 10, 1.0, epsilon, 1e-6)
            except dpcov.InvalidArgumentError as err:
                if str(epsilon) not in err.message:
                    failures.append(err.message)

    threads = [threading.Thread(target=worker, args=(eps,)) for eps in (-1.5, -2.5, -3.5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_random_state_must_be_none_an_int_or_a_generator():
    with pytest.raises(TypeError, match="random_state"):
        dpcov.PrivateCovariance(random_state="seed").fit(np.zeros((3, 2)))
