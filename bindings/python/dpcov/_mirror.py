"""The ctypes building blocks of the generated mirrors (``_generated.py``): a struct base that
range-checks integers and the argument type of a pointer to numbers."""

from __future__ import annotations

from ctypes import POINTER, Structure, c_int32, c_int64, c_void_p

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT_RANGES = {c_int32: ("int32_t", -(1 << 31), (1 << 31) - 1),
              c_int64: ("int64_t", INT64_MIN, INT64_MAX)}


class Struct(Structure):
    """A C struct mirror whose ``int32_t`` and ``int64_t`` fields refuse, with
    :class:`~dpcov.errors.InvalidArgumentError`, a Python int they cannot hold: ctypes stored it
    reduced modulo 2^32 or 2^64 (``mechanism_options={"projection_rows": 2**64 + 5}`` became 5)."""

    def __setattr__(self, name, value):
        """Set field ``name``, checking an int against the field's C type first."""
        if isinstance(value, int):
            for field, ctype in self._fields_:
                if field == name and ctype in INT_RANGES:
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
