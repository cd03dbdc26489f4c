// The C ABI of the noise-aware (parametric bootstrap) OLS intervals: validation before any work,
// outputs and generator untouched on failure, refusal when the noise swamps the data, and
// intervals that shrink to the exact OLS fit as the noise vanishes; the same for the robust
// (sandwich) intervals of dpcov_ols_sandwich_intervals, which give the homoscedastic bootstrap's
// answer when the meat is s^2 X'X and wider intervals for a larger meat.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_receipt receipt{};
  // X'X = 1000 I (3 features), X'y = (500, -200, 0), y'y = 1000: beta = (0.5, -0.2, 0).
  std::vector<double> g = std::vector<double>(16, 0.0);
  // The meat s^2 X'X of the homoscedastic model, for the robust intervals.
  std::vector<double> meat = std::vector<double>(9, 0.0);
  const int64_t features[3] = {0, 1, 2};
  double coef[3] = {7, 7, 7}, se[3] = {7, 7, 7}, p[3] = {7, 7, 7}, lo[3] = {7, 7, 7},
         hi[3] = {7, 7, 7}, norm = 7, kappa = 7;
  Fixture() {
    dpcov_rng_create_seeded(&rng, 5, 0);
    receipt.struct_size = sizeof receipt;
    receipt.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
    receipt.dim = 4;
    receipt.n = 4000;
    receipt.sigma = 1.0;
    for (int i = 0; i < 3; ++i) g[static_cast<size_t>(5 * i)] = 1000.0;
    g[15] = 1000.0;
    g[3] = g[12] = 500.0;
    g[7] = g[13] = -200.0;
    for (int i = 0; i < 3; ++i) meat[static_cast<size_t>(4 * i)] = 1000.0 * 710.0 / 3997.0;
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  dpcov_status call(const double *m, const dpcov_receipt *r, int64_t draws, const int64_t *f,
                    double *c, dpcov_rng *generator) {
    return dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, 4, m, 4, r, 3, f, 3, nullptr, draws,
                                         generator, c, se, p, lo, hi, &norm, &kappa);
  }
  dpcov_status robust(const double *m, const dpcov_receipt *r, const double *w, int64_t draws,
                      double *c, dpcov_rng *generator, const int64_t *f = nullptr) {
    return dpcov_ols_sandwich_intervals(DPCOV_COL_MAJOR, 4, m, 4, r, 3, f ? f : features, 3,
                                        nullptr, w, 3, draws, generator, c, se, p, lo, hi);
  }
  // The robust intervals with the meat's noise redrawn, of the law of `meat_receipt`.
  dpcov_status redrawn(const double *w, const dpcov_receipt *meat_receipt, double *c) {
    return dpcov_ols_robust_intervals(DPCOV_COL_MAJOR, 4, g.data(), 4, &receipt, 3, features, 3,
                                      nullptr, w, 3, meat_receipt, 999, rng, c, se, p, lo, hi);
  }
  void expect_untouched() const {
    EXPECT_EQ(coef[0], 7.0);
    EXPECT_EQ(se[1], 7.0);
    EXPECT_EQ(p[2], 7.0);
    EXPECT_EQ(lo[0], 7.0);
    EXPECT_EQ(hi[0], 7.0);
    EXPECT_EQ(norm, 7.0);
    EXPECT_EQ(kappa, 7.0);
  }
};

