// The finite-or-failed check of a regression's outputs, shared by dpcov_regression_fit and the
// private OLS entry points.
#pragma once

#include "../core/estimators/regression.hpp"

namespace dpcov::capi {

// Fails with DPCOV_E_NUMERICAL unless every output is finite; a t-value may be +-infinity only
// where its standard error is exactly 0 (the documented exact fit).
void check_regression_result(const estimators::RegressionResult &r);

}  // namespace dpcov::capi
