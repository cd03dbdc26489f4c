// AdaSSP at the level of privacy units through the shared library (dpcov_adassp_params::
// max_rows_per_unit, proofs/adassp_units.md): the plan's constants are the row-level ones with
// every sensitivity and noise scale k times larger; a fit from an accumulator of units; bad k
// refused with outputs and generator untouched; an older params struct reads as row level; and
// every interval function and the forecast refuse a unit receipt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kSentinel = -12345.0;

dpcov_adassp_receipt plan(int64_t k, int32_t neighbour, int32_t label_square = 1,
                          double bound_x = std::sqrt(1.5), double bound_y = 2.0) {
  dpcov_adassp_params params;
  EXPECT_EQ(dpcov_adassp_params_default(&params), DPCOV_OK);
  params.max_rows_per_unit = k;
  params.neighbour = neighbour;
  params.release_label_square = label_square;
  dpcov_adassp_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_adassp_plan(3, bound_x, bound_y, 1.0, 1e-6, &params, &r), DPCOV_OK)
      << dpcov_last_error_message();
  return r;
}

// a >= k b, within a relative 2^-50 (k b rounded up once more).
void expect_times(double a, double k, double b, double rel = 0x1p-50) {
  EXPECT_GE(a, k * b * (1 - 0x1p-52));
  EXPECT_LE(a, k * b * (1 + rel));
}

TEST(CapiAdasspUnits, EverySensitivityAndNoiseScaleIsKTimesTheRowLevelOne) {
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE})
    for (const int64_t k : {1, 5, 1 << 20}) {
      const dpcov_adassp_receipt row = plan(0, neighbour), unit = plan(k, neighbour);
      const double kd = static_cast<double>(k);
      EXPECT_EQ(row.max_rows_per_unit, 0);
      EXPECT_EQ(unit.max_rows_per_unit, k);
      expect_times(unit.sensitivity_lambda_min, kd, row.sensitivity_lambda_min);
      expect_times(unit.sensitivity_gram, kd, row.sensitivity_gram);
      expect_times(unit.sensitivity_cross, kd, row.sensitivity_cross);
      expect_times(unit.sensitivity_label_square, kd, row.sensitivity_label_square);
      // The calibration is linear in the sensitivity: noise linear in k, the same rho and delta.
      for (const auto field : {&dpcov_adassp_receipt::sigma_lambda_min,
                               &dpcov_adassp_receipt::sigma_gram,
                               &dpcov_adassp_receipt::sigma_cross,
                               &dpcov_adassp_receipt::sigma_label_square,
                               &dpcov_adassp_receipt::lambda_min_shift,
                               &dpcov_adassp_receipt::noise_norm_bound})
        EXPECT_NEAR(unit.*field / (kd * (row.*field)), 1.0, 1e-13);
      EXPECT_NEAR(unit.rho / row.rho, 1.0, 1e-13);
      EXPECT_LE(unit.delta_exact, 1e-6);
      EXPECT_NE(std::string(unit.theorem).find("proofs/adassp_units.md"), std::string::npos);
      EXPECT_EQ(unit.n, DPCOV_RECEIPT_N_WITHHELD);
    }
}

