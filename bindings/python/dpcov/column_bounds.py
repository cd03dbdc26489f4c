"""Public per-column bounds in the user's units (``dpcov/column_bounds.h``).

Each column j is mapped from its public range [lower_j, upper_j] to [-1, 1] (values outside are
clamped, and counted for the curator), and a constant 1 is put in front: the scaled rows
[1, z] have norm at most :func:`norm_bound` whatever the data, so no row is ever clipped. The
released (d + 1) x (d + 1) second moment maps back to that of [1, x] in the user's units with
:func:`transform` (post-processing: no privacy cost); see proofs/column_bounds.md.
"""

from __future__ import annotations

from ctypes import byref, c_double, c_int64

import numpy as np

from . import _arrays
from ._generated import Units
from ._lib import C, _check

__all__ = ["UNITS", "norm_bound", "scale_rows", "transform"]

UNITS = {m.name.lower(): int(m) for m in Units}
"""``units`` of :func:`transform`: the user's units or the scaled rows' (``dpcov_units``)."""


def _ranges(lower, upper, cols: int | None = None):
    """The bounds as two contiguous float64 vectors of one length."""
    lo = _arrays.vector(np.atleast_1d(_arrays.real_array(lower, "lower", 1)), "lower", cols)
    hi = _arrays.vector(np.atleast_1d(_arrays.real_array(upper, "upper", 1)), "upper",
                        lo.shape[0])
    return lo, hi


def norm_bound(cols: int) -> float:
    """B of the scaled rows of ``cols`` data columns: sqrt(cols + 1) raised by a few
    ulps so that no scaled row is ever clipped (``dpcov_column_bounds_norm_bound``)."""
    out = c_double()
    _check(C.dpcov_column_bounds_norm_bound(cols, byref(out)))
    return out.value


def scale_rows(a, lower, upper):
    """The rows [1, z] of the 2-D array ``a`` (n x d, read in place) scaled into the box by the
    ranges [lower_j, upper_j] (``dpcov_column_bounds_scale_rows``). Returns ``(scaled, clamped)``:
    an n x (d + 1) array in ``a``'s order and the number of values that were outside their range
    (for the curator; never for publication)."""
    m = _arrays.matrix(a, "a")
    lo, hi = _ranges(lower, upper, m.cols)
    out = _arrays.empty(m.rows, m.cols + 1, m.layout)
    clamped = c_int64()
    _check(C.dpcov_column_bounds_scale_rows(m.layout, m.rows, m.cols, m.ptr, m.ld,
                                            _arrays.ptr(lo), _arrays.ptr(hi), out.ptr, out.ld,
                                            byref(clamped)))
    return out.array, clamped.value


def transform(matrix, lower, upper, units: str = "user"):
    """The (d + 1) x (d + 1) second moment ``matrix`` mapped to ``units``: ``"user"`` (from the
    scaled rows [1, z] to [1, x] in the columns' own units) or ``"scaled"`` (back)
    (``dpcov_column_bounds_transform``). Returns a new array."""
    if units not in UNITS:
        raise ValueError(f"units must be 'user' or 'scaled', got {units!r}")
    s = _arrays.square(matrix, "matrix")
    lo, hi = _ranges(lower, upper)
    out = _arrays.empty(s.rows, s.cols, s.layout)
    _check(C.dpcov_column_bounds_transform(lo.shape[0], _arrays.ptr(lo), _arrays.ptr(hi),
                                           UNITS[units], s.layout, s.ptr, s.ld, out.ptr, out.ld))
    return out.array
