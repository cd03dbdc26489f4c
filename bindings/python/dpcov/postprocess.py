"""Post-processing of released matrices (dpcov/postprocess.h); costs no privacy.

Each function takes a d x d exactly symmetric float64 matrix. With ``inplace=False`` (default) it
works on an explicit copy (``numpy.array(a, order="K")``) and returns it; with ``inplace=True``
it overwrites ``a`` itself, which must then be a writable float64 array in row- or column-major
layout. On failure nothing is written.
"""

from __future__ import annotations

from ctypes import byref, c_double, c_int32

import numpy as np

from . import _arrays
from ._lib import C, _check


def _target(a, inplace: bool):
    """The matrix to work on: ``a`` itself (in place) or an explicit copy of it."""
    if _arrays.flag(inplace, "inplace"):
        return _arrays.square(a, "a", writable=True)
    arr = _arrays.as_float64(a, "a", 2)
    return _arrays.square(np.array(arr, dtype=np.float64, order="K"), "a")


def psd_project(a, inplace: bool = False) -> np.ndarray:
    """Nearest positive semidefinite matrix in Frobenius norm: negative eigenvalues set to 0
    (``dpcov_postprocess_psd_project``)."""
    m = _target(a, inplace)
    _check(C.dpcov_postprocess_psd_project(m.layout, m.rows, m.ptr, m.ld))
    return m.array


def eigenvalues_clip(a, lower: float, upper: float, inplace: bool = False) -> np.ndarray:
    """Clamp the eigenvalues to [lower, upper], eigenvectors kept
    (``dpcov_postprocess_eigenvalues_clip``; lower = 0, upper = n B^2 is the clipping of Amin et
    al. 2019)."""
    m = _target(a, inplace)
    _check(C.dpcov_postprocess_eigenvalues_clip(m.layout, m.rows, m.ptr, m.ld, lower,
                                                upper))
    return m.array


def analyze_gauss_shift(a, sigma: float, nu: float, inplace: bool = False):
    """Sheffet's scaled Analyze Gauss: add c I if ``a`` is not positive definite
    (``dpcov_postprocess_analyze_gauss_shift``). Returns (matrix, c), c = 0 when unchanged."""
    m = _target(a, inplace)
    shift = c_double()
    _check(C.dpcov_postprocess_analyze_gauss_shift(m.layout, m.rows, m.ptr, m.ld, sigma,
                                                   nu, byref(shift)))
    return m.array, shift.value


def wishart_mean_subtract(a, dof: float, scale: float, inplace: bool = False) -> np.ndarray:
    """Subtract the additive Wishart noise mean dof * scale * I
    (``dpcov_postprocess_wishart_mean_subtract``)."""
    m = _target(a, inplace)
    _check(C.dpcov_postprocess_wishart_mean_subtract(m.layout, m.rows, m.ptr, m.ld, dof,
                                                     scale))
    return m.array


def gram_estimate(a, receipt, inplace: bool = False):
    """The estimate of the Gram matrix G that a Gram release holds: the release less the mean its
    mechanism adds, from its :class:`~dpcov.Receipt` (``dpcov_postprocess_gram_estimate``):
    wishart_additive less dof * scale * I, jl_ridge less w^2 I, inverse_wishart rescaled by
    m - d - 1 less w^2 I, analyze_gauss and laplace_sym unchanged. Returns (matrix, unbiased):
    ``unbiased`` is False for a mechanism whose bias has no closed form (IEV, KT, inverse Gauss),
    whose release comes back unchanged. Every estimator of this package reads it."""
    m = _target(a, inplace)
    struct = receipt.to_struct()
    unbiased = c_int32()
    _check(C.dpcov_postprocess_gram_estimate(m.layout, m.rows, m.ptr, m.ld, byref(struct),
                                             byref(unbiased)))
    return m.array, bool(unbiased.value)


def wishart_shift(a, dof: float, scale: float, nu: float, inplace: bool = False):
    """Sheffet's rule for the additive Wishart release (``dpcov_postprocess_wishart_shift``).
    Returns (matrix, multiple of I subtracted)."""
    m = _target(a, inplace)
    shift = c_double()
    _check(C.dpcov_postprocess_wishart_shift(m.layout, m.rows, m.ptr, m.ld, dof,
                                             scale, nu, byref(shift)))
    return m.array, shift.value


def constant_rescale(a, column: int, held: float, value: float, inplace: bool = False):
    """The release of rows whose constant column ``column`` held ``held`` (an exact release rounds
    it to its grid: :meth:`dpcov.GramAccumulator.held_constant`) as if it had held ``value``: row
    and column ``column`` multiplied by value / held (``dpcov_postprocess_constant_rescale``)."""
    m = _target(a, inplace)
    _check(C.dpcov_postprocess_constant_rescale(m.layout, m.rows, m.ptr, m.ld, column,
                                                held, value))
    return m.array
