// Copies a kernel receipt into the caller's dpcov_receipt, respecting its struct_size.
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

// The noise law recorded by a caller's receipt of a d x d release (mechanism, sigma, scale, dof).
// Throws DPCOV_E_NULL_POINTER, DPCOV_E_INVALID_ARGUMENT (struct_size too small, dim != d, a
// mechanism without a known noise law or an unknown id).
estimators::ReleaseNoise noise_from_receipt(const dpcov_receipt *receipt, int64_t d);

}  // namespace dpcov::capi
