package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// The zCDP covariance mechanisms of Dong, Liang & Yi (dpcov/dong_liang_yi.h; NeurIPS 2022).

// DlyVariant selects Gauss, Separate or Adaptive.
type DlyVariant int32

const (
	DlyGauss    DlyVariant = C.DPCOV_DLY_GAUSS
	DlySeparate DlyVariant = C.DPCOV_DLY_SEPARATE
	DlyAdaptive DlyVariant = C.DPCOV_DLY_ADAPTIVE
	// DlyAdaptivePaper is Adaptive with the paper's budget split and branch rule.
	DlyAdaptivePaper DlyVariant = C.DPCOV_DLY_ADAPTIVE_PAPER
)

// DlyParams are the settings of a release; DefaultDlyParams gives the library's defaults.
type DlyParams struct {
	Variant                  DlyVariant
	Rho, Radius, Beta, Delta float64
}

// DefaultDlyParams returns the library's defaults (dpcov_dly_params_default).
func DefaultDlyParams() DlyParams {
	var p C.dpcov_dly_params
	C.dpcov_dly_params_init(&p, C.size_t(unsafe.Sizeof(p)))
	return DlyParams{Variant: DlyVariant(p.variant), Rho: float64(p.rho),
		Radius: float64(p.radius), Beta: float64(p.beta), Delta: float64(p.delta)}
}

func (p DlyParams) c() C.dpcov_dly_params {
	return C.dpcov_dly_params{struct_size: C.size_t(C.sizeof_dpcov_dly_params),
		variant: C.int32_t(p.Variant), rho: C.double(p.Rho), radius: C.double(p.Radius),
		beta: C.double(p.Beta), delta: C.double(p.Delta)}
}

// DlyReceipt is what a release spent and every constant it used; in a plan, Branch is -1 and the
// sigmas 0 for the adaptive variants (Gauss and Separate state their own).
// Its prefix's Bound is r, the public bound on row norms.
type DlyReceipt struct {
	ReceiptPrefix
	Variant, Branch                           int32
	Dim, SvtQueries                           int64
	Beta                                      float64
	RhoCovariance, TraceSigma, SvtEpsilon     float64
	ClipRadius, SigmaMatrix, SigmaEigenvalues float64
	HistogramSigma, FirstLookSigma            float64
	// FirstLookSettled: Adaptive release, 1 if the first look settled the radius at r, else 0;
	// -1 in a plan and for the other variants.
	FirstLookSettled int32
}

func dlyReceiptFromC(r *C.dpcov_dly_receipt) DlyReceipt {
	return DlyReceipt{ReceiptPrefix: prefixFromC(unsafe.Pointer(r)),
		Variant: int32(r.variant), Branch: int32(r.branch), Dim: int64(r.dim),
		SvtQueries: int64(r.svt_queries), Beta: float64(r.beta),
		RhoCovariance: float64(r.rho_covariance),
		TraceSigma:    float64(r.trace_sigma), SvtEpsilon: float64(r.svt_epsilon),
		ClipRadius: float64(r.clip_radius), SigmaMatrix: float64(r.sigma_matrix),
		SigmaEigenvalues: float64(r.sigma_eigenvalues),
		HistogramSigma:   float64(r.histogram_sigma), FirstLookSigma: float64(r.first_look_sigma),
		FirstLookSettled: int32(r.first_look_settled)}
}

// DlyPlan is the data-independent receipt of a release of n rows in dimension dim.
func DlyPlan(n, dim int64, params DlyParams) (DlyReceipt, error) {
	p := params.c()
	r := C.dpcov_dly_receipt{struct_size: C.size_t(C.sizeof_dpcov_dly_receipt)}
	err := call(func() C.dpcov_status { return C.dpcov_dly_plan(C.int64_t(n), C.int64_t(dim), &p, &r) })
	if err != nil {
		return DlyReceipt{}, err
	}
	return dlyReceiptFromC(&r), nil
}

// DlyRelease is the rho-zCDP estimate of X^T X / n for rows of norm <= params.Radius.
func DlyRelease(rows Matrix, params DlyParams, rng *RNG) (Matrix, DlyReceipt, error) {
	if err := rows.check("rows"); err != nil {
		return Matrix{}, DlyReceipt{}, err
	}
	out := NewMatrix(rows.Cols, rows.Cols)
	p := params.c()
	r := C.dpcov_dly_receipt{struct_size: C.size_t(C.sizeof_dpcov_dly_receipt)}
	err := call(func() C.dpcov_status {
		return C.dpcov_dly_release(rowMajor, C.int64_t(rows.Rows), C.int64_t(rows.Cols),
			rows.ptr(), rows.ld(), &p, rng.handle(), out.ptr(), out.ld(), &r)
	})
	if err != nil {
		return Matrix{}, DlyReceipt{}, err
	}
	return out, dlyReceiptFromC(&r), nil
}
