"""AdaSSP private linear regression (dpcov/adassp.h; Yu-Xiang Wang, UAI 2018, Alg. 2)."""

from __future__ import annotations

from ctypes import byref, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._generated import (DPCOV_INTERVAL_DRAWS, DPCOV_INTERVALS_POSTERIOR, AdasspCalibration,
                         Neighbour)
from ._lib import AdasspParamsC, AdasspReceiptC, C, SandwichBudgetC, _check, new_struct
from .ledger import active_accountant, charged_if_drawn
from .types import PrefixedReceipt

NEIGHBOURS = {m.name.lower(): int(m) for m in Neighbour}
"""Accepted ``neighbour`` names and their ``dpcov_neighbour`` values."""
CALIBRATIONS = {m.name.lower(): int(m) for m in AdasspCalibration}
"""Accepted ``calibration`` names and their ``dpcov_adassp_calibration`` values."""


class AdasspReceipt(PrefixedReceipt):
    """A ``dpcov_adassp_receipt``: the common prefix (mechanism ``Mechanism.ADASSP``, named
    "adassp" by ``mechanism_name``; privacy_model, neighbour, numerics (always 0 = idealized: the
    Gaussian noise is sampled in floating point, the guarantee is the idealized mechanism's,
    Mironov 2012), generator, seed_fixed, epsilon, delta, rho (the fit is rho-zCDP: what a zCDP
    ledger charges), bound (B_X), n (-1: the fit takes the Gram matrix), theorem), then
    calibration, num_regressors, bound_y, delta_exact, failure_probability (of the ridge), the
    three sensitivities and noise scales, lambda_min_shift, noise_norm_bound, eigenvalue_floor,
    and from the release released_lambda_min, ridge and eigenvalues_floored; with
    ``label_square_released`` also sensitivity_label_square, sigma_label_square and
    released_label_square (y'y~); max_rows_per_unit (k of a fit at the level of privacy units,
    0 at row level); lambda_min_released (1 by default; 0 for a fit without the lambda_min
    step, whose lambda_min constants are then 0 and whose ridge is noise_norm_bound)."""

    __slots__ = ()
    _struct_type = AdasspReceiptC

    def public(self) -> "AdasspReceipt":
        """The part of this receipt that may be published: all of it. ``n`` is -1 (the fit
        takes the Gram matrix, not a count), and every other field that depends on the data is
        of the release (the released lambda_min and y'y~, the ridge and the eigenvalues floored
        that follow from them: post-processing). As :meth:`Receipt.public`, so that one call
        publishes the receipt of any estimator."""
        return self


class AdasspFit(NamedTuple):
    """Coefficients (in the order of ``features``), the released X'X~ and X'y~, the receipt."""

    coefficients: np.ndarray
    released_xtx: np.ndarray
    released_xty: np.ndarray
    receipt: AdasspReceipt


def _choice(value, allowed: dict, name: str) -> int:
    """The integer of an option given by name (case-insensitive, '-' read as '_') or value;
    ValueError naming the allowed ones otherwise."""
    if isinstance(value, str):
        key = value.strip().lower().replace("-", "_")
        if key in allowed:
            return allowed[key]
    elif isinstance(value, (int, np.integer)) and int(value) in allowed.values():
        return int(value)
    raise ValueError(f"{name} must be one of {', '.join(repr(k) for k in allowed)}; "
                     f"got {value!r}")