TEST(CapiOlsBootstrap, BadArgumentsFailBeforeAnyWorkAndLeaveOutputsAndGeneratorUntouched) {
  Fixture f;
  unsigned char before[80], after[80];
  dpcov_rng_state_save(f.rng, before, sizeof before);
  EXPECT_EQ(f.call(nullptr, &f.receipt, 999, f.features, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.g.data(), nullptr, 999, f.features, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, 999, nullptr, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, 999, f.features, nullptr, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, 999, f.features, f.coef, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, 38, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find(">= 39"), std::string::npos);
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, -1, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  std::vector<double> nan = f.g;
  nan[1] = nan[4] = NAN;
  EXPECT_EQ(f.call(nan.data(), &f.receipt, 999, f.features, f.coef, f.rng), DPCOV_E_NON_FINITE);
  std::vector<double> skew = f.g;
  skew[1] = 1.0;
  EXPECT_EQ(f.call(skew.data(), &f.receipt, 999, f.features, f.coef, f.rng),
            DPCOV_E_INVALID_ARGUMENT);
  const int64_t label_as_feature[3] = {0, 1, 3};
  EXPECT_EQ(f.call(f.g.data(), &f.receipt, 999, label_as_feature, f.coef, f.rng),
            DPCOV_E_INVALID_ARGUMENT);

  dpcov_receipt r = f.receipt;
  r.struct_size = 8;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  r = f.receipt;
  r.dim = 5;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  r = f.receipt;
  r.n = 3;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  for (const double sigma : {0.0, -1.0, double(INFINITY), double(NAN)}) {
    r = f.receipt;
    r.sigma = sigma;
    EXPECT_NE(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_OK) << sigma;
  }
  r = f.receipt;
  r.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("iev"), std::string::npos);
  r.mechanism = 9999;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  r = f.receipt;
  r.mechanism = DPCOV_MECHANISM_WISHART_ADDITIVE;
  r.scale = 1.0;
  r.dof = 3.0;  // must exceed p = 3
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  dpcov_regression_params ridge;
  dpcov_regression_params_default(&ridge);
  ridge.ridge = 1.0;
  EXPECT_EQ(dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, 4, f.g.data(), 4, &f.receipt, 3,
                                          f.features, 3, &ridge, 999, f.rng, f.coef, f.se, f.p,
                                          f.lo, f.hi, &f.norm, &f.kappa),
            DPCOV_E_INVALID_ARGUMENT);
  f.expect_untouched();
  dpcov_rng_state_save(f.rng, after, sizeof after);
  EXPECT_EQ(std::vector<unsigned char>(before, before + 80),
            std::vector<unsigned char>(after, after + 80));
}

// The check a fit makes before its release agrees with the intervals' own rule at every level:
// each end an order statistic, floor(alpha (B + 1) / 2) >= 1, and B at most the simulation cap.
TEST(CapiOlsBootstrap, TheDrawsCheckRefusesWhatTheIntervalsRefuseAndSaysWhy) {
  for (double level : {0.5, 0.8, 0.9, 0.95, 0.99, 0.999}) {
    const double alpha = 1.0 - level;
    for (int64_t draws : {int64_t{1}, int64_t{19}, int64_t{38}, int64_t{39}, int64_t{199},
                          int64_t{1999}, int64_t{-1}, int64_t{0}}) {
      const bool formed =
          draws >= 1 && std::floor(0.5 * alpha * static_cast<double>(draws + 1)) >= 1.0;
      EXPECT_EQ(dpcov_bootstrap_draws_check(level, draws) == DPCOV_OK, formed)
          << level << " " << draws;
    }
  }
  EXPECT_EQ(dpcov_bootstrap_draws_check(0.95, 38), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find(">= 39"), std::string::npos);
  EXPECT_EQ(dpcov_bootstrap_draws_check(0.95, DPCOV_MAX_SIMULATION_DRAWS), DPCOV_OK);
  EXPECT_EQ(dpcov_bootstrap_draws_check(0.95, DPCOV_MAX_SIMULATION_DRAWS + 1),
            DPCOV_E_INVALID_ARGUMENT);
  for (double level : {0.0, 1.0, -0.5, double{NAN}, double{INFINITY}})
    EXPECT_EQ(dpcov_bootstrap_draws_check(level, 999), DPCOV_E_INVALID_ARGUMENT) << level;
  // A level no allowed number of draws reaches says so, not a number above the cap.
  EXPECT_EQ(dpcov_bootstrap_draws_check(0.999999999, 999), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("no number of bootstrap draws up to"),
            std::string::npos);
}

