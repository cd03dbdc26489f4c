package dpcov

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestCoinpressMeanReleaseEstimatesTheMeanAndRefusesBadPriors(t *testing.T) {
	rows := data(2000, 3)
	for i := 0; i < rows.Rows; i++ {
		rows.Data[3*i] += 5
	}
	params := DefaultCoinpressMeanParams()
	if params.Radius >= 0 || params.Steps != 3 || params.Beta != 0.01 {
		t.Fatalf("defaults %+v", params)
	}
	params.Radius = 20
	mean, rec, err := CoinpressMeanRelease(rows, nil, params, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(mean) != 3 || math.Abs(mean[0]-5) > 0.5 || !rec.SeedFixed || len(rec.StepSigma) != 3 {
		t.Fatalf("mean %v, receipt %+v", mean, rec)
	}
	plan, err := CoinpressMeanPlan(2000, 3, params)
	if err != nil || plan.StepSigma[2] != rec.StepSigma[2] || plan.StepClipRadius[0] != rec.StepClipRadius[0] {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	params.Radius = -1
	if _, _, err := CoinpressMeanRelease(rows, nil, params, seeded(t, 3)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative radius: %v", err)
	}
	params.Radius = 1
	if _, _, err := CoinpressMeanRelease(rows, []float64{1}, params, seeded(t, 3)); !errors.Is(err, ErrDimension) {
		t.Fatalf("short centre: %v", err)
	}
}

func TestCoinpressCentringSplit(t *testing.T) {
	m, c, err := CoinpressCentringSplit(0.5)
	if err != nil || m != 0.0625 || c != 0.4375 {
		t.Fatalf("split %v %v, %v", m, c, err)
	}
	if _, _, err := CoinpressCentringSplit(-1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative rho: %v", err)
	}
}

// A CoinPress mean session over rows in two partials, one carried as bytes, releases what
// CoinpressMeanRelease releases with the same generator (the receipt exactly, the mean to the
// rounding of the compensated sums), and refuses a centre of the wrong length.
func TestCoinpressMeanSessionEqualsTheInMemoryRelease(t *testing.T) {
	rows := data(60, 3)
	centre := []float64{1, 0, -1}
	params := DefaultCoinpressMeanParams()
	params.Radius = 10
	want, wantReceipt, err := CoinpressMeanRelease(rows, centre, params, seeded(t, 9))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewCoinpressMeanSession(60, 3, []float64{1}, params, seeded(t, 9)); !errors.Is(err, ErrDimension) {
		t.Fatalf("short centre: %v", err)
	}
	s, err := NewCoinpressMeanSession(60, 3, centre, params, seeded(t, 9))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for done, _ := s.Done(); !done; done, _ = s.Done() {
		merged, _ := s.Partial()
		first := Matrix{Rows: 25, Cols: 3, Data: rows.Data[:75]}
		rest := Matrix{Rows: 35, Cols: 3, Data: rows.Data[75:]}
		if err := merged.AddRows(first); err != nil {
			t.Fatal(err)
		}
		mergeThroughBytes(t, s, merged, rest)
		if err := s.FinishPass(merged); err != nil {
			t.Fatal(err)
		}
	}
	// C writes the session's d values: any other dim is refused before C writes a slice of it.
	for _, dim := range []int{1, 2, 4} {
		if _, _, err := s.CoinpressMeanResult(dim); !errors.Is(err, ErrDimension) {
			t.Fatalf("CoinpressMeanResult(%d) of a d = 3 session: %v", dim, err)
		}
		if _, _, err := s.CoinpressResult(dim); !errors.Is(err, ErrDimension) {
			t.Fatalf("CoinpressResult(%d) of a d = 3 session: %v", dim, err)
		}
	}
	got, receipt, err := s.CoinpressMeanResult(3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(receipt, wantReceipt) {
		t.Fatalf("receipt %+v, want %+v", receipt, wantReceipt)
	}
	for k := range got {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Fatalf("entry %d: %g, want %g", k, got[k], want[k])
		}
	}
}

// runAll runs every pass of s over rows in one partial.
func runAll(t *testing.T, s *RowSession, rows Matrix) {
	t.Helper()
	for done, _ := s.Done(); !done; done, _ = s.Done() {
		merged, _ := s.Partial()
		if err := merged.AddRows(rows); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishPass(merged); err != nil {
			t.Fatal(err)
		}
	}
}

// A CoinPress session centred on a mean session's release equals CoinpressMeanRelease then
// CoinpressRelease of the rows centred on that mean, from one generator; the mean session hands
// its generator on once only.
func TestCoinpressCentredSessionEqualsTheInMemoryPair(t *testing.T) {
	rows := data(60, 3)
	mp := DefaultCoinpressMeanParams()
	mp.Radius = 10
	cp := DefaultCoinpressParams()
	cp.KBound = 4
	rng := seeded(t, 11)
	mean, _, err := CoinpressMeanRelease(rows, nil, mp, rng)
	if err != nil {
		t.Fatal(err)
	}
	centred := NewMatrix(60, 3)
	for i := 0; i < 60; i++ {
		for j := 0; j < 3; j++ {
			centred.Set(i, j, rows.At(i, j)-mean[j])
		}
	}
	want, wantReceipt, err := CoinpressRelease(centred, cp, rng)
	rng.Close()
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewCoinpressMeanSession(60, 3, nil, mp, seeded(t, 11))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	runAll(t, m, rows)
	s, err := NewCoinpressCentredSession(m, cp)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := NewCoinpressCentredSession(m, cp); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a second centred session: %v", err)
	}
	runAll(t, s, rows)
	got, receipt, err := s.CoinpressResult(3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(receipt, wantReceipt) || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v %+v, want %v %+v", got, receipt, want, wantReceipt)
	}
}
