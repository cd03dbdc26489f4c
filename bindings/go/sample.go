package dpcov

/*
#include "dpcov.h"
*/
import "C"

// Samplers (dpcov/sample.h). Each advances the generator only when it succeeds.

func (r *RNG) draws(n int, f func(out *C.double) C.dpcov_status) ([]float64, error) {
	if n < 0 {
		return nil, argError(ErrDimension, "n must be >= 0, got %d", n)
	}
	out := make([]float64, n)
	if err := call(func() C.dpcov_status { return f(doubles(out)) }); err != nil {
		return nil, err
	}
	return out, nil
}

// Uniform01 is n draws uniform on the open interval (0, 1).
func (r *RNG) Uniform01(n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_uniform01(r.handle(), C.int64_t(n), out)
	})
}

// StandardNormal is n standard normal draws.
func (r *RNG) StandardNormal(n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_standard_normal(r.handle(), C.int64_t(n), out)
	})
}

// Exponential is n exponential draws with rate 1.
func (r *RNG) Exponential(n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_exponential(r.handle(), C.int64_t(n), out)
	})
}

// Laplace is n draws with density exp(-|x| / scale) / (2 scale).
func (r *RNG) Laplace(scale float64, n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_laplace(r.handle(), C.double(scale), C.int64_t(n), out)
	})
}

// Gamma is n Gamma(shape, 1) draws.
func (r *RNG) Gamma(shape float64, n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_gamma(r.handle(), C.double(shape), C.int64_t(n), out)
	})
}

// ChiSquare is n chi-square draws with dof degrees of freedom.
func (r *RNG) ChiSquare(dof float64, n int) ([]float64, error) {
	return r.draws(n, func(out *C.double) C.dpcov_status {
		return C.dpcov_sample_chi_square(r.handle(), C.double(dof), C.int64_t(n), out)
	})
}

// UniformSphere is n points uniform on the unit sphere in dim coordinates, one per row.
func (r *RNG) UniformSphere(dim, n int) (Matrix, error) {
	if dim < 1 || n < 1 {
		return Matrix{}, argError(ErrDimension, "dim and n must be >= 1, got %d and %d", dim, n)
	}
	out := NewMatrix(n, dim)
	err := call(func() C.dpcov_status {
		return C.dpcov_sample_uniform_sphere(r.handle(), C.int64_t(dim), C.int64_t(n), rowMajor,
			out.ptr(), out.ld())
	})
	if err != nil {
		return Matrix{}, err
	}
	return out, nil
}

// square runs a sampler writing one d x d matrix from the d x d input in.
func square(in Matrix, name string, f func(out Matrix) C.dpcov_status) (Matrix, error) {
	if err := in.checkSquare(name); err != nil {
		return Matrix{}, err
	}
	out := NewMatrix(in.Rows, in.Cols)
	if err := call(func() C.dpcov_status { return f(out) }); err != nil {
		return Matrix{}, err
	}
	return out, nil
}

// Wishart is one draw from W_d(dof, scale).
func (r *RNG) Wishart(dof float64, scale Matrix) (Matrix, error) {
	return square(scale, "scale", func(out Matrix) C.dpcov_status {
		return C.dpcov_sample_wishart(r.handle(), C.double(dof), rowMajor, C.int64_t(scale.Rows),
			scale.ptr(), scale.ld(), out.ptr(), out.ld())
	})
}

// InverseWishart is one draw from W^{-1}_d(psi, dof).
func (r *RNG) InverseWishart(dof float64, psi Matrix) (Matrix, error) {
	return square(psi, "psi", func(out Matrix) C.dpcov_status {
		return C.dpcov_sample_inverse_wishart(r.handle(), C.double(dof), rowMajor,
			C.int64_t(psi.Rows), psi.ptr(), psi.ld(), out.ptr(), out.ld())
	})
}

// ACG is n draws from the angular central Gaussian ACG(omega), one per row.
func (r *RNG) ACG(omega Matrix, n int) (Matrix, error) {
	if err := omega.checkSquare("omega"); err != nil {
		return Matrix{}, err
	}
	if n < 1 {
		return Matrix{}, argError(ErrDimension, "n must be >= 1, got %d", n)
	}
	out := NewMatrix(n, omega.Rows)
	err := call(func() C.dpcov_status {
		return C.dpcov_sample_acg(r.handle(), rowMajor, C.int64_t(omega.Rows), omega.ptr(),
			omega.ld(), C.int64_t(n), out.ptr(), out.ld())
	})
	if err != nil {
		return Matrix{}, err
	}
	return out, nil
}

