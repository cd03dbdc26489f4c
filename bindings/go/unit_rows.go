package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// KeepUnitRows is the rows the zCDP row mechanisms (DLY, CoinPress) take from privacy units
// (dpcov_unit_rows_keep): exactly maxRowsPerUnit (k) rows per unit, each unit's kept rows (a
// uniformly random k of them, drawn with rng, the release's generator) then zero rows up to k,
// units in increasing order of id. a holds whole units, their ids (units[i] for row i)
// non-decreasing. Also returns the rows left out by the k limit (curator only, never published).
func KeepUnitRows(a Matrix, units []int64, maxRowsPerUnit int64, rng *RNG) (Matrix, int64, error) {
	if err := a.check("a"); err != nil {
		return Matrix{}, 0, err
	}
	if len(units) != a.Rows {
		return Matrix{}, 0, argError(ErrDimension, "need one unit id per row: %d rows, %d ids",
			a.Rows, len(units))
	}
	// The output's size: k per run of equal ids (the library checks the order itself).
	count := 0
	for i := range units {
		if i == 0 || units[i] != units[i-1] {
			count++
		}
	}
	if maxRowsPerUnit < 1 || maxRowsPerUnit > 1<<20 {
		return Matrix{}, 0, argError(ErrInvalidArgument, "maxRowsPerUnit must be in [1, 2^20], got %d",
			maxRowsPerUnit)
	}
	out := NewMatrix(count*int(maxRowsPerUnit), a.Cols)
	var ids *C.int64_t
	if len(units) > 0 {
		ids = (*C.int64_t)(unsafe.Pointer(&units[0]))
	}
	var truncated C.int64_t
	err := call(func() C.dpcov_status {
		return C.dpcov_unit_rows_keep(rng.handle(), C.int64_t(maxRowsPerUnit), rowMajor,
			C.int64_t(a.Rows), C.int64_t(a.Cols), a.ptr(), a.ld(), ids, out.ptr(),
			C.int64_t(out.Rows), out.ld(), &truncated)
	})
	if err != nil {
		return Matrix{}, 0, err
	}
	return out, int64(truncated), nil
}
