package dpcov

import (
	"errors"
	"testing"
)

// Exactly k rows per unit: a unit of three rows keeps two of its own, a unit of one row is padded
// with a zero row; ids that go back are refused.
func TestKeepUnitRowsKeepsExactlyKRowsPerUnit(t *testing.T) {
	rng, err := NewRNGSeeded(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	a := Matrix{Rows: 4, Cols: 1, Data: []float64{1, 2, 3, 4}}
	kept, truncated, err := KeepUnitRows(a, []int64{5, 5, 5, 9}, 2, rng)
	if err != nil || kept.Rows != 4 || truncated != 1 {
		t.Fatalf("kept %+v, truncated %d, %v", kept, truncated, err)
	}
	if kept.Data[0] == kept.Data[1] || kept.Data[0] > 3 || kept.Data[1] > 3 || kept.Data[2] != 4 ||
		kept.Data[3] != 0 {
		t.Fatalf("kept rows %v", kept.Data)
	}
	if _, _, err := KeepUnitRows(a, []int64{5, 4, 5, 9}, 2, rng); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("ids out of order: %v", err)
	}
}
