"""A Python int that a C ``int32_t`` or ``int64_t`` parameter or struct field cannot hold is
refused with :class:`dpcov.InvalidArgumentError` before C sees it. ctypes passes or stores such
an int reduced modulo 2^32 or 2^64: ``plan(..., n=2**64 + 50)`` planned for 50 rows, a layout or
mechanism id of ``2**32 + k`` reached C as ``k``, a valid value, and
``mechanism_options={"projection_rows": 2**64 + 5}`` became 5. Every prototyped function is
covered: at each of its integer parameters, a value one past either end of the type is refused
(the call never reaches C, so the other arguments do not matter); and every integer field of
every struct mirror.

The numbers are checked on the same way in: an integer parameter or field takes an int, a NumPy
integer or a float with no fraction, and refuses a fraction, NaN, a bool or a string (a call
site's ``int(n)`` truncated 2.7 to 2); a ``double`` takes any real number and refuses a bool or
a string (``float(epsilon)`` read True as 1). Each refusal names the parameter."""

from ctypes import c_double, c_int32, c_int64

import numpy as np
import pytest

import dpcov
from dpcov import _lib

LIMITS = {c_int32: (-(2 ** 31), 2 ** 31 - 1), c_int64: (-(2 ** 63), 2 ** 63 - 1)}


def integer_parameters():
    for name, (_, argtypes) in sorted(_lib.PROTOTYPES.items()):
        for k, t in enumerate(argtypes):
            if t in LIMITS:
                yield name, k, t


def test_every_integer_parameter_refuses_a_value_its_type_cannot_hold():
    checked = 0
    for name, k, t in integer_parameters():
        _, argtypes = _lib.PROTOTYPES[name]
        lo, hi = LIMITS[t]
        for value in (hi + 1, lo - 1, hi + 2 ** 70):
            args = [None] * len(argtypes)
            args[k] = value
            with pytest.raises(dpcov.InvalidArgumentError) as raised:
                getattr(_lib.C, name)(*args)
            assert name in raised.value.message and str(value) in raised.value.message
        checked += 1
    assert checked > 100


def test_a_wrapped_row_count_no_longer_plans_for_the_remainder():
    good = dpcov.plan("analyze_gauss", 3, 50, 1.0, 1.0, 1e-6)
    assert good.n == 50
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.plan("analyze_gauss", 3, 2 ** 64 + 50, 1.0, 1.0, 1e-6)
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.plan(2 ** 32, 3, 50, 1.0, 1.0, 1e-6)  # mechanism id 0 after the wrap


def test_values_within_the_types_still_reach_c():
    # The library's own refusals, not the binding's: a negative n, the largest int64_t.
    for n in (-1, 2 ** 63 - 1):
        with pytest.raises(dpcov.DpcovError) as raised:
            dpcov.plan("analyze_gauss", 3, n, 1e-300, 1.0, 1e-6)
        assert "must fit" not in raised.value.message


def test_a_wrapped_mechanism_option_no_longer_becomes_its_remainder():
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.mechanism_params(projection_rows=2 ** 64 + 5)


def test_every_integer_parameter_refuses_a_fraction_a_bool_and_a_non_number():
    # int(n) at a call site truncated n = 2.7 to 2 and read n=True as 1; the check is now at
    # the call into C, for every parameter, and the message names it.
    checked = 0
    names = _lib.PARAMETERS
    for name, k, t in integer_parameters():
        _, argtypes = _lib.PROTOTYPES[name]
        for bad, kind in ((2.5, ValueError), (float("nan"), ValueError), (True, TypeError),
                          (np.bool_(False), TypeError), ("3", TypeError)):
            args = [None] * len(argtypes)
            args[k] = bad
            with pytest.raises(kind) as raised:
                getattr(_lib.C, name)(*args)
            assert f"{names[name][k]} of {name} must be an integer" in str(raised.value)
        checked += 1
    assert checked > 100


def test_a_whole_float_or_numpy_integer_is_that_integer():
    fifty = dpcov.plan("analyze_gauss", 3, 50, 1.0, 1.0, 1e-6)
    for n in (50.0, np.int64(50), np.float64(50.0), np.uint8(50)):
        assert dpcov.plan("analyze_gauss", 3, n, 1.0, 1.0, 1e-6) == fifty
    with pytest.raises(ValueError, match="n of dpcov_mechanism_plan must be an integer"):
        dpcov.plan("analyze_gauss", 3, 50.5, 1.0, 1.0, 1e-6)


def test_every_double_parameter_refuses_a_bool_and_a_string():
    # float(epsilon) at a call site read epsilon=True as 1 and parsed "1e-6".
    checked = 0
    for name, (_, argtypes) in sorted(_lib.PROTOTYPES.items()):
        for k, t in enumerate(argtypes):
            if t is not c_double:
                continue
            for bad in (True, np.bool_(True), "1e-6", None, 1j):
                args = [0] * len(argtypes)
                args[k] = bad
                with pytest.raises(TypeError) as raised:
                    getattr(_lib.C, name)(*args)
                assert f"{_lib.PARAMETERS[name][k]} of {name} must be a number" in str(raised.value)
            checked += 1
    assert checked > 100


# Per field type: values refused (with the error and the words of the message), values taken
# and what they read. An integer field refuses one past either end of its type (ctypes stored it
# modulo 2^32 or 2^64), takes its largest value, a whole float, and a flag's bool.
WHOLE = [(0.5, ValueError, "an integer"), (float("inf"), ValueError, "an integer"),
         ("1", TypeError, "an integer")]
FIELD_CHECKS = {
    t: (WHOLE + [(hi + 1, dpcov.InvalidArgumentError, "fit"),
                 (lo - 1, dpcov.InvalidArgumentError, "fit")], [(hi, hi), (7.0, 7), (True, 1)])
    for t, (lo, hi) in LIMITS.items()
}
FIELD_CHECKS[c_double] = ([(True, TypeError, "a number"), ("0.5", TypeError, "a number")],
                          [(np.float32(0.5), 0.5)])


def test_every_number_field_of_a_struct_refuses_what_is_not_its_type():
    checked = 0
    for cls in _lib.STRUCTS.values():
        for field, t in cls._fields_:
            if t not in FIELD_CHECKS or field == "struct_size":
                continue
            refused, taken = FIELD_CHECKS[t]
            value = cls()
            for bad, kind, words in refused:
                with pytest.raises(kind, match=f"{field} must (be )?{words}"):
                    setattr(value, field, bad)
            for good, reads in taken:
                setattr(value, field, good)
                assert getattr(value, field) == reads
            checked += 1
    assert checked > 100
