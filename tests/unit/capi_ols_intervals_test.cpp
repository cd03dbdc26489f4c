// dpcov_ols_intervals: the bootstrap intervals of a Gram mechanism's release with an outcome per
// coefficient. Where no coefficient lies along a direction the release may have made, its outputs
// and generator are those of dpcov_ols_bootstrap_intervals and dpcov_ols_robust_intervals bit for
// bit; where one does, that coefficient alone goes without an interval (NaN, flagged) and the
// others keep theirs, where those functions refuse the fit. Bad arguments fail before any work
// with outputs and generator untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_receipt receipt{}, meat_receipt{};
  // X'X = diag(1000, 1000, w) (3 features), X'y = (500, -200, 0), y'y = 1000, Analyze Gauss with
  // sigma 1 (noise sd 1 of u'Eu): the release does not bound the third coefficient for w below
  // about 1.96 (CapiOlsBootstrap.RefusesWhereACoefficientLiesAlongADirectionOnlyAFewNoiseSdsStrong).
  std::vector<double> g = std::vector<double>(16, 0.0);
  std::vector<double> meat = std::vector<double>(9, 0.0);  // s^2 X'X of the strong fit
  const int64_t features[3] = {0, 1, 2};
  double coef[3] = {7, 7, 7}, se[3] = {7, 7, 7}, p[3] = {7, 7, 7}, lo[3] = {7, 7, 7},
         hi[3] = {7, 7, 7};
  int32_t conclusive[3] = {7, 7, 7};
  double norm = 7, kappa = 7;
  explicit Fixture(double w = 1000.0) {
    dpcov_rng_create_seeded(&rng, 5, 0);
    receipt.struct_size = meat_receipt.struct_size = sizeof receipt;
    receipt.mechanism = meat_receipt.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
    receipt.dim = 4;
    receipt.n = 4000;
    receipt.sigma = 1.0;
    meat_receipt.dim = 3;
    meat_receipt.sigma = 1.0;
    g[0] = g[5] = 1000.0;
    g[10] = w;
    g[15] = 1000.0;
    g[3] = g[12] = 500.0;
    g[7] = g[13] = -200.0;
    for (int i = 0; i < 3; ++i) meat[static_cast<size_t>(4 * i)] = 1000.0 * 710.0 / 3997.0;
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  dpcov_status call(const double *w, const dpcov_receipt *law, int32_t *flags) {
    return dpcov_ols_intervals(DPCOV_COL_MAJOR, 4, g.data(), 4, &receipt, 3, features, 3,
                               nullptr, w, 3, law, 999, rng, coef, se, p, lo, hi, flags, &norm,
                               &kappa);
  }
  std::vector<unsigned char> state() const {
    std::vector<unsigned char> s(80);
    dpcov_rng_state_save(rng, s.data(), s.size());
    return s;
  }
  void expect_untouched() const {
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(coef[j], 7.0);
      EXPECT_EQ(se[j], 7.0);
      EXPECT_EQ(p[j], 7.0);
      EXPECT_EQ(lo[j], 7.0);
      EXPECT_EQ(hi[j], 7.0);
      EXPECT_EQ(conclusive[j], 7);
    }
    EXPECT_EQ(norm, 7.0);
    EXPECT_EQ(kappa, 7.0);
  }
};

TEST(CapiOlsIntervals, WithoutAWeakDirectionGivesTheBootstrapsBitsAndAdvancesTheGeneratorAlike) {
  for (const bool robust : {false, true}) {
    Fixture f, g;
    ASSERT_EQ(f.call(robust ? f.meat.data() : nullptr, robust ? &f.meat_receipt : nullptr,
                     f.conclusive),
              DPCOV_OK)
        << dpcov_last_error_message();
    const dpcov_status status =
        robust ? dpcov_ols_robust_intervals(DPCOV_COL_MAJOR, 4, g.g.data(), 4, &g.receipt, 3,
                                            g.features, 3, nullptr, g.meat.data(), 3,
                                            &g.meat_receipt, 999, g.rng, g.coef, g.se, g.p, g.lo,
                                            g.hi)
               : dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, 4, g.g.data(), 4, &g.receipt, 3,
                                               g.features, 3, nullptr, 999, g.rng, g.coef, g.se,
                                               g.p, g.lo, g.hi, &g.norm, &g.kappa);
    ASSERT_EQ(status, DPCOV_OK);
    for (const auto &[a, b] : {std::pair{f.coef, g.coef}, std::pair{f.se, g.se},
                               std::pair{f.p, g.p}, std::pair{f.lo, g.lo}, std::pair{f.hi, g.hi}})
      EXPECT_EQ(0, std::memcmp(a, b, 3 * sizeof(double))) << robust;
    for (int j = 0; j < 3; ++j) EXPECT_EQ(f.conclusive[j], DPCOV_COEFFICIENT_BOUNDED);
    if (!robust) {
      EXPECT_EQ(0, std::memcmp(&f.norm, &g.norm, sizeof f.norm));
      EXPECT_EQ(0, std::memcmp(&f.kappa, &g.kappa, sizeof f.kappa));
    }
    EXPECT_EQ(f.state(), g.state());
  }
}

