package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// Estimators on a released (or exact) second-moment matrix (dpcov/estimators.h): post-processing
// that costs no privacy.

// RegressionParams are the optional settings of RegressionFit; start from
// DefaultRegressionParams.
type RegressionParams struct {
	InterceptColumn int64   // column holding a constant, or -1 for no intercept
	Ridge           float64 // ridge penalty >= 0
	Level           float64 // confidence level of the intervals, in (0, 1)
}

// DefaultRegressionParams: no intercept, ridge 0, level 0.95.
func DefaultRegressionParams() RegressionParams {
	var c C.dpcov_regression_params
	C.dpcov_regression_params_init(&c, C.size_t(unsafe.Sizeof(c)))
	return RegressionParams{InterceptColumn: int64(c.intercept_column), Ridge: float64(c.ridge),
		Level: float64(c.level)}
}

func (p *RegressionParams) c() *C.dpcov_regression_params {
	if p == nil {
		return nil
	}
	c := &C.dpcov_regression_params{}
	C.dpcov_regression_params_init(c, C.size_t(unsafe.Sizeof(*c)))
	c.intercept_column = C.int64_t(p.InterceptColumn)
	c.ridge = C.double(p.Ridge)
	c.level = C.double(p.Level)
	return c
}

// RegressionSummary holds the scalar results of a regression.
type RegressionSummary struct {
	NumCoefficients  int64
	DOF              int64
	RSS              float64
	ResidualVariance float64
	TCritical        float64
	RSSClamped       bool
}

// Regression holds the per-coefficient results (intercept first) and the summary.
type Regression struct {
	Coefficients []float64
	StdErrors    []float64
	TValues      []float64
	PValues      []float64
	CILower      []float64
	CIUpper      []float64
	Summary      RegressionSummary
}

func newRegression(p int) Regression {
	return Regression{Coefficients: make([]float64, p), StdErrors: make([]float64, p),
		TValues: make([]float64, p), PValues: make([]float64, p), CILower: make([]float64, p),
		CIUpper: make([]float64, p)}
}

func summaryFromC(c *C.dpcov_regression_summary) RegressionSummary {
	return RegressionSummary{NumCoefficients: int64(c.num_coefficients), DOF: int64(c.dof),
		RSS: float64(c.rss), ResidualVariance: float64(c.residual_variance),
		TCritical: float64(c.t_critical), RSSClamped: c.rss_clamped != 0}
}

func numCoefficients(features []int64, params *RegressionParams) int {
	p := len(features)
	if params != nil && params.InterceptColumn >= 0 {
		p++
	}
	return p
}

func int64s(s []int64) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

// RegressionFit regresses column label on the feature columns of the second-moment matrix g of
// n rows (unnormalised, as released), with t-values and confidence intervals.
func RegressionFit(g Matrix, n int64, label int64, features []int64, params *RegressionParams) (Regression, error) {
	if err := g.checkSquare("g"); err != nil {
		return Regression{}, err
	}
	res := newRegression(numCoefficients(features, params))
	sum := C.dpcov_regression_summary{struct_size: C.size_t(C.sizeof_dpcov_regression_summary)}
	err := call(func() C.dpcov_status {
		return C.dpcov_regression_fit(rowMajor, C.int64_t(g.Rows), g.ptr(), g.ld(), C.int64_t(n),
			C.int64_t(label), int64s(features), C.int64_t(len(features)), params.c(),
			doubles(res.Coefficients), doubles(res.StdErrors), doubles(res.TValues),
			doubles(res.PValues), doubles(res.CILower), doubles(res.CIUpper), &sum)
	})
	if err != nil {
		return Regression{}, err
	}
	res.Summary = summaryFromC(&sum)
	return res, nil
}

// PCA holds the top-k eigenpairs of a symmetric matrix.
type PCA struct {
	Values         []float64 // descending
	Vectors        Matrix    // d x k, column i is the eigenvector of Values[i]
	ExplainedRatio []float64 // Values[i] / trace; nil if not requested
}

// PCATopK is the k largest eigenvalues of a and their eigenvectors; with explained, also the
// explained variance ratios (trace(a) must then be > 0).
func PCATopK(a Matrix, k int, explained bool) (PCA, error) {
	if err := a.checkSquare("a"); err != nil {
		return PCA{}, err
	}
	if k < 1 || k > a.Rows {
		return PCA{}, argError(ErrInvalidArgument, "k must be in [1, %d], got %d", a.Rows, k)
	}
	res := PCA{Values: make([]float64, k), Vectors: NewMatrix(a.Rows, k)}
	if explained {
		res.ExplainedRatio = make([]float64, k)
	}
	err := call(func() C.dpcov_status {
		return C.dpcov_pca_top_k(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(), C.int64_t(k),
			doubles(res.Values), res.Vectors.ptr(), res.Vectors.ld(), doubles(res.ExplainedRatio))
	})
	if err != nil {
		return PCA{}, err
	}
	return res, nil
}

// SubspaceDistance holds the principal angles between two top-k subspaces.
type SubspaceDistance struct {
	SinThetaSpectral  float64
	SinThetaFrobenius float64
	Angles            []float64 // radians, ascending
}

