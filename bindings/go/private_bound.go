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

// The public grid of an automatic bound on every surface (PrivateBoundGrid(AutoBoundLow,
// AutoBoundHigh, AutoBoundRatio), 156 candidates) and the quantile of the rows' norms it aims at
// by default (DPCOV_AUTO_BOUND_*).
const (
	AutoBoundLow      = float64(C.DPCOV_AUTO_BOUND_LOW)
	AutoBoundHigh     = float64(C.DPCOV_AUTO_BOUND_HIGH)
	AutoBoundRatio    = float64(C.DPCOV_AUTO_BOUND_RATIO)
	AutoBoundQuantile = float64(C.DPCOV_AUTO_BOUND_QUANTILE)
	// PcaAutoBoundQuantile is the quantile an automatic bound for PCA aims at, far in the tail so
	// that the subspace error bound holds against the data's own subspace.
	PcaAutoBoundQuantile = float64(C.DPCOV_PCA_AUTO_BOUND_QUANTILE)
)

// PrivateBoundQuantileTarget is the number of rows above the bound that aims at the quantile of
// n row norms, floor((1 - quantile) n) (dpcov_private_bound_quantile_target). It uses n, public
// under replace-one only.
func PrivateBoundQuantileTarget(quantile float64, n int64) (int64, error) {
	var target C.int64_t
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_quantile_target(C.double(quantile), C.int64_t(n), &target)
	}); err != nil {
		return 0, err
	}
	return int64(target), nil
}

// BoundStepShare is the share of epsilon a private bound step spends where none is named
// (DPCOV_BOUND_STEP_SHARE).
const BoundStepShare = float64(C.DPCOV_BOUND_STEP_SHARE)

// BoundStepRest is the epsilon left to a release after a bound step of boundEpsilon out of
// epsilon: the largest float64 r with boundEpsilon + r <= epsilon exactly (dpcov_bound_step_rest),
// the value every surface spends.
func BoundStepRest(epsilon, boundEpsilon float64) (float64, error) {
	var rest C.double
	if err := call(func() C.dpcov_status {
		return C.dpcov_bound_step_rest(C.double(epsilon), C.double(boundEpsilon), &rest)
	}); err != nil {
		return 0, err
	}
	return float64(rest), nil
}

// BoundStepTotal is what a bound step of boundEpsilon and the release of epsilon that uses its
// bound spend together, charged as one release (an advanced ledger takes a release in steps so):
// their sum rounded up (dpcov_bound_step_total).
func BoundStepTotal(boundEpsilon, epsilon float64) (float64, error) {
	var total C.double
	if err := call(func() C.dpcov_status {
		return C.dpcov_bound_step_total(C.double(boundEpsilon), C.double(epsilon), &total)
	}); err != nil {
		return 0, err
	}
	return float64(total), nil
}

// The candidates below a public bound that tightening chooses among: bound / TightenRatio^k for
// k = TightenSteps, ..., 1, then the bound itself (DPCOV_TIGHTEN_*).
const (
	TightenSteps = int(C.DPCOV_TIGHTEN_STEPS)
	TightenRatio = float64(C.DPCOV_TIGHTEN_RATIO)
)

// PrivateBoundBelowGrid is the TightenSteps + 1 public candidates a tightened bound is chosen
// among, increasing, the last the bound itself (dpcov_private_bound_below_grid).
func PrivateBoundBelowGrid(bound float64) ([]float64, error) {
	grid := make([]float64, TightenSteps+1)
	var count C.int64_t
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_below_grid(C.double(bound), doubles(grid), C.int64_t(len(grid)), &count)
	}); err != nil {
		return nil, err
	}
	return grid, nil
}

// PrivateBoundTighten chooses a bound at most bound, epsilon-DP under replace-one, near the
// quantile of the n rows' norms: the exponential mechanism over PrivateBoundBelowGrid(bound),
// histogram its TightenSteps + 2 cells of the norms (summing to n), the rows above bound counted
// on it (dpcov_private_bound_tighten).
func (r *RNG) PrivateBoundTighten(bound float64, histogram []int64, n int64, quantile, epsilon float64) (float64, error) {
	if len(histogram) != TightenSteps+2 {
		return 0, argError(ErrDimension, "need %d cells, got %d", TightenSteps+2, len(histogram))
	}
	var chosen C.double
	if err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_tighten(C.double(bound), int64s(histogram), C.int64_t(n),
			C.double(quantile), C.double(epsilon), r.handle(), &chosen)
	}); err != nil {
		return 0, err
	}
	return float64(chosen), nil
}

// PrivateBoundSelect chooses a bound among grid, epsilon-DP, from the histogram of row norms over
// it (len(grid) + 1 cells: cell k counts the norms in (grid[k-1], grid[k]], the last those above
// every candidate), aiming at targetClipped rows above the bound, by the exponential mechanism.
// Returns the index and the bound.
func (r *RNG) PrivateBoundSelect(grid []float64, histogram []int64, targetClipped int64, epsilon float64) (int, float64, error) {
	return r.privateBound(grid, histogram, func(index *C.int64_t, bound *C.double) C.dpcov_status {
		return C.dpcov_private_bound_select(doubles(grid), C.int64_t(len(grid)), int64s(histogram),
			C.int64_t(targetClipped), C.double(epsilon), r.handle(), index, bound)
	})
}

// PrivateBoundScan chooses a bound among grid, epsilon-DP under both neighbour relations, by the
// sparse vector scan: the first candidate whose noisy count of rows above it is at most the noisy
// targetClipped (histogram as for PrivateBoundSelect; dpcov_private_bound_scan). At small n and on
// wide grids it stays near the data where PrivateBoundSelect often lands far above it. Returns
// the index and the bound.
func (r *RNG) PrivateBoundScan(grid []float64, histogram []int64, targetClipped int64, epsilon float64) (int, float64, error) {
	return r.privateBound(grid, histogram, func(index *C.int64_t, bound *C.double) C.dpcov_status {
		return C.dpcov_private_bound_scan(doubles(grid), C.int64_t(len(grid)), int64s(histogram),
			C.int64_t(targetClipped), C.double(epsilon), r.handle(), index, bound)
	})
}

// privateBound checks the histogram's length against the grid's and runs one selection.
func (r *RNG) privateBound(grid []float64, histogram []int64, choose func(*C.int64_t, *C.double) C.dpcov_status) (int, float64, error) {
	if len(grid) < 1 || len(histogram) != len(grid)+1 {
		return 0, 0, argError(ErrDimension, "need a grid of >= 1 candidates and len(grid) + 1 cells, got %d and %d",
			len(grid), len(histogram))
	}
	var index C.int64_t
	var bound C.double
	if err := call(func() C.dpcov_status { return choose(&index, &bound) }); err != nil {
		return 0, 0, err
	}
	return int(index), float64(bound), nil
}
