package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// Privacy auditor (dpcov/audit.h): estimates the privacy loss of a mechanism on a neighbouring
// pair from its own draws. It can only find violations; "no violation found" is not a proof.

// Kinds of generated datasets and neighbours, findings and verdicts of dpcov/audit.h.
const (
	AuditDataRandomRows            = C.DPCOV_AUDIT_DATA_RANDOM_ROWS
	AuditDataSphereRows            = C.DPCOV_AUDIT_DATA_SPHERE_ROWS
	AuditDataRepeatedRows          = C.DPCOV_AUDIT_DATA_REPEATED_ROWS
	AuditDataRankDeficient         = C.DPCOV_AUDIT_DATA_RANK_DEFICIENT
	AuditDataNearlySingular        = C.DPCOV_AUDIT_DATA_NEARLY_SINGULAR
	AuditDataTinyN                 = C.DPCOV_AUDIT_DATA_TINY_N
	AuditNeighbourRandom           = C.DPCOV_AUDIT_NEIGHBOUR_RANDOM
	AuditNeighbourMaxL2Change      = C.DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE
	AuditNeighbourMaxL1Change      = C.DPCOV_AUDIT_NEIGHBOUR_MAX_L1_CHANGE
	AuditNeighbourLeastEigenvector = C.DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR
	AuditFindingLossAboveEpsilon   = C.DPCOV_AUDIT_FINDING_LOSS_ABOVE_EPSILON
	AuditFindingDeltaExceeded      = C.DPCOV_AUDIT_FINDING_DELTA_EXCEEDED
	AuditFindingGaussianProfile    = C.DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED
	AuditFindingSamplerMismatch    = C.DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH
	AuditFindingRhoExceeded        = C.DPCOV_AUDIT_FINDING_RHO_EXCEEDED
	AuditNoViolationFound          = C.DPCOV_AUDIT_NO_VIOLATION_FOUND
	AuditViolation                 = C.DPCOV_AUDIT_VIOLATION
	AuditNoiseNone                 = C.DPCOV_AUDIT_NOISE_NONE
	AuditNoiseGaussian             = C.DPCOV_AUDIT_NOISE_GAUSSIAN
	AuditNoiseLaplace              = C.DPCOV_AUDIT_NOISE_LAPLACE
	AuditNoiseWishart              = C.DPCOV_AUDIT_NOISE_WISHART
	AuditNoiseClaimedLaw           = C.DPCOV_AUDIT_NOISE_CLAIMED_LAW
)

// AuditParams are the settings of an audit; start from DefaultAuditParams.
type AuditParams struct {
	Trials          int64
	FirstCheckpoint int64
	Alpha           float64
	Seed            uint64
	Dataset         int32
	NeighbourKind   int32
}

// DefaultAuditParams: 2000 trials, first look at 100, alpha 1e-6, seed 0, random rows and
// neighbour.
func DefaultAuditParams() AuditParams {
	var c C.dpcov_audit_params
	C.dpcov_audit_params_init(&c, C.size_t(unsafe.Sizeof(c)))
	return AuditParams{Trials: int64(c.trials), FirstCheckpoint: int64(c.first_checkpoint),
		Alpha: float64(c.alpha), Seed: uint64(c.seed), Dataset: int32(c.dataset),
		NeighbourKind: int32(c.neighbour_kind)}
}

func (p *AuditParams) c() *C.dpcov_audit_params {
	if p == nil {
		return nil
	}
	c := &C.dpcov_audit_params{}
	C.dpcov_audit_params_init(c, C.size_t(unsafe.Sizeof(*c)))
	c.trials = C.int64_t(p.Trials)
	c.first_checkpoint = C.int64_t(p.FirstCheckpoint)
	c.alpha = C.double(p.Alpha)
	c.seed = C.uint64_t(p.Seed)
	c.dataset = C.int32_t(p.Dataset)
	c.neighbour_kind = C.int32_t(p.NeighbourKind)
	return c
}

// AuditResult is what an audit found (dpcov_audit_result documents each field).
type AuditResult struct {
	Verdict              int32
	Findings             int32
	Noise                int32
	WorstDirection       int32
	Samples              int64
	InfiniteLosses       int64
	Exceedances          int64
	Epsilon              float64
	Delta                float64
	MaxLoss              float64
	ExceedEstimate       float64
	ExceedLower          float64
	ExceedUpper          float64
	DeltaEstimate        float64
	DeltaLower           float64
	DeltaUpper           float64
	PairDistance         float64
	GaussianSigmaUpper   float64
	GaussianDeltaLower   float64
	ConformanceDistance  float64
	ConformanceThreshold float64
	AlphaPerTest         float64
	DetectableDelta      float64
}

