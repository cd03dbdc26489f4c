package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// Mechanism identifies a release mechanism (dpcov/mechanism.h, which states each one's guarantee,
// preconditions and paper).
type Mechanism int32

// String is the library's name of the mechanism, e.g. "analyze_gauss".
func (m Mechanism) String() string { return C.GoString(C.dpcov_mechanism_name(C.int32_t(m))) }

// Neighbour relation the guarantee is stated for.
const (
	NeighbourReplaceOne = C.DPCOV_NEIGHBOUR_REPLACE_ONE
	NeighbourAddRemove  = C.DPCOV_NEIGHBOUR_ADD_REMOVE
)

// Calibrations (dpcov/receipt.h).
const (
	CalibrationDefault              = C.DPCOV_CALIBRATION_DEFAULT
	CalibrationAnalyticGaussian     = C.DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN
	CalibrationClassicalGaussian    = C.DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN
	CalibrationLaplaceUpperTriangle = C.DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE
	CalibrationLaplacePublished     = C.DPCOV_CALIBRATION_LAPLACE_PUBLISHED
	CalibrationTheorem              = C.DPCOV_CALIBRATION_THEOREM
	CalibrationBinghamPublished     = C.DPCOV_CALIBRATION_BINGHAM_PUBLISHED
	CalibrationBinghamSensitivity   = C.DPCOV_CALIBRATION_BINGHAM_SENSITIVITY
	BudgetSplitDefault              = C.DPCOV_BUDGET_SPLIT_DEFAULT
	BudgetSplitUniform              = C.DPCOV_BUDGET_SPLIT_UNIFORM
	BudgetSplitAdaptive             = C.DPCOV_BUDGET_SPLIT_ADAPTIVE
	SensitivityNone                 = C.DPCOV_SENSITIVITY_NONE
	SensitivityL1                   = C.DPCOV_SENSITIVITY_L1
	SensitivityL2                   = C.DPCOV_SENSITIVITY_L2
	LambdaMinDomain                 = C.DPCOV_LAMBDA_MIN_DOMAIN
	LambdaMinInput                  = C.DPCOV_LAMBDA_MIN_INPUT
)

// MechanismParams are the optional settings of a mechanism; start from DefaultMechanismParams.
// A field that does not apply to the mechanism must keep its default.
type MechanismParams struct {
	Neighbour           int32
	Calibration         int32
	LambdaMinBound      float64 // inverse Gauss: theta^2, required there
	LambdaMinScope      int32
	AuditOnlyNotPrivate bool // Wishart (Jiang): run the non-private mechanism as an audit target
	BudgetSplit         int32
	Beta                float64
	Rank                int64
	ProjectionRows      int64 // JL ridge and OLS by projection: r, required there
	PosteriorDOF        int64 // inverse Wishart: m, required there
}

// DefaultMechanismParams are the library's defaults (replace-one, default calibration).
func DefaultMechanismParams() MechanismParams {
	var c C.dpcov_mechanism_params
	C.dpcov_mechanism_params_init(&c, C.size_t(unsafe.Sizeof(c)))
	return MechanismParams{
		Neighbour: int32(c.neighbour), Calibration: int32(c.calibration),
		LambdaMinBound: float64(c.lambda_min_bound), LambdaMinScope: int32(c.lambda_min_scope),
		AuditOnlyNotPrivate: c.audit_only_not_private != 0, BudgetSplit: int32(c.budget_split),
		Beta: float64(c.beta), Rank: int64(c.rank), ProjectionRows: int64(c.projection_rows),
		PosteriorDOF: int64(c.posterior_dof),
	}
}

