#include "noise_floor.hpp"

#include "../error.hpp"

namespace dpcov::audit {

void require_noise_above_rounding(double sigma, double scale, const char *what) {
  if (sigma < kNoiseFloorRelative * scale)
    fail(Status::Precondition, what, ": the noise sigma ", sigma,
         " is below 2^-30 of the values it perturbs (", scale,
         "), so the audit's statistics would measure the arithmetic's rounding, not the noise; "
         "audit at a smaller rho");
}

}  // namespace dpcov::audit
