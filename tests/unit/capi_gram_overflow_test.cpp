// The Gram accumulator's overflow (dpcov/gram.h, core/data/gram.hpp): an entry of G that would
// overflow is DPCOV_E_NUMERICAL with the accumulator unchanged. Rows of norm <= B sum to entries
// of at most n B^2, so over random bounds in [3e152, 2e154] and rows at the bound the refusal
// comes only once n B^2 exceeds the largest double (about 1.8e8 rows at B = 1e150), where the
// plan of every mechanism at that n and B refuses too (n B^2 2^20 must be finite): the
// accumulator refuses nothing a release would take. Its message names n and B, never an entry of
// G (which depends on the rows). Merging two accumulators whose sum overflows behaves alike.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int32_t kMechanisms = DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART + 1;

dpcov_gram_info info_of(const dpcov_gram *g) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
  return info;
}

std::vector<double> matrix_of(const dpcov_gram *g, int64_t d) {
  std::vector<double> m(static_cast<size_t>(d * d));
  EXPECT_EQ(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, m.data(), d), DPCOV_OK);
  return m;
}

// Every mechanism's plan at (n, B), d: none succeeds.
void expect_every_plan_refuses(int64_t d, int64_t n, double bound) {
  for (int32_t id = 0; id < kMechanisms; ++id)
    for (const double eps : {0.5, 1.0, 8.0}) {
      dpcov_mechanism_params params;
      ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
      params.audit_only_not_private = 1;
      dpcov_receipt receipt{};
      receipt.struct_size = sizeof receipt;
      EXPECT_NE(dpcov_mechanism_plan(id, d, n, bound, eps, 1e-6, &params, &receipt), DPCOV_OK)
          << dpcov_mechanism_name(id) << " n = " << n << " B = " << bound;
    }
}

// The message names B and no entry "(i, j)" of G, nor n (private under add/remove).
void expect_public_message(int64_t n) {
  const std::string message = dpcov_last_error_message();
  EXPECT_NE(message.find("B = "), std::string::npos) << message;
  EXPECT_EQ(message.find(std::to_string(n) + " rows"), std::string::npos) << message;
  EXPECT_EQ(message.find("entry"), std::string::npos) << message;
  EXPECT_EQ(message.find("(0, 0)"), std::string::npos) << message;
}

TEST(CapiGramOverflow, RefusedOnlyWhereNBSquaredOverflowsAndEveryPlanRefuses) {
  std::mt19937_64 gen(20261124);
  std::uniform_real_distribution<double> exponent(152.5, 154.3);  // n up to about 6000
  for (int round = 0; round < 40; ++round) {
    const int64_t d = 1 + static_cast<int64_t>(gen() % 3);
    const double bound = std::pow(10.0, exponent(gen));
    const int64_t chunk = 1 + static_cast<int64_t>(gen() % 64);
    // Rows at the bound, spread over the coordinates (a row of norm B exactly, rounded down).
    std::vector<double> rows(static_cast<size_t>(chunk * d));
    for (int64_t i = 0; i < chunk; ++i) rows[static_cast<size_t>(i * d + i % d)] = bound;
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create(&g, d), DPCOV_OK);
    for (;;) {
      const int64_t before = info_of(g).rows;
      const std::vector<double> m = matrix_of(g, d);
      const dpcov_status s =
          dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, chunk, d, rows.data(), d, bound, DPCOV_BOUND_CLIP);
      if (s == DPCOV_OK) {
        // Below the overflow every entry is finite.
        for (const double v : matrix_of(g, d)) ASSERT_TRUE(std::isfinite(v));
        continue;
      }
      ASSERT_EQ(s, DPCOV_E_NUMERICAL) << dpcov_last_error_message();
      const int64_t n = before + chunk;
      expect_public_message(n);
      EXPECT_GT(static_cast<double>(n) * bound * bound, DBL_MAX / 1.0000001)
          << "n = " << n << " B = " << bound;
      EXPECT_EQ(info_of(g).rows, before);
      EXPECT_EQ(matrix_of(g, d), m);
      expect_every_plan_refuses(d, n, bound);
      break;
    }
    dpcov_gram_destroy(&g);
  }
}

TEST(CapiGramOverflow, AMergeWhoseSumOverflowsIsRefusedAlike) {
  const double bound = 1e153, row[2] = {1e153, 0.0};
  dpcov_gram *a = nullptr, *b = nullptr;
  ASSERT_EQ(dpcov_gram_create(&a, 2), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_create(&b, 2), DPCOV_OK);
  // 120 rows each: 1.2e308 per accumulator, 2.4e308 merged.
  for (int i = 0; i < 120; ++i) {
    ASSERT_EQ(dpcov_gram_add_rows(a, DPCOV_ROW_MAJOR, 1, 2, row, 2, bound, DPCOV_BOUND_CLIP),
              DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(b, DPCOV_ROW_MAJOR, 1, 2, row, 2, bound, DPCOV_BOUND_CLIP),
              DPCOV_OK);
  }
  const std::vector<double> m = matrix_of(a, 2);
  EXPECT_EQ(dpcov_gram_merge(a, b), DPCOV_E_NUMERICAL);
  expect_public_message(240);
  EXPECT_EQ(info_of(a).rows, 120);
  EXPECT_EQ(matrix_of(a, 2), m);
  expect_every_plan_refuses(2, 240, bound);
  dpcov_gram_destroy(&a);
  dpcov_gram_destroy(&b);
}

}  // namespace
