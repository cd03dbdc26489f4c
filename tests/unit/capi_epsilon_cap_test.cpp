// DPCOV_MAX_EPSILON (docs/epsilon-cap.md): every entry point that takes a release's epsilon
// accepts the cap itself and refuses the next double with DPCOV_E_INVALID_ARGUMENT, before any
// draw and with its outputs untouched. At epsilon = 1e20 a release was its statistic to the last
// bit; such an epsilon is refused now.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kAbove = std::nextafter(DPCOV_MAX_EPSILON, INFINITY);

bool names_the_cap() {
  return std::string(dpcov_last_error_message()).find("DPCOV_MAX_EPSILON") != std::string::npos;
}

TEST(CapiEpsilonCap, IsTwoToTheForty) {
  EXPECT_EQ(DPCOV_MAX_EPSILON, std::ldexp(1.0, 40));
}

TEST(CapiEpsilonCap, MechanismPlansAcceptTheCapAndRefuseAbove) {
  for (const int32_t m : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM}) {
    const double delta = m == DPCOV_MECHANISM_ANALYZE_GAUSS ? 1e-6 : 0.0;
    dpcov_receipt r{};
    r.struct_size = sizeof r;
    EXPECT_EQ(dpcov_mechanism_plan(m, 3, 100, 1.0, DPCOV_MAX_EPSILON, delta, nullptr, &r), DPCOV_OK)
        << dpcov_last_error_message();
    for (const double eps : {kAbove, 1e20}) {
      EXPECT_EQ(dpcov_mechanism_plan(m, 3, 100, 1.0, eps, delta, nullptr, &r),
                DPCOV_E_INVALID_ARGUMENT);
      EXPECT_TRUE(names_the_cap()) << dpcov_last_error_message();
      dpcov_exact_grid grid{};
      grid.struct_size = sizeof grid;
      EXPECT_EQ(dpcov_exact_plan(m, 3, 100, 1.0, eps, delta, nullptr, &r, &grid),
                DPCOV_E_INVALID_ARGUMENT);
    }
  }
}

TEST(CapiEpsilonCap, ReleaseAboveTheCapDrawsNothingAndWritesNothing) {
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
  const std::vector<double> g = {1.0, 0.5, 0.5, 1.0};
  std::vector<double> out(4, 7.0);
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  std::vector<unsigned char> before(4096), after(4096);
  ASSERT_EQ(dpcov_rng_state_save(rng, before.data(), before.size()), DPCOV_OK);
  EXPECT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 2, g.data(), 2,
                                    10, 1.0, 1e20, 1e-6, nullptr, rng, out.data(), 2, &r),
            DPCOV_E_INVALID_ARGUMENT);
  ASSERT_EQ(dpcov_rng_state_save(rng, after.data(), after.size()), DPCOV_OK);
  EXPECT_EQ(before, after) << "generator advanced";
  for (const double v : out) EXPECT_EQ(v, 7.0);
  EXPECT_EQ(
      dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 2, g.data(), 2, 10,
                              1.0, DPCOV_MAX_EPSILON, 1e-6, nullptr, rng, out.data(), 2, &r),
      DPCOV_OK)
      << dpcov_last_error_message();
  dpcov_rng_destroy(&rng);
}

TEST(CapiEpsilonCap, PrivateBoundAdasspAndZcdpRefuseAbove) {
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
  const std::vector<double> grid = {1.0, 2.0, 4.0};
  const std::vector<int64_t> histogram = {5, 3, 1, 1};
  int64_t index = -7;
  double bound = -7.0;
  EXPECT_EQ(dpcov_private_bound_select(grid.data(), 3, histogram.data(), 1, DPCOV_MAX_EPSILON, rng,
                                       &index, &bound),
            DPCOV_OK)
      << dpcov_last_error_message();
  index = -7;
  bound = -7.0;
  EXPECT_EQ(
      dpcov_private_bound_select(grid.data(), 3, histogram.data(), 1, kAbove, rng, &index, &bound),
      DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(
      dpcov_private_bound_scan(grid.data(), 3, histogram.data(), 1, kAbove, rng, &index, &bound),
      DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(index, -7);
  EXPECT_EQ(bound, -7.0);
  dpcov_rng_destroy(&rng);

  dpcov_adassp_receipt a{};
  a.struct_size = sizeof a;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, kAbove, 1e-6, nullptr, &a), DPCOV_E_INVALID_ARGUMENT);
  double rho = -1.0;
  EXPECT_EQ(dpcov_zcdp_rho(kAbove, 1e-6, &rho), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(rho, -1.0);
}

}  // namespace
