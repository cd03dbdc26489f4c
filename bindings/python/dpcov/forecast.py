"""What a regression on a release will show, from public values only, before any privacy is
spent (``dpcov/forecast.h``; docs/forecast.md derives the figures and states their reference
design)."""

from __future__ import annotations

from ctypes import byref, c_double, c_int32
from typing import NamedTuple

from . import _arrays
from ._lib import (C, AdasspFitDecisionC, AdasspFitRequestC, AdasspParamsC, FitIntervals,
                   RegressionForecastC, _check, new_struct)
from .adassp import AdasspReceipt, adassp_params
from .types import Receipt, StructView


class RegressionForecast(StructView):
    """A ``dpcov_regression_forecast``: rows (n), level, fill, crossover_rows (the n at which the
    privacy noise adds as much variance to a coefficient as the sampling noise),
    sampling_standard_error, privacy_standard_error, standard_error and interval_width of a
    standardised coefficient at n, rows_for_intervals (the n from which noise-aware intervals are
    expected: rows on their bounds print in nearly every fit from there, in about half from 0.6-0.7
    of it) and intervals_expected; for an AdaSSP plan, the noise-aware posterior's
    posterior_sampling_share of a coefficient at n, the posterior_min_sampling_share it is
    printed from, posterior_half_width_over_range (its interval's half-width over R_j, printed
    below 1), rows_for_posterior_intervals (the n from which it prints) and
    posterior_intervals_expected (NaN and 0 for a release, which has no posterior). The figures
    hold for a reference design: regressors and label independent and symmetric, regressors with
    equal second moments, true coefficients 0, rows' mean squared norm ``fill`` times the squared
    bound; with ``intercept`` 1 (``regression_forecast(..., intercept=True)``) the figures are a
    slope's of that design with an intercept column inside the bound, ``fill`` the features'
    mean squared norm over their squared bound."""

    __slots__ = ()


def regression_forecast(receipt, n: float | None = None, level: float = 0.95,
                        fill: float = 1.0, intercept: bool = False) -> RegressionForecast:
    """The forecast of a regression at ``n`` rows from a plan or release ``receipt``: a
    :class:`~dpcov.Receipt` (``dpcov.plan`` of analyze_gauss, laplace_sym or wishart_additive: a
    regression of one column on the d - 1 others; ``n`` defaults to the receipt's) or an
    :class:`~dpcov.AdasspReceipt` (``dpcov.adassp_plan``, best with
    ``release_label_square=True``, the noise the intervals see; ``n`` required). ``intercept``
    (AdaSSP only): the plan's first regressor is an intercept, a constant 1 inside its bound (the
    design ``PrivateLinearRegression`` fits: ``bound_`` squared is 1 plus the features'
    ``bound`` squared), and the figures are a slope's. Reads no data and costs no privacy
    (``dpcov_regression_forecast_release``, ``dpcov_regression_forecast_adassp``,
    ``dpcov_regression_forecast_adassp_intercept``)."""
    out = new_struct(RegressionForecastC)
    if isinstance(receipt, AdasspReceipt):
        if n is None:
            raise TypeError("an AdaSSP forecast needs n")
        call = C.dpcov_regression_forecast_adassp_intercept if intercept \
            else C.dpcov_regression_forecast_adassp
        _check(call(byref(receipt._struct), float(n), float(level), float(fill), byref(out)))
    elif intercept:
        raise ValueError("intercept=True is for an AdaSSP plan; a release's regression reads "
                         "its columns as given")
    elif isinstance(receipt, Receipt):
        rows = receipt.n if n is None else n
        _check(C.dpcov_regression_forecast_release(byref(receipt._struct), rows,
                                                   level, fill, byref(out)))
    else:
        raise TypeError(f"receipt must be a dpcov.Receipt or dpcov.AdasspReceipt, got "
                        f"{type(receipt).__name__}")
    return RegressionForecast(out)


class SmallNSplit(NamedTuple):
    """``dpcov_adassp_small_n_split``: ``without_lambda_min`` (fit without AdaSSP's lambda_min
    step) and ``rows_for_bootstrap`` (the forecast's n from which the bootstrap is expected)."""

    without_lambda_min: bool
    rows_for_bootstrap: float


