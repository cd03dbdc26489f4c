"""Differentially private ordinary least squares with inference (dpcov/ols.h; Sheffet,
ICML 2017)."""

from __future__ import annotations

from ctypes import byref, c_double
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._generated import DPCOV_INTERVAL_DRAWS
from ._lib import C, ReceiptC, RegressionSummaryC, _check, new_struct
from .estimators import regression_params
from .ledger import active_accountant, charged_if_drawn
from .mechanism import mechanism_params, plan
from .types import Receipt, RegressionSummary


class OlsResult(NamedTuple):
    """Private OLS: per-coefficient arrays (intercept first), reject decisions at 1 - level, the
    summary and the release's receipt."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    t_values: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    reject: np.ndarray
    summary: RegressionSummary
    receipt: Receipt


def _run(fn, mechanism, g, n, bound, epsilon, delta, rng, label, features, intercept_column,
         level, params):
    """Call one of the two private OLS functions with freshly allocated outputs. The active
    accountant (dpcov.ledger), if any, checks the release's plan before any noise is drawn and is
    charged after the release, or after a failure that drew noise (a refusal of ols_jl's private
    test spends the budget too: :func:`~dpcov.ledger.charged_if_drawn`); a bad argument is not
    charged."""
    m = _arrays.square(g, "g")
    budget = active_accountant()
    planned = None
    if budget is not None:
        planned = plan(mechanism, m.rows, n, bound, epsilon, delta, **params)
        budget.check(planned)
    cols = _arrays.int64_vector(features, "features")
    p = cols.size + (1 if intercept_column >= 0 else 0)
    outs = [np.empty(max(p, 0), dtype=np.float64) for _ in range(6)]
    reject = np.empty(max(p, 0), dtype=np.int32)
    mp = mechanism_params(**params)
    rp = regression_params(intercept_column, 0.0, level)
    summary = new_struct(RegressionSummaryC)
    receipt = new_struct(ReceiptC)
    with charged_if_drawn(budget, planned, rng):
        _check(fn(m.layout, m.rows, m.ptr, m.ld, int(n), float(bound), float(epsilon),
                  float(delta), byref(mp), int(label), _arrays.ptr(cols), cols.size, byref(rp),
                  rng, *[_arrays.ptr(o) for o in outs], _arrays.ptr(reject), byref(summary),
                  byref(receipt)))
    result = OlsResult(*outs, reject.astype(bool), RegressionSummary(summary), Receipt(receipt))
    if budget is not None:
        budget.charge(result.receipt)
    return result


def ols_jl(g, n: int, bound: float, epsilon: float, delta: float, rng, label: int, features,
           projection_rows: int, intercept_column: int = -1, level: float = 0.95,
           **params) -> OlsResult:
    """Private OLS by projection, ICML 2017 Alg. 1 (``dpcov_ols_jl``): a private test on
    sigma_min, then regression on the projection R A with exact Student T_{r-p} intervals about
    the non-private estimate. Raises :class:`~dpcov.errors.RefusedError` when the test fails
    (its noise is consumed: a retry is a new release)."""
    return _run(C.dpcov_ols_jl, "ols_jl", g, n, bound, epsilon, delta, rng, label, features,
                intercept_column, level, dict(params, projection_rows=projection_rows))


def ols_analyze_gauss(g, n: int, bound: float, epsilon: float, delta: float, rng, label: int,
                      features, intercept_column: int = -1, level: float = 0.95,
                      **params) -> OlsResult:
    """Analyze Gauss release plus plug-in OLS inference with n - p degrees of freedom
    (``dpcov_ols_analyze_gauss``). The release is (epsilon, delta)-DP; the intervals have NO
    coverage guarantee."""
    return _run(C.dpcov_ols_analyze_gauss, "analyze_gauss", g, n, bound, epsilon, delta, rng, label, features,
                intercept_column, level, params)


class AnalyzeGaussIntervals(NamedTuple):
    """Guaranteed intervals from an Analyze Gauss release (intercept first): ``ci_lower`` /
    ``ci_upper`` cover the model's coefficients with probability >= level, ``data_ci_lower`` /
    ``data_ci_upper`` the OLS estimate on the data with probability >= 1 - (1 - level)/2;
    ``noise_norm_bound`` is eta and ``kappa`` = eta / lambda_min of the released X'X."""

    coefficients: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    data_ci_lower: np.ndarray
    data_ci_upper: np.ndarray
    reject: np.ndarray
    noise_norm_bound: float
    kappa: float


