// dpcov_audit_units for adassp (core/audit/adassp_units.hpp): the release of units keeps its
// unit-level claim at k in {1, 5} under both relations, and the planted broken variant (the
// row-level calibration on k-row units) is flagged at k = 5 (at k = 1 it is the release itself);
// every bad argument is refused with the result untouched.
// Error rate: each audit flags a release that matches its claim with probability <= alpha = 1e-6
// (fixed seeds); 4 audits here must pass, so <= 4e-6 for the file. The broken variant's exact
// delta on the pair (0.195 at k = 5, eps = 1, add/remove) is flagged without randomness.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dpcov.h"

namespace {

dpcov_audit_params audit_params() {
  dpcov_audit_params ap;
  EXPECT_EQ(dpcov_audit_params_default(&ap), DPCOV_OK);
  ap.trials = 2000;
  ap.first_checkpoint = 250;
  ap.seed = 34;
  return ap;
}

dpcov_mechanism_params relation(int32_t neighbour) {
  dpcov_mechanism_params mp;
  EXPECT_EQ(dpcov_mechanism_params_default(&mp), DPCOV_OK);
  mp.neighbour = neighbour;
  return mp;
}

TEST(CapiAdasspUnitsAudit, TheUnitReleasePassesAndTheRowLevelCalibrationIsFlagged) {
  const dpcov_audit_params ap = audit_params();
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE})
    for (const int64_t k : {1, 5})
      for (const int32_t broken : {0, 1}) {
        if (k == 1 && broken == 1) continue;
        const dpcov_mechanism_params mp = relation(neighbour);
        dpcov_audit_result r{};
        r.struct_size = sizeof r;
        ASSERT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ADASSP, 3, k, 1.0, 1.0, 1e-6, broken, &mp,
                                    &ap, &r),
                  DPCOV_OK)
            << dpcov_last_error_message();
        SCOPED_TRACE(testing::Message() << "neighbour " << neighbour << " k " << k << " broken "
                                        << broken << " findings " << r.findings);
        EXPECT_EQ(r.verdict, broken ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND);
        EXPECT_EQ(r.epsilon, 1.0);
        EXPECT_EQ(r.delta, 1e-6);
        EXPECT_EQ(r.noise, DPCOV_AUDIT_NOISE_CLAIMED_LAW);
        EXPECT_GT(r.samples, 0);
        EXPECT_GT(r.pair_distance, 0.0);
        if (broken) {
          EXPECT_TRUE(r.findings & DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED);
          EXPECT_GT(r.gaussian_delta_lower, 0.1);
        } else {
          EXPECT_LE(r.gaussian_delta_lower, 1e-6);
        }
      }
}

TEST(CapiAdasspUnitsAudit, BadArgumentsAreRefusedWithTheResultUntouched) {
  dpcov_audit_params ap = audit_params();
  const dpcov_mechanism_params mp = relation(DPCOV_NEIGHBOUR_REPLACE_ONE);
  struct Bad {
    int64_t dim, k;
    double bound, eps, delta;
    int32_t broken;
    dpcov_status status;
  };
  const double nan = std::nan(""), inf = INFINITY;
  const Bad bad[] = {
      {1, 2, 1.0, 1.0, 1e-6, 0, DPCOV_E_DIMENSION},
      {0, 2, 1.0, 1.0, 1e-6, 0, DPCOV_E_DIMENSION},
      {1025, 2, 1.0, 1.0, 1e-6, 0, DPCOV_E_DIMENSION},
      {3, 0, 1.0, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, -1, 1.0, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, (int64_t{1} << 20) + 1, 1.0, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, 1.0, 1e-6, 2, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, 0.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, -1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, nan, 1e-6, 0, DPCOV_E_NON_FINITE},
      {3, 2, 1.0, inf, 1e-6, 0, DPCOV_E_NON_FINITE},
      {3, 2, 1.0, 1.0, 0.0, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, 1.0, 1.0, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1.0, 1.0, nan, 0, DPCOV_E_NON_FINITE},
      {3, 2, nan, 1.0, 1e-6, 0, DPCOV_E_NON_FINITE},
      {3, 2, inf, 1.0, 1e-6, 0, DPCOV_E_NON_FINITE},
      {3, 2, 0.0, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, -1.0, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1e-200, 1.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {3, 2, 1e160, 1.0, 1e-6, 0, DPCOV_E_NON_FINITE},        // a sensitivity overflows
      {3, 2, 4e153, 1.0, 1e-6, 0, DPCOV_E_NUMERICAL},         // a noise scale overflows
      {3, 1, 4e153, 4.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},  // the pair's y'y overflows
  };
  for (const Bad &b : bad) {
    dpcov_audit_result r{};
    r.struct_size = sizeof r;
    r.samples = -7;
    const dpcov_status s = dpcov_audit_units(DPCOV_MECHANISM_ADASSP, b.dim, b.k, b.bound, b.eps,
                                             b.delta, b.broken, &mp, &ap, &r);
    EXPECT_EQ(s, b.status) << "d " << b.dim << " k " << b.k << " bound " << b.bound << " eps "
                           << b.eps << " delta " << b.delta << ": " << dpcov_last_error_message();
    EXPECT_NE(std::string(dpcov_last_error_message()), "");
    EXPECT_EQ(r.samples, -7);
  }
  dpcov_audit_result r{};
  r.struct_size = sizeof r;
  r.samples = -7;
  // An option adassp does not read, an unknown relation, and a cap on the audit's work.
  dpcov_mechanism_params other = mp;
  other.projection_rows = 20;
  EXPECT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ADASSP, 3, 2, 1.0, 1.0, 1e-6, 0, &other, &ap, &r),
            DPCOV_E_INVALID_ARGUMENT);
  other = mp;
  other.neighbour = 7;
  EXPECT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ADASSP, 3, 2, 1.0, 1.0, 1e-6, 0, &other, &ap, &r),
            DPCOV_E_INVALID_ARGUMENT);
  ap.trials = DPCOV_AUDIT_MAX_TRIALS;
  EXPECT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ADASSP, 1000, 2, 1.0, 1.0, 1e-6, 0, &mp, &ap, &r),
            DPCOV_E_TOO_LARGE);
  EXPECT_EQ(r.samples, -7);
  EXPECT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ADASSP, 3, 2, 1.0, 1.0, 1e-6, 0, &mp, &ap, nullptr),
            DPCOV_E_NULL_POINTER);
}

}  // namespace
