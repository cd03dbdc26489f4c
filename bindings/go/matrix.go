package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// Matrix is a dense row-major matrix: element (i, j) is Data[i*Cols+j]. Functions of this package
// read a Matrix in place (no copy) and return new ones.
type Matrix struct {
	Rows, Cols int
	Data       []float64
}

// NewMatrix is a rows x cols matrix of zeros.
func NewMatrix(rows, cols int) Matrix {
	return Matrix{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
}

// MatrixFromRows copies a slice of equally long rows into a Matrix.
func MatrixFromRows(rows [][]float64) Matrix {
	if len(rows) == 0 {
		return Matrix{}
	}
	m := NewMatrix(len(rows), len(rows[0]))
	for i, r := range rows {
		copy(m.Data[i*m.Cols:(i+1)*m.Cols], r)
	}
	return m
}

// At is element (i, j).
func (m Matrix) At(i, j int) float64 { return m.Data[i*m.Cols+j] }

// Set sets element (i, j) to v.
func (m Matrix) Set(i, j int, v float64) { m.Data[i*m.Cols+j] = v }

// Row is row i, sharing the matrix's storage.
func (m Matrix) Row(i int) []float64 { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// check refuses a Matrix whose Data does not hold Rows*Cols elements.
func (m Matrix) check(name string) error {
	if m.Rows < 0 || m.Cols < 0 || len(m.Data) != m.Rows*m.Cols {
		return argError(ErrDimension, "%s: Data holds %d elements, but Rows x Cols = %d x %d",
			name, len(m.Data), m.Rows, m.Cols)
	}
	return nil
}

// checkSquare refuses a Matrix that is not square or not consistent.
func (m Matrix) checkSquare(name string) error {
	if err := m.check(name); err != nil {
		return err
	}
	if m.Rows != m.Cols {
		return argError(ErrDimension, "%s must be square, got %d x %d", name, m.Rows, m.Cols)
	}
	return nil
}

// sameOrder checks that a and b are square and of one order: C reads both as d x d with the
// first's d, so a larger b would be read as its top-left block without an error.
func sameOrder(a Matrix, aName string, b Matrix, bName string) error {
	if err := a.checkSquare(aName); err != nil {
		return err
	}
	if err := b.checkSquare(bName); err != nil {
		return err
	}
	if a.Rows != b.Rows {
		return argError(ErrDimension, "%s is %d x %d but %s is %d x %d", aName, a.Rows, a.Cols,
			bName, b.Rows, b.Cols)
	}
	return nil
}

// ptr is the address of the first element, or nil for an empty matrix.
func (m Matrix) ptr() *C.double { return doubles(m.Data) }

// ld is the row-major leading dimension passed with the matrix (at least 1).
func (m Matrix) ld() C.int64_t {
	if m.Cols < 1 {
		return 1
	}
	return C.int64_t(m.Cols)
}

func doubles(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&s[0]))
}

// rowMajor is the layout every Matrix has.
const rowMajor = C.int32_t(C.DPCOV_ROW_MAJOR)
