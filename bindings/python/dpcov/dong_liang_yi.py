"""The zCDP covariance mechanisms of Dong, Liang & Yi (dpcov/dong_liang_yi.h; NeurIPS 2022):
Gauss, Separate and Adaptive."""

from __future__ import annotations

from ctypes import byref, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._generated import DlyVariant
from ._lib import C, DlyParamsC, DlyReceiptC, _check, new_struct
from .ledger import active_accountant, charged_if_drawn
from .types import receipt_prefix

#: Variant names -> dpcov_dly_variant values.
DLY_VARIANTS = {m.name.lower(): int(m) for m in DlyVariant}


class DlyRelease(NamedTuple):
    """The private estimate of X^T X / n and the receipt of its release (a dict)."""

    covariance: np.ndarray
    receipt: dict


def _params(variant: str, rho, radius, beta, delta) -> DlyParamsC:
    if variant not in DLY_VARIANTS:
        raise ValueError(f"variant must be one of {sorted(DLY_VARIANTS)}, got {variant!r}")
    p = new_struct(DlyParamsC)
    _check(C.dpcov_dly_params_init(byref(p), sizeof(p)))
    p.variant = DLY_VARIANTS[variant]
    for name, value in (("rho", rho), ("radius", radius), ("beta", beta), ("delta", delta)):
        if value is not None:
            setattr(p, name, float(value))
    return p


def _receipt(r: DlyReceiptC) -> dict:
    names = {v: k for k, v in DLY_VARIANTS.items()}
    return {**receipt_prefix(r), "variant": names.get(r.variant), "dim": r.dim, "beta": r.beta,
            "rho_covariance": r.rho_covariance, "trace_sigma": r.trace_sigma,
            "svt_epsilon": r.svt_epsilon, "svt_queries": r.svt_queries,
            "branch": names.get(r.branch), "clip_radius": r.clip_radius,
            "sigma_matrix": r.sigma_matrix, "sigma_eigenvalues": r.sigma_eigenvalues,
            "histogram_sigma": r.histogram_sigma,
            "first_look_sigma": r.first_look_sigma,
            "first_look_settled": None if r.first_look_settled < 0 else bool(r.first_look_settled)}


def dly_plan(n: int, dim: int, variant: str = "adaptive", rho: float | None = None,
             radius: float | None = None, beta: float | None = None,
             delta: float | None = None) -> dict:
    """The data-independent constants of a release (``dpcov_dly_plan``); unset settings take the
    library's defaults (rho 0.1, r 1, beta 0.1, delta 1e-6)."""
    p = _params(variant, rho, radius, beta, delta)
    receipt = new_struct(DlyReceiptC)
    _check(C.dpcov_dly_plan(n, dim, byref(p), byref(receipt)))
    return _receipt(receipt)


def dly_release(rows, rng, variant: str = "adaptive", rho: float | None = None,
                radius: float | None = None, beta: float | None = None,
                delta: float | None = None, privacy_unit=None,
                max_rows_per_unit: int | None = None) -> DlyRelease:
    """The rho-zCDP estimate of X^T X / n for the n x d ``rows`` of norm <= ``radius``
    (``dpcov_dly_release``); a new d x d array in the storage order of ``rows``. An active
    :class:`~dpcov.BudgetAccountant` is checked with the plan before any noise is drawn and
    charged after (rho under zCDP accounting, the receipt's (epsilon, delta) otherwise).
    ``privacy_unit`` (one id per row) with ``max_rows_per_unit`` k: rho-zCDP for units under
    replace-one, through :func:`dpcov.zcdp_unit_release` (``rho`` and ``delta`` required)."""
    if privacy_unit is not None:
        from .unit_rows import unit_release  # it builds on this module
        return unit_release(dly_release, rows, privacy_unit, max_rows_per_unit, rng, rho, delta,
                            variant=variant, radius=radius, beta=beta)
    x = _arrays.matrix(rows, "rows")
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = dly_plan(x.rows, x.cols, variant, rho, radius, beta, delta)
        budget.check(planned)
    out = _arrays.empty(x.cols, x.cols, x.layout)
    p = _params(variant, rho, radius, beta, delta)
    receipt = new_struct(DlyReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_dly_release(x.layout, x.rows, x.cols, x.ptr, x.ld, byref(p), rng,
                                   out.ptr, out.ld, byref(receipt)))
    release = DlyRelease(out.array, _receipt(receipt))
    if budget is not None:
        budget.charge(release.receipt)
    return release
