#include "posterior_intervals.hpp"

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
  for (size_t j = 0; j < out.conclusive.size(); ++j)
    if (out.conclusive[j] != 1)
      out.lower[j] = out.upper[j] = std::numeric_limits<double>::quiet_NaN();
  out.computed = true;
}

std::string inconclusive_warning(const NoiseAware &a, const std::vector<std::string> &terms) {
  std::string covers, unconverged;
  for (size_t j = 0; j < a.conclusive.size() && j < terms.size(); ++j) {
    std::string &names = a.conclusive[j] == 0 ? covers : unconverged;
    if (a.conclusive[j] != 1) names += concat(names.empty() ? "" : ", ", terms[j]);
  }
  std::string out;
  if (!covers.empty())
    out = concat("the release cannot support a conclusion about ", covers,
                 ": their intervals cover every value that matters (printed as nan)");
  if (!unconverged.empty())
    out += concat(out.empty() ? "" : "; ", "the release cannot support a conclusion about ",
                  unconverged, ": the posterior's chains did not converge for them (printed as nan)");
  return out;
}

}  // namespace dpcov::cli
