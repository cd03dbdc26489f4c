package dpcov

import (
	"math"
	"testing"
)

// mergeThroughBytes merges into `merged` a partial of the session's pending pass over `rows`,
// carried as bytes as a worker would send it.
func mergeThroughBytes(t *testing.T, s *RowSession, merged *RowPartial, rows Matrix) {
	t.Helper()
	p, _ := s.Partial()
	if err := p.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	b, _ := p.Bytes()
	p.Close()
	back, err := ImportRowPartial(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := merged.Merge(back); err != nil {
		t.Fatal(err)
	}
	back.Close()
}

// A Dong-Liang-Yi session over rows in three partials, one carried as bytes, releases what
// DlyRelease releases with the same generator (the receipt exactly, the matrix to the rounding
// of the compensated sums), and takes its generator.
func TestDlySessionEqualsTheInMemoryRelease(t *testing.T) {
	rows := data(60, 3)
	params := DefaultDlyParams()
	params.Rho = 1
	rng, _ := NewRNGSeeded(7, 0)
	want, wantReceipt, err := DlyRelease(rows, params, rng)
	rng.Close()
	if err != nil {
		t.Fatal(err)
	}
	rng, _ = NewRNGSeeded(7, 0)
	s, err := NewDlySession(60, 3, params, rng)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rng.handle() != nil {
		t.Fatal("the session did not take the generator")
	}
	for done, _ := s.Done(); !done; done, _ = s.Done() {
		merged, err := s.Partial()
		if err != nil {
			t.Fatal(err)
		}
		for part := 0; part < 3; part++ {
			chunk := NewMatrix(20, 3)
			copy(chunk.Data, rows.Data[part*60:(part+1)*60])
			mergeThroughBytes(t, s, merged, chunk)
		}
		if err := s.FinishPass(merged); err != nil {
			t.Fatal(err)
		}
	}
	got, receipt, err := s.DlyResult(3)
	if err != nil {
		t.Fatal(err)
	}
	if receipt != wantReceipt {
		t.Fatalf("receipt %+v, want %+v", receipt, wantReceipt)
	}
	for k := range got.Data {
		if math.Abs(got.Data[k]-want.Data[k]) > 1e-12 {
			t.Fatalf("entry %d: %g, want %g", k, got.Data[k], want.Data[k])
		}
	}
	if _, err := ImportRowPartial([]byte("not a partial")); err == nil {
		t.Fatal("bad bytes imported")
	}
}
