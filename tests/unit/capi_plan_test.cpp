// A plan kept by the library (dpcov/plan.h): it releases as dpcov_mechanism_release_gram does
// (and, from a matrix, as dpcov_mechanism_release does), holds for the rows counted at the
// release, refuses an accumulator or a matrix it was not made for, and
// every bad argument gets its status with the outputs, the handle and the generator untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

dpcov_receipt empty_receipt() {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  return r;
}

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> s(dpcov_rng_state_size());
  EXPECT_EQ(dpcov_rng_state_save(rng, s.data(), s.size()), DPCOV_OK);
  return s;
}

class CapiPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 5, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_row_bounding_default(&spec_), DPCOV_OK);
    for (int i = 0; i < 60; ++i) rows_.push_back(0.3 * std::sin(1.3 * i));
  }
  void TearDown() override { dpcov_rng_destroy(&rng_); }

  dpcov_plan *plan(int32_t mechanism, int32_t numerics, double bound = 1.0) {
    dpcov_plan *p = nullptr;
    EXPECT_EQ(dpcov_plan_create(&p, mechanism, numerics, 3, 0, bound, 1.0, 1e-6, nullptr),
              DPCOV_OK)
        << dpcov_last_error_message();
    return p;
  }
  dpcov_gram *filled(dpcov_gram *g) {
    EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 20, 3, rows_.data(), 3, nullptr),
              DPCOV_OK);
    return g;
  }

  // After refused calls: the generator, the output and the receipt as they were.
  void expect_untouched(const std::vector<unsigned char> &before, const dpcov_receipt &r) {
    EXPECT_EQ(state_of(rng_), before);
    for (double v : out_) EXPECT_EQ(v, -1.0);
    EXPECT_EQ(r.sigma, 0.0);
  }

  dpcov_rng *rng_ = nullptr;
  dpcov_row_bounding spec_{};
  std::vector<double> rows_;  // 20 x 3, row-major, norms < 1
  std::vector<double> out_ = std::vector<double>(9, -1.0);
};

TEST_F(CapiPlan, AnExactPlanReleasesAsTheOneShotReleaseFromTheSameSeed) {
  dpcov_plan *p = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT);
  dpcov_gram *planned = nullptr;
  ASSERT_EQ(dpcov_gram_create_planned(&planned, 3, &spec_, p), DPCOV_OK);
  filled(planned);
  spec_.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
  dpcov_gram *direct = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&direct, 3, &spec_), DPCOV_OK);
  filled(direct);
  dpcov_rng *twin = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&twin, 5, 0), DPCOV_OK);
  dpcov_receipt a = empty_receipt(), b = empty_receipt();
  std::vector<double> expected(9);
  ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, direct, 1.0, 1e-6, nullptr,
                                         twin, DPCOV_ROW_MAJOR, expected.data(), 3, &a),
            DPCOV_OK);
  ASSERT_EQ(dpcov_plan_release_gram(p, planned, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, &b),
            DPCOV_OK);
  EXPECT_EQ(out_, expected);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_EQ(b.n, 20);
  EXPECT_EQ(b.numerics, DPCOV_NUMERICS_EXACT);
  dpcov_rng_destroy(&twin);
  dpcov_gram_destroy(&direct);
  dpcov_gram_destroy(&planned);
  dpcov_plan_destroy(&p);
  EXPECT_EQ(p, nullptr);
}

TEST_F(CapiPlan, AMovedExactPlanKeepsItsGridAndScalesItsUnit) {
  dpcov_plan *p = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT);
  dpcov_plan *moved = nullptr;
  ASSERT_EQ(dpcov_plan_create_at_bound(&moved, p, 4.0), DPCOV_OK);
  dpcov_exact_grid g1{}, g4{};
  g1.struct_size = g4.struct_size = sizeof g1;
  ASSERT_EQ(dpcov_plan_get_exact_grid(p, &g1), DPCOV_OK);
  ASSERT_EQ(dpcov_plan_get_exact_grid(moved, &g4), DPCOV_OK);
  EXPECT_EQ(g1.bits, g4.bits);
  EXPECT_EQ(g1.noise_parameter, g4.noise_parameter);
  EXPECT_EQ(g4.unit, 4.0 * g1.unit);
  dpcov_receipt r = empty_receipt();
  ASSERT_EQ(dpcov_plan_get_receipt(moved, &r), DPCOV_OK);
  EXPECT_EQ(r.bound, 4.0);
  dpcov_plan_destroy(&moved);
  dpcov_plan_destroy(&p);
}

