#include "adassp_release.hpp"

#include <cmath>

#include "../core/check.hpp"
#include "rng_handle.hpp"
#include "struct_size.hpp"

namespace dpcov::capi {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

}  // namespace

ReleasedStatistics read_statistics(int32_t layout, int64_t p, const double *released_xtx,
                                   int64_t ld_xtx, const double *released_xty,
                                   const dpcov_adassp_receipt *receipt, double level) {
  // A receipt of a program compiled before max_rows_per_unit ends before it: a row-level fit.
  const dpcov_adassp_receipt r = read_struct(receipt, dpcov_adassp_receipt{}, "receipt");
  // The intervals condition on a public number of rows; at unit level the rows kept are private
  // (between U and k U for U units), so no interval of these is valid (proofs/adassp_units.md,
  // "Intervals").
  if (r.max_rows_per_unit != 0)
    fail(dpcov::Status::Incompatible, "AdaSSP's intervals need the public number of rows of a ",
         "row-level fit; this fit is at the level of privacy units (max_rows_per_unit = ",
         r.max_rows_per_unit, "), whose kept rows are private: no interval is given");
  check::not_null(released_xty, "released_xty");
  // The bounds set the values that matter (R_j), which decide what is conclusive.
  if (!std::isfinite(r.bound) || !std::isfinite(r.bound_y))
    fail(dpcov::Status::NonFinite, "the receipt's bounds must be finite, got bound = ", r.bound,
         ", bound_y = ", r.bound_y);
  if (!(r.bound > 0.0 && r.bound_y > 0.0))
    fail(dpcov::Status::InvalidArgument, "the receipt's bounds must be > 0, got bound = ",
         r.bound, ", bound_y = ", r.bound_y);
  if (p < 1 || p != receipt->num_regressors)
    fail(dpcov::Status::Dimension,
         "p must be receipt->num_regressors = ", receipt->num_regressors, ", got ", p);
  if (!(level > 0.0 && level < 1.0))
    fail(dpcov::Status::InvalidArgument, "level must be in (0, 1), got ", level);
  const dpcov::ConstMatrixView view =
      check::matrix(layout, p, p, released_xtx, ld_xtx, "released_xtx");
  check::all_finite(view, "released_xtx");
  ReleasedStatistics s{dpcov::Matrix(p, p), std::vector<double>(at(p)), {}};
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) s.xtx(i, j) = view(i, j);
    s.xty[at(j)] = released_xty[j];
  }
  for (int64_t j = 0; j < p; ++j)
    if (!std::isfinite(released_xty[j]))
      fail(dpcov::Status::NonFinite, "released_xty[", j, "] is not finite");
  s.receipt.dim = p;
  s.receipt.label_square = receipt->label_square_released == 1;
  s.receipt.bound_x = receipt->bound;
  s.receipt.bound_y = receipt->bound_y;
  s.receipt.sigma_gram = receipt->sigma_gram;
  s.receipt.sigma_gram_off_diagonal = receipt->sigma_gram_off_diagonal;
  s.receipt.sigma_cross = receipt->sigma_cross;
  s.receipt.sigma_label_square = receipt->sigma_label_square;
  return s;
}

ReleasedStatistics read_release(int32_t layout, int64_t p, const double *released_xtx,
                                int64_t ld_xtx, const double *released_xty,
                                const dpcov_adassp_receipt *receipt, const dpcov_rng *rng,
                                double level) {
  ReleasedStatistics s =
      read_statistics(layout, p, released_xtx, ld_xtx, released_xty, receipt, level);
  check::not_null(rng, "rng");
  return s;
}

Matrix read_square(int32_t layout, int64_t p, const double *a, int64_t lda, const char *name) {
  const ConstMatrixView view = check::matrix(layout, p, p, a, lda, name);
  check::all_finite(view, name);
  check::symmetric(view, name);
  Matrix m(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) m(i, j) = view(i, j);
  return m;
}

void write_intervals(int64_t p, std::initializer_list<const std::vector<double> *> results,
                     std::initializer_list<double *> outputs) {
  for (const auto *v : results) check::finite_result(v->data(), v->size(), "interval");
  auto out = outputs.begin();
  for (const auto *v : results) {
    if (*out != nullptr)
      for (int64_t i = 0; i < p; ++i) (*out)[i] = (*v)[at(i)];
    ++out;
  }
}

}  // namespace dpcov::capi
