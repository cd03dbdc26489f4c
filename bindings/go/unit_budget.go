package dpcov

/*
#include "dpcov.h"
*/
import "C"

// UnitRowBudget is the (epsilon, delta) a mechanism private for one row (under rowNeighbour) runs
// at so that its release is (epsilon, delta)-DP for privacy units of at most maxRowsPerUnit rows
// under unitNeighbour, by group privacy (dpcov/unit_budget.h; proofs/unit_group_privacy.md).
func UnitRowBudget(unitNeighbour, rowNeighbour int32, maxRowsPerUnit int64, epsilon, delta float64) (float64, float64, error) {
	var rowEpsilon, rowDelta C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_unit_row_budget(C.int32_t(unitNeighbour), C.int32_t(rowNeighbour),
			C.int64_t(maxRowsPerUnit), C.double(epsilon), C.double(delta), &rowEpsilon, &rowDelta)
	})
	return float64(rowEpsilon), float64(rowDelta), err
}

// UnitRowRho is the rho a zCDP mechanism on rows runs at so that its release is rho-zCDP for
// privacy units of at most maxRowsPerUnit rows: rho / m^2 (Bun-Steinke 2016, Prop. 27).
func UnitRowRho(unitNeighbour, rowNeighbour int32, maxRowsPerUnit int64, rho float64) (float64, error) {
	var out C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_unit_row_rho(C.int32_t(unitNeighbour), C.int32_t(rowNeighbour),
			C.int64_t(maxRowsPerUnit), C.double(rho), &out)
	})
	return float64(out), err
}