func auditResultFromC(c *C.dpcov_audit_result) AuditResult {
	return AuditResult{Verdict: int32(c.verdict), Findings: int32(c.findings),
		Noise: int32(c.noise), WorstDirection: int32(c.worst_direction), Samples: int64(c.samples),
		InfiniteLosses: int64(c.infinite_losses), Exceedances: int64(c.exceedances),
		Epsilon: float64(c.epsilon), Delta: float64(c.delta), MaxLoss: float64(c.max_loss),
		ExceedEstimate: float64(c.exceed_estimate), ExceedLower: float64(c.exceed_lower),
		ExceedUpper: float64(c.exceed_upper), DeltaEstimate: float64(c.delta_estimate),
		DeltaLower: float64(c.delta_lower), DeltaUpper: float64(c.delta_upper),
		PairDistance: float64(c.pair_distance), GaussianSigmaUpper: float64(c.gaussian_sigma_upper),
		GaussianDeltaLower:   float64(c.gaussian_delta_lower),
		ConformanceDistance:  float64(c.conformance_distance),
		ConformanceThreshold: float64(c.conformance_threshold),
		AlphaPerTest:         float64(c.alpha_per_test),
		DetectableDelta:      float64(c.detectable_delta)}
}

// AuditRun audits m at its claimed (epsilon, delta) on a generated neighbouring pair of n rows in
// dimension dim.
func AuditRun(m Mechanism, dim, n int64, bound, epsilon, delta float64,
	mparams *MechanismParams, params *AuditParams) (AuditResult, error) {
	res := C.dpcov_audit_result{struct_size: C.size_t(C.sizeof_dpcov_audit_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_run(C.int32_t(m), C.int64_t(dim), C.int64_t(n), C.double(bound),
			C.double(epsilon), C.double(delta), mparams.c(), params.c(), &res)
	})
	if err != nil {
		return AuditResult{}, err
	}
	return auditResultFromC(&res), nil
}

// AuditRunPair audits m on the caller's neighbouring pair rows, rowsPrime (same columns).
func AuditRunPair(m Mechanism, rows, rowsPrime Matrix, bound, epsilon, delta float64,
	mparams *MechanismParams, params *AuditParams) (AuditResult, error) {
	if err := rows.check("rows"); err != nil {
		return AuditResult{}, err
	}
	if err := rowsPrime.check("rowsPrime"); err != nil {
		return AuditResult{}, err
	}
	if rows.Cols != rowsPrime.Cols {
		return AuditResult{}, argError(ErrDimension, "rows have %d columns, rowsPrime %d", rows.Cols, rowsPrime.Cols)
	}
	res := C.dpcov_audit_result{struct_size: C.size_t(C.sizeof_dpcov_audit_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_run_pair(C.int32_t(m), rowMajor, C.int64_t(rows.Cols), rows.ptr(),
			C.int64_t(rows.Rows), rows.ld(), rowsPrime.ptr(), C.int64_t(rowsPrime.Rows),
			rowsPrime.ld(), C.double(bound), C.double(epsilon), C.double(delta), mparams.c(),
			params.c(), &res)
	})
	if err != nil {
		return AuditResult{}, err
	}
	return auditResultFromC(&res), nil
}

// AuditStandardRows is the n at which the standard audit runs m for these public parameters
// (dpcov_audit_standard_rows): the auditor's own n where m's behaviour changes with n (a private
// test with a threshold), fallback otherwise.
func AuditStandardRows(m Mechanism, dim int64, bound, epsilon, delta float64,
	mparams *MechanismParams, fallback int64) (int64, error) {
	var rows C.int64_t
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_standard_rows(C.int32_t(m), C.int64_t(dim), C.double(bound),
			C.double(epsilon), C.double(delta), mparams.c(), C.int64_t(fallback), &rows)
	})
	if err != nil {
		return 0, err
	}
	return int64(rows), nil
}

// AuditUnits audits m at the level of privacy units: the release from an accumulator of units of
// at most maxRowsPerUnit rows against the unit-level (epsilon, delta), on a pair that differs by
// one unit of that many rows; broken audits the planted variant that bounds rows but not units.
func AuditUnits(m Mechanism, dim, maxRowsPerUnit int64, bound, epsilon, delta float64, broken bool,
	mparams *MechanismParams, params *AuditParams) (AuditResult, error) {
	b := C.int32_t(0)
	if broken {
		b = 1
	}
	res := C.dpcov_audit_result{struct_size: C.size_t(C.sizeof_dpcov_audit_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_units(C.int32_t(m), C.int64_t(dim), C.int64_t(maxRowsPerUnit),
			C.double(bound), C.double(epsilon), C.double(delta), b, mparams.c(), params.c(), &res)
	})
	if err != nil {
		return AuditResult{}, err
	}
	return auditResultFromC(&res), nil
}

