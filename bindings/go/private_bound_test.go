package dpcov

import (
	"errors"
	"math"
	"testing"
)

func TestPrivateBound(t *testing.T) {
	grid, err := PrivateBoundGrid(0.5, 7, 2)
	if err != nil || len(grid) != 5 || grid[0] != 0.5 || grid[4] != 8 {
		t.Fatalf("grid %v, %v", grid, err)
	}
	rng, err := NewRNGSeeded(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	// Rows above each candidate: 3 up to b = 4, 2 above b = 8; a target of 1 clipped row picks 8
	// (with probability 1 - 4 exp(-25) at epsilon 50).
	index, bound, err := rng.PrivateBoundSelect(grid, []int64{100, 0, 0, 0, 1, 2}, 1, 50)
	if err != nil || bound != grid[index] || bound != 8 {
		t.Fatalf("select %d %v, %v", index, bound, err)
	}
	// The scan: 103 rows above 0.5, 3 above 1 to 8, target 1; at epsilon 50 (noise scale 0.04) it
	// passes every candidate below the top and ends there.
	index, bound, err = rng.PrivateBoundScan(grid, []int64{0, 100, 0, 0, 0, 3}, 1, 50)
	if err != nil || bound != grid[index] || index != 4 {
		t.Fatalf("scan %d %v, %v", index, bound, err)
	}
	if _, _, err := rng.PrivateBoundScan(grid, []int64{1, 0, 0, 0, 0, 2}, 1, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("scan epsilon 0: %v", err)
	}
	if _, err := PrivateBoundGrid(1, 0.5, 2); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bad grid: %v", err)
	}
	if _, _, err := rng.PrivateBoundSelect(grid, []int64{1, 2}, 1, 1); !errors.Is(err, ErrDimension) {
		t.Fatalf("short histogram: %v", err)
	}
	if _, _, err := rng.PrivateBoundSelect(grid, []int64{1, 0, 0, 0, 0, 2}, -1, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative target: %v", err)
	}
}

func TestAutomaticBoundConstants(t *testing.T) {
	grid, err := PrivateBoundGrid(AutoBoundLow, AutoBoundHigh, AutoBoundRatio)
	if err != nil || len(grid) != 156 {
		t.Fatalf("grid of %d candidates, %v", len(grid), err)
	}
	if target, err := PrivateBoundQuantileTarget(PcaAutoBoundQuantile, 100000); err != nil || target != 100 {
		t.Fatalf("PCA's target %d, %v", target, err)
	}
	if target, err := PrivateBoundQuantileTarget(AutoBoundQuantile, 100); err != nil || target != 5 {
		t.Fatalf("target %d, %v", target, err)
	}
	if _, err := PrivateBoundQuantileTarget(0, 100); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("quantile 0: %v", err)
	}
	// A tenth of 1 leaves the largest double r with 0.1 + r <= 1 exactly: one below 0.9.
	if rest, err := BoundStepRest(1, BoundStepShare); err != nil || rest != math.Nextafter(0.9, 0) {
		t.Fatalf("rest %v, %v", rest, err)
	}
	if _, err := BoundStepRest(1, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bound epsilon 1 of 1: %v", err)
	}
	// The two steps charged as one: 0.1 + 0.9 rounded up, 1 (the exact sum is just above it).
	if total, err := BoundStepTotal(0.1, 0.9); err != nil || total != math.Nextafter(1, 2) {
		t.Fatalf("total %v, %v", total, err)
	}
}

func TestTightenedBound(t *testing.T) {
	grid, err := PrivateBoundBelowGrid(3)
	if err != nil || len(grid) != TightenSteps+1 || grid[TightenSteps] != 3 || grid[0] != 3/math.Pow(TightenRatio, 12) {
		t.Fatalf("grid %v, %v", grid, err)
	}
	rng, err := NewRNGSeeded(6, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	// 95 rows in cell 3 and 5 in cell 4: the 0.95 quantile's target of 5 rows above is grid[3]
	// alone (at epsilon 50 every other candidate has probability below exp(-100)).
	histogram := make([]int64, TightenSteps+2)
	histogram[3], histogram[4] = 95, 5
	if chosen, err := rng.PrivateBoundTighten(3, histogram, 100, AutoBoundQuantile, 50); err != nil || chosen != grid[3] {
		t.Fatalf("tightened %v, %v", chosen, err)
	}
	// Rows above the public bound are clipped onto it: with a target of none above (quantile 1)
	// the bound itself is the one candidate with no row above it.
	histogram[3], histogram[4], histogram[8], histogram[TightenSteps+1] = 0, 0, 95, 5
	if chosen, err := rng.PrivateBoundTighten(3, histogram, 100, 1, 50); err != nil || chosen != 3 {
		t.Fatalf("tightened with rows over the bound %v, %v", chosen, err)
	}
	if _, err := rng.PrivateBoundTighten(3, histogram, 99, AutoBoundQuantile, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("counts not summing to n: %v", err)
	}
	if _, err := rng.PrivateBoundTighten(3, histogram[:3], 100, AutoBoundQuantile, 1); !errors.Is(err, ErrDimension) {
		t.Fatalf("short histogram: %v", err)
	}
	if _, err := PrivateBoundBelowGrid(0); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bound 0: %v", err)
	}
}
