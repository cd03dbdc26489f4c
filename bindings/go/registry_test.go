package dpcov

import (
	"errors"
	"strings"
	"testing"
)

func TestMechanismsListsTheRegistry(t *testing.T) {
	listed, err := Mechanisms()
	if err != nil || len(listed) == 0 {
		t.Fatalf("Mechanisms: %d entries, %v", len(listed), err)
	}
	names := map[string]bool{}
	for i, m := range listed {
		if i > 0 && m.ID <= listed[i-1].ID {
			t.Fatalf("ids out of order at %d", i)
		}
		if names[m.Name] || m.Name != m.ID.String() || !strings.Contains(m.Theorem, m.Proof) {
			t.Fatalf("entry %+v", m)
		}
		names[m.Name] = true
	}
	info, err := Coinpress.Info()
	if err != nil || info.PrivacyModel != PrivacyZCDP || info.Neighbours != NeighboursReplaceOne {
		t.Fatalf("coinpress %+v, %v", info, err)
	}
	info, err = AnalyzeGauss.Info()
	if err != nil || info.Numerics != NumericsSupportIdealized|NumericsSupportExact || info.Family != FamilyGram {
		t.Fatalf("analyze_gauss %+v, %v", info, err)
	}
	if info.Options != OptionCalibration || info.Inference != InferenceGuaranteedGauss|InferenceRobustGram ||
		info.AuditDataset != 0 || info.AuditNeighbourKind != 1 || info.Summary == "" {
		t.Fatalf("analyze_gauss options, audit pair, summary: %+v", info)
	}
	if info, err = JLRidge.Info(); err != nil || info.Options != OptionProjectionRows {
		t.Fatalf("jl_ridge options %+v, %v", info, err)
	}
	if info, err = OLSJL.Info(); err != nil || info.Inference != InferenceProjectionT {
		t.Fatalf("ols_jl inference %+v, %v", info, err)
	}
	// The auditor's rows: ols_jl's where its test is undecided, the fallback for the others.
	params := DefaultMechanismParams()
	params.ProjectionRows = 20
	if rows, err := AuditStandardRows(OLSJL, 3, 1, 0.5, 1e-6, &params, 50); err != nil || rows <= 50 {
		t.Fatalf("ols_jl standard rows %d, %v", rows, err)
	}
	if rows, err := AuditStandardRows(AnalyzeGauss, 3, 1, 0.5, 1e-6, nil, 50); err != nil || rows != 50 {
		t.Fatalf("analyze_gauss standard rows %d, %v", rows, err)
	}
	// 1 on the grid of B = 1.5 and 3 bits: round(8 / 1.5) = 5 units of 1.5 / 8.
	if held, err := ExactGridValue(1.5, 3, 1.0); err != nil || held != 0.9375 {
		t.Fatalf("grid value %v, %v", held, err)
	}
	if _, err := ExactGridValue(1, 3, 2); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("grid value above the bound: %v", err)
	}
	// One past the last id: no number here moves when the registry grows.
	if _, err := (listed[len(listed)-1].ID + 1).Info(); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("unknown id: %v", err)
	}
}
