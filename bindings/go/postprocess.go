package dpcov

/*
#include "dpcov.h"
*/
import "C"

// Post-processing of released matrices (dpcov/postprocess.h). Each function works IN PLACE on the
// square, exactly symmetric matrix a and costs no privacy; on error a is unchanged.

// PSDProject replaces a by the nearest positive semidefinite matrix in Frobenius norm.
func PSDProject(a Matrix) error {
	if err := a.checkSquare("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_postprocess_psd_project(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld())
	})
}

// EigenvaluesClip clamps the eigenvalues of a to [lower, upper].
func EigenvaluesClip(a Matrix, lower, upper float64) error {
	if err := a.checkSquare("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_postprocess_eigenvalues_clip(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(),
			C.double(lower), C.double(upper))
	})
}

// AnalyzeGaussShift adds c I to a if a is not positive definite (Sheffet's scaled Analyze Gauss)
// and returns c (0 if a was left unchanged).
func AnalyzeGaussShift(a Matrix, sigma, nu float64) (float64, error) {
	if err := a.checkSquare("a"); err != nil {
		return 0, err
	}
	var shift C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_postprocess_analyze_gauss_shift(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(),
			C.double(sigma), C.double(nu), &shift)
	})
	return float64(shift), err
}

// WishartMeanSubtract subtracts dof * scale * I, the mean of the additive Wishart noise.
func WishartMeanSubtract(a Matrix, dof, scale float64) error {
	if err := a.checkSquare("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_postprocess_wishart_mean_subtract(rowMajor, C.int64_t(a.Rows), a.ptr(),
			a.ld(), C.double(dof), C.double(scale))
	})
}

// WishartShift applies Sheffet's shift rule to an additive Wishart release and returns the
// multiple of I subtracted.
func WishartShift(a Matrix, dof, scale, nu float64) (float64, error) {
	if err := a.checkSquare("a"); err != nil {
		return 0, err
	}
	var shift C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_postprocess_wishart_shift(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(),
			C.double(dof), C.double(scale), C.double(nu), &shift)
	})
	return float64(shift), err
}

// ConstantRescale reads a release of rows whose constant column `column` held `held` (an exact
// release's grid value of the constant) as if it had held `value`: row and column `column`
// multiplied by value / held, in place.
func ConstantRescale(a Matrix, column int64, held, value float64) error {
	if err := a.checkSquare("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_postprocess_constant_rescale(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(),
			C.int64_t(column), C.double(held), C.double(value))
	})
}

// GramEstimate replaces a Gram release a by the estimate of the Gram matrix it holds, read from
// its receipt r: a less the mean its mechanism adds (wishart_additive: dof * scale * I; jl_ridge:
// w^2 I; inverse_wishart: rescaled by m - d - 1, less w^2 I; analyze_gauss, laplace_sym:
// unchanged). It reports whether the result is unbiased: false for a mechanism whose bias has no
// closed form (IEV, KT, inverse Gauss), whose release is left unchanged.
func GramEstimate(a Matrix, r Receipt) (bool, error) {
	if err := a.checkSquare("a"); err != nil {
		return false, err
	}
	c := receiptToC(r)
	var unbiased C.int32_t
	err := call(func() C.dpcov_status {
		return C.dpcov_postprocess_gram_estimate(rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(), &c,
			&unbiased)
	})
	return unbiased == 1, err
}
