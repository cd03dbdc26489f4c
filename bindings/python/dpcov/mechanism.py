"""Mechanisms (dpcov/mechanism.h): plan, release and the exact log-density of a release."""

from __future__ import annotations

from ctypes import byref, c_double, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import C, MechanismParamsC, ReceiptC, _check, new_struct
from .ledger import active_accountant
from .types import (BudgetSplit, Calibration, LambdaMinScope, Neighbour, Receipt, enum_value,
                    mechanism_id)

_ENUM_FIELDS = {"neighbour": Neighbour, "calibration": Calibration,
                "lambda_min_scope": LambdaMinScope, "budget_split": BudgetSplit}
PARAM_FIELDS = tuple(name for name, _ in MechanismParamsC._fields_ if name != "struct_size")
"""Keyword options every mechanism call accepts (fields of ``dpcov_mechanism_params``)."""


class Release(NamedTuple):
    """A released matrix and its receipt."""

    matrix: np.ndarray
    receipt: Receipt


def mechanism_params(**options) -> MechanismParamsC:
    """A ``dpcov_mechanism_params`` with the library's defaults
    (``dpcov_mechanism_params_default``) and the given fields changed.

    Fields: neighbour, calibration, lambda_min_bound, lambda_min_scope, audit_only_not_private,
    budget_split, beta, rank, projection_rows, posterior_dof. Enum fields accept members, ints or
    names (``neighbour="add_remove"``). An option that does not apply to the mechanism is refused
    by the library (``InvalidArgumentError``), never ignored.
    """
    params = MechanismParamsC()
    _check(C.dpcov_mechanism_params_init(byref(params), sizeof(params)))
    for key, value in options.items():
        if key not in PARAM_FIELDS:
            raise TypeError(f"unknown mechanism option {key!r}; known: {', '.join(PARAM_FIELDS)}")
        if key in _ENUM_FIELDS:
            value = enum_value(_ENUM_FIELDS[key], value)
        elif key == "audit_only_not_private":
            value = int(bool(value))
        setattr(params, key, value)
    return params


def plan(mechanism, dim: int, n: int, bound: float, epsilon: float, delta: float,
         **params) -> Receipt:
    """Every constant ``mechanism`` would use for a dim x dim statistic of ``n`` rows of norm
    <= ``bound`` at (epsilon, delta), with no data and no randomness (``dpcov_mechanism_plan``).
    Raises the status the release would raise."""
    receipt = new_struct(ReceiptC)
    p = mechanism_params(**params)
    _check(C.dpcov_mechanism_plan(mechanism_id(mechanism), dim, n, bound,
                                  epsilon, delta, byref(p), byref(receipt)))
    return Receipt(receipt)


def release(mechanism, gram, n: int, bound: float, epsilon: float, delta: float, rng,
            out=None, **params) -> Release:
    """Release ``mechanism`` applied to the symmetric d x d statistic ``gram`` of ``n`` rows of
    norm <= ``bound`` (``dpcov_mechanism_release``).

    ``gram`` is read in place, in its own storage order. ``out`` (optional) is a writable d x d
    float64 array that receives the release in place (it may be ``gram`` itself); by default a
    new array in the storage order of ``gram`` is returned. ``rng`` is a :class:`~dpcov.Rng`; noise
    once drawn is consumed, even by a call that then fails (a refusal is an output). On failure
    nothing is written.

    The receipt's numerics is always idealized (0): a matrix already rounded cannot be released
    exactly. Releasing from the rows, through :meth:`GramAccumulator.bounded` naming the
    mechanism and :func:`release_gram`, is exact for ``"analyze_gauss"`` and ``"laplace_sym"``.

    The release is what the mechanism drew; an estimate of ``gram`` reads
    :func:`dpcov.gram_estimate` of it and its receipt (the additive Wishart, the JL ridge and the
    inverse Wishart add a mean of their own).
    """
    g = _arrays.square(gram, "gram")
    if active_accountant() is not None:
        # Planned once: the accountant checks the plan the release then draws with (dpcov/plan.h).
        from .plan import Plan
        with Plan(mechanism, g.rows, n, bound, epsilon, delta, exact=False, **params) as kept:
            return kept.release_matrix(gram, rng, out)
    o = output_like(g, out)
    p = mechanism_params(**params)
    receipt = new_struct(ReceiptC)
    _check(C.dpcov_mechanism_release(mechanism_id(mechanism), g.layout, g.rows, g.ptr, g.ld,
                                     n, bound, epsilon, delta,
                                     byref(p), rng, o.ptr, o.ld, byref(receipt)))
    return Release(o.array, Receipt(receipt))


