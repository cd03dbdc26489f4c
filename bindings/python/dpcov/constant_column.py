"""The rows [B, x] (||x|| <= B) that PrivateCovariance and PrivatePCA release to centre: the same
rules as the CLI's ``release --add-constant`` (cli/constant_column_option.cpp), so that a row of
norm exactly B is never clipped by a rounding step and its constant never nudged."""
from __future__ import annotations

import math
import sys

import numpy as np

_EPSILON = sys.float_info.epsilon
# The smallest row bound the library accepts (core/data/row_bound.hpp, kSmallestRowBound).
SMALLEST_ROW_BOUND = 2.0 ** -960


def norm_bound(row_bound: float) -> float:
    """The norm bound sqrt(2) B of the rows [B, x], never below its exact value: the double
    sqrt(2) exceeds sqrt(2) by 9.7e-17, B times it rounded to nearest is within half an ulp of a
    value above sqrt(2) B, and one step up puts it above (``constant_column_norm_bound``). B must
    be finite and >= 2^-960, the library's range for row bounds (proofs/row_bound.md); ValueError
    otherwise or when sqrt(2) B overflows."""
    if not (row_bound >= SMALLEST_ROW_BOUND and math.isfinite(row_bound)):
        raise ValueError(f"the row bound must be >= 2^-960 (about 1.03e-289) and finite, got "
                         f"{row_bound!r}")
    bound = math.nextafter(row_bound * math.sqrt(2.0), math.inf)
    if not math.isfinite(bound):
        raise ValueError(f"the norm bound sqrt(2) B of the rows [B, x] overflows for B = "
                         f"{row_bound!r}")
    return bound


def within(X: np.ndarray, row_bound: float) -> np.ndarray:
    """``X`` (rows of norm <= B already) with every row scaled to norm at most
    B (1 - (2 d + 24) eps), room for the rounding of the sum of squares of the d + 1 entries of
    [B, x] (``constant_column_clip_factor``): rows within that margin move by less than
    (2 d + 24) ulps, which is not clipping and is not counted (the accumulator's within limit,
    proofs/row_bound.md)."""
    d = X.shape[1]
    limit = row_bound * (1.0 - (2.0 * d + 24.0) * _EPSILON)
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    over = norms > limit
    if not over.any():
        return X
    factor = np.ones_like(norms)
    factor[over] = limit / norms[over]
    return X * factor[:, None]


def hypot_up(a: float, b: float) -> float:
    """sqrt(a^2 + b^2) rounded up: the norm bound of rows [a, x] with ||x|| <= b (the regression's
    [1, x] rows: B_X = sqrt(1 + B^2)), checked with exact rational arithmetic (math.hypot is
    within 1 ulp, not always above). ValueError when it overflows."""
    from fractions import Fraction
    exact = Fraction(a) ** 2 + Fraction(b) ** 2
    bound = math.hypot(a, b)
    while math.isfinite(bound) and Fraction(bound) ** 2 < exact:
        bound = math.nextafter(bound, math.inf)
    if not math.isfinite(bound):
        raise ValueError(f"the norm bound sqrt({a!r}^2 + {b!r}^2) overflows")
    return bound
