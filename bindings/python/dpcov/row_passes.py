"""Dong-Liang-Yi, CoinPress and CoinPress mean as passes over rows held elsewhere
(dpcov/row_passes.h): a :class:`RowSession` on the driver holds the generator and asks for
passes; any process fills a :class:`RowPartial` of the pending pass from its rows and sends back
its bytes; the merged partial of all n rows finishes the pass. ``dpcov.dask`` runs the passes as
Dask reductions."""

from __future__ import annotations

from ctypes import byref, c_int32, c_size_t, c_void_p, create_string_buffer

import numpy as np

from . import _arrays
from ._handle import Handle
from ._lib import (C, CoinpressMeanReceiptC, CoinpressReceiptC, DlyReceiptC, _check,
                   new_struct)
from .coinpress import CoinpressMeanRelease, CoinpressRelease
from .coinpress import _params as _coinpress_params
from .coinpress import _mean_params as _coinpress_mean_params
from .coinpress import _mean_receipt as _coinpress_mean_receipt
from .coinpress import _receipt as _coinpress_receipt
from .dong_liang_yi import DlyRelease
from .dong_liang_yi import _params as _dly_params
from .dong_liang_yi import _receipt as _dly_receipt
from .ledger import active_accountant


class RowPartial(Handle):
    """The sums of one pass over some rows (``dpcov_row_partial_*``): O(d^2) numbers whatever the
    number of rows. The curator's, not a release: move it only inside the rows' trust boundary."""

    _destroy = staticmethod(C.dpcov_row_partial_destroy)

    def add_rows(self, rows) -> "RowPartial":
        """Add the pass's function of each of the n x d ``rows`` (any storage order)."""
        x = _arrays.matrix(rows, "rows")
        _check(C.dpcov_row_partial_add_rows(self, x.layout, x.rows, x.cols, x.ptr, x.ld))
        return self

    def merge(self, other: "RowPartial") -> "RowPartial":
        """Add the sums of ``other``, a partial of the same pass."""
        _check(C.dpcov_row_partial_merge(self, other))
        return self

    def to_bytes(self) -> bytes:
        """The partial, its pass included, as versioned checksummed bytes
        (``dpcov_row_partial_export``)."""
        size = c_size_t()
        _check(C.dpcov_row_partial_export(self, None, 0, byref(size)))
        buf = create_string_buffer(size.value)
        _check(C.dpcov_row_partial_export(self, buf, size.value, byref(size)))
        return buf.raw[: size.value]

    @classmethod
    def from_bytes(cls, data: bytes) -> "RowPartial":
        """The partial :meth:`to_bytes` wrote, here or in another process
        (``dpcov_row_partial_import``)."""
        handle = c_void_p()
        _check(C.dpcov_row_partial_import(byref(handle), data, len(data)))
        return cls(handle)


def _check_budget(plan: dict) -> None:
    """Refuse, before the session takes the generator, a release the active accountant cannot
    afford."""
    budget = active_accountant()
    if budget is not None:
        budget.check(plan)


