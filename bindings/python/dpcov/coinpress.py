"""CoinPress private covariance and mean estimation (dpcov/coinpress.h; Biswas, Dong, Kamath,
Ullman, NeurIPS 2020) and the conversion of a zCDP budget to (epsilon, delta)."""

from __future__ import annotations

from ctypes import byref, c_double, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import (C, CoinpressMeanParamsC, CoinpressMeanReceiptC, CoinpressParamsC,
                   CoinpressReceiptC, _check, new_struct)
from .ledger import ZcdpCharge, active_accountant, charged_if_drawn
from .types import receipt_prefix


class CoinpressRelease(NamedTuple):
    """The private covariance estimate and the receipt of its release (a dict)."""

    covariance: np.ndarray
    receipt: dict


def _params(k_bound: float, rho: float | None, steps: int | None, beta: float | None,
            delta: float | None) -> CoinpressParamsC:
    p = new_struct(CoinpressParamsC)
    _check(C.dpcov_coinpress_params_init(byref(p), sizeof(p)))
    p.k_bound = k_bound
    if rho is not None:
        p.rho = rho
    if steps is not None:
        p.steps = _arrays.whole_number(steps, "steps")
    if beta is not None:
        p.beta = beta
    if delta is not None:
        p.delta = delta
    return p


def _receipt(r: CoinpressReceiptC) -> dict:
    t = int(r.steps)
    return {**receipt_prefix(r), "dim": r.dim, "steps": t, "k_bound": r.k_bound,
            "beta": r.beta, "clip_radius": r.clip_radius, "eta": r.eta,
            "step_rho": list(r.step_rho[:t]), "step_sigma": list(r.step_sigma[:t])}


def coinpress_plan(n: int, dim: int, k_bound: float, rho: float | None = None,
                   steps: int | None = None, beta: float | None = None,
                   delta: float | None = None) -> dict:
    """Every constant of a CoinPress release, without data (``dpcov_coinpress_plan``). Unset
    settings take the library's defaults (rho 0.5, 3 steps, beta 0.1, delta 1e-6)."""
    p = _params(k_bound, rho, steps, beta, delta)
    receipt = new_struct(CoinpressReceiptC)
    _check(C.dpcov_coinpress_plan(n, dim, byref(p), byref(receipt)))
    return _receipt(receipt)


def coinpress_release(rows, k_bound: float, rng, rho: float | None = None,
                      steps: int | None = None, beta: float | None = None,
                      delta: float | None = None, privacy_unit=None,
                      max_rows_per_unit: int | None = None) -> CoinpressRelease:
    """The rho-zCDP CoinPress estimate of the covariance of the zero-mean n x d ``rows``, given
    the public prior I <= Sigma <= ``k_bound`` I (``dpcov_coinpress_release``). The result is a
    new d x d array in the storage order of ``rows``. An active
    :class:`~dpcov.BudgetAccountant` is checked with the plan before any noise is drawn and
    charged after (rho under zCDP accounting, the receipt's (epsilon, delta) otherwise).
    ``privacy_unit`` and ``max_rows_per_unit``: as for :func:`dpcov.dly_release`."""
    if privacy_unit is not None:
        from .unit_rows import unit_release  # it builds on this module
        return unit_release(coinpress_release, rows, privacy_unit, max_rows_per_unit, rng, rho,
                            delta, k_bound=k_bound, steps=steps, beta=beta)
    x = _arrays.matrix(rows, "rows")
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = coinpress_plan(x.rows, x.cols, k_bound, rho, steps, beta, delta)
        budget.check(planned)
    out = _arrays.empty(x.cols, x.cols, x.layout)
    p = _params(k_bound, rho, steps, beta, delta)
    receipt = new_struct(CoinpressReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_coinpress_release(x.layout, x.rows, x.cols, x.ptr, x.ld, byref(p), rng,
                                         out.ptr, out.ld, byref(receipt)))
    release = CoinpressRelease(out.array, _receipt(receipt))
    if budget is not None:
        budget.charge(release.receipt)
    return release


class CoinpressMeanRelease(NamedTuple):
    """The private mean estimate and the receipt of its release (a dict)."""

    mean: np.ndarray
    receipt: dict


