package dpcov

/*
#include "dpcov.h"
*/
import "C"

// PrivateOLS is the result of OLSProjection or OLSAnalyzeGauss: the regression on the released data,
// the reject decisions (beta_j = 0 rejected at 1 - level) and the release's receipt.
type PrivateOLS struct {
	Regression
	Reject  []bool
	Receipt Receipt
}

type olsFunc func(g Matrix, params *C.dpcov_mechanism_params, res *Regression, reject *C.int32_t,
	sum *C.dpcov_regression_summary, rec *C.dpcov_receipt) C.dpcov_status

func privateOLS(g Matrix, features []int64, mparams *MechanismParams, regParams *RegressionParams,
	f olsFunc) (PrivateOLS, error) {
	if err := g.checkSquare("g"); err != nil {
		return PrivateOLS{}, err
	}
	p := numCoefficients(features, regParams)
	res := PrivateOLS{Regression: newRegression(p)}
	reject := make([]C.int32_t, p+1) // one spare element keeps the pointer valid for p = 0
	sum := C.dpcov_regression_summary{struct_size: C.size_t(C.sizeof_dpcov_regression_summary)}
	rec := newCReceipt()
	cp := mparams.c()
	err := call(func() C.dpcov_status {
		return f(g, cp, &res.Regression, &reject[0], &sum, &rec)
	})
	if err != nil {
		return PrivateOLS{}, err
	}
	res.Summary = summaryFromC(&sum)
	res.Receipt = receiptFromC(&rec)
	res.Reject = make([]bool, p)
	for i := range res.Reject {
		res.Reject[i] = reject[i] != 0
	}
	return res, nil
}

// OLSProjection is private OLS inference by projection (Sheffet, ICML 2017, Alg. 1): a private test, then
// regression on the projected data with exact Student t(r - p) intervals about the non-private
// estimate. mparams.ProjectionRows (r) is required. Returns ErrRefused (nothing released) when
// the data are not well spread.
func OLSProjection(g Matrix, n int64, bound, epsilon, delta float64, mparams *MechanismParams,
	label int64, features []int64, regParams *RegressionParams, rng *RNG) (PrivateOLS, error) {
	rp := regParams.c()
	return privateOLS(g, features, mparams, regParams, func(g Matrix, cp *C.dpcov_mechanism_params,
		res *Regression, reject *C.int32_t, sum *C.dpcov_regression_summary, rec *C.dpcov_receipt) C.dpcov_status {
		return C.dpcov_ols_jl(rowMajor, C.int64_t(g.Rows), g.ptr(), g.ld(), C.int64_t(n),
			C.double(bound), C.double(epsilon), C.double(delta), cp, C.int64_t(label),
			int64s(features), C.int64_t(len(features)), rp, rng.handle(),
			doubles(res.Coefficients), doubles(res.StdErrors), doubles(res.TValues),
			doubles(res.PValues), doubles(res.CILower), doubles(res.CIUpper), reject, sum, rec)
	})
}

// OLSAnalyzeGauss is plug-in OLS inference on an Analyze Gauss release. The release is private;
// the intervals have NO coverage guarantee.
func OLSAnalyzeGauss(g Matrix, n int64, bound, epsilon, delta float64, mparams *MechanismParams,
	label int64, features []int64, regParams *RegressionParams, rng *RNG) (PrivateOLS, error) {
	rp := regParams.c()
	return privateOLS(g, features, mparams, regParams, func(g Matrix, cp *C.dpcov_mechanism_params,
		res *Regression, reject *C.int32_t, sum *C.dpcov_regression_summary, rec *C.dpcov_receipt) C.dpcov_status {
		return C.dpcov_ols_analyze_gauss(rowMajor, C.int64_t(g.Rows), g.ptr(), g.ld(), C.int64_t(n),
			C.double(bound), C.double(epsilon), C.double(delta), cp, C.int64_t(label),
			int64s(features), C.int64_t(len(features)), rp, rng.handle(),
			doubles(res.Coefficients), doubles(res.StdErrors), doubles(res.TValues),
			doubles(res.PValues), doubles(res.CILower), doubles(res.CIUpper), reject, sum, rec)
	})
}

