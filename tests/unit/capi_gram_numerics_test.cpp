// Exact numerics by default on the C ABI's row path: dpcov_gram_create_bounded() naming Analyze
// Gauss or symmetric Laplace, dpcov_gram_add_raw_rows(), dpcov_mechanism_release_gram() release
// with floating-point-safe numerics (the receipt says so), the same integers and draws as the
// exact accumulator of dpcov/exact.h; DPCOV_NUMERICS_IDEALIZED opts out and is labelled; a
// mechanism without an exact form stays idealized and says so; every misuse is refused with the
// outputs and the generator untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "dpcov.h"
#include "support/gram_info.hpp"

namespace {

constexpr int64_t kRows = 300;
constexpr int64_t kCols = 3;
constexpr double kEpsilon = 1.0;
constexpr double kDelta = 1e-6;

std::vector<double> rows_of(int64_t rows, int64_t cols) {
  std::vector<double> a(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i) + 0.1);
  return a;
}

dpcov_row_bounding release_spec(int32_t mechanism) {
  dpcov_row_bounding s;
  EXPECT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  s.mechanism = mechanism;
  s.epsilon = kEpsilon;
  s.delta = kDelta;
  return s;
}

using dpcov::test::gram_info_of;

dpcov_gram *filled(const dpcov_row_bounding &spec, const std::vector<double> &a, int64_t cols) {
  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, cols, &spec), DPCOV_OK) << dpcov_last_error_message();
  const int64_t rows = static_cast<int64_t>(a.size()) / cols;
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, cols, a.data(), cols, nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  return g;
}

dpcov_rng *seeded(uint64_t seed) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
  return rng;
}

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> s(dpcov_rng_state_size());
  EXPECT_EQ(dpcov_rng_state_save(rng, s.data(), s.size()), DPCOV_OK);
  return s;
}

struct Released {
  dpcov_status status;
  std::vector<double> matrix;
  dpcov_receipt receipt;
};

Released release(int32_t mechanism, const dpcov_gram *g, double epsilon, double delta,
                 dpcov_rng *rng) {
  const int64_t d = gram_info_of(g).dim;
  Released r{DPCOV_OK, std::vector<double>(static_cast<size_t>(d * d), -7.0), {}};
  r.receipt.struct_size = sizeof r.receipt;
  r.status = dpcov_mechanism_release_gram(mechanism, g, epsilon, delta, nullptr, rng,
                                          DPCOV_ROW_MAJOR, r.matrix.data(), d, &r.receipt);
  return r;
}

TEST(CapiGramNumerics, DefaultSpecAsksForExactNumericsAndNamesNoRelease) {
  dpcov_row_bounding s;
  ASSERT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  EXPECT_EQ(s.numerics, DPCOV_NUMERICS_EXACT);
  EXPECT_EQ(s.mechanism, 0);
  EXPECT_EQ(s.epsilon, 1.0);
  EXPECT_EQ(s.delta, 1e-6);
}

// The accumulator's numerics and the receipt's of a release of `mechanism` from it.
std::pair<int32_t, int32_t> numerics_of(const dpcov_row_bounding &spec, int32_t mechanism) {
  dpcov_gram *g = filled(spec, rows_of(kRows, kCols), kCols);
  const int32_t accumulated = gram_info_of(g).numerics;
  dpcov_rng *rng = seeded(5);
  const Released r = release(mechanism, g, spec.epsilon, spec.delta, rng);
  EXPECT_EQ(r.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(r.receipt.n, kRows);
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
  return {accumulated, r.receipt.numerics};
}

TEST(CapiGramNumerics, DefaultRowPathReleasesEveryExactMechanismExactly) {
  const std::pair<int32_t, int32_t> exact{DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_EXACT};
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM})
    for (const double constant : {0.0, 1.0}) {
      dpcov_row_bounding spec = release_spec(mechanism);
      spec.constant = constant;
      EXPECT_EQ(numerics_of(spec, mechanism), exact) << mechanism << " " << constant;
    }
}

