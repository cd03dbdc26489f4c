"""Floating-point-safe ("exact numerics") Analyze Gauss and symmetric Laplace (dpcov/exact.h):
rows rounded to a 2^-k B grid, the exact integer Gram matrix, discrete Gaussian or discrete
Laplace noise from exact integer samplers; the guarantee holds for the values as computed."""

from __future__ import annotations

from ctypes import byref, c_double, c_void_p
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._handle import Handle
from ._lib import C, ExactGridC, GramInfoC, ReceiptC, _check, new_struct
from .mechanism import _charged, mechanism_params
from .ledger import active_accountant, charged_if_drawn
from .types import BoundPolicy, GramInfo, Receipt, StructView, enum_value, mechanism_id


class ExactGrid(StructView):
    """``dpcov_exact_grid``: bits (k), noise_law (1 discrete Gaussian, 2 discrete Laplace),
    unit (B 2^-k), norm2_bound (r2), noise_parameter (s2 or t, in grid units)."""

    __slots__ = ()


class ExactRelease(NamedTuple):
    """A released matrix, its receipt (numerics = exact) and its grid."""

    matrix: np.ndarray
    receipt: Receipt
    grid: ExactGrid


def exact_grid_value(bound: float, bits: int, value: float) -> float:
    """The value the coordinate ``value`` (``|value| <= bound``) holds once an exact release with
    norm bound ``bound`` has rounded it to its grid of ``bits`` bits (``dpcov_exact_grid_value``):
    what a constant column holds in every row, which centring and the intercept divide by."""
    out = c_double()
    _check(C.dpcov_exact_grid_value(bound, bits, value, byref(out)))
    return out.value


def exact_plan(mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
               **params) -> tuple[Receipt, ExactGrid]:
    """Every constant of an exact release, with no data and no randomness
    (``dpcov_exact_plan``): the receipt and the grid."""
    receipt = new_struct(ReceiptC)
    grid = new_struct(ExactGridC)
    p = mechanism_params(**params)
    _check(C.dpcov_exact_plan(mechanism_id(mechanism), dim, n, bound,
                              epsilon, delta, byref(p), byref(receipt),
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
                                          m.ptr, m.ld, bound,
                                          enum_value(BoundPolicy, policy), epsilon,
                                          delta, byref(p), rng, o.ptr, o.ld,
                                          byref(receipt), byref(grid)))
    return _charged(budget, ExactRelease(o.array, Receipt(receipt), ExactGrid(grid)))


class ExactGram(Handle):
    """The rows of an exact release as a stream (``dpcov_exact_gram``): each chunk bounded,
    rounded to the plan's grid and added to an exact integer Gram matrix, in O(d^2) memory
    whatever the number of rows; any chunking and any merge give the same integers, so
    :meth:`release` is :func:`exact_release_rows` of all the rows, bit for bit.

    Args:
        mechanism: ``"analyze_gauss"`` or ``"laplace_sym"``.
        dim: number of columns d.
        bound: the rows' norm bound B.
        epsilon, delta, params: the release's budget and options, as for :func:`exact_plan`.
        policy: ``"clip"`` (default) or ``"reject"``.
    """

    _destroy = staticmethod(C.dpcov_exact_gram_destroy)

    def __init__(self, mechanism, dim: int, bound: float, epsilon: float, delta: float,
                 policy="clip", **params):
        """Plan the release and create an empty accumulator (``dpcov_exact_gram_create``)."""
        p = mechanism_params(**params)
        handle = c_void_p()
        _check(C.dpcov_exact_gram_create(byref(handle), mechanism_id(mechanism), dim,
                                         bound, enum_value(BoundPolicy, policy),
                                         epsilon, delta, byref(p)))
        super().__init__(handle)
        self._plan = (mechanism, _arrays.whole_number(dim, "dim"), float(bound), float(epsilon),
                      float(delta), params)

    def add_rows(self, a) -> "ExactGram":
        """Add the rows of the 2-D array ``a`` (read in place; ``dpcov_exact_gram_add_rows``).
        On any error the accumulator is exactly as it was. Returns ``self``."""
        m = _arrays.matrix(a, "a")
        _check(C.dpcov_exact_gram_add_rows(self, m.layout, m.rows, m.cols, m.ptr, m.ld))
        return self

    def merge(self, other: "ExactGram") -> "ExactGram":
        """Add everything ``other`` (an accumulator of the same grid) accumulated
        (``dpcov_exact_gram_merge``); ``other`` is unchanged. Returns ``self``."""
        _check(C.dpcov_exact_gram_merge(self, other))
        return self

    def info(self) -> GramInfo:
        """The counters: dim, rows, clipped, bound (``dpcov_exact_gram_get_info``). The row count
        is the curator's: under add/remove neighbours it is private."""
        info = new_struct(GramInfoC)
        _check(C.dpcov_exact_gram_get_info(self, byref(info)))
        return GramInfo(info)

    def release(self, rng, order: str = "C") -> ExactRelease:
        """Release the mechanism from the rows added so far (``dpcov_exact_gram_release``), as a
        new d x d array in ``order`` ("C" or "F"; the matrix is exactly symmetric). ``rng`` is a
        :class:`~dpcov.Rng`, advanced on success only; each release spends the budget again."""
        mechanism, dim, bound, epsilon, delta, params = self._plan
        o = _arrays.empty(dim, dim, _arrays.order_layout(order))
        budget = active_accountant()
        planned = None
        if budget is not None:
            planned = exact_plan(mechanism, dim, self.info().rows, bound, epsilon, delta,
                                 **params)[0]
            budget.check(planned)
        receipt = new_struct(ReceiptC)
        grid = new_struct(ExactGridC)
        with charged_if_drawn(budget, planned, rng):
            _check(C.dpcov_exact_gram_release(self, rng, o.ptr, o.ld, byref(receipt), byref(grid)))
        return _charged(budget, ExactRelease(o.array, Receipt(receipt), ExactGrid(grid)))