TEST(CapiOlsBootstrap, RefusesWhenTheNoiseSwampsTheData) {
  Fixture f;
  dpcov_receipt r = f.receipt;
  // ||E_XX|| of order 2 sqrt(3) 600 > lambda_min = 1000, and the second-order correction of the
  // worlds' truth 0.003 * 600^2 / 1000 = 1.08 > kLargestWorldsCorrection: the worlds would keep
  // the release, every direction of which is under 3 noise sds strong, so the bootstrap refuses
  // before any world. (At sigma = 400 the correction, 0.48, de-noises X'X to 1923 I, 4.8 sds, and
  // the worlds answer.)
  r.sigma = 600.0;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("cannot bound coefficients 0, 1, 2:"),
            std::string::npos)
      << dpcov_last_error_message();
  f.expect_untouched();
  std::vector<double> indefinite = f.g;
  indefinite[0] = -1.0;
  EXPECT_EQ(f.call(indefinite.data(), &f.receipt, 999, f.features, f.coef, f.rng),
            DPCOV_E_PRECONDITION);
}

TEST(CapiOlsBootstrap, AnOverflowingOutputIsANumericalFailure) {
  // X'y_1 = 1e300 against X'X = 1000 I: beta_1 = 1e297, finite, but the noise (sigma 1) moves
  // each draw by about 1e294, whose square overflows: the standard error would be +inf (it was
  // returned with DPCOV_OK; found by fuzz_solvers, seed ols-bootstrap-non-finite).
  Fixture f;
  std::vector<double> extreme = f.g;
  extreme[3] = extreme[12] = 1e300;
  unsigned char before[80], after[80];
  dpcov_rng_state_save(f.rng, before, sizeof before);
  EXPECT_EQ(f.call(extreme.data(), &f.receipt, 999, f.features, f.coef, f.rng), DPCOV_E_NUMERICAL);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("std_errors"), std::string::npos)
      << dpcov_last_error_message();
  f.expect_untouched();
  dpcov_rng_state_save(f.rng, after, sizeof after);
  EXPECT_EQ(0, std::memcmp(before, after, sizeof before));
}

TEST(CapiOlsBootstrap, RefusesWhereACoefficientLiesAlongADirectionOnlyAFewNoiseSdsStrong) {
  // X'X = diag(1000, 1000, w) against noise sd 1 of u'Eu (sigma 1): the third coefficient is read
  // by the profile of the pivot (core/estimators/profile_hull.hpp), Fieller's set along e3 here,
  // bounded only where w exceeds about 1.96 noise sds. Below, no interval is returned, outputs and
  // generator untouched; above, the interval is the profile's (w < 2.53, where the weak rule of
  // weak_directions.hpp would have refused) or its hull with the bootstrap's.
  for (const double w : {1.8, 2.4, 2.7}) {
    Fixture f;
    std::vector<double> weak = f.g;
    weak[10] = w;
    unsigned char before[80], after[80];
    dpcov_rng_state_save(f.rng, before, sizeof before);
    const dpcov_status status = f.call(weak.data(), &f.receipt, 999, f.features, f.coef, f.rng);
    dpcov_rng_state_save(f.rng, after, sizeof after);
    if (w < 1.96) {
      EXPECT_EQ(status, DPCOV_E_PRECONDITION);
      EXPECT_NE(std::string(dpcov_last_error_message()).find("cannot bound coefficients 2:"),
                std::string::npos)
          << dpcov_last_error_message();
      f.expect_untouched();
      EXPECT_EQ(0, std::memcmp(before, after, sizeof before));
    } else {
      ASSERT_EQ(status, DPCOV_OK) << dpcov_last_error_message();
      for (int j = 0; j < 3; ++j) EXPECT_LT(f.lo[j], f.hi[j]);
    }
  }
}

