// What the two porosity cases share (porous_laplace.hpp, porous_analyze_gauss.hpp): a dpcov
// floating-point release audited with its idealized density restricted to the outputs that its
// sampler can reach, beside the exact-numerics release of the same mechanism.
#pragma once

#include <functional>
#include <string>

#include "core/mechanisms/receipt.hpp"
#include "core/mechanisms/request.hpp"
#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

// Whether the floating-point sampler at this noise scale (the plan's Laplace scale or Gaussian
// sigma) can turn statistic entry g into released entry o.
using EntryReachable = std::function<bool(double o, double g, double noise_scale)>;

// Variant::Broken: the floating-point release of `mechanism` (laplace_sym or analyze_gauss) under
// `request` on the pair, its log density -infinity where some upper-triangle entry is unreachable.
// Variant::Corrected: its exact-numerics release with the exact PMF, on the pair in the grid's
// integer units.
ZooCase porosity_case(mechanisms::MechanismId mechanism, Variant variant,
                      const mechanisms::Request &request, const Matrix &rows,
                      const Matrix &rows_prime, EntryReachable reachable);

}  // namespace dpcov::audit::zoo
