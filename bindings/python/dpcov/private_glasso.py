"""Private sparse inverse covariance (dpcov/private_glasso.h; Wang, Huai, Xu, GlobalSIP 2018):
a mechanism release followed by the graphical lasso, or Wishart noise on the graphical-lasso
solution (not differentially private; audit target only)."""

from __future__ import annotations

from ctypes import byref, c_double, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import C, GlassoInfoC, GlassoParamsC, ReceiptC, _check, new_struct
from .ledger import active_accountant, charged_if_drawn
from .mechanism import mechanism_params
from .types import GlassoInfo, Mechanism, Receipt, mechanism_id


class PrivateGlassoRelease(NamedTuple):
    """The private precision estimate, the receipt of its release, and the convergence of the
    solve on the released covariance (None for output perturbation)."""

    precision: np.ndarray
    receipt: Receipt
    info: GlassoInfo | None


def private_glasso_plan(mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
                        rho: float, **params) -> Receipt:
    """The receipt :func:`private_glasso_release` would produce, without data or randomness
    (``dpcov_private_glasso_plan``)."""
    p = mechanism_params(**params)
    receipt = new_struct(ReceiptC)
    _check(C.dpcov_private_glasso_plan(mechanism_id(mechanism), dim, n, bound,
                                       epsilon, delta, byref(p), rho,
                                       byref(receipt)))
    return Receipt(receipt)


def private_glasso_release(mechanism, gram, n: int, bound: float, epsilon: float, delta: float,
                           rho: float, rng, glasso: dict | None = None,
                           **params) -> PrivateGlassoRelease:
    """The private precision estimate for the Gram matrix ``gram`` of ``n`` rows of norm <=
    ``bound`` (``dpcov_private_glasso_release``). ``glasso`` holds settings of the solve
    (penalize_diagonal, tol, max_iter) for covariance perturbation; it must be None for
    ``"glasso_output_wishart"``, which also reports no convergence information. An active
    :class:`~dpcov.BudgetAccountant` is checked with the plan before any noise is drawn (and
    refuses the non-private output perturbation) and charged after."""
    mech = mechanism_id(mechanism)
    g = _arrays.square(gram, "gram")
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = private_glasso_plan(mechanism, g.rows, n, bound, epsilon, delta, rho, **params)
        budget.check(planned)
    out = _arrays.empty(g.rows, g.rows, g.layout)
    p = mechanism_params(**params)
    gp_ref = None
    if glasso is not None:
        gp = GlassoParamsC()
        _check(C.dpcov_glasso_params_init(byref(gp), sizeof(gp)))
        for key, value in glasso.items():
            if key not in ("penalize_diagonal", "tol", "max_iter"):
                raise TypeError(f"unknown graphical-lasso setting {key!r}")
            setattr(gp, key, value)
        gp_ref = byref(gp)
    output_perturbation = mech == Mechanism.GLASSO_OUTPUT_WISHART
    info = None if output_perturbation else new_struct(GlassoInfoC)
    receipt = new_struct(ReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_private_glasso_release(mech, g.layout, g.rows, g.ptr, g.ld, n,
                                              bound, epsilon, delta,
                                              byref(p), rho, gp_ref, rng, out.ptr, out.ld,
                                              byref(receipt),
                                              None if info is None else byref(info)))
    release = PrivateGlassoRelease(out.array, Receipt(receipt),
                                   None if info is None else GlassoInfo(info))
    if budget is not None:
        budget.charge(release.receipt)
    return release


def private_glasso_log_density(mechanism, released, gram, n: int, bound: float, epsilon: float,
                               delta: float, rho: float, **params) -> float:
    """ln of the density of an output-perturbation release given the statistic
    (``dpcov_private_glasso_log_density``); ``-inf`` outside the support."""
    r = _arrays.square(released, "released")
    g = _arrays.square(gram, "gram", r.layout)
    _arrays.same_shape(r, "released", g, "gram")
    p = mechanism_params(**params)
    out = c_double()
    _check(C.dpcov_private_glasso_log_density(mechanism_id(mechanism), r.layout, r.rows, r.ptr,
                                              r.ld, g.ptr, g.ld, n, bound,
                                              epsilon, delta, byref(p), rho,
                                              byref(out)))
    return out.value