TEST(CapiOlsBootstrap, IntervalsAroundTheFitWithPValuesThatAgreeWithThem) {
  Fixture f;
  ASSERT_EQ(f.call(f.g.data(), &f.receipt, 999, f.features, f.coef, f.rng), DPCOV_OK);
  const double beta[3] = {0.5, -0.2, 0.0};
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(f.coef[j], beta[j], 1e-15);
    EXPECT_LT(f.lo[j], beta[j]);
    EXPECT_GT(f.hi[j], beta[j]);
    // Sampling sd sqrt(s^2 / 1000) with s^2 = (1000 - 290) / 3997, noise about 1 / 1000.
    EXPECT_GT(f.se[j], 0.01);
    EXPECT_LT(f.se[j], 0.02);
    EXPECT_EQ(f.p[j] <= 0.05, f.lo[j] > 0.0 || f.hi[j] < 0.0) << j;
  }
  EXPECT_LT(f.p[0], 0.01);
  EXPECT_GT(f.p[2], 0.05);
  EXPECT_GT(f.kappa, 0.0);
  EXPECT_LT(f.kappa, 0.01);
  // Laplace and Wishart laws run too; the Wishart mean dof * scale is removed from the diagonal.
  dpcov_receipt r = f.receipt;
  r.mechanism = DPCOV_MECHANISM_LAPLACE_SYM;
  r.scale = 1.0;
  EXPECT_EQ(f.call(f.g.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_OK);
  r.mechanism = DPCOV_MECHANISM_WISHART_ADDITIVE;
  r.dof = 10.0;
  std::vector<double> shifted = f.g;
  for (int i = 0; i < 4; ++i) shifted[static_cast<size_t>(5 * i)] += 10.0;
  EXPECT_EQ(f.call(shifted.data(), &r, 999, f.features, f.coef, f.rng), DPCOV_OK);
  EXPECT_NEAR(f.coef[0], 0.5, 1e-15);
}

