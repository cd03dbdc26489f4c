"""Privacy units for the zCDP row mechanisms (Dong-Liang-Yi, CoinPress, CoinPress mean), private
under replace-one with n public (proofs/unit_group_privacy.md, "Row mechanisms"): every unit keeps
exactly k rows, a uniformly random k of its rows drawn with the release's generator or all of them
and zero rows up to k, so n = k U is public and a unit's rows all replaced is k rows replaced; the
mechanism runs at rho / k^2 (``dpcov_unit_row_rho``). The rows are in memory, so the k rows are
chosen once, before the mechanism's passes."""

from __future__ import annotations

from ctypes import byref, c_int64

import numpy as np

from . import _arrays
from ._lib import C, _check
from .coinpress import zcdp_epsilon
from .gram import unit_ids
from .ledger import ZcdpCharge, _active, active_accountant, charged_if_drawn
from .unit_budget import unit_row_rho


def keep_unit_rows(rows, privacy_unit, max_rows_per_unit: int, rng) -> tuple[np.ndarray, int]:
    """The k U rows the units of ``privacy_unit`` (one id per row, of any hashable type) keep,
    units in order of first appearance, and U: the rows grouped by a stable sort, then one call
    of the library's policy (``dpcov_unit_rows_keep``), the command line's too."""
    x = np.asarray(rows, dtype=float)
    order, ids = unit_ids(privacy_unit)
    if x.ndim != 2 or len(ids) != x.shape[0]:
        raise ValueError("privacy_unit must hold one id per row of the 2-d rows")
    _arrays.refuse_non_finite_rows(x)
    units = int(ids[-1]) + 1 if len(ids) else 0
    k = int(max_rows_per_unit)
    m = _arrays.matrix(np.ascontiguousarray(x[order]), "rows", layout=_arrays.ROW_MAJOR)
    out = _arrays.empty(units * k if k > 0 else 0, x.shape[1], _arrays.ROW_MAJOR)
    truncated = c_int64()
    _check(C.dpcov_unit_rows_keep(rng, k, m.layout, m.rows, m.cols, m.ptr, m.ld,
                                  _arrays.ptr(ids), out.ptr, out.array.shape[0], out.ld,
                                  byref(truncated)))
    return out.array, units


def zcdp_unit_release(release, rows, privacy_unit, max_rows_per_unit: int, rng, rho: float,
                      delta: float, **settings):
    """``release`` (:func:`dpcov.dly_release`, :func:`dpcov.coinpress_release` or
    :func:`dpcov.coinpress_mean_release`) of the rows the units keep, at rho / k^2, rho-zCDP for
    units of at most ``max_rows_per_unit`` rows under replace-one. An active
    :class:`~dpcov.BudgetAccountant` is checked and charged the unit-level rho (the release inside
    is not charged its row-level one). The receipt states the unit-level rho and epsilon and
    ``privacy_unit`` (k and the row-level rho)."""
    row_rho = unit_row_rho("replace_one", "replace_one", max_rows_per_unit, rho)
    charge = ZcdpCharge(float(rho), zcdp_epsilon(rho, delta), float(delta))
    budget = active_accountant()
    if budget is not None:
        budget.check(charge)
    token = _active.set(None)
    try:
        with charged_if_drawn(budget, charge, rng):
            kept, _ = keep_unit_rows(rows, privacy_unit, max_rows_per_unit, rng)
            result = release(kept, rng=rng, rho=row_rho, delta=delta, **settings)
    finally:
        _active.reset(token)
    if budget is not None:
        budget.charge(charge)
    result.receipt.update(rho=charge.rho, epsilon=charge.epsilon,
                          privacy_unit={"max_rows_per_unit": int(max_rows_per_unit),
                                        "row_rho": row_rho})
    return result


def unit_release(release, rows, privacy_unit, max_rows_per_unit, rng, rho, delta, **settings):
    """The ``privacy_unit=`` path of :func:`dpcov.dly_release`, :func:`dpcov.coinpress_release`
    and :func:`dpcov.coinpress_mean_release`: :func:`zcdp_unit_release` with their settings."""
    if max_rows_per_unit is None or rho is None or delta is None:
        raise ValueError("privacy_unit needs max_rows_per_unit (k, the rows kept per unit), rho "
                         "and delta: the unit-level budget")
    return zcdp_unit_release(release, rows, privacy_unit, max_rows_per_unit, rng, rho, delta,
                             **settings)