class RowSession(Handle):
    """A release as passes over rows (``dpcov_dly_session_create``,
    ``dpcov_coinpress_session_create``, and the CoinPress mean and centred sessions). The session takes the generator: ``rng`` is closed
    once the session exists, so that nothing else draws the noise it spends. An active
    :class:`~dpcov.BudgetAccountant` is checked with the plan before that."""

    _destroy = staticmethod(C.dpcov_row_session_destroy)

    def __init__(self, handle, kind: str, plan: dict):
        super().__init__(handle)
        self._kind = kind
        self.plan = plan

    @classmethod
    def dly(cls, n: int, dim: int, rng, variant: str = "adaptive", rho=None, radius=None,
            beta=None, delta=None) -> "RowSession":
        """A Dong-Liang-Yi release of ``n`` rows of dimension ``dim``, the settings of
        :func:`dpcov.dly_release`."""
        from .dong_liang_yi import dly_plan

        p = _dly_params(variant, rho, radius, beta, delta)
        plan = dly_plan(n, dim, variant, rho, radius, beta, delta)
        _check_budget(plan)
        handle = c_void_p()
        _check(C.dpcov_dly_session_create(byref(handle), n, dim, byref(p),
                                          byref(rng._ptr)))
        return cls(handle, "dly", plan)

    @classmethod
    def coinpress(cls, n: int, dim: int, rng, k_bound: float, rho=None, steps=None, beta=None,
                  delta=None) -> "RowSession":
        """A CoinPress covariance release, the settings of :func:`dpcov.coinpress_release`."""
        from .coinpress import coinpress_plan

        p = _coinpress_params(k_bound, rho, steps, beta, delta)
        plan = coinpress_plan(n, dim, k_bound, rho, steps, beta, delta)
        _check_budget(plan)
        handle = c_void_p()
        _check(C.dpcov_coinpress_session_create(byref(handle), n, dim, byref(p),
                                                byref(rng._ptr)))
        return cls(handle, "coinpress", plan)

    @classmethod
    def coinpress_mean(cls, n: int, dim: int, rng, radius: float, centre=None, rho=None,
                       scale=None, steps=None, beta=None, delta=None) -> "RowSession":
        """A CoinPress mean release, the settings of :func:`dpcov.coinpress_mean_release`
        (``dpcov_coinpress_mean_session_create``)."""
        from .coinpress import coinpress_mean_plan

        p = _coinpress_mean_params(radius, rho, scale, steps, beta, delta)
        c = None if centre is None else _arrays.vector(centre, "centre", int(dim))
        plan = coinpress_mean_plan(n, dim, radius, rho, scale, steps, beta, delta)
        _check_budget(plan)
        handle = c_void_p()
        _check(C.dpcov_coinpress_mean_session_create(byref(handle), n, dim,
                                                     _arrays.ptr(c), byref(p), byref(rng._ptr)))
        return cls(handle, "coinpress_mean", plan)

    @classmethod
    def coinpress_centred(cls, mean_session: "RowSession", k_bound: float, rho=None, steps=None,
                          beta=None, delta=None) -> "RowSession":
        """A CoinPress covariance release of the rows centred on the private mean that the done
        ``mean_session`` released, each row centred by the library as it is added
        (``dpcov_coinpress_centred_session_create``): the settings of
        :func:`dpcov.coinpress_release`, ``rho`` the covariance's share
        (:func:`dpcov.coinpress_centring_split`). It takes over the mean session's generator,
        which hands it on once only; n and d are the mean session's."""
        from .coinpress import coinpress_plan

        if mean_session._kind != "coinpress_mean":
            raise ValueError("coinpress_centred needs a CoinPress mean session")
        n, d = int(mean_session.plan["n"]), int(mean_session.plan["dim"])
        p = _coinpress_params(k_bound, rho, steps, beta, delta)
        plan = coinpress_plan(n, d, k_bound, rho, steps, beta, delta)
        _check_budget(plan)
        handle = c_void_p()
        _check(C.dpcov_coinpress_centred_session_create(byref(handle), mean_session, byref(p)))
        return cls(handle, "coinpress", plan)

    @property
    def done(self) -> bool:
        """Whether the release is complete (``dpcov_row_session_done``)."""
        flag = c_int32()
        _check(C.dpcov_row_session_done(self, byref(flag)))
        return bool(flag.value)

    def partial(self) -> RowPartial:
        """An empty partial of the pending pass (``dpcov_row_partial_create``): its bytes hand the
        pass to the processes that hold rows."""
        handle = c_void_p()
        _check(C.dpcov_row_partial_create(byref(handle), self))
        return RowPartial(handle)

    def finish_pass(self, merged: RowPartial) -> None:
        """Finish the pending pass with the merged partial of all n rows, which is consumed
        (``dpcov_row_session_finish_pass``)."""
        _check(C.dpcov_row_session_finish_pass(self, byref(merged._ptr)))

    def result(self):
        """The release of a complete session: a :class:`dpcov.DlyRelease`,
        :class:`dpcov.CoinpressRelease` or :class:`dpcov.CoinpressMeanRelease`."""
        d = int(self.plan["dim"])
        if self._kind == "coinpress_mean":
            mean = np.empty(d)
            receipt = new_struct(CoinpressMeanReceiptC)
            _check(C.dpcov_coinpress_mean_session_result(self, _arrays.ptr(mean),
                                                         byref(receipt)))
            return CoinpressMeanRelease(mean, _coinpress_mean_receipt(receipt))
        out = _arrays.empty(d, d, _arrays.ROW_MAJOR)
        if self._kind == "dly":
            receipt = new_struct(DlyReceiptC)
            _check(C.dpcov_dly_session_result(self, out.layout, out.ptr, out.ld, byref(receipt)))
            return DlyRelease(out.array, _dly_receipt(receipt))
        receipt = new_struct(CoinpressReceiptC)
        _check(C.dpcov_coinpress_session_result(self, out.layout, out.ptr, out.ld,
                                                byref(receipt)))
        return CoinpressRelease(out.array, _coinpress_receipt(receipt))


def run_passes(session: RowSession, sums_of_pass) -> object:
    """Run every pass of ``session``: ``sums_of_pass(spec)`` gets the bytes of an empty partial
    of the pending pass and returns the bytes of the merged partial of all the rows. Returns the
    session's result. An active :class:`~dpcov.BudgetAccountant` is checked with the plan before
    the first pass and charged once: with the receipt, or with the plan when a pass fails after
    the first draw (noise once drawn is consumed)."""
    budget = active_accountant()
    if budget is not None:
        budget.check(session.plan)
    drew = False
    try:
        while not session.done:
            with session.partial() as empty:
                spec = empty.to_bytes()
            merged = RowPartial.from_bytes(sums_of_pass(spec))
            drew = True
            session.finish_pass(merged)
        release = session.result()
    except BaseException:
        if budget is not None and drew:
            budget.charge(session.plan)
        raise
    if budget is not None:
        budget.charge(release.receipt)
    return release