TEST(CapiOlsIntervals, AWeakDirectionTakesOnlyTheIntervalOfTheCoefficientAlongIt) {
  for (const bool robust : {false, true}) {
    Fixture f(1.8);
    const std::vector<unsigned char> before = f.state();
    ASSERT_EQ(f.call(robust ? f.meat.data() : nullptr, robust ? &f.meat_receipt : nullptr,
                     f.conclusive),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_NE(f.state(), before);
    const double beta[2] = {0.5, -0.2};
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(f.conclusive[j], DPCOV_COEFFICIENT_BOUNDED);
      EXPECT_LT(f.lo[j], beta[j]);
      EXPECT_GT(f.hi[j], beta[j]);
      EXPECT_TRUE(std::isfinite(f.se[j]) && std::isfinite(f.p[j]));
    }
    EXPECT_EQ(f.conclusive[2], DPCOV_COEFFICIENT_UNBOUNDED);
    EXPECT_TRUE(std::isfinite(f.coef[2]));
    for (const double v : {f.lo[2], f.hi[2], f.se[2], f.p[2]}) EXPECT_TRUE(std::isnan(v)) << v;
    // The flagless functions refuse the same release whole.
    Fixture g(1.8);
    EXPECT_EQ(dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, 4, g.g.data(), 4, &g.receipt, 3,
                                            g.features, 3, nullptr, 999, g.rng, g.coef, g.se, g.p,
                                            g.lo, g.hi, nullptr, nullptr),
              DPCOV_E_PRECONDITION);
  }
}

// At w = 2.4 the weak rule alone would flag the third coefficient; the profile bounds it.
TEST(CapiOlsIntervals, TheProfileBoundsACoefficientTheWeakRuleWouldHaveFlagged) {
  for (const bool robust : {false, true}) {
    Fixture f(2.4);
    ASSERT_EQ(f.call(robust ? f.meat.data() : nullptr, robust ? &f.meat_receipt : nullptr,
                     f.conclusive),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(f.conclusive[2], DPCOV_COEFFICIENT_BOUNDED);
    EXPECT_LT(f.lo[2], f.coef[2]);
    EXPECT_GT(f.hi[2], f.coef[2]);
    EXPECT_TRUE(f.p[2] > 0.0 && f.p[2] <= 1.0);
  }
}

TEST(CapiOlsIntervals, BadArgumentsFailBeforeAnyWorkAndLeaveOutputsAndGeneratorUntouched) {
  Fixture f(2.4);
  const std::vector<unsigned char> before = f.state();
  EXPECT_EQ(f.call(nullptr, nullptr, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.meat.data(), nullptr, f.conclusive), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("meat_receipt"), std::string::npos);
  EXPECT_EQ(f.call(nullptr, &f.meat_receipt, f.conclusive), DPCOV_E_INVALID_ARGUMENT);
  dpcov_receipt bad = f.meat_receipt;
  bad.dim = 4;
  EXPECT_EQ(f.call(f.meat.data(), &bad, f.conclusive), DPCOV_E_INVALID_ARGUMENT);
  std::vector<double> skew = f.meat;
  skew[1] = 1.0;
  EXPECT_EQ(f.call(skew.data(), &f.meat_receipt, f.conclusive), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_ols_intervals(DPCOV_COL_MAJOR, 4, f.g.data(), 4, &f.receipt, 3, f.features, 3,
                                nullptr, nullptr, 3, nullptr, 38, f.rng, f.coef, f.se, f.p, f.lo,
                                f.hi, f.conclusive, nullptr, nullptr),
            DPCOV_E_INVALID_ARGUMENT);  // too few worlds for the level
  EXPECT_EQ(dpcov_ols_intervals(DPCOV_COL_MAJOR, 4, f.g.data(), 4, &f.receipt, 3, f.features, 3,
                                nullptr, nullptr, 3, nullptr, 999, f.rng, nullptr, f.se, f.p,
                                f.lo, f.hi, f.conclusive, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_receipt swamped = f.receipt;
  swamped.sigma = 600.0;  // every world's X'X fails: no coefficient can have an interval
  f.g[10] = 1000.0;
  EXPECT_EQ(dpcov_ols_intervals(DPCOV_COL_MAJOR, 4, f.g.data(), 4, &swamped, 3, f.features, 3,
                                nullptr, nullptr, 3, nullptr, 999, f.rng, f.coef, f.se, f.p, f.lo,
                                f.hi, f.conclusive, nullptr, nullptr),
            DPCOV_E_PRECONDITION);
  f.expect_untouched();
  EXPECT_EQ(f.state(), before);
}

}  // namespace
