// What `dpcov regress -m M` with a Gram mechanism decides from public values before it reads a
// row, so that `dpcov plan --regress -m M` prints the plan of the same fit: the numerics, the
// split of the budget with the robust intervals' meat, and the bounded rows [1, x, y].
#pragma once

#include <cstdint>
#include <string>

#include <dpcov.h>

#include "../io/regression_rows.hpp"

namespace dpcov::cli {

struct GramFitQuery {
  std::string mechanism;         // a robust-Gram mechanism's name (kExitUsage otherwise)
  std::string numerics;          // "exact", "idealized" or "default"
  RegressionBounds bounds;
  int64_t features = 0;          // the regressors besides the intercept
  int32_t neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  bool robust = true;            // the meat is released and the intervals are sandwich ones
  double epsilon = 0.0, delta = 0.0;
};

struct GramFitPlan {
  int32_t mechanism = 0;
  bool exact = false;               // exact numerics: where the registry has them, unless idealized
  bool robust = false;
  double bound_x = 0.0;             // B_X of the regressors [1, x] (or x)
  dpcov_sandwich_budget split{};    // robust: the fit's and the meat's shares
  double epsilon = 0.0, delta = 0.0;  // what the release spends
  int64_t dim = 0;                  // of the bounded rows [1, x, y]
  double row_bound = 0.0;
};

// The decisions above. Throws CliError: kExitUsage for a mechanism whose release's noise the
// intervals do not read, or --numerics exact for one without exact numerics; a refused split.
GramFitPlan plan_gram_fit(const GramFitQuery &q);

// The phrase a refusal at the fit's share of --epsilon names (share_context): under robust
// errors the meat spends the rest.
std::string gram_fit_share(const GramFitPlan &plan, double requested_epsilon);

}  // namespace dpcov::cli
