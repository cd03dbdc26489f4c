package dpcov

/*
#include "dpcov.h"
*/
import "C"

// CentreSecondMoment is the mean and the 1/n covariance of the other columns from a
// (d + 1) x (d + 1) second moment m of rows that held constant in column constantColumn
// (dpcov/centring.h). n is the number of rows when it is public, or 0 to take the released count
// S_cc / c^2; count is the n used. Post-processing: no privacy cost.
func CentreSecondMoment(m Matrix, constantColumn int, constant float64, n int64) (mean []float64, cov Matrix, count float64, err error) {
	if err := m.checkSquare("m"); err != nil {
		return nil, Matrix{}, 0, err
	}
	d := m.Rows - 1
	if d < 1 {
		return nil, Matrix{}, 0, argError(ErrDimension, "m must be at least 2 x 2, got %d x %d", m.Rows, m.Cols)
	}
	mean = make([]float64, d)
	cov = NewMatrix(d, d)
	var c C.double
	err = call(func() C.dpcov_status {
		return C.dpcov_centre_second_moment(rowMajor, C.int64_t(m.Rows), m.ptr(), m.ld(), C.int64_t(constantColumn),
			C.double(constant), C.int64_t(n), doubles(mean), cov.ptr(), cov.ld(), &c)
	})
	if err != nil {
		return nil, Matrix{}, 0, err
	}
	return mean, cov, float64(c), nil
}
