package dpcov

import "testing"

// A plan released from a matrix draws as the one-shot release from the same seed, with the
// constants it was checked with.
func TestKeptPlanReleasesAMatrixAsTheOneShotRelease(t *testing.T) {
	gram := NewMatrix(2, 2)
	gram.Set(0, 0, 3)
	gram.Set(1, 1, 2)
	gram.Set(0, 1, 0.5)
	gram.Set(1, 0, 0.5)
	plan, err := NewPlan(AnalyzeGauss, false, 2, 10, 1, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	a, _ := NewRNGSeeded(7, 0)
	defer a.Close()
	b, _ := NewRNGSeeded(7, 0)
	defer b.Close()
	planned, pr, err := plan.ReleaseMatrix(gram, a)
	if err != nil {
		t.Fatal(err)
	}
	direct, dr, err := Release(AnalyzeGauss, gram, 10, 1, 1, 1e-6, nil, b)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range planned.Data {
		if v != direct.Data[i] {
			t.Fatalf("entry %d: planned %g, one-shot %g", i, v, direct.Data[i])
		}
	}
	if pr.Sigma != dr.Sigma || pr.N != 10 {
		t.Fatalf("receipts differ: sigma %g vs %g, n %d", pr.Sigma, dr.Sigma, pr.N)
	}
	exact, err := NewPlan(AnalyzeGauss, true, 2, 10, 1, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exact.Close()
	if _, _, err := exact.ReleaseMatrix(gram, a); err == nil {
		t.Fatal("an exact plan released a matrix")
	}
}
