"""Privacy auditor (dpcov/audit.h): the privacy-loss distribution of a mechanism on a
neighbouring pair, estimated from the mechanism's own draws. An audit can only find violations;
"no violation found" is not evidence of privacy.

``trials`` is at most :data:`AUDIT_MAX_TRIALS` (10^7, ``DPCOV_AUDIT_MAX_TRIALS``), a bound on an
audit's time and memory; a larger value raises :class:`~dpcov.errors.InvalidArgumentError` before
anything is drawn."""

from __future__ import annotations

from ctypes import byref, c_int64, sizeof

from . import _arrays
from ._lib import (DPCOV_AUDIT_MAX_TRIALS, AuditParamsC, AuditResultC, BlackBoxResultC, C,
                   CoinpressMeanAuditResultC, RowsExactAuditResultC, _check, new_struct)

#: The most trials an audit accepts (DPCOV_AUDIT_MAX_TRIALS, dpcov/audit.h).
AUDIT_MAX_TRIALS = DPCOV_AUDIT_MAX_TRIALS

__all__ = ["AUDIT_MAX_TRIALS", "AUDIT_FIELDS", "audit_coinpress_mean", "audit_params",
           "audit_rows_black_box", "audit_rows_exact", "audit_rows_exact_pairs", "audit_rows_units",
           "audit_run", "audit_run_pair", "audit_units"]
from .coinpress import _mean_params
from .mechanism import mechanism_params
from .types import (AuditDataset, AuditNeighbour, AuditResult, AuditRowsMechanism,
                    BlackBoxResult, BlackBoxStatistic, CoinpressMeanAuditResult,
                    RowsExactAuditResult, enum_value, mechanism_id)

AUDIT_FIELDS = tuple(name for name, _ in AuditParamsC._fields_ if name != "struct_size")
"""Keyword settings of an audit (fields of ``dpcov_audit_params``)."""


def audit_params(**settings) -> AuditParamsC:
    """A ``dpcov_audit_params`` from ``dpcov_audit_params_default`` with the given fields:
    trials, first_checkpoint, alpha, seed, dataset, neighbour_kind."""
    params = AuditParamsC()
    _check(C.dpcov_audit_params_init(byref(params), sizeof(params)))
    for key, value in settings.items():
        if key not in AUDIT_FIELDS:
            raise TypeError(f"unknown audit setting {key!r}; known: {', '.join(AUDIT_FIELDS)}")
        if key == "dataset":
            value = enum_value(AuditDataset, value)
        elif key == "neighbour_kind":
            value = enum_value(AuditNeighbour, value)
        setattr(params, key, value)
    return params


def audit_run(mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
              mechanism_options: dict | None = None, **settings) -> AuditResult:
    """Audit ``mechanism`` at its claimed (epsilon, delta) on a generated neighbouring pair
    (``dpcov_audit_run``). ``mechanism_options`` are mechanism fields (see
    :func:`dpcov.mechanism.mechanism_params`); ``settings`` are audit fields."""
    mp = mechanism_params(**(mechanism_options or {}))
    ap = audit_params(**settings)
    result = new_struct(AuditResultC)
    _check(C.dpcov_audit_run(mechanism_id(mechanism), dim, n, bound,
                             epsilon, delta, byref(mp), byref(ap), byref(result)))
    return AuditResult(result)


def audit_run_pair(mechanism, rows, rows_prime, bound: float, epsilon: float, delta: float,
                   mechanism_options: dict | None = None, **settings) -> AuditResult:
    """Audit ``mechanism`` on a caller-given neighbouring pair of datasets (n x d and n' x d, one
    storage order) (``dpcov_audit_run_pair``)."""
    a = _arrays.matrix(rows, "rows")
    b = _arrays.matrix(rows_prime, "rows_prime", layout=a.layout)
    if a.cols != b.cols:
        raise _arrays.dimension_error(f"rows has {a.cols} columns but rows_prime has {b.cols}")
    mp = mechanism_params(**(mechanism_options or {}))
    ap = audit_params(**settings)
    result = new_struct(AuditResultC)
    _check(C.dpcov_audit_run_pair(mechanism_id(mechanism), a.layout, a.cols, a.ptr, a.rows, a.ld,
                                  b.ptr, b.rows, b.ld, bound, epsilon,
                                  delta, byref(mp), byref(ap), byref(result)))
    return AuditResult(result)


def audit_standard_rows(mechanism, dim: int, bound: float, epsilon: float, delta: float,
                        fallback: int = 50, mechanism_options: dict | None = None) -> int:
    """The n at which the standard audit runs ``mechanism`` for these public parameters
    (``dpcov_audit_standard_rows``): the auditor's own n where the mechanism's behaviour changes
    with n (a private test with a threshold), ``fallback`` otherwise."""
    mp = mechanism_params(**(mechanism_options or {}))
    rows = c_int64()
    _check(C.dpcov_audit_standard_rows(mechanism_id(mechanism), dim, bound,
                                       epsilon, delta, byref(mp), fallback,
                                       byref(rows)))
    return rows.value


def audit_units(mechanism, dim: int, max_rows_per_unit: int, bound: float, epsilon: float,
                delta: float, broken: bool = False, mechanism_options: dict | None = None,
                **settings) -> AuditResult:
    """Audit ``mechanism`` at the level of privacy units (``dpcov_audit_units``): the release
    from an accumulator of units of at most ``max_rows_per_unit`` rows, against the unit-level
    claim, on a pair that differs by one unit of k rows on the bound; ``broken=True`` audits the
    planted variant that bounds rows but not units instead (docs/privacy-units.md)."""
    mp = mechanism_params(**(mechanism_options or {}))
    ap = audit_params(**settings)
    result = new_struct(AuditResultC)
    _check(C.dpcov_audit_units(mechanism_id(mechanism), dim, max_rows_per_unit,
                               bound, epsilon, delta, 1 if broken else 0,
                               byref(mp), byref(ap), byref(result)))
    return AuditResult(result)


