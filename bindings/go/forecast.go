package dpcov

/*
#include "dpcov.h"
*/
import "C"

// RegressionForecast is what a regression on a release will show, from public values only
// (dpcov/forecast.h): the n at which the privacy noise adds as much variance to a coefficient as
// the sampling noise, and the expected standard error and interval width of a standardised
// coefficient at Rows, for the reference design docs/forecast.md states; for an AdaSSP plan,
// whether the noise-aware posterior will print a coefficient's interval (its sampling share and
// half-width over R_j at Rows, the share it needs, the n from which it prints; NaN and false for
// a release). Intercept is true for the figures of a slope of a design with an intercept column
// (ForecastAdasspRegressionIntercept).
type RegressionForecast struct {
	Rows, Level, Fill                                      float64
	CrossoverRows                                          float64
	SamplingStandardError, PrivacyStandardError            float64
	StandardError, IntervalWidth, RowsForIntervals         float64
	IntervalsExpected                                      bool
	PosteriorSamplingShare, PosteriorMinSamplingShare      float64
	PosteriorHalfWidthOverRange, RowsForPosteriorIntervals float64
	PosteriorIntervalsExpected                             bool
	Intercept                                              bool
}

func forecastFromC(f *C.dpcov_regression_forecast) RegressionForecast {
	return RegressionForecast{
		Rows: float64(f.rows), Level: float64(f.level), Fill: float64(f.fill),
		CrossoverRows:         float64(f.crossover_rows),
		SamplingStandardError: float64(f.sampling_standard_error),
		PrivacyStandardError:  float64(f.privacy_standard_error),
		StandardError:         float64(f.standard_error), IntervalWidth: float64(f.interval_width),
		RowsForIntervals:            float64(f.rows_for_intervals),
		IntervalsExpected:           f.intervals_expected != 0,
		PosteriorSamplingShare:      float64(f.posterior_sampling_share),
		PosteriorMinSamplingShare:   float64(f.posterior_min_sampling_share),
		PosteriorHalfWidthOverRange: float64(f.posterior_half_width_over_range),
		RowsForPosteriorIntervals:   float64(f.rows_for_posterior_intervals),
		PosteriorIntervalsExpected:  f.posterior_intervals_expected != 0,
		Intercept:                   f.intercept != 0,
	}
}

// ForecastReleaseRegression forecasts a regression of one column on the others of the release
// rec plans (analyze_gauss, laplace_sym, wishart_additive; dpcov_regression_forecast_release) at
// n rows, confidence level and design fill in (0, 1].
func ForecastReleaseRegression(rec Receipt, n, level, fill float64) (RegressionForecast, error) {
	c := receiptToC(rec)
	out := C.dpcov_regression_forecast{struct_size: C.size_t(C.sizeof_dpcov_regression_forecast)}
	err := call(func() C.dpcov_status {
		return C.dpcov_regression_forecast_release(&c, C.double(n), C.double(level), C.double(fill), &out)
	})
	if err != nil {
		return RegressionForecast{}, err
	}
	return forecastFromC(&out), nil
}

// ForecastAdasspRegression forecasts the AdaSSP fit planned by AdasspPlan at n rows
// (dpcov_regression_forecast_adassp).
func ForecastAdasspRegression(rec AdasspReceipt, n, level, fill float64) (RegressionForecast, error) {
	return forecastAdassp(rec, n, level, fill, false)
}

// ForecastAdasspRegressionIntercept forecasts a slope of the AdaSSP fit planned by AdasspPlan
// whose first regressor is an intercept, a constant 1 inside the plan's bound (the design of
// `dpcov regress`; dpcov_regression_forecast_adassp_intercept); fill is the features' mean
// squared norm over their squared bound.
func ForecastAdasspRegressionIntercept(rec AdasspReceipt, n, level, fill float64) (RegressionForecast, error) {
	return forecastAdassp(rec, n, level, fill, true)
}

func forecastAdassp(rec AdasspReceipt, n, level, fill float64, intercept bool) (RegressionForecast, error) {
	c := adasspReceiptToC(rec)
	out := C.dpcov_regression_forecast{struct_size: C.size_t(C.sizeof_dpcov_regression_forecast)}
	err := call(func() C.dpcov_status {
		if intercept {
			return C.dpcov_regression_forecast_adassp_intercept(&c, C.double(n), C.double(level), C.double(fill), &out)
		}
		return C.dpcov_regression_forecast_adassp(&c, C.double(n), C.double(level), C.double(fill), &out)
	})
	if err != nil {
		return RegressionForecast{}, err
	}
	return forecastFromC(&out), nil
}

