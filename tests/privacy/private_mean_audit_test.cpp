// Black-box audit of the release the private mean and the centred covariance come from
// (dpcov/centring.h, proofs/centring.md): raw rows in their own units, mapped by public column
// ranges to [1, z] (dpcov/column_bounds.h), released by Analyze Gauss at the box's norm bound
// sqrt(d + 1). The mean and covariance are post-processing of that release, so its privacy loss
// bounds theirs. The pair is the worst case for the mean: one row moved from the lower corner of
// every range to the upper one (each z_j from -1 to +1). Errors: alpha = 1e-6 per audit (the
// auditor's default), so a correct release is flagged with probability at most 1e-6.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kRows = 20, kCols = 3;
const std::vector<double> kLower = {18.0, 0.0, -40.0}, kUpper = {90.0, 2e5, 40.0};

// n x d raw rows inside the ranges; row 0 at the lower (or upper) corner.
std::vector<double> raw_rows(bool upper_corner) {
  std::vector<double> a(static_cast<size_t>(kRows * kCols));
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) {
      const double t = static_cast<double>((i * 7 + j * 3) % 11) / 10.0;
      a[static_cast<size_t>(i * kCols + j)] = kLower[j] + t * (kUpper[j] - kLower[j]);
    }
  for (int64_t j = 0; j < kCols; ++j) a[static_cast<size_t>(j)] = upper_corner ? kUpper[j] : kLower[j];
  return a;
}

std::vector<double> scaled(const std::vector<double> &raw, double shrink = 1.0) {
  std::vector<double> lower = kLower, upper = kUpper;
  // shrink < 1 narrows the ranges around their centres: the broken scaling below.
  for (size_t j = 0; j < lower.size(); ++j) {
    const double centre = (lower[j] + upper[j]) / 2, half = (upper[j] - lower[j]) / 2;
    lower[j] = centre - shrink * half;
    upper[j] = centre + shrink * half;
  }
  std::vector<double> out(static_cast<size_t>(kRows * (kCols + 1)));
  int64_t clamped = 0;
  EXPECT_EQ(dpcov_column_bounds_scale_rows(DPCOV_ROW_MAJOR, kRows, kCols, raw.data(), kCols,
                                           lower.data(), upper.data(), out.data(), kCols + 1,
                                           &clamped),
            DPCOV_OK);
  if (shrink < 1.0) {
    // Undo the clamp the narrower ranges did, as a scaling without the clamp would: z in [-2, 2].
    for (int64_t i = 0; i < kRows; ++i)
      for (int64_t j = 0; j < kCols; ++j)
        out[static_cast<size_t>(i * (kCols + 1) + j + 1)] =
            (raw[static_cast<size_t>(i * kCols + j)] - (kLower[j] + kUpper[j]) / 2) /
            (shrink * (kUpper[j] - kLower[j]) / 2);
  }
  return out;
}

dpcov_audit_result audit(const std::vector<double> &d, const std::vector<double> &d_prime,
                         double bound, dpcov_status *status) {
  dpcov_audit_params params;
  dpcov_audit_params_default(&params);
  dpcov_audit_result result{};
  result.struct_size = sizeof result;
  *status = dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, kCols + 1,
                                 d.data(), kRows, kCols + 1, d_prime.data(), kRows, kCols + 1,
                                 bound, 1.0, 1e-6, nullptr, &params, &result);
  return result;
}

TEST(PrivateMeanAudit, TheScaledReleaseMeetsItsClaimOnTheWorstPairForTheMean) {
  double bound = 0.0;
  ASSERT_EQ(dpcov_column_bounds_norm_bound(kCols, &bound), DPCOV_OK);
  EXPECT_GE(bound, std::sqrt(static_cast<double>(kCols + 1)));
  dpcov_status status = DPCOV_OK;
  const dpcov_audit_result r = audit(scaled(raw_rows(false)), scaled(raw_rows(true)), bound, &status);
  ASSERT_EQ(status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND) << r.findings;
  // The pair moves the constant-column cross terms and the z block: the largest change a pair of
  // box rows can make to the upper triangle of [1, z][1, z]^T (2 in each of the d cross terms,
  // none on the diagonal, whose squares are 1 both times).
  EXPECT_NEAR(r.pair_distance, 2.0 * std::sqrt(static_cast<double>(kCols)), 1e-9);
  EXPECT_GE(r.samples, 2000);
}

TEST(PrivateMeanAudit, ScalingsThatBreakTheBoxAreRefusedAtTheirClaimedBound) {
  double bound = 0.0;
  ASSERT_EQ(dpcov_column_bounds_norm_bound(kCols, &bound), DPCOV_OK);
  dpcov_status status = DPCOV_OK;
  // Forgetting the constant column's share of the norm: sqrt(d) instead of sqrt(d + 1).
  audit(scaled(raw_rows(false)), scaled(raw_rows(true)), std::sqrt(static_cast<double>(kCols)),
        &status);
  EXPECT_EQ(status, DPCOV_E_NORM_BOUND);
  // Half-ranges taken too small (z up to 2) without clamping.
  audit(scaled(raw_rows(false), 0.5), scaled(raw_rows(true), 0.5), bound, &status);
  EXPECT_EQ(status, DPCOV_E_NORM_BOUND);
}

}  // namespace
