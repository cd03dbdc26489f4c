package dpcov

/*
#include <stdlib.h>
#include "dpcov.h"
*/
import "C"

import (
	"math"
	"unsafe"
)

// RowBounding says how a bounded accumulator (NewBoundedGram) bounds each raw row before it is
// accumulated: the library's own bounding (dpcov_row_bounding), so that no caller bounds rows.
// A raw row is [x] or, with LabelBound > 0, [x, y] (y last).
type RowBounding struct {
	Bound      float64     // B on the Euclidean norm of x (ignored with column bounds)
	Policy     BoundPolicy // for x and the label; BoundDrop is refused under replace-one
	Neighbour  int32       // 0 replace-one (default), 1 add/remove: the relation of the release
	Constant   float64     // > 0: a leading column holding it, rows [c, x]; 0: none
	Lower      []float64   // public per-column ranges (both or neither): rows [1, z]
	Upper      []float64
	LabelBound float64 // > 0: the last column is a label with |y| <= LabelBound; 0: none
	// The release the rows are for. With AnalyzeGauss or LaplaceSym the
	// accumulator has exact (floating-point-safe) numerics by default: the rows are rounded to
	// that release's grid and summed in exact integers, and Gram.Release with the same Epsilon,
	// Delta and neighbour relation releases with integer noise (Receipt.Numerics 1). 0 names
	// none: the floating-point accumulator, released with idealized numerics.
	Mechanism Mechanism
	Epsilon   float64 // the release's epsilon (read with an exact Mechanism)
	Delta     float64 // the release's delta (read with an exact Mechanism)
	Idealized bool    // opt out of exact numerics: floating-point Gram and noise
	// > 0: the rows belong to privacy units (AddUnitRows) and at most this many rows of each
	// unit are kept, chosen at random with the release's generator; the accumulator's bound is
	// then the unit bound and the neighbour relation is on units. 0: every row is its own unit.
	MaxRowsPerUnit int64
	// Balanced rows [1, x sqrt(d) / B, y / B_y] (Constant 0 or 1): the same whatever the units
	// of x and y, so that a regression on them does not depend on the units; CoefficientFactors
	// maps it back (proofs/balanced_rows.md).
	Balanced bool
}

// RowRefusal names the row a bounded accumulator refused, as data: its index in the chunk, and
// for a row over its bound under BoundReject whether the label was over and the measure (the norm
// of x or |y|; +Inf above the largest double).
type RowRefusal struct {
	Row   int64 // -1 when the failure names no row
	Label bool
	Norm  float64
}

// cSpec is the C spec with the bounds copied to C memory (cgo forbids Go pointers inside a
// struct passed to C); release frees them.
func (b RowBounding) cSpec(cols int) (spec C.dpcov_row_bounding, release func(), err error) {
	release = func() {}
	if err = call(func() C.dpcov_status { return C.dpcov_row_bounding_init(&spec, C.size_t(unsafe.Sizeof(spec))) }); err != nil {
		return spec, release, err
	}
	spec.bound = C.double(b.Bound)
	spec.policy = C.int32_t(b.Policy)
	spec.neighbour = C.int32_t(b.Neighbour)
	spec.constant = C.double(b.Constant)
	spec.label_bound = C.double(b.LabelBound)
	spec.mechanism = C.int32_t(b.Mechanism)
	spec.epsilon, spec.delta = C.double(b.Epsilon), C.double(b.Delta)
	spec.max_rows_per_unit = C.int64_t(b.MaxRowsPerUnit)
	if b.Balanced {
		spec.balanced = 1
	}
	if b.Idealized {
		spec.numerics = C.DPCOV_NUMERICS_IDEALIZED
	}
	if b.Lower == nil && b.Upper == nil {
		return spec, release, nil
	}
	if len(b.Lower) != cols || len(b.Upper) != cols || cols < 1 {
		return spec, release, argError(ErrDimension, "Lower and Upper need %d values each, got %d and %d",
			cols, len(b.Lower), len(b.Upper))
	}
	bytes := C.size_t(cols) * C.size_t(unsafe.Sizeof(float64(0)))
	lower, upper := (*C.double)(C.malloc(bytes)), (*C.double)(C.malloc(bytes))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(lower)), cols), b.Lower)
	copy(unsafe.Slice((*float64)(unsafe.Pointer(upper)), cols), b.Upper)
	spec.lower, spec.upper = lower, upper
	release = func() {
		C.free(unsafe.Pointer(lower))
		C.free(unsafe.Pointer(upper))
	}
	return spec, release, nil
}