TEST_F(CapiPlan, AnAccumulatorOfAnotherShapeOrNumericsIsIncompatible) {
  dpcov_plan *exact = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT);
  dpcov_plan *at_two = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT, 2.0);
  dpcov_plan *idealized = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED);
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create_planned(&g, 3, &spec_, exact), DPCOV_OK);
  filled(g);
  const std::vector<unsigned char> before = state_of(rng_);
  dpcov_receipt r = empty_receipt();
  for (const dpcov_plan *other : {at_two, idealized}) {
    EXPECT_EQ(dpcov_plan_release_gram(other, g, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, &r),
              DPCOV_E_INCOMPATIBLE);
  }
  dpcov_gram *wrong = nullptr;
  EXPECT_EQ(dpcov_gram_create_planned(&wrong, 2, &spec_, exact), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(wrong, nullptr);
  expect_untouched(before, r);
  dpcov_gram_destroy(&g);
  dpcov_plan_destroy(&exact);
  dpcov_plan_destroy(&at_two);
  dpcov_plan_destroy(&idealized);
}

TEST_F(CapiPlan, BadArgumentsGetTheirStatusAndLeaveOutputsUntouched) {
  dpcov_plan *p = nullptr;
  const int32_t ag = DPCOV_MECHANISM_ANALYZE_GAUSS;
  EXPECT_EQ(dpcov_plan_create(nullptr, ag, 0, 3, 0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_create(&p, ag, 2, 3, 0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_plan_create(&p, ag, -1, 3, 0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_plan_create(&p, 99, 0, 3, 0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_plan_create(&p, DPCOV_MECHANISM_IEV, DPCOV_NUMERICS_EXACT, 3, 0, 1.0, 1.0, 1e-6,
                              nullptr),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_plan_create(&p, ag, 0, 0, 0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_plan_create(&p, ag, 0, 3, -1, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_DIMENSION);
  EXPECT_NE(dpcov_plan_create(&p, ag, 0, 3, 0, kNaN, 1.0, 1e-6, nullptr), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create(&p, ag, 0, 3, 0, -1.0, 1.0, 1e-6, nullptr), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create(&p, ag, 1, 3, 0, 1.0, 0.0, 1e-6, nullptr), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create(&p, ag, 1, 3, 0, 1.0, kNaN, 1e-6, nullptr), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create(&p, ag, 0, 3, 0, 1.0, 1.0, 1.0, nullptr), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create(&p, ag, 0, 3, 0, 1.0, 1.0, -1e-6, nullptr), DPCOV_OK);
  EXPECT_EQ(p, nullptr);
  EXPECT_NE(std::strlen(dpcov_last_error_message()), 0u);

  p = plan(ag, DPCOV_NUMERICS_IDEALIZED);
  dpcov_plan *moved = nullptr;
  EXPECT_EQ(dpcov_plan_create_at_bound(nullptr, p, 2.0), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_create_at_bound(&moved, nullptr, 2.0), DPCOV_E_NULL_POINTER);
  EXPECT_NE(dpcov_plan_create_at_bound(&moved, p, kNaN), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create_at_bound(&moved, p, 0.0), DPCOV_OK);
  EXPECT_NE(dpcov_plan_create_at_bound(&moved, p, std::numeric_limits<double>::infinity()),
            DPCOV_OK);
  EXPECT_EQ(moved, nullptr);

  dpcov_receipt r = empty_receipt();
  EXPECT_EQ(dpcov_plan_get_receipt(nullptr, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_get_receipt(p, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_receipt small = empty_receipt();
  small.struct_size = 1;
  EXPECT_EQ(dpcov_plan_get_receipt(p, &small), DPCOV_E_INVALID_ARGUMENT);
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  EXPECT_EQ(dpcov_plan_get_exact_grid(nullptr, &grid), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_get_exact_grid(p, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_get_exact_grid(p, &grid), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(grid.bits, 0);

  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_create_planned(nullptr, 3, &spec_, p), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_create_planned(&g, 3, nullptr, p), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_create_planned(&g, 3, &spec_, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_NE(dpcov_gram_create_planned(&g, 0, &spec_, p), DPCOV_OK);
  EXPECT_EQ(g, nullptr);
  ASSERT_EQ(dpcov_gram_create_planned(&g, 3, &spec_, p), DPCOV_OK);
  filled(g);

  const std::vector<unsigned char> before = state_of(rng_);
  EXPECT_EQ(dpcov_plan_release_gram(nullptr, g, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_release_gram(p, nullptr, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_release_gram(p, g, nullptr, DPCOV_ROW_MAJOR, out_.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_release_gram(p, g, rng_, DPCOV_ROW_MAJOR, nullptr, 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_plan_release_gram(p, g, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_NE(dpcov_plan_release_gram(p, g, rng_, 7, out_.data(), 3, &r), DPCOV_OK);
  EXPECT_NE(dpcov_plan_release_gram(p, g, rng_, DPCOV_ROW_MAJOR, out_.data(), 2, &r), DPCOV_OK);
  EXPECT_EQ(dpcov_plan_release_gram(p, g, rng_, DPCOV_ROW_MAJOR, out_.data(), 3, &small),
            DPCOV_E_INVALID_ARGUMENT);
  expect_untouched(before, r);

  dpcov_gram_destroy(&g);
  dpcov_plan_destroy(&p);
  dpcov_plan_destroy(&p);  // NULL: a no-op
  dpcov_plan_destroy(nullptr);
}

// The Gram matrix of the fixture's rows, 3 x 3 row-major.
std::vector<double> gram_of(const std::vector<double> &rows) {
  std::vector<double> g(9, 0.0);
  for (size_t i = 0; i < rows.size() / 3; ++i)
    for (size_t j = 0; j < 3; ++j)
      for (size_t k = 0; k < 3; ++k) g[j * 3 + k] += rows[i * 3 + j] * rows[i * 3 + k];
  return g;
}

TEST_F(CapiPlan, AMatrixReleasesWithThePlanAsTheOneShotReleaseFromTheSameSeed) {
  const std::vector<double> g = gram_of(rows_);
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM,
                                  DPCOV_MECHANISM_WISHART_ADDITIVE}) {
    dpcov_plan *p = nullptr;
    ASSERT_EQ(dpcov_plan_create(&p, mechanism, DPCOV_NUMERICS_IDEALIZED, 3, 20, 1.0, 0.5, 1e-6,
                                nullptr),
              DPCOV_OK);
    dpcov_rng *a = nullptr, *b = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&a, 9, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_rng_create_seeded(&b, 9, 0), DPCOV_OK);
    std::vector<double> direct(9), planned(g);  // the plan's release overwrites its input
    dpcov_receipt ra = empty_receipt(), rb = empty_receipt();
    ASSERT_EQ(dpcov_mechanism_release(mechanism, DPCOV_COL_MAJOR, 3, g.data(), 3, 20, 1.0, 0.5,
                                      1e-6, nullptr, a, direct.data(), 3, &ra),
              DPCOV_OK);
    ASSERT_EQ(dpcov_plan_release_matrix(p, DPCOV_COL_MAJOR, 3, planned.data(), 3, b,
                                        planned.data(), 3, &rb),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(direct, planned);
    EXPECT_EQ(std::memcmp(&ra, &rb, sizeof ra), 0);
    EXPECT_EQ(rb.n, 20);
    dpcov_rng_destroy(&a);
    dpcov_rng_destroy(&b);
    dpcov_plan_destroy(&p);
  }
}

TEST_F(CapiPlan, AMatrixReleaseRefusesEveryBadArgumentBeforeDrawing) {
  const std::vector<double> g = gram_of(rows_);
  dpcov_plan *p = nullptr, *exact = nullptr, *uncounted = nullptr;
  ASSERT_EQ(dpcov_plan_create(&p, DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, 3, 20,
                              1.0, 1.0, 1e-6, nullptr),
            DPCOV_OK);
  ASSERT_EQ(dpcov_plan_create(&exact, DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT, 3, 20,
                              1.0, 1.0, 1e-6, nullptr),
            DPCOV_OK);
  uncounted = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED);
  dpcov_receipt r = empty_receipt(), small = empty_receipt();
  small.struct_size = 1;
  std::vector<double> bad(g);
  bad[1] = 5.0;  // not symmetric
  std::vector<double> nan(g);
  nan[4] = kNaN;
  const std::vector<unsigned char> before = state_of(rng_);
  const auto release = [&](const dpcov_plan *plan, int32_t layout, int64_t dim, const double *m,
                           int64_t ldg, dpcov_rng *rng, double *out, int64_t ldo,
                           dpcov_receipt *receipt) {
    return dpcov_plan_release_matrix(plan, layout, dim, m, ldg, rng, out, ldo, receipt);
  };
  double *o = out_.data();
  const int32_t row = DPCOV_ROW_MAJOR;
  EXPECT_EQ(release(nullptr, row, 3, g.data(), 3, rng_, o, 3, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(p, row, 3, nullptr, 3, rng_, o, 3, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(p, row, 3, g.data(), 3, nullptr, o, 3, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(p, row, 3, g.data(), 3, rng_, nullptr, 3, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(p, row, 3, g.data(), 3, rng_, o, 3, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(p, row, 3, g.data(), 3, rng_, o, 3, &small), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(p, 7, 3, g.data(), 3, rng_, o, 3, &r), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(p, row, 3, g.data(), 2, rng_, o, 3, &r), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(p, row, 3, g.data(), 3, rng_, o, 2, &r), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(p, row, 2, g.data(), 3, rng_, o, 3, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(release(p, row, -1, g.data(), 3, rng_, o, 3, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(release(exact, row, 3, g.data(), 3, rng_, o, 3, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("idealized"), std::string::npos);
  EXPECT_EQ(release(uncounted, row, 3, g.data(), 3, rng_, o, 3, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(release(p, row, 3, bad.data(), 3, rng_, o, 3, &r), DPCOV_OK);
  EXPECT_NE(release(p, row, 3, nan.data(), 3, rng_, o, 3, &r), DPCOV_OK);
  expect_untouched(before, r);
  dpcov_plan_destroy(&p);
  dpcov_plan_destroy(&exact);
  dpcov_plan_destroy(&uncounted);
}

}  // namespace
