#include "gram_fit_plan.hpp"

#include <optional>
#include <string>
#include <vector>

#include "../cli_error.hpp"
#include "../io/gram_stream.hpp"
#include "../library_status.hpp"
#include "../options/choice_names.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/mechanism_registry.hpp"
#include "robust_regression.hpp"

namespace dpcov::cli {

namespace {

// The mechanisms whose release's noise the intervals redraw: the registry's
// DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM, which Python's PrivateLinearRegression reads too; the
// others have no interval, robust or not, on this path.
int32_t fit_mechanism_id(const std::string &name) {
  if (const std::optional<int32_t> id = robust_gram_mechanism_id(name)) return *id;
  if (!gram_mechanism_id(name)) {
    std::vector<std::string> fits{"adassp"};
    for (const auto &[known, id] : gram_mechanisms())
      if (robust_gram_mechanism_id(known)) fits.push_back(known);
    fail_unknown_name("--mechanism", name, fits);
  }
  fail(kExitUsage, "--mechanism on raw rows must be adassp or a Gram mechanism whose release's "
       "noise law the intervals read (", robust_gram_mechanism_names(), "), got '", name,
       "': release the matrix of another (`dpcov release -m ", name, "`) and regress on it");
}

}  // namespace

GramFitPlan plan_gram_fit(const GramFitQuery &q) {
  GramFitPlan plan;
  plan.mechanism = fit_mechanism_id(q.mechanism);
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  library_check(dpcov_mechanism_info_by_id(plan.mechanism, &entry),
                "the mechanism's registry entry");
  // Exact where the registry gives the mechanism exact numerics, unless idealized is asked for.
  const bool has_exact = (entry.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0;
  if (q.numerics == "exact" && !has_exact)
    fail(kExitUsage, "--numerics exact exists for ", exact_mechanism_names(), " only, not ",
         q.mechanism);
  plan.exact = has_exact && q.numerics != "idealized";
  plan.bound_x = regressor_norm_bound(q.bounds, q.features);
  plan.robust = q.robust;
  plan.epsilon = q.epsilon;
  plan.delta = q.delta;
  if (plan.robust) {
    plan.split = sandwich_budget(plan.bound_x, 1.0, q.epsilon, q.delta);  // |y'| <= 1
    plan.epsilon = plan.split.fit_epsilon;
    plan.delta = plan.split.fit_delta;
  }
  dpcov_row_bounding spec = regression_bounding(q.bounds);
  spec.neighbour = q.neighbour;
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, q.features + 1, &spec), "the rows' bounds");
  const GramHandle shape(raw);
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(shape.get(), &info), "the rows' bounds");
  plan.dim = info.dim;
  plan.row_bound = info.bound;
  return plan;
}

std::string gram_fit_share(const GramFitPlan &plan, double requested_epsilon) {
  return share_context(plan.epsilon,
                       plan.robust ? std::optional<double>(requested_epsilon) : std::nullopt,
                       "the robust intervals' meat spends the rest; --errors homoscedastic "
                       "gives the release all of it");
}

}  // namespace dpcov::cli