// CoefficientFactors are the public factors that map a regression on rows of cols raw columns
// (label included) bounded as b says back to the raw rows' units
// (dpcov_row_bounding_coefficient_factors): one per regressor, the constant's first, by which
// coefficients, standard errors and interval ends are multiplied. Balanced: B_y for the
// intercept and sqrt(d) B_y / B for each slope; otherwise the constant and ones.
func CoefficientFactors(cols int, b RowBounding) ([]float64, error) {
	spec, release, err := b.cSpec(cols)
	defer release()
	if err != nil {
		return nil, err
	}
	count := cols
	if b.Constant == 0 {
		count--
	}
	if b.LabelBound == 0 {
		count++
	}
	if count < 1 {
		return nil, argError(ErrDimension, "rows of %d columns have no regressor", cols)
	}
	factors := make([]float64, count)
	if err := call(func() C.dpcov_status {
		return C.dpcov_row_bounding_coefficient_factors(&spec, C.int64_t(cols),
			(*C.double)(unsafe.Pointer(&factors[0])), C.int64_t(count))
	}); err != nil {
		return nil, err
	}
	return factors, nil
}

// NewBoundedGram is an empty accumulator for raw rows of cols columns (label included) that the
// library bounds as b says (dpcov_gram_create_bounded); add them with AddRawRows. Its dimension
// and bound (Info) are those of the bounded rows.
func NewBoundedGram(cols int, b RowBounding) (*Gram, error) {
	return newBoundedGram(cols, b, func(out **C.dpcov_gram, spec *C.dpcov_row_bounding) C.dpcov_status {
		return C.dpcov_gram_create_bounded(out, C.int64_t(cols), spec)
	})
}

// newBoundedGram makes an accumulator with create from b's C spec.
func newBoundedGram(cols int, b RowBounding,
	create func(**C.dpcov_gram, *C.dpcov_row_bounding) C.dpcov_status) (*Gram, error) {
	spec, release, err := b.cSpec(cols)
	defer release()
	if err != nil {
		return nil, err
	}
	g := &Gram{}
	if err := call(func() C.dpcov_status { return create(&g.p, &spec) }); err != nil {
		return nil, err
	}
	return g, nil
}

// ReleaseRows releases m from the raw rows a bounded as b says, through one bounded accumulator
// made for this release (b's Mechanism, Epsilon, Delta and Neighbour are taken from the
// arguments): with exact numerics for AnalyzeGauss and LaplaceSym unless
// b.Idealized, idealized for every other mechanism; the receipt says which. A refused row comes
// back as the RowRefusal.
func ReleaseRows(m Mechanism, a Matrix, b RowBounding, epsilon, delta float64,
	params *MechanismParams, rng *RNG) (Matrix, Receipt, RowRefusal, error) {
	b.Mechanism, b.Epsilon, b.Delta = m, epsilon, delta
	if params != nil {
		b.Neighbour = params.Neighbour
	}
	g, err := NewBoundedGram(a.Cols, b)
	if err != nil {
		return Matrix{}, Receipt{}, RowRefusal{Row: -1}, err
	}
	defer g.Close()
	if refusal, err := g.AddRawRows(a); err != nil {
		return Matrix{}, Receipt{}, refusal, err
	}
	out, receipt, err := g.Release(m, epsilon, delta, params, rng)
	return out, receipt, RowRefusal{Row: -1}, err
}

