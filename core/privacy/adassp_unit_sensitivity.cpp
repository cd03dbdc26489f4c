#include "adassp_unit_sensitivity.hpp"

#include "../error.hpp"
#include "adassp_constants.hpp"
#include "unit_bound.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

AdasspSensitivities adassp_unit_sensitivities(Neighbour neighbour, double bound_x, double bound_y,
                                              int64_t max_rows_per_unit) {
  if (max_rows_per_unit < 0 || max_rows_per_unit > kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be 0 (rows) or in [1, ",
         kMaxRowsPerUnit, "], got ", max_rows_per_unit);
  AdasspSensitivities s;
  s.lambda_min = adassp_lambda_min_sensitivity(bound_x);
  s.gram = adassp_gram_sensitivity(neighbour, bound_x);
  s.cross = adassp_cross_sensitivity(neighbour, bound_x, bound_y);
  s.label_square = adassp_label_square_sensitivity(bound_y);
  if (max_rows_per_unit == 0) return s;
  // k <= 2^20 is exact in a double; each product rounded up stays above k times the exact value.
  const double k = static_cast<double>(max_rows_per_unit);
  for (double *value : {&s.lambda_min, &s.gram, &s.cross, &s.label_square})
    *value = upward::mul_up(k, *value);
  return s;
}

}  // namespace dpcov::privacy