// PCASubspaceDistance compares the top-k eigenvector subspaces of a and b.
func PCASubspaceDistance(a, b Matrix, k int) (SubspaceDistance, error) {
	if err := sameOrder(a, "a", b, "b"); err != nil {
		return SubspaceDistance{}, err
	}
	if k < 1 || k > a.Rows {
		return SubspaceDistance{}, argError(ErrInvalidArgument, "k must be in [1, %d], got %d", a.Rows, k)
	}
	res := SubspaceDistance{Angles: make([]float64, k)}
	var spectral, frobenius C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_pca_subspace_distance(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(), b.ptr(),
			b.ld(), C.int64_t(k), &spectral, &frobenius, doubles(res.Angles))
	})
	if err != nil {
		return SubspaceDistance{}, err
	}
	res.SinThetaSpectral, res.SinThetaFrobenius = float64(spectral), float64(frobenius)
	return res, nil
}

// GlassoParams are the optional settings of GlassoSolve; start from DefaultGlassoParams.
type GlassoParams struct {
	PenalizeDiagonal bool
	Tol              float64
	MaxIter          int64
}

// DefaultGlassoParams: diagonal penalised, tol 1e-6, 1000 iterations.
func DefaultGlassoParams() GlassoParams {
	var c C.dpcov_glasso_params
	C.dpcov_glasso_params_init(&c, C.size_t(unsafe.Sizeof(c)))
	return GlassoParams{PenalizeDiagonal: c.penalize_diagonal != 0, Tol: float64(c.tol),
		MaxIter: int64(c.max_iter)}
}

func (p *GlassoParams) c() *C.dpcov_glasso_params {
	if p == nil {
		return nil
	}
	c := &C.dpcov_glasso_params{}
	C.dpcov_glasso_params_init(c, C.size_t(unsafe.Sizeof(*c)))
	c.penalize_diagonal = cbool(p.PenalizeDiagonal)
	c.tol = C.double(p.Tol)
	c.max_iter = C.int64_t(p.MaxIter)
	return c
}

// Glasso is the graphical-lasso solution and its convergence information.
type Glasso struct {
	Precision   Matrix // Theta
	Covariance  Matrix // Theta^{-1}
	Iterations  int64
	KKTResidual float64
	DualityGap  float64
	Start       int32 // DPCOV_GLASSO_START_*: which starting point was used
}

// Starting points reported in Glasso.Start.
const (
	GlassoStartWarm          = C.DPCOV_GLASSO_START_WARM
	GlassoStartCovariance    = C.DPCOV_GLASSO_START_COVARIANCE
	GlassoStartSoftThreshold = C.DPCOV_GLASSO_START_SOFT_THRESHOLD
)

// GlassoSolve is the graphical lasso of s with penalty rho; warmStart may be nil.
func GlassoSolve(s Matrix, rho float64, params *GlassoParams, warmStart *Matrix) (Glasso, error) {
	if err := s.checkSquare("s"); err != nil {
		return Glasso{}, err
	}
	var warm *C.double
	ldw := C.int64_t(1)
	if warmStart != nil {
		if err := sameOrder(s, "s", *warmStart, "warmStart"); err != nil {
			return Glasso{}, err
		}
		warm, ldw = warmStart.ptr(), warmStart.ld()
	}
	res := Glasso{Precision: NewMatrix(s.Rows, s.Cols), Covariance: NewMatrix(s.Rows, s.Cols)}
	info := C.dpcov_glasso_info{struct_size: C.size_t(C.sizeof_dpcov_glasso_info)}
	err := call(func() C.dpcov_status {
		return C.dpcov_glasso_solve(rowMajor, C.int64_t(s.Rows), s.ptr(), s.ld(), C.double(rho),
			params.c(), warm, ldw, res.Precision.ptr(), res.Precision.ld(), res.Covariance.ptr(),
			res.Covariance.ld(), &info)
	})
	if err != nil {
		return Glasso{}, err
	}
	res.Iterations, res.KKTResidual = int64(info.iterations), float64(info.kkt_residual)
	res.DualityGap, res.Start = float64(info.duality_gap), int32(info.start)
	return res, nil
}

func sameShape(a, b Matrix) error {
	if err := a.check("a"); err != nil {
		return err
	}
	if err := b.check("b"); err != nil {
		return err
	}
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return argError(ErrDimension, "a is %d x %d but b is %d x %d", a.Rows, a.Cols, b.Rows, b.Cols)
	}
	return nil
}

// FrobeniusError is ||a - b||_F, divided by ||b||_F when relative.
func FrobeniusError(a, b Matrix, relative bool) (float64, error) {
	if err := sameShape(a, b); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_metric_frobenius_error(rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), b.ptr(), b.ld(), cbool(relative), &v)
	})
	return float64(v), err
}

// SpectralError is ||a - b||_2, divided by ||b||_2 when relative.
func SpectralError(a, b Matrix, relative bool) (float64, error) {
	if err := sameShape(a, b); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_metric_spectral_error(rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), b.ptr(), b.ld(), cbool(relative), &v)
	})
	return float64(v), err
}

