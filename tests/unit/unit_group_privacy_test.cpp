// The group-privacy budget of privacy units (core/privacy/unit_group_privacy.hpp,
// proofs/unit_group_privacy.md) pinned against MPFR at 256 bits over 10^4 random (m, eps, delta):
// m eps_r <= eps and delta_r sum_{i<m} e^{i eps_r} <= delta hold exactly (the safe side), and
// neither is more than a few ulps (times eps, for delta) below its exact value (not wastefully low). Edge cases: m = 1,
// pure claims, the steps of each relation, and every argument out of range refused.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "core/privacy/unit_bound.hpp"
#include "core/privacy/unit_group_privacy.hpp"
#include "core/random/rng.hpp"

namespace dpcov::privacy {
namespace {

// An MPFR number of 256 bits, freed on scope exit.
struct Big {
  mpfr_t v;
  Big() { mpfr_init2(v, 256); }
  ~Big() { mpfr_clear(v); }
  Big(const Big &) = delete;
  Big &operator=(const Big &) = delete;
};

// sum_{i<m} e^{i e} = expm1(m e) / expm1(e), at 256 bits (relative error far below 2^-200).
void group_sum(Big &out, int64_t m, double e) {
  Big num, den;
  mpfr_set_d(num.v, e, MPFR_RNDN);
  mpfr_mul_si(num.v, num.v, static_cast<long>(m), MPFR_RNDN);  // exact: 53 + 22 bits
  mpfr_expm1(num.v, num.v, MPFR_RNDN);
  mpfr_set_d(den.v, e, MPFR_RNDN);
  mpfr_expm1(den.v, den.v, MPFR_RNDN);
  mpfr_div(out.v, num.v, den.v, MPFR_RNDN);
}

double log_uniform(random::Rng &rng, double lo, double hi) {
  const double u = static_cast<double>(rng.next_u64() >> 11) * 0x1p-53;
  return std::exp(std::log(lo) + u * (std::log(hi) - std::log(lo)));
}

TEST(GroupPrivacyRowBudget, IsOnTheSafeSideAndTightAgainstMpfr) {
  random::Rng rng = random::Rng::from_seed(3434);
  int checked = 0;
  for (int t = 0; t < 10000; ++t) {
    const int64_t m = std::clamp<int64_t>(
        static_cast<int64_t>(log_uniform(rng, 1.0, 2.0 * kMaxRowsPerUnit)), 1,
        2 * kMaxRowsPerUnit);
    const double eps = log_uniform(rng, 1e-4, 30.0);
    const double delta = log_uniform(rng, 1e-300, 0.5);
    RowBudget b;
    try {
      b = group_privacy_row_budget(m, eps, delta);
    } catch (const Error &) {
      continue;  // a per-row delta below the smallest double: refused, checked below
    }
    ++checked;
    SCOPED_TRACE(testing::Message() << "m " << m << " eps " << eps << " delta " << delta);
    Big me, s, prod, exact;
    mpfr_set_d(me.v, b.epsilon, MPFR_RNDN);
    mpfr_mul_si(me.v, me.v, static_cast<long>(m), MPFR_RNDN);
    EXPECT_LE(mpfr_cmp_d(me.v, eps), 0);
    // eps_r is the largest double with m eps_r <= eps, or one ulp below it.
    mpfr_set_d(me.v, std::nextafter(std::nextafter(b.epsilon, 1e300), 1e300), MPFR_RNDN);
    mpfr_mul_si(me.v, me.v, static_cast<long>(m), MPFR_RNDN);
    EXPECT_GT(mpfr_cmp_d(me.v, eps), 0);
    group_sum(s, m, b.epsilon);
    // delta_r S <= delta, S at 256 bits (its error, about 2^-250 relatively, is far below the
    // ulps by which delta_r is rounded down).
    mpfr_set_d(prod.v, b.delta, MPFR_RNDN);
    mpfr_mul(prod.v, prod.v, s.v, MPFR_RNDU);
    EXPECT_LE(mpfr_cmp_d(prod.v, delta), 0);
    // Not wasteful: delta_r >= (delta / S) (1 - (eps + 8) 2^-51) while delta / S is a normal
    // double (the argument m eps_r rounded up by an ulp moves e^{m eps_r} by m eps_r 2^-52
    // relatively; the rest is a few ulps).
    mpfr_set_d(exact.v, delta, MPFR_RNDN);
    mpfr_div(exact.v, exact.v, s.v, MPFR_RNDN);
    const double ideal = mpfr_get_d(exact.v, MPFR_RNDN);
    if (ideal > 0x1p-1000) {
      EXPECT_GE(b.delta, ideal * (1.0 - (eps + 8.0) * 0x1p-51));
    }
  }
  EXPECT_GT(checked, 9000);
}

// rho_r = rho / m^2 rounded down (Bun-Steinke 2016, Prop. 27): m^2 rho_r <= rho exactly, and one
// ulp up would exceed it (the largest such double), over 10^4 random (m, rho) against MPFR.
TEST(GroupPrivacyRowRho, IsTheLargestDoubleWithinRhoOverStepsSquaredAgainstMpfr) {
  random::Rng rng = random::Rng::from_seed(3435);
  for (int t = 0; t < 10000; ++t) {
    const int64_t m = std::clamp<int64_t>(
        static_cast<int64_t>(log_uniform(rng, 1.0, 2.0 * kMaxRowsPerUnit)), 1,
        2 * kMaxRowsPerUnit);
    const double rho = log_uniform(rng, 1e-250, 1e250);
    SCOPED_TRACE(testing::Message() << "m " << m << " rho " << rho);
    const double r = group_privacy_row_rho(m, rho);
    Big prod;
    mpfr_set_d(prod.v, r, MPFR_RNDN);
    mpfr_mul_si(prod.v, prod.v, static_cast<long>(m), MPFR_RNDN);  // exact at 256 bits
    mpfr_mul_si(prod.v, prod.v, static_cast<long>(m), MPFR_RNDN);
    EXPECT_LE(mpfr_cmp_d(prod.v, rho), 0);
    mpfr_set_d(prod.v, std::nextafter(r, 1e300), MPFR_RNDN);
    mpfr_mul_si(prod.v, prod.v, static_cast<long>(m), MPFR_RNDN);
    mpfr_mul_si(prod.v, prod.v, static_cast<long>(m), MPFR_RNDN);
    EXPECT_GT(mpfr_cmp_d(prod.v, rho), 0);
  }
}

TEST(GroupPrivacyRowRho, OneStepIsExactAndBadArgumentsAreRefused) {
  EXPECT_EQ(group_privacy_row_rho(1, 0.3), 0.3);
  EXPECT_EQ(group_privacy_row_rho(4, 1.0), 0.0625);
  EXPECT_THROW(group_privacy_row_rho(0, 1.0), Error);
  EXPECT_THROW(group_privacy_row_rho(2 * kMaxRowsPerUnit + 1, 1.0), Error);
  for (const double rho : {0.0, -1.0, std::nan(""), double(INFINITY), 4.9e-324})
    EXPECT_THROW(group_privacy_row_rho(3, rho), Error) << rho;
}

// A mechanism private under replace-one keeps n public: units are padded to k rows, so a unit
// replaced is k row replacements, and a unit added or removed (n changes) is refused.
TEST(GroupPrivacyRowBudget, ReplaceOneRowsTakeKStepsUnderUnitReplaceOnly) {
  EXPECT_EQ(unit_group_steps(Neighbour::ReplaceOne, Neighbour::ReplaceOne, 7), 7);
  EXPECT_EQ(unit_group_steps(Neighbour::ReplaceOne, Neighbour::AddRemove, 7), 14);
  EXPECT_EQ(unit_group_steps(Neighbour::AddRemove, Neighbour::AddRemove, 7), 7);
  EXPECT_THROW(unit_group_steps(Neighbour::AddRemove, Neighbour::ReplaceOne, 7), Error);
  EXPECT_THROW(unit_group_steps(Neighbour::ReplaceOne, Neighbour::ReplaceOne, 0), Error);
}

TEST(GroupPrivacyRowBudget, WorkedExamplesOfTheProof) {
  const RowBudget add =
      group_privacy_row_budget(unit_group_steps(Neighbour::AddRemove, 5), 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(add.epsilon, 0.2);
  EXPECT_NEAR(add.delta, 1.28851248085841e-7, 1e-19);
  const RowBudget rep =
      group_privacy_row_budget(unit_group_steps(Neighbour::ReplaceOne, 5), 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(rep.epsilon, 0.1);
  EXPECT_NEAR(rep.delta, 6.12070245600891e-8, 1e-19);
}

TEST(GroupPrivacyRowBudget, OneStepAndPureClaimsAreExact) {
  const RowBudget one = group_privacy_row_budget(1, 0.7, 3e-7);
  EXPECT_EQ(one.epsilon, 0.7);
  EXPECT_EQ(one.delta, 3e-7);
  const RowBudget pure = group_privacy_row_budget(4, 1.0, 0.0);
  EXPECT_EQ(pure.epsilon, 0.25);
  EXPECT_EQ(pure.delta, 0.0);
}

TEST(GroupPrivacyRowBudget, StepsAreKForAddRemoveAndTwoKForReplace) {
  EXPECT_EQ(unit_group_steps(Neighbour::AddRemove, 7), 7);
  EXPECT_EQ(unit_group_steps(Neighbour::ReplaceOne, 7), 14);
  EXPECT_EQ(unit_group_steps(Neighbour::ReplaceOne, kMaxRowsPerUnit), 2 * kMaxRowsPerUnit);
  EXPECT_THROW(unit_group_steps(Neighbour::AddRemove, 0), Error);
  EXPECT_THROW(unit_group_steps(Neighbour::AddRemove, kMaxRowsPerUnit + 1), Error);
}

TEST(GroupPrivacyRowBudget, RefusesArgumentsOutOfRange) {
  const double nan = std::nan("");
  const double inf = INFINITY;
  EXPECT_THROW(group_privacy_row_budget(0, 1.0, 1e-6), Error);
  EXPECT_THROW(group_privacy_row_budget(-3, 1.0, 1e-6), Error);
  EXPECT_THROW(group_privacy_row_budget(2 * kMaxRowsPerUnit + 1, 1.0, 1e-6), Error);
  for (const double eps : {0.0, -1.0, nan, inf})
    EXPECT_THROW(group_privacy_row_budget(3, eps, 1e-6), Error) << eps;
  for (const double delta : {-1e-9, 1.0, 2.0, nan, inf})
    EXPECT_THROW(group_privacy_row_budget(3, 1.0, delta), Error) << delta;
  // Underflow: a subnormal epsilon over many steps, a delta spread over e^{huge} terms.
  EXPECT_THROW(group_privacy_row_budget(1 << 20, 4.9e-324, 0.0), Error);
  EXPECT_THROW(group_privacy_row_budget(1 << 20, 1e6, 1e-300), Error);
}

}  // namespace
}  // namespace dpcov::privacy