def _interval_arguments(released, features, intercept_column: int, level: float):
    """The release, the feature columns, five output arrays of one double per coefficient and
    the regression parameters (no ridge) of every interval function here."""
    m = _arrays.square(released, "released")
    cols = _arrays.int64_vector(features, "features")
    p = cols.size + (1 if intercept_column >= 0 else 0)
    outs = [np.empty(max(p, 0), dtype=np.float64) for _ in range(5)]
    return m, cols, outs, regression_params(intercept_column, 0.0, level)


def ols_analyze_gauss_intervals(released, sigma: float, n: int, label: int, features,
                                intercept_column: int = -1,
                                level: float = 0.95) -> AnalyzeGaussIntervals:
    """Guaranteed OLS intervals from an Analyze Gauss release whose receipt gave ``sigma``
    (``dpcov_ols_analyze_gauss_intervals``; proofs/ols_analyze_gauss.md). Post-processing: no
    privacy cost. Raises :class:`~dpcov.errors.PreconditionError` when the noise is too large for
    any guarantee (kappa >= 1)."""
    m, cols, outs, rp = _interval_arguments(released, features, intercept_column, level)
    reject = np.empty(len(outs[0]), dtype=np.int32)
    eta, kappa = c_double(), c_double()
    _check(C.dpcov_ols_analyze_gauss_intervals(
        m.layout, m.rows, m.ptr, m.ld, sigma, n, label, _arrays.ptr(cols),
        cols.size, byref(rp), *[_arrays.ptr(o) for o in outs], _arrays.ptr(reject), byref(eta),
        byref(kappa)))
    return AnalyzeGaussIntervals(*outs, reject.astype(bool), eta.value, kappa.value)