// AddRawRows bounds the raw rows of a as the accumulator's RowBounding says and adds them
// (dpcov_gram_add_raw_rows); on failure the accumulator is unchanged and the refusal names the
// row, if one was at fault.
func (g *Gram) AddRawRows(a Matrix) (RowRefusal, error) {
	if err := a.check("a"); err != nil {
		return RowRefusal{Row: -1}, err
	}
	var r C.dpcov_row_refusal
	r.struct_size = C.size_t(C.sizeof_dpcov_row_refusal)
	err := call(func() C.dpcov_status {
		return C.dpcov_gram_add_raw_rows(g.handle(), rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), &r)
	})
	refusal := RowRefusal{Row: int64(r.row), Label: r.label != 0,
		Norm: math.Ldexp(float64(r.norm_rest), int(r.norm_exponent))}
	return refusal, err
}

// Apply bounds the raw rows of a (cols columns, label included) as b says without accumulating
// them (dpcov_row_bounding_apply), the bounding NewBoundedGram applies: the rows kept (all but
// the dropped ones) in order, their Info (Dim the bounded columns, Bound their public norm bound,
// Clipped and Dropped the curator's counts) and, for a refused row, its refusal. For a caller
// that needs the bounded rows themselves, as AdasspSandwichRows does.
func (b RowBounding) Apply(a Matrix) (Matrix, GramInfo, RowRefusal, error) {
	if err := a.check("a"); err != nil {
		return Matrix{}, GramInfo{}, RowRefusal{Row: -1}, err
	}
	spec, release, err := b.cSpec(a.Cols)
	defer release()
	if err != nil {
		return Matrix{}, GramInfo{}, RowRefusal{Row: -1}, err
	}
	// The bounded rows have at most one column more than the raw ones (a constant or the
	// column bounds' 1): the buffer holds that, and the result is cut to Info's Dim.
	width := a.Cols + 1
	out := make([]float64, a.Rows*width+1)
	info := C.dpcov_gram_info{struct_size: C.size_t(C.sizeof_dpcov_gram_info)}
	var r C.dpcov_row_refusal
	r.struct_size = C.size_t(C.sizeof_dpcov_row_refusal)
	err = call(func() C.dpcov_status {
		return C.dpcov_row_bounding_apply(&spec, rowMajor, C.int64_t(a.Rows), C.int64_t(a.Cols),
			a.ptr(), a.ld(), doubles(out), C.int64_t(width), &info, &r)
	})
	refusal := RowRefusal{Row: int64(r.row), Label: r.label != 0,
		Norm: math.Ldexp(float64(r.norm_rest), int(r.norm_exponent))}
	if err != nil {
		return Matrix{}, GramInfo{}, refusal, err
	}
	got := gramInfoFromC(&info)
	rows := NewMatrix(int(got.Rows), int(got.Dim))
	for i := 0; i < rows.Rows; i++ {
		copy(rows.Data[i*rows.Cols:(i+1)*rows.Cols], out[i*width:i*width+rows.Cols])
	}
	return rows, got, refusal, nil
}

// AddUnitRows adds the raw rows of a with the ids of their privacy units (units[i] for row i),
// each unit's rows contiguous and the ids increasing across calls (dpcov_gram_add_unit_rows): of
// each unit at most MaxRowsPerUnit rows are kept, drawn with rng, the release's generator. Call
// FinishUnits after the last rows.
func (g *Gram) AddUnitRows(a Matrix, units []int64, rng *RNG) (RowRefusal, error) {
	if err := a.check("a"); err != nil {
		return RowRefusal{Row: -1}, err
	}
	if len(units) != a.Rows {
		return RowRefusal{Row: -1}, argError(ErrDimension, "need one unit id per row: %d rows, %d ids",
			a.Rows, len(units))
	}
	var ids *C.int64_t
	if len(units) > 0 {
		ids = (*C.int64_t)(unsafe.Pointer(&units[0]))
	}
	var r C.dpcov_row_refusal
	r.struct_size = C.size_t(C.sizeof_dpcov_row_refusal)
	err := call(func() C.dpcov_status {
		return C.dpcov_gram_add_unit_rows(g.handle(), rng.handle(), rowMajor, C.int64_t(a.Rows),
			C.int64_t(a.Cols), a.ptr(), a.ld(), ids, &r)
	})
	return RowRefusal{Row: int64(r.row), Label: r.label != 0,
		Norm: math.Ldexp(float64(r.norm_rest), int(r.norm_exponent))}, err
}

