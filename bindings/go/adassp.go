package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// AdaSSP calibrations (dpcov_adassp_calibration).
const (
	// AdasspJointAnalytic calibrates the three noisy statistics as one Gaussian mechanism (default).
	AdasspJointAnalytic int32 = C.DPCOV_ADASSP_JOINT_ANALYTIC
	// AdasspPaper uses the paper's constants, accepted only when their exact delta meets the request.
	AdasspPaper int32 = C.DPCOV_ADASSP_PAPER
)

// AdasspParams are the options of AdasspFit; DefaultAdasspParams gives the library's defaults.
type AdasspParams struct {
	Neighbour   int32
	Calibration int32
	Rho         float64 // failure probability of the ridge, in (0, 1)
	// ReleaseLabelSquare also releases y'y, which AdasspBootstrapIntervals needs.
	ReleaseLabelSquare bool
	// MaxRowsPerUnit k > 0: the Gram holds at most k rows of each privacy unit (an accumulator
	// of units chose them) and the fit is private at unit level, every sensitivity k times the
	// row-level one (proofs/adassp_units.md); no intervals. 0: rows.
	MaxRowsPerUnit int64
	// WithoutLambdaMin drops the lambda_min step: X'X, X'y (and y'y) take its share of the
	// budget and the ridge is its public bound (proofs/adassp.md); AdasspSmallNSplit decides it.
	WithoutLambdaMin bool
}

// DefaultAdasspParams returns the defaults of dpcov_adassp_params_default: replace-one, joint
// analytic calibration, rho = 0.05.
func DefaultAdasspParams() (AdasspParams, error) {
	var c C.dpcov_adassp_params
	if err := call(func() C.dpcov_status { return C.dpcov_adassp_params_init(&c, C.size_t(unsafe.Sizeof(c))) }); err != nil {
		return AdasspParams{}, err
	}
	return AdasspParams{Neighbour: int32(c.neighbour), Calibration: int32(c.calibration),
		Rho: float64(c.rho), ReleaseLabelSquare: c.release_label_square != 0,
		MaxRowsPerUnit: int64(c.max_rows_per_unit), WithoutLambdaMin: c.without_lambda_min != 0}, nil
}

// AdasspReceipt mirrors dpcov_adassp_receipt: every constant of a fit and, from the release, the
// released lambda_min, the ridge and the number of eigenvalues raised to the floor.
// Its prefix's Rho is the fit's zCDP rho, what a zCDP ledger charges (Ledger.ChargeZCDP); its
// Bound is B_X; its Numerics always 0, idealized: the Gaussian noise is sampled in floating point
// and the guarantee is that of the idealized mechanism (Mironov 2012).
type AdasspReceipt struct {
	ReceiptPrefix
	Calibration                                                 int32
	NumRegressors                                               int64
	BoundY, DeltaExact, FailureProbability                      float64
	SensitivityLambdaMin, SensitivityGram, SensitivityCross     float64
	SigmaLambdaMin, SigmaGram, SigmaGramOffDiagonal, SigmaCross float64
	LambdaMinShift, NoiseNormBound, EigenvalueFloor             float64
	ReleasedLambdaMin, Ridge                                    float64
	EigenvaluesFloored                                          int64
	// With ReleaseLabelSquare: y'y was released too, with this sensitivity and noise scale.
	LabelSquareReleased                                           bool
	SensitivityLabelSquare, SigmaLabelSquare, ReleasedLabelSquare float64
	MaxRowsPerUnit                                                int64 // k of a unit-level fit, 0 at row level
	LambdaMinReleased                                             bool  // false without the lambda_min step
}

// adasspParamsToC is params as dpcov_adassp_params, or nil (the defaults) for nil.
func adasspParamsToC(params *AdasspParams) *C.dpcov_adassp_params {
	if params == nil {
		return nil
	}
	cp := &C.dpcov_adassp_params{struct_size: C.size_t(C.sizeof_dpcov_adassp_params),
		neighbour: C.int32_t(params.Neighbour), calibration: C.int32_t(params.Calibration),
		rho: C.double(params.Rho), max_rows_per_unit: C.int64_t(params.MaxRowsPerUnit)}
	if params.ReleaseLabelSquare {
		cp.release_label_square = 1
	}
	if params.WithoutLambdaMin {
		cp.without_lambda_min = 1
	}
	return cp
}

