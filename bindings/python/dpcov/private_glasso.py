"""Private sparse inverse covariance (dpcov/private_glasso.h; Wang, Huai, Xu, GlobalSIP 2018):
a mechanism release followed by the graphical lasso, or Wishart noise on the graphical-lasso
solution (not differentially private; audit target only)."""

from __future__ import annotations

from ctypes import byref, c_double
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import C, ReceiptC, _check, new_struct
from .errors import NoConvergenceError, NotPositiveDefiniteError
from .estimators import glasso_solve
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


def private_glasso_covariance(mechanism, gram, n: int, bound: float, epsilon: float,
                              delta: float, rng, **params) -> tuple:
    """``(covariance, receipt)``: the release of covariance perturbation before its solve, S~
    (the positive semidefinite projection of the noisy G / n; ``dpcov_private_glasso_covariance``).
    The graphical lasso on it (:func:`dpcov.glasso_solve`) is post-processing, free to repeat.
    An active :class:`~dpcov.BudgetAccountant` is checked with the plan before any noise is
    drawn and charged after."""
    mech = mechanism_id(mechanism)
    g = _arrays.square(gram, "gram")
    budget = active_accountant()
    planned = None
    if budget is not None:  # the plan at any rho: the release does not read it
        planned = private_glasso_plan(mechanism, g.rows, n, bound, epsilon, delta, 1.0, **params)
        budget.check(planned)
    out = _arrays.empty(g.rows, g.rows, g.layout)
    p = mechanism_params(**params)
    receipt = new_struct(ReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_private_glasso_covariance(mech, g.layout, g.rows, g.ptr, g.ld, n, bound,
                                                 epsilon, delta, byref(p), rng, out.ptr,
                                                 out.ld, byref(receipt)))
    released = Receipt(receipt)
    if budget is not None:
        budget.charge(released)
    return out.array, released


def private_glasso_release(mechanism, gram, n: int, bound: float, epsilon: float, delta: float,
                           rho: float, rng, glasso: dict | None = None,
                           **params) -> PrivateGlassoRelease:
    """The private precision estimate for the Gram matrix ``gram`` of ``n`` rows of norm <=
    ``bound``: the solve of :func:`private_glasso_covariance`'s release for covariance
    perturbation (the estimate of ``dpcov_private_glasso_release``, bit for bit), the release of
    ``"glasso_output_wishart"`` itself. ``glasso`` holds settings of the solve
    (penalize_diagonal, tol, max_iter) for covariance perturbation; it must be None for
    output perturbation, which also reports no convergence information. A solve that fails
    (:class:`~dpcov.NoConvergenceError`, :class:`~dpcov.NotPositiveDefiniteError`) loses
    nothing: the error carries the paid release as ``covariance`` and ``receipt``, to solve again
    with other settings (:func:`dpcov.glasso_solve`) at no privacy cost. An active
    :class:`~dpcov.BudgetAccountant` is checked with the plan before any noise is drawn (and
    refuses the non-private output perturbation) and charged once, after the release."""
    settings = dict(glasso or {})
    for key in settings:
        if key not in ("penalize_diagonal", "tol", "max_iter"):
            raise TypeError(f"unknown graphical-lasso setting {key!r}")
    if mechanism_id(mechanism) == Mechanism.GLASSO_OUTPUT_WISHART:
        if glasso is not None:
            raise ValueError("glasso must be None for glasso_output_wishart: it solves the "
                             "paper's objective itself")
        return _output_perturbation(mechanism, gram, n, bound, epsilon, delta, rho, rng, params)
    # Everything the solve will check, checked before the release pays: the plan at rho (the
    # pipeline's rho > 0), and the settings on a 1 x 1 problem (the solver's own checks).
    private_glasso_plan(mechanism, _arrays.square(gram, "gram").rows, n, bound, epsilon, delta,
                        rho, **params)
    try:
        glasso_solve(np.ones((1, 1)), rho, **settings)
    except NoConvergenceError:  # the settings are valid; only their use on S~ tells
        pass
    covariance, receipt = private_glasso_covariance(mechanism, gram, n, bound, epsilon, delta,
                                                    rng, **params)
    try:
        solved = glasso_solve(covariance, rho, **settings)
    except (NoConvergenceError, NotPositiveDefiniteError) as e:
        e.covariance, e.receipt = covariance, receipt
        e.message += ("; the release is kept in this error's covariance and receipt: solve it "
                      "again with dpcov.glasso_solve (post-processing, no privacy cost)")
        e.args = (f"{e.status_name}: {e.message}",)
        raise
    struct = receipt.to_struct()
    struct.glasso_rho = rho  # the penalty of the estimate, as the one call records it
    return PrivateGlassoRelease(solved.precision, Receipt(struct), solved.info)


def _output_perturbation(mechanism, gram, n, bound, epsilon, delta, rho, rng,
                         params) -> PrivateGlassoRelease:
    """Output perturbation (``dpcov_private_glasso_release``): its release is the estimate."""
    g = _arrays.square(gram, "gram")
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = private_glasso_plan(mechanism, g.rows, n, bound, epsilon, delta, rho, **params)
        budget.check(planned)
    out = _arrays.empty(g.rows, g.rows, g.layout)
    p = mechanism_params(**params)
    receipt = new_struct(ReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_private_glasso_release(mechanism_id(mechanism), g.layout, g.rows, g.ptr,
                                              g.ld, n, bound, epsilon, delta, byref(p), rho,
                                              None, rng, out.ptr, out.ld, byref(receipt), None))
    release = PrivateGlassoRelease(out.array, Receipt(receipt), None)
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