// AdasspSmallNSplit is whether the default AdaSSP fit planned by AdasspPlan drops its lambda_min
// step at n public rows (dpcov_adassp_small_n_split): where the forecast at fill 1 expects the
// released X'X~ too noisy for the bootstrap, below rowsForBootstrap, so that the small-n
// posterior answers. Public values only; under add/remove n is private: keep the default.
func AdasspSmallNSplit(rec AdasspReceipt, n, level float64) (without bool, rowsForBootstrap float64, err error) {
	c := adasspReceiptToC(rec)
	var out C.int32_t
	var rows C.double
	err = call(func() C.dpcov_status {
		return C.dpcov_adassp_small_n_split(&c, C.double(n), C.double(level), &out, &rows)
	})
	if err != nil {
		return false, 0, err
	}
	return out != 0, float64(rows), nil
}

// FitIntervals says whether the default fit releases y'y for its intervals (dpcov_fit_intervals).
type FitIntervals int32

const (
	FitIntervalsNone    FitIntervals = C.DPCOV_FIT_INTERVALS_NONE    // no intervals, no y'y
	FitIntervalsDecided FitIntervals = C.DPCOV_FIT_INTERVALS_DECIDED // y'y where the forecast expects an interval
	FitIntervalsAlways  FitIntervals = C.DPCOV_FIT_INTERVALS_ALWAYS  // y'y whatever the forecast says
)

// AdasspFitRequest is what a default AdaSSP regression is asked for, public values only
// (dpcov_adassp_fit_request): NumRegressors counts an intercept; Rows is read only where n is
// public (replace-one at the level of rows).
type AdasspFitRequest struct {
	NumRegressors                              int64
	Bound, BoundY, Epsilon, Delta, Rows, Level float64
	Intervals                                  FitIntervals
	Robust, SmallNPosterior                    bool
}

// AdasspFitDecision is what the library decides for a default AdaSSP regression
// (dpcov_adassp_default_fit): the fit's share of the budget and its params (Params:
// ReleaseLabelSquare and WithoutLambdaMin decided), whether the meat of robust intervals gets
// the rest, the small-n split, y'y, and the forecast that decided y'y (nil where none did).
type AdasspFitDecision struct {
	FitEpsilon, FitDelta              float64
	Robust                            bool
	MeatEpsilon, MeatDelta            float64
	SmallNSplit                       bool
	RowsForBootstrap                  float64
	LabelSquareRefused, RobustSkipped bool
	Params                            AdasspParams
	Forecast                          *RegressionForecast
}

// AdasspDefaultFit takes the default regression's decisions from public values, the rules of
// `dpcov regress` and Python's PrivateLinearRegression (docs/forecast.md). params (nil: the
// defaults) gives the neighbour relation, calibration, rho and units as asked.
func AdasspDefaultFit(req AdasspFitRequest, params *AdasspParams) (AdasspFitDecision, error) {
	r := C.dpcov_adassp_fit_request{struct_size: C.size_t(C.sizeof_dpcov_adassp_fit_request),
		num_regressors: C.int64_t(req.NumRegressors), bound: C.double(req.Bound),
		bound_y: C.double(req.BoundY), epsilon: C.double(req.Epsilon), delta: C.double(req.Delta),
		rows: C.double(req.Rows), level: C.double(req.Level), intervals: C.int32_t(req.Intervals)}
	if req.Robust {
		r.robust = 1
	}
	if req.SmallNPosterior {
		r.small_n_posterior = 1
	}
	decided := C.dpcov_adassp_params{struct_size: C.size_t(C.sizeof_dpcov_adassp_params)}
	d := C.dpcov_adassp_fit_decision{struct_size: C.size_t(C.sizeof_dpcov_adassp_fit_decision)}
	f := C.dpcov_regression_forecast{struct_size: C.size_t(C.sizeof_dpcov_regression_forecast)}
	asked := adasspParamsToC(params)
	err := call(func() C.dpcov_status {
		return C.dpcov_adassp_default_fit(&r, asked, &decided, &d, &f)
	})
	if err != nil {
		return AdasspFitDecision{}, err
	}
	out := AdasspFitDecision{
		FitEpsilon: float64(d.fit_epsilon), FitDelta: float64(d.fit_delta), Robust: d.robust != 0,
		MeatEpsilon: float64(d.meat_epsilon), MeatDelta: float64(d.meat_delta),
		SmallNSplit: d.small_n_split != 0, RowsForBootstrap: float64(d.rows_for_bootstrap),
		LabelSquareRefused: d.label_square_refused != 0, RobustSkipped: d.robust_skipped != 0,
		Params: AdasspParams{Neighbour: int32(decided.neighbour),
			Calibration: int32(decided.calibration), Rho: float64(decided.rho),
			ReleaseLabelSquare: decided.release_label_square != 0,
			MaxRowsPerUnit:     int64(decided.max_rows_per_unit),
			WithoutLambdaMin:   decided.without_lambda_min != 0},
	}
	if d.label_square_decided != 0 {
		forecast := forecastFromC(&f)
		out.Forecast = &forecast
	}
	return out, nil
}
