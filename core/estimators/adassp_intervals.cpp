#include "adassp_intervals.hpp"

#include "../error.hpp"
#include "adassp_posterior.hpp"
#include "ols_bootstrap.hpp"

namespace dpcov::estimators {

namespace {

void mark_conclusive(RegressionIntervals &out, const mechanisms::AdasspReceipt &receipt,
                     int64_t intercept_column) {
  if (out.conclusive.empty()) out.conclusive.assign(out.ci_lower.size(), kConclusive);
  for (size_t j = 0; j < out.ci_lower.size(); ++j) {
    if (out.conclusive[j] == kUnconverged) continue;  // no interval to judge
    const double r = relevant_half_range(receipt, intercept_column, static_cast<int64_t>(j));
    if (out.ci_lower[j] <= -r && out.ci_upper[j] >= r) out.conclusive[j] = kCoversAll;
  }
}

}  // namespace

RegressionIntervals adassp_intervals(const Matrix &xtx_released,
                                     const std::vector<double> &xty_released,
                                     double yty_released, int64_t n,
                                     const mechanisms::AdasspReceipt &receipt,
                                     int64_t intercept_column, double level, int64_t draws,
                                     random::Rng &rng) {
  if (intercept_column < -1 || intercept_column >= receipt.dim)
    fail(Status::InvalidArgument, "intercept column must be -1 or in [0, ", receipt.dim,
         "), got ", intercept_column);
  RegressionIntervals out;
  random::Rng local = rng;
  try {
    BootstrapIntervals b = adassp_bootstrap_intervals(xtx_released, xty_released, yty_released, n,
                                                      receipt, level, draws, local);
    out.coefficients = std::move(b.coefficients);
    out.std_errors = std::move(b.std_errors);
    out.p_values = std::move(b.p_values);
    out.ci_lower = std::move(b.ci_lower);
    out.ci_upper = std::move(b.ci_upper);
  } catch (const Error &e) {
    if (e.status() != Status::Precondition) throw;
    local = rng;
    PosteriorIntervals q = adassp_posterior_intervals(xtx_released, xty_released, yty_released,
                                                      n, receipt, intercept_column, level, draws,
                                                      local);
    out.method = IntervalMethod::Posterior;
    out.coefficients = std::move(q.coefficients);
    out.std_errors = std::move(q.std_errors);
    out.p_values = std::move(q.p_values);
    out.ci_lower = std::move(q.ci_lower);
    out.ci_upper = std::move(q.ci_upper);
    const double min_share = min_sampling_share(level);
    for (size_t j = 0; j < q.converged.size(); ++j)
      out.conclusive.push_back(q.converged[j] != 1                  ? kUnconverged
                               : !(q.sampling_share[j] >= min_share) ? kPriorDecides
                                                                     : kConclusive);
  }
  mark_conclusive(out, receipt, intercept_column);
  rng = local;
  return out;
}

}  // namespace dpcov::estimators
