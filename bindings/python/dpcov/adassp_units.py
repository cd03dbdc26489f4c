"""AdaSSP at the level of privacy units (proofs/adassp_units.md): at most k rows of each unit,
chosen by the library's accumulator of units (``dpcov_gram_add_unit_rows``), then one AdaSSP fit
whose sensitivities are k times the row-level ones (``dpcov_adassp_params::max_rows_per_unit``).

The kept rows are balanced (proofs/balanced_rows.md): [1, x sqrt(d) / B, y / B_y], so that the
fit does not depend on the units of x and y; its coefficients are mapped back to the data's units
by the public factors of :func:`dpcov.coefficient_factors` (post-processing).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _arrays
from .adassp import AdasspFit, adassp_fit, adassp_plan
from .errors import rows_of_caller
from .gram import (GramAccumulator, bound_rows, check_unit_column, coefficient_factors,
                   unit_ids)
from .ledger import active_accountant

UNITS_NO_INTERVALS = (
    "the fit is at the level of privacy units: AdaSSP's intervals condition on a public number "
    "of rows, which units keep private (between U and k U rows for U units), and on independent "
    "rows, which one person's rows need not be (proofs/adassp_units.md, Intervals); no y'y was "
    "released, so the whole budget went to the three statistics")
"""Why a fit at the level of privacy units has no intervals, the same on every surface."""


class AdasspUnitsFit(NamedTuple):
    """A fit of units: the AdaSSP fit (its receipt states k), the norm bound of the balanced
    regressors [1, x sqrt(d) / B] it used, the curator's counters (rows clipped and rows left
    out by the k limit, never for publication) and the public factors that map the fit on the
    balanced rows to the data's units (one per regressor, the intercept's first).

    ``fit.released_xtx`` and ``fit.released_xty`` (and the receipt's bounds) are those of the
    balanced rows; ``fit.coefficients`` are in the data's units:
    ``solve(released_xtx + ridge I, released_xty) * unit_factors``."""

    fit: AdasspFit
    bound_x: float
    clipped: int
    truncated: int
    unit_factors: np.ndarray


def adassp_units_fit(X, y, privacy_unit, max_rows_per_unit: int, bound: float,
                     label_bound: float, epsilon: float, delta: float, rng,
                     fit_intercept: bool = True, policy: str = "clip",
                     neighbour="replace_one", calibration="joint_analytic",
                     rho: float = 0.05) -> AdasspUnitsFit:
    """AdaSSP regression of ``y`` on ``X`` (with an intercept column of ones first when
    ``fit_intercept``) that is (``epsilon``, ``delta``)-DP between datasets that differ in one
    privacy unit (``privacy_unit``: one id per row, any hashable values), added or removed
    (``neighbour="add_remove"``) or with all its rows replaced (``"replace_one"``). At most
    ``max_rows_per_unit`` rows of each unit are kept, chosen at random with ``rng`` by the
    library's accumulator of units (units in order of their first row); each kept row is
    bounded as at row level (``||x|| <= bound`` under ``policy``, ``|y| <= label_bound``) and
    balanced (:class:`AdasspUnitsFit`: the coefficients are in the data's units and the same
    whatever those units). An active accountant is checked before any draw and charged the fit's
    unit-level budget. The command line's ``dpcov regress --privacy-unit`` makes the same fit
    from the same seed."""
    X = _arrays.real_array(X, "X", 2)
    y = _arrays.real_array(y, "y", 1).reshape(-1)
    if X.ndim != 2 or y.shape[0] != X.shape[0]:
        raise ValueError(f"X must be rows x features and y one value per row, got {X.shape} "
                         f"and {y.shape}")
    check_unit_column(privacy_unit, X.shape[0])
    plan = unit_fit_plan(X.shape[1], max_rows_per_unit, bound, label_bound, epsilon, delta,
                         fit_intercept, neighbour, calibration, rho)
    order, ids = unit_ids(privacy_unit)
    with GramAccumulator.bounded(X.shape[1] + 1, bound, policy, neighbour,
                                 1.0 if fit_intercept else 0.0, label_bound=label_bound,
                                 max_rows_per_unit=plan.k, balanced=True) as gram:
        with rows_of_caller(lambda row: int(order[row])):
            gram.add_unit_rows(np.column_stack((X, y))[order], ids, rng)
        gram.finish_units()
        return unit_fit(gram, plan, rng)


class UnitFitPlan(NamedTuple):
    """What a fit of units settles before any row is drawn: k, the regressors p (the constant
    column included), the norm bounds of the balanced regressors and label (``bound_x``, and
    ``label_bound`` 1), the fit's settings and the factors that map it to the data's units."""

    k: int
    p: int
    bound_x: float
    label_bound: float
    epsilon: float
    delta: float
    neighbour: object
    calibration: object
    rho: float
    unit_factors: np.ndarray


def balanced_x_bound(regressors: int, fit_intercept: bool) -> float:
    """The library's norm bound of the balanced regressors [1, x sqrt(d) / B] (x sqrt(d) / B
    without an intercept) of ``regressors`` columns of x: the same for every B."""
    empty = np.empty((0, _arrays.whole_number(regressors, "regressors")))
    constant = 1.0 if fit_intercept else 0.0
    return bound_rows(empty, 1.0, constant=constant, balanced=True)[1].bound


def balanced_factors(regressors: int, bound: float, label_bound: float,
                     fit_intercept: bool) -> np.ndarray:
    """The public factors that map a fit on the balanced rows [1, x sqrt(d) / B, y / B_y] of
    ``regressors`` columns of x to the data's units (:func:`dpcov.coefficient_factors`); the
    library refuses a bad ``bound``, and a label bound of 0 (no label) is refused here."""
    label = float(label_bound)
    if not (label > 0 and math.isfinite(label)):
        raise ValueError(f"label_bound (the bound on |y|) must be finite and > 0, got "
                         f"{label_bound!r}")
    columns = _arrays.whole_number(regressors, "regressors") + 1
    return coefficient_factors(columns, bound, 1.0 if fit_intercept else 0.0, label,
                               balanced=True)


def in_data_units(fit: AdasspFit, factors: np.ndarray) -> AdasspFit:
    """``fit`` with its coefficients mapped from the balanced rows to the data's units by the
    public ``factors`` (post-processing); the released statistics stay the balanced rows'."""
    return fit._replace(coefficients=fit.coefficients * factors)


