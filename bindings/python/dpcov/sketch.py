"""Sketch accumulator for Sheffet's Johnson-Lindenstrauss mechanisms (dpcov/sketch.h)."""

from __future__ import annotations

from ctypes import byref, c_void_p
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._handle import Handle
from ._lib import C, GramInfoC, ReceiptC, _check, new_struct
from .ledger import active_accountant, charged_if_drawn
from .mechanism import mechanism_params, plan
from .types import BoundPolicy, GramInfo, Receipt, enum_value, mechanism_id


class SketchRelease(NamedTuple):
    """A JL release: S^T S / r, the released sketch S (or None if not requested), the receipt."""

    matrix: np.ndarray
    sketch: np.ndarray | None
    receipt: Receipt


class Sketch(Handle):
    """S = R [A; w I] over a stream of bounded rows (``dpcov_sketch``). R comes from the
    sketch's own key, drawn from ``rng`` (which advances: two sketches never share R); its column
    for data row i from the key's substream i, so the sketch does not depend on how rows are split
    across chunks (:meth:`partial`). The raw sketch is NOT private; only :meth:`release` is.

    Args:
        dim: d >= 1.
        projection_rows: r >= 1.
        rng: the :class:`~dpcov.Rng` the sketch's key is drawn from. Use an OS-entropy generator
            for private releases.
    """

    _destroy = staticmethod(C.dpcov_sketch_destroy)

    def __init__(self, dim: int, projection_rows: int, rng):
        """Create an empty sketch (``dpcov_sketch_create``)."""
        handle = c_void_p()
        _check(C.dpcov_sketch_create(byref(handle), dim, projection_rows, rng))
        super().__init__(handle)
        self.projection_rows = int(projection_rows)

    @classmethod
    def _wrap(cls, handle, projection_rows: int) -> "Sketch":
        obj = cls.__new__(cls)
        Handle.__init__(obj, handle)
        obj.projection_rows = int(projection_rows)
        return obj

    @classmethod
    def from_state(cls, rng, projection_rows: int, gram, data_sketch) -> "Sketch":
        """A sketch holding a state summed elsewhere (``dpcov_sketch_create_from_state``): the
        data sketch R_A A (r x d, :meth:`get` with w = 0) summed over partial sketches with
        distinct global row indices and the :class:`~dpcov.GramAccumulator` of the same rows; the
        weights of its w I block from a key drawn from ``rng``. Rows cannot be added to it."""
        s = _arrays.matrix(data_sketch, "data_sketch")
        handle = c_void_p()
        _check(C.dpcov_sketch_create_from_state(byref(handle), rng, projection_rows, gram,
                                                s.layout, s.ptr, s.ld))
        return cls._wrap(handle, projection_rows)

    def partial(self) -> "Sketch":
        """An empty sketch with this one's shape and weights (``dpcov_sketch_create_partial``):
        for rows of the same release accumulated elsewhere, added back with :meth:`merge`."""
        handle = c_void_p()
        _check(C.dpcov_sketch_create_partial(byref(handle), self))
        return type(self)._wrap(handle, self.projection_rows)

    def gram_matrix(self, order: str = "C") -> np.ndarray:
        """The Gram matrix of the accumulated rows, kept alongside the sketch
        (``dpcov_sketch_get_gram``)."""
        dim = self.info().dim if not self.closed else 1
        out = _arrays.empty(dim, dim, _arrays.order_layout(order))
        _check(C.dpcov_sketch_get_gram(self, out.layout, out.ptr, out.ld))
        return out.array

    def add_rows(self, a, first_index: int, bound: float, policy="clip") -> "Sketch":
        """Add the rows of ``a`` whose global indices are first_index, first_index + 1, ...
        (``dpcov_sketch_add_rows``); each index may be used once. Returns ``self``."""
        m = _arrays.matrix(a, "a")
        _check(C.dpcov_sketch_add_rows(self, m.layout, m.rows, m.cols, m.ptr, m.ld,
                                       first_index, bound,
                                       enum_value(BoundPolicy, policy)))
        return self

    def merge(self, other: "Sketch") -> "Sketch":
        """Add ``other`` (a :meth:`partial` of this sketch or of the same one: same key, d, r;
        disjoint row indices) into this sketch (``dpcov_sketch_merge``). Returns ``self``."""
        _check(C.dpcov_sketch_merge(self, other))
        return self

    def info(self) -> GramInfo:
        """Counters of the rows accumulated (``dpcov_sketch_get_info``)."""
        info = new_struct(GramInfoC)
        _check(C.dpcov_sketch_get_info(self, byref(info)))
        return GramInfo(info)

    def get(self, w: float, order: str = "C") -> np.ndarray:
        """The raw r x d sketch R [A; w I] for a chosen w >= 0 (``dpcov_sketch_get``). NOT
        private by itself."""
        dim = self.info().dim if not self.closed else 1
        out = _arrays.empty(self.projection_rows, dim, _arrays.order_layout(order))
        _check(C.dpcov_sketch_get(self, w, out.layout, out.ptr, out.ld))
        return out.array

    def release(self, mechanism, epsilon: float, delta: float, rng, order: str = "C",
                want_sketch: bool = False, **params) -> SketchRelease:
        """Release ``jl_ridge``, ``jl_ridge_sigma_min`` or ``ols_jl`` from the accumulated rows
        (``dpcov_sketch_release``); ``projection_rows`` defaults to this sketch's r. ``rng``
        draws the private test's noise, consumed even when the test refuses: an active
        :class:`~dpcov.BudgetAccountant` checks the plan before anything is drawn and is charged
        after the release or a refusal (:func:`~dpcov.ledger.charged_if_drawn`), not for a bad
        argument."""
        params.setdefault("projection_rows", self.projection_rows)
        budget = active_accountant()
        planned = None
        if budget is not None:
            info = self.info()
            planned = plan(mechanism, info.dim, info.rows, info.bound or 1.0, epsilon, delta,
                           **params)
            budget.check(planned)
        dim = self.info().dim if not self.closed else 1
        layout = _arrays.order_layout(order)
        out = _arrays.empty(dim, dim, layout)
        sk = _arrays.empty(self.projection_rows, dim, layout) if want_sketch else None
        p = mechanism_params(**params)
        receipt = new_struct(ReceiptC)
        with charged_if_drawn(budget, planned, rng):
            _check(C.dpcov_sketch_release(mechanism_id(mechanism), self, epsilon,
                                          delta, byref(p), rng, layout,
                                          sk.ptr if sk else None, sk.ld if sk else 1, out.ptr,
                                          out.ld, byref(receipt)))
        release = SketchRelease(out.array, sk.array if sk else None, Receipt(receipt))
        if budget is not None:
            budget.charge(release.receipt)
        return release
