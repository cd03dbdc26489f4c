"""The norm bound of the regression's rows [1, x] (||x|| <= B): B_X = sqrt(1 + B^2) rounded up,
the bound AdaSSP is calibrated with. The rows themselves, [c, x] with x kept within B, are made
by the library (``dpcov_gram_create_bounded`` with a constant column)."""
from __future__ import annotations

import math


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