// adasspReceiptFromC mirrors a dpcov_adassp_receipt.
func adasspReceiptFromC(rec *C.dpcov_adassp_receipt) AdasspReceipt {
	return AdasspReceipt{
		ReceiptPrefix: prefixFromC(unsafe.Pointer(rec)),
		Calibration:   int32(rec.calibration), NumRegressors: int64(rec.num_regressors),
		BoundY: float64(rec.bound_y), DeltaExact: float64(rec.delta_exact),
		FailureProbability:   float64(rec.failure_probability),
		SensitivityLambdaMin: float64(rec.sensitivity_lambda_min),
		SensitivityGram:      float64(rec.sensitivity_gram),
		SensitivityCross:     float64(rec.sensitivity_cross),
		SigmaLambdaMin:       float64(rec.sigma_lambda_min), SigmaGram: float64(rec.sigma_gram),
		SigmaGramOffDiagonal: float64(rec.sigma_gram_off_diagonal),
		SigmaCross:           float64(rec.sigma_cross), LambdaMinShift: float64(rec.lambda_min_shift),
		NoiseNormBound:    float64(rec.noise_norm_bound),
		EigenvalueFloor:   float64(rec.eigenvalue_floor),
		ReleasedLambdaMin: float64(rec.released_lambda_min), Ridge: float64(rec.ridge),
		EigenvaluesFloored:     int64(rec.eigenvalues_floored),
		LabelSquareReleased:    rec.label_square_released != 0,
		SensitivityLabelSquare: float64(rec.sensitivity_label_square),
		SigmaLabelSquare:       float64(rec.sigma_label_square),
		ReleasedLabelSquare:    float64(rec.released_label_square),
		MaxRowsPerUnit:         int64(rec.max_rows_per_unit),
		LambdaMinReleased:      rec.lambda_min_released != 0,
	}
}

// adasspReceiptToC is the C receipt of rec, every field (the inverse of adasspReceiptFromC): what
// the post-processing of a fit reads, from the exported fields, so that a fit saved and rebuilt
// from them (or made by another surface) works alike.
func adasspReceiptToC(r AdasspReceipt) C.dpcov_adassp_receipt {
	c := C.dpcov_adassp_receipt{struct_size: C.size_t(C.sizeof_dpcov_adassp_receipt)}
	c.mechanism, c.privacy_model = C.int32_t(r.Mechanism), C.int32_t(r.PrivacyModel)
	c.neighbour, c.numerics = C.int32_t(r.Neighbour), C.int32_t(r.Numerics)
	c.generator, c.seed_fixed = C.int32_t(r.Generator), cbool(r.SeedFixed)
	c.epsilon, c.delta, c.rho = C.double(r.Epsilon), C.double(r.Delta), C.double(r.Rho)
	c.bound, c.n = C.double(r.Bound), C.int64_t(r.N)
	for i := 0; i < len(r.Theorem) && i < len(c.theorem)-1; i++ {
		c.theorem[i] = C.char(r.Theorem[i])
	}
	c.calibration, c.num_regressors = C.int32_t(r.Calibration), C.int64_t(r.NumRegressors)
	c.bound_y, c.delta_exact = C.double(r.BoundY), C.double(r.DeltaExact)
	c.failure_probability = C.double(r.FailureProbability)
	c.sensitivity_lambda_min = C.double(r.SensitivityLambdaMin)
	c.sensitivity_gram, c.sensitivity_cross = C.double(r.SensitivityGram), C.double(r.SensitivityCross)
	c.sigma_lambda_min, c.sigma_gram = C.double(r.SigmaLambdaMin), C.double(r.SigmaGram)
	c.sigma_gram_off_diagonal = C.double(r.SigmaGramOffDiagonal)
	c.sigma_cross, c.lambda_min_shift = C.double(r.SigmaCross), C.double(r.LambdaMinShift)
	c.noise_norm_bound, c.eigenvalue_floor = C.double(r.NoiseNormBound), C.double(r.EigenvalueFloor)
	c.released_lambda_min, c.ridge = C.double(r.ReleasedLambdaMin), C.double(r.Ridge)
	c.eigenvalues_floored = C.int64_t(r.EigenvaluesFloored)
	c.label_square_released = cbool(r.LabelSquareReleased)
	c.sensitivity_label_square = C.double(r.SensitivityLabelSquare)
	c.sigma_label_square = C.double(r.SigmaLabelSquare)
	c.released_label_square = C.double(r.ReleasedLabelSquare)
	c.max_rows_per_unit = C.int64_t(r.MaxRowsPerUnit)
	c.lambda_min_released = cbool(r.LambdaMinReleased)
	return c
}