// FinishUnits closes the open privacy unit (dpcov_gram_finish_units), which a release or a merge
// needs.
func (g *Gram) FinishUnits() error {
	return call(func() C.dpcov_status { return C.dpcov_gram_finish_units(g.handle()) })
}

// PrivateBoundHistogram adds the rows of a to histogram (len(grid) + 1 cells, as for
// PrivateBoundSelect), their norms measured by the library (dpcov_private_bound_histogram); the
// histogram is private: pass it only to PrivateBoundSelect or PrivateBoundScan.
func PrivateBoundHistogram(grid []float64, a Matrix, histogram []int64) error {
	if len(grid) < 1 || len(histogram) != len(grid)+1 {
		return argError(ErrDimension, "need a grid of >= 1 candidates and len(grid) + 1 cells, got %d and %d",
			len(grid), len(histogram))
	}
	if err := a.check("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_private_bound_histogram(doubles(grid), C.int64_t(len(grid)), rowMajor,
			C.int64_t(a.Rows), C.int64_t(a.Cols), a.ptr(), a.ld(), int64s(histogram))
	})
}

// PrivateBoundUnitHistogram adds the privacy units of the rows of a (row i in unit units[i]) to
// histogram, each unit once in the cell of its largest row norm
// (dpcov_private_bound_unit_histogram): every row of a unit must be in this one call. The
// histogram is private: pass it only to PrivateBoundSelect or PrivateBoundScan, whose target is
// then a number of units.
func PrivateBoundUnitHistogram(grid []float64, a Matrix, units []int64, histogram []int64) error {
	if len(grid) < 1 || len(histogram) != len(grid)+1 || len(units) != a.Rows {
		return argError(ErrDimension, "need a grid of >= 1 candidates, len(grid) + 1 cells and one "+
			"unit id per row, got %d, %d and %d ids for %d rows", len(grid), len(histogram),
			len(units), a.Rows)
	}
	if err := a.check("a"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_private_bound_unit_histogram(doubles(grid), C.int64_t(len(grid)), rowMajor,
			C.int64_t(a.Rows), C.int64_t(a.Cols), a.ptr(), a.ld(), int64s(units), int64s(histogram))
	})
}

// PrivateBoundNormCells returns the grid cell of each row of a, as both histograms count it
// (dpcov_private_bound_norm_cells): len(grid) for a non-finite row or a norm above every
// candidate. For units whose rows lie in several places: each place keeps the largest cell per
// unit, the largest over the places is the unit's cell in PrivateBoundUnitHistogram. The cells are
// private: count them only into a histogram for PrivateBoundSelect or PrivateBoundScan.
func PrivateBoundNormCells(grid []float64, a Matrix) ([]int64, error) {
	if len(grid) < 1 {
		return nil, argError(ErrDimension, "need a grid of >= 1 candidates, got %d", len(grid))
	}
	if err := a.check("a"); err != nil {
		return nil, err
	}
	cells := make([]int64, a.Rows)
	err := call(func() C.dpcov_status {
		return C.dpcov_private_bound_norm_cells(doubles(grid), C.int64_t(len(grid)), rowMajor,
			C.int64_t(a.Rows), C.int64_t(a.Cols), a.ptr(), a.ld(), int64s(cells))
	})
	if err != nil {
		return nil, err
	}
	return cells, nil
}
