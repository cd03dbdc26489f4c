package dpcov

/*
#include "dpcov.h"
*/
import "C"

// Sketch accumulates S = R [A; w I] for the Johnson-Lindenstrauss mechanisms over chunks of rows
// with global row indices, so that it does not depend on how the rows are split (dpcov/sketch.h).
// Release it with Close.
type Sketch struct {
	p *C.dpcov_sketch
	r int // projection rows: the C handle does not report them
}

// NewSketch is an empty sketch with projectionRows rows for rows of dim columns; its Gaussian
// weights derive from a key drawn from rng, which advances: two sketches never share weights.
// Partial sketches of the same release come from Partial.
func NewSketch(dim, projectionRows int, rng *RNG) (*Sketch, error) {
	s := &Sketch{r: projectionRows}
	err := call(func() C.dpcov_status {
		return C.dpcov_sketch_create(&s.p, C.int64_t(dim), C.int64_t(projectionRows), rng.handle())
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// NewSketchFromState is a sketch holding a state summed elsewhere: dataSketch = R_A A (r x d)
// summed over partial sketches, and the Gram state of the same rows (docs/distributed.md); the
// weights of its w I block from a key drawn from rng. Every row index counts as used: no rows can
// be added to it.
func NewSketchFromState(rng *RNG, gram *Gram, dataSketch Matrix) (*Sketch, error) {
	if err := dataSketch.check("dataSketch"); err != nil {
		return nil, err
	}
	s := &Sketch{r: dataSketch.Rows}
	err := call(func() C.dpcov_status {
		return C.dpcov_sketch_create_from_state(&s.p, rng.handle(), C.int64_t(dataSketch.Rows),
			gram.handle(), rowMajor, dataSketch.ptr(), dataSketch.ld())
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Partial is an empty sketch with s's shape and weights: for rows of the same release
// accumulated elsewhere (a goroutine, a chunk), added back with Merge. It draws nothing.
func (s *Sketch) Partial() (*Sketch, error) {
	p := &Sketch{r: s.r}
	err := call(func() C.dpcov_status { return C.dpcov_sketch_create_partial(&p.p, s.handle()) })
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Close frees the sketch; closing twice is harmless.
func (s *Sketch) Close() {
	if s != nil {
		C.dpcov_sketch_destroy(&s.p)
	}
}

func (s *Sketch) handle() *C.dpcov_sketch {
	if s == nil {
		return nil
	}
	return s.p
}

// AddRows adds the rows of a, whose global indices are firstIndex, firstIndex+1, ...
func (s *Sketch) AddRows(a Matrix, firstIndex int64, bound float64, policy BoundPolicy) error {
	if err := a.check("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_sketch_add_rows(s.handle(), rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), C.int64_t(firstIndex), C.double(bound), C.int32_t(policy))
	})
}

// Merge adds everything src accumulated (a Partial of s or of the same sketch: same key, d, r,
// bound; disjoint row indices).
func (s *Sketch) Merge(src *Sketch) error {
	return call(func() C.dpcov_status { return C.dpcov_sketch_merge(s.handle(), src.handle()) })
}

// Info is the counters of the rows accumulated.
func (s *Sketch) Info() (GramInfo, error) {
	ci := C.dpcov_gram_info{struct_size: C.size_t(C.sizeof_dpcov_gram_info)}
	err := call(func() C.dpcov_status { return C.dpcov_sketch_get_info(s.handle(), &ci) })
	return gramInfoFromC(&ci), err
}

// Get is the raw sketch R [A; w I] (r x d) for w >= 0. NOT private by itself.
func (s *Sketch) Get(w float64) (Matrix, error) {
	info, err := s.Info()
	if err != nil {
		return Matrix{}, err
	}
	out := NewMatrix(s.r, int(info.Dim))
	err = call(func() C.dpcov_status {
		return C.dpcov_sketch_get(s.handle(), C.double(w), rowMajor, out.ptr(), out.ld())
	})
	if err != nil {
		return Matrix{}, err
	}
	return out, nil
}

// Gram is the Gram matrix of the rows accumulated, kept alongside the sketch.
func (s *Sketch) Gram() (Matrix, error) {
	info, err := s.Info()
	if err != nil {
		return Matrix{}, err
	}
	out := NewMatrix(int(info.Dim), int(info.Dim))
	err = call(func() C.dpcov_status {
		return C.dpcov_sketch_get_gram(s.handle(), rowMajor, out.ptr(), out.ld())
	})
	if err != nil {
		return Matrix{}, err
	}
	return out, nil
}

// SketchRelease is the output of Sketch.Release.
type SketchRelease struct {
	Matrix  Matrix // S^T S / r, d x d
	Sketch  Matrix // the released S, r x d
	Receipt Receipt
}

// ProjectionRows is the sketch's r.
func (s *Sketch) ProjectionRows() int { return s.r }

// Release releases JLRidge, JLRidgeSigmaMin or OLSJL from the accumulated rows. params may be nil
// (the defaults); its ProjectionRows is set to the sketch's r. OLSJL may refuse (ErrRefused).
func (s *Sketch) Release(m Mechanism, epsilon, delta float64, params *MechanismParams,
	rng *RNG) (SketchRelease, error) {
	info, err := s.Info()
	if err != nil {
		return SketchRelease{}, err
	}
	p := DefaultMechanismParams()
	if params != nil {
		p = *params
	}
	p.ProjectionRows = int64(s.r)
	d := int(info.Dim)
	out := SketchRelease{Matrix: NewMatrix(d, d), Sketch: NewMatrix(s.r, d)}
	r := newCReceipt()
	err = call(func() C.dpcov_status {
		return C.dpcov_sketch_release(C.int32_t(m), s.handle(), C.double(epsilon), C.double(delta),
			p.c(), rng.handle(), rowMajor, out.Sketch.ptr(), out.Sketch.ld(), out.Matrix.ptr(),
			out.Matrix.ld(), &r)
	})
	if err != nil {
		return SketchRelease{}, err
	}
	out.Receipt = receiptFromC(&r)
	return out, nil
}
