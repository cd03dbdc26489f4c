package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// CoinPress private covariance and mean estimation (dpcov/coinpress.h; Biswas, Dong, Kamath, Ullman,
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
	C.dpcov_coinpress_params_init(&p, C.size_t(unsafe.Sizeof(p)))
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
	ReceiptPrefix
	Dim, Steps                    int64
	KBound, Beta, ClipRadius, Eta float64
	StepRho, StepSigma            []float64
}

func coinpressReceiptFromC(r *C.dpcov_coinpress_receipt) CoinpressReceipt {
	out := CoinpressReceipt{ReceiptPrefix: prefixFromC(unsafe.Pointer(r)),
		Dim: int64(r.dim), Steps: int64(r.steps), KBound: float64(r.k_bound),
		Beta: float64(r.beta), ClipRadius: float64(r.clip_radius), Eta: float64(r.eta)}
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

// CoinpressMeanParams are the settings of a CoinPress mean release; DefaultCoinpressMeanParams
// gives the library's defaults (rho 0.5, scale 1, 3 steps, beta 0.01, delta 1e-6) with Radius
// still to set.
type CoinpressMeanParams struct {
	Rho    float64
	Radius float64 // the public prior ||mu - centre|| <= Radius, >= 0
	Scale  float64 // the public prior Cov <= Scale^2 I, > 0
	Steps  int64
	Beta   float64
	Delta  float64
}

// DefaultCoinpressMeanParams returns the library's defaults (dpcov_coinpress_mean_params_default).
func DefaultCoinpressMeanParams() CoinpressMeanParams {
	var p C.dpcov_coinpress_mean_params
	C.dpcov_coinpress_mean_params_init(&p, C.size_t(unsafe.Sizeof(p)))
	return CoinpressMeanParams{Rho: float64(p.rho), Radius: float64(p.radius),
		Scale: float64(p.scale), Steps: int64(p.steps), Beta: float64(p.beta),
		Delta: float64(p.delta)}
}

func (p CoinpressMeanParams) c() C.dpcov_coinpress_mean_params {
	return C.dpcov_coinpress_mean_params{struct_size: C.size_t(C.sizeof_dpcov_coinpress_mean_params),
		rho: C.double(p.Rho), radius: C.double(p.Radius), scale: C.double(p.Scale),
		steps: C.int64_t(p.Steps), beta: C.double(p.Beta), delta: C.double(p.Delta)}
}

// CoinpressMeanReceipt is what a CoinPress mean release spent and every constant it used.
type CoinpressMeanReceipt struct {
	ReceiptPrefix
	Dim, Steps                         int64
	Radius, Scale, Beta, TailRadius    float64
	StepRho, StepClipRadius, StepSigma []float64
}

func coinpressMeanReceiptFromC(r *C.dpcov_coinpress_mean_receipt) CoinpressMeanReceipt {
	out := CoinpressMeanReceipt{ReceiptPrefix: prefixFromC(unsafe.Pointer(r)),
		Dim: int64(r.dim), Steps: int64(r.steps), Radius: float64(r.radius),
		Scale: float64(r.scale), Beta: float64(r.beta), TailRadius: float64(r.tail_radius)}
	for i := int64(0); i < out.Steps; i++ {
		out.StepRho = append(out.StepRho, float64(r.step_rho[i]))
		out.StepClipRadius = append(out.StepClipRadius, float64(r.step_clip_radius[i]))
		out.StepSigma = append(out.StepSigma, float64(r.step_sigma[i]))
	}
	return out
}

// CoinpressMeanPlan is the receipt of a CoinPress mean release of n rows in dimension dim,
// without data.
func CoinpressMeanPlan(n, dim int64, params CoinpressMeanParams) (CoinpressMeanReceipt, error) {
	p := params.c()
	r := C.dpcov_coinpress_mean_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_mean_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_mean_plan(C.int64_t(n), C.int64_t(dim), &p, &r)
	})
	if err != nil {
		return CoinpressMeanReceipt{}, err
	}
	return coinpressMeanReceiptFromC(&r), nil
}

// CoinpressMeanRelease is the rho-zCDP CoinPress estimate of the mean of the rows, from the
// public starting centre (nil: the origin).
func CoinpressMeanRelease(rows Matrix, centre []float64, params CoinpressMeanParams, rng *RNG) ([]float64, CoinpressMeanReceipt, error) {
	if err := rows.check("rows"); err != nil {
		return nil, CoinpressMeanReceipt{}, err
	}
	if centre != nil && len(centre) != rows.Cols {
		return nil, CoinpressMeanReceipt{}, argError(ErrDimension,
			"centre: %d values, but the rows have %d columns", len(centre), rows.Cols)
	}
	mean := make([]float64, rows.Cols)
	p := params.c()
	r := C.dpcov_coinpress_mean_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_mean_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_mean_release(rowMajor, C.int64_t(rows.Rows), C.int64_t(rows.Cols),
			rows.ptr(), rows.ld(), doubles(centre), &p, rng.handle(), doubles(mean), &r)
	})
	if err != nil {
		return nil, CoinpressMeanReceipt{}, err
	}
	return mean, coinpressMeanReceiptFromC(&r), nil
}

// CoinpressCentringSplit splits rho between a CoinPress mean and the CoinPress covariance of the
// rows centred on it (rho / 8 and 7 rho / 8, rounded down; dpcov_coinpress_centring_split).
func CoinpressCentringSplit(rho float64) (rhoMean, rhoCovariance float64, err error) {
	var m, c C.double
	err = call(func() C.dpcov_status { return C.dpcov_coinpress_centring_split(C.double(rho), &m, &c) })
	return float64(m), float64(c), err
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
