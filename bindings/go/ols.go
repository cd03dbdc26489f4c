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