// AdasspPlan is every data-independent constant of an AdaSSP fit of numFeatures regressors
// (dpcov_adassp_plan), Rho (zCDP) included: what a Ledger checks before the fit. params nil means the
// defaults.
func AdasspPlan(numFeatures int64, boundX, boundY, epsilon, delta float64,
	params *AdasspParams) (AdasspReceipt, error) {
	rec := C.dpcov_adassp_receipt{struct_size: C.size_t(C.sizeof_dpcov_adassp_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_adassp_plan(C.int64_t(numFeatures), C.double(boundX), C.double(boundY),
			C.double(epsilon), C.double(delta), adasspParamsToC(params), &rec)
	})
	if err != nil {
		return AdasspReceipt{}, err
	}
	return adasspReceiptFromC(&rec), nil
}

// AdasspResult is an AdaSSP fit: coefficients in the order of the features, the released X'X~
// (row-major) and X'y~, and the receipt.
type AdasspResult struct {
	Coefficients []float64
	ReleasedXtX  Matrix
	ReleasedXty  []float64
	Receipt      AdasspReceipt
}

// AdasspFit is AdaSSP (Wang, UAI 2018, Alg. 2; dpcov_adassp_fit): a private regression of column
// label on the feature columns of the exact Gram matrix g of rows whose regressor part has norm
// <= boundX and whose label has |y| <= boundY. params nil means the defaults.
func AdasspFit(g Matrix, label int64, features []int64, boundX, boundY, epsilon, delta float64,
	params *AdasspParams, rng *RNG) (AdasspResult, error) {
	if err := g.checkSquare("g"); err != nil {
		return AdasspResult{}, err
	}
	p := len(features)
	// One spare element keeps the pointers valid for p = 0 (which the library refuses).
	coef := make([]float64, p+1)
	xty := make([]float64, p+1)
	xtx := NewMatrix(p, p)
	xtxData := make([]float64, p*p+1)
	cp := adasspParamsToC(params)
	rec := C.dpcov_adassp_receipt{struct_size: C.size_t(C.sizeof_dpcov_adassp_receipt)}
	ld := p
	if ld < 1 {
		ld = 1
	}
	err := call(func() C.dpcov_status {
		return C.dpcov_adassp_fit(rowMajor, C.int64_t(g.Rows), g.ptr(), g.ld(), C.int64_t(label),
			int64s(features), C.int64_t(p), C.double(boundX), C.double(boundY), C.double(epsilon),
			C.double(delta), cp, rng.handle(), doubles(coef), doubles(xtxData), C.int64_t(ld),
			doubles(xty), &rec)
	})
	if err != nil {
		return AdasspResult{}, err
	}
	copy(xtx.Data, xtxData[:p*p])
	return AdasspResult{Coefficients: coef[:p], ReleasedXtX: xtx, ReleasedXty: xty[:p],
		Receipt: adasspReceiptFromC(&rec)}, nil
}

// AdasspIntervals are noise-aware intervals for beta: the unregularised coefficients
// X'X~^{-1} X'y~, bootstrap standard errors, p-values of beta_j = 0 and the interval ends.
type AdasspIntervals struct {
	Coefficients, StdErrors, PValues, CILower, CIUpper []float64
}

// AdasspBootstrapIntervals computes noise-aware intervals for beta from a fit that released y'y
// (dpcov_adassp_bootstrap_intervals: parametric bootstrap from AdaSSP's noise law, fixed design,
// n the public number of rows). Post-processing: no privacy cost.
func AdasspBootstrapIntervals(fit AdasspResult, n int64, level float64, numBootstrap int64,
	rng *RNG) (AdasspIntervals, error) {
	p := len(fit.Coefficients)
	xtx, xty, ld, err := releasedCopies(fit)
	if err != nil {
		return AdasspIntervals{}, err
	}
	rec := adasspReceiptToC(fit.Receipt)
	return adasspIntervalsFrom(p, func(out [][]float64) C.dpcov_status {
		return C.dpcov_adassp_bootstrap_intervals(rowMajor, C.int64_t(p), doubles(xtx),
			C.int64_t(ld), doubles(xty), C.int64_t(n), &rec, C.double(level),
			C.int64_t(numBootstrap), rng.handle(), doubles(out[0]), doubles(out[1]),
			doubles(out[2]), doubles(out[3]), doubles(out[4]))
	})
}