// VectorError is ||a - b||_2, divided by ||b||_2 when relative.
func VectorError(a, b []float64, relative bool) (float64, error) {
	if len(a) != len(b) {
		return 0, argError(ErrDimension, "a has %d entries but b has %d", len(a), len(b))
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_metric_vector_error(C.int64_t(len(a)), doubles(a), doubles(b),
			cbool(relative), &v)
	})
	return float64(v), err
}

// SupportRecovery counts the edges |Theta_ij| > threshold (i < j) an estimate shares with the
// truth.
type SupportRecovery struct {
	TruePositives, FalsePositives, FalseNegatives, TrueNegatives int64
	Precision, Recall                                            float64
}

// MetricSupportRecovery compares the supports of two precision matrices.
func MetricSupportRecovery(estimate, truth Matrix, threshold float64) (SupportRecovery, error) {
	if err := sameOrder(estimate, "estimate", truth, "truth"); err != nil {
		return SupportRecovery{}, err
	}
	c := C.dpcov_support_recovery{struct_size: C.size_t(C.sizeof_dpcov_support_recovery)}
	err := call(func() C.dpcov_status {
		return C.dpcov_metric_support_recovery(rowMajor, C.int64_t(estimate.Rows), estimate.ptr(),
			estimate.ld(), truth.ptr(), truth.ld(), C.double(threshold), &c)
	})
	if err != nil {
		return SupportRecovery{}, err
	}
	return SupportRecovery{TruePositives: int64(c.true_positives),
		FalsePositives: int64(c.false_positives), FalseNegatives: int64(c.false_negatives),
		TrueNegatives: int64(c.true_negatives), Precision: float64(c.precision),
		Recall: float64(c.recall)}, nil
}

// SubspaceErrorBound bounds how far a release's top-k subspace can be from the true one:
// SinThetaBound in [0, 1], the noise's spectral-norm quantile NoiseNorm, the released Eigengap
// and Swamped (the gap is below twice the noise norm).
type SubspaceErrorBound struct {
	SinThetaBound, NoiseNorm, Eigengap float64
	Swamped                            bool
}

// PCASubspaceErrorBound is the Davis-Kahan bound on ||sin Theta||_2 between the top-k subspace of
// a release of AnalyzeGauss, LaplaceSym or WishartAdditive and the true one, from the release and
// its receipt (Mechanism, Dim, Sigma, Scale and DOF are read); rng draws numDraws noise matrices
// for the level-quantile of its norm. No privacy cost.
func PCASubspaceErrorBound(released Matrix, receipt Receipt, k int, level float64, numDraws int64,
	rng *RNG) (SubspaceErrorBound, error) {
	if err := released.checkSquare("released"); err != nil {
		return SubspaceErrorBound{}, err
	}
	rec := receiptToC(receipt)
	var norm, gap, bound C.double
	var swamped C.int32_t
	err := call(func() C.dpcov_status {
		return C.dpcov_pca_subspace_error_bound(rowMajor, C.int64_t(released.Rows), released.ptr(),
			released.ld(), &rec, C.int64_t(k), C.double(level), C.int64_t(numDraws), rng.handle(), &norm,
			&gap, &bound, &swamped)
	})
	if err != nil {
		return SubspaceErrorBound{}, err
	}
	return SubspaceErrorBound{SinThetaBound: float64(bound), NoiseNorm: float64(norm),
		Eigengap: float64(gap), Swamped: swamped != 0}, nil
}

// PCACentredSubspaceErrorBound is the same bound for the centred covariance computed from a
// released second moment of rows [c, x] (CentreSecondMoment with constantColumn, constant and the
// public n, 0 to estimate it). A plug-in: the noise norm is the level-quantile of
// min_t ||D - t I||_2, D = centre(M) - centre(M - E), over numDraws simulated noise draws E at
// the release M. No privacy cost.
func PCACentredSubspaceErrorBound(released Matrix, receipt Receipt, constantColumn int,
	constant float64, n int64, k int, level float64, numDraws int64, rng *RNG) (SubspaceErrorBound, error) {
	if err := released.checkSquare("released"); err != nil {
		return SubspaceErrorBound{}, err
	}
	rec := receiptToC(receipt)
	var norm, gap, bound C.double
	var swamped C.int32_t
	err := call(func() C.dpcov_status {
		return C.dpcov_pca_centred_subspace_error_bound(rowMajor, C.int64_t(released.Rows),
			released.ptr(), released.ld(), &rec, C.int64_t(constantColumn), C.double(constant),
			C.int64_t(n), C.int64_t(k), C.double(level), C.int64_t(numDraws), rng.handle(), &norm, &gap,
			&bound, &swamped)
	})
	if err != nil {
		return SubspaceErrorBound{}, err
	}
	return SubspaceErrorBound{SinThetaBound: float64(bound), NoiseNorm: float64(norm),
		Eigengap: float64(gap), Swamped: swamped != 0}, nil
}