// Bingham is n draws from the Bingham density proportional to exp(-x^T a x), one per row, and
// the number of proposals used.
func (r *RNG) Bingham(a Matrix, n int) (Matrix, int64, error) {
	if err := a.checkSquare("a"); err != nil {
		return Matrix{}, 0, err
	}
	if n < 1 {
		return Matrix{}, 0, argError(ErrDimension, "n must be >= 1, got %d", n)
	}
	out := NewMatrix(n, a.Rows)
	var tries C.int64_t
	err := call(func() C.dpcov_status {
		return C.dpcov_sample_bingham(r.handle(), rowMajor, C.int64_t(a.Rows), a.ptr(), a.ld(),
			C.int64_t(n), out.ptr(), out.ld(), &tries)
	})
	if err != nil {
		return Matrix{}, 0, err
	}
	return out, int64(tries), nil
}

// SymmetricGaussianNoise is a dim x dim symmetric matrix with iid N(0, sigma^2) upper-triangle
// entries.
func (r *RNG) SymmetricGaussianNoise(sigma float64, dim int) (Matrix, error) {
	if dim < 1 {
		return Matrix{}, argError(ErrDimension, "dim must be >= 1, got %d", dim)
	}
	return square(NewMatrix(dim, dim), "out", func(out Matrix) C.dpcov_status {
		return C.dpcov_sample_symmetric_gaussian_noise(r.handle(), C.double(sigma), rowMajor,
			C.int64_t(dim), out.ptr(), out.ld())
	})
}

// SymmetricLaplaceNoise is a dim x dim symmetric matrix with iid Laplace(scale) upper-triangle
// entries.
func (r *RNG) SymmetricLaplaceNoise(scale float64, dim int) (Matrix, error) {
	if dim < 1 {
		return Matrix{}, argError(ErrDimension, "dim must be >= 1, got %d", dim)
	}
	return square(NewMatrix(dim, dim), "out", func(out Matrix) C.dpcov_status {
		return C.dpcov_sample_symmetric_laplace_noise(r.handle(), C.double(scale), rowMajor,
			C.int64_t(dim), out.ptr(), out.ld())
	})
}

// LogDensityWishart is the log of the W_d(dof, scale) density at w.
func LogDensityWishart(w Matrix, dof float64, scale Matrix) (float64, error) {
	if err := sameOrder(w, "w", scale, "scale"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_log_density_wishart(rowMajor, C.int64_t(w.Rows), w.ptr(), w.ld(),
			C.double(dof), scale.ptr(), scale.ld(), &v)
	})
	return float64(v), err
}

// LogDensityInverseWishart is the log of the W^{-1}_d(psi, dof) density at x.
func LogDensityInverseWishart(x Matrix, dof float64, psi Matrix) (float64, error) {
	if err := sameOrder(x, "x", psi, "psi"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_log_density_inverse_wishart(rowMajor, C.int64_t(x.Rows), x.ptr(), x.ld(),
			C.double(dof), psi.ptr(), psi.ld(), &v)
	})
	return float64(v), err
}

// LogDensityACG is the log of the ACG(omega) density at the unit vector u.
func LogDensityACG(omega Matrix, u []float64) (float64, error) {
	if err := omega.checkSquare("omega"); err != nil {
		return 0, err
	}
	if len(u) != omega.Rows {
		return 0, argError(ErrDimension, "u has %d entries, omega is %d x %d", len(u), omega.Rows, omega.Rows)
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_log_density_acg(rowMajor, C.int64_t(omega.Rows), omega.ptr(), omega.ld(),
			doubles(u), &v)
	})
	return float64(v), err
}

// LogDensitySymmetricGaussian is the log density of the upper-triangle entries of noise as iid
// N(0, sigma^2).
func LogDensitySymmetricGaussian(noise Matrix, sigma float64) (float64, error) {
	if err := noise.checkSquare("noise"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_log_density_symmetric_gaussian(rowMajor, C.int64_t(noise.Rows), noise.ptr(),
			noise.ld(), C.double(sigma), &v)
	})
	return float64(v), err
}

// LogDensitySymmetricLaplace is the log density of the upper-triangle entries of noise as iid
// Laplace(scale).
func LogDensitySymmetricLaplace(noise Matrix, scale float64) (float64, error) {
	if err := noise.checkSquare("noise"); err != nil {
		return 0, err
	}
	var v C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_log_density_symmetric_laplace(rowMajor, C.int64_t(noise.Rows), noise.ptr(),
			noise.ld(), C.double(scale), &v)
	})
	return float64(v), err
}