// adasspIntervalsFrom runs one interval entry point into five outputs of p doubles (each with a
// spare element, so that p = 0 still has an address) and returns them as AdasspIntervals.
func adasspIntervalsFrom(p int, run func(out [][]float64) C.dpcov_status) (AdasspIntervals, error) {
	out := make([][]float64, 5)
	for i := range out {
		out[i] = make([]float64, p+1)
	}
	if err := call(func() C.dpcov_status { return run(out) }); err != nil {
		return AdasspIntervals{}, err
	}
	return AdasspIntervals{Coefficients: out[0][:p], StdErrors: out[1][:p], PValues: out[2][:p],
		CILower: out[3][:p], CIUpper: out[4][:p]}, nil
}

// AdasspAnswer holds the regression intervals at every n: as AdasspIntervals, with Conclusive
// (true where the interval supports a conclusion), its reason in ConclusiveCode (the C codes:
// 1 conclusive; 0 the interval contains [-R_j, R_j], the values that matter by the public
// bounds; -1 the posterior's chains did not converge for it, so the interval is not the
// posterior's; -2 a prior decides the posterior's interval) and Method
// (DPCOV_INTERVALS_BOOTSTRAP or DPCOV_INTERVALS_POSTERIOR).
type AdasspAnswer struct {
	AdasspIntervals
	Conclusive     []bool
	ConclusiveCode []int32
	Method         int32
}

// conclusiveOf is the C codes of p coefficients as flags (code 1) and as codes.
func conclusiveOf(codes []C.int32_t, p int) ([]bool, []int32) {
	flags, out := make([]bool, p), make([]int32, p)
	for i := range flags {
		flags[i], out[i] = codes[i] == 1, int32(codes[i])
	}
	return flags, out
}

// AdasspIntervalsAtEveryN computes intervals for beta from a fit that released y'y
// (dpcov_adassp_intervals): the parametric bootstrap where it answers, else the noise-aware
// posterior over the released statistics. interceptColumn is -1 or the column that is 1 in every
// row. Post-processing: no privacy cost.
func AdasspIntervalsAtEveryN(fit AdasspResult, n int64, interceptColumn int64, level float64,
	numDraws int64, rng *RNG) (AdasspAnswer, error) {
	p := len(fit.Coefficients)
	out := make([][]float64, 5)
	for i := range out {
		out[i] = make([]float64, p+1)
	}
	conclusive := make([]C.int32_t, p+1)
	var method C.int32_t
	xtx, xty, ld, err := releasedCopies(fit)
	if err != nil {
		return AdasspAnswer{}, err
	}
	rec := adasspReceiptToC(fit.Receipt)
	err = call(func() C.dpcov_status {
		return C.dpcov_adassp_intervals(rowMajor, C.int64_t(p), doubles(xtx), C.int64_t(ld),
			doubles(xty), C.int64_t(n), &rec, C.int64_t(interceptColumn), C.double(level),
			C.int64_t(numDraws), rng.handle(), doubles(out[0]), doubles(out[1]),
			doubles(out[2]), doubles(out[3]), doubles(out[4]), &conclusive[0], &method)
	})
	if err != nil {
		return AdasspAnswer{}, err
	}
	flags, codes := conclusiveOf(conclusive, p)
	return AdasspAnswer{AdasspIntervals: AdasspIntervals{Coefficients: out[0][:p],
		StdErrors: out[1][:p], PValues: out[2][:p], CILower: out[3][:p], CIUpper: out[4][:p]},
		Conclusive: flags, ConclusiveCode: codes, Method: int32(method)}, nil
}

// AdasspProfile holds the profile intervals of a release: beta~, the p-value of beta_j = 0, the
// interval ends, and Conclusive (false where the interval contains [-R_j, R_j] or the release
// leaves its set open on a side).
type AdasspProfile struct {
	Coefficients, PValues, CILower, CIUpper []float64
	Conclusive                              []bool
}