def unit_fit_plan(regressors: int, max_rows_per_unit: int, bound: float, label_bound: float,
                  epsilon: float, delta: float, fit_intercept: bool = True,
                  neighbour="replace_one", calibration="joint_analytic",
                  rho: float = 0.05) -> UnitFitPlan:
    """The :class:`UnitFitPlan` of a fit of units on ``regressors`` columns of x, refused when
    the fit would be (k, the calibration, the budget of an active accountant, which is checked
    here): call it before any row is drawn."""
    k = _arrays.whole_number(max_rows_per_unit, "max_rows_per_unit")
    if k < 1:
        raise ValueError(f"max_rows_per_unit must be >= 1 (k, the rows kept per unit), got {k}")
    p = _arrays.whole_number(regressors, "regressors") + (1 if fit_intercept else 0)
    factors = balanced_factors(regressors, bound, label_bound, fit_intercept)
    bound_x = balanced_x_bound(regressors, fit_intercept)
    planned = adassp_plan(p, bound_x, 1.0, epsilon, delta, neighbour, calibration, rho, False, k)
    budget = active_accountant()
    if budget is not None:
        budget.check(planned)
    return UnitFitPlan(k, p, bound_x, 1.0, epsilon, delta, neighbour, calibration, rho, factors)


def unit_fit(gram: GramAccumulator, plan: UnitFitPlan, rng) -> AdasspUnitsFit:
    """The AdaSSP fit of ``plan`` from a finished accumulator of units of the balanced rows
    [x, y] (``balanced=True``, with the constant column first when the plan has an intercept),
    its noise drawn with ``rng``, its coefficients mapped to the data's units."""
    info = gram.info()
    fit = adassp_fit(gram.matrix(), plan.p, np.arange(plan.p, dtype=np.int64), plan.bound_x,
                     plan.label_bound, plan.epsilon, plan.delta, rng, neighbour=plan.neighbour,
                     calibration=plan.calibration, rho=plan.rho, max_rows_per_unit=plan.k)
    return AdasspUnitsFit(in_data_units(fit, plan.unit_factors), plan.bound_x, info.clipped,
                          info.truncated, plan.unit_factors)
