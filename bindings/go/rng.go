package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// RNG is the random generator every sampler and mechanism takes explicitly (PCG64, not a
// cryptographic generator; dpcov/rng.h). Release it with Close.
type RNG struct {
	p *C.dpcov_rng
}

// NewRNGFromEntropy is a generator keyed by the operating system's entropy: the one to use for
// private releases.
func NewRNGFromEntropy() (*RNG, error) {
	r := &RNG{}
	if err := call(func() C.dpcov_status { return C.dpcov_rng_create_from_entropy(&r.p) }); err != nil {
		return nil, err
	}
	return r, nil
}

// NewRNGSeeded is a reproducible generator from (seed, stream), for experiments and tests only:
// anyone who knows the seed knows the noise. Receipts record that the seed was fixed.
func NewRNGSeeded(seed, stream uint64) (*RNG, error) {
	r := &RNG{}
	err := call(func() C.dpcov_status {
		return C.dpcov_rng_create_seeded(&r.p, C.uint64_t(seed), C.uint64_t(stream))
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Close frees the generator. Closing twice is harmless; a closed generator fails every call with
// ErrNullPointer.
func (r *RNG) Close() {
	if r != nil {
		C.dpcov_rng_destroy(&r.p)
	}
}

func (r *RNG) handle() *C.dpcov_rng {
	if r == nil {
		return nil
	}
	return r.p
}

// Substream is the independent generator number index of r (e.g. the stream of data row index),
// derived from r's key alone; r is not changed.
func (r *RNG) Substream(index uint64) (*RNG, error) {
	s := &RNG{}
	err := call(func() C.dpcov_status {
		return C.dpcov_rng_substream(&s.p, r.handle(), C.uint64_t(index))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Uint64 is the next 64 uniformly distributed bits.
func (r *RNG) Uint64() (uint64, error) {
	var v C.uint64_t
	err := call(func() C.dpcov_status { return C.dpcov_rng_next_u64(r.handle(), &v) })
	return uint64(v), err
}

// SeedFixed reports whether r descends from an explicit seed (true) or from OS entropy.
func (r *RNG) SeedFixed() (bool, error) {
	var v C.int32_t
	err := call(func() C.dpcov_status { return C.dpcov_rng_seed_fixed(r.handle(), &v) })
	return v != 0, err
}

// RNGStateSize is the number of bytes of a saved generator state.
func RNGStateSize() int { return int(C.dpcov_rng_state_size()) }

// SaveState is the complete state of r in a portable format. It reveals every future output:
// keep it secret when r is used for a release.
func (r *RNG) SaveState() ([]byte, error) {
	buf := make([]byte, RNGStateSize())
	err := call(func() C.dpcov_status {
		return C.dpcov_rng_state_save(r.handle(), unsafe.Pointer(&buf[0]), C.size_t(len(buf)))
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// RestoreState puts r exactly in a state returned by SaveState.
func (r *RNG) RestoreState(state []byte) error {
	var p unsafe.Pointer
	if len(state) > 0 {
		p = unsafe.Pointer(&state[0])
	}
	return call(func() C.dpcov_status {
		return C.dpcov_rng_state_restore(r.handle(), p, C.size_t(len(state)))
	})
}