class BootstrapIntervals(NamedTuple):
    """Noise-aware intervals from a release (intercept first): percentile intervals of a
    parametric bootstrap that redraws the model's sampling noise and the mechanism's noise,
    hulled, along a direction of X'X only a few noise sds strong, with the profile of the pivot
    vector there (proofs/bootstrap_worlds.md, "The profile beside the worlds");
    ``std_errors`` is the spread of the refits, ``p_values`` test beta_j = 0 consistently with
    the intervals, ``noise_norm`` is the level-quantile of the noise's spectral norm on X'X and
    ``kappa`` its ratio to lambda_min of the released X'X."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    noise_norm: float
    kappa: float


def bootstrap_draws_check(level: float, num_bootstrap: int) -> None:
    """Whether ``num_bootstrap`` worlds form percentile intervals at ``level``, as every bootstrap
    interval requires (``dpcov_bootstrap_draws_check``): raises
    :class:`~dpcov.errors.InvalidArgumentError` (a ValueError) otherwise. Reads no data; a fit
    calls it before its release, so that a refused number spends nothing."""
    if isinstance(num_bootstrap, bool) or not isinstance(num_bootstrap, (int, np.integer)):
        raise TypeError(f"the number of bootstrap draws must be an integer, got "
                        f"{num_bootstrap!r}")
    _check(C.dpcov_bootstrap_draws_check(level, num_bootstrap))


def ols_bootstrap_intervals(released, receipt: Receipt, label: int, features, rng,
                            intercept_column: int = -1, level: float = 0.95,
                            num_bootstrap: int = DPCOV_INTERVAL_DRAWS) -> BootstrapIntervals:
    """Noise-aware OLS intervals and p-values from a release of analyze_gauss, laplace_sym or
    wishart_additive and its ``receipt`` (``dpcov_ols_bootstrap_intervals``; Ferrando, Wang,
    Sheldon, AISTATS 2022). Post-processing: no privacy cost; ``rng`` draws the bootstrap.
    Raises :class:`~dpcov.errors.PreconditionError` when the noise swamps the data."""
    m, cols, outs, rp = _interval_arguments(released, features, intercept_column, level)
    norm, kappa = c_double(), c_double()
    _check(C.dpcov_ols_bootstrap_intervals(
        m.layout, m.rows, m.ptr, m.ld, byref(receipt._struct), label, _arrays.ptr(cols),
        cols.size, byref(rp), num_bootstrap, rng, *[_arrays.ptr(o) for o in outs],
        byref(norm), byref(kappa)))
    return BootstrapIntervals(*outs, norm.value, kappa.value)


def ols_sandwich_intervals(released, receipt: Receipt, label: int, features, meat, rng,
                           intercept_column: int = -1, level: float = 0.95,
                           num_bootstrap: int = DPCOV_INTERVAL_DRAWS,
                           meat_receipt: Receipt | None = None) -> BootstrapIntervals:
    """Noise-aware OLS intervals robust to heteroscedastic errors and a misspecified mean, from a
    Gram mechanism's release, its ``receipt`` and the released ``meat`` sum r_i^2 x_i x_i' (p x p,
    intercept first) (``dpcov_ols_sandwich_intervals``, proofs/sandwich.md). With the meat's
    receipt ``meat_receipt``, the meat's own noise is redrawn in every bootstrap world
    (``dpcov_ols_robust_intervals``): pass it. Post-processing: no privacy cost; ``noise_norm``
    and ``kappa`` are NaN (not computed). Raises :class:`~dpcov.errors.PreconditionError` when the
    noise swamps the data."""
    m, cols, outs, rp = _interval_arguments(released, features, intercept_column, level)
    w = _arrays.square(meat, "meat", m.layout)
    head = (m.layout, m.rows, m.ptr, m.ld, byref(receipt._struct), int(label), _arrays.ptr(cols),
            cols.size, byref(rp), w.ptr, w.ld)
    tail = (int(num_bootstrap), rng, *[_arrays.ptr(o) for o in outs])
    if meat_receipt is None:
        _check(C.dpcov_ols_sandwich_intervals(*head, *tail))
    else:
        _check(C.dpcov_ols_robust_intervals(*head, byref(meat_receipt._struct), *tail))
    return BootstrapIntervals(*outs, float("nan"), float("nan"))


class OlsIntervals(NamedTuple):
    """Noise-aware intervals from a release with an outcome per coefficient (intercept first):
    as :class:`BootstrapIntervals`, with ``conclusive`` (bool per coefficient) False and NaN
    interval ends, standard error and p-value where ``unbounded`` says the release does not bound
    the coefficient, along a direction of X'X too weak against the privacy noise
    (proofs/bootstrap_worlds.md, "The profile beside the worlds"); ``noise_norm`` and ``kappa``
    as there."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    conclusive: np.ndarray
    unbounded: np.ndarray
    noise_norm: float
    kappa: float


def ols_intervals(released, receipt: Receipt, label: int, features, rng,
                  intercept_column: int = -1, level: float = 0.95, num_bootstrap: int = DPCOV_INTERVAL_DRAWS,
                  meat=None, meat_receipt: Receipt | None = None) -> OlsIntervals:
    """The intervals of :func:`ols_bootstrap_intervals` (no ``meat``: homoscedastic errors) or,
    with the released ``meat`` and its ``meat_receipt``, of :func:`ols_sandwich_intervals` with
    the meat's noise redrawn (``dpcov_ols_intervals``), where a coefficient along a direction
    the release may have made goes without an interval (``unbounded``) and the others keep
    theirs, instead of a refusal of the whole fit. Post-processing: no privacy cost. Raises
    :class:`~dpcov.errors.PreconditionError` when the noise swamps the data."""
    m, cols, outs, rp = _interval_arguments(released, features, intercept_column, level)
    conclusive = np.empty(len(outs[0]), dtype=np.int32)
    w = _arrays.square(meat, "meat", m.layout) if meat is not None else None
    norm, kappa = c_double(), c_double()
    _check(C.dpcov_ols_intervals(
        m.layout, m.rows, m.ptr, m.ld, byref(receipt._struct), label, _arrays.ptr(cols),
        cols.size, byref(rp), w.ptr if w is not None else None, w.ld if w is not None else 0,
        byref(meat_receipt._struct) if meat_receipt is not None else None, num_bootstrap,
        rng, *[_arrays.ptr(o) for o in outs], _arrays.ptr(conclusive), byref(norm),
        byref(kappa)))
    return OlsIntervals(*outs, conclusive == 1, conclusive == -3, norm.value, kappa.value)