class CapiAdasspUnitsFit : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 34, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_adassp_params_default(&params_), DPCOV_OK);
    receipt_.struct_size = sizeof receipt_;
    // 12 units of 1 to 4 rows [1, x, y] (x of norm <= 1, |y| <= 1), kept at most 2 per unit.
    dpcov_row_bounding spec;
    ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
    spec.bound = 1.0;
    spec.constant = 1.0;
    spec.label_bound = 1.0;
    spec.max_rows_per_unit = 2;
    ASSERT_EQ(dpcov_gram_create_bounded(&gram_, 3, &spec), DPCOV_OK) << dpcov_last_error_message();
    std::vector<double> rows;
    std::vector<int64_t> units;
    for (int64_t u = 0; u < 12; ++u)
      for (int64_t i = 0; i <= u % 4; ++i) {
        const double x1 = 0.6 * std::sin(1.3 * static_cast<double>(u + 7 * i));
        const double x2 = 0.6 * std::cos(0.7 * static_cast<double>(3 * u + i));
        rows.insert(rows.end(), {x1, x2, 0.5 * x1 - 0.3 * x2});
        units.push_back(u);
      }
    ASSERT_EQ(dpcov_gram_add_unit_rows(gram_, rng_, DPCOV_ROW_MAJOR,
                                       static_cast<int64_t>(units.size()), 3, rows.data(), 3,
                                       units.data(), nullptr),
              DPCOV_OK)
        << dpcov_last_error_message();
    ASSERT_EQ(dpcov_gram_finish_units(gram_), DPCOV_OK);
    g_.assign(16, 0.0);
    ASSERT_EQ(dpcov_gram_get_matrix(gram_, DPCOV_ROW_MAJOR, g_.data(), 4), DPCOV_OK)
        << dpcov_last_error_message();
  }
  void TearDown() override {
    dpcov_gram_destroy(&gram_);
    dpcov_rng_destroy(&rng_);
  }
  // The generator's whole state: unchanged when nothing was drawn.
  std::vector<unsigned char> state() const {
    std::vector<unsigned char> bytes(DPCOV_RNG_STATE_SIZE);
    EXPECT_EQ(dpcov_rng_state_save(rng_, bytes.data(), bytes.size()), DPCOV_OK);
    return bytes;
  }
  dpcov_status fit(const dpcov_adassp_params *params) {
    coef_.assign(3, kSentinel);
    xtx_.assign(9, kSentinel);
    xty_.assign(3, kSentinel);
    return dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g_.data(), 4, 3, features_, 3, std::sqrt(2.0),
                            1.0, 1.0, 1e-6, params, rng_, coef_.data(), xtx_.data(), 3,
                            xty_.data(), &receipt_);
  }
  // Every output still the sentinel and the receipt unwritten.
  bool untouched() const {
    const auto sentinel = [](const std::vector<double> &v) {
      return std::all_of(v.begin(), v.end(), [](double x) { return x == kSentinel; });
    };
    return sentinel(coef_) && sentinel(xtx_) && sentinel(xty_) && receipt_.mechanism == 0;
  }
  dpcov_gram *gram_ = nullptr;
  dpcov_rng *rng_ = nullptr;
  dpcov_adassp_params params_{};
  dpcov_adassp_receipt receipt_{};
  std::vector<double> g_;
  const int64_t features_[3] = {0, 1, 2};
  std::vector<double> coef_, xtx_, xty_;
};