// AdasspProfileIntervals computes intervals for beta from the profile of the release's pivot
// vector, on every release and without draws (dpcov_adassp_profile_intervals): homoscedastic
// errors from y'y and the public n when meat is nil, else robust ones from the released meat
// (p x p, row-major; y'y and n not read). Post-processing: no privacy cost.
func AdasspProfileIntervals(fit AdasspResult, n int64, meat []float64, interceptColumn int64,
	level float64) (AdasspProfile, error) {
	p := len(fit.Coefficients)
	out := make([][]float64, 4)
	for i := range out {
		out[i] = make([]float64, p+1)
	}
	conclusive := make([]C.int32_t, p+1)
	xtx, xty, ld, err := releasedCopies(fit)
	if err != nil {
		return AdasspProfile{}, err
	}
	var meatCopy []float64
	if meat != nil {
		if len(meat) != p*p {
			return AdasspProfile{}, argError(ErrDimension, "meat holds %d values, p x p = %d",
				len(meat), p*p)
		}
		meatCopy = make([]float64, len(meat)+1)
		copy(meatCopy, meat)
	}
	rec := adasspReceiptToC(fit.Receipt)
	err = call(func() C.dpcov_status {
		return C.dpcov_adassp_profile_intervals(rowMajor, C.int64_t(p), doubles(xtx),
			C.int64_t(ld), doubles(xty), C.int64_t(n), &rec, doubles(meatCopy), C.int64_t(ld),
			C.int64_t(interceptColumn), C.double(level), doubles(out[0]), doubles(out[1]),
			doubles(out[2]), doubles(out[3]), &conclusive[0])
	})
	if err != nil {
		return AdasspProfile{}, err
	}
	flags, _ := conclusiveOf(conclusive, p)
	return AdasspProfile{Coefficients: out[0][:p], PValues: out[1][:p], CILower: out[2][:p],
		CIUpper: out[3][:p], Conclusive: flags}, nil
}

// releasedCopies returns copies of a fit's released X'X and X'y, each with one spare element so
// that a zero-length slice still has an address, and the leading dimension of X'X (at least 1);
// ErrDimension unless X'X is p x p and X'y has p entries (p the coefficients).
func releasedCopies(fit AdasspResult) (xtx, xty []float64, ld int, err error) {
	p := len(fit.Coefficients)
	if err := squareOf(fit.ReleasedXtX, p, "fit.ReleasedXtX"); err != nil {
		return nil, nil, 0, err
	}
	if len(fit.ReleasedXty) != p {
		return nil, nil, 0, argError(ErrDimension, "fit.ReleasedXty has %d entries for %d "+
			"coefficients", len(fit.ReleasedXty), p)
	}
	xtx = make([]float64, p*p+1)
	copy(xtx, fit.ReleasedXtX.Data)
	xty = make([]float64, p+1)
	copy(xty, fit.ReleasedXty)
	ld = p
	if ld < 1 {
		ld = 1
	}
	return xtx, xty, ld, nil
}

// releasedAndMeat is releasedCopies and a copy of the p x p meat (one spare element).
func releasedAndMeat(fit AdasspResult, meat Matrix) (xtx, xty []float64, ld int, m []float64,
	err error) {
	if xtx, xty, ld, err = releasedCopies(fit); err != nil {
		return nil, nil, 0, nil, err
	}
	p := len(fit.Coefficients)
	if err = squareOf(meat, p, "meat"); err != nil {
		return nil, nil, 0, nil, err
	}
	m = make([]float64, p*p+1)
	copy(m, meat.Data)
	return xtx, xty, ld, m, nil
}

// squareOf refuses a matrix that is not a consistent p x p one.
func squareOf(m Matrix, p int, name string) error {
	if err := m.checkSquare(name); err != nil {
		return err
	}
	if m.Rows != p {
		return argError(ErrDimension, "%s must be %d x %d (the coefficients), got %d x %d", name,
			p, p, m.Rows, m.Cols)
	}
	return nil
}

// SandwichBudget holds the public constants of AdaSSP's robust intervals
// (dpcov_adassp_sandwich_plan): the budget split between the fit and the meat, and the bounds.
type SandwichBudget struct {
	FitEpsilon, FitDelta, MeatEpsilon, MeatDelta, MeatShare, ResidualBound, MeatRowBound float64
}

// AdasspSandwichPlan splits (epsilon, delta) between an AdaSSP fit and the release of its meat
// sum r_i^2 x_i x_i' (dpcov_adassp_sandwich_plan); no data, no randomness.
func AdasspSandwichPlan(boundX, boundY, epsilon, delta float64) (SandwichBudget, error) {
	var b C.dpcov_sandwich_budget
	b.struct_size = C.size_t(unsafe.Sizeof(b))
	err := call(func() C.dpcov_status {
		return C.dpcov_adassp_sandwich_plan(C.double(boundX), C.double(boundY), C.double(epsilon),
			C.double(delta), &b)
	})
	if err != nil {
		return SandwichBudget{}, err
	}
	return SandwichBudget{FitEpsilon: float64(b.fit_epsilon), FitDelta: float64(b.fit_delta),
		MeatEpsilon: float64(b.meat_epsilon), MeatDelta: float64(b.meat_delta),
		MeatShare: float64(b.meat_share), ResidualBound: float64(b.residual_bound),
		MeatRowBound: float64(b.meat_row_bound)}, nil
}

