package dpcov

import (
	"errors"
	"math"
	"testing"
)

// The robust intervals end to end: the plan's split, the fit at its share, the meat's rows
// released by Analyze Gauss through a bounded accumulator, and intervals that hold the slope.
func TestSandwichIntervalsCoverAHeteroscedasticSlope(t *testing.T) {
	const n, p = 4000, 3
	rows := NewMatrix(n, p+1)
	g := NewMatrix(p+1, p+1)
	for i := 0; i < n; i++ {
		x1, x2 := 0.6*math.Sin(0.37*float64(i)), 0.5*math.Cos(0.91*float64(i))
		e := 0.3 * math.Abs(x1) * math.Sin(1.7*float64(i)+0.2)
		r := []float64{1, x1, x2, 0.1 + 0.5*x1 - 0.25*x2 + e}
		copy(rows.Data[i*(p+1):], r)
		for a := 0; a <= p; a++ {
			for b := 0; b <= p; b++ {
				g.Data[a*(p+1)+b] += r[a] * r[b]
			}
		}
	}
	bx := math.Sqrt(1.61)
	budget, err := AdasspSandwichPlan(bx, 1, 4, 1e-6)
	if err != nil || budget.FitEpsilon+budget.MeatEpsilon > 4 || budget.MeatShare != 0.2 {
		t.Fatalf("plan %+v, %v", budget, err)
	}
	rng := seeded(t, 33)
	fit, err := AdasspFit(g, p, []int64{0, 1, 2}, bx, 1, budget.FitEpsilon, budget.FitDelta, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	u, err := AdasspSandwichRows(rows, fit.Coefficients, bx, budget.ResidualBound)
	if err != nil || u.Rows != n || u.Cols != p {
		t.Fatalf("rows %dx%d, %v", u.Rows, u.Cols, err)
	}
	acc, err := NewBoundedGram(p, RowBounding{Bound: budget.MeatRowBound, Mechanism: AnalyzeGauss,
		Epsilon: budget.MeatEpsilon, Delta: budget.MeatDelta})
	if err != nil {
		t.Fatal(err)
	}
	defer acc.Close()
	if _, err := acc.AddRawRows(u); err != nil {
		t.Fatal(err)
	}
	meat, meatReceipt, err := acc.Release(AnalyzeGauss, budget.MeatEpsilon, budget.MeatDelta, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	ci, err := AdasspSandwichIntervals(fit, meat, 0.95, 199, rng)
	if err != nil {
		t.Fatal(err)
	}
	if !(ci.CILower[1] < 0.5 && 0.5 < ci.CIUpper[1] && ci.CILower[1] > 0) {
		t.Fatalf("slope interval [%g, %g]", ci.CILower[1], ci.CIUpper[1])
	}
	robust, err := AdasspRobustIntervals(fit, meat, meatReceipt, 0.95, 199, rng)
	if err != nil || !(robust.CILower[1] < 0.5 && 0.5 < robust.CIUpper[1]) {
		t.Fatalf("robust slope interval %+v, %v", robust, err)
	}
	if _, err := AdasspRobustIntervals(fit, meat, Receipt{}, 0.95, 199, rng); err == nil {
		t.Fatal("a meat receipt without a noise law was accepted")
	}
	if _, err := AdasspSandwichRows(rows, fit.Coefficients[:2], bx, 2); !errors.Is(err, ErrDimension) {
		t.Fatalf("mismatched coefficients: %v", err)
	}
	// Inputs shorter than their stated shape are refused, never read past their end.
	short := Matrix{Rows: n, Cols: p + 1, Data: rows.Data[:p+1]}
	if _, err := AdasspSandwichRows(short, fit.Coefficients, bx, 2); !errors.Is(err, ErrDimension) {
		t.Fatalf("rows shorter than Rows x Cols: %v", err)
	}
	for _, m := range []Matrix{{Rows: p, Cols: p, Data: []float64{50}}, NewMatrix(1, 1), NewMatrix(p+1, p+1)} {
		if _, err := AdasspSandwichIntervals(fit, m, 0.95, 199, rng); !errors.Is(err, ErrDimension) {
			t.Fatalf("meat %dx%d of %d values: %v", m.Rows, m.Cols, len(m.Data), err)
		}
		if _, err := AdasspRobustIntervals(fit, m, meatReceipt, 0.95, 199, rng); !errors.Is(err, ErrDimension) {
			t.Fatalf("robust, meat %dx%d of %d values: %v", m.Rows, m.Cols, len(m.Data), err)
		}
	}
	if _, err := AdasspProfileIntervals(fit, n, []float64{1}, 0, 0.95); !errors.Is(err, ErrDimension) {
		t.Fatalf("a profile meat of 1 value: %v", err)
	}
	cut := fit
	cut.ReleasedXtX = Matrix{Rows: p, Cols: p, Data: fit.ReleasedXtX.Data[:1]}
	if _, err := AdasspBootstrapIntervals(cut, n, 0.95, 199, rng); !errors.Is(err, ErrDimension) {
		t.Fatalf("a released X'X of 1 value: %v", err)
	}
	if _, err := AdasspSandwichPlan(bx, 1, -1, 1e-6); err == nil {
		t.Fatal("a negative epsilon was accepted")
	}
}

// The draws check refuses what the intervals refuse, before any release: 39 draws are the
// fewest at 0.95, and a level outside (0, 1) is refused with the reason.
func TestBootstrapDrawsCheck(t *testing.T) {
	if err := BootstrapDrawsCheck(0.95, 39); err != nil {
		t.Fatalf("39 draws at 0.95: %v", err)
	}
	for _, c := range []struct {
		level float64
		draws int64
	}{{0.95, 38}, {0.95, 0}, {0.95, -1}, {1, 999}, {0, 999}, {math.NaN(), 999}} {
		if err := BootstrapDrawsCheck(c.level, c.draws); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("level %v, %d draws: got %v", c.level, c.draws, err)
		}
	}
}

// A fit rebuilt from its exported fields (saved, or made by another surface) gives the same
// intervals as the fit itself: the receipt passed to C is the exported one, every field.
func TestAFitRebuiltFromItsExportedFieldsGivesTheSameIntervals(t *testing.T) {
	const n, p = 3000, 3
	g := NewMatrix(p+1, p+1)
	for i := 0; i < n; i++ {
		x1, x2 := 0.6*math.Sin(0.37*float64(i)), 0.5*math.Cos(0.91*float64(i))
		r := []float64{1, x1, x2, 0.1 + 0.5*x1 - 0.25*x2 + 0.2*math.Sin(1.3*float64(i))}
		for a := 0; a <= p; a++ {
			for b := 0; b <= p; b++ {
				g.Data[a*(p+1)+b] += r[a] * r[b]
			}
		}
	}
	params, err := DefaultAdasspParams()
	if err != nil {
		t.Fatal(err)
	}
	params.ReleaseLabelSquare = true
	fit, err := AdasspFit(g, p, []int64{0, 1, 2}, math.Sqrt(1.61), 1, 2, 1e-6, &params, seeded(t, 5))
	if err != nil {
		t.Fatal(err)
	}
	saved := AdasspResult{Coefficients: append([]float64(nil), fit.Coefficients...),
		ReleasedXtX: Matrix{Rows: p, Cols: p, Data: append([]float64(nil), fit.ReleasedXtX.Data...)},
		ReleasedXty: append([]float64(nil), fit.ReleasedXty...), Receipt: fit.Receipt}
	want, err := AdasspBootstrapIntervals(fit, n, 0.95, 199, seeded(t, 9))
	if err != nil {
		t.Fatal(err)
	}
	got, err := AdasspBootstrapIntervals(saved, n, 0.95, 199, seeded(t, 9))
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < p; j++ {
		if got.CILower[j] != want.CILower[j] || got.CIUpper[j] != want.CIUpper[j] {
			t.Fatalf("coefficient %d: [%g, %g] against [%g, %g]", j, got.CILower[j], got.CIUpper[j],
				want.CILower[j], want.CIUpper[j])
		}
	}
	answer, err := AdasspIntervalsAtEveryN(saved, 40, 0, 0.95, 199, seeded(t, 9))
	if err != nil || len(answer.ConclusiveCode) != p {
		t.Fatalf("at n = 40: %+v, %v", answer, err)
	}
	for j, code := range answer.ConclusiveCode {
		if code < -2 || code > 1 || answer.Conclusive[j] != (code == 1) {
			t.Fatalf("coefficient %d: code %d, conclusive %v", j, code, answer.Conclusive[j])
		}
	}
	// The exported receipt is what is read: one without y'y is refused.
	edited := saved
	edited.Receipt.LabelSquareReleased = false
	if _, err := AdasspIntervalsAtEveryN(edited, n, 0, 0.95, 199, seeded(t, 9)); err == nil {
		t.Fatal("a receipt without y'y was accepted")
	}
}

// A nil generator is an error, never a panic, on the OLS intervals too.
func TestANilGeneratorIsAnErrorOnTheOLSIntervals(t *testing.T) {
	g := NewMatrix(3, 3)
	for i := 0; i < 500; i++ {
		x := math.Sin(0.3 * float64(i))
		r := []float64{1, x, 0.5*x + 0.1*math.Cos(float64(i))}
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				g.Data[a*3+b] += r[a] * r[b]
			}
		}
	}
	rel, rec, err := Release(AnalyzeGauss, g, 500, 1.5, 1, 1e-6, nil, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	params := &RegressionParams{InterceptColumn: 0, Level: 0.95}
	if _, err := OLSBootstrapIntervals(rel, rec, 2, []int64{1}, params, 199, nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("OLSBootstrapIntervals: %v", err)
	}
	if _, err := OLSIntervals(rel, rec, 2, []int64{1}, params, nil, nil, 199, nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("OLSIntervals: %v", err)
	}
}
