package dpcov

/*
#include "dpcov.h"
*/
import "C"

// KeptPlan is a release planned once and kept by the library (dpcov_plan): its receipt and grid are
// read from it, an accumulator is made for it (NewPlannedGram) and the release draws with its
// constants as computed, so each calibration runs once per release. Safe for concurrent reads and
// releases (each with its own RNG and accumulator).
type KeptPlan struct {
	p *C.dpcov_plan
}

// NewPlan plans the release of m for dim columns and n rows (0: counted at the release) of norm
// <= bound, with exact numerics (AnalyzeGauss and LaplaceSym) or idealized.
func NewPlan(m Mechanism, exact bool, dim, n int64, bound, epsilon, delta float64,
	params *MechanismParams) (*KeptPlan, error) {
	numerics := C.int32_t(C.DPCOV_NUMERICS_IDEALIZED)
	if exact {
		numerics = C.DPCOV_NUMERICS_EXACT
	}
	p := &KeptPlan{}
	err := call(func() C.dpcov_status {
		return C.dpcov_plan_create(&p.p, C.int32_t(m), numerics, C.int64_t(dim), C.int64_t(n),
			C.double(bound), C.double(epsilon), C.double(delta), params.c())
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// AtBound is the same release at another bound (dpcov_plan_create_at_bound): exact numerics keep
// the grid, which does not depend on the bound.
func (p *KeptPlan) AtBound(bound float64) (*KeptPlan, error) {
	moved := &KeptPlan{}
	err := call(func() C.dpcov_status {
		return C.dpcov_plan_create_at_bound(&moved.p, p.handle(), C.double(bound))
	})
	if err != nil {
		return nil, err
	}
	return moved, nil
}

// Close frees the plan; closing twice is harmless.
func (p *KeptPlan) Close() {
	if p != nil {
		C.dpcov_plan_destroy(&p.p)
	}
}

func (p *KeptPlan) handle() *C.dpcov_plan {
	if p == nil {
		return nil
	}
	return p.p
}

// Receipt is every constant the release will use.
func (p *KeptPlan) Receipt() (Receipt, error) {
	r := newCReceipt()
	if err := call(func() C.dpcov_status { return C.dpcov_plan_get_receipt(p.handle(), &r) }); err != nil {
		return Receipt{}, err
	}
	return receiptFromC(&r), nil
}

// ExactGrid is the grid of a plan with exact numerics (ErrIncompatible for idealized numerics).
func (p *KeptPlan) ExactGrid() (ExactGrid, error) {
	g := C.dpcov_exact_grid{struct_size: C.size_t(C.sizeof_dpcov_exact_grid)}
	if err := call(func() C.dpcov_status { return C.dpcov_plan_get_exact_grid(p.handle(), &g) }); err != nil {
		return ExactGrid{}, err
	}
	return exactGridFromC(&g), nil
}

// NewPlannedGram is NewBoundedGram for the release p plans (dpcov_gram_create_planned): b's
// release fields are the plan's, and an exact accumulator takes the plan's grid.
func NewPlannedGram(cols int, b RowBounding, p *KeptPlan) (*Gram, error) {
	return newBoundedGram(cols, b, func(out **C.dpcov_gram, spec *C.dpcov_row_bounding) C.dpcov_status {
		return C.dpcov_gram_create_planned(out, C.int64_t(cols), spec, p.handle())
	})
}

// Release releases g with the plan's constants (dpcov_plan_release_gram).
func (p *KeptPlan) Release(g *Gram, rng *RNG) (Matrix, Receipt, error) {
	return g.release(func(out Matrix, r *C.dpcov_receipt) C.dpcov_status {
		return C.dpcov_plan_release_gram(p.handle(), g.handle(), rng.handle(), rowMajor, out.ptr(),
			out.ld(), r)
	})
}

// ReleaseMatrix releases the symmetric statistic gram of the plan's n rows with the plan's
// constants (dpcov_plan_release_matrix; a plan with idealized numerics and n >= 1).
func (p *KeptPlan) ReleaseMatrix(gram Matrix, rng *RNG) (Matrix, Receipt, error) {
	if err := gram.checkSquare("gram"); err != nil {
		return Matrix{}, Receipt{}, err
	}
	out := NewMatrix(gram.Rows, gram.Cols)
	r := newCReceipt()
	err := call(func() C.dpcov_status {
		return C.dpcov_plan_release_matrix(p.handle(), rowMajor, C.int64_t(gram.Rows), gram.ptr(),
			gram.ld(), rng.handle(), out.ptr(), out.ld(), &r)
	})
	if err != nil {
		return Matrix{}, Receipt{}, err
	}
	return out, receiptFromC(&r), nil
}
