#include "posterior_intervals.hpp"

#include <iterator>
#include <limits>

#include "../library_status.hpp"
#include "../cli_error.hpp"

namespace dpcov::cli {

void adassp_intervals_at_every_n(const std::vector<double> &xtx, const std::vector<double> &xty,
                                 int64_t n, const dpcov_adassp_receipt &receipt, double level,
                                 int64_t draws, int64_t intercept_column, dpcov_rng *rng,
                                 NoiseAware &out) {
  const int64_t p = receipt.num_regressors;
  out.conclusive.assign(static_cast<size_t>(p), 0);
  int32_t method = 0;
  library_check(dpcov_adassp_intervals(DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), n, &receipt,
                                       intercept_column, level, draws, rng, out.coef.data(),
                                       out.se.data(), out.p.data(), out.lower.data(),
                                       out.upper.data(), out.conclusive.data(), &method),
                "noise-aware intervals");
  out.method = method == DPCOV_INTERVALS_POSTERIOR ? "noise-aware posterior"
                                                   : "parametric bootstrap";
  // An interval that cannot support a conclusion prints nan; where a prior decides it or the
  // chains did not converge (-2, -1), the standard error and p-value are not the release's either.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t j = 0; j < out.conclusive.size(); ++j) {
    if (out.conclusive[j] != 1) out.lower[j] = out.upper[j] = nan;
    if (out.conclusive[j] < 0) out.se[j] = out.p[j] = nan;
  }
  out.computed = true;
}

std::string inconclusive_warning(const NoiseAware &a, const std::vector<std::string> &terms) {
  // The reasons of dpcov_adassp_intervals' conclusive values 0, -1 and -2 and of
  // dpcov_ols_intervals' DPCOV_COEFFICIENT_UNBOUNDED, in that order.
  constexpr int32_t kValues[] = {0, -1, -2, DPCOV_COEFFICIENT_UNBOUNDED};
  constexpr const char *kReasons[] = {
      "their intervals cover every value that matters",
      "the posterior's chains did not converge for them",
      "a prior, not the release, decides their intervals",
      "they lie along a direction of X'X too weak against the privacy noise for the release to "
      "bound them"};
  std::string out;
  for (size_t k = 0; k < std::size(kValues); ++k) {
    std::string names;
    for (size_t j = 0; j < a.conclusive.size() && j < terms.size(); ++j)
      if (a.conclusive[j] == kValues[k]) names += concat(names.empty() ? "" : ", ", terms[j]);
    if (!names.empty())
      out += concat(out.empty() ? "" : "; ", "the release cannot support a conclusion about ",
                    names, ": ", kReasons[k], " (printed as nan)");
  }
  return out;
}

}  // namespace dpcov::cli
