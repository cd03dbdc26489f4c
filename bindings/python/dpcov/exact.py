"""Floating-point-safe ("exact numerics") Analyze Gauss and symmetric Laplace (dpcov/exact.h):
rows rounded to a 2^-k B grid, the exact integer Gram matrix, discrete Gaussian or discrete
Laplace noise from exact integer samplers; the guarantee holds for the values as computed."""

from __future__ import annotations

from ctypes import byref
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import C, ExactGridC, ReceiptC, _check, new_struct
from .mechanism import _charged, mechanism_params
from .ledger import active_accountant, charged_if_drawn
from .types import BoundPolicy, Receipt, StructView, enum_value, mechanism_id


class ExactGrid(StructView):
    """``dpcov_exact_grid``: bits (k), noise_law (1 discrete Gaussian, 2 discrete Laplace),
    unit (B 2^-k), norm2_bound (r2), noise_parameter (s2 or t, in grid units)."""

    __slots__ = ()


class ExactRelease(NamedTuple):
    """A released matrix, its receipt (numerics = exact) and its grid."""

    matrix: np.ndarray
    receipt: Receipt
    grid: ExactGrid


def exact_plan(mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
               **params) -> tuple[Receipt, ExactGrid]:
    """Every constant of an exact release, with no data and no randomness
    (``dpcov_exact_plan``): the receipt and the grid."""
    receipt = new_struct(ReceiptC)
    grid = new_struct(ExactGridC)
    p = mechanism_params(**params)
    _check(C.dpcov_exact_plan(mechanism_id(mechanism), int(dim), int(n), float(bound),
                              float(epsilon), float(delta), byref(p), byref(receipt),
                              byref(grid)))
    return Receipt(receipt), ExactGrid(grid)


def exact_release_rows(mechanism, a, bound: float, epsilon: float, delta: float, rng,
                       policy="clip", **params) -> ExactRelease:
    """Release ``mechanism`` (``"analyze_gauss"`` or ``"laplace_sym"``) with exact numerics
    from the rows of the 2-D array ``a`` (read in place), as a new d x d array in the storage
    order of ``a`` (``dpcov_exact_release_rows``). ``policy`` is ``"clip"`` or ``"reject"``. ``rng`` is a
    :class:`~dpcov.Rng`, advanced on success only."""
    m = _arrays.matrix(a, "a")
    o = _arrays.empty(m.cols, m.cols, m.layout)
    p = mechanism_params(**params)
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = exact_plan(mechanism, m.cols, m.rows, bound, epsilon, delta, **params)[0]
        budget.check(planned)
    receipt = new_struct(ReceiptC)
    grid = new_struct(ExactGridC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_exact_release_rows(mechanism_id(mechanism), m.layout, m.rows, m.cols,
                                          m.ptr, m.ld, float(bound),
                                          enum_value(BoundPolicy, policy), float(epsilon),
                                          float(delta), byref(p), rng, o.ptr, o.ld,
                                          byref(receipt), byref(grid)))
    return _charged(budget, ExactRelease(o.array, Receipt(receipt), ExactGrid(grid)))
