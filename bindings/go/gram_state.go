package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// ExportState is the accumulator's whole state as bytes (dpcov_gram_export_state): versioned,
// checksummed and little-endian, with the exact integers (or the floating-point sums), the
// counters, the drop policy and the bounding spec. ImportState in another process continues it,
// and merged imported states of partitions equal one accumulator of all the rows (bit for bit
// with exact numerics). Not a release: keep it inside the rows' trust boundary.
func (g *Gram) ExportState() ([]byte, error) {
	var size C.size_t
	if err := call(func() C.dpcov_status {
		return C.dpcov_gram_export_state(g.handle(), nil, 0, &size)
	}); err != nil {
		return nil, err
	}
	buf := make([]byte, int(size))
	if err := call(func() C.dpcov_status {
		return C.dpcov_gram_export_state(g.handle(), unsafe.Pointer(&buf[0]), size, &size)
	}); err != nil {
		return nil, err
	}
	return buf[:int(size)], nil
}

// ImportState is the accumulator of a state written by ExportState (dpcov_gram_import_state).
// Bytes that are not such a state, of another format or library version, truncated or corrupted
// are refused.
func ImportState(state []byte) (*Gram, error) {
	var p unsafe.Pointer
	if len(state) > 0 {
		p = unsafe.Pointer(&state[0])
	}
	g := &Gram{}
	if err := call(func() C.dpcov_status {
		return C.dpcov_gram_import_state(&g.p, p, C.size_t(len(state)))
	}); err != nil {
		return nil, err
	}
	return g, nil
}
