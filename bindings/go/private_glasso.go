package dpcov

/*
#include "dpcov.h"
*/
import "C"

// Private sparse inverse covariance estimation (dpcov/private_glasso.h): a mechanism followed by
// the graphical lasso on the released covariance G / n (Wang, Huai, Xu, GlobalSIP 2018, Alg. 2),
// or Wishart noise on the graphical-lasso solution (Alg. 1, GlassoOutputWishart: NOT private, an
// audit target only).

// PrivateGlassoPlan is the receipt PrivateGlassoRelease would produce, without data or randomness.
func PrivateGlassoPlan(m Mechanism, dim, n int64, bound, epsilon, delta float64,
	params *MechanismParams, rho float64) (Receipt, error) {
	r := newCReceipt()
	err := call(func() C.dpcov_status {
		return C.dpcov_private_glasso_plan(C.int32_t(m), C.int64_t(dim), C.int64_t(n),
			C.double(bound), C.double(epsilon), C.double(delta), params.c(), C.double(rho), &r)
	})
	if err != nil {
		return Receipt{}, err
	}
	return receiptFromC(&r), nil
}

// PrivateGlasso is a private precision estimate, its receipt and, for covariance perturbation,
// the convergence of the solve on the released covariance.
type PrivateGlasso struct {
	Precision   Matrix
	Receipt     Receipt
	Iterations  int64
	KKTResidual float64
	DualityGap  float64
	Start       int32
}

// PrivateGlassoRelease is the private precision estimate for the Gram matrix gram of n rows of
// norm <= bound with the public penalty rho. glassoParams may be nil (and must be nil for
// GlassoOutputWishart, whose solve-convergence information is not private and is not returned).
func PrivateGlassoRelease(m Mechanism, gram Matrix, n int64, bound, epsilon, delta float64,
	params *MechanismParams, rho float64, glassoParams *GlassoParams, rng *RNG) (PrivateGlasso, error) {
	if err := gram.checkSquare("gram"); err != nil {
		return PrivateGlasso{}, err
	}
	out := PrivateGlasso{Precision: NewMatrix(gram.Rows, gram.Cols)}
	r := newCReceipt()
	info := &C.dpcov_glasso_info{struct_size: C.size_t(C.sizeof_dpcov_glasso_info)}
	if m == GlassoOutputWishart {
		info = nil
	}
	err := call(func() C.dpcov_status {
		return C.dpcov_private_glasso_release(C.int32_t(m), rowMajor, C.int64_t(gram.Rows),
			gram.ptr(), gram.ld(), C.int64_t(n), C.double(bound), C.double(epsilon),
			C.double(delta), params.c(), C.double(rho), glassoParams.c(), rng.handle(),
			out.Precision.ptr(), out.Precision.ld(), &r, info)
	})
	if err != nil {
		return PrivateGlasso{}, err
	}
	out.Receipt = receiptFromC(&r)
	if info != nil {
		out.Iterations, out.KKTResidual = int64(info.iterations), float64(info.kkt_residual)
		out.DualityGap, out.Start = float64(info.duality_gap), int32(info.start)
	}
	return out, nil
}

// PrivateGlassoCovariance is the release of covariance perturbation before its solve: S~, the
// positive semidefinite projection of the noisy gram / n, and its receipt. GlassoSolve(S~, rho, ...)
// gives PrivateGlassoRelease's estimate and is post-processing: keep S~ to solve again (other
// settings, a solve that did not converge) at no privacy cost.
func PrivateGlassoCovariance(m Mechanism, gram Matrix, n int64, bound, epsilon, delta float64,
	params *MechanismParams, rng *RNG) (Matrix, Receipt, error) {
	if err := gram.checkSquare("gram"); err != nil {
		return Matrix{}, Receipt{}, err
	}
	out := NewMatrix(gram.Rows, gram.Cols)
	r := newCReceipt()
	err := call(func() C.dpcov_status {
		return C.dpcov_private_glasso_covariance(C.int32_t(m), rowMajor, C.int64_t(gram.Rows),
			gram.ptr(), gram.ld(), C.int64_t(n), C.double(bound), C.double(epsilon),
			C.double(delta), params.c(), rng.handle(), out.ptr(), out.ld(), &r)
	})
	if err != nil {
		return Matrix{}, Receipt{}, err
	}
	return out, receiptFromC(&r), nil
}

// PrivateGlassoLogDensity is the log density of a GlassoOutputWishart release given the statistic
// (-Inf outside the support).
func PrivateGlassoLogDensity(m Mechanism, released, gram Matrix, n int64, bound, epsilon,
	delta float64, params *MechanismParams, rho float64) (float64, error) {
	if err := sameOrder(released, "released", gram, "gram"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_private_glasso_log_density(C.int32_t(m), rowMajor, C.int64_t(gram.Rows),
			released.ptr(), released.ld(), gram.ptr(), gram.ld(), C.int64_t(n), C.double(bound),
			C.double(epsilon), C.double(delta), params.c(), C.double(rho), &v)
	})
	return float64(v), err
}
