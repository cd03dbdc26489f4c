// A release plans once and hands the plan on to the draw: through the C ABI, each release runs
// its calibrator (the analytic Gaussian sigma, or the exact mechanisms' grid and integer noise
// search) exactly once, the plan's checks and the release's receipt included.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "core/privacy/calibration_count.hpp"
#include "dpcov.h"

namespace {

using dpcov::privacy::Calibrator;

// The runs of `calibrator` during `call`, which must succeed.
uint64_t runs_during(Calibrator calibrator, const std::function<dpcov_status()> &call) {
  const uint64_t before = dpcov::privacy::calibration_count(calibrator);
  EXPECT_EQ(call(), DPCOV_OK) << dpcov_last_error_message();
  return dpcov::privacy::calibration_count(calibrator) - before;
}

class CalibrationCount : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 3, 0), DPCOV_OK);
    receipt_.struct_size = sizeof receipt_;
    grid_.struct_size = sizeof grid_;
    for (int i = 0; i < 60; ++i) rows_.push_back(0.4 * ((i * 7) % 5 - 2) / 2.0);
    for (int i = 0; i < 3; ++i) gram_[static_cast<size_t>(4 * i)] = 5.0;
  }
  void TearDown() override { dpcov_rng_destroy(&rng_); }

  dpcov_rng *rng_ = nullptr;
  dpcov_receipt receipt_{};
  dpcov_exact_grid grid_{};
  std::vector<double> rows_;  // 20 x 3, row-major, every norm <= 1
  std::vector<double> gram_ = std::vector<double>(9, 0.0);
  std::vector<double> out_ = std::vector<double>(9, 0.0);
};

TEST_F(CalibrationCount, AnAnalyzeGaussPlanOrReleaseComputesSigmaOnce) {
  const int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS;
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              return dpcov_mechanism_plan(m, 3, 20, 1.0, 1.0, 1e-6, nullptr, &receipt_);
            }),
            1u);
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              return dpcov_mechanism_release(m, DPCOV_COL_MAJOR, 3, gram_.data(), 3, 20, 1.0, 1.0,
                                             1e-6, nullptr, rng_, out_.data(), 3, &receipt_);
            }),
            1u);
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create(&g, 3), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3, 1.0, DPCOV_BOUND_CLIP),
            DPCOV_OK);
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              return dpcov_mechanism_release_gram(m, g, 1.0, 1e-6, nullptr, rng_, DPCOV_COL_MAJOR,
                                                  out_.data(), 3, &receipt_);
            }),
            1u);
  dpcov_gram_destroy(&g);
}

TEST_F(CalibrationCount, AnExactReleaseSearchesItsGridOnce) {
  const int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS;
  EXPECT_EQ(runs_during(Calibrator::ExactGrid, [&] {
              return dpcov_exact_release_rows(m, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3, 1.0,
                                              DPCOV_BOUND_CLIP, 1.0, 1e-6, nullptr, rng_,
                                              out_.data(), 3, &receipt_, &grid_);
            }),
            1u);
  dpcov_exact_gram *acc = nullptr;
  ASSERT_EQ(dpcov_exact_gram_create(&acc, m, 3, 1.0, DPCOV_BOUND_CLIP, 1.0, 1e-6, nullptr),
            DPCOV_OK);
  ASSERT_EQ(dpcov_exact_gram_add_rows(acc, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3), DPCOV_OK);
  EXPECT_EQ(runs_during(Calibrator::ExactGrid, [&] {
              return dpcov_exact_gram_release(acc, rng_, out_.data(), 3, &receipt_, &grid_);
            }),
            1u);
  dpcov_exact_gram_destroy(&acc);
}

TEST_F(CalibrationCount, TheDefaultRowPathSearchesItsGridOnceAtRelease) {
  dpcov_row_bounding spec;
  ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
  spec.bound = 1.0;
  spec.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;  // exact numerics by default
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&g, 3, &spec), DPCOV_OK) << dpcov_last_error_message();
  ASSERT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3, nullptr), DPCOV_OK);
  EXPECT_EQ(runs_during(Calibrator::ExactGrid, [&] {
              return dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, spec.epsilon,
                                                  spec.delta, nullptr, rng_, DPCOV_COL_MAJOR,
                                                  out_.data(), 3, &receipt_);
            }),
            1u);
  EXPECT_EQ(receipt_.numerics, DPCOV_NUMERICS_EXACT);
  dpcov_gram_destroy(&g);
}