TEST(CapiGramNumerics, ExactRowPathIsTheExactAccumulatorBitForBit) {
  const std::vector<double> a = rows_of(kRows, kCols);
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM}) {
    dpcov_gram *g = filled(release_spec(mechanism), a, kCols);
    dpcov_rng *rng = seeded(11);
    const Released r = release(mechanism, g, kEpsilon, kDelta, rng);
    ASSERT_EQ(r.status, DPCOV_OK);

    dpcov_exact_gram *e = nullptr;
    ASSERT_EQ(dpcov_exact_gram_create(&e, mechanism, kCols, 1.0, DPCOV_BOUND_CLIP, kEpsilon,
                                      kDelta, nullptr),
              DPCOV_OK);
    ASSERT_EQ(dpcov_exact_gram_add_rows(e, DPCOV_ROW_MAJOR, kRows, kCols, a.data(), kCols),
              DPCOV_OK);
    dpcov_rng *rng2 = seeded(11);
    std::vector<double> expected(kCols * kCols);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    dpcov_exact_grid grid{};
    grid.struct_size = sizeof grid;
    ASSERT_EQ(dpcov_exact_gram_release(e, rng2, expected.data(), kCols, &receipt, &grid),
              DPCOV_OK);
    EXPECT_EQ(r.matrix, expected);
    EXPECT_EQ(r.receipt.sigma, receipt.sigma);
    EXPECT_EQ(r.receipt.scale, receipt.scale);
    EXPECT_EQ(r.receipt.sensitivity, receipt.sensitivity);
    dpcov_rng_destroy(&rng2);
    dpcov_exact_gram_destroy(&e);
    dpcov_rng_destroy(&rng);
    dpcov_gram_destroy(&g);
  }
}

TEST(CapiGramNumerics, IdealizedOnRequestIsLabelledIdealized) {
  const std::pair<int32_t, int32_t> idealized{DPCOV_NUMERICS_IDEALIZED, DPCOV_NUMERICS_IDEALIZED};
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM}) {
    dpcov_row_bounding spec = release_spec(mechanism);
    spec.numerics = DPCOV_NUMERICS_IDEALIZED;
    EXPECT_EQ(numerics_of(spec, mechanism), idealized) << mechanism;
  }
}

TEST(CapiGramNumerics, MechanismWithoutExactFormStaysIdealizedAndSaysSo) {
  dpcov_row_bounding spec = release_spec(DPCOV_MECHANISM_WISHART_ADDITIVE);
  spec.epsilon = 0.5;
  const std::pair<int32_t, int32_t> idealized{DPCOV_NUMERICS_IDEALIZED, DPCOV_NUMERICS_IDEALIZED};
  EXPECT_EQ(numerics_of(spec, DPCOV_MECHANISM_WISHART_ADDITIVE), idealized);
}

TEST(CapiGramNumerics, ExactAccumulatorStreamsChunksToTheSameIntegers) {
  const std::vector<double> a = rows_of(kRows, kCols);
  const dpcov_row_bounding spec = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
  dpcov_gram *whole = filled(spec, a, kCols);
  dpcov_gram *first = nullptr;
  dpcov_gram *second = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&first, kCols, &spec), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_create_bounded(&second, kCols, &spec), DPCOV_OK);
  for (int64_t start = 0; start < kRows; start += 7) {
    const int64_t count = std::min<int64_t>(7, kRows - start);
    dpcov_gram *target = start < kRows / 2 ? first : second;
    ASSERT_EQ(dpcov_gram_add_raw_rows(target, DPCOV_ROW_MAJOR, count, kCols,
                                      a.data() + start * kCols, kCols, nullptr),
              DPCOV_OK);
  }
  ASSERT_EQ(dpcov_gram_merge(first, second), DPCOV_OK);
  std::vector<double> expected(kCols * kCols);
  std::vector<double> merged(kCols * kCols);
  ASSERT_EQ(dpcov_gram_get_matrix(whole, DPCOV_ROW_MAJOR, expected.data(), kCols), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_get_matrix(first, DPCOV_ROW_MAJOR, merged.data(), kCols), DPCOV_OK);
  EXPECT_EQ(merged, expected);
  EXPECT_EQ(gram_info_of(first).rows, kRows);
  dpcov_gram_destroy(&whole);
  dpcov_gram_destroy(&first);
  dpcov_gram_destroy(&second);
}

TEST(CapiGramNumerics, DropUnderAddRemoveCountsTheDroppedRowsAndReleasesExactly) {
  std::vector<double> a = rows_of(kRows, kCols);
  a[0] = 5.0;  // row 0 over the bound 2, every other row within (norm <= sqrt(3))
  dpcov_row_bounding spec = release_spec(DPCOV_MECHANISM_LAPLACE_SYM);
  spec.bound = 2.0;
  spec.policy = DPCOV_BOUND_DROP;
  spec.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  dpcov_gram *g = filled(spec, a, kCols);
  EXPECT_EQ(gram_info_of(g).dropped, 1);
  EXPECT_EQ(gram_info_of(g).rows, kRows - 1);
  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  std::vector<double> out(kCols * kCols);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_rng *rng = seeded(1);
  ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_LAPLACE_SYM, g, kEpsilon, kDelta, &params,
                                         rng, DPCOV_ROW_MAJOR, out.data(), kCols, &receipt),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(receipt.numerics, DPCOV_NUMERICS_EXACT);
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
}