// c converts p to the C struct; nil means the defaults.
func (p *MechanismParams) c() *C.dpcov_mechanism_params {
	if p == nil {
		return nil
	}
	c := &C.dpcov_mechanism_params{}
	C.dpcov_mechanism_params_init(c, C.size_t(unsafe.Sizeof(*c)))
	c.neighbour = C.int32_t(p.Neighbour)
	c.calibration = C.int32_t(p.Calibration)
	c.lambda_min_bound = C.double(p.LambdaMinBound)
	c.lambda_min_scope = C.int32_t(p.LambdaMinScope)
	c.audit_only_not_private = cbool(p.AuditOnlyNotPrivate)
	c.budget_split = C.int32_t(p.BudgetSplit)
	c.beta = C.double(p.Beta)
	c.rank = C.int64_t(p.Rank)
	c.projection_rows = C.int64_t(p.ProjectionRows)
	c.posterior_dof = C.int64_t(p.PosteriorDOF)
	return c
}

// Receipt records what a mechanism did: every constant it used, the guarantee and the paper
// (dpcov/receipt.h documents each field).
type Receipt struct {
	ReceiptPrefix
	Calibration        int32
	NotDP              bool // the mechanism is known NOT to be differentially private
	SensitivityNorm    int32
	LambdaMinScope     int32
	Dim                int64
	Sensitivity        float64
	Sigma              float64
	Scale              float64
	DOF                float64
	LambdaMinBound     float64
	EpsilonEigenvalues float64
	EpsilonStep        float64
	BudgetSplit        int32
	Rank               int64
	Beta               float64
	Tau                float64
	ExponentFactor     float64
	ClipUpper          float64
	BinghamProposals   int64
	BinghamRejections  int64
	ProjectionRows     int64
	ThresholdW2        float64
	AppendedW          float64
	TestEpsilon        float64
	TestDelta          float64
	TestScale          float64
	TestShift          float64
	TestValue          float64
	TestPassed         bool
	GlassoRho          float64
	// MaxRowsPerUnit is k when the guarantee is stated for privacy units of at most k rows (N then
	// counts units and Bound is the unit bound); 0 when every row is its own unit. Public.
	MaxRowsPerUnit int64
}

func newCReceipt() C.dpcov_receipt {
	return C.dpcov_receipt{struct_size: C.size_t(C.sizeof_dpcov_receipt)}
}

func receiptFromC(c *C.dpcov_receipt) Receipt {
	return Receipt{
		ReceiptPrefix: prefixFromC(unsafe.Pointer(c)),
		Calibration:   int32(c.calibration), NotDP: c.not_dp != 0,
		SensitivityNorm: int32(c.sensitivity_norm), LambdaMinScope: int32(c.lambda_min_scope),
		Dim: int64(c.dim), Sensitivity: float64(c.sensitivity), Sigma: float64(c.sigma),
		Scale: float64(c.scale), DOF: float64(c.dof), LambdaMinBound: float64(c.lambda_min_bound),
		EpsilonEigenvalues: float64(c.epsilon_eigenvalues), EpsilonStep: float64(c.epsilon_step),
		BudgetSplit: int32(c.budget_split), Rank: int64(c.rank), Beta: float64(c.beta),
		Tau: float64(c.tau), ExponentFactor: float64(c.exponent_factor),
		ClipUpper: float64(c.clip_upper), BinghamProposals: int64(c.bingham_proposals),
		BinghamRejections: int64(c.bingham_rejections), ProjectionRows: int64(c.projection_rows),
		ThresholdW2: float64(c.threshold_w2), AppendedW: float64(c.appended_w),
		TestEpsilon: float64(c.test_epsilon), TestDelta: float64(c.test_delta),
		TestScale: float64(c.test_scale), TestShift: float64(c.test_shift),
		TestValue: float64(c.test_value), TestPassed: c.test_passed != 0,
		GlassoRho: float64(c.glasso_rho), MaxRowsPerUnit: int64(c.max_rows_per_unit),
	}
}