class AdasspIntervals(NamedTuple):
    """Noise-aware intervals for beta (``dpcov_adassp_bootstrap_intervals``): the unregularised
    coefficients X'X~^{-1} X'y~, the bootstrap standard errors, p-values of beta_j = 0 and the
    interval ends, each in the order of the fit's ``features``."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray


class AdasspAnswer(NamedTuple):
    """The regression intervals at every n (``dpcov_adassp_intervals``): as
    :class:`AdasspIntervals`, with ``conclusive`` (bool per coefficient: False when the interval
    contains [-R_j, R_j], the values that matter by the public bounds, or when the posterior's
    chains did not converge for it, or when its prior decides it), ``method`` ("bootstrap" or
    "posterior"), ``unconverged`` (bool per coefficient: True where the posterior's chains did
    not converge, so that its interval is not the posterior's) and ``prior_decides`` (bool per
    coefficient: True where the posterior's interval is so much wider than its point moves over
    releases that a prior, not the release, decides it; proofs/adassp_posterior.md, "What the
    prior decides")."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    conclusive: np.ndarray
    method: str
    unconverged: np.ndarray = np.zeros(0, dtype=bool)
    prior_decides: np.ndarray = np.zeros(0, dtype=bool)


def adassp_params(neighbour="replace_one", calibration="joint_analytic",
                  rho: float = 0.05, release_label_square: bool = False,
                  max_rows_per_unit: int = 0, without_lambda_min: bool = False) -> AdasspParamsC:
    """A ``dpcov_adassp_params`` from the library's defaults (``dpcov_adassp_params_default``)
    with the given options; ``max_rows_per_unit`` k > 0 for a fit at the level of privacy units
    (the Gram holds at most k rows per unit; proofs/adassp_units.md); ``without_lambda_min``
    releases X'X, X'y (and y'y) alone, at larger shares of the budget, with the ridge at its
    public bound (proofs/adassp.md, "Without the lambda_min step")."""
    params = AdasspParamsC()
    _check(C.dpcov_adassp_params_init(byref(params), sizeof(params)))
    params.neighbour = _choice(neighbour, NEIGHBOURS, "neighbour")
    params.calibration = _choice(calibration, CALIBRATIONS, "calibration")
    params.rho = rho
    params.release_label_square = 1 if release_label_square else 0
    params.max_rows_per_unit = _arrays.whole_number(max_rows_per_unit, "max_rows_per_unit")
    params.without_lambda_min = 1 if without_lambda_min else 0
    return params


def adassp_plan(num_features: int, bound_x: float, bound_y: float, epsilon: float,
                delta: float, neighbour="replace_one", calibration="joint_analytic",
                rho: float = 0.05, release_label_square: bool = False,
                max_rows_per_unit: int = 0, without_lambda_min: bool = False) -> AdasspReceipt:
    """Every data-independent constant of an AdaSSP fit (``dpcov_adassp_plan``), ``rho``
    included: what an accountant checks before the fit (a zCDP ledger charges ``rho``,
    basic and advanced ones (epsilon, delta)). ``max_rows_per_unit``, ``without_lambda_min``: as
    for :func:`adassp_fit`."""
    params = adassp_params(neighbour, calibration, rho, release_label_square, max_rows_per_unit,
                           without_lambda_min)
    receipt = new_struct(AdasspReceiptC)
    _check(C.dpcov_adassp_plan(num_features, bound_x, bound_y,
                               epsilon, delta, byref(params), byref(receipt)))
    return AdasspReceipt(receipt)


def adassp_fit(g, label: int, features, bound_x: float, bound_y: float, epsilon: float,
               delta: float, rng, neighbour="replace_one", calibration="joint_analytic",
               rho: float = 0.05, release_label_square: bool = False,
               max_rows_per_unit: int = 0, without_lambda_min: bool = False) -> AdasspFit:
    """AdaSSP regression of column ``label`` on columns ``features`` of the exact Gram matrix
    ``g`` of rows whose regressor part has norm <= ``bound_x`` and whose label has
    ``|y| <= bound_y`` (``dpcov_adassp_fit``). Spends (epsilon, delta) once; never fails for a
    positive-definiteness reason (proofs/adassp.md). ``release_label_square`` also releases y'y,
    which :func:`adassp_bootstrap_intervals` needs. An active :class:`~dpcov.BudgetAccountant`
    is checked with the fit's plan before any noise is drawn and charged with its receipt after
    (its zCDP rho under zCDP accounting, (epsilon, delta) otherwise). ``max_rows_per_unit`` = k
    > 0: ``g`` holds at most k rows of each privacy unit (an accumulator of units,
    :meth:`~dpcov.GramAccumulator.add_unit_rows`, chose them) and the fit is (epsilon,
    delta)-DP at unit level, ``neighbour`` then naming how units differ (proofs/adassp_units.md);
    its receipt has no intervals (:func:`adassp_intervals` refuses it). ``without_lambda_min``:
    no lambda_min step, X'X, X'y (and y'y) each at a half (a third) of the Gaussian mechanism's
    budget and the ridge at its public bound, for small n (:func:`adassp_small_n_split` decides
    it; proofs/adassp.md, "Without the lambda_min step")."""
    m = _arrays.square(g, "g")
    cols = _arrays.int64_vector(features, "features")
    p = cols.size
    coef = np.empty(p, dtype=np.float64)
    xtx = _arrays.empty(p, p, m.layout)
    xty = np.empty(p, dtype=np.float64)
    params = adassp_params(neighbour, calibration, rho, release_label_square, max_rows_per_unit,
                           without_lambda_min)
    receipt = new_struct(AdasspReceiptC)
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = adassp_plan(p, bound_x, bound_y, epsilon, delta, neighbour, calibration, rho,
                              release_label_square, max_rows_per_unit, without_lambda_min)
        budget.check(planned)
    with charged_if_drawn(budget, planned, rng):
        _check(C.dpcov_adassp_fit(m.layout, m.rows, m.ptr, m.ld, label, _arrays.ptr(cols),
                                  p, bound_x, bound_y, epsilon,
                                  delta, byref(params), rng, _arrays.ptr(coef), xtx.ptr,
                                  xtx.ld, _arrays.ptr(xty), byref(receipt)))
    fit = AdasspFit(coef, xtx.array, xty, AdasspReceipt(receipt))
    if budget is not None:
        budget.charge(fit.receipt)
    return fit


def adassp_bootstrap_intervals(fit: AdasspFit, n: int, rng, level: float = 0.95,
                               num_bootstrap: int = DPCOV_INTERVAL_DRAWS) -> AdasspIntervals:
    """Noise-aware intervals and p-values for beta from a fit that released y'y
    (``dpcov_adassp_bootstrap_intervals``; parametric bootstrap from AdaSSP's noise law, fixed
    design, ``n`` the public number of rows). Post-processing: no privacy cost. Raises
    PreconditionError when the noise swamps the data."""
    m = _arrays.square(fit.released_xtx, "released_xtx")
    xty = _arrays.vector(fit.released_xty, "released_xty")
    p = m.rows
    out = [np.empty(p, dtype=np.float64) for _ in range(5)]
    _check(C.dpcov_adassp_bootstrap_intervals(
        m.layout, p, m.ptr, m.ld, _arrays.ptr(xty), n, byref(fit.receipt._struct),
        level, num_bootstrap, rng, *(_arrays.ptr(v) for v in out)))
    return AdasspIntervals(*out)


def adassp_intervals(fit: AdasspFit, n: int, rng, intercept_column: int = -1,
                     level: float = 0.95, num_draws: int = DPCOV_INTERVAL_DRAWS) -> AdasspAnswer:
    """Intervals for beta from a fit that released y'y at every n (``dpcov_adassp_intervals``):
    the parametric bootstrap where it answers, else a noise-aware posterior over the released
    statistics (proofs/adassp_posterior.md), and per coefficient whether its interval supports a
    conclusion. Post-processing: no privacy cost."""
    m = _arrays.square(fit.released_xtx, "released_xtx")
    xty = _arrays.vector(fit.released_xty, "released_xty")
    p = m.rows
    out = [np.empty(p, dtype=np.float64) for _ in range(5)]
    conclusive = np.empty(p, dtype=np.int32)
    method = np.empty(1, dtype=np.int32)
    _check(C.dpcov_adassp_intervals(
        m.layout, p, m.ptr, m.ld, _arrays.ptr(xty), n, byref(fit.receipt._struct),
        intercept_column, level, num_draws, rng,
        *(_arrays.ptr(v) for v in out), _arrays.ptr(conclusive), _arrays.ptr(method)))
    name = "posterior" if int(method[0]) == DPCOV_INTERVALS_POSTERIOR else "bootstrap"
    return AdasspAnswer(*out, conclusive == 1, name, conclusive == -1, conclusive == -2)


class ProfileAnswer(NamedTuple):
    """The profile intervals of a release (``dpcov_adassp_profile_intervals``): beta~, the
    p-value of beta_j = 0, the interval ends, and ``conclusive`` (bool per coefficient: False when
    the interval contains [-R_j, R_j], the values that matter by the public bounds)."""

    coefficients: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    conclusive: np.ndarray


def adassp_profile_intervals(fit: AdasspFit, n: int = 0, meat=None, intercept_column: int = -1,
                             level: float = 0.95) -> ProfileAnswer:
    """Intervals for beta from the profile of the release's pivot vector, on every release and
    without draws (``dpcov_adassp_profile_intervals``; proofs/pivot_profile.md): homoscedastic
    errors from y'y and the public ``n``, or robust ones from the released ``meat`` (then y'y
    and ``n`` are not read). Post-processing: no privacy cost."""
    m = _arrays.square(fit.released_xtx, "released_xtx")
    xty = _arrays.vector(fit.released_xty, "released_xty")
    p = m.rows
    meat_ptr, meat_ld = None, p
    if meat is not None:
        mm = _arrays.square(meat, "meat", layout=m.layout)
        meat_ptr, meat_ld = mm.ptr, mm.ld
    out = [np.empty(p, dtype=np.float64) for _ in range(4)]
    conclusive = np.empty(p, dtype=np.int32)
    _check(C.dpcov_adassp_profile_intervals(
        m.layout, p, m.ptr, m.ld, _arrays.ptr(xty), n, byref(fit.receipt._struct),
        meat_ptr, meat_ld, intercept_column, level,
        *(_arrays.ptr(v) for v in out), _arrays.ptr(conclusive)))
    return ProfileAnswer(*out, conclusive == 1)


class SandwichBudget(NamedTuple):
    """The public constants of AdaSSP's robust intervals (``dpcov_adassp_sandwich_plan``): the
    fit's and the meat's shares of (epsilon, delta), the meat's share, the residual bound R and
    the meat rows' norm bound B_X R."""

    fit_epsilon: float
    fit_delta: float
    meat_epsilon: float
    meat_delta: float
    meat_share: float
    residual_bound: float
    meat_row_bound: float


def sandwich_plan(bound_x: float, bound_y: float, epsilon: float,
                  delta: float) -> SandwichBudget:
    """Split (epsilon, delta) between an AdaSSP fit and the Analyze Gauss release of its meat
    sum_i r_i^2 x_i x_i' (``dpcov_adassp_sandwich_plan``; proofs/sandwich.md). No data."""
    budget = new_struct(SandwichBudgetC)
    _check(C.dpcov_adassp_sandwich_plan(bound_x, bound_y, epsilon,
                                        delta, byref(budget)))
    return SandwichBudget(*(float(getattr(budget, f)) for f in SandwichBudget._fields))


def sandwich_rows(xy, beta0, bound_x: float, residual_bound: float) -> np.ndarray:
    """The meat's rows r_i x_i, r_i = clip(y_i - x_i' beta0, -R, R), of the bounded rows ``xy``
    ([x, y], the label last) at the fit's coefficients ``beta0``, each of norm at most
    ``bound_x * residual_bound`` (``dpcov_adassp_sandwich_rows``). They are the data: release
    them through a bounded accumulator with Analyze Gauss, never directly."""
    m = _arrays.matrix(xy, "xy")
    beta = _arrays.vector(beta0, "beta0", m.cols - 1)
    u = _arrays.empty(m.rows, max(m.cols - 1, 1), m.layout)
    _check(C.dpcov_adassp_sandwich_rows(m.layout, m.rows, m.cols - 1, m.ptr, m.ld,
                                        _arrays.ptr(beta), bound_x, residual_bound,
                                        u.ptr, u.ld))
    return u.array


def adassp_sandwich_intervals(fit: AdasspFit, meat, rng, level: float = 0.95,
                              num_bootstrap: int = DPCOV_INTERVAL_DRAWS, meat_receipt=None) -> AdasspIntervals:
    """Intervals for beta robust to heteroscedastic errors and a misspecified mean, from a fit
    and the released meat (``dpcov_adassp_sandwich_intervals``; parametric bootstrap whose
    sampling noise of X'y is N(0, meat)). With the meat's receipt ``meat_receipt``, the meat's
    own noise is redrawn in every bootstrap world (``dpcov_adassp_robust_intervals``): pass it.
    Post-processing: no privacy cost, no y'y or n. Raises PreconditionError when the noise swamps
    the data."""
    m = _arrays.square(fit.released_xtx, "released_xtx")
    w = _arrays.square(meat, "meat", m.layout)
    xty = _arrays.vector(fit.released_xty, "released_xty")
    p = m.rows
    out = [np.empty(p, dtype=np.float64) for _ in range(5)]
    head = (m.layout, p, m.ptr, m.ld, _arrays.ptr(xty), byref(fit.receipt._struct), w.ptr, w.ld)
    tail = (float(level), num_bootstrap, rng, *(_arrays.ptr(v) for v in out))
    if meat_receipt is None:
        _check(C.dpcov_adassp_sandwich_intervals(*head, *tail))
    else:
        _check(C.dpcov_adassp_robust_intervals(*head, byref(meat_receipt._struct), *tail))
    return AdasspIntervals(*out)
