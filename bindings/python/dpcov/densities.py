"""Log-densities of the distributions dpcov's mechanisms draw from (dpcov/sample.h).

They take no generator and are thread-safe. Matrix arguments are read in place in their own
storage order; both matrices of one call must have the same shape.
"""

from __future__ import annotations

from ctypes import byref, c_double

from . import _arrays
from ._lib import C, _check


def _pair(first, first_name, second, second_name):
    """Two square matrices of one call, the second in the layout of the first, same shape."""
    a = _arrays.square(first, first_name)
    b = _arrays.square(second, second_name, a.layout)
    _arrays.same_shape(a, first_name, b, second_name)
    return a, b


def log_density_wishart(w, dof: float, scale) -> float:
    """ln of the W_d(dof, scale) density at ``w`` (``dpcov_log_density_wishart``); ``-inf`` if
    ``w`` is not exactly symmetric or not positive definite."""
    a, s = _pair(w, "w", scale, "scale")
    out = c_double()
    _check(C.dpcov_log_density_wishart(a.layout, a.rows, a.ptr, a.ld, dof, s.ptr, s.ld,
                                       byref(out)))
    return out.value


def log_density_inverse_wishart(x, dof: float, psi) -> float:
    """ln of the W^{-1}_d(psi, dof) density at ``x`` (``dpcov_log_density_inverse_wishart``);
    ``-inf`` if ``x`` is not exactly symmetric or not positive definite."""
    a, s = _pair(x, "x", psi, "psi")
    out = c_double()
    _check(C.dpcov_log_density_inverse_wishart(a.layout, a.rows, a.ptr, a.ld, dof, s.ptr,
                                               s.ld, byref(out)))
    return out.value


def log_density_acg(omega, u) -> float:
    """ln of the ACG(omega) density at the unit vector ``u``, with respect to the uniform
    probability on the sphere (``dpcov_log_density_acg``)."""
    om = _arrays.square(omega, "omega")
    vec = _arrays.vector(u, "u", om.rows)
    out = c_double()
    _check(C.dpcov_log_density_acg(om.layout, om.rows, om.ptr, om.ld, _arrays.ptr(vec),
                                   byref(out)))
    return out.value


def log_density_symmetric_gaussian(noise, sigma: float) -> float:
    """ln of the density of the upper-triangle entries of a symmetric N(0, sigma^2) noise matrix
    (``dpcov_log_density_symmetric_gaussian``); ``-inf`` if not exactly symmetric."""
    m = _arrays.square(noise, "noise")
    out = c_double()
    _check(C.dpcov_log_density_symmetric_gaussian(m.layout, m.rows, m.ptr, m.ld, sigma,
                                                  byref(out)))
    return out.value


def log_density_symmetric_laplace(noise, scale: float) -> float:
    """ln of the density of the upper-triangle entries of a symmetric Laplace(scale) noise matrix
    (``dpcov_log_density_symmetric_laplace``); ``-inf`` if not exactly symmetric."""
    m = _arrays.square(noise, "noise")
    out = c_double()
    _check(C.dpcov_log_density_symmetric_laplace(m.layout, m.rows, m.ptr, m.ld, scale,
                                                 byref(out)))
    return out.value
