package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// RowSession is a Dong-Liang-Yi, CoinPress or CoinPress mean release as passes over rows held
// elsewhere (dpcov/row_passes.h): it holds the generator and asks for passes; a RowPartial of the
// pending pass, filled from any process's rows and merged, finishes each pass. Close it when done.
type RowSession struct {
	p   *C.dpcov_row_session
	dim int64 // d of the session's rows: what its result writes
}

// RowPartial is the sums of one pass over some rows: O(d^2) numbers whatever the number of rows.
// The curator's, not a release: keep it inside the rows' trust boundary.
type RowPartial struct {
	p *C.dpcov_row_partial
}

func takeSession(dim int64, create func(**C.dpcov_row_session, **C.dpcov_rng) C.dpcov_status,
	rng *RNG) (*RowSession, error) {
	s := &RowSession{dim: dim}
	var g **C.dpcov_rng
	if rng != nil {
		g = &rng.p
	}
	if err := call(func() C.dpcov_status { return create(&s.p, g) }); err != nil {
		return nil, err
	}
	return s, nil
}

// NewDlySession starts a Dong-Liang-Yi release of n rows (dpcov_dly_session_create). The
// session takes rng: it is closed once the session exists, so nothing else draws its noise.
func NewDlySession(n, dim int64, params DlyParams, rng *RNG) (*RowSession, error) {
	p := params.c()
	return takeSession(dim, func(s **C.dpcov_row_session, g **C.dpcov_rng) C.dpcov_status {
		return C.dpcov_dly_session_create(s, C.int64_t(n), C.int64_t(dim), &p, g)
	}, rng)
}

// NewCoinpressSession starts a CoinPress release of n rows (dpcov_coinpress_session_create),
// taking rng as NewDlySession does.
func NewCoinpressSession(n, dim int64, params CoinpressParams, rng *RNG) (*RowSession, error) {
	p := params.c()
	return takeSession(dim, func(s **C.dpcov_row_session, g **C.dpcov_rng) C.dpcov_status {
		return C.dpcov_coinpress_session_create(s, C.int64_t(n), C.int64_t(dim), &p, g)
	}, rng)
}

// NewCoinpressMeanSession starts a CoinPress mean release of n rows from the public centre
// (nil: the origin; dpcov_coinpress_mean_session_create), taking rng as NewDlySession does.
func NewCoinpressMeanSession(n, dim int64, centre []float64, params CoinpressMeanParams,
	rng *RNG) (*RowSession, error) {
	if centre != nil && int64(len(centre)) != dim {
		return nil, argError(ErrDimension, "centre: %d values, but dim is %d", len(centre), dim)
	}
	p := params.c()
	return takeSession(dim, func(s **C.dpcov_row_session, g **C.dpcov_rng) C.dpcov_status {
		return C.dpcov_coinpress_mean_session_create(s, C.int64_t(n), C.int64_t(dim),
			doubles(centre), &p, g)
	}, rng)
}

// NewCoinpressCentredSession starts the CoinPress covariance of the rows centred on the private
// mean that the done mean session released (dpcov_coinpress_centred_session_create): each row is
// centred as it is added. It takes over mean's generator where its noise stopped; mean stays
// readable but hands its generator on once only.
func NewCoinpressCentredSession(mean *RowSession, params CoinpressParams) (*RowSession, error) {
	p := params.c()
	s := &RowSession{}
	if mean != nil {
		s.dim = mean.dim
	}
	if err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_centred_session_create(&s.p, mean.handle(), &p)
	}); err != nil {
		return nil, err
	}
	return s, nil
}

// Close frees the session (dpcov_row_session_destroy); noise it drew stays spent.
func (s *RowSession) Close() {
	if s != nil {
		C.dpcov_row_session_destroy(&s.p)
	}
}

func (s *RowSession) handle() *C.dpcov_row_session {
	if s == nil {
		return nil
	}
	return s.p
}

// Done reports whether the release is complete (dpcov_row_session_done).
func (s *RowSession) Done() (bool, error) {
	var d C.int32_t
	err := call(func() C.dpcov_status { return C.dpcov_row_session_done(s.handle(), &d) })
	return d != 0, err
}

// Partial is an empty partial of the pending pass (dpcov_row_partial_create); its bytes hand
// the pass to the processes that hold rows.
func (s *RowSession) Partial() (*RowPartial, error) {
	p := &RowPartial{}
	if err := call(func() C.dpcov_status { return C.dpcov_row_partial_create(&p.p, s.handle()) }); err != nil {
		return nil, err
	}
	return p, nil
}

// FinishPass finishes the pending pass with the merged partial of all n rows, which it consumes
// (dpcov_row_session_finish_pass).
func (s *RowSession) FinishPass(merged *RowPartial) error {
	var p **C.dpcov_row_partial
	if merged != nil {
		p = &merged.p
	}
	return call(func() C.dpcov_status { return C.dpcov_row_session_finish_pass(s.handle(), p) })
}

