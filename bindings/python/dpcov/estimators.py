"""Estimators and metrics on released matrices (dpcov/estimators.h); post-processing only.

Regression with standard errors, t-values, p-values and confidence intervals; top-k PCA and
subspace distances; the graphical lasso; accuracy metrics. Matrices are read in place in their own
storage order; symmetric inputs must be exactly symmetric.
"""

from __future__ import annotations

from ctypes import byref, c_double, c_int32, sizeof
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import (C, GlassoInfoC, GlassoParamsC, RegressionParamsC, RegressionSummaryC,
                   SupportRecoveryC, _check, new_struct)
from .types import GlassoInfo, RegressionSummary, SupportRecovery


class RegressionResult(NamedTuple):
    """Per-coefficient arrays (intercept first when there is one) and the scalar summary."""

    coefficients: np.ndarray
    std_errors: np.ndarray
    t_values: np.ndarray
    p_values: np.ndarray
    ci_lower: np.ndarray
    ci_upper: np.ndarray
    summary: RegressionSummary


def regression_params(intercept_column: int = -1, ridge: float = 0.0,
                      level: float = 0.95) -> RegressionParamsC:
    """A ``dpcov_regression_params`` from ``dpcov_regression_params_default`` with the given
    fields."""
    params = RegressionParamsC()
    _check(C.dpcov_regression_params_init(byref(params), sizeof(params)))
    params.intercept_column = _arrays.whole_number(intercept_column, "intercept_column")
    params.ridge = ridge
    params.level = level
    return params


def _coefficient_arrays(p: int):
    """Six new arrays of ``p`` doubles for the per-coefficient outputs."""
    return [np.empty(p, dtype=np.float64) for _ in range(6)]


def regression_fit(g, n: int, label: int, features, intercept_column: int = -1,
                   ridge: float = 0.0, level: float = 0.95) -> RegressionResult:
    """Regress column ``label`` on the ``features`` columns of the second-moment matrix ``g``
    (unnormalised, of ``n`` rows) with an optional intercept column and ridge penalty
    (``dpcov_regression_fit``). ``n`` is public under replace-one neighbours only; under
    add/remove pass the release's own count (its intercept column's entry, rounded), as
    :class:`~dpcov.PrivateLinearRegression` does.

    A noisy release can make X'X + ridge D indefinite: the call then raises
    :class:`~dpcov.errors.NotPositiveDefiniteError` whose message gives the smallest eigenvalue
    and suggests a ridge penalty or a PSD projection.
    """
    m = _arrays.square(g, "g")
    cols = _arrays.int64_vector(features, "features")
    p = cols.size + (1 if intercept_column >= 0 else 0)
    outs = _coefficient_arrays(max(p, 0))
    params = regression_params(intercept_column, ridge, level)
    summary = new_struct(RegressionSummaryC)
    _check(C.dpcov_regression_fit(m.layout, m.rows, m.ptr, m.ld, n, label,
                                  _arrays.ptr(cols), cols.size, byref(params),
                                  *[o.ctypes.data if o.size else None for o in outs],
                                  byref(summary)))
    return RegressionResult(*outs, RegressionSummary(summary))


class PcaResult(NamedTuple):
    """Top-k eigenvalues (descending), eigenvectors (d x k, column i for value i) and the
    explained-variance ratios of the PSD projection, max(values, 0) / sum of the positive
    eigenvalues, in [0, 1]."""

    values: np.ndarray
    vectors: np.ndarray
    explained_ratio: np.ndarray | None


def pca_top_k(a, k: int, explained_ratio: bool = True) -> PcaResult:
    """The k largest eigenvalues of the symmetric ``a`` and their eigenvectors, each with its
    largest-magnitude entry positive (``dpcov_pca_top_k``). ``explained_ratio``: those of
    the PSD projection of ``a``. ``vectors`` has the storage order of ``a``."""
    m = _arrays.square(a, "a")
    k = _arrays.whole_number(k, "k")
    values = np.empty(max(k, 0), dtype=np.float64)
    vecs = _arrays.empty(m.rows, max(k, 0), m.layout)
    ratio = np.empty(max(k, 0), dtype=np.float64) if explained_ratio else None
    _check(C.dpcov_pca_top_k(m.layout, m.rows, m.ptr, m.ld, k, _arrays.ptr(values), vecs.ptr,
                             vecs.ld, _arrays.ptr(ratio)))
    return PcaResult(values, vecs.array, ratio)


