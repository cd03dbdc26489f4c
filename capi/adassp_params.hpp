// dpcov_adassp_params read and written at the caller's struct_size (dpcov/adassp.h).
#pragma once

#include "dpcov/adassp.h"

#include "../core/mechanisms/adassp.hpp"

namespace dpcov::capi {

// The defaults of AdasspOptions as a C struct (struct_size set).
dpcov_adassp_params default_adassp_params();

// The caller's params up to its struct_size, the fields past it at their defaults; null: the
// defaults. Throws Status::InvalidArgument for a flag other than 0 or 1.
mechanisms::AdasspOptions adassp_options_from(const dpcov_adassp_params *caller);

// The C struct of `options` (struct_size set).
dpcov_adassp_params adassp_params_of(const mechanisms::AdasspOptions &options);

}  // namespace dpcov::capi
