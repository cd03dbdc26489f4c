"""The mean and centred covariance from a released second moment with a constant column
(``dpcov/centring.h``): post-processing of one release, no privacy cost (proofs/centring.md)."""

from __future__ import annotations

from ctypes import byref, c_double

import numpy as np

from . import _arrays
from ._lib import C, _check

__all__ = ["centre_second_moment"]


def centre_second_moment(matrix, constant_column: int = 0, constant: float = 1.0, n: int = 0):
    """``(mean, covariance, count)`` from the (d + 1) x (d + 1) second moment ``matrix`` of rows
    that held ``constant`` in column ``constant_column`` (``dpcov_centre_second_moment``).

    ``n`` is the number of rows when it is public (replace-one), or 0 to take the count from the
    release (S_cc / c^2; under add/remove n is private). The covariance is 1/n, exactly
    symmetric and not projected onto the PSD cone; mean and covariance cover the other columns in
    their order. Raises PreconditionError when the released count is below 1.
    """
    s = _arrays.square(matrix, "matrix")
    d = s.rows - 1
    mean = np.empty(max(d, 0))
    cov = _arrays.empty(max(d, 0), max(d, 0), s.layout)
    count = c_double()
    column = _arrays.whole_number(constant_column, "constant_column")
    rows = _arrays.whole_number(n, "n")
    _check(C.dpcov_centre_second_moment(s.layout, s.rows, s.ptr, s.ld, column, constant,
                                        rows, _arrays.ptr(mean), cov.ptr, max(cov.ld, 1),
                                        byref(count)))
    return mean, cov.array, count.value