class SubspaceErrorBound(NamedTuple):
    """How far a release's top-k subspace can be from the true one: ``sin_theta_bound`` (in
    [0, 1]), the noise's spectral-norm quantile ``noise_norm``, the released ``eigengap`` and
    ``swamped`` (the gap is below twice the noise norm)."""

    sin_theta_bound: float
    noise_norm: float
    eigengap: float
    swamped: bool


def pca_subspace_error_bound(released, receipt, k: int, rng, level: float = 0.95,
                             num_draws: int = 200) -> SubspaceErrorBound:
    """Davis-Kahan bound on ||sin Theta||_2 between the top-k subspace of a release and the
    true one, from the release and its receipt (``dpcov_pca_subspace_error_bound``; no privacy
    cost; ``rng`` draws the noise-norm quantile)."""
    m = _arrays.square(released, "released")
    norm, gap, bound, swamped = c_double(), c_double(), c_double(), c_int32()
    _check(C.dpcov_pca_subspace_error_bound(m.layout, m.rows, m.ptr, m.ld, byref(receipt._struct),
                                            k, level, num_draws, rng,
                                            byref(norm), byref(gap), byref(bound),
                                            byref(swamped)))
    return SubspaceErrorBound(bound.value, norm.value, gap.value, bool(swamped.value))


def pca_centred_subspace_error_bound(released, receipt, k: int, rng, constant_column: int = 0,
                                     constant: float = 1.0, n: int = 0, level: float = 0.95,
                                     num_draws: int = 200) -> SubspaceErrorBound:
    """The same bound for the centred covariance from a released second moment of rows [c, x]
    (``dpcov_pca_centred_subspace_error_bound``; centred as :func:`centre_second_moment` with
    ``constant_column``, ``constant`` and the public ``n``, 0 to estimate it). A plug-in: the
    noise norm is that of centre(M) - centre(M - E) over simulated noise draws E at the release
    M, up to a multiple of the identity: (lambda_max - lambda_min) / 2. No privacy cost."""
    m = _arrays.square(released, "released")
    norm, gap, bound, swamped = c_double(), c_double(), c_double(), c_int32()
    _check(C.dpcov_pca_centred_subspace_error_bound(
        m.layout, m.rows, m.ptr, m.ld, byref(receipt._struct), constant_column,
        constant, n, k, level, num_draws, rng, byref(norm),
        byref(gap), byref(bound), byref(swamped)))
    return SubspaceErrorBound(bound.value, norm.value, gap.value, bool(swamped.value))


class SubspaceDistance(NamedTuple):
    """sin-theta distances between two top-k eigenvector subspaces and the principal angles."""

    sin_theta_spectral: float
    sin_theta_frobenius: float
    angles: np.ndarray


def pca_subspace_distance(a, b, k: int) -> SubspaceDistance:
    """Principal angles and Davis-Kahan sin-theta distances between the top-k eigenvector
    subspaces of the symmetric ``a`` and ``b`` (``dpcov_pca_subspace_distance``)."""
    ma = _arrays.square(a, "a")
    mb = _arrays.square(b, "b", ma.layout)
    _arrays.same_shape(ma, "a", mb, "b")
    spectral, frobenius = c_double(), c_double()
    angles = np.empty(max(_arrays.whole_number(k, "k"), 0), dtype=np.float64)
    _check(C.dpcov_pca_subspace_distance(ma.layout, ma.rows, ma.ptr, ma.ld, mb.ptr, mb.ld, k,
                                         byref(spectral), byref(frobenius), _arrays.ptr(angles)))
    return SubspaceDistance(spectral.value, frobenius.value, angles)


class GlassoResult(NamedTuple):
    """The graphical-lasso precision matrix Theta, its inverse W and convergence information."""

    precision: np.ndarray
    covariance: np.ndarray
    info: GlassoInfo


