package dpcov

import (
	"bytes"
	"errors"
	"testing"
)

// States of partitions, exported, imported and merged, release exactly what one accumulator of
// all the rows releases; a corrupted state or one of another format version is refused.
func TestMergedImportedStatesReleaseAsOneAccumulator(t *testing.T) {
	spec := RowBounding{Bound: 1, Mechanism: AnalyzeGauss, Epsilon: 1, Delta: 1e-6}
	rows := data(60, 3)
	whole, err := NewBoundedGram(3, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if _, err := whole.AddRawRows(rows); err != nil {
		t.Fatal(err)
	}
	var merged *Gram
	for part := 0; part < 3; part++ {
		p, _ := NewBoundedGram(3, spec)
		chunk := NewMatrix(20, 3)
		copy(chunk.Data, rows.Data[part*60:(part+1)*60])
		if _, err := p.AddRawRows(chunk); err != nil {
			t.Fatal(err)
		}
		state, err := p.ExportState()
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		imported, err := ImportState(state)
		if err != nil {
			t.Fatal(err)
		}
		if merged == nil {
			merged = imported
			continue
		}
		if err := merged.Merge(imported); err != nil {
			t.Fatal(err)
		}
		imported.Close()
	}
	defer merged.Close()
	a, _ := whole.ExportState()
	b, _ := merged.ExportState()
	if !bytes.Equal(a, b) {
		t.Fatal("merged state differs from the single accumulator's")
	}
	x, _, err := whole.Release(AnalyzeGauss, 1, 1e-6, nil, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	y, _, err := merged.Release(AnalyzeGauss, 1, 1e-6, nil, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.Data {
		if x.Data[i] != y.Data[i] {
			t.Fatalf("entry %d: %v != %v", i, x.Data[i], y.Data[i])
		}
	}
	bad := append([]byte(nil), a...)
	bad[40] ^= 1
	if _, err := ImportState(bad); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("corrupted state: %v", err)
	}
	bad = append([]byte(nil), a...)
	bad[8] = 9
	if _, err := ImportState(bad); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("another format version: %v", err)
	}
	if _, err := ImportState(nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("no bytes: %v", err)
	}
}