// The zCDP mechanisms on the rows that AuditRowsBlackBox audits, and its statistics.
const (
	AuditRowsDLYGauss                = C.DPCOV_AUDIT_ROWS_DLY_GAUSS
	AuditRowsDLYSeparate             = C.DPCOV_AUDIT_ROWS_DLY_SEPARATE
	AuditRowsDLYAdaptive             = C.DPCOV_AUDIT_ROWS_DLY_ADAPTIVE
	AuditRowsDLYAdaptivePaper        = C.DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER
	AuditRowsCoinPress               = C.DPCOV_AUDIT_ROWS_COINPRESS
	AuditRowsCoinPressMean           = C.DPCOV_AUDIT_ROWS_COINPRESS_MEAN // AuditRowsUnits only
	BlackBoxTopEigenvalue            = C.DPCOV_BLACK_BOX_TOP_EIGENVALUE
	BlackBoxTopEigenvectorAlignment  = C.DPCOV_BLACK_BOX_TOP_EIGENVECTOR_ALIGNMENT
	BlackBoxLeastEigenvalueAbovePair = C.DPCOV_BLACK_BOX_LEAST_EIGENVALUE_ABOVE_PAIR
)

// BlackBoxResult is what a black-box audit found (dpcov_black_box_result documents each field).
type BlackBoxResult struct {
	Verdict         int32
	Epsilon         float64
	Delta           float64
	Samples         int64
	DeltaLower      float64
	AlphaPerBound   float64
	DetectableDelta float64
}

// AuditRowsBlackBox audits a zCDP mechanism on the rows (an AuditRows* value) black-box at the
// (epsilon, delta) that rho implies: scale is the row bound r (Dong-Liang-Yi) or K (CoinPress),
// statistic a BlackBox* value, trials the releases per dataset (>= 10).
func AuditRowsBlackBox(mechanism int32, dim, n int64, rho, delta, scale float64, statistic int32,
	trials int64, alpha float64, seed uint64) (BlackBoxResult, error) {
	res := C.dpcov_black_box_result{struct_size: C.size_t(C.sizeof_dpcov_black_box_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_rows_black_box(C.int32_t(mechanism), C.int64_t(dim), C.int64_t(n),
			C.double(rho), C.double(delta), C.double(scale), C.int32_t(statistic),
			C.int64_t(trials), C.double(alpha), C.uint64_t(seed), &res)
	})
	if err != nil {
		return BlackBoxResult{}, err
	}
	return BlackBoxResult{Verdict: int32(res.verdict), Epsilon: float64(res.epsilon),
		Delta: float64(res.delta), Samples: int64(res.samples),
		DeltaLower: float64(res.delta_lower), AlphaPerBound: float64(res.alpha_per_bound),
		DetectableDelta: float64(res.detectable_delta)}, nil
}

// CoinpressMeanAuditResult is what AuditCoinpressMean found (dpcov_coinpress_mean_audit_result
// documents each field).
type CoinpressMeanAuditResult struct {
	Verdict              int32
	Findings             int32
	Samples              int64
	Rho                  float64
	Epsilon              float64
	Delta                float64
	RhoLower             float64
	DeltaEstimate        float64
	DeltaLower           float64
	ConformanceDistance  float64
	ConformanceThreshold float64
	AlphaPerTest         float64
	DetectableDelta      float64
}

// AuditCoinpressMean audits CoinPress mean estimation with the exact density of its whole t-step
// release on the worst pair of n rows in dimension dim, trials releases per direction.
func AuditCoinpressMean(dim, n int64, params CoinpressMeanParams, trials int64, alpha float64,
	seed uint64) (CoinpressMeanAuditResult, error) {
	cp := params.c()
	res := C.dpcov_coinpress_mean_audit_result{
		struct_size: C.size_t(C.sizeof_dpcov_coinpress_mean_audit_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_coinpress_mean(C.int64_t(dim), C.int64_t(n), &cp, C.int64_t(trials),
			C.double(alpha), C.uint64_t(seed), &res)
	})
	if err != nil {
		return CoinpressMeanAuditResult{}, err
	}
	return CoinpressMeanAuditResult{Verdict: int32(res.verdict), Findings: int32(res.findings),
		Samples: int64(res.samples), Rho: float64(res.rho), Epsilon: float64(res.epsilon),
		Delta: float64(res.delta), RhoLower: float64(res.rho_lower),
		DeltaEstimate: float64(res.delta_estimate), DeltaLower: float64(res.delta_lower),
		ConformanceDistance:  float64(res.conformance_distance),
		ConformanceThreshold: float64(res.conformance_threshold),
		AlphaPerTest:         float64(res.alpha_per_test),
		DetectableDelta:      float64(res.detectable_delta)}, nil
}

