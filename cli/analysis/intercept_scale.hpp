// The warning of a regression on raw rows whose intercept's constant 1 and regressors' scale
// --bound / sqrt(p) are far apart (DPCOV_INTERCEPT_SCALE_LOW and _HIGH, dpcov/private_bound.h):
// the fit then depends on the units of X. Python's PrivateLinearRegression warns at the same ends.
#pragma once

#include <cstdint>
#include <string>

namespace dpcov::cli {

// The warning's text, or "" where bound / sqrt(regressors) is within those ends.
std::string intercept_scale_warning(double bound, int64_t regressors);

}  // namespace dpcov::cli
