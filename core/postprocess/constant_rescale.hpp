// A released matrix whose constant column held one value, read as if it had held another: a
// function of the release and public constants, so it costs no privacy.
#pragma once

#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::postprocess {

// Y with row and column `column` multiplied by r = value / held, entry (column, column) by r
// twice, the row first (the order Python's NumPy code used, so that its outputs keep their bits).
// An exact release rounds a constant column to its grid (data::exact_grid_value): the intercept
// and the released count read the nominal value. Throws Status::InvalidArgument unless `column`
// is in [0, d), `held` and `value` are finite > 0 and r is finite > 0.
Matrix rescale_constant_column(const Matrix &y, int64_t column, double held, double value);

}  // namespace dpcov::postprocess
