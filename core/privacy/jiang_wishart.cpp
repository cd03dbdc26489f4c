#include "jiang_wishart.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// Jiang et al. Alg. 2: "C has d same eigenvalues equal to 3 / (2 n eps)" (on S = G / n).
constexpr double kJiangNumerator = 3.0;

}  // namespace

double jiang_wishart_scale_not_dp(double bound, double eps) {
  check::positive_finite(bound, "bound B");
  check::epsilon(eps);
  using namespace upward;
  return div_up(mul_up(kJiangNumerator, mul_up(bound, bound)), mul_down(2.0, eps));
}

double jiang_wishart_dof_not_dp(int64_t dim) {
  check::dimension(dim, "dimension d");
  return static_cast<double>(dim + 1);
}

}  // namespace dpcov::privacy