TEST_F(CapiAdasspUnitsFit, AFitFromAnAccumulatorOfUnitsStatesKAndTheUnitConstants) {
  params_.max_rows_per_unit = 2;
  params_.release_label_square = 1;
  ASSERT_EQ(fit(&params_), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(receipt_.max_rows_per_unit, 2);
  EXPECT_EQ(receipt_.n, DPCOV_RECEIPT_N_WITHHELD);
  const dpcov_adassp_receipt row = plan(0, DPCOV_NEIGHBOUR_REPLACE_ONE, 1, std::sqrt(2.0), 1.0);
  EXPECT_NEAR(receipt_.sigma_gram / row.sigma_gram, 2.0, 1e-13);
  EXPECT_NEAR(receipt_.sigma_cross / row.sigma_cross, 2.0, 1e-13);
  for (double c : coef_) EXPECT_TRUE(std::isfinite(c));
}

TEST_F(CapiAdasspUnitsFit, BadKAndThePaperCalibrationAreRefusedWithEverythingUntouched) {
  const std::vector<unsigned char> before = state();
  for (const int64_t k : {int64_t{-1}, int64_t{(1 << 20) + 1}, INT64_MIN, INT64_MAX}) {
    params_.max_rows_per_unit = k;
    EXPECT_EQ(fit(&params_), DPCOV_E_INVALID_ARGUMENT) << k;
    EXPECT_NE(std::string(dpcov_last_error_message()).find("max_rows_per_unit"),
              std::string::npos);
    EXPECT_TRUE(untouched());
    dpcov_adassp_receipt r{};
    r.struct_size = sizeof r;
    EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, &params_, &r), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(r.mechanism, 0);
  }
  params_.max_rows_per_unit = 2;
  params_.calibration = DPCOV_ADASSP_PAPER;
  params_.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  EXPECT_EQ(fit(&params_), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_TRUE(untouched());
  EXPECT_EQ(state(), before);
}

TEST_F(CapiAdasspUnitsFit, AParamsStructFromBeforeUnitsIsARowLevelFit) {
  params_.max_rows_per_unit = 7;  // past the older struct's end: never read
  params_.struct_size = offsetof(dpcov_adassp_params, max_rows_per_unit);
  ASSERT_EQ(fit(&params_), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(receipt_.max_rows_per_unit, 0);
  EXPECT_EQ(receipt_.sigma_gram,
            plan(0, DPCOV_NEIGHBOUR_REPLACE_ONE, 0, std::sqrt(2.0), 1.0).sigma_gram);
  // An older receipt struct is written up to its end: the field past it keeps the caller's value.
  dpcov_adassp_receipt old{};
  old.struct_size = offsetof(dpcov_adassp_receipt, max_rows_per_unit);
  old.max_rows_per_unit = -3;
  params_.struct_size = sizeof params_;
  params_.max_rows_per_unit = 2;
  ASSERT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, &params_, &old), DPCOV_OK);
  EXPECT_EQ(old.max_rows_per_unit, -3);
}

TEST_F(CapiAdasspUnitsFit, EveryIntervalFunctionRefusesAUnitReceiptAndTouchesNothing) {
  params_.max_rows_per_unit = 2;
  params_.release_label_square = 1;
  ASSERT_EQ(fit(&params_), DPCOV_OK) << dpcov_last_error_message();
  const std::vector<unsigned char> before = state();
  std::vector<double> out(3, kSentinel), meat = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  int32_t conclusive[3] = {-1, -1, -1}, method = -1;
  EXPECT_EQ(dpcov_adassp_bootstrap_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 40,
                                             &receipt_, 0.95, 199, rng_, out.data(), out.data(),
                                             out.data(), out.data(), out.data()),
            DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("privacy units"), std::string::npos);
  EXPECT_EQ(dpcov_adassp_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 40, &receipt_,
                                   0, 0.95, 199, rng_, out.data(), out.data(), out.data(),
                                   out.data(), out.data(), conclusive, &method),
            DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(),
                                            &receipt_, meat.data(), 3, 0.95, 199, rng_,
                                            out.data(), out.data(), out.data(), out.data(),
                                            out.data()),
            DPCOV_E_INCOMPATIBLE);
  for (double x : out) EXPECT_EQ(x, kSentinel);
  for (int32_t c : conclusive) EXPECT_EQ(c, -1);
  EXPECT_EQ(method, -1);
  EXPECT_EQ(state(), before);
}

// The forecast is of the intervals a row-level fit gives at n public rows: a unit receipt has none.
TEST_F(CapiAdasspUnitsFit, TheForecastRefusesAUnitReceiptAndLeavesItsOutputUntouched) {
  params_.max_rows_per_unit = 2;
  params_.release_label_square = 1;
  ASSERT_EQ(fit(&params_), DPCOV_OK) << dpcov_last_error_message();
  dpcov_regression_forecast f{};
  f.struct_size = sizeof f;
  f.crossover_rows = kSentinel;
  EXPECT_EQ(dpcov_regression_forecast_adassp(&receipt_, 1000.0, 0.95, 1.0, &f),
            DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("privacy units"), std::string::npos);
  EXPECT_EQ(f.crossover_rows, kSentinel);
  EXPECT_EQ(f.struct_size, sizeof f);
  receipt_.max_rows_per_unit = 0;
  EXPECT_EQ(dpcov_regression_forecast_adassp(&receipt_, 1000.0, 0.95, 1.0, &f), DPCOV_OK)
      << dpcov_last_error_message();
}

}  // namespace
