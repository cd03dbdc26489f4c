// The Gram family's receipt at the boundary: the kernel's mechanisms::Receipt to the caller's
// dpcov_receipt (respecting its struct_size) and back.
#pragma once

#include "../core/estimators/release_noise.hpp"
#include "../core/mechanisms/receipt.hpp"
#include "dpcov/receipt.h"

namespace dpcov::capi {

// Throws DPCOV_E_NULL_POINTER / DPCOV_E_INVALID_ARGUMENT unless `out` is non-null and its
// struct_size is at least the receipt's first shipped size (capi/struct_size.hpp). Called before any work.
void check_receipt_output(const dpcov_receipt *out);

// The C form of `receipt`, with struct_size copied from `out` (already checked). Built before
// any output is written, so that a failure here leaves every output untouched.
dpcov_receipt c_receipt(const mechanisms::Receipt &receipt, const dpcov_receipt *out);

// The fields of `receipt` in C form, struct_size left 0, without c_receipt's checks on its
// constants: for a receipt the caller gave back (dpcov_receipt_public).
dpcov_receipt c_receipt_fields(const mechanisms::Receipt &receipt);

// The kernel form of a caller's receipt (already read with read_struct). Enum values pass through
// unchecked, for the kernel function that reads them to refuse; theorem points into `receipt`,
// which must outlive the result. Throws DPCOV_E_INVALID_ARGUMENT if theorem is not NUL-terminated.
mechanisms::Receipt core_receipt(const dpcov_receipt &receipt);

// The noise law recorded by a caller's receipt of a d x d release (mechanism, sigma, scale, dof);
// `name` is the argument the messages name.
// Throws DPCOV_E_NULL_POINTER, DPCOV_E_INVALID_ARGUMENT (struct_size too small, dim != d, a
// mechanism without a known noise law or an unknown id).
estimators::ReleaseNoise noise_from_receipt(const dpcov_receipt *receipt, int64_t d,
                                            const char *name = "receipt");

}  // namespace dpcov::capi