func receiptToC(r Receipt) C.dpcov_receipt {
	c := newCReceipt()
	c.mechanism, c.privacy_model = C.int32_t(r.Mechanism), C.int32_t(r.PrivacyModel)
	c.neighbour, c.calibration = C.int32_t(r.Neighbour), C.int32_t(r.Calibration)
	c.rho = C.double(r.Rho)
	c.not_dp, c.seed_fixed = cbool(r.NotDP), cbool(r.SeedFixed)
	c.sensitivity_norm, c.lambda_min_scope = C.int32_t(r.SensitivityNorm), C.int32_t(r.LambdaMinScope)
	c.dim, c.n, c.bound = C.int64_t(r.Dim), C.int64_t(r.N), C.double(r.Bound)
	c.epsilon, c.delta, c.sensitivity = C.double(r.Epsilon), C.double(r.Delta), C.double(r.Sensitivity)
	c.sigma, c.scale, c.dof = C.double(r.Sigma), C.double(r.Scale), C.double(r.DOF)
	c.lambda_min_bound = C.double(r.LambdaMinBound)
	for i := 0; i < len(r.Theorem) && i < len(c.theorem)-1; i++ {
		c.theorem[i] = C.char(r.Theorem[i])
	}
	c.epsilon_eigenvalues, c.epsilon_step = C.double(r.EpsilonEigenvalues), C.double(r.EpsilonStep)
	c.budget_split, c.rank = C.int32_t(r.BudgetSplit), C.int64_t(r.Rank)
	c.beta, c.tau, c.exponent_factor = C.double(r.Beta), C.double(r.Tau), C.double(r.ExponentFactor)
	c.clip_upper = C.double(r.ClipUpper)
	c.bingham_proposals, c.bingham_rejections = C.int64_t(r.BinghamProposals), C.int64_t(r.BinghamRejections)
	c.projection_rows, c.threshold_w2 = C.int64_t(r.ProjectionRows), C.double(r.ThresholdW2)
	c.appended_w, c.test_epsilon, c.test_delta = C.double(r.AppendedW), C.double(r.TestEpsilon), C.double(r.TestDelta)
	c.test_scale, c.test_shift, c.test_value = C.double(r.TestScale), C.double(r.TestShift), C.double(r.TestValue)
	c.test_passed, c.glasso_rho = cbool(r.TestPassed), C.double(r.GlassoRho)
	c.generator, c.numerics = C.int32_t(r.Generator), C.int32_t(r.Numerics)
	c.max_rows_per_unit = C.int64_t(r.MaxRowsPerUnit)
	return c
}

// DifferentiallyPrivate says whether the release this receipt describes may claim differential
// privacy: false for a mechanism known not to be, and for a seeded release (anyone who knows the
// seed can remove the noise). As the Python binding's Receipt.differentially_private.
func (r Receipt) DifferentiallyPrivate() bool { return !r.NotDP && !r.SeedFixed }

// PrivacyClaim is the same in words, as written beside a release: "private", "reproducible: not
// private if the seed is known", "not private: known counterexample", or "plan: nothing released".
func (r Receipt) PrivacyClaim() string {
	switch {
	case r.NotDP:
		return "not private: known counterexample"
	case r.SeedFixed:
		return "reproducible: not private if the seed is known"
	case r.Generator == 0:
		return "plan: nothing released"
	}
	return "private"
}

// ReceiptNWithheld is the N of a public receipt when n is private (add/remove neighbours).
const ReceiptNWithheld = C.DPCOV_RECEIPT_N_WITHHELD

// Public is the part of the receipt that may be published (dpcov_receipt_public): N is
// ReceiptNWithheld under add/remove neighbours and the Bingham proposal counts are 0. A release's
// own receipt is the curator's; publish this one (proofs/public_receipt.md).
func (r Receipt) Public() (Receipt, error) {
	full := receiptToC(r)
	shown := newCReceipt()
	if err := call(func() C.dpcov_status { return C.dpcov_receipt_public(&full, &shown) }); err != nil {
		return Receipt{}, err
	}
	return receiptFromC(&shown), nil
}