def _mean_params(radius: float, rho: float | None, scale: float | None, steps: int | None,
                 beta: float | None, delta: float | None) -> CoinpressMeanParamsC:
    p = new_struct(CoinpressMeanParamsC)
    _check(C.dpcov_coinpress_mean_params_init(byref(p), sizeof(p)))
    p.radius = radius
    for name, value, kind in (("rho", rho, float), ("scale", scale, float),
                              ("steps", steps, int), ("beta", beta, float),
                              ("delta", delta, float)):
        if value is not None:
            setattr(p, name, kind(value))
    return p


def _mean_receipt(r: CoinpressMeanReceiptC) -> dict:
    t = int(r.steps)
    return {**receipt_prefix(r), "dim": r.dim, "steps": t, "radius": r.radius,
            "scale": r.scale, "beta": r.beta, "tail_radius": r.tail_radius,
            "step_rho": list(r.step_rho[:t]),
            "step_clip_radius": list(r.step_clip_radius[:t]),
            "step_sigma": list(r.step_sigma[:t])}


def coinpress_mean_plan(n: int, dim: int, radius: float, rho: float | None = None,
                        scale: float | None = None, steps: int | None = None,
                        beta: float | None = None, delta: float | None = None) -> dict:
    """Every constant of a CoinPress mean release, without data (``dpcov_coinpress_mean_plan``).
    Unset settings take the library's defaults (rho 0.5, scale 1, 3 steps, beta 0.01,
    delta 1e-6)."""
    p = _mean_params(radius, rho, scale, steps, beta, delta)
    receipt = new_struct(CoinpressMeanReceiptC)
    _check(C.dpcov_coinpress_mean_plan(n, dim, byref(p), byref(receipt)))
    return _mean_receipt(receipt)


def coinpress_mean_release(rows, radius: float, rng, centre=None, rho: float | None = None,
                           scale: float | None = None, steps: int | None = None,
                           beta: float | None = None, delta: float | None = None,
                           privacy_unit=None,
                           max_rows_per_unit: int | None = None) -> CoinpressMeanRelease:
    """The rho-zCDP CoinPress estimate of the mean of the n x d ``rows``, given the public priors
    ||mu - centre|| <= ``radius`` (``centre`` None: the origin) and Cov <= ``scale``^2 I
    (``dpcov_coinpress_mean_release``). An active :class:`~dpcov.BudgetAccountant` is checked
    with the plan before any noise is drawn and charged after. ``privacy_unit`` and
    ``max_rows_per_unit``: as for :func:`dpcov.dly_release` (the mean is the kept rows' sum
    over k U, zero rows included)."""
    if privacy_unit is not None:
        from .unit_rows import unit_release  # it builds on this module
        return unit_release(coinpress_mean_release, rows, privacy_unit, max_rows_per_unit, rng,
                            rho, delta, radius=radius, centre=centre, scale=scale, steps=steps,
                            beta=beta)
    x = _arrays.matrix(rows, "rows")
    c = None if centre is None else _arrays.vector(centre, "centre", x.cols)
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = coinpress_mean_plan(x.rows, x.cols, radius, rho, scale, steps, beta, delta)
        budget.check(planned)
    out = np.empty(x.cols)
    p = _mean_params(radius, rho, scale, steps, beta, delta)
    receipt = new_struct(CoinpressMeanReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_coinpress_mean_release(x.layout, x.rows, x.cols, x.ptr, x.ld,
                                              _arrays.ptr(c), byref(p), rng, _arrays.ptr(out),
                                              byref(receipt)))
    release = CoinpressMeanRelease(out, _mean_receipt(receipt))
    if budget is not None:
        budget.charge(release.receipt)
    return release


def coinpress_centring_split(rho: float) -> tuple[float, float]:
    """(rho_mean, rho_covariance): the split of ``rho`` between a CoinPress mean and the CoinPress
    covariance of the rows centred on it, rho / 8 and 7 rho / 8 rounded down
    (``dpcov_coinpress_centring_split``)."""
    mean_share, covariance_share = c_double(), c_double()
    _check(C.dpcov_coinpress_centring_split(rho, byref(mean_share),
                                            byref(covariance_share)))
    return mean_share.value, covariance_share.value


class CoinpressCentredRelease(NamedTuple):
    """The private mean, the private covariance of the rows centred on it, and the receipts of
    the two releases (dicts)."""

    mean: np.ndarray
    covariance: np.ndarray
    mean_receipt: dict
    covariance_receipt: dict


