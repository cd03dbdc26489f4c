// C ABI of the post-processing functions (dpcov/postprocess.h).
#include "dpcov/postprocess.h"

#include "../core/check.hpp"
#include "../core/estimators/gram_estimate.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/postprocess/constant_rescale.hpp"
#include "../core/postprocess/eigenvalue_clip.hpp"
#include "../core/postprocess/identity_shift.hpp"
#include "guard.hpp"
#include "receipt_writer.hpp"
#include "struct_size.hpp"

namespace {

// Validates the in-place symmetric argument and returns a column-major copy of it.
dpcov::Matrix symmetric_input(int32_t layout, int64_t dim, const double *a, int64_t lda) {
  dpcov::check::dimension(dim, "dimension d");
  const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, dim, dim, a, lda, "a");
  dpcov::check::all_finite(view, "a");
  dpcov::check::symmetric(view, "a");
  return dpcov::Matrix::from(view);
}

void write_back(const dpcov::Matrix &result, int32_t layout, int64_t dim, double *a, int64_t lda) {
  dpcov::check::finite_result(result.view(), "post-processed matrix");
  dpcov::write_symmetric_from_upper(result,
                                    dpcov::check::output_matrix(layout, dim, dim, a, lda, "a"));
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_postprocess_psd_project(int32_t layout, int64_t dim, double *a,
                                                     int64_t lda) {
  return dpcov::capi::guarded([&] {
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    write_back(dpcov::postprocess::project_psd(y), layout, dim, a, lda);
  });
}

DPCOV_API dpcov_status dpcov_postprocess_constant_rescale(int32_t layout, int64_t dim, double *a,
                                                          int64_t lda, int64_t column,
                                                          double held, double value) {
  return dpcov::capi::guarded([&] {
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    write_back(dpcov::postprocess::rescale_constant_column(y, column, held, value), layout, dim,
               a, lda);
  });
}

DPCOV_API dpcov_status dpcov_postprocess_eigenvalues_clip(int32_t layout, int64_t dim, double *a,
                                                          int64_t lda, double lower,
                                                          double upper) {
  return dpcov::capi::guarded([&] {
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    write_back(dpcov::postprocess::clip_eigenvalues(y, lower, upper), layout, dim, a, lda);
  });
}

DPCOV_API dpcov_status dpcov_postprocess_analyze_gauss_shift(int32_t layout, int64_t dim,
                                                             double *a, int64_t lda, double sigma,
                                                             double nu, double *shift_added) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(shift_added, "shift_added");
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    double shift = 0.0;
    const dpcov::Matrix result = dpcov::postprocess::shift_analyze_gauss(y, sigma, nu, shift);
    dpcov::check::finite_result(shift, "shift_added");
    write_back(result, layout, dim, a, lda);
    *shift_added = shift;
  });
}

DPCOV_API dpcov_status dpcov_postprocess_wishart_mean_subtract(int32_t layout, int64_t dim,
                                                               double *a, int64_t lda, double dof,
                                                               double scale) {
  return dpcov::capi::guarded([&] {
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    write_back(dpcov::postprocess::subtract_wishart_mean(y, dof, scale), layout, dim, a, lda);
  });
}

DPCOV_API dpcov_status dpcov_postprocess_gram_estimate(int32_t layout, int64_t dim, double *a,
                                                       int64_t lda, const dpcov_receipt *receipt,
                                                       int32_t *unbiased) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(unbiased, "unbiased");
    const dpcov_receipt given = dpcov::capi::read_struct(receipt, dpcov_receipt{}, "receipt");
    dpcov::mechanisms::mechanism_id(given.mechanism);
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    const dpcov::estimators::GramEstimate estimate =
        dpcov::estimators::gram_estimate(y, dpcov::capi::core_receipt(given));
    write_back(estimate.matrix, layout, dim, a, lda);
    *unbiased = estimate.unbiased ? 1 : 0;
  });
}

DPCOV_API dpcov_status dpcov_postprocess_wishart_shift(int32_t layout, int64_t dim, double *a,
                                                       int64_t lda, double dof, double scale,
                                                       double nu, double *shift_subtracted) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(shift_subtracted, "shift_subtracted");
    const dpcov::Matrix y = symmetric_input(layout, dim, a, lda);
    double shift = 0.0;
    const dpcov::Matrix result = dpcov::postprocess::shift_wishart(y, dof, scale, nu, shift);
    dpcov::check::finite_result(shift, "shift_subtracted");
    write_back(result, layout, dim, a, lda);
    *shift_subtracted = shift;
  });
}

}  // extern "C"
