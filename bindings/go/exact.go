package dpcov

/*
#include "dpcov.h"
*/
import "C"

// IntegerNoise is the integer noise law of an exact release (dpcov/exact.h).
type IntegerNoise int32

const (
	// DiscreteGaussian: P(x) proportional to exp(-x^2 / (2 s2)), s2 = NoiseParameter.
	DiscreteGaussian IntegerNoise = C.DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN
	// DiscreteLaplace: P(x) proportional to exp(-|x| / t), t = NoiseParameter.
	DiscreteLaplace IntegerNoise = C.DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE
)

// ExactGrid is the grid and the integer noise of an exact release (dpcov_exact_grid): the release
// is Unit^2 times integers.
type ExactGrid struct {
	Bits           int32
	NoiseLaw       IntegerNoise
	Unit           float64
	Norm2Bound     int64
	NoiseParameter uint64
}

func exactGridFromC(g *C.dpcov_exact_grid) ExactGrid {
	return ExactGrid{Bits: int32(g.bits), NoiseLaw: IntegerNoise(g.noise_law), Unit: float64(g.unit),
		Norm2Bound: int64(g.norm2_bound), NoiseParameter: uint64(g.noise_parameter)}
}

// ExactGridValue is the value the coordinate value (|value| <= bound) holds once an exact release
// with norm bound bound has rounded it to its grid of bits bits (dpcov_exact_grid_value): what a
// constant column holds in every row, which centring and the intercept divide by.
func ExactGridValue(bound float64, bits int32, value float64) (float64, error) {
	var out C.double
	err := call(func() C.dpcov_status {
		return C.dpcov_exact_grid_value(C.double(bound), C.int32_t(bits), C.double(value), &out)
	})
	if err != nil {
		return 0, err
	}
	return float64(out), nil
}

// ExactPlan is the dry run of an exact release of m (AnalyzeGauss or
// LaplaceSym): its receipt (numerics exact) and grid, without data or randomness.
func ExactPlan(m Mechanism, dim, n int64, bound, epsilon, delta float64,
	params *MechanismParams) (Receipt, ExactGrid, error) {
	r := newCReceipt()
	g := C.dpcov_exact_grid{struct_size: C.size_t(C.sizeof_dpcov_exact_grid)}
	err := call(func() C.dpcov_status {
		return C.dpcov_exact_plan(C.int32_t(m), C.int64_t(dim), C.int64_t(n), C.double(bound),
			C.double(epsilon), C.double(delta), params.c(), &r, &g)
	})
	if err != nil {
		return Receipt{}, ExactGrid{}, err
	}
	return receiptFromC(&r), exactGridFromC(&g), nil
}

// ExactReleaseRows releases m with exact numerics (floating-point-safe) from the rows of a,
// clipped to bound (BoundClip) or refused above it (BoundReject).
func ExactReleaseRows(m Mechanism, a Matrix, bound float64, policy BoundPolicy, epsilon, delta float64,
	params *MechanismParams, rng *RNG) (Matrix, Receipt, ExactGrid, error) {
	if err := a.check("a"); err != nil {
		return Matrix{}, Receipt{}, ExactGrid{}, err
	}
	out := NewMatrix(a.Cols, a.Cols)
	r := newCReceipt()
	g := C.dpcov_exact_grid{struct_size: C.size_t(C.sizeof_dpcov_exact_grid)}
	err := call(func() C.dpcov_status {
		return C.dpcov_exact_release_rows(C.int32_t(m), rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), C.double(bound), C.int32_t(policy), C.double(epsilon), C.double(delta),
			params.c(), rng.handle(), out.ptr(), out.ld(), &r, &g)
	})
	if err != nil {
		return Matrix{}, Receipt{}, ExactGrid{}, err
	}
	return out, receiptFromC(&r), exactGridFromC(&g), nil
}

// ExactGram is an exact accumulator (dpcov_exact_gram): the plan of one exact release and the
// exact integer Gram matrix of the rows added so far, in O(d^2) memory whatever their number. Any
// chunking and any merge give the same integers, so Release is ExactReleaseRows of all the rows.
// Not safe for concurrent use.
type ExactGram struct {
	p *C.dpcov_exact_gram
}

// NewExactGram plans the exact release of m (AnalyzeGauss or LaplaceSym) for rows of dim columns
// bounded by bound under policy (BoundClip or BoundReject) and returns an empty accumulator.
func NewExactGram(m Mechanism, dim int, bound float64, policy BoundPolicy, epsilon, delta float64,
	params *MechanismParams) (*ExactGram, error) {
	g := &ExactGram{}
	err := call(func() C.dpcov_status {
		return C.dpcov_exact_gram_create(&g.p, C.int32_t(m), C.int64_t(dim), C.double(bound),
			C.int32_t(policy), C.double(epsilon), C.double(delta), params.c())
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Close frees the accumulator; closing twice is harmless.
func (g *ExactGram) Close() {
	if g != nil {
		C.dpcov_exact_gram_destroy(&g.p)
	}
}

func (g *ExactGram) handle() *C.dpcov_exact_gram {
	if g == nil {
		return nil
	}
	return g.p
}

// AddRows adds the rows of a (bounded, rounded to the grid). On error nothing is added.
func (g *ExactGram) AddRows(a Matrix) error {
	if err := a.check("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_exact_gram_add_rows(g.handle(), rowMajor, C.int64_t(a.Rows),
			C.int64_t(a.Cols), a.ptr(), a.ld())
	})
}

// Merge adds everything src (an accumulator of the same grid) accumulated to g; src is unchanged.
func (g *ExactGram) Merge(src *ExactGram) error {
	return call(func() C.dpcov_status { return C.dpcov_exact_gram_merge(g.handle(), src.handle()) })
}

// Info is the accumulator's counters (the row count is private under add/remove neighbours).
func (g *ExactGram) Info() (GramInfo, error) {
	ci := C.dpcov_gram_info{struct_size: C.size_t(C.sizeof_dpcov_gram_info)}
	err := call(func() C.dpcov_status { return C.dpcov_exact_gram_get_info(g.handle(), &ci) })
	return gramInfoFromC(&ci), err
}

// Release releases the accumulator's mechanism from the rows added so far; each release spends
// the budget again.
func (g *ExactGram) Release(rng *RNG) (Matrix, Receipt, ExactGrid, error) {
	info, err := g.Info()
	if err != nil {
		return Matrix{}, Receipt{}, ExactGrid{}, err
	}
	out := NewMatrix(int(info.Dim), int(info.Dim))
	r := newCReceipt()
	eg := C.dpcov_exact_grid{struct_size: C.size_t(C.sizeof_dpcov_exact_grid)}
	err = call(func() C.dpcov_status {
		return C.dpcov_exact_gram_release(g.handle(), rng.handle(), out.ptr(), out.ld(), &r, &eg)
	})
	if err != nil {
		return Matrix{}, Receipt{}, ExactGrid{}, err
	}
	return out, receiptFromC(&r), exactGridFromC(&eg), nil
}
