package dpcov

import (
	"errors"
	"testing"
)

// Privacy units: at most MaxRowsPerUnit rows of each unit kept, the rest counted; a unit id that
// goes back refused; a release only once the last unit is finished, with n the number of units.
func TestGramKeepsAtMostKRowsPerUnitAndReleasesWithNTheUnits(t *testing.T) {
	g, err := NewBoundedGram(2, RowBounding{Bound: 1, Mechanism: AnalyzeGauss, Epsilon: 1,
		Delta: 1e-6, MaxRowsPerUnit: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	rng, err := NewRNGSeeded(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	rows := Matrix{Rows: 5, Cols: 2, Data: []float64{0.1, 0.2, 0.3, 0.1, 0.2, 0.2, 0.1, 0.1, 0.4, 0.3}}
	if _, err := g.AddUnitRows(rows, []int64{7, 7, 7, 8, 9}, rng); err != nil {
		t.Fatal(err)
	}
	if _, err := g.AddUnitRows(Matrix{Rows: 1, Cols: 2, Data: []float64{0, 0}}, []int64{8}, rng); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a closed unit again: %v", err)
	}
	if _, _, err := g.Release(AnalyzeGauss, 1, 1e-6, nil, rng); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("release with an open unit: %v", err)
	}
	if err := g.FinishUnits(); err != nil {
		t.Fatal(err)
	}
	info, err := g.Info()
	if err != nil || info.Units != 3 || info.Truncated != 1 || info.Rows != 4 {
		t.Fatalf("info %+v, %v", info, err)
	}
	_, receipt, err := g.Release(AnalyzeGauss, 1, 1e-6, nil, rng)
	if err != nil || receipt.N != 3 || receipt.MaxRowsPerUnit != 2 {
		t.Fatalf("receipt %+v, %v", receipt, err)
	}
}

// The registry names the mechanisms with a unit-level proof; the rest are refused on units, with
// the reason.
func TestRegistryNamesTheMechanismsWithAUnitProof(t *testing.T) {
	mechanisms, err := Mechanisms()
	if err != nil {
		t.Fatal(err)
	}
	with := map[string]bool{}
	for _, m := range mechanisms {
		if m.UnitProof != "" {
			with[m.Name] = true
		}
		// Each entry says where its unit proof is or why it refuses units, not both.
		if (m.UnitProof == "") == (m.UnitRefusal == "") {
			t.Errorf("%s: unit proof %q, unit refusal %q", m.Name, m.UnitProof, m.UnitRefusal)
		}
	}
	want := []string{"analyze_gauss", "laplace_sym", "inverse_gauss", "wishart_additive", "jl_ridge",
		"inverse_wishart", "iev", "kt_rank1", "adassp", "dly", "coinpress", "coinpress_mean", "private_bound"}
	ok := len(with) == len(want)
	for _, name := range want {
		ok = ok && with[name]
	}
	if !ok {
		t.Fatalf("mechanisms with a unit proof: %v", with)
	}
}

// AuditUnits: the release of units of 60 rows not flagged, the rows-only variant flagged (alpha
// 1e-6 per audit, fixed seed); a mechanism without a unit proof refused.
func TestAuditUnitsPassesTheReleaseAndFlagsRowsOnlyBounding(t *testing.T) {
	ap := DefaultAuditParams()
	ap.FirstCheckpoint = 250
	ap.Seed = 5
	for _, broken := range []bool{false, true} {
		res, err := AuditUnits(WishartAdditive, 3, 60, 1, 0.9, 1e-6, broken, nil, &ap)
		if err != nil || (res.Verdict == AuditViolation) != broken {
			t.Fatalf("broken %v: %+v %v", broken, res, err)
		}
	}
	if _, err := AuditUnits(OLSJL, 3, 2, 1, 0.9, 1e-6, false, nil, &ap); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("ols_jl: %v", err)
	}
}

// AdaSSP at the level of privacy units: every noise scale k times the row-level one, and k on
// the receipt (proofs/adassp_units.md).
func TestAdasspPlanOfUnitsScalesTheNoiseByK(t *testing.T) {
	params, err := DefaultAdasspParams()
	if err != nil {
		t.Fatal(err)
	}
	row, err := AdasspPlan(3, 1.5, 1, 1, 1e-6, &params)
	if err != nil {
		t.Fatal(err)
	}
	params.MaxRowsPerUnit = 4
	unit, err := AdasspPlan(3, 1.5, 1, 1, 1e-6, &params)
	if err != nil || unit.MaxRowsPerUnit != 4 || row.MaxRowsPerUnit != 0 {
		t.Fatalf("receipts %+v %+v, %v", row, unit, err)
	}
	if r := unit.SigmaGram / (4 * row.SigmaGram); r < 1-1e-13 || r > 1+1e-13 {
		t.Fatalf("sigma_gram ratio %v", r)
	}
	params.MaxRowsPerUnit = -1
	if _, err := AdasspPlan(3, 1.5, 1, 1, 1e-6, &params); err == nil {
		t.Fatal("k = -1 accepted")
	}
}
