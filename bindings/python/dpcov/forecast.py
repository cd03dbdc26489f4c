"""What a regression on a release will show, from public values only, before any privacy is
spent (``dpcov/forecast.h``; docs/forecast.md derives the figures and states their reference
design)."""

from __future__ import annotations

from ctypes import byref, c_double, c_int32
from typing import NamedTuple

from ._lib import C, RegressionForecastC, _check, new_struct
from .adassp import AdasspReceipt
from .types import Receipt, StructView


class RegressionForecast(StructView):
    """A ``dpcov_regression_forecast``: rows (n), level, fill, crossover_rows (the n at which the
    privacy noise adds as much variance to a coefficient as the sampling noise),
    sampling_standard_error, privacy_standard_error, standard_error and interval_width of a
    standardised coefficient at n, rows_for_intervals (the n from which noise-aware intervals are
    expected) and intervals_expected; for an AdaSSP plan, the noise-aware posterior's
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
        _check(C.dpcov_regression_forecast_release(byref(receipt._struct), float(rows),
                                                   float(level), float(fill), byref(out)))
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
    _check(C.dpcov_adassp_small_n_split(byref(plan._struct), float(n), float(level),
                                        byref(without), byref(rows)))
    return SmallNSplit(bool(without.value), rows.value)
