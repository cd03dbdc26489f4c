package dpcov

import (
	"errors"
	"testing"
)

// The library bounds raw rows: a refused row comes back as data, the drop policy is refused under
// replace-one whatever the rows, and the private bound's histogram is measured by the library.
func TestBoundedGramNamesTheRefusedRowAndRefusesDropUnderReplaceOne(t *testing.T) {
	if _, err := NewBoundedGram(2, RowBounding{Bound: 1, Policy: BoundDrop}); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("drop under replace-one: %v", err)
	}
	g, err := NewBoundedGram(2, RowBounding{Bound: 1, Policy: BoundReject, Constant: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	rows := Matrix{Rows: 3, Cols: 2, Data: []float64{0.3, 0.4, 0.1, 0.1, 3, 4}}
	refusal, err := g.AddRawRows(rows)
	if !errors.Is(err, ErrNormBound) || refusal.Row != 2 || refusal.Norm != 5 || refusal.Label {
		t.Fatalf("refusal %+v, %v", refusal, err)
	}
	rows.Data[4], rows.Data[5] = 0, 1
	if _, err := g.AddRawRows(rows); err != nil {
		t.Fatal(err)
	}
	info, err := g.Info()
	if err != nil || info.Dim != 3 || info.Rows != 3 {
		t.Fatalf("info %+v, %v", info, err)
	}
	histogram := make([]int64, 3)
	if err := PrivateBoundHistogram([]float64{0.2, 1}, rows, histogram); err != nil {
		t.Fatal(err)
	}
	if histogram[0] != 1 || histogram[1] != 2 || histogram[2] != 0 {
		t.Fatalf("histogram %v", histogram)
	}
}