def glasso_solve(s, rho: float, warm_start=None, penalize_diagonal: bool = True,
                 tol: float = 1e-6, max_iter: int = 1000) -> GlassoResult:
    """The graphical lasso (sparse inverse covariance) of the symmetric ``s`` with penalty
    ``rho`` (``dpcov_glasso_solve``, defaults from ``dpcov_glasso_params_default`` except those
    given). Outputs have the storage order of ``s``."""
    m = _arrays.square(s, "s")
    params = GlassoParamsC()
    _check(C.dpcov_glasso_params_init(byref(params), sizeof(params)))
    params.penalize_diagonal = int(_arrays.flag(penalize_diagonal, "penalize_diagonal"))
    params.tol = tol
    params.max_iter = _arrays.whole_number(max_iter, "max_iter")
    warm_ptr, warm_ld = None, 0
    if warm_start is not None:
        w = _arrays.square(warm_start, "warm_start", m.layout)
        _arrays.same_shape(m, "s", w, "warm_start")
        warm_ptr, warm_ld = w.ptr, w.ld
    precision = _arrays.empty(m.rows, m.rows, m.layout)
    covariance = _arrays.empty(m.rows, m.rows, m.layout)
    info = new_struct(GlassoInfoC)
    _check(C.dpcov_glasso_solve(m.layout, m.rows, m.ptr, m.ld, rho, byref(params),
                                warm_ptr, warm_ld, precision.ptr, precision.ld, covariance.ptr,
                                covariance.ld, byref(info)))
    return GlassoResult(precision.array, covariance.array, GlassoInfo(info))


def _matrix_pair(a, b):
    """Two matrices of one call in one storage order and of one shape."""
    ma = _arrays.matrix(a, "a")
    mb = _arrays.matrix(b, "b", layout=ma.layout)
    _arrays.same_shape(ma, "a", mb, "b")
    return ma, mb


def metric_frobenius_error(a, b, relative: bool = False) -> float:
    """||a - b||_F, or ||a - b||_F / ||b||_F if ``relative`` (``dpcov_metric_frobenius_error``).
    Both arrays must share one storage order."""
    ma, mb = _matrix_pair(a, b)
    out = c_double()
    rel = int(_arrays.flag(relative, "relative"))
    _check(C.dpcov_metric_frobenius_error(ma.layout, ma.rows, ma.cols, ma.ptr, ma.ld, mb.ptr,
                                          mb.ld, rel, byref(out)))
    return out.value


def metric_spectral_error(a, b, relative: bool = False) -> float:
    """||a - b||_2, or relative to ||b||_2 (``dpcov_metric_spectral_error``). Both arrays must
    share one storage order."""
    ma, mb = _matrix_pair(a, b)
    out = c_double()
    rel = int(_arrays.flag(relative, "relative"))
    _check(C.dpcov_metric_spectral_error(ma.layout, ma.rows, ma.cols, ma.ptr, ma.ld, mb.ptr,
                                         mb.ld, rel, byref(out)))
    return out.value


def metric_vector_error(a, b, relative: bool = False) -> float:
    """||a - b||_2, or relative to ||b||_2, of two vectors (``dpcov_metric_vector_error``)."""
    va = _arrays.vector(a, "a")
    vb = _arrays.vector(b, "b", va.shape[0])
    out = c_double()
    _check(C.dpcov_metric_vector_error(va.shape[0], _arrays.ptr(va), _arrays.ptr(vb),
                                       int(_arrays.flag(relative, "relative")), byref(out)))
    return out.value


def metric_support_recovery(estimate, truth, threshold: float = 0.0) -> SupportRecovery:
    """Edge-set recovery of an estimated precision matrix against the truth: an edge is i < j
    with |Theta_ij| > threshold (``dpcov_metric_support_recovery``). Both arrays must share one
    storage order (only upper triangles are read)."""
    me = _arrays.matrix(estimate, "estimate")
    _arrays.require_square(me, "estimate")
    mt = _arrays.matrix(truth, "truth", layout=me.layout)
    _arrays.same_shape(me, "estimate", mt, "truth")
    out = new_struct(SupportRecoveryC)
    _check(C.dpcov_metric_support_recovery(me.layout, me.rows, me.ptr, me.ld, mt.ptr, mt.ld,
                                           threshold, byref(out)))
    return SupportRecovery(out)
