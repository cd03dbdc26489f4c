"""A release planned once and kept by the library (dpcov/plan.h): its receipt and grid are read
from it, an accumulator is made for it and the release draws with its constants as computed, so
each calibration (the analytic Gaussian sigma, the exact grid search) runs once per release."""

from __future__ import annotations

from ctypes import byref, c_void_p

from . import _arrays
from ._handle import Handle
from ._lib import C, ExactGridC, ReceiptC, _check, new_struct
from .exact import ExactGrid
from .gram import GramAccumulator, _row_bounding
from .ledger import active_accountant, charged_if_drawn
from .mechanism import Release, _charged, mechanism_params, output_like
from .types import Receipt, mechanism_id


class Plan(Handle):
    """The plan of one release of a Gram-input ``mechanism`` for ``dim`` columns and ``n`` rows
    (0: counted at the release) of norm <= ``bound`` (``dpcov_plan_create``), with exact numerics
    (``"analyze_gauss"``, ``"laplace_sym"``) or ``exact=False`` for idealized ones."""

    _destroy = staticmethod(C.dpcov_plan_destroy)

    def __init__(self, mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
                 exact: bool = True, **params):
        """Plan the release now: it fails here, before any row is read, if it cannot happen."""
        handle = c_void_p()
        p = mechanism_params(**params)
        _check(C.dpcov_plan_create(byref(handle), mechanism_id(mechanism), 1 if exact else 0,
                                   dim, n, bound, epsilon, delta,
                                   byref(p)))
        super().__init__(handle)

    def at_bound(self, bound: float) -> "Plan":
        """The same release at another bound (``dpcov_plan_create_at_bound``): exact numerics
        keep the grid, which does not depend on the bound."""
        handle = c_void_p()
        _check(C.dpcov_plan_create_at_bound(byref(handle), self, bound))
        obj = Plan.__new__(Plan)
        Handle.__init__(obj, handle)
        return obj

    def receipt(self) -> Receipt:
        """Every constant the release will use (``dpcov_plan_get_receipt``)."""
        receipt = new_struct(ReceiptC)
        _check(C.dpcov_plan_get_receipt(self, byref(receipt)))
        return Receipt(receipt)

    def exact_grid(self) -> ExactGrid:
        """The grid of a plan with exact numerics (``dpcov_plan_get_exact_grid``)."""
        grid = new_struct(ExactGridC)
        _check(C.dpcov_plan_get_exact_grid(self, byref(grid)))
        return ExactGrid(grid)

    def accumulator(self, cols: int, bound: float = 1.0, policy="clip", constant: float = 0.0,
                    lower=None, upper=None, label_bound: float = 0.0) -> GramAccumulator:
        """:meth:`GramAccumulator.bounded` for this release (``dpcov_gram_create_planned``): the
        bounding as given, the release's fields and, with exact numerics, the grid the plan's."""
        spec, keep = _row_bounding(cols, bound, policy, "replace_one", constant, lower, upper,
                                   label_bound)
        handle = c_void_p()
        _check(C.dpcov_gram_create_planned(byref(handle), cols, byref(spec), self))
        del keep
        gram = GramAccumulator._adopt(handle)
        if gram.exact:
            grid, info = self.exact_grid(), gram.info()
            gram._grid = (grid.bits, grid.unit, info.bound)
        return gram

    def release(self, gram: GramAccumulator, rng, order: str = "C") -> Release:
        """Release ``gram`` (made by :meth:`accumulator`) with this plan's constants
        (``dpcov_plan_release_gram``), charged to the active accountant, if any."""
        dim = gram.info().dim if not gram.closed else 1
        o = _arrays.empty(dim, dim, _arrays.order_layout(order))
        return self._charged_release(rng, o, lambda receipt: C.dpcov_plan_release_gram(
            self, gram, rng, o.layout, o.ptr, o.ld, receipt))

    def release_matrix(self, gram, rng, out=None) -> Release:
        """Release the symmetric d x d statistic ``gram`` of the plan's n rows with this plan's
        constants (``dpcov_plan_release_matrix``; a plan with ``exact=False`` and n >= 1),
        charged to the active accountant, if any. ``gram`` and ``out`` as for
        :func:`dpcov.mechanism.release`."""
        g = _arrays.square(gram, "gram")
        o = output_like(g, out)
        return self._charged_release(rng, o, lambda receipt: C.dpcov_plan_release_matrix(
            self, g.layout, g.rows, g.ptr, g.ld, rng, o.ptr, o.ld, receipt))

    def _charged_release(self, rng, o, call) -> Release:
        """``call(receipt)``, the C release into ``o``, after the active accountant, if any,
        has checked this plan's receipt; charged once drawn."""
        budget, planned = active_accountant(), None
        if budget is not None:
            planned = self.receipt()
            budget.check(planned)
        receipt = new_struct(ReceiptC)
        with charged_if_drawn(budget, planned, rng):
            _check(call(byref(receipt)))
        return _charged(budget, Release(o.array, Receipt(receipt)))
