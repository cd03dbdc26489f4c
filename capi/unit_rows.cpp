// C ABI of the rows privacy units keep for the zCDP row mechanisms (dpcov/gram.h,
// dpcov_unit_rows_keep): validation only; the policy is core/data/unit_rows_padded.hpp.
#include "../core/check.hpp"
#include "../core/data/unit_rows_padded.hpp"
#include "../core/error.hpp"
#include "dpcov/gram.h"
#include "guard.hpp"
#include "rng_handle.hpp"

extern "C" {

dpcov_status dpcov_unit_rows_keep(dpcov_rng *rng, int64_t max_rows_per_unit, int32_t layout,
                                  int64_t rows, int64_t cols, const double *a, int64_t lda,
                                  const int64_t *units, double *out, int64_t out_rows,
                                  int64_t ldout, int64_t *truncated) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(truncated, "truncated");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    if (rows > 0) dpcov::check::vector(rows, units, sizeof(int64_t), "units");
    if (out_rows < 0)
      dpcov::fail(dpcov::Status::Dimension, "out_rows must be >= 0, got ", out_rows);
    dpcov::MatrixView target{out, 0, cols, ldout, view.layout};
    if (out_rows > 0)
      target = dpcov::check::output_matrix(layout, out_rows, cols, out, ldout, "out");
    const dpcov::data::PaddedUnitCounts counts =
        dpcov::data::keep_padded_unit_rows(view, units, max_rows_per_unit, rng->rng, target);
    *truncated = counts.truncated;
  });
}

}  // extern "C"
