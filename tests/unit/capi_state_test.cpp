// Exporting and importing the state of Gram and sketch accumulators (dpcov_gram_create_from_state,
// dpcov_sketch_get_gram, dpcov_sketch_create_from_state): a state summed by hand releases what the
// merged accumulator releases, and every bad argument is refused with the output untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kDim = 3;
constexpr int64_t kRows = 40;
constexpr int64_t kProjection = 8;

std::string last() { return dpcov_last_error_message(); }

// kRows x kDim row-major rows, some of them over the bound 1 (clipped).
std::vector<double> rows() {
  std::vector<double> a(static_cast<size_t>(kRows * kDim));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.7 * static_cast<double>(i) + 0.3);
  return a;
}

dpcov_gram_info info_of(const dpcov_gram *g) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
  return info;
}

std::vector<double> matrix_of(const dpcov_gram *g) {
  std::vector<double> m(kDim * kDim);
  EXPECT_EQ(dpcov_gram_get_matrix(g, DPCOV_COL_MAJOR, m.data(), kDim), DPCOV_OK);
  return m;
}

class CapiGramState : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_gram_create(&source_, kDim), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(source_, DPCOV_ROW_MAJOR, kRows, kDim, data_.data(), kDim, 1.0,
                                  DPCOV_BOUND_CLIP),
              DPCOV_OK);
    info_ = info_of(source_);
    g_ = matrix_of(source_);
  }
  void TearDown() override { dpcov_gram_destroy(&source_); }

  // Creating from the (possibly altered) state fails with `status` and leaves `out` untouched.
  void expect_refused(dpcov_status status, const dpcov_gram_info &info, int32_t layout,
                      const double *g, int64_t ldg) {
    dpcov_gram *out = nullptr;
    EXPECT_EQ(dpcov_gram_create_from_state(&out, &info, layout, g, ldg), status) << last();
    EXPECT_EQ(out, nullptr);
    EXPECT_FALSE(last().empty());
  }

  std::vector<double> data_ = rows();
  dpcov_gram *source_ = nullptr;
  dpcov_gram_info info_{};
  std::vector<double> g_;
};

TEST_F(CapiGramState, ExportedStateRoundTripsExactly) {
  ASSERT_GT(info_.clipped, 0);
  dpcov_gram *copy = nullptr;
  ASSERT_EQ(dpcov_gram_create_from_state(&copy, &info_, DPCOV_COL_MAJOR, g_.data(), kDim),
            DPCOV_OK);
  const dpcov_gram_info info = info_of(copy);
  EXPECT_EQ(info.dim, info_.dim);
  EXPECT_EQ(info.rows, info_.rows);
  EXPECT_EQ(info.clipped, info_.clipped);
  EXPECT_EQ(info.dropped, info_.dropped);
  EXPECT_EQ(info.bound, info_.bound);
  EXPECT_EQ(matrix_of(copy), g_);
  dpcov_gram_destroy(&copy);
}

TEST_F(CapiGramState, SummedStatesReleaseWhatTheMergedAccumulatorReleases) {
  // Two halves accumulated apart, their states summed as MPI_Reduce would, and imported.
  dpcov_gram *half[2] = {nullptr, nullptr};
  std::vector<double> sum(kDim * kDim, 0.0);
  dpcov_gram_info total{};
  total.struct_size = sizeof total;
  for (int h = 0; h < 2; ++h) {
    ASSERT_EQ(dpcov_gram_create(&half[h], kDim), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(half[h], DPCOV_ROW_MAJOR, kRows / 2, kDim,
                                  data_.data() + h * (kRows / 2) * kDim, kDim, 1.0,
                                  DPCOV_BOUND_CLIP),
              DPCOV_OK);
    const std::vector<double> m = matrix_of(half[h]);
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += m[i];
    const dpcov_gram_info info = info_of(half[h]);
    total.dim = info.dim;
    total.rows += info.rows;
    total.clipped += info.clipped;
    total.dropped += info.dropped;
    total.bound = info.bound;
  }
  dpcov_gram *imported = nullptr;
  ASSERT_EQ(dpcov_gram_create_from_state(&imported, &total, DPCOV_ROW_MAJOR, sum.data(), kDim),
            DPCOV_OK);
  EXPECT_EQ(total.rows, info_.rows);
  EXPECT_EQ(total.clipped, info_.clipped);

  std::vector<double> a(kDim * kDim), b(kDim * kDim);
  dpcov_receipt ra{}, rb{};
  ra.struct_size = rb.struct_size = sizeof(dpcov_receipt);
  dpcov_rng *rng_a = nullptr, *rng_b = nullptr;
  dpcov_rng_create_seeded(&rng_a, 11, 0);
  dpcov_rng_create_seeded(&rng_b, 11, 0);
  ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, source_, 1.0, 1e-6, nullptr,
                                         rng_a, DPCOV_COL_MAJOR, a.data(), kDim, &ra),
            DPCOV_OK);
  ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, imported, 1.0, 1e-6,
                                         nullptr, rng_b, DPCOV_COL_MAJOR, b.data(), kDim, &rb),
            DPCOV_OK);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * (1.0 + std::fabs(a[i])));
  EXPECT_EQ(ra.n, rb.n);
  EXPECT_EQ(ra.sigma, rb.sigma);
  dpcov_rng_destroy(&rng_a);
  dpcov_rng_destroy(&rng_b);
  dpcov_gram_destroy(&imported);
  dpcov_gram_destroy(&half[0]);
  dpcov_gram_destroy(&half[1]);
}