// AnalyzeGaussIntervals are guaranteed OLS intervals from an Analyze Gauss release (intercept
// first): CILower/CIUpper cover the model's coefficients with probability >= level,
// DataCILower/DataCIUpper the OLS estimate on the data with probability >= 1 - (1 - level)/2.
// NoiseNormBound is eta and Kappa = eta / lambda_min of the released X'X.
type AnalyzeGaussIntervals struct {
	Coefficients, CILower, CIUpper, DataCILower, DataCIUpper []float64
	Reject                                                   []bool
	NoiseNormBound, Kappa                                    float64
}

// OLSAnalyzeGaussIntervals computes guaranteed OLS intervals from an Analyze Gauss release whose
// receipt gave sigma (proofs/ols_analyze_gauss.md). Post-processing: no privacy cost. Returns an
// error with status PRECONDITION when the noise is too large for any guarantee (kappa >= 1).
func OLSAnalyzeGaussIntervals(released Matrix, sigma float64, n, label int64, features []int64,
	regParams *RegressionParams) (AnalyzeGaussIntervals, error) {
	if err := released.checkSquare("released"); err != nil {
		return AnalyzeGaussIntervals{}, err
	}
	p := numCoefficients(features, regParams)
	// One spare element in each slice keeps the pointers valid for p = 0.
	out := make([][]float64, 5)
	for i := range out {
		out[i] = make([]float64, p+1)
	}
	reject := make([]C.int32_t, p+1)
	var eta, kappa C.double
	rp := regParams.c()
	err := call(func() C.dpcov_status {
		return C.dpcov_ols_analyze_gauss_intervals(rowMajor, C.int64_t(released.Rows),
			released.ptr(), released.ld(), C.double(sigma), C.int64_t(n), C.int64_t(label),
			int64s(features), C.int64_t(len(features)), rp, doubles(out[0]), doubles(out[1]),
			doubles(out[2]), doubles(out[3]), doubles(out[4]), &reject[0], &eta, &kappa)
	})
	if err != nil {
		return AnalyzeGaussIntervals{}, err
	}
	res := AnalyzeGaussIntervals{Coefficients: out[0][:p], CILower: out[1][:p], CIUpper: out[2][:p],
		DataCILower: out[3][:p], DataCIUpper: out[4][:p], Reject: make([]bool, p),
		NoiseNormBound: float64(eta), Kappa: float64(kappa)}
	for i := range res.Reject {
		res.Reject[i] = reject[i] != 0
	}
	return res, nil
}

// BootstrapDrawsCheck reports whether numBootstrap worlds form percentile intervals at level, as
// every bootstrap interval requires (dpcov_bootstrap_draws_check). It reads no data: call it
// before the release whose intervals will use the draws, so that a refused number spends nothing.
func BootstrapDrawsCheck(level float64, numBootstrap int64) error {
	return call(func() C.dpcov_status {
		return C.dpcov_bootstrap_draws_check(C.double(level), C.int64_t(numBootstrap))
	})
}

// BootstrapIntervals are noise-aware OLS intervals from a release (intercept first): percentile
// intervals of a parametric bootstrap that redraws the model's sampling noise and the mechanism's
// noise. StdErrors is the spread of the refits, PValues test beta_j = 0 consistently with the
// intervals, NoiseNorm is the level-quantile of the noise's spectral norm on X'X and Kappa its
// ratio to lambda_min of the released X'X.
type BootstrapIntervals struct {
	Coefficients, StdErrors, PValues, CILower, CIUpper []float64
	NoiseNorm, Kappa                                   float64
}

// bootstrapOutputs checks the release and returns the number of coefficients and the five
// output slices of the bootstrap intervals; one spare element in each keeps the pointers valid
// for p = 0.
func bootstrapOutputs(released Matrix, features []int64, regParams *RegressionParams) (int, [][]float64, error) {
	if err := released.checkSquare("released"); err != nil {
		return 0, nil, err
	}
	p := numCoefficients(features, regParams)
	out := make([][]float64, 5)
	for i := range out {
		out[i] = make([]float64, p+1)
	}
	return p, out, nil
}

