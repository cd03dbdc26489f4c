"""The warning of a regression on raw rows whose intercept's constant 1 and regressors' scale
bound / sqrt(p) are far apart (outside [DPCOV_INTERCEPT_SCALE_LOW, DPCOV_INTERCEPT_SCALE_HIGH],
dpcov/private_bound.h): the fit then depends on the units of X (bench/results/unit_scale.md).
``dpcov regress`` warns at the same ends."""

from __future__ import annotations

import math
import warnings

from ._generated import DPCOV_INTERCEPT_SCALE_HIGH, DPCOV_INTERCEPT_SCALE_LOW

__all__ = ["warn_intercept_scale"]


def warn_intercept_scale(bound, regressors: int) -> None:
    """A UserWarning where the intercept's constant 1 and the regressors' scale bound / sqrt(p)
    are far apart (outside [DPCOV_INTERCEPT_SCALE_LOW, DPCOV_INTERCEPT_SCALE_HIGH]): the fit
    then depends on the units of X."""
    try:
        bound = float(bound)
    except (TypeError, ValueError):
        return  # refused where the bound is read
    if regressors < 1:
        return
    scale = bound / math.sqrt(regressors)
    if (not (math.isfinite(scale) and scale > 0) or
            DPCOV_INTERCEPT_SCALE_LOW <= scale <= DPCOV_INTERCEPT_SCALE_HIGH):
        return
    effect = ("the constant takes the norm bound and the slopes' noise grows as 1 / bound^2"
              if scale < 1 else "the constant, and the intercept with it (and under add/remove "
              "the count), is lost in the features' noise")
    warnings.warn(f"bound={bound:g} gives the {regressors} regressors a scale bound / sqrt(p) = "
                  f"{scale:.3g} beside the intercept's constant 1: {effect}, so the fit depends "
                  f"on the units of X (the same rows at a quarter or ten times their units print "
                  f"an interval in 0 and 0.15 of fits; bench/results/unit_scale.md). Rescale X "
                  f"so that bound / sqrt(p) is near 1, or give public per-column ranges "
                  f"(PrivateLinearRegression's bounds=(lower, upper))",
                  UserWarning, stacklevel=3)
