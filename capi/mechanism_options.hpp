// The kernel Options of a dpcov_mechanism_params, shared by every C entry point that takes one.
#pragma once

#include "../core/mechanisms/request.hpp"
#include "dpcov/mechanism.h"

namespace dpcov::capi {

// Defaults for NULL; throws DPCOV_E_INVALID_ARGUMENT for a struct_size too small or an enum value
// out of range.
mechanisms::Options options_from(const dpcov_mechanism_params *params);

}  // namespace dpcov::capi
