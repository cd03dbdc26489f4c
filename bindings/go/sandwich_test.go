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
