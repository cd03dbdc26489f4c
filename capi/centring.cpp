// dpcov/centring.h over the kernel (core/estimators/centring.hpp).
#include "dpcov/centring.h"

#include <cmath>

#include "../core/check.hpp"
#include "../core/estimators/centring.hpp"
#include "guard.hpp"

extern "C" {

DPCOV_API dpcov_status dpcov_centre_second_moment(int32_t layout, int64_t dim, const double *m,
                                                  int64_t ldm, int64_t constant_column,
                                                  double constant, int64_t n, double *mean,
                                                  double *cov, int64_t ldcov, double *count) {
  return dpcov::capi::guarded([&] {
    dpcov::check::dimension(dim, "dim");
    if (dim < 2)
      dpcov::fail(dpcov::Status::Dimension, "dim must be >= 2 (a constant column and data), got ",
                  dim);
    const dpcov::ConstMatrixView s = dpcov::check::matrix(layout, dim, dim, m, ldm, "m");
    dpcov::estimators::check_centring(dim, constant_column, constant, n);
    dpcov::check::not_null(mean, "mean");
    dpcov::check::vector(dim - 1, mean, sizeof(double), "mean");
    const dpcov::MatrixView out = dpcov::check::output_matrix(layout, dim - 1, dim - 1, cov, ldcov, "cov");
    dpcov::check::all_finite(s, "m");
    dpcov::check::symmetric(s, "m");
    const dpcov::estimators::Centred c =
        dpcov::estimators::centre_second_moment(s, constant_column, constant, n);
    dpcov::check::finite_result(c.mean.data(), c.mean.size(), "mean");
    dpcov::check::finite_result(c.covariance.view(), "cov");
    dpcov::check::finite_result(c.count, "count");  // S_cc / c^2 overflows for a tiny c
    for (size_t i = 0; i < c.mean.size(); ++i) mean[i] = c.mean[i];
    for (int64_t j = 0; j < dim - 1; ++j)
      for (int64_t i = 0; i < dim - 1; ++i) out(i, j) = c.covariance(i, j);
    if (count != nullptr) *count = c.count;
  });
}

}  // extern "C"
