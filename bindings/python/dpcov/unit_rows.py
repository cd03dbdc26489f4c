"""Privacy units for the zCDP row mechanisms (Dong-Liang-Yi, CoinPress, CoinPress mean), private
under replace-one with n public (proofs/unit_group_privacy.md, "Row mechanisms"): every unit keeps
exactly k rows, a uniformly random k of its rows drawn with the release's generator or all of them
and zero rows up to k, so n = k U is public and a unit's rows all replaced is k rows replaced; the
mechanism runs at rho / k^2 (``dpcov_unit_row_rho``). The rows are in memory, so the k rows are
chosen once, before the mechanism's passes."""

from __future__ import annotations

import numpy as np

from .coinpress import zcdp_epsilon
from .ledger import ZcdpCharge, _active, active_accountant, charged_if_drawn
from .unit_budget import unit_row_rho


def _uniform_below(rng, n: int) -> int:
    """A uniform integer in [0, n): draws at or above the largest multiple of n below 2^64 are
    drawn again (as the command line's io/unit_rows.cpp)."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        u = rng.next_u64()
        if u < limit:
            return u % n


def keep_unit_rows(rows, privacy_unit, max_rows_per_unit: int, rng) -> tuple[np.ndarray, int]:
    """The k U rows the units of ``privacy_unit`` (one id per row) keep, units in order of first
    appearance, and U."""
    x = np.asarray(rows, dtype=float)
    ids = np.asarray(privacy_unit)
    if x.ndim != 2 or ids.shape != (x.shape[0],):
        raise ValueError("privacy_unit must hold one id per row of the 2-d rows")
    k = int(max_rows_per_unit)
    _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    kept = []
    for unit in np.argsort(first, kind="stable"):
        members = np.flatnonzero(inverse == unit)
        if len(members) > k:
            order = list(members)
            for i in range(k):
                j = i + _uniform_below(rng, len(order) - i)
                order[i], order[j] = order[j], order[i]
            members = np.array(order[:k])
        block = np.zeros((k, x.shape[1]))
        block[:len(members)] = x[members]
        kept.append(block)
    return (np.vstack(kept) if kept else np.zeros((0, x.shape[1]))), len(kept)


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