// AdasspSandwichRows returns the meat's rows r_i x_i of the bounded rows xy ([x, y], the label
// last) at the fit's coefficients beta0 (dpcov_adassp_sandwich_rows), each of norm at most
// boundX * residualBound: release them with NewBoundedGram at MeatRowBound and Analyze Gauss.
func AdasspSandwichRows(xy Matrix, beta0 []float64, boundX, residualBound float64) (Matrix, error) {
	p := len(beta0)
	if err := xy.check("xy"); err != nil {
		return Matrix{}, err
	}
	if xy.Cols != p+1 {
		return Matrix{}, argError(ErrDimension, "xy has %d columns, len(beta0) + 1 = %d",
			xy.Cols, p+1)
	}
	u := make([]float64, xy.Rows*p+1)
	in := append(append([]float64(nil), xy.Data...), 0)
	beta := append(append([]float64(nil), beta0...), 0)
	ld := p
	if ld < 1 {
		ld = 1
	}
	err := call(func() C.dpcov_status {
		return C.dpcov_adassp_sandwich_rows(rowMajor, C.int64_t(xy.Rows), C.int64_t(p),
			doubles(in), C.int64_t(p+1), doubles(beta), C.double(boundX),
			C.double(residualBound), doubles(u), C.int64_t(ld))
	})
	if err != nil {
		return Matrix{}, err
	}
	return Matrix{Rows: xy.Rows, Cols: p, Data: u[:xy.Rows*p]}, nil
}

// AdasspSandwichIntervals computes intervals for beta robust to heteroscedastic errors and a
// misspecified mean from a fit and its released meat (dpcov_adassp_sandwich_intervals: parametric
// bootstrap whose sampling noise is N(0, meat)). Post-processing: no privacy cost, no y'y or n.
func AdasspSandwichIntervals(fit AdasspResult, meat Matrix, level float64, numBootstrap int64,
	rng *RNG) (AdasspIntervals, error) {
	p := len(fit.Coefficients)
	xtx, xty, ld, m, err := releasedAndMeat(fit, meat)
	if err != nil {
		return AdasspIntervals{}, err
	}
	rec := adasspReceiptToC(fit.Receipt)
	return adasspIntervalsFrom(p, func(out [][]float64) C.dpcov_status {
		return C.dpcov_adassp_sandwich_intervals(rowMajor, C.int64_t(p), doubles(xtx),
			C.int64_t(ld), doubles(xty), &rec, doubles(m), C.int64_t(ld), C.double(level),
			C.int64_t(numBootstrap), rng.handle(), doubles(out[0]), doubles(out[1]),
			doubles(out[2]), doubles(out[3]), doubles(out[4]))
	})
}

// AdasspRobustIntervals is AdasspSandwichIntervals with the meat's own noise, whose law it reads
// from meatReceipt (the meat's release), redrawn in every bootstrap world
// (dpcov_adassp_robust_intervals, proofs/sandwich.md): the intervals to use.
func AdasspRobustIntervals(fit AdasspResult, meat Matrix, meatReceipt Receipt, level float64,
	numBootstrap int64, rng *RNG) (AdasspIntervals, error) {
	p := len(fit.Coefficients)
	xtx, xty, ld, m, err := releasedAndMeat(fit, meat)
	if err != nil {
		return AdasspIntervals{}, err
	}
	rec, meatRec := adasspReceiptToC(fit.Receipt), receiptToC(meatReceipt)
	return adasspIntervalsFrom(p, func(out [][]float64) C.dpcov_status {
		return C.dpcov_adassp_robust_intervals(rowMajor, C.int64_t(p), doubles(xtx),
			C.int64_t(ld), doubles(xty), &rec, doubles(m), C.int64_t(ld), &meatRec,
			C.double(level), C.int64_t(numBootstrap), rng.handle(), doubles(out[0]),
			doubles(out[1]), doubles(out[2]), doubles(out[3]), doubles(out[4]))
	})
}
