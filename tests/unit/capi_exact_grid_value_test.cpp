// dpcov_exact_grid_value (dpcov/exact.h): the value a coordinate holds on an exact release's grid,
// which the command line and Python divide a constant column by. It is pinned bit for bit against
// the formula both computed themselves before the library exported it, over random points of the
// whole range, and every bad argument gets its status with the output untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "dpcov.h"

namespace {

// The surfaces' own copy, as `dpcov release` and Python's GramAccumulator.held_constant computed
// it: nearbyint(value 2^k / B) times the grid's unit B 2^-k.
double old_formula(double bound, int32_t bits, double value) {
  return std::nearbyint(value * (std::ldexp(1.0, bits) / bound)) * std::ldexp(bound, -bits);
}

TEST(CapiExactGridValue, IsTheSurfacesFormulaBitForBitOverRandomPoints) {
  std::mt19937_64 gen(20261129);
  std::uniform_real_distribution<double> exponent(-900.0, 900.0), unit(-1.0, 1.0);
  std::uniform_int_distribution<int32_t> bits_of(1, 30);
  for (int i = 0; i < 200000; ++i) {
    const double bound = std::exp2(exponent(gen));
    const int32_t bits = bits_of(gen);
    // Mostly anywhere within the bound; also the bound itself and ties of the rounding.
    double value = bound * unit(gen);
    if (i % 7 == 0) value = bound;
    if (i % 11 == 0) value = std::ldexp(bound, -bits) * (std::floor(unit(gen) * 100.0) + 0.5);
    if (!(std::fabs(value) <= bound)) continue;
    double out = 0.0;
    ASSERT_EQ(dpcov_exact_grid_value(bound, bits, value, &out), DPCOV_OK)
        << bound << " " << bits << " " << value << ": " << dpcov_last_error_message();
    ASSERT_EQ(out, old_formula(bound, bits, value)) << bound << " " << bits << " " << value;
  }
}

TEST(CapiExactGridValue, IsWhatAnExactPlansGridMakesOfTheConstantColumn) {
  // --add-constant at B = 1 with d = 4: rows [1, x] with norm bound sqrt(2) rounded up.
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const double norm_bound = 1.4142135623730954;
  ASSERT_EQ(dpcov_exact_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 5, 100, norm_bound, 1.0, 1e-6, nullptr,
                             &receipt, &grid),
            DPCOV_OK);
  double held = 0.0;
  ASSERT_EQ(dpcov_exact_grid_value(norm_bound, grid.bits, 1.0, &held), DPCOV_OK);
  EXPECT_EQ(held, std::nearbyint(1.0 / grid.unit) * grid.unit);
  EXPECT_NEAR(held, 1.0, grid.unit / 2);
}

TEST(CapiExactGridValue, BadArgumentsLeaveTheOutputUntouchedAndSayWhy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    double bound;
    int32_t bits;
    double value;
    dpcov_status status;
    const char *says;
  };
  const Case cases[] = {
      {nan, 10, 0.5, DPCOV_E_NON_FINITE, "bound"},
      {inf, 10, 0.5, DPCOV_E_NON_FINITE, "bound"},
      {0.0, 10, 0.0, DPCOV_E_INVALID_ARGUMENT, "bound"},
      {-1.0, 10, 0.5, DPCOV_E_INVALID_ARGUMENT, "bound"},
      {0x1p-961, 10, 0.0, DPCOV_E_INVALID_ARGUMENT, "bound"},
      {1.0, 0, 0.5, DPCOV_E_INVALID_ARGUMENT, "bits"},
      {1.0, 31, 0.5, DPCOV_E_INVALID_ARGUMENT, "bits"},
      {1.0, -5, 0.5, DPCOV_E_INVALID_ARGUMENT, "bits"},
      {1.0, 10, nan, DPCOV_E_NON_FINITE, "value"},
      {1.0, 10, -inf, DPCOV_E_NON_FINITE, "value"},
      {1.0, 10, 1.0000000000000002, DPCOV_E_INVALID_ARGUMENT, "value"},
      {1.0, 10, -2.0, DPCOV_E_INVALID_ARGUMENT, "value"},
  };
  for (const Case &c : cases) {
    double out = 12345.0;
    EXPECT_EQ(dpcov_exact_grid_value(c.bound, c.bits, c.value, &out), c.status)
        << c.bound << " " << c.bits << " " << c.value;
    EXPECT_EQ(out, 12345.0);
    EXPECT_NE(std::string(dpcov_last_error_message()).find(c.says), std::string::npos)
        << dpcov_last_error_message();
  }
  EXPECT_EQ(dpcov_exact_grid_value(1.0, 10, 0.5, nullptr), DPCOV_E_NULL_POINTER);
}

}  // namespace
