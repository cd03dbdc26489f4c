#include "constant_rescale.hpp"

#include <cmath>

#include "../error.hpp"

namespace dpcov::postprocess {

Matrix rescale_constant_column(const Matrix &y, int64_t column, double held, double value) {
  const int64_t d = y.rows();
  if (column < 0 || column >= d)
    fail(Status::InvalidArgument, "column must be in [0, ", d, "), got ", column);
  if (!(std::isfinite(held) && held > 0.0) || !(std::isfinite(value) && value > 0.0))
    fail(Status::InvalidArgument, "held and value must be finite and > 0, got ", held, " and ",
         value);
  const double r = value / held;
  if (!(std::isfinite(r) && r > 0.0))
    fail(Status::InvalidArgument, "value / held must be finite and > 0, got ", value, " / ",
         held);
  Matrix out = y;
  for (int64_t j = 0; j < d; ++j) out(column, j) *= r;
  for (int64_t i = 0; i < d; ++i) out(i, column) *= r;
  return out;
}

}  // namespace dpcov::postprocess