// OLSBootstrapIntervals computes noise-aware OLS intervals and p-values from a release of
// AnalyzeGauss, LaplaceSym or WishartAdditive and its receipt (Ferrando, Wang, Sheldon, AISTATS
// 2022); the receipt's Mechanism, Dim, N, Sigma, Scale and DOF are read. Post-processing: no
// privacy cost; rng draws the bootstrap. Returns an error with status PRECONDITION when the
// noise swamps the data.
func OLSBootstrapIntervals(released Matrix, receipt Receipt, label int64, features []int64,
	regParams *RegressionParams, numBootstrap int64, rng *RNG) (BootstrapIntervals, error) {
	p, out, err := bootstrapOutputs(released, features, regParams)
	if err != nil {
		return BootstrapIntervals{}, err
	}
	rec := receiptToC(receipt)
	var norm, kappa C.double
	rp := regParams.c()
	err = call(func() C.dpcov_status {
		return C.dpcov_ols_bootstrap_intervals(rowMajor, C.int64_t(released.Rows), released.ptr(),
			released.ld(), &rec, C.int64_t(label), int64s(features), C.int64_t(len(features)), rp,
			C.int64_t(numBootstrap), rng.handle(), doubles(out[0]), doubles(out[1]), doubles(out[2]),
			doubles(out[3]), doubles(out[4]), &norm, &kappa)
	})
	if err != nil {
		return BootstrapIntervals{}, err
	}
	return BootstrapIntervals{Coefficients: out[0][:p], StdErrors: out[1][:p], PValues: out[2][:p],
		CILower: out[3][:p], CIUpper: out[4][:p], NoiseNorm: float64(norm), Kappa: float64(kappa)}, nil
}

// OLSSandwichIntervals computes noise-aware OLS intervals robust to heteroscedastic errors and a
// misspecified mean from a Gram mechanism's release, its receipt and the released meat
// sum r_i^2 x_i x_i' (p x p, intercept first; dpcov_ols_sandwich_intervals, proofs/sandwich.md).
// Post-processing: no privacy cost; NoiseNorm and Kappa are not computed (0). Returns an error
// with status PRECONDITION when the noise swamps the data.
func OLSSandwichIntervals(released Matrix, receipt Receipt, label int64, features []int64,
	regParams *RegressionParams, meat Matrix, numBootstrap int64, rng *RNG) (BootstrapIntervals, error) {
	p, out, err := bootstrapOutputs(released, features, regParams)
	if err != nil {
		return BootstrapIntervals{}, err
	}
	if err := squareOf(meat, p, "meat"); err != nil {
		return BootstrapIntervals{}, err
	}
	rec := receiptToC(receipt)
	rp := regParams.c()
	err = call(func() C.dpcov_status {
		return C.dpcov_ols_sandwich_intervals(rowMajor, C.int64_t(released.Rows), released.ptr(),
			released.ld(), &rec, C.int64_t(label), int64s(features), C.int64_t(len(features)), rp,
			meat.ptr(), meat.ld(), C.int64_t(numBootstrap), rng.handle(), doubles(out[0]),
			doubles(out[1]), doubles(out[2]), doubles(out[3]), doubles(out[4]))
	})
	if err != nil {
		return BootstrapIntervals{}, err
	}
	return BootstrapIntervals{Coefficients: out[0][:p], StdErrors: out[1][:p], PValues: out[2][:p],
		CILower: out[3][:p], CIUpper: out[4][:p]}, nil
}

