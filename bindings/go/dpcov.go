// Package dpcov releases differentially private second-moment and covariance matrices through the
// dpcov C library (libdpcov), which it links with cgo via pkg-config.
//
// Conventions of the binding:
//
//   - Every fallible function returns an error; a failure of the library is an *Error carrying the
//     status code and the library's message. errors.Is(err, dpcov.ErrPrecondition) tests the
//     status.
//   - Matrices are Matrix values: row-major []float64 with their dimensions. Inputs are passed to
//     the library without copies; outputs are freshly allocated.
//   - Handles (RNG, Gram, Sketch) own C memory and must be released with Close. A handle must not
//     be used by two goroutines at once.
//   - Privacy comes only from generators created with NewRNGFromEntropy; a seeded generator is for
//     experiments and tests, and every receipt records which kind was used.
package dpcov

/*
#cgo pkg-config: dpcov
#include <stdlib.h>
#include "dpcov.h"
*/
import "C"

import (
	"fmt"
	"runtime"
)

// Status is a status code of the library. Negative values are failures; Status implements error
// so that errors.Is(err, ErrRefused) tests the status of an *Error.
type Status int32

// The status codes of dpcov/common.h. Their numbers are part of the ABI.
const (
	OK                     Status = C.DPCOV_OK
	ErrNullPointer         Status = C.DPCOV_E_NULL_POINTER
	ErrInvalidArgument     Status = C.DPCOV_E_INVALID_ARGUMENT
	ErrDimension           Status = C.DPCOV_E_DIMENSION
	ErrLayout              Status = C.DPCOV_E_LAYOUT
	ErrNonFinite           Status = C.DPCOV_E_NON_FINITE
	ErrNormBound           Status = C.DPCOV_E_NORM_BOUND
	ErrPrecondition        Status = C.DPCOV_E_PRECONDITION
	ErrNotPositiveDefinite Status = C.DPCOV_E_NOT_POSITIVE_DEFINITE
	ErrNotPrivate          Status = C.DPCOV_E_NOT_PRIVATE
	ErrRefused             Status = C.DPCOV_E_REFUSED
	ErrNoConvergence       Status = C.DPCOV_E_NO_CONVERGENCE
	ErrNumerical           Status = C.DPCOV_E_NUMERICAL
	ErrEntropy             Status = C.DPCOV_E_ENTROPY
	ErrTooLarge            Status = C.DPCOV_E_TOO_LARGE
	ErrIncompatible        Status = C.DPCOV_E_INCOMPATIBLE
	ErrBufferTooSmall      Status = C.DPCOV_E_BUFFER_TOO_SMALL
	ErrNoMem               Status = C.DPCOV_E_NOMEM
	ErrInternal            Status = C.DPCOV_E_INTERNAL
)

// String is the library's name of the status, e.g. "DPCOV_E_NON_FINITE".
func (s Status) String() string {
	return C.GoString(C.dpcov_status_string(C.dpcov_status(s)))
}

// Error makes a bare Status usable as an error value (a target for errors.Is).
func (s Status) Error() string { return s.String() }

// Error is a failure reported by the library: its status and the message of the failing call.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "dpcov: " + e.Status.String()
	}
	return "dpcov: " + e.Status.String() + ": " + e.Message
}

// Is reports whether target is the Status of e, so that errors.Is(err, dpcov.ErrRefused) works.
func (e *Error) Is(target error) bool {
	s, ok := target.(Status)
	return ok && s == e.Status
}

// call runs one C entry point and turns a failing status into an *Error. The library's message is
// thread-local, so the goroutine stays on its OS thread from the call until the message is read.
func call(f func() C.dpcov_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if status := f(); status != C.DPCOV_OK {
		return &Error{Status: Status(status), Message: C.GoString(C.dpcov_last_error_message())}
	}
	return nil
}

// argError reports an argument the binding refuses before calling the library, with the status
// the library would use.
func argError(status Status, format string, args ...interface{}) error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Version is the version of the library actually loaded, "major.minor.patch".
func Version() string { return C.GoString(C.dpcov_version_string()) }

// VersionNumber is the loaded library's version as major*10000 + minor*100 + patch.
func VersionNumber() int { return int(C.dpcov_version_number()) }

// HeaderVersionNumber is the version of the headers this package was compiled against.
const HeaderVersionNumber = C.DPCOV_VERSION_NUMBER

func cbool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}
