"""The ctypes building blocks of the generated mirrors (``_generated.py``): a struct base that
range-checks integers and the argument type of a pointer to numbers."""

from __future__ import annotations

import math
import numbers
from ctypes import POINTER, Structure, c_double, c_int32, c_int64, c_void_p

import numpy as np

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT_RANGES = {c_int32: ("int32_t", -(1 << 31), (1 << 31) - 1),
              c_int64: ("int64_t", INT64_MIN, INT64_MAX)}


def whole(value, what: str, flags: bool = False) -> int:
    """``value`` for an ``int32_t`` or ``int64_t``: an int or NumPy integer as it is, a float
    with no fraction (``n=1e4``) as that int; a fraction, NaN or a non-number is refused, naming
    ``what``, rather than truncated (``int(2.7)`` is 2). A bool is refused too unless ``flags``
    (a struct field may be a yes/no switch; an argument of a function never is one here)."""
    if isinstance(value, (bool, np.bool_)):
        if flags:
            return int(value)
        raise TypeError(f"{what} must be an integer, got {value!r}")
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be an integer, got {type(value).__name__} {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if not math.isfinite(value) or not float(value).is_integer():
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return int(value)


def real(value, what: str) -> float:
    """``value`` for a ``double``: any real number (an int, a float, a NumPy number) as a float;
    a bool or a string is refused, naming ``what``, rather than read as 1.0 (``epsilon=True``)
    or parsed (``float("1")``). NaN and infinities pass: the library refuses them where they do
    not belong, and says which."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


class Struct(Structure):
    """A C struct mirror whose ``int32_t`` and ``int64_t`` fields refuse a fraction or a
    non-number (``whole``; a bool is a flag's 0 or 1) and, with
    :class:`~dpcov.errors.InvalidArgumentError`, an int they cannot hold: ctypes stored it
    reduced modulo 2^32 or 2^64 (``mechanism_options={"projection_rows": 2**64 + 5}`` became 5)."""

    def __setattr__(self, name, value):
        """Set field ``name``, checking a number against the field's C type first."""
        for field, ctype in self._fields_:
            if field == name and ctype is c_double:
                value = real(value, name)
            if field == name and ctype in INT_RANGES:
                value = whole(value, name, flags=True)
                cname, lo, hi = INT_RANGES[ctype]
                if not lo <= value <= hi:
                    # Imported here: errors imports the generated module, which imports this.
                    from .errors import Status, error_for
                    raise error_for(Status.INVALID_ARGUMENT, "DPCOV_E_INVALID_ARGUMENT",
                                    f"{name} must fit {cname}, got {value}")
        super().__setattr__(name, value)


class Address:
    """The argument type of a ``T *`` parameter (T a number type). An int is an address, passed
    as ``c_void_p`` without building a pointer object (what NumPy's ``array.ctypes.data`` gives);
    None is NULL; anything else must be a ctypes pointer, array or ``byref`` of T itself, so a
    ``byref(c_int32())`` given for an ``int64_t *`` is refused rather than half written."""

    def __init__(self, ctype):
        self.ctype = ctype
        self._pointer = POINTER(ctype)

    def from_param(self, value):
        """ctypes' conversion hook."""
        if value is None or type(value) is int:
            return c_void_p.from_param(value)
        return self._pointer.from_param(value)

    def __repr__(self):
        return f"Address({self.ctype.__name__})"
