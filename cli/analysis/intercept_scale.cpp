#include "intercept_scale.hpp"

#include <cmath>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "text_table.hpp"

namespace dpcov::cli {

std::string intercept_scale_warning(double bound, int64_t regressors) {
  if (regressors < 1) return {};
  const double scale = bound / std::sqrt(static_cast<double>(regressors));
  if (!(std::isfinite(scale) && scale > 0.0) ||
      (scale >= DPCOV_INTERCEPT_SCALE_LOW && scale <= DPCOV_INTERCEPT_SCALE_HIGH))
    return {};
  const char *effect = scale < 1.0 ? "the constant takes the norm bound and the slopes' noise "
                                     "grows as 1 / bound^2"
                                   : "the constant, and the intercept with it (and under "
                                     "add/remove the count), is lost in the features' noise";
  return concat("--bound ", bound, " gives the ", regressors, " regressors a scale bound / "
                "sqrt(p) = ", format_number(scale, 3), " beside the intercept's constant 1: ",
                effect, ", so the fit depends on the units of the columns (the same rows at a "
                "quarter or ten times their units print an interval in 0 and 0.15 of fits; "
                "bench/results/unit_scale.md). "
                "Rescale the columns so that bound / sqrt(p) is near 1, or give --bounds");
}

}  // namespace dpcov::cli
