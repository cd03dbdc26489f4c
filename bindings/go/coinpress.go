package dpcov

/*
#include "dpcov.h"
*/
import "C"

// CoinPress private covariance estimation (dpcov/coinpress.h; Biswas, Dong, Kamath, Ullman,
// NeurIPS 2020) and the conversion of a zCDP budget to (epsilon, delta).

// CoinpressParams are the settings of a CoinPress release; DefaultCoinpressParams gives the
// library's defaults (rho 0.5, 3 steps, beta 0.1, delta 1e-6) with KBound still to set.
type CoinpressParams struct {
	Rho    float64
	KBound float64 // the public prior I <= Sigma <= KBound I, >= 1
	Steps  int64
	Beta   float64
	Delta  float64
}

// DefaultCoinpressParams returns the library's defaults (dpcov_coinpress_params_default).
func DefaultCoinpressParams() CoinpressParams {
	var p C.dpcov_coinpress_params
	C.dpcov_coinpress_params_default(&p)
	return CoinpressParams{Rho: float64(p.rho), KBound: float64(p.k_bound), Steps: int64(p.steps),
		Beta: float64(p.beta), Delta: float64(p.delta)}
}

func (p CoinpressParams) c() C.dpcov_coinpress_params {
	return C.dpcov_coinpress_params{struct_size: C.size_t(C.sizeof_dpcov_coinpress_params),
		rho: C.double(p.Rho), k_bound: C.double(p.KBound), steps: C.int64_t(p.Steps),
		beta: C.double(p.Beta), delta: C.double(p.Delta)}
}

// CoinpressReceipt is what a CoinPress release spent and every constant it used.
type CoinpressReceipt struct {
	Dim, N, Steps                      int64
	Rho, KBound, Beta, ClipRadius, Eta float64
	Epsilon, Delta                     float64
	StepRho, StepSigma                 []float64
	SeedFixed                          bool
}

func coinpressReceiptFromC(r *C.dpcov_coinpress_receipt) CoinpressReceipt {
	out := CoinpressReceipt{Dim: int64(r.dim), N: int64(r.n), Steps: int64(r.steps),
		Rho: float64(r.rho), KBound: float64(r.k_bound), Beta: float64(r.beta),
		ClipRadius: float64(r.clip_radius), Eta: float64(r.eta), Epsilon: float64(r.epsilon),
		Delta: float64(r.delta), SeedFixed: r.seed_fixed != 0}
	for i := int64(0); i < out.Steps; i++ {
		out.StepRho = append(out.StepRho, float64(r.step_rho[i]))
		out.StepSigma = append(out.StepSigma, float64(r.step_sigma[i]))
	}
	return out
}

// CoinpressPlan is the receipt of a CoinPress release of n rows in dimension dim, without data.
func CoinpressPlan(n, dim int64, params CoinpressParams) (CoinpressReceipt, error) {
	p := params.c()
	r := C.dpcov_coinpress_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_plan(C.int64_t(n), C.int64_t(dim), &p, &r)
	})
	if err != nil {
		return CoinpressReceipt{}, err
	}
	return coinpressReceiptFromC(&r), nil
}

// CoinpressRelease is the rho-zCDP CoinPress estimate of the covariance of the zero-mean rows.
func CoinpressRelease(rows Matrix, params CoinpressParams, rng *RNG) (Matrix, CoinpressReceipt, error) {
	if err := rows.check("rows"); err != nil {
		return Matrix{}, CoinpressReceipt{}, err
	}
	out := NewMatrix(rows.Cols, rows.Cols)
	p := params.c()
	r := C.dpcov_coinpress_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_release(rowMajor, C.int64_t(rows.Rows), C.int64_t(rows.Cols),
			rows.ptr(), rows.ld(), &p, rng.handle(), out.ptr(), out.ld(), &r)
	})
	if err != nil {
		return Matrix{}, CoinpressReceipt{}, err
	}
	return out, coinpressReceiptFromC(&r), nil
}

// ZcdpEpsilon is the epsilon at which rho-zCDP implies (epsilon, delta)-DP (Canonne, Kamath,
// Steinke 2020, Prop. 12).
func ZcdpEpsilon(rho, delta float64) (float64, error) {
	var out C.double
	err := call(func() C.dpcov_status { return C.dpcov_zcdp_epsilon(C.double(rho), C.double(delta), &out) })
	return float64(out), err
}

// ZcdpRho is the largest rho whose ZcdpEpsilon at delta is at most epsilon.
func ZcdpRho(epsilon, delta float64) (float64, error) {
	var out C.double
	err := call(func() C.dpcov_status { return C.dpcov_zcdp_rho(C.double(epsilon), C.double(delta), &out) })
	return float64(out), err
}