// The path Python's GramAccumulator.bounded and release_gram with an accountant take: one plan,
// the accumulator on it, its receipt read for a ledger and its grid for the constant column, and
// the release with it: one calibration from the plan to the receipt, exact or idealized.
TEST_F(CalibrationCount, APlannedReleaseCalibratesOnceFromThePlanToTheReceipt) {
  for (const int32_t numerics : {DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED}) {
    SCOPED_TRACE(numerics);
    const Calibrator calibrator =
        numerics == DPCOV_NUMERICS_EXACT ? Calibrator::ExactGrid : Calibrator::AnalyticGaussian;
    dpcov_plan *plan = nullptr;
    dpcov_gram *g = nullptr;
    dpcov_row_bounding spec;
    ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
    spec.bound = 1.0;
    EXPECT_EQ(runs_during(calibrator, [&] {
                dpcov_status s = dpcov_plan_create(&plan, DPCOV_MECHANISM_ANALYZE_GAUSS, numerics,
                                                   3, 0, 1.0, 1.0, 1e-6, nullptr);
                if (s == DPCOV_OK) s = dpcov_gram_create_planned(&g, 3, &spec, plan);
                if (s == DPCOV_OK)
                  s = dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3, nullptr);
                if (s == DPCOV_OK) s = dpcov_plan_get_receipt(plan, &receipt_);
                if (s == DPCOV_OK && numerics == DPCOV_NUMERICS_EXACT)
                  s = dpcov_plan_get_exact_grid(plan, &grid_);
                if (s == DPCOV_OK)
                  s = dpcov_plan_release_gram(plan, g, rng_, DPCOV_COL_MAJOR, out_.data(), 3,
                                              &receipt_);
                return s;
              }),
              1u);
    EXPECT_EQ(receipt_.numerics, numerics);
    dpcov_gram_destroy(&g);
    dpcov_plan_destroy(&plan);
  }
}

// The path Python's dpcov.release takes with an accountant: one plan, its receipt read for the
// ledger, and the release of the caller's matrix with it.
TEST_F(CalibrationCount, APlannedReleaseFromAMatrixCalibratesOnce) {
  dpcov_plan *plan = nullptr;
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              dpcov_status s = dpcov_plan_create(&plan, DPCOV_MECHANISM_ANALYZE_GAUSS,
                                                 DPCOV_NUMERICS_IDEALIZED, 3, 20, 1.0, 1.0, 1e-6,
                                                 nullptr);
              if (s == DPCOV_OK) s = dpcov_plan_get_receipt(plan, &receipt_);
              if (s == DPCOV_OK)
                s = dpcov_plan_release_matrix(plan, DPCOV_COL_MAJOR, 3, gram_.data(), 3, rng_,
                                              out_.data(), 3, &receipt_);
              return s;
            }),
            1u);
  EXPECT_EQ(receipt_.n, 20);
  dpcov_plan_destroy(&plan);
}

// `dpcov release --bound auto`'s path: the plan made before the bound is chosen, moved to the
// chosen bound. An idealized plan scales its sigma per unit of sensitivity: no second search,
// and the moved plan is the plan made at that bound, bit for bit.
TEST_F(CalibrationCount, APlanMovedToAnotherBoundDoesNotCalibrateAgain) {
  const int32_t mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
    dpcov_mechanism_params params;
    ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
    params.neighbour = neighbour;
    for (const double bound : {110.5, 0.37, 3.0, 1e-100}) {
      SCOPED_TRACE(bound);
      dpcov_plan *unit = nullptr;
      dpcov_plan *moved = nullptr;
      dpcov_plan *fresh = nullptr;
      ASSERT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
                  return dpcov_plan_create(&unit, mechanism, DPCOV_NUMERICS_IDEALIZED, 3, 0, 1.0,
                                           1.0, 1e-6, &params);
                }),
                1u);
      EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian,
                            [&] { return dpcov_plan_create_at_bound(&moved, unit, bound); }),
                0u);
      ASSERT_EQ(dpcov_plan_create(&fresh, mechanism, DPCOV_NUMERICS_IDEALIZED, 3, 0, bound, 1.0,
                                  1e-6, &params),
                DPCOV_OK);
      dpcov_receipt at_bound{};
      at_bound.struct_size = sizeof at_bound;
      dpcov_receipt planned{};
      planned.struct_size = sizeof planned;
      ASSERT_EQ(dpcov_plan_get_receipt(moved, &at_bound), DPCOV_OK);
      ASSERT_EQ(dpcov_plan_get_receipt(fresh, &planned), DPCOV_OK);
      EXPECT_EQ(at_bound.sigma, planned.sigma);
      EXPECT_EQ(at_bound.sensitivity, planned.sensitivity);
      EXPECT_EQ(at_bound.bound, bound);
      dpcov_plan_destroy(&unit);
      dpcov_plan_destroy(&moved);
      dpcov_plan_destroy(&fresh);
    }
  }
}

TEST_F(CalibrationCount, AnAnalyzeGaussRegressionComputesSigmaOnce) {
  std::vector<double> g(16, 0.0);
  for (int i = 0; i < 4; ++i) g[static_cast<size_t>(5 * i)] = 1000.0;
  const int64_t features[3] = {0, 1, 2};
  double coef[3];
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              return dpcov_ols_analyze_gauss(DPCOV_COL_MAJOR, 4, g.data(), 4, 5000, 1.0, 1.0, 1e-6,
                                             nullptr, 3, features, 3, nullptr, rng_, coef, nullptr,
                                             nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                             &receipt_);
            }),
            1u);
}

TEST_F(CalibrationCount, AnAnalyzeGaussGraphicalLassoComputesSigmaOnce) {
  std::vector<double> g(9, 0.0);
  for (int i = 0; i < 3; ++i) g[static_cast<size_t>(4 * i)] = 300.0;
  std::vector<double> precision(9);
  EXPECT_EQ(runs_during(Calibrator::AnalyticGaussian, [&] {
              return dpcov_private_glasso_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                                  g.data(), 3, 1000, 1.0, 1.0, 1e-6, nullptr, 0.05,
                                                  nullptr, rng_, precision.data(), 3, &receipt_,
                                                  nullptr);
            }),
            1u);
}

}  // namespace