// OLSRobustIntervals is OLSSandwichIntervals with the meat's own noise, whose law it reads from
// meatReceipt (the meat's release), redrawn in every bootstrap world (dpcov_ols_robust_intervals,
// proofs/sandwich.md): the intervals to use. Post-processing: no privacy cost; NoiseNorm and Kappa
// are not computed (0).
func OLSRobustIntervals(released Matrix, receipt Receipt, label int64, features []int64,
	regParams *RegressionParams, meat Matrix, meatReceipt Receipt, numBootstrap int64,
	rng *RNG) (BootstrapIntervals, error) {
	p, out, err := bootstrapOutputs(released, features, regParams)
	if err != nil {
		return BootstrapIntervals{}, err
	}
	if err := squareOf(meat, p, "meat"); err != nil {
		return BootstrapIntervals{}, err
	}
	rec, meatRec := receiptToC(receipt), receiptToC(meatReceipt)
	rp := regParams.c()
	err = call(func() C.dpcov_status {
		return C.dpcov_ols_robust_intervals(rowMajor, C.int64_t(released.Rows), released.ptr(),
			released.ld(), &rec, C.int64_t(label), int64s(features), C.int64_t(len(features)), rp,
			meat.ptr(), meat.ld(), &meatRec, C.int64_t(numBootstrap), rng.handle(), doubles(out[0]),
			doubles(out[1]), doubles(out[2]), doubles(out[3]), doubles(out[4]))
	})
	if err != nil {
		return BootstrapIntervals{}, err
	}
	return BootstrapIntervals{Coefficients: out[0][:p], StdErrors: out[1][:p], PValues: out[2][:p],
		CILower: out[3][:p], CIUpper: out[4][:p]}, nil
}

// CoefficientIntervals are BootstrapIntervals with an outcome per coefficient: Bounded[j] is
// false where the release does not bound coefficient j, along a direction of X'X too weak against
// the privacy noise (proofs/bootstrap_worlds.md, "The profile beside the worlds"); its interval,
// standard error and p-value are then NaN.
type CoefficientIntervals struct {
	BootstrapIntervals
	Bounded []bool
}

// OLSIntervals computes the intervals of OLSBootstrapIntervals (meat nil: homoscedastic errors)
// or of OLSRobustIntervals (the released meat and its receipt) with an outcome per coefficient
// (dpcov_ols_intervals): where the release does not bound some coefficients, only those go
// without an interval, where the other two functions refuse the whole fit.
// Post-processing: no privacy cost. Returns an error with status PRECONDITION when the noise
// swamps the data.
func OLSIntervals(released Matrix, receipt Receipt, label int64, features []int64,
	regParams *RegressionParams, meat *Matrix, meatReceipt *Receipt, numBootstrap int64,
	rng *RNG) (CoefficientIntervals, error) {
	p, out, err := bootstrapOutputs(released, features, regParams)
	if err != nil {
		return CoefficientIntervals{}, err
	}
	var meatPtr *C.double
	var meatLd C.int64_t
	if meat != nil {
		if err := squareOf(*meat, p, "meat"); err != nil {
			return CoefficientIntervals{}, err
		}
		meatPtr, meatLd = meat.ptr(), meat.ld()
	}
	rec := receiptToC(receipt)
	var meatRec *C.dpcov_receipt
	if meatReceipt != nil {
		m := receiptToC(*meatReceipt)
		meatRec = &m
	}
	flags := make([]C.int32_t, p+1)
	var norm, kappa C.double
	rp := regParams.c()
	err = call(func() C.dpcov_status {
		return C.dpcov_ols_intervals(rowMajor, C.int64_t(released.Rows), released.ptr(),
			released.ld(), &rec, C.int64_t(label), int64s(features), C.int64_t(len(features)), rp,
			meatPtr, meatLd, meatRec, C.int64_t(numBootstrap), rng.handle(), doubles(out[0]),
			doubles(out[1]), doubles(out[2]), doubles(out[3]), doubles(out[4]), &flags[0], &norm,
			&kappa)
	})
	if err != nil {
		return CoefficientIntervals{}, err
	}
	bounded := make([]bool, p)
	for j := range bounded {
		bounded[j] = flags[j] == C.DPCOV_COEFFICIENT_BOUNDED
	}
	return CoefficientIntervals{BootstrapIntervals: BootstrapIntervals{Coefficients: out[0][:p],
		StdErrors: out[1][:p], PValues: out[2][:p], CILower: out[3][:p], CIUpper: out[4][:p],
		NoiseNorm: float64(norm), Kappa: float64(kappa)}, Bounded: bounded}, nil
}
