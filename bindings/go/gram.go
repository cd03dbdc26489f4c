package dpcov

/*
#include "dpcov.h"
*/
import "C"

// BoundPolicy says what happens to a row whose Euclidean norm exceeds the bound B.
type BoundPolicy int32

const (
	// BoundClip scales the row down to norm B (counted in GramInfo.Clipped).
	BoundClip BoundPolicy = C.DPCOV_BOUND_CLIP
	// BoundReject refuses the whole chunk with ErrNormBound.
	BoundReject BoundPolicy = C.DPCOV_BOUND_REJECT
	// BoundDrop leaves the row out (counted in GramInfo.Dropped); n then depends on the data.
	BoundDrop BoundPolicy = C.DPCOV_BOUND_DROP
)

// GramInfo holds the counters of a Gram accumulator or sketch.
type GramInfo struct {
	Dim     int64   // number of columns d
	Rows    int64   // rows included (clipped rows included, dropped rows not)
	Clipped int64   // rows scaled down to norm B
	Dropped int64   // rows left out under BoundDrop
	Bound   float64 // the bound B of every included row; 0 before the first chunk
	// Numerics of a release from the accumulator: 1 exact (NewBoundedGram naming an exact
	// mechanism), 0 idealized. Read only: ignored by NewGramFromState.
	Numerics int32
	// With privacy units (RowBounding.MaxRowsPerUnit > 0): the units closed so far and the rows
	// left out by the limit of k rows per unit, both curator-only. Read only.
	Units     int64
	Truncated int64
}

func (g GramInfo) c() C.dpcov_gram_info {
	return C.dpcov_gram_info{
		struct_size: C.size_t(C.sizeof_dpcov_gram_info),
		dim:         C.int64_t(g.Dim), rows: C.int64_t(g.Rows), clipped: C.int64_t(g.Clipped),
		dropped: C.int64_t(g.Dropped), bound: C.double(g.Bound),
	}
}

func gramInfoFromC(c *C.dpcov_gram_info) GramInfo {
	return GramInfo{Dim: int64(c.dim), Rows: int64(c.rows), Clipped: int64(c.clipped),
		Dropped: int64(c.dropped), Bound: float64(c.bound), Numerics: int32(c.numerics),
		Units: int64(c.units), Truncated: int64(c.truncated)}
}

// Gram accumulates G = A^T A over chunks of bounded rows (dpcov/gram.h). Release it with Close.
type Gram struct {
	p *C.dpcov_gram
}

// NewGram is an empty accumulator for rows of dim columns.
func NewGram(dim int) (*Gram, error) {
	g := &Gram{}
	if err := call(func() C.dpcov_status { return C.dpcov_gram_create(&g.p, C.int64_t(dim)) }); err != nil {
		return nil, err
	}
	return g, nil
}

// NewGramFromState is an accumulator holding a state summed elsewhere (e.g. over machines): the
// matrix g and the counters of info (docs/distributed.md).
func NewGramFromState(info GramInfo, g Matrix) (*Gram, error) {
	if err := g.checkSquare("g"); err != nil {
		return nil, err
	}
	out := &Gram{}
	ci := info.c()
	err := call(func() C.dpcov_status {
		return C.dpcov_gram_create_from_state(&out.p, &ci, rowMajor, g.ptr(), g.ld())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Close frees the accumulator; closing twice is harmless.
func (g *Gram) Close() {
	if g != nil {
		C.dpcov_gram_destroy(&g.p)
	}
}

func (g *Gram) handle() *C.dpcov_gram {
	if g == nil {
		return nil
	}
	return g.p
}

// AddRows adds the rows of a, each bounded in norm by bound under policy. On error nothing is
// added.
func (g *Gram) AddRows(a Matrix, bound float64, policy BoundPolicy) error {
	if err := a.check("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_gram_add_rows(g.handle(), rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), C.double(bound), C.int32_t(policy))
	})
}

// Merge adds everything src accumulated to g; src is unchanged.
func (g *Gram) Merge(src *Gram) error {
	return call(func() C.dpcov_status { return C.dpcov_gram_merge(g.handle(), src.handle()) })
}

// Info is the accumulator's counters.
func (g *Gram) Info() (GramInfo, error) {
	ci := C.dpcov_gram_info{struct_size: C.size_t(C.sizeof_dpcov_gram_info)}
	err := call(func() C.dpcov_status { return C.dpcov_gram_get_info(g.handle(), &ci) })
	return gramInfoFromC(&ci), err
}

// Matrix is G = A^T A, d x d, exactly symmetric.
func (g *Gram) Matrix() (Matrix, error) {
	info, err := g.Info()
	if err != nil {
		return Matrix{}, err
	}
	m := NewMatrix(int(info.Dim), int(info.Dim))
	err = call(func() C.dpcov_status {
		return C.dpcov_gram_get_matrix(g.handle(), rowMajor, m.ptr(), m.ld())
	})
	if err != nil {
		return Matrix{}, err
	}
	return m, nil
}
