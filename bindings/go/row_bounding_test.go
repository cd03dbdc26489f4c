package dpcov

import (
	"errors"
	"math"
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
	// The same rows as two units, the second of two rows: each unit once, by its largest norm.
	units := make([]int64, 3)
	if err := PrivateBoundUnitHistogram([]float64{0.2, 1}, rows, []int64{4, 9, 9}, units); err != nil {
		t.Fatal(err)
	}
	if units[0] != 0 || units[1] != 2 || units[2] != 0 {
		t.Fatalf("unit histogram %v", units)
	}
	if err := PrivateBoundUnitHistogram([]float64{0.2, 1}, rows, []int64{4}, units); err == nil {
		t.Fatal("one unit id for three rows accepted")
	}
	// Each row's cell: the largest per unit is its cell in the unit histogram.
	cells, err := PrivateBoundNormCells([]float64{0.2, 1}, rows)
	if err != nil || len(cells) != 3 || cells[0] != 1 || cells[1] != 0 || cells[2] != 1 {
		t.Fatalf("cells %v, %v", cells, err)
	}
	if _, err := PrivateBoundNormCells([]float64{1, 0.2}, rows); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a decreasing grid: %v", err)
	}
}

// Exact numerics are the default of the row path for every mechanism that has them, through
// ReleaseRows and through a bounded accumulator naming the mechanism; Idealized opts out and is
// labelled; a mechanism without an exact form and a release from a matrix say idealized.
func TestRowPathReleasesExactlyByDefault(t *testing.T) {
	rows := NewMatrix(200, 2)
	for i := range rows.Data {
		rows.Data[i] = 0.5 * math.Sin(0.7*float64(i))
	}
	rng, err := NewRNGSeeded(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	for _, m := range []Mechanism{AnalyzeGauss, LaplaceSym} {
		for _, constant := range []float64{0, 1} {
			_, receipt, _, err := ReleaseRows(m, rows, RowBounding{Bound: 1, Constant: constant}, 1, 1e-6, nil, rng)
			if err != nil || receipt.Numerics != 1 || receipt.N != 200 {
				t.Fatalf("%v constant %v: numerics %d, n %d, %v", m, constant, receipt.Numerics, receipt.N, err)
			}
			_, receipt, _, err = ReleaseRows(m, rows, RowBounding{Bound: 1, Idealized: true}, 1, 1e-6, nil, rng)
			if err != nil || receipt.Numerics != 0 {
				t.Fatalf("%v idealized: numerics %d, %v", m, receipt.Numerics, err)
			}
		}
		g, err := NewBoundedGram(2, RowBounding{Bound: 1, Mechanism: m, Epsilon: 1, Delta: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.AddRawRows(rows); err != nil {
			t.Fatal(err)
		}
		info, _ := g.Info()
		_, receipt, err := g.Release(m, 1, 1e-6, nil, rng)
		if err != nil || info.Numerics != 1 || receipt.Numerics != 1 {
			t.Fatalf("%v accumulator: numerics %d / %d, %v", m, info.Numerics, receipt.Numerics, err)
		}
		if _, _, err := g.Release(WishartAdditive, 0.5, 1e-6, nil, rng); !errors.Is(err, ErrIncompatible) {
			t.Fatalf("%v accumulator released as wishart_additive: %v", m, err)
		}
		g.Close()
	}
	_, receipt, _, err := ReleaseRows(WishartAdditive, rows, RowBounding{Bound: 1}, 0.5, 1e-6, nil, rng)
	if err != nil || receipt.Numerics != 0 {
		t.Fatalf("wishart_additive: numerics %d, %v", receipt.Numerics, err)
	}
	gram := NewMatrix(2, 2)
	gram.Data[0], gram.Data[3] = 1, 1
	if _, receipt, err := Release(AnalyzeGauss, gram, 10, 1, 1, 1e-6, nil, rng); err != nil || receipt.Numerics != 0 {
		t.Fatalf("matrix release: numerics %d, %v", receipt.Numerics, err)
	}
}

func TestBalancedRowsAndTheirCoefficientFactors(t *testing.T) {
	b := RowBounding{Bound: 8, Constant: 1, LabelBound: 2, Balanced: true}
	factors, err := CoefficientFactors(4, b)
	if err != nil || len(factors) != 4 {
		t.Fatalf("factors %v, %v", factors, err)
	}
	slope := math.Sqrt(3) / 8 * 2
	if factors[0] != 2 || math.Abs(factors[1]-slope) > 1e-15 || factors[3] != factors[1] {
		t.Fatalf("factors %v, want [2 %v %v %v]", factors, slope, slope, slope)
	}
	g, err := NewBoundedGram(4, b)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	info, err := g.Info()
	if err != nil || math.Abs(info.Bound-math.Sqrt(5)) > 1e-12 {
		t.Fatalf("balanced rows' bound %v, want sqrt(2 + d) = %v (%v)", info.Bound, math.Sqrt(5), err)
	}
	b.Constant = 2
	if _, err := CoefficientFactors(4, b); err == nil {
		t.Fatal("balanced rows with constant 2 accepted")
	}
}

// Apply returns the rows NewBoundedGram accumulates: their Gram matrix is the accumulator's, and
// a refused row is named as AddRawRows names it.
func TestApplyReturnsTheRowsTheBoundedAccumulatorSums(t *testing.T) {
	b := RowBounding{Bound: 8, Constant: 1, LabelBound: 2, Balanced: true}
	raw := NewMatrix(50, 4)
	for i := range raw.Data {
		raw.Data[i] = 7 * math.Sin(0.37*float64(i)+1)
	}
	rows, info, _, err := b.Apply(raw)
	if err != nil || rows.Rows != 50 || rows.Cols != 5 || info.Dim != 5 || info.Clipped == 0 {
		t.Fatalf("rows %dx%d, info %+v, %v", rows.Rows, rows.Cols, info, err)
	}
	g, err := NewBoundedGram(4, b)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.AddRawRows(raw); err != nil {
		t.Fatal(err)
	}
	want, err := g.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	for a := 0; a < 5; a++ {
		for c := 0; c < 5; c++ {
			sum := 0.0
			for i := 0; i < rows.Rows; i++ {
				sum += rows.Data[i*5+a] * rows.Data[i*5+c]
			}
			if math.Abs(sum-want.Data[a*5+c]) > 1e-12*math.Max(1, math.Abs(sum)) {
				t.Fatalf("G[%d][%d]: %v from Apply's rows, %v accumulated", a, c, sum, want.Data[a*5+c])
			}
		}
	}
	raw.Data[3*4+1] = math.NaN()
	_, _, refusal, err := b.Apply(raw)
	if !errors.Is(err, ErrNonFinite) || refusal.Row != 3 {
		t.Fatalf("a NaN in row 3: refusal %+v, %v", refusal, err)
	}
	if _, _, _, err := b.Apply(Matrix{Rows: 2, Cols: 4, Data: raw.Data[:4]}); !errors.Is(err, ErrDimension) {
		t.Fatalf("rows shorter than Rows x Cols: %v", err)
	}
}

// The noise-aware post-processing reads the receipt the release wrote, every field: with exact
// numerics the PCA bound counts the grid's rounding (so it is wider than the idealized release's)
// and, under add/remove where n is private, the uncentred bound is refused.
func TestThePCABoundOfAnExactReleaseReadsItsWholeReceipt(t *testing.T) {
	rows := data(2000, 3)
	bounds := map[bool]float64{}
	for _, idealized := range []bool{false, true} {
		spec := RowBounding{Bound: 1, Idealized: idealized}
		released, receipt, _, err := ReleaseRows(AnalyzeGauss, rows, spec, 1e6, 1e-6, nil,
			seeded(t, 4))
		if err != nil || (receipt.Numerics == 1) == idealized {
			t.Fatalf("idealized %v: numerics %d, %v", idealized, receipt.Numerics, err)
		}
		b, err := PCASubspaceErrorBound(released, receipt, 1, 0.95, 50, seeded(t, 8))
		if err != nil {
			t.Fatal(err)
		}
		bounds[idealized] = b.NoiseNorm
	}
	if !(bounds[false] > bounds[true]) {
		t.Fatalf("exact noise norm %v, idealized %v: the grid's rounding is missing",
			bounds[false], bounds[true])
	}
	p := DefaultMechanismParams()
	p.Neighbour = 1
	released, receipt, _, err := ReleaseRows(AnalyzeGauss, rows, RowBounding{Bound: 1}, 1, 1e-6, &p,
		seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PCASubspaceErrorBound(released, receipt, 1, 0.95, 50, seeded(t, 8)); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("add/remove, exact: %v", err)
	}
}
