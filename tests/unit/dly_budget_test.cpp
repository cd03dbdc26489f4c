// Dong-Liang-Yi's budget at the bottom of the doubles: every share of rho is rounded down, so the
// shares never add up to more than rho, and a share that rounds to 0 is refused naming it. At a
// subnormal rho, 0.5 rho rounds to nearest: at rho = 3 2^-1074 Separate's two halves were each
// sized for 2 2^-1074 and spent 4/3 rho. Checked exactly (integer arithmetic on the mantissas).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "core/privacy/upward.hpp"

namespace dpcov {
namespace {

constexpr double kStep = std::numeric_limits<double>::denorm_min();
__extension__ using Uint128 = unsigned __int128;  // GCC and Clang; exact products of mantissas

TEST(UpwardHalfDown, IsNeverAboveHalfAndWithinOneStep) {
  using privacy::upward::half_down;
  for (int64_t k = 0; k < (1 << 20); ++k) {
    const double x = static_cast<double>(k) * kStep;  // exact: every subnormal up to 2^20 steps
    const double h = half_down(x);
    ASSERT_LE(2.0 * h, x) << k;
    ASSERT_GT(2.0 * (h + kStep), x) << k;
  }
  for (const double x : {1.0, 3.0, 0x1p-1022, 0x1.8p-1022, 1e300, 1.7976931348623157e308})
    EXPECT_EQ(half_down(x), 0.5 * x);  // exact above the subnormals
}

// True if rho sigma^2 >= c exactly, for rho = k 2^-1074 and c a small integer.
bool rho_sigma_squared_at_least(int64_t k, double sigma, int64_t c) {
  int q = 0;
  const double mantissa = std::frexp(sigma, &q);  // sigma = mantissa 2^q, mantissa in [1/2, 1)
  const auto m = static_cast<Uint128>(std::ldexp(mantissa, 53));  // sigma = m 2^(q-53)
  // rho sigma^2 = k m^2 2^(2 (q - 53) - 1074) >= c  <=>  k m^2 >= c 2^(1074 - 2 (q - 53)).
  const int shift = 1074 - 2 * (q - 53);
  const Uint128 lhs = static_cast<Uint128>(k) * m * m;  // < 2^119
  if (shift < 0) return true;
  if (shift >= 125) return false;
  return lhs >= static_cast<Uint128>(c) << shift;
}

// Separate at r = 1, n = 1: two Gaussian releases of sensitivity sqrt(2), each at the plan's
// sigma, spend 2 * 2 / (2 sigma^2) = 2 / sigma^2, which must be <= rho.
TEST(DlyBudget, SeparateSpendsAtMostRhoAtEverySubnormalRho) {
  int released = 0;
  for (int64_t k = 1; k <= 20000; ++k) {
    mechanisms::DlyRequest request;
    request.variant = mechanisms::DlyVariant::Separate;
    request.dim = 1;
    request.n = 1;
    request.rho = static_cast<double>(k) * kStep;
    mechanisms::DlyReceipt plan;
    try {
      plan = mechanisms::dly_plan(request);
    } catch (const Error &e) {
      ASSERT_EQ(k, 1);  // only 2^-1074 cannot be halved
      EXPECT_NE(std::string(e.what()).find("too small to split"), std::string::npos) << e.what();
      continue;
    }
    ++released;
    ASSERT_TRUE(rho_sigma_squared_at_least(k, plan.sigma_matrix, 2))
        << "rho = " << k << " 2^-1074, sigma = " << plan.sigma_matrix;
    ASSERT_EQ(plan.sigma_eigenvalues, plan.sigma_matrix);
  }
  EXPECT_EQ(released, 19999);
}

// Adaptive's shares at a subnormal rho: trace, first and second look, release, each rounded down
// from rho / 128, rho / 512, 15 rho / 512, 123 rho / 128 (exact integers of 2^-1074 here), or refused
// naming the share that rounds to 0.
TEST(DlyBudget, AdaptiveSharesAddUpToAtMostRhoAtSubnormalRho) {
  for (int64_t k = 1; k <= 40000; k += 37) {
    mechanisms::DlyRequest request;
    request.variant = mechanisms::DlyVariant::Adaptive;
    request.dim = 2;
    request.n = 3;
    request.rho = static_cast<double>(k) * kStep;
    mechanisms::DlyReceipt plan;
    try {
      plan = mechanisms::dly_plan(request);
    } catch (const Error &e) {
      EXPECT_EQ(e.status(), dpcov::Status::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("too small to split"), std::string::npos) << e.what();
      continue;
    }
    // The release's share in steps, times 128, is at most 123 k.
    const double release_steps = plan.rho_covariance / kStep;
    ASSERT_LE(128.0 * release_steps, 123.0 * static_cast<double>(k)) << k;
    // The first look's sigma is 1 / sqrt(rho_1) rounded up: rho_1 sigma^2 >= 1 with
    // rho_1 <= k / 512, so k sigma^2 >= 512 (in units of 2^-1074).
    ASSERT_TRUE(rho_sigma_squared_at_least(k, plan.first_look_sigma, 512)) << k;
    // The second look's: rho_2 sigma^2 >= 1 with rho_2 <= 15 k / 512.
    ASSERT_TRUE(rho_sigma_squared_at_least(15 * k, plan.histogram_sigma, 512)) << k;
    // The trace's: sigma >= (r^2 / n) / sqrt(2 rho_t), rho_t <= k / 128: 2 rho_t sigma^2 >= 1 / 9,
    // so 9 k sigma^2 >= 64.
    ASSERT_TRUE(rho_sigma_squared_at_least(9 * k, plan.trace_sigma, 64)) << k;
  }
}

}  // namespace
}  // namespace dpcov