TEST_F(CapiGramState, RefusesNullPointers) {
  EXPECT_EQ(dpcov_gram_create_from_state(nullptr, &info_, DPCOV_COL_MAJOR, g_.data(), kDim),
            DPCOV_E_NULL_POINTER);
  dpcov_gram *out = nullptr;
  EXPECT_EQ(dpcov_gram_create_from_state(&out, nullptr, DPCOV_COL_MAJOR, g_.data(), kDim),
            DPCOV_E_NULL_POINTER);
  expect_refused(DPCOV_E_NULL_POINTER, info_, DPCOV_COL_MAJOR, nullptr, kDim);
}

TEST_F(CapiGramState, RefusesBadShapesAndLayouts) {
  dpcov_gram_info info = info_;
  info.struct_size = sizeof(size_t);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  info = info_;
  info.dim = 0;
  expect_refused(DPCOV_E_DIMENSION, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  expect_refused(DPCOV_E_LAYOUT, info_, 7, g_.data(), kDim);
  expect_refused(DPCOV_E_LAYOUT, info_, DPCOV_COL_MAJOR, g_.data(), kDim - 1);
}

TEST_F(CapiGramState, RefusesMatricesThatAreNotGramMatrices) {
  std::vector<double> g = g_;
  g[4] = kNaN;
  expect_refused(DPCOV_E_NON_FINITE, info_, DPCOV_COL_MAJOR, g.data(), kDim);
  g = g_;
  g[1] += 1e-3;  // (1, 0) no longer equals (0, 1)
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info_, DPCOV_COL_MAJOR, g.data(), kDim);
  g = g_;
  g[0] = -1.0;
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info_, DPCOV_COL_MAJOR, g.data(), kDim);
  dpcov_gram_info info = info_;
  info.rows = 1;  // trace(G) > 1 * B^2
  info.clipped = 0;
  expect_refused(DPCOV_E_NORM_BOUND, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  // An off-diagonal entry above n B^2 (|g_ij| <= sqrt(g_ii g_jj) <= n B^2 for rows of norm <= B),
  // the trace within it: refused too (only the trace was checked).
  g = g_;
  g[1] = g[3] = 1.5 * static_cast<double>(info_.rows) * info_.bound * info_.bound;
  expect_refused(DPCOV_E_NORM_BOUND, info_, DPCOV_COL_MAJOR, g.data(), kDim);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("entry (0, 1)"), std::string::npos)
      << dpcov_last_error_message();
}