def audit_rows_black_box(mechanism, dim: int, n: int, rho: float, delta: float, scale: float,
                         statistic="top_eigenvalue", trials: int = 2000, alpha: float = 1e-6,
                         seed: int = 0) -> BlackBoxResult:
    """Audit a zCDP mechanism on the rows (``"dly_gauss"``, ``"dly_separate"``,
    ``"dly_adaptive"``, ``"dly_adaptive_paper"``, ``"coinpress"`` or an
    :class:`AuditRowsMechanism`) black-box at the (epsilon, delta) its ``rho`` implies
    (``dpcov_audit_rows_black_box``). ``scale`` is the row bound r (Dong-Liang-Yi) or K
    (CoinPress); ``statistic`` a :class:`BlackBoxStatistic` or its name."""
    result = new_struct(BlackBoxResultC)
    _check(C.dpcov_audit_rows_black_box(
        enum_value(AuditRowsMechanism, mechanism), dim, n, rho, delta,
        scale, enum_value(BlackBoxStatistic, statistic), trials,
        alpha, int(seed), byref(result)))
    return BlackBoxResult(result)


def audit_coinpress_mean(dim: int, n: int, radius: float, rho: float | None = None,
                         scale: float | None = None, steps: int | None = None,
                         beta: float | None = None, delta: float | None = None,
                         trials: int = 2000, alpha: float = 1e-6,
                         seed: int = 0) -> CoinpressMeanAuditResult:
    """Audit CoinPress mean estimation with the exact density of its whole t-step release on the
    worst pair (``dpcov_audit_coinpress_mean``); the settings are those of
    :func:`dpcov.coinpress_mean_plan`."""
    p = _mean_params(radius, rho, scale, steps, beta, delta)
    result = new_struct(CoinpressMeanAuditResultC)
    _check(C.dpcov_audit_coinpress_mean(dim, n, byref(p), trials,
                                        alpha, int(seed), byref(result)))
    return CoinpressMeanAuditResult(result)


def audit_rows_exact(mechanism, rho: float, delta: float = 1e-6, steps: int = 1,
                     trials: int = 2000, alpha: float = 1e-6,
                     seed: int = 0) -> RowsExactAuditResult:
    """Audit ``"dly_gauss"``, ``"dly_separate"`` (its eigenvalue step, at rho / 2) or
    ``"coinpress"`` with ``steps=1`` with the exact density of its Gaussian release on the worst
    pair, and ``"coinpress"`` with ``steps >= 2`` with the exact density of every step given the
    earlier ones (``dpcov_audit_rows_exact``); ``"dly_adaptive"`` and ``"dly_adaptive_paper"``
    raise :class:`PreconditionError`: audit them with :func:`audit_rows_black_box`."""
    result = new_struct(RowsExactAuditResultC)
    _check(C.dpcov_audit_rows_exact(enum_value(AuditRowsMechanism, mechanism), steps,
                                    rho, delta, trials,
                                    alpha, int(seed), byref(result)))
    return RowsExactAuditResult(result)


def audit_rows_exact_pairs(mechanism, rho: float, delta: float = 1e-6, steps: int = 1,
                           trials: int = 2000, alpha: float = 1e-6, seed: int = 0,
                           pairs: int = 3) -> tuple[RowsExactAuditResult, int]:
    """:func:`audit_rows_exact` on ``pairs`` neighbouring pairs: the axis pair and ``pairs - 1``
    rotations of it drawn from ``seed`` (each at ``alpha / pairs``), returning the worst pair's
    result (``samples`` over every pair) and its index, 0 for the axis pair
    (``dpcov_audit_rows_exact_pairs``)."""
    result = new_struct(RowsExactAuditResultC)
    worst = c_int64(-1)
    _check(C.dpcov_audit_rows_exact_pairs(enum_value(AuditRowsMechanism, mechanism), steps,
                                          rho, delta, trials,
                                          alpha, int(seed), pairs, byref(result),
                                          byref(worst)))
    return RowsExactAuditResult(result), worst.value


def audit_rows_units(mechanism, max_rows_per_unit: int, rho: float, delta: float = 1e-6,
                     steps: int = 1, broken: bool = False, trials: int = 2000,
                     alpha: float = 1e-6, seed: int = 0) -> RowsExactAuditResult:
    """Audit a zCDP mechanism on the rows at the level of privacy units
    (``dpcov_audit_rows_units``): units of exactly ``max_rows_per_unit`` = k rows released at
    rho / k^2 as :func:`dpcov.zcdp_unit_release` releases them, on a pair whose first unit has its
    k rows all replaced, against the unit-level claim ``rho``. ``mechanism``: ``"dly_gauss"``,
    ``"dly_separate"``, ``"coinpress"``, ``"coinpress_mean"`` (exact density),
    ``"dly_adaptive"``, ``"dly_adaptive_paper"`` (black-box); ``broken=True`` audits the planted
    variant that releases the units at rho itself (docs/privacy-units.md)."""
    result = new_struct(RowsExactAuditResultC)
    _check(C.dpcov_audit_rows_units(enum_value(AuditRowsMechanism, mechanism), steps,
                                    max_rows_per_unit, rho, delta,
                                    1 if broken else 0, trials, alpha, int(seed),
                                    byref(result)))
    return RowsExactAuditResult(result)