def adassp_small_n_split(plan: AdasspReceipt, n: float, level: float = 0.95) -> SmallNSplit:
    """Whether the default AdaSSP fit of ``plan`` (``dpcov.adassp_plan``, lambda_min released)
    drops its lambda_min step at ``n`` public rows: where the forecast at fill 1 expects the
    released X'X~ too noisy for the bootstrap, so that the small-n posterior answers
    (``dpcov_adassp_small_n_split``; proofs/adassp.md, "Without the lambda_min step"). Public
    values only: no data, no privacy cost. Under add/remove n is private: keep the default."""
    without, rows = c_int32(0), c_double(0.0)
    _check(C.dpcov_adassp_small_n_split(byref(plan._struct), n, level,
                                        byref(without), byref(rows)))
    return SmallNSplit(bool(without.value), rows.value)


class DefaultFit(NamedTuple):
    """``dpcov_adassp_default_fit``: the decisions of the default AdaSSP regression from public
    values only. ``fit_epsilon``, ``fit_delta``: the fit's share; ``robust``: the meat of robust
    intervals gets ``meat_epsilon``, ``meat_delta``; ``small_n_split`` (no lambda_min step) and
    ``rows_for_bootstrap``; ``release_label_square``: y'y released for the intervals;
    ``label_square_refused``: not released, the forecast expecting no interval;
    ``robust_skipped``: robust errors asked and not attempted; ``forecast``: the forecast that
    decided y'y (the plan at the whole budget with y'y, fill 1), or None where none decided."""

    fit_epsilon: float
    fit_delta: float
    robust: bool
    meat_epsilon: float
    meat_delta: float
    small_n_split: bool
    rows_for_bootstrap: float
    release_label_square: bool
    label_square_refused: bool
    robust_skipped: bool
    forecast: RegressionForecast | None


def adassp_default_fit(num_regressors: int, bound_x: float, bound_y: float, epsilon: float,
                       delta: float, rows: float, level: float = 0.95, intervals=True,
                       robust: bool = True, small_n_posterior: bool = True,
                       neighbour="replace_one", calibration="joint_analytic",
                       rho: float = 0.05) -> DefaultFit:
    """The decisions of the default AdaSSP regression of ``num_regressors`` regressors (an
    intercept counted) at ``rows`` public rows (read only under replace-one; NaN where n is not
    known yet: then only the robust split as asked applies), the rules of every
    surface (``dpcov regress``, ``dpcov plan --regress``, :class:`~dpcov.PrivateLinearRegression`;
    docs/forecast.md): the small-n split, y'y for the intervals (``intervals``: False, True for
    where the forecast expects one, or ``"always"``), robust errors' share of the budget. Public
    values only: no data, no privacy cost."""
    request = new_struct(AdasspFitRequestC)
    request.num_regressors = _arrays.whole_number(num_regressors, "num_regressors")
    request.bound, request.bound_y = bound_x, bound_y
    request.epsilon, request.delta = epsilon, delta
    request.rows, request.level = rows, level
    request.intervals = (FitIntervals.ALWAYS if intervals == "always" else
                         FitIntervals.DECIDED if intervals else FitIntervals.NONE)
    request.robust = _arrays.flag(robust, "robust")
    request.small_n_posterior = _arrays.flag(small_n_posterior, "small_n_posterior")
    asked = adassp_params(neighbour, calibration, rho)
    decided = new_struct(AdasspParamsC)
    decision = new_struct(AdasspFitDecisionC)
    forecast = new_struct(RegressionForecastC)
    _check(C.dpcov_adassp_default_fit(byref(request), byref(asked), byref(decided),
                                      byref(decision), byref(forecast)))
    return DefaultFit(decision.fit_epsilon, decision.fit_delta, bool(decision.robust),
                      decision.meat_epsilon, decision.meat_delta, bool(decision.small_n_split),
                      decision.rows_for_bootstrap, bool(decided.release_label_square),
                      bool(decision.label_square_refused), bool(decision.robust_skipped),
                      RegressionForecast(forecast) if decision.label_square_decided else None)