TEST_F(CapiGramState, RefusesBadBoundsAndCounters) {
  for (double bound : {0.0, -1.0}) {
    dpcov_gram_info info = info_;
    info.bound = bound;
    expect_refused(DPCOV_E_INVALID_ARGUMENT, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  }
  for (double bound : {kNaN, kInf}) {
    dpcov_gram_info info = info_;
    info.bound = bound;
    expect_refused(DPCOV_E_NON_FINITE, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  }
  dpcov_gram_info info = info_;
  info.rows = -1;
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  info = info_;
  info.dropped = -1;
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info, DPCOV_COL_MAJOR, g_.data(), kDim);
  info = info_;
  info.clipped = info.rows + 1;
  expect_refused(DPCOV_E_INVALID_ARGUMENT, info, DPCOV_COL_MAJOR, g_.data(), kDim);
}

class CapiSketchState : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&key_, 3, 1), DPCOV_OK);
    ASSERT_EQ(dpcov_sketch_create(&whole_, kDim, kProjection, key_), DPCOV_OK);
    ASSERT_EQ(dpcov_sketch_add_rows(whole_, DPCOV_ROW_MAJOR, kRows, kDim, data_.data(), kDim, 0,
                                    1.0, DPCOV_BOUND_CLIP),
              DPCOV_OK);
    // The state of the two halves (global indices 0.. and kRows/2..) summed by hand.
    std::vector<double> gram_sum(kDim * kDim, 0.0);
    sketch_sum_.assign(kProjection * kDim, 0.0);
    dpcov_gram_info total{};
    total.struct_size = sizeof total;
    for (int h = 0; h < 2; ++h) {
      dpcov_sketch *part = nullptr;
      ASSERT_EQ(dpcov_sketch_create_partial(&part, whole_), DPCOV_OK);
      const int64_t first = h * (kRows / 2);
      ASSERT_EQ(dpcov_sketch_add_rows(part, DPCOV_ROW_MAJOR, kRows / 2, kDim,
                                      data_.data() + first * kDim, kDim, first, 1.0,
                                      DPCOV_BOUND_CLIP),
                DPCOV_OK);
      std::vector<double> s(kProjection * kDim), g(kDim * kDim);
      ASSERT_EQ(dpcov_sketch_get(part, 0.0, DPCOV_COL_MAJOR, s.data(), kProjection), DPCOV_OK);
      ASSERT_EQ(dpcov_sketch_get_gram(part, DPCOV_COL_MAJOR, g.data(), kDim), DPCOV_OK);
      for (size_t i = 0; i < s.size(); ++i) sketch_sum_[i] += s[i];
      for (size_t i = 0; i < g.size(); ++i) gram_sum[i] += g[i];
      dpcov_gram_info info{};
      info.struct_size = sizeof info;
      ASSERT_EQ(dpcov_sketch_get_info(part, &info), DPCOV_OK);
      total.dim = info.dim;
      total.rows += info.rows;
      total.clipped += info.clipped;
      total.dropped += info.dropped;
      total.bound = info.bound;
      dpcov_sketch_destroy(&part);
    }
    ASSERT_EQ(dpcov_gram_create_from_state(&gram_, &total, DPCOV_COL_MAJOR, gram_sum.data(), kDim),
              DPCOV_OK);
  }
  void TearDown() override {
    dpcov_sketch_destroy(&whole_);
    dpcov_gram_destroy(&gram_);
    dpcov_rng_destroy(&key_);
  }

  void expect_refused(dpcov_status status, int64_t r, const dpcov_gram *gram, int32_t layout,
                      const double *s, int64_t lds) {
    dpcov_sketch *out = nullptr;
    EXPECT_EQ(dpcov_sketch_create_from_state(&out, key_, r, gram, layout, s, lds), status)
        << last();
    EXPECT_EQ(out, nullptr);
  }

  std::vector<double> data_ = rows();
  dpcov_rng *key_ = nullptr;
  dpcov_sketch *whole_ = nullptr;
  dpcov_gram *gram_ = nullptr;
  std::vector<double> sketch_sum_;
};