TEST(CapiOlsSandwich, BadArgumentsFailBeforeAnyWorkAndLeaveOutputsAndGeneratorUntouched) {
  Fixture f;
  unsigned char before[80], after[80];
  dpcov_rng_state_save(f.rng, before, sizeof before);
  const double *g = f.g.data(), *w = f.meat.data();
  EXPECT_EQ(f.robust(nullptr, &f.receipt, w, 999, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.robust(g, nullptr, w, 999, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.robust(g, &f.receipt, nullptr, 999, f.coef, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.robust(g, &f.receipt, w, 999, nullptr, f.rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.robust(g, &f.receipt, w, 999, f.coef, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.robust(g, &f.receipt, w, 38, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(f.robust(g, &f.receipt, w, -1, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  for (const double bad : {double(NAN), double(INFINITY)}) {
    std::vector<double> m = f.meat;
    m[1] = m[3] = bad;
    EXPECT_EQ(f.robust(g, &f.receipt, m.data(), 999, f.coef, f.rng), DPCOV_E_NON_FINITE) << bad;
  }
  std::vector<double> skew = f.meat;
  skew[1] = 1.0;
  EXPECT_EQ(f.robust(g, &f.receipt, skew.data(), 999, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("meat"), std::string::npos);
  EXPECT_EQ(dpcov_ols_sandwich_intervals(DPCOV_COL_MAJOR, 4, g, 4, &f.receipt, 3, f.features, 3,
                                         nullptr, w, 2, 999, f.rng, f.coef, f.se, f.p, f.lo,
                                         f.hi),
            DPCOV_E_LAYOUT);  // ld_meat below p
  EXPECT_EQ(dpcov_ols_sandwich_intervals(7, 4, g, 4, &f.receipt, 3, f.features, 3, nullptr, w, 3,
                                         999, f.rng, f.coef, f.se, f.p, f.lo, f.hi),
            DPCOV_E_LAYOUT);
  const int64_t label_as_feature[3] = {0, 1, 3};
  EXPECT_EQ(f.robust(g, &f.receipt, w, 999, f.coef, f.rng, label_as_feature),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_receipt r = f.receipt;
  r.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(f.robust(g, &r, w, 999, f.coef, f.rng), DPCOV_E_INVALID_ARGUMENT);
  r = f.receipt;
  r.sigma = -1.0;
  EXPECT_NE(f.robust(g, &r, w, 999, f.coef, f.rng), DPCOV_OK);
  dpcov_regression_params ridge;
  dpcov_regression_params_default(&ridge);
  ridge.ridge = 1.0;
  EXPECT_EQ(dpcov_ols_sandwich_intervals(DPCOV_COL_MAJOR, 4, g, 4, &f.receipt, 3, f.features, 3,
                                         &ridge, w, 3, 999, f.rng, f.coef, f.se, f.p, f.lo, f.hi),
            DPCOV_E_INVALID_ARGUMENT);
  r = f.receipt;
  r.sigma = 600.0;  // the noise swamps the data (CapiOlsBootstrap.RefusesWhenTheNoiseSwampsTheData)
  EXPECT_EQ(f.robust(g, &r, w, 999, f.coef, f.rng), DPCOV_E_PRECONDITION);
  f.expect_untouched();
  dpcov_rng_state_save(f.rng, after, sizeof after);
  EXPECT_EQ(0, std::memcmp(before, after, sizeof before));
}

TEST(CapiOlsSandwich, MeatOfTheHomoscedasticModelGivesItsBootstrapAndALargerMeatWiderIntervals) {
  Fixture f;
  ASSERT_EQ(f.robust(f.g.data(), &f.receipt, f.meat.data(), 999, f.coef, f.rng), DPCOV_OK);
  double hse[3], hlo[3], hhi[3], hcoef[3];
  ASSERT_EQ(dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, 4, f.g.data(), 4, &f.receipt, 3,
                                          f.features, 3, nullptr, 999, f.rng, hcoef, hse, nullptr,
                                          hlo, hhi, nullptr, nullptr),
            DPCOV_OK);
  const double beta[3] = {0.5, -0.2, 0.0};
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(f.coef[j], beta[j], 1e-15);
    EXPECT_LT(f.lo[j], beta[j]);
    EXPECT_GT(f.hi[j], beta[j]);
    // The standard deviation of 999 draws is within 10% of the other's (its relative sd is
    // about 1 / sqrt(2 * 998) = 0.022 each: a 3-sigma band).
    EXPECT_NEAR(f.se[j] / hse[j], 1.0, 0.1) << j;
    EXPECT_EQ(f.p[j] <= 0.05, f.lo[j] > 0.0 || f.hi[j] < 0.0) << j;
  }
  // Four times the meat: the sampling sd doubles (the privacy noise, about 1e-3, is negligible).
  std::vector<double> wide = f.meat;
  for (double &v : wide) v *= 4.0;
  const double narrow_se = f.se[0];
  ASSERT_EQ(f.robust(f.g.data(), &f.receipt, wide.data(), 999, f.coef, f.rng), DPCOV_OK);
  EXPECT_NEAR(f.se[0] / narrow_se, 2.0, 0.2);
}

TEST(CapiPcaSubspaceErrorBound, BoundsTheSubspaceErrorAndWarnsWhenTheNoiseSwampsTheGap) {
  Fixture f;
  // diag(1000, 1000, 1000, 1000) + 500 e1 e4' ...: eigenvalues 1500 > 1000, 1000 > 500 (k = 1:
  // gap 500 against eta of order 2 sqrt(4) sigma).
  double bound = 7, norm = 7, gap = 7;
  int32_t swamped = 7;
  const auto call = [&](const double *m, const dpcov_receipt *r, int64_t k, double level,
                        int64_t draws, dpcov_rng *generator, double *out) {
    return dpcov_pca_subspace_error_bound(DPCOV_COL_MAJOR, 4, m, 4, r, k, level, draws, generator,
                                          &norm, &gap, out, &swamped);
  };
  EXPECT_EQ(call(nullptr, &f.receipt, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(f.g.data(), nullptr, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 1, 0.95, 50, nullptr, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 1, 0.95, 50, f.rng, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 0, 0.95, 50, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 5, 0.95, 50, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 1, 1.0, 50, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 1, double(NAN), 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(f.g.data(), &f.receipt, 1, 0.95, 0, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  dpcov_receipt r = f.receipt;
  r.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(call(f.g.data(), &r, 1, 0.95, 50, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  std::vector<double> nan = f.g;
  nan[0] = NAN;
  EXPECT_EQ(call(nan.data(), &f.receipt, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NON_FINITE);
  EXPECT_EQ(bound, 7.0);
  EXPECT_EQ(norm, 7.0);
  EXPECT_EQ(swamped, 7);

  ASSERT_EQ(call(f.g.data(), &f.receipt, 1, 0.95, 200, f.rng, &bound), DPCOV_OK);
  EXPECT_GT(norm, 1.0);
  EXPECT_LT(norm, 10.0);
  EXPECT_GT(gap, 100.0);
  EXPECT_EQ(swamped, 0);
  EXPECT_NEAR(bound, 2.0 * norm / (gap - 2.0 * norm), 1e-12);
  r = f.receipt;
  r.sigma = 200.0;  // ||E|| far above the gap
  ASSERT_EQ(call(f.g.data(), &r, 1, 0.95, 200, f.rng, &bound), DPCOV_OK);
  EXPECT_EQ(swamped, 1);
  EXPECT_EQ(bound, 1.0);
  ASSERT_EQ(call(f.g.data(), &f.receipt, 4, 0.95, 20, f.rng, &bound), DPCOV_OK);
  EXPECT_EQ(bound, 0.0);
  EXPECT_EQ(gap, DBL_MAX);  // finite: no lambda_{k+1}
  // Eigenvalues 1.5e308 and -1.5e308: the gap overflows, refused rather than returned infinite.
  std::vector<double> huge(16, 0.0);
  huge[0] = 1.5e308;
  huge[5] = huge[10] = huge[15] = -1.5e308;
  bound = 7.0;
  EXPECT_EQ(call(huge.data(), &f.receipt, 1, 0.95, 20, f.rng, &bound), DPCOV_E_NUMERICAL);
  EXPECT_EQ(bound, 7.0);
}


// The second moment of 4000 rows [1, x] with mean (1, 2, 3) and covariance diag(4, 1, 1): its
// centred covariance is diag(4, 1, 1), eigengap 3 at k = 1.
std::vector<double> centred_fixture() {
  const double n = 4000.0, mean[3] = {1.0, 2.0, 3.0}, var[3] = {4.0, 1.0, 1.0};
  std::vector<double> m(16, 0.0);
  m[0] = n;
  for (int i = 0; i < 3; ++i) {
    m[static_cast<size_t>(i + 1)] = m[static_cast<size_t>(4 * (i + 1))] = n * mean[i];
    for (int j = 0; j < 3; ++j)
      m[static_cast<size_t>(4 * (j + 1) + i + 1)] = n * ((i == j ? var[i] : 0.0) + mean[i] * mean[j]);
  }
  return m;
}

TEST(CapiPcaCentredSubspaceErrorBound, ValidatesLeavesOutputsUntouchedAndWarnsWhenSwamped) {
  Fixture f;
  const std::vector<double> m = centred_fixture();
  double bound = 7, norm = 7, gap = 7;
  int32_t swamped = 7;
  const auto call = [&](const double *a, int64_t dim, const dpcov_receipt *r, int64_t column,
                        double constant, int64_t n, int64_t k, double level, int64_t draws,
                        dpcov_rng *generator, double *out) {
    return dpcov_pca_centred_subspace_error_bound(DPCOV_COL_MAJOR, dim, a, 4, r, column, constant,
                                                  n, k, level, draws, generator, &norm, &gap, out,
                                                  &swamped);
  };
  unsigned char before[80], after[80];
  dpcov_rng_state_save(f.rng, before, sizeof before);
  const dpcov_receipt *r = &f.receipt;
  EXPECT_EQ(call(nullptr, 4, r, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m.data(), 4, nullptr, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 50, nullptr, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 50, f.rng, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m.data(), 1, r, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound), DPCOV_E_DIMENSION);
  EXPECT_EQ(call(m.data(), 4, r, 4, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, -1, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 0.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, double(NAN), 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, -1, 1, 0.95, 50, f.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 0, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 4, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 1, 0.0, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 0, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_receipt other = f.receipt;
  other.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(call(m.data(), 4, &other, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  other = f.receipt;
  other.dim = 3;
  EXPECT_EQ(call(m.data(), 4, &other, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  std::vector<double> bad = m;
  bad[5] = NAN;
  EXPECT_EQ(call(bad.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NON_FINITE);
  bad = m;
  bad[1] += 1.0;  // not symmetric
  EXPECT_EQ(call(bad.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 50, f.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m.data(), 4, r, 0, 1e-160, 0, 1, 0.95, 50, f.rng, &bound), DPCOV_E_NUMERICAL);
  // n estimated, and the noise (sigma 1e5 against a count of 4000) puts about half the draws'
  // counts below 1: refused.
  other = f.receipt;
  other.sigma = 1e5;
  EXPECT_EQ(call(m.data(), 4, &other, 0, 1.0, 0, 1, 0.95, 50, f.rng, &bound), DPCOV_E_PRECONDITION);
  EXPECT_EQ(bound, 7.0);
  EXPECT_EQ(norm, 7.0);
  EXPECT_EQ(gap, 7.0);
  EXPECT_EQ(swamped, 7);
  dpcov_rng_state_save(f.rng, after, sizeof after);
  EXPECT_EQ(0, std::memcmp(before, after, sizeof before));

  // sigma 1 on a count of 4000: eta is of order 2 sqrt(3) / 4000, far below the gap 3.
  ASSERT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 1, 0.95, 200, f.rng, &bound), DPCOV_OK);
  EXPECT_GT(norm, 1e-4);
  EXPECT_LT(norm, 1e-2);
  EXPECT_NEAR(gap, 3.0, 1e-9);
  EXPECT_EQ(swamped, 0);
  EXPECT_NEAR(bound, 2.0 * norm / (gap - 2.0 * norm), 1e-12);
  ASSERT_EQ(call(m.data(), 4, r, 0, 1.0, 0, 1, 0.95, 200, f.rng, &bound), DPCOV_OK);
  EXPECT_EQ(swamped, 0);
  other.n = 4000;  // sigma 1e5, public n: ||E|| / n of order 100, far above the gap
  ASSERT_EQ(call(m.data(), 4, &other, 0, 1.0, 4000, 1, 0.95, 200, f.rng, &bound), DPCOV_OK);
  EXPECT_EQ(swamped, 1);
  EXPECT_EQ(bound, 1.0);
  ASSERT_EQ(call(m.data(), 4, r, 0, 1.0, 4000, 3, 0.95, 20, f.rng, &bound), DPCOV_OK);
  EXPECT_EQ(bound, 0.0);
  EXPECT_EQ(gap, DBL_MAX);
}


// The meat's own noise law: 3 x 3 Analyze Gauss with sigma = 200, about the meat's diagonal (178).
dpcov_receipt meat_law() {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  r.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
  r.dim = 3;
  r.sigma = 200.0;
  return r;
}

TEST(CapiOlsRobust, BadMeatReceiptsFailBeforeAnyWorkAndLeaveOutputsAndGeneratorUntouched) {
  Fixture f;
  unsigned char before[80], after[80];
  dpcov_rng_state_save(f.rng, before, sizeof before);
  EXPECT_EQ(f.redrawn(f.meat.data(), nullptr, f.coef), DPCOV_E_NULL_POINTER);
  dpcov_receipt bad = meat_law();
  bad.struct_size = 0;
  EXPECT_EQ(f.redrawn(f.meat.data(), &bad, f.coef), DPCOV_E_INVALID_ARGUMENT);
  bad = meat_law();
  bad.dim = 4;  // the fit's order, not the meat's
  EXPECT_EQ(f.redrawn(f.meat.data(), &bad, f.coef), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("dim"), std::string::npos);
  bad = meat_law();
  bad.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(f.redrawn(f.meat.data(), &bad, f.coef), DPCOV_E_INVALID_ARGUMENT);
  for (const double sigma : {0.0, -1.0, double(NAN), double(INFINITY)}) {
    bad = meat_law();
    bad.sigma = sigma;
    EXPECT_NE(f.redrawn(f.meat.data(), &bad, f.coef), DPCOV_OK) << sigma;
  }
  const dpcov_receipt law = meat_law();
  EXPECT_EQ(f.redrawn(nullptr, &law, f.coef), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(f.redrawn(f.meat.data(), &law, nullptr), DPCOV_E_NULL_POINTER);
  f.expect_untouched();
  dpcov_rng_state_save(f.rng, after, sizeof after);
  EXPECT_EQ(0, std::memcmp(before, after, sizeof before));
}

// The bootstrap's spread includes the meat's noise: a meat of 0 with a noise law of sigma 200
// gives the worlds a sampling spread from that noise alone (sd about 0.013, below), where the
// fixed meat gives only the privacy noise's (about 1e-3); a meat whose noise is negligible gives
// the fixed meat's intervals. The sd of 999 draws is within a few percent of its mean: +- 0.0015
// is wide.
TEST(CapiOlsRobust, TheWorldsSpreadIncludesTheMeatsNoise) {
  Fixture f;
  const std::vector<double> zero(9, 0.0);
  ASSERT_EQ(f.robust(f.g.data(), &f.receipt, zero.data(), 999, f.coef, f.rng), DPCOV_OK);
  const double fixed_se = f.se[0];
  const dpcov_receipt law = meat_law();
  ASSERT_EQ(f.redrawn(zero.data(), &law, f.coef), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_GT(f.se[0], 5.0 * fixed_se);  // the privacy noise alone: sd about 0.001
  // Each world adds sqrt(max(w' E_w w + a, 0)) z to beta_0, w ~ e_0 / 1000, so w' E_w w ~
  // N(0, s^2), s = 200 / 1000^2 = 2e-4, and a = meat_noise_shift(s^2, tau^2) with tau^2 the
  // privacy noise's 1e-6 plus E[max(N(0, s^2), 0)] = s / sqrt(2 pi) = 8.0e-5: a = 1.42e-4. The
  // variance is E[max(N(a, s^2), 0)] = a Phi(a / s) + s phi(a / s) = 1.71e-4 (plus 1e-6), sd
  // 0.0131. Without the shift it was 0.0089; the meat's eigenvalues raised to 0 gave about 0.012.
  EXPECT_NEAR(f.se[0], 0.0131, 0.0015);
  ASSERT_EQ(f.robust(f.g.data(), &f.receipt, f.meat.data(), 999, f.coef, f.rng), DPCOV_OK);
  const double meat_se = f.se[0];
  dpcov_receipt quiet = meat_law();
  quiet.sigma = 1e-6;
  ASSERT_EQ(f.redrawn(f.meat.data(), &quiet, f.coef), DPCOV_OK);
  EXPECT_NEAR(f.se[0] / meat_se, 1.0, 0.1);  // as in the test above: a 3-sigma band
}

}  // namespace
