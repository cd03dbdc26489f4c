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
	if info.Options != 0 || info.AuditDataset != 0 || info.AuditNeighbourKind != 1 || info.Summary == "" {
		t.Fatalf("analyze_gauss options, audit pair, summary: %+v", info)
	}
	if info, err = JLRidge.Info(); err != nil || info.Options != OptionProjectionRows {
		t.Fatalf("jl_ridge options %+v, %v", info, err)
	}
	// One past the last id: no number here moves when the registry grows.
	if _, err := (listed[len(listed)-1].ID + 1).Info(); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("unknown id: %v", err)
	}
}