def output_like(g, out):
    """The output of a release of the checked square matrix ``g``: ``out`` checked as writable,
    of the same shape and storage order, or a new array in that order."""
    if out is None:
        return _arrays.empty(g.rows, g.rows, g.layout)
    o = _arrays.square(out, "out", g.layout, writable=True)
    _arrays.same_shape(g, "gram", o, "out")
    return o


def release_gram(mechanism, gram, epsilon: float, delta: float, rng, order: str = "C",
                 **params) -> Release:
    """Release ``mechanism`` applied to a :class:`~dpcov.GramAccumulator` (d, n and B come from
    it; it must hold at least one chunk unless it bounds raw rows) as a new array in ``order``
    (``dpcov_mechanism_release_gram``). An accumulator with exact numerics
    (:meth:`GramAccumulator.bounded` naming ``"analyze_gauss"`` or ``"laplace_sym"``, the
    default there) releases exactly: the receipt's numerics is 1. An estimate of the Gram matrix
    reads :func:`dpcov.gram_estimate` of the release and its receipt, as :func:`release` says."""
    # Planned once: an accumulator made on this release's plan releases with it, and an
    # accountant checks a plan the release then draws with (dpcov/plan.h).
    kept = (gram.kept_plan(mechanism, epsilon, delta, params)
            if not gram.closed and hasattr(gram, "kept_plan") else None)
    if kept is None and active_accountant() is not None and not gram.closed:
        from .plan import Plan
        info = gram.info()
        kept = Plan(mechanism, info.dim, info.rows, info.bound or 1.0, epsilon, delta,
                    exact=info.numerics == 1, **params)
    if kept is not None:
        return kept.release(gram, rng, order)
    dim = gram.info().dim if not gram.closed else 1
    o = _arrays.empty(dim, dim, _arrays.order_layout(order))
    p = mechanism_params(**params)
    receipt = new_struct(ReceiptC)
    _check(C.dpcov_mechanism_release_gram(mechanism_id(mechanism), gram, epsilon,
                                          delta, byref(p), rng, o.layout, o.ptr, o.ld,
                                          byref(receipt)))
    return Release(o.array, Receipt(receipt))


def _charged(budget, release: Release) -> Release:
    """Charge the active accountant for ``release``."""
    if budget is not None:
        budget.charge(release.receipt)
    return release


def log_density(mechanism, released, gram, n: int, bound: float, epsilon: float, delta: float,
                **params) -> float:
    """Natural log of the density of ``released`` under ``mechanism`` given the statistic
    ``gram`` (``dpcov_mechanism_log_density``); ``-inf`` outside the support."""
    r = _arrays.square(released, "released")
    g = _arrays.square(gram, "gram", r.layout)
    _arrays.same_shape(r, "released", g, "gram")
    p = mechanism_params(**params)
    out = c_double()
    _check(C.dpcov_mechanism_log_density(mechanism_id(mechanism), r.layout, r.rows, r.ptr, r.ld,
                                         g.ptr, g.ld, n, bound, epsilon,
                                         delta, byref(p), byref(out)))
    return out.value


def log_density_tested(mechanism, released, test_value: float, gram, n: int, bound: float,
                       epsilon: float, delta: float, **params) -> float:
    """Joint log-density of a propose-test-release output (the released test value and matrix)
    for the sigma_min variants and OLS by projection (``dpcov_mechanism_log_density_tested``)."""
    r = _arrays.square(released, "released")
    g = _arrays.square(gram, "gram", r.layout)
    _arrays.same_shape(r, "released", g, "gram")
    p = mechanism_params(**params)
    out = c_double()
    _check(C.dpcov_mechanism_log_density_tested(mechanism_id(mechanism), r.layout, r.rows, r.ptr,
                                                r.ld, test_value, g.ptr, g.ld, n,
                                                bound, epsilon, delta,
                                                byref(p), byref(out)))
    return out.value