// RowsExactAuditResult is what AuditRowsExact found (dpcov_rows_exact_audit_result documents each
// field).
type RowsExactAuditResult struct {
	Verdict              int32
	Findings             int32
	Samples              int64
	N                    int64
	Rho                  float64
	Epsilon              float64
	Delta                float64
	Sigma                float64
	RhoLower             float64
	DeltaEstimate        float64
	DeltaLower           float64
	GaussianDeltaLower   float64
	ConformanceDistance  float64
	ConformanceThreshold float64
	ClampHits            int64
	AlphaPerTest         float64
	DetectableDelta      float64
}

// AuditRowsExact audits dly_gauss, dly_separate (its eigenvalue step) or coinpress with steps = 1
// (AuditRows* constants) with the exact density of its Gaussian release on the worst pair, and
// coinpress with steps >= 2 with the exact density of every step given the earlier ones, trials
// releases per direction; dly_adaptive and dly_adaptive_paper return ErrPrecondition (audit them
// with AuditRowsBlackBox).
func AuditRowsExact(mechanism int32, steps int64, rho, delta float64, trials int64, alpha float64,
	seed uint64) (RowsExactAuditResult, error) {
	res := C.dpcov_rows_exact_audit_result{
		struct_size: C.size_t(C.sizeof_dpcov_rows_exact_audit_result)}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_rows_exact(C.int32_t(mechanism), C.int64_t(steps), C.double(rho),
			C.double(delta), C.int64_t(trials), C.double(alpha), C.uint64_t(seed), &res)
	})
	if err != nil {
		return RowsExactAuditResult{}, err
	}
	return rowsExactResult(&res), nil
}

// AuditRowsExactPairs is AuditRowsExact on pairs neighbouring pairs: the axis pair and pairs - 1
// rotations of it drawn from seed, each at alpha / pairs. It returns the worst pair's result
// (Samples over every pair) and that pair's index, 0 for the axis pair.
func AuditRowsExactPairs(mechanism int32, steps int64, rho, delta float64, trials int64,
	alpha float64, seed uint64, pairs int64) (RowsExactAuditResult, int64, error) {
	res := C.dpcov_rows_exact_audit_result{
		struct_size: C.size_t(C.sizeof_dpcov_rows_exact_audit_result)}
	var worst C.int64_t
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_rows_exact_pairs(C.int32_t(mechanism), C.int64_t(steps),
			C.double(rho), C.double(delta), C.int64_t(trials), C.double(alpha), C.uint64_t(seed),
			C.int64_t(pairs), &res, &worst)
	})
	if err != nil {
		return RowsExactAuditResult{}, 0, err
	}
	return rowsExactResult(&res), int64(worst), nil
}

// AuditRowsUnits audits a zCDP mechanism on the rows (AuditRows* constants, AuditRowsCoinPressMean
// included) at the level of privacy units: units of exactly maxRowsPerUnit = k rows released at
// rho / k^2, on a pair whose first unit has its k rows all replaced, against the unit-level claim
// rho; exact density where the row-level audit has one, black-box for the Adaptive variants.
// broken audits the planted variant that releases the units at rho itself.
func AuditRowsUnits(mechanism int32, steps, maxRowsPerUnit int64, rho, delta float64, broken bool,
	trials int64, alpha float64, seed uint64) (RowsExactAuditResult, error) {
	res := C.dpcov_rows_exact_audit_result{
		struct_size: C.size_t(C.sizeof_dpcov_rows_exact_audit_result)}
	b := C.int32_t(0)
	if broken {
		b = 1
	}
	err := call(func() C.dpcov_status {
		return C.dpcov_audit_rows_units(C.int32_t(mechanism), C.int64_t(steps),
			C.int64_t(maxRowsPerUnit), C.double(rho), C.double(delta), b, C.int64_t(trials),
			C.double(alpha), C.uint64_t(seed), &res)
	})
	if err != nil {
		return RowsExactAuditResult{}, err
	}
	return rowsExactResult(&res), nil
}

// rowsExactResult copies the C result.
func rowsExactResult(res *C.dpcov_rows_exact_audit_result) RowsExactAuditResult {
	return RowsExactAuditResult{Verdict: int32(res.verdict), Findings: int32(res.findings),
		Samples: int64(res.samples), N: int64(res.n), Rho: float64(res.rho),
		Epsilon: float64(res.epsilon), Delta: float64(res.delta), Sigma: float64(res.sigma),
		RhoLower: float64(res.rho_lower), DeltaEstimate: float64(res.delta_estimate),
		DeltaLower: float64(res.delta_lower), GaussianDeltaLower: float64(res.gaussian_delta_lower),
		ConformanceDistance:  float64(res.conformance_distance),
		ConformanceThreshold: float64(res.conformance_threshold),
		ClampHits:            int64(res.clamp_hits), AlphaPerTest: float64(res.alpha_per_test),
		DetectableDelta: float64(res.detectable_delta)}
}
