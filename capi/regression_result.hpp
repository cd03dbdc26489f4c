// The finite-or-failed check of a regression's outputs and the C forms of the solvers' summaries,
// shared by dpcov_regression_fit, dpcov_glasso_solve and the private OLS and glasso entry points.
#pragma once

#include "../core/solvers/glasso.hpp"
#include "../core/solvers/regression.hpp"
#include "dpcov/estimators.h"

namespace dpcov::capi {

// Fails with DPCOV_E_NUMERICAL unless every output is finite; a t-value may be +-infinity only
// where its standard error is exactly 0 (the documented exact fit).
void check_regression_result(const solvers::RegressionResult &r);

// The caller's summary and glasso info as whole structs, written through write_struct() so that
// an older caller's smaller struct is never written past its struct_size.
dpcov_regression_summary c_summary(const solvers::RegressionResult &r);
dpcov_glasso_info c_glasso_info(const solvers::GlassoResult &r);

}  // namespace dpcov::capi
