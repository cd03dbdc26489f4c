// C ABI of the profile intervals of an AdaSSP release (dpcov/adassp.h).
#include "../core/check.hpp"
#include "../core/estimators/adassp_intervals.hpp"
#include "adassp_release.hpp"
#include "dpcov/adassp.h"
#include "guard.hpp"

namespace check = dpcov::check;

extern "C" {

DPCOV_API dpcov_status dpcov_adassp_profile_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, int64_t intercept_column, double level,
    double *coefficients, double *p_values, double *ci_lower, double *ci_upper,
    int32_t *conclusive) {
  return dpcov::capi::guarded([&] {
    const dpcov::capi::ReleasedStatistics s =
        dpcov::capi::read_statistics(layout, p, released_xtx, ld_xtx, released_xty, receipt, level);
    check::not_null(coefficients, "coefficients");
    check::not_null(ci_lower, "ci_lower");
    check::not_null(ci_upper, "ci_upper");
    check::not_null(conclusive, "conclusive");
    dpcov::Matrix meat;
    if (released_meat != nullptr)
      meat = dpcov::capi::read_square(layout, p, released_meat, ld_meat, "released_meat");
    const double yty = s.receipt.label_square ? receipt->released_label_square : 0.0;
    const dpcov::estimators::RegressionIntervals b = dpcov::estimators::adassp_profile_intervals(
        s.xtx, s.xty, yty, n, released_meat != nullptr ? &meat : nullptr, s.receipt,
        intercept_column, level);
    dpcov::capi::write_intervals(p, {&b.coefficients, &b.p_values, &b.ci_lower, &b.ci_upper},
                                 {coefficients, p_values, ci_lower, ci_upper});
    for (int64_t i = 0; i < p; ++i) conclusive[i] = b.conclusive[static_cast<size_t>(i)];
  });
}

}  // extern "C"
