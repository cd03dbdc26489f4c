// The grid of an exact release at the boundary: the kernel's ExactGrid as a dpcov_exact_grid.
#pragma once

#include "../core/mechanisms/exact_additive.hpp"
#include "dpcov/exact.h"

namespace dpcov::capi {

// The C form of the grid of an exact release of `id` at bound B = `bound`, struct_size left 0.
dpcov_exact_grid c_grid(mechanisms::MechanismId id, const mechanisms::ExactGrid &grid,
                        double bound);

}  // namespace dpcov::capi