TEST(CapiGramNumerics, CreateRefusesBadNumericsMechanismAndBudget) {
  dpcov_gram *g = nullptr;
  dpcov_row_bounding bad = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
  bad.numerics = 2;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
  bad.numerics = -1;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = release_spec(99);
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_E_INVALID_ARGUMENT);
  for (const double epsilon : {0.0, -1.0}) {
    bad = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
    bad.epsilon = epsilon;
    EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_E_INVALID_ARGUMENT);
  }
  for (const double epsilon : {std::nan(""), HUGE_VAL}) {
    bad = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
    bad.epsilon = epsilon;
    EXPECT_NE(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_OK);
  }
  for (const double delta : {0.0, 1.0, -1e-6, std::nan("")}) {
    bad = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
    bad.delta = delta;
    EXPECT_NE(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_OK);
  }
  // An exact release whose noise no grid keeps in the samplers' range.
  bad = release_spec(DPCOV_MECHANISM_LAPLACE_SYM);
  bad.epsilon = 1e-15;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_E_PRECONDITION);
  EXPECT_EQ(g, nullptr);
  // The same budget opted out of exact numerics is not planned at creation.
  bad.numerics = DPCOV_NUMERICS_IDEALIZED;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &bad), DPCOV_OK);
  dpcov_gram_destroy(&g);
}

TEST(CapiGramNumerics, ExactAccumulatorRefusesWhatItCannotReleaseLeavingOutputsAndGenerator) {
  dpcov_gram *g = filled(release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS), rows_of(kRows, kCols), kCols);
  dpcov_rng *rng = seeded(9);
  const std::vector<unsigned char> before = state_of(rng);
  // Another mechanism, and a budget whose exact plan chooses another grid.
  Released r = release(DPCOV_MECHANISM_WISHART_ADDITIVE, g, 0.5, kDelta, rng);
  EXPECT_EQ(r.status, DPCOV_E_INCOMPATIBLE);
  r = release(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 0.01, kDelta, rng);
  EXPECT_EQ(r.status, DPCOV_E_INCOMPATIBLE);
  for (const double v : r.matrix) EXPECT_EQ(v, -7.0);
  EXPECT_EQ(state_of(rng), before);
  // A calibration the exact form does not have.
  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN;
  std::vector<double> out(kCols * kCols, -7.0);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 0.5, kDelta, &params,
                                         rng, DPCOV_ROW_MAJOR, out.data(), kCols, &receipt),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(state_of(rng), before);
  // Rows that bypass the rounding, a floating-point accumulator merged in, a sketch's state.
  const std::vector<double> a = rows_of(2, kCols);
  EXPECT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 2, kCols, a.data(), kCols, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_gram *plain = nullptr;
  ASSERT_EQ(dpcov_gram_create(&plain, kCols), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_merge(g, plain), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_gram_merge(plain, g), DPCOV_E_INCOMPATIBLE);
  dpcov_sketch *sketch = nullptr;
  std::vector<double> data_sketch(4 * kCols, 0.0);
  EXPECT_EQ(dpcov_sketch_create_from_state(&sketch, rng, 4, g, DPCOV_ROW_MAJOR,
                                           data_sketch.data(), kCols),
            DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(sketch, nullptr);
  EXPECT_EQ(gram_info_of(g).rows, kRows);
  dpcov_gram_destroy(&plain);
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
}

TEST(CapiGramNumerics, ExactAccumulatorReturnsTheRefusedRowAsData) {
  for (const int32_t numerics : {DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED}) {
    dpcov_row_bounding spec = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
    spec.policy = DPCOV_BOUND_REJECT;
    spec.numerics = numerics;
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create_bounded(&g, 2, &spec), DPCOV_OK);
    const double rows[] = {0.1, 0.1, 3.0, 4.0, 0.2, 0.2};
    dpcov_row_refusal refusal{};
    refusal.struct_size = sizeof refusal;
    EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 3, 2, rows, 2, &refusal),
              DPCOV_E_NORM_BOUND);
    EXPECT_EQ(refusal.row, 1) << numerics;
    EXPECT_EQ(std::ldexp(refusal.norm_rest, refusal.norm_exponent), 5.0);
    EXPECT_EQ(gram_info_of(g).rows, 0);
    dpcov_gram_destroy(&g);
  }
}

TEST(CapiGramNumerics, AnOlderSpecWithoutTheNumericsFieldsGetsTheFloatingPointAccumulator) {
  // A program built before the numerics fields passes a spec ending at label_bound: no mechanism
  // is named, so the accumulator is the floating-point one it always was.
  dpcov_row_bounding spec = release_spec(DPCOV_MECHANISM_ANALYZE_GAUSS);
  spec.struct_size = offsetof(dpcov_row_bounding, label_bound) + sizeof spec.label_bound;
  dpcov_gram *g = filled(spec, rows_of(kRows, kCols), kCols);
  EXPECT_EQ(gram_info_of(g).numerics, DPCOV_NUMERICS_IDEALIZED);
  dpcov_gram_destroy(&g);
}

}  // namespace