TEST_F(CapiSketchState, GetGramEqualsTheGramAccumulatorOfTheSameRows) {
  dpcov_gram *plain = nullptr;
  ASSERT_EQ(dpcov_gram_create(&plain, kDim), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_add_rows(plain, DPCOV_ROW_MAJOR, kRows, kDim, data_.data(), kDim, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_OK);
  std::vector<double> g(kDim * kDim);
  ASSERT_EQ(dpcov_sketch_get_gram(whole_, DPCOV_COL_MAJOR, g.data(), kDim), DPCOV_OK);
  EXPECT_EQ(g, matrix_of(plain));
  dpcov_gram_destroy(&plain);
}

TEST_F(CapiSketchState, GetGramRefusesBadArguments) {
  std::vector<double> g(kDim * kDim, 7.0);
  EXPECT_EQ(dpcov_sketch_get_gram(nullptr, DPCOV_COL_MAJOR, g.data(), kDim), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_sketch_get_gram(whole_, DPCOV_COL_MAJOR, nullptr, kDim), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_sketch_get_gram(whole_, 0, g.data(), kDim), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_sketch_get_gram(whole_, DPCOV_COL_MAJOR, g.data(), kDim - 1), DPCOV_E_LAYOUT);
  EXPECT_EQ(g, std::vector<double>(kDim * kDim, 7.0));
}

TEST_F(CapiSketchState, SketchesOfOneGeneratorHaveTheirOwnWeightsAndPartialsShareThem) {
  dpcov_sketch *second = nullptr, *partial = nullptr;
  ASSERT_EQ(dpcov_sketch_create(&second, kDim, kProjection, key_), DPCOV_OK);
  ASSERT_EQ(dpcov_sketch_create_partial(&partial, whole_), DPCOV_OK);
  for (dpcov_sketch *s : {second, partial})
    ASSERT_EQ(dpcov_sketch_add_rows(s, DPCOV_ROW_MAJOR, kRows, kDim, data_.data(), kDim, 0, 1.0,
                                    DPCOV_BOUND_CLIP),
              DPCOV_OK);
  std::vector<double> w(kProjection * kDim), s2(w.size()), p(w.size());
  ASSERT_EQ(dpcov_sketch_get(whole_, 0.0, DPCOV_COL_MAJOR, w.data(), kProjection), DPCOV_OK);
  ASSERT_EQ(dpcov_sketch_get(second, 0.0, DPCOV_COL_MAJOR, s2.data(), kProjection), DPCOV_OK);
  ASSERT_EQ(dpcov_sketch_get(partial, 0.0, DPCOV_COL_MAJOR, p.data(), kProjection), DPCOV_OK);
  EXPECT_EQ(p, w);  // the same weights, the same rows
  size_t equal = 0;
  for (size_t i = 0; i < w.size(); ++i) equal += s2[i] == w[i];
  EXPECT_EQ(equal, 0u);  // a second sketch of the generator: other weights everywhere
  EXPECT_EQ(dpcov_sketch_merge(second, partial), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_sketch_create_partial(&partial, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_sketch_destroy(&second);
  dpcov_sketch_destroy(&partial);
}

TEST_F(CapiSketchState, SummedStateReleasesWhatTheWholeSketchsStateReleases) {
  // The same key for the w I block of both (generators of one seed): the data sketches differ only
  // by the rounding of the sum.
  std::vector<double> whole_sketch(kProjection * kDim);
  ASSERT_EQ(dpcov_sketch_get(whole_, 0.0, DPCOV_COL_MAJOR, whole_sketch.data(), kProjection),
            DPCOV_OK);
  dpcov_rng *key_a = nullptr, *key_b = nullptr;
  dpcov_rng_create_seeded(&key_a, 21, 0);
  dpcov_rng_create_seeded(&key_b, 21, 0);
  dpcov_sketch *whole_state = nullptr, *imported = nullptr;
  ASSERT_EQ(dpcov_sketch_create_from_state(&whole_state, key_a, kProjection, gram_,
                                           DPCOV_COL_MAJOR, whole_sketch.data(), kProjection),
            DPCOV_OK);
  ASSERT_EQ(dpcov_sketch_create_from_state(&imported, key_b, kProjection, gram_, DPCOV_COL_MAJOR,
                                           sketch_sum_.data(), kProjection),
            DPCOV_OK);
  dpcov_rng_destroy(&key_a);
  dpcov_rng_destroy(&key_b);
  dpcov_mechanism_params params;
  dpcov_mechanism_params_default(&params);
  params.projection_rows = kProjection;
  std::vector<double> a(kDim * kDim), b(kDim * kDim);
  dpcov_receipt ra{}, rb{};
  ra.struct_size = rb.struct_size = sizeof(dpcov_receipt);
  dpcov_rng *rng_a = nullptr, *rng_b = nullptr;
  dpcov_rng_create_seeded(&rng_a, 12, 0);
  dpcov_rng_create_seeded(&rng_b, 12, 0);
  ASSERT_EQ(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, whole_state, 1.0, 1e-6,
                                 &params, rng_a, DPCOV_ROW_MAJOR, nullptr, 0, a.data(), kDim, &ra),
            DPCOV_OK)
      << last();
  ASSERT_EQ(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, imported, 1.0, 1e-6, &params,
                                 rng_b, DPCOV_ROW_MAJOR, nullptr, 0, b.data(), kDim, &rb),
            DPCOV_OK)
      << last();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-10 * (1.0 + std::fabs(a[i])));
  EXPECT_EQ(ra.n, rb.n);
  EXPECT_NEAR(ra.test_value, rb.test_value, 1e-10 * (1.0 + std::fabs(ra.test_value)));
  dpcov_rng_destroy(&rng_a);
  dpcov_rng_destroy(&rng_b);
  dpcov_sketch_destroy(&whole_state);
  dpcov_sketch_destroy(&imported);
}

