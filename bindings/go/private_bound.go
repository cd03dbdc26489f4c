package dpcov

/*
#include "dpcov.h"
*/
import "C"

// PrivateBoundGrid is the public candidate bounds lo * ratio^k up to the first >= hi
// (dpcov/private_bound.h).
func PrivateBoundGrid(lo, hi, ratio float64) ([]float64, error) {
	var count C.int64_t
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_grid(C.double(lo), C.double(hi), C.double(ratio), nil, 0, &count)
	}); err != nil {
		return nil, err
	}
	grid := make([]float64, int(count))
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_grid(C.double(lo), C.double(hi), C.double(ratio), doubles(grid), count, &count)
	}); err != nil {
		return nil, err
	}
	return grid, nil
}

// PrivateBoundSelect chooses a bound among grid, epsilon-DP, from the histogram of row norms over
// it (len(grid) + 1 cells: cell k counts the norms in (grid[k-1], grid[k]], the last those above
// every candidate), aiming at targetClipped rows above the bound. Returns the index and the bound.
func (r *RNG) PrivateBoundSelect(grid []float64, histogram []int64, targetClipped int64, epsilon float64) (int, float64, error) {
	if len(grid) < 1 || len(histogram) != len(grid)+1 {
		return 0, 0, argError(ErrDimension, "need a grid of >= 1 candidates and len(grid) + 1 cells, got %d and %d",
			len(grid), len(histogram))
	}
	var index C.int64_t
	var bound C.double
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_select(doubles(grid), C.int64_t(len(grid)), int64s(histogram),
			C.int64_t(targetClipped), C.double(epsilon), r.handle(), &index, &bound)
	}); err != nil {
		return 0, 0, err
	}
	return int(index), float64(bound), nil
}
