package dpcov

import "testing"

// The group-privacy budgets of the proof's worked examples (proofs/unit_group_privacy.md), and a
// replace-one mechanism's refusal of units added or removed.
func TestUnitRowBudgetAndRho(t *testing.T) {
	eps, delta, err := UnitRowBudget(NeighbourAddRemove, NeighbourAddRemove, 5, 1, 1e-6)
	if err != nil || eps > 0.2 || eps < 0.19999999999999 || delta < 1.2885124e-7 || delta > 1.2885125e-7 {
		t.Fatalf("UnitRowBudget = %v, %v, %v", eps, delta, err)
	}
	rho, err := UnitRowRho(NeighbourReplaceOne, NeighbourReplaceOne, 4, 0.5)
	if err != nil || rho != 0.5/16 {
		t.Fatalf("UnitRowRho = %v, %v", rho, err)
	}
	if _, err := UnitRowRho(NeighbourAddRemove, NeighbourReplaceOne, 4, 0.5); err == nil {
		t.Fatal("a replace-one mechanism took units added or removed")
	}
}
