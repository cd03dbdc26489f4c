#include "unit_bound.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "gram_sensitivity.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double unit_contribution_bound(int64_t max_rows_per_unit, double row_bound) {
  if (max_rows_per_unit < 1 || max_rows_per_unit > kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be in [1, ", kMaxRowsPerUnit, "], got ",
         max_rows_per_unit);
  check::positive_finite(row_bound, "bound B");
  // k <= 2^20 is exact; each step rounds up, so the result is >= sqrt(k) B (1 + 2^-30) >=
  // sqrt(k) B, and its square (exact arithmetic) >= k B^2.
  const double root_k = upward::sqrt_up(static_cast<double>(max_rows_per_unit));
  const double out =
      upward::mul_up(upward::mul_up(root_k, row_bound), upward::add_up(1.0, kUnitBoundRoom));
  if (!std::isfinite(out))
    fail(Status::InvalidArgument, "the unit bound sqrt(k) B (k = ", max_rows_per_unit, ", B = ",
         row_bound, ") overflows");
  return out;
}

double unit_gram_l2_sensitivity(Neighbour neighbour, int64_t max_rows_per_unit, double row_bound) {
  return gram_l2_sensitivity(neighbour, unit_contribution_bound(max_rows_per_unit, row_bound));
}

double unit_gram_upper_triangle_l1_sensitivity(Neighbour neighbour, int64_t dim,
                                               int64_t max_rows_per_unit, double row_bound) {
  return gram_upper_triangle_l1_sensitivity(
      neighbour, dim, unit_contribution_bound(max_rows_per_unit, row_bound));
}

}  // namespace dpcov::privacy