TEST_F(CapiSketchState, ImportedSketchTakesNoMoreRowsAndMergesOnlyWithEmptySketches) {
  dpcov_sketch *imported = nullptr;
  ASSERT_EQ(dpcov_sketch_create_from_state(&imported, key_, kProjection, gram_, DPCOV_COL_MAJOR,
                                           sketch_sum_.data(), kProjection),
            DPCOV_OK);
  EXPECT_EQ(dpcov_sketch_add_rows(imported, DPCOV_ROW_MAJOR, 1, kDim, data_.data(), kDim, kRows,
                                  1.0, DPCOV_BOUND_CLIP),
            DPCOV_E_INVALID_ARGUMENT);
  // Another sketch's weights are refused; rows of a partial of it overlap every index.
  EXPECT_EQ(dpcov_sketch_merge(imported, whole_), DPCOV_E_INCOMPATIBLE);
  dpcov_sketch *more = nullptr;
  ASSERT_EQ(dpcov_sketch_create_partial(&more, imported), DPCOV_OK);
  ASSERT_EQ(dpcov_sketch_add_rows(more, DPCOV_ROW_MAJOR, 1, kDim, data_.data(), kDim, kRows, 1.0,
                                  DPCOV_BOUND_CLIP),
            DPCOV_OK);
  EXPECT_EQ(dpcov_sketch_merge(imported, more), DPCOV_E_INVALID_ARGUMENT);
  dpcov_sketch_destroy(&more);
  dpcov_sketch *empty = nullptr;
  ASSERT_EQ(dpcov_sketch_create_partial(&empty, imported), DPCOV_OK);
  EXPECT_EQ(dpcov_sketch_merge(empty, imported), DPCOV_OK) << last();
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  ASSERT_EQ(dpcov_sketch_get_info(empty, &info), DPCOV_OK);
  EXPECT_EQ(info.rows, kRows);
  dpcov_sketch_destroy(&empty);
  dpcov_sketch_destroy(&imported);
}

TEST_F(CapiSketchState, CreateFromStateRefusesBadArguments) {
  dpcov_sketch *out = nullptr;
  EXPECT_EQ(dpcov_sketch_create_from_state(nullptr, key_, kProjection, gram_, DPCOV_COL_MAJOR,
                                           sketch_sum_.data(), kProjection),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_sketch_create_from_state(&out, nullptr, kProjection, gram_, DPCOV_COL_MAJOR,
                                           sketch_sum_.data(), kProjection),
            DPCOV_E_NULL_POINTER);
  expect_refused(DPCOV_E_NULL_POINTER, kProjection, nullptr, DPCOV_COL_MAJOR, sketch_sum_.data(),
                 kProjection);
  expect_refused(DPCOV_E_NULL_POINTER, kProjection, gram_, DPCOV_COL_MAJOR, nullptr, kProjection);
  expect_refused(DPCOV_E_DIMENSION, 0, gram_, DPCOV_COL_MAJOR, sketch_sum_.data(), kProjection);
  expect_refused(DPCOV_E_LAYOUT, kProjection, gram_, 3, sketch_sum_.data(), kProjection);
  expect_refused(DPCOV_E_LAYOUT, kProjection, gram_, DPCOV_COL_MAJOR, sketch_sum_.data(),
                 kProjection - 1);
  std::vector<double> s = sketch_sum_;
  s[5] = kInf;
  expect_refused(DPCOV_E_NON_FINITE, kProjection, gram_, DPCOV_COL_MAJOR, s.data(), kProjection);
  dpcov_gram *empty = nullptr;
  ASSERT_EQ(dpcov_gram_create(&empty, kDim), DPCOV_OK);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kProjection, empty, DPCOV_COL_MAJOR, sketch_sum_.data(),
                 kProjection);
  dpcov_gram_destroy(&empty);
}

}  // namespace