// Plan is a dry run: the receipt a release of m would produce for a dim x dim statistic of n rows
// of norm <= bound, without data or randomness, or the error the release would return.
func Plan(m Mechanism, dim, n int64, bound, epsilon, delta float64, params *MechanismParams) (Receipt, error) {
	r := newCReceipt()
	err := call(func() C.dpcov_status {
		return C.dpcov_mechanism_plan(C.int32_t(m), C.int64_t(dim), C.int64_t(n), C.double(bound),
			C.double(epsilon), C.double(delta), params.c(), &r)
	})
	if err != nil {
		return Receipt{}, err
	}
	return receiptFromC(&r), nil
}

// Release applies m to the Gram matrix gram of n rows of norm <= bound. Its numerics are
// idealized (Receipt.Numerics 0): a matrix already rounded cannot be released exactly. Release
// from the rows (ReleaseRows, or NewBoundedGram naming m) for exact numerics.
func Release(m Mechanism, gram Matrix, n int64, bound, epsilon, delta float64,
	params *MechanismParams, rng *RNG) (Matrix, Receipt, error) {
	if err := gram.checkSquare("gram"); err != nil {
		return Matrix{}, Receipt{}, err
	}
	out := NewMatrix(gram.Rows, gram.Cols)
	r := newCReceipt()
	err := call(func() C.dpcov_status {
		return C.dpcov_mechanism_release(C.int32_t(m), rowMajor, C.int64_t(gram.Rows), gram.ptr(),
			gram.ld(), C.int64_t(n), C.double(bound), C.double(epsilon), C.double(delta),
			params.c(), rng.handle(), out.ptr(), out.ld(), &r)
	})
	if err != nil {
		return Matrix{}, Receipt{}, err
	}
	return out, receiptFromC(&r), nil
}

// Release applies m to the accumulated Gram matrix (d, n and B come from g): with exact numerics
// when g was made by NewBoundedGram naming m (GramInfo.Numerics 1).
func (g *Gram) Release(m Mechanism, epsilon, delta float64, params *MechanismParams,
	rng *RNG) (Matrix, Receipt, error) {
	return g.release(func(out Matrix, r *C.dpcov_receipt) C.dpcov_status {
		return C.dpcov_mechanism_release_gram(C.int32_t(m), g.handle(), C.double(epsilon),
			C.double(delta), params.c(), rng.handle(), rowMajor, out.ptr(), out.ld(), r)
	})
}

// release runs a release of g's d x d matrix into a new Matrix and receipt.
func (g *Gram) release(draw func(Matrix, *C.dpcov_receipt) C.dpcov_status) (Matrix, Receipt, error) {
	info, err := g.Info()
	if err != nil {
		return Matrix{}, Receipt{}, err
	}
	out := NewMatrix(int(info.Dim), int(info.Dim))
	r := newCReceipt()
	if err := call(func() C.dpcov_status { return draw(out, &r) }); err != nil {
		return Matrix{}, Receipt{}, err
	}
	return out, receiptFromC(&r), nil
}

// LogDensity is the natural log of the density of released under m given the statistic gram
// (-Inf outside the support).
func LogDensity(m Mechanism, released, gram Matrix, n int64, bound, epsilon, delta float64,
	params *MechanismParams) (float64, error) {
	if err := sameOrder(released, "released", gram, "gram"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_mechanism_log_density(C.int32_t(m), rowMajor, C.int64_t(gram.Rows),
			released.ptr(), released.ld(), gram.ptr(), gram.ld(), C.int64_t(n), C.double(bound),
			C.double(epsilon), C.double(delta), params.c(), &v)
	})
	return float64(v), err
}

// LogDensityTested is the log of the joint density of a propose-test-release output: the released
// test value and matrix.
func LogDensityTested(m Mechanism, released Matrix, testValue float64, gram Matrix, n int64,
	bound, epsilon, delta float64, params *MechanismParams) (float64, error) {
	if err := sameOrder(released, "released", gram, "gram"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_mechanism_log_density_tested(C.int32_t(m), rowMajor, C.int64_t(gram.Rows),
			released.ptr(), released.ld(), C.double(testValue), gram.ptr(), gram.ld(),
			C.int64_t(n), C.double(bound), C.double(epsilon), C.double(delta), params.c(), &v)
	})
	return float64(v), err
}
