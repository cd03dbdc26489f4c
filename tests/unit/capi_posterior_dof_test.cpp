// The inverse-Wishart degrees of freedom m are carried as a double (the receipt's dof, the
// Bartlett factor's chi-square degrees m - i), exact only up to 2^53: m = 2^63 - 1 was accepted
// and released from the law with m rounded to 2^63. Refused above 2^53 now, by plan and release.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

dpcov_status plan_with_dof(int32_t mechanism, int64_t m, dpcov_receipt &r) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.posterior_dof = m;
  r = dpcov_receipt{};
  r.struct_size = sizeof r;
  return dpcov_mechanism_plan(mechanism, 3, 100, 1.0, 0.5, 1e-6, &p, &r);
}

TEST(CapiPosteriorDof, AtMostTwoToTheFiftyThree) {
  const int64_t largest = int64_t{1} << 53;
  for (const int32_t m :
       {DPCOV_MECHANISM_INVERSE_WISHART, DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN}) {
    dpcov_receipt r{};
    ASSERT_EQ(plan_with_dof(m, largest, r), DPCOV_OK) << dpcov_last_error_message();
    EXPECT_EQ(r.dof, 9007199254740992.0);
    for (const int64_t dof : {largest + 1, std::numeric_limits<int64_t>::max()}) {
      EXPECT_EQ(plan_with_dof(m, dof, r), DPCOV_E_INVALID_ARGUMENT) << dof;
      EXPECT_NE(std::string(dpcov_last_error_message()).find("2^53"), std::string::npos)
          << dpcov_last_error_message();
    }
  }
}

TEST(CapiPosteriorDof, ReleaseAboveTheBoundWritesNothing) {
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 3, 0), DPCOV_OK);
  const std::vector<double> g = {2.0, 0.0, 0.0, 2.0};
  std::vector<double> out(4, 7.0);
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.posterior_dof = std::numeric_limits<int64_t>::max();
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_INVERSE_WISHART, DPCOV_ROW_MAJOR, 2, g.data(),
                                    2, 10, 1.0, 0.5, 1e-6, &p, rng, out.data(), 2, &r),
            DPCOV_E_INVALID_ARGUMENT);
  for (const double v : out) EXPECT_EQ(v, 7.0);
  dpcov_rng_destroy(&rng);
}

}  // namespace
