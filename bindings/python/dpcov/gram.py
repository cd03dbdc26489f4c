"""The Gram accumulator (dpcov/gram.h): G = A^T A over a stream of norm-bounded rows."""

from __future__ import annotations

from ctypes import byref, c_void_p

from . import _arrays
from ._handle import Handle
from ._lib import C, GramInfoC, _check, new_struct
from .mechanism import release_gram
from .types import BoundPolicy, GramInfo, enum_value


class GramAccumulator(Handle):
    """Accumulates G = sum_i b(a_i) b(a_i)^T over chunks of rows (``dpcov_gram``).

    Each row is checked (NaN/Inf refused) and bounded in Euclidean norm by B under a
    :class:`~dpcov.types.BoundPolicy`; clipped and dropped rows are counted. Partial accumulators
    combine with :meth:`merge` (compensated sums: the result does not depend, beyond a few units
    in the last place, on how the rows were split). Memory is O(d^2) whatever the number of rows.

    Args:
        dim: number of columns d, 1 <= d <= 46340.
    """

    _destroy = staticmethod(C.dpcov_gram_destroy)

    def __init__(self, dim: int):
        """Create an empty accumulator (``dpcov_gram_create``)."""
        handle = c_void_p()
        _check(C.dpcov_gram_create(byref(handle), int(dim)))
        super().__init__(handle)

    @classmethod
    def from_state(cls, matrix, rows: int, bound: float, clipped: int = 0,
                   dropped: int = 0) -> "GramAccumulator":
        """An accumulator holding a state summed elsewhere (``dpcov_gram_create_from_state``):
        the d x d Gram matrix ``matrix`` (read in place, copied by the library) of ``rows``
        rows bounded by ``bound``, with the clipped and dropped counters. The sums of G and of
        the counters over accumulators with one bound are the state of their merge, so partial
        results from other processes or machines combine into one accumulator.

        The library checks what such a matrix satisfies (symmetric, finite, diagonal >= 0,
        trace <= rows B^2) but not where it came from: privacy rests on every row behind it
        having been bounded, as :meth:`add_rows` does.
        """
        g = _arrays.square(matrix, "matrix")
        info = new_struct(GramInfoC)
        info.dim = g.rows
        info.rows = int(rows)
        info.clipped = int(clipped)
        info.dropped = int(dropped)
        info.bound = float(bound)
        handle = c_void_p()
        _check(C.dpcov_gram_create_from_state(byref(handle), byref(info), g.layout, g.ptr, g.ld))
        return cls._adopt(handle)

    @classmethod
    def _adopt(cls, handle: c_void_p) -> "GramAccumulator":
        """An accumulator owning a handle created by a C function."""
        obj = cls.__new__(cls)
        Handle.__init__(obj, handle)
        return obj

    def state(self) -> dict:
        """The exported state: ``{"matrix", "rows", "clipped", "dropped", "bound"}``, plain data
        that :meth:`from_state` turns back into an accumulator and that sums across partitions."""
        info = self.info()
        return {"matrix": self.matrix(), "rows": info.rows, "clipped": info.clipped,
                "dropped": info.dropped, "bound": info.bound}

    def __reduce__(self):
        # Pickling (e.g. to move a partial accumulator between Dask worker processes) goes
        # through the exported state; an accumulator without rows has no bound yet and is
        # rebuilt empty.
        """Pickle through the exported state (see :meth:`state`)."""
        info = self.info()
        if info.rows == 0 and info.dropped == 0:
            return (GramAccumulator, (info.dim,))
        state = self.state()
        return (GramAccumulator.from_state, (state["matrix"], state["rows"], state["bound"],
                                             state["clipped"], state["dropped"]))

    def add_rows(self, a, bound: float, policy="clip") -> "GramAccumulator":
        """Add the rows of the 2-D array ``a`` (any row count, ``dim`` columns, row- or
        column-major, read in place) with norm bound ``bound`` (``dpcov_gram_add_rows``).

        ``policy`` is ``"clip"`` (default), ``"reject"`` or ``"drop"`` (or a
        :class:`~dpcov.types.BoundPolicy`). The whole chunk is validated first: on any error the
        accumulator is exactly as it was. Returns ``self``.
        """
        m = _arrays.matrix(a, "a")
        _check(C.dpcov_gram_add_rows(self, m.layout, m.rows, m.cols, m.ptr, m.ld, float(bound),
                                     enum_value(BoundPolicy, policy)))
        return self

    def merge(self, other: "GramAccumulator") -> "GramAccumulator":
        """Add everything ``other`` accumulated to this accumulator (``dpcov_gram_merge``);
        ``other`` is unchanged. Returns ``self``."""
        _check(C.dpcov_gram_merge(self, other))
        return self

    def matrix(self, order: str = "C"):
        """G as a new d x d array in ``order`` ("C" or "F"), exactly symmetric
        (``dpcov_gram_get_matrix``)."""
        info = self.info()
        out = _arrays.empty(info.dim, info.dim, _arrays.order_layout(order))
        _check(C.dpcov_gram_get_matrix(self, out.layout, out.ptr, out.ld))
        return out.array

    def info(self) -> GramInfo:
        """The counters: dim, rows, clipped, dropped, bound (``dpcov_gram_get_info``)."""
        info = new_struct(GramInfoC)
        _check(C.dpcov_gram_get_info(self, byref(info)))
        return GramInfo(info)

    @property
    def dim(self) -> int:
        """Number of columns d."""
        return self.info().dim

    @property
    def rows(self) -> int:
        """Rows included in G (clipped included, dropped not)."""
        return self.info().rows

    def release(self, mechanism, epsilon: float, delta: float, rng, order: str = "C",
                **params):
        """Release ``mechanism`` applied to this accumulator's G; see
        :func:`dpcov.mechanism.release_gram`."""
        return release_gram(mechanism, self, epsilon, delta, rng, order=order, **params)
