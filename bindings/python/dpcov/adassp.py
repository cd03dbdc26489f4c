"""AdaSSP private linear regression (dpcov/adassp.h; Yu-Xiang Wang, UAI 2018, Alg. 2)."""

from __future__ import annotations

from ctypes import byref
from typing import NamedTuple

import numpy as np

from . import _arrays
from ._lib import AdasspParamsC, AdasspReceiptC, C, _check, new_struct
from .types import StructView

NEIGHBOURS = {"replace_one": 0, "add_remove": 1}
"""Accepted ``neighbour`` names and their ``dpcov_neighbour`` values."""
CALIBRATIONS = {"joint_analytic": 0, "paper": 1}
"""Accepted ``calibration`` names and their ``dpcov_adassp_calibration`` values."""


class AdasspReceipt(StructView):
    """A ``dpcov_adassp_receipt``: mechanism ("adassp"), neighbour, calibration, seed_fixed,
    num_regressors, bound_x, bound_y, epsilon, delta, delta_exact, rho, the three sensitivities
    and noise scales, lambda_min_shift, noise_norm_bound, eigenvalue_floor, and from the release
    released_lambda_min, ridge and eigenvalues_floored."""

    __slots__ = ()


class AdasspFit(NamedTuple):
    """Coefficients (in the order of ``features``), the released X'X~ and X'y~, the receipt."""

    coefficients: np.ndarray
    released_xtx: np.ndarray
    released_xty: np.ndarray
    receipt: AdasspReceipt


def _choice(value, allowed: dict, name: str) -> int:
    """The integer of an option given by name (case-insensitive) or value; ValueError naming
    the allowed ones otherwise."""
    if isinstance(value, str):
        key = value.strip().lower()
        if key in allowed:
            return allowed[key]
    elif isinstance(value, (int, np.integer)) and int(value) in allowed.values():
        return int(value)
    raise ValueError(f"{name} must be one of {', '.join(repr(k) for k in allowed)}; "
                     f"got {value!r}")


def adassp_params(neighbour="replace_one", calibration="joint_analytic",
                  rho: float = 0.05) -> AdasspParamsC:
    """A ``dpcov_adassp_params`` from the library's defaults (``dpcov_adassp_params_default``)
    with the given options."""
    params = AdasspParamsC()
    _check(C.dpcov_adassp_params_default(byref(params)))
    params.neighbour = _choice(neighbour, NEIGHBOURS, "neighbour")
    params.calibration = _choice(calibration, CALIBRATIONS, "calibration")
    params.rho = float(rho)
    return params


def adassp_fit(g, label: int, features, bound_x: float, bound_y: float, epsilon: float,
               delta: float, rng, neighbour="replace_one", calibration="joint_analytic",
               rho: float = 0.05) -> AdasspFit:
    """AdaSSP regression of column ``label`` on columns ``features`` of the exact Gram matrix
    ``g`` of rows whose regressor part has norm <= ``bound_x`` and whose label has
    ``|y| <= bound_y`` (``dpcov_adassp_fit``). Spends (epsilon, delta) once; never fails for a
    positive-definiteness reason (proofs/adassp.md)."""
    m = _arrays.square(g, "g")
    cols = _arrays.int64_vector(features, "features")
    p = cols.size
    coef = np.empty(p, dtype=np.float64)
    xtx = _arrays.empty(p, p, m.layout)
    xty = np.empty(p, dtype=np.float64)
    params = adassp_params(neighbour, calibration, rho)
    receipt = new_struct(AdasspReceiptC)
    _check(C.dpcov_adassp_fit(m.layout, m.rows, m.ptr, m.ld, int(label), _arrays.ptr(cols),
                              p, float(bound_x), float(bound_y), float(epsilon), float(delta),
                              byref(params), rng, _arrays.ptr(coef), xtx.ptr, xtx.ld,
                              _arrays.ptr(xty), byref(receipt)))
    return AdasspFit(coef, xtx.array, xty, AdasspReceipt(receipt))
