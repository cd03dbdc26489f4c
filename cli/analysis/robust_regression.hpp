// The robust (sandwich) intervals of `regress --epsilon` (--errors robust, the default;
// proofs/sandwich.md): the budget split, the meat sum r_i^2 x_i x_i' of a second pass over the
// rows at the fit's coefficients, released by Analyze Gauss with its own share, and the intervals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../io/regression_rows.hpp"
#include "regression_intervals.hpp"

namespace dpcov::cli {

// What the robust intervals assume, said beside them.
inline constexpr const char *kRobustAssumes =
    "independent rows; robust to heteroscedastic errors and, for the least-squares projection, to "
    "a misspecified mean (sandwich variance; residuals clipped at twice the label's bound)";

// The split of (epsilon, delta) between the fit and the meat, and the meat rows' bounds
// (dpcov_adassp_sandwich_plan). Throws CliError for a refused plan.
dpcov_sandwich_budget sandwich_budget(double bound_x, double bound_y, double epsilon,
                                      double delta);

// The public plan of the meat's Analyze Gauss release of p x p, for the ledger's check.
dpcov_receipt meat_plan(int64_t p, const dpcov_sandwich_budget &budget, int32_t neighbour);

// The released meat (p x p, row-major) and its receipt.
struct RobustMeat {
  std::vector<double> meat;
  dpcov_receipt receipt{};
};

// The second pass: every row of `reader` bounded by `spec` as the fit read it, its meat row
// r_i x_i at the fit's `beta0` (dpcov_adassp_sandwich_rows), accumulated exactly and released by
// Analyze Gauss at the budget's meat share from `rng`. Returns the library's status of the release
// in `status` (the caller charges a failure after the draw); other failures throw CliError, among
// them a pass that reads another number of rows than the fit's `fit_rows` (curator-side check,
// before the meat's draw).
RobustMeat release_meat(RowReader &reader, const RegressionColumns &columns,
                        const dpcov_row_bounding &spec, const std::vector<double> &beta0,
                        double bound_x, const dpcov_sandwich_budget &budget, int32_t neighbour,
                        int64_t fit_rows, dpcov_rng *rng, dpcov_status &status);

// The split of the budget and the meat's public receipt, for the JSON output.
nlohmann::ordered_json sandwich_json(const dpcov_sandwich_budget &budget, const RobustMeat &meat);

// The meat's line under the fit's receipt in the text output; `fit` names the release that spent
// the rest of the budget ("fit", "release").
std::string meat_text(const dpcov_sandwich_budget &budget, const char *fit);

// The robust intervals for beta from the fit's X'X~, X'y~ and the released meat, whose noise
// (the law of its receipt) every bootstrap world redraws.
NoiseAware robust_intervals(const std::vector<double> &xtx, const std::vector<double> &xty,
                            const dpcov_adassp_receipt &receipt, const RobustMeat &meat,
                            double level, const BootstrapSettings &bootstrap);

}  // namespace dpcov::cli