// resultDim checks the dim a result is asked for against the session's: C writes d of its own.
func (s *RowSession) resultDim(dim int) error {
	if s != nil && s.p != nil && int64(dim) != s.dim {
		return argError(ErrDimension, "dim: %d, but the session's rows have %d columns", dim, s.dim)
	}
	return nil
}

// DlyResult is the release of a complete Dong-Liang-Yi session (dpcov_dly_session_result); dim
// must be the session's.
func (s *RowSession) DlyResult(dim int) (Matrix, DlyReceipt, error) {
	if err := s.resultDim(dim); err != nil {
		return Matrix{}, DlyReceipt{}, err
	}
	out := NewMatrix(dim, dim)
	r := C.dpcov_dly_receipt{struct_size: C.size_t(C.sizeof_dpcov_dly_receipt)}
	if err := call(func() C.dpcov_status {
		return C.dpcov_dly_session_result(s.handle(), rowMajor, out.ptr(), out.ld(), &r)
	}); err != nil {
		return Matrix{}, DlyReceipt{}, err
	}
	return out, dlyReceiptFromC(&r), nil
}

// CoinpressResult is the release of a complete CoinPress session
// (dpcov_coinpress_session_result); dim must be the session's.
func (s *RowSession) CoinpressResult(dim int) (Matrix, CoinpressReceipt, error) {
	if err := s.resultDim(dim); err != nil {
		return Matrix{}, CoinpressReceipt{}, err
	}
	out := NewMatrix(dim, dim)
	r := C.dpcov_coinpress_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_receipt)}
	if err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_session_result(s.handle(), rowMajor, out.ptr(), out.ld(), &r)
	}); err != nil {
		return Matrix{}, CoinpressReceipt{}, err
	}
	return out, coinpressReceiptFromC(&r), nil
}

// CoinpressMeanResult is the mean of a complete CoinPress mean session
// (dpcov_coinpress_mean_session_result, which writes the session's d values, so dim must be the
// session's: a smaller slice would be written past its end).
func (s *RowSession) CoinpressMeanResult(dim int) ([]float64, CoinpressMeanReceipt, error) {
	if err := s.resultDim(dim); err != nil {
		return nil, CoinpressMeanReceipt{}, err
	}
	mean := make([]float64, dim)
	r := C.dpcov_coinpress_mean_receipt{struct_size: C.size_t(C.sizeof_dpcov_coinpress_mean_receipt)}
	if err := call(func() C.dpcov_status {
		return C.dpcov_coinpress_mean_session_result(s.handle(), doubles(mean), &r)
	}); err != nil {
		return nil, CoinpressMeanReceipt{}, err
	}
	return mean, coinpressMeanReceiptFromC(&r), nil
}

// Close frees the partial (dpcov_row_partial_destroy).
func (p *RowPartial) Close() {
	if p != nil {
		C.dpcov_row_partial_destroy(&p.p)
	}
}

func (p *RowPartial) handle() *C.dpcov_row_partial {
	if p == nil {
		return nil
	}
	return p.p
}

// AddRows adds the pass's function of each row of a (dpcov_row_partial_add_rows).
func (p *RowPartial) AddRows(a Matrix) error {
	if err := a.check("rows"); err != nil {
		return err
	}
	return call(func() C.dpcov_status {
		return C.dpcov_row_partial_add_rows(p.handle(), rowMajor, C.int64_t(a.Rows),
			C.int64_t(a.Cols), a.ptr(), a.ld())
	})
}

// Merge adds the sums of other, a partial of the same pass (dpcov_row_partial_merge).
func (p *RowPartial) Merge(other *RowPartial) error {
	return call(func() C.dpcov_status { return C.dpcov_row_partial_merge(p.handle(), other.handle()) })
}

// Bytes is the partial, its pass included, as versioned checksummed bytes
// (dpcov_row_partial_export).
func (p *RowPartial) Bytes() ([]byte, error) {
	var size C.size_t
	if err := call(func() C.dpcov_status {
		return C.dpcov_row_partial_export(p.handle(), nil, 0, &size)
	}); err != nil {
		return nil, err
	}
	buf := make([]byte, int(size))
	if err := call(func() C.dpcov_status {
		return C.dpcov_row_partial_export(p.handle(), unsafe.Pointer(&buf[0]), size, &size)
	}); err != nil {
		return nil, err
	}
	return buf[:int(size)], nil
}

// ImportRowPartial is the partial Bytes wrote, here or in another process
// (dpcov_row_partial_import).
func ImportRowPartial(data []byte) (*RowPartial, error) {
	var ptr unsafe.Pointer
	if len(data) > 0 {
		ptr = unsafe.Pointer(&data[0])
	}
	p := &RowPartial{}
	if err := call(func() C.dpcov_status {
		return C.dpcov_row_partial_import(&p.p, ptr, C.size_t(len(data)))
	}); err != nil {
		return nil, err
	}
	return p, nil
}