def _centred(x: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """The rows ``x`` centred on the released ``mean``, as ``dpcov release --center`` does: a row
    whose difference from the mean overflows (both near the largest double, on opposite sides) is
    centred halved, ``0.5 x - 0.5 mean``, which keeps its direction, stays far beyond every clip
    radius and is finite. Unhalved, its infinite entries failed the covariance release on a
    dataset and not on its neighbour. Each row is a function of itself and the released mean."""
    with np.errstate(over="ignore", invalid="ignore"):
        centred = x - mean
    far = ~np.isfinite(centred).all(axis=1)
    centred[far] = 0.5 * x[far] - 0.5 * mean
    return centred


def coinpress_centred_release(rows, k_bound: float, radius: float, rng, centre=None,
                              rho: float | None = None, steps: int | None = None,
                              delta: float | None = None) -> CoinpressCentredRelease:
    """The CoinPress covariance of rows with an unknown mean (proofs/coinpress_mean.md,
    "Centring"): :func:`coinpress_centring_split` gives rho / 8 to a CoinPress mean (prior
    ||mu - ``centre``|| <= ``radius``, Cov <= ``k_bound`` I) and 7 rho / 8 to the CoinPress
    covariance of the rows centred on it; together rho-zCDP. An active
    :class:`~dpcov.BudgetAccountant` is checked before any noise is drawn and charged after, as
    one release of rho-zCDP (the two releases compose)."""
    x = _arrays.matrix(rows, "rows")
    c = None if centre is None else _arrays.vector(centre, "centre", x.cols)
    cov_params = _params(k_bound, rho, steps, None, delta)
    total = ZcdpCharge(cov_params.rho, zcdp_epsilon(cov_params.rho, cov_params.delta),
                       cov_params.delta)
    rho_mean, cov_params.rho = coinpress_centring_split(total.rho)
    scale = float(np.sqrt(k_bound)) if k_bound > 0 else float(k_bound)
    mean_params = _mean_params(radius, rho_mean, scale, steps, None, delta)
    # Both settings are checked before the mean draws, so that the covariance cannot fail on a
    # bad argument after the mean's noise is drawn.
    coinpress_mean_plan(x.rows, x.cols, radius, rho_mean, scale, steps, None, delta)
    coinpress_plan(x.rows, x.cols, k_bound, cov_params.rho, steps, None, delta)
    budget = active_accountant()
    if budget is not None:
        budget.check(total)
    mean = np.empty(x.cols)
    mean_receipt = new_struct(CoinpressMeanReceiptC)
    cov_receipt = new_struct(CoinpressReceiptC)
    # One block: once the mean has drawn, any failure of the covariance is charged.
    with charged_if_drawn(budget, total, rng):
        _check(C.dpcov_coinpress_mean_release(x.layout, x.rows, x.cols, x.ptr, x.ld,
                                              _arrays.ptr(c), byref(mean_params), rng,
                                              _arrays.ptr(mean), byref(mean_receipt)))
        centred = _arrays.matrix(_centred(np.asarray(rows, dtype=np.float64), mean),
                                 "centred rows")
        out = _arrays.empty(x.cols, x.cols, centred.layout)
        _check(C.dpcov_coinpress_release(centred.layout, centred.rows, centred.cols,
                                         centred.ptr, centred.ld, byref(cov_params), rng,
                                         out.ptr, out.ld, byref(cov_receipt)))
    if budget is not None:
        budget.charge(total)
    return CoinpressCentredRelease(mean, out.array, _mean_receipt(mean_receipt),
                                   _receipt(cov_receipt))


def zcdp_epsilon(rho: float, delta: float) -> float:
    """epsilon of the (epsilon, delta)-DP guarantee implied by rho-zCDP (Canonne, Kamath, Steinke
    2020, Prop. 12; ``dpcov_zcdp_epsilon``)."""
    out = c_double()
    _check(C.dpcov_zcdp_epsilon(rho, delta, byref(out)))
    return out.value


def zcdp_rho(epsilon: float, delta: float) -> float:
    """The largest rho whose :func:`zcdp_epsilon` at ``delta`` is at most ``epsilon``
    (``dpcov_zcdp_rho``)."""
    out = c_double()
    _check(C.dpcov_zcdp_rho(epsilon, delta, byref(out)))
    return out.value
