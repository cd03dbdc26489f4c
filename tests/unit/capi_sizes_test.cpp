// Every C entry point that takes caller memory checks the extent of each array in bytes, with
// overflow-checked multiplication, before reading or writing it (dpcov/common.h states the
// limits). Two edges per kind of argument: a row count whose rows x ld fits 64 bits in elements
// but not in bytes (the extent wraps to a small number), and a pointer whose extent wraps around
// the end of the address space. Neither may be read: each call must fail with DPCOV_E_TOO_LARGE.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

// 2^61 rows of 4 doubles: 2^63 elements minus a bit fit int64_t, 2^66 bytes do not (mod 2^64: 0).
const int64_t kWrapRows = int64_t{1} << 61;
// 2^58 rows of 4 doubles are exactly 2^63 bytes: the first count over PTRDIFF_MAX.
const int64_t kEdgeRows = int64_t{1} << 58;
// Any array of 3 or more doubles starting 16 bytes before the end of the address space wraps around it.
const double *far_in() { return reinterpret_cast<const double *>(UINTPTR_MAX - 15); }
double *far_out() { return reinterpret_cast<double *>(UINTPTR_MAX - 15); }
const int64_t *far_index() { return reinterpret_cast<const int64_t *>(UINTPTR_MAX - 7); }

const int32_t R = DPCOV_ROW_MAJOR;
const double kI3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

#define EXPECT_TOO_LARGE(call)                                                   \
  do {                                                                            \
    EXPECT_EQ((call), DPCOV_E_TOO_LARGE) << #call;                                \
    EXPECT_NE(std::string(dpcov_last_error_message()), "") << #call;             \
  } while (0)

class CapiSizes : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 1, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_create(&gram_, 4), DPCOV_OK);
    ASSERT_EQ(dpcov_sketch_create(&sketch_, 3, 4, rng_), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_create(&gram3_, 3), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(gram3_, R, 3, 3, kI3, 3, 1.0, DPCOV_BOUND_CLIP), DPCOV_OK);
  }
  void TearDown() override {
    dpcov_gram_destroy(&gram_);
    dpcov_gram_destroy(&gram3_);
    dpcov_sketch_destroy(&sketch_);
    dpcov_rng_destroy(&rng_);
  }
  dpcov_rng *rng_ = nullptr;
  dpcov_gram *gram_ = nullptr;
  dpcov_gram *gram3_ = nullptr;
  dpcov_sketch *sketch_ = nullptr;
  double small_[16] = {};
};

TEST_F(CapiSizes, GramRowsWhoseBytesOverflowAreRefusedUnread) {
  for (int64_t rows : {kWrapRows, kEdgeRows, INT64_MAX / 4})
    EXPECT_TOO_LARGE(dpcov_gram_add_rows(gram_, R, rows, 4, small_, 4, 1.0, DPCOV_BOUND_CLIP));
  // Column-major: the outer count is the number of columns, fixed by the accumulator, so only
  // the address space can wrap.
  EXPECT_TOO_LARGE(
      dpcov_gram_add_rows(gram_, DPCOV_COL_MAJOR, 4, 4, far_in(), 4, 1.0, DPCOV_BOUND_CLIP));
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  ASSERT_EQ(dpcov_gram_get_info(gram_, &info), DPCOV_OK);
  EXPECT_EQ(info.rows, 0);
  EXPECT_TOO_LARGE(dpcov_gram_add_rows(gram_, R, 4, 4, far_in(), 4, 1.0, DPCOV_BOUND_CLIP));
  EXPECT_TOO_LARGE(dpcov_gram_get_matrix(gram_, R, far_out(), 4));
  info.dim = 3;
  EXPECT_TOO_LARGE(dpcov_gram_create_from_state(&gram_, &info, R, far_in(), 3));
}

TEST_F(CapiSizes, SketchArraysAreCheckedInBytes) {
  for (int64_t rows : {kWrapRows, kEdgeRows})
    EXPECT_TOO_LARGE(
        dpcov_sketch_add_rows(sketch_, R, rows, 4, small_, 4, 0, 1.0, DPCOV_BOUND_CLIP));
  EXPECT_TOO_LARGE(dpcov_sketch_add_rows(sketch_, R, 3, 3, far_in(), 3, 0, 1.0, DPCOV_BOUND_CLIP));
  EXPECT_TOO_LARGE(dpcov_sketch_get(sketch_, 1.0, R, far_out(), 3));
  EXPECT_TOO_LARGE(dpcov_sketch_get_gram(sketch_, R, far_out(), 3));
  dpcov_sketch *made = nullptr;
  EXPECT_TOO_LARGE(dpcov_sketch_create_from_state(&made, rng_, 4, gram3_, R, far_in(), 3));
  EXPECT_EQ(made, nullptr);
}

TEST_F(CapiSizes, MechanismMatricesAreCheckedInBytes) {
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  double out[9] = {};
  double log_density = 0;
  const int32_t ag = DPCOV_MECHANISM_ANALYZE_GAUSS;
  EXPECT_TOO_LARGE(dpcov_mechanism_release(ag, R, 3, far_in(), 3, 10, 1, 1, 1e-6, nullptr, rng_,
                                           out, 3, &receipt));
  EXPECT_TOO_LARGE(dpcov_mechanism_release(ag, R, 3, kI3, 3, 10, 1, 1, 1e-6, nullptr, rng_,
                                           far_out(), 3, &receipt));
  EXPECT_TOO_LARGE(dpcov_mechanism_release_gram(ag, gram3_, 1, 1e-6, nullptr, rng_, R, far_out(),
                                                3, &receipt));
  EXPECT_TOO_LARGE(dpcov_mechanism_log_density(ag, R, 3, far_in(), 3, kI3, 3, 10, 1, 1, 1e-6,
                                               nullptr, &log_density));
  EXPECT_TOO_LARGE(dpcov_mechanism_log_density(ag, R, 3, kI3, 3, far_in(), 3, 10, 1, 1, 1e-6,
                                               nullptr, &log_density));
  EXPECT_TOO_LARGE(dpcov_mechanism_log_density_tested(DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, R, 3,
                                                      far_in(), 3, 1.0, kI3, 3, 10, 1, 1, 1e-6,
                                                      nullptr, &log_density));
  EXPECT_TOO_LARGE(dpcov_private_glasso_release(ag, R, 3, far_in(), 3, 10, 1, 1, 1e-6, nullptr,
                                                0.1, nullptr, rng_, out, 3, &receipt, nullptr));
  EXPECT_TOO_LARGE(dpcov_private_glasso_release(ag, R, 3, kI3, 3, 10, 1, 1, 1e-6, nullptr, 0.1,
                                                nullptr, rng_, far_out(), 3, &receipt, nullptr));
  dpcov_mechanism_params unlocked;
  ASSERT_EQ(dpcov_mechanism_params_default(&unlocked), DPCOV_OK);
  unlocked.audit_only_not_private = 1;
  EXPECT_TOO_LARGE(dpcov_private_glasso_log_density(DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART, R, 3,
                                                    far_in(), 3, kI3, 3, 10, 1, 1, 1e-6,
                                                    &unlocked, 0.1, &log_density));
  double sketch_out[12] = {};
  EXPECT_TOO_LARGE(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, sketch_, 1, 1e-6, nullptr, rng_,
                                        R, sketch_out, 3, far_out(), 3, &receipt));
}

TEST_F(CapiSizes, AuditRowsAreCheckedInBytes) {
  dpcov_audit_result result{};
  result.struct_size = sizeof result;
  for (int64_t n : {kWrapRows, kEdgeRows}) {
    EXPECT_TOO_LARGE(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, R, 4, small_, n, 4,
                                          small_, 1, 4, 1, 1, 1e-6, nullptr, nullptr, &result));
    EXPECT_TOO_LARGE(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, R, 4, small_, 1, 4,
                                          small_, n, 4, 1, 1, 1e-6, nullptr, nullptr, &result));
  }
}

TEST_F(CapiSizes, EstimatorArraysAreCheckedInBytes) {
  double out[9] = {};
  const int64_t features[1] = {1};
  EXPECT_TOO_LARGE(dpcov_regression_fit(R, 3, far_in(), 3, 10, 0, features, 1, nullptr, out,
                                        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_TOO_LARGE(dpcov_regression_fit(R, 3, kI3, 3, 10, 0, far_index(), 2, nullptr, out,
                                        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  // More features than columns is refused before the array is read.
  EXPECT_EQ(dpcov_regression_fit(R, 3, kI3, 3, 10, 0, features, int64_t{1} << 61, nullptr, out,
                                 nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_DIMENSION);
  EXPECT_TOO_LARGE(dpcov_pca_top_k(R, 3, far_in(), 3, 1, out, nullptr, 0, nullptr));
  EXPECT_TOO_LARGE(dpcov_pca_top_k(R, 3, kI3, 3, 1, out, far_out(), 1, nullptr));
  EXPECT_TOO_LARGE(dpcov_pca_subspace_distance(R, 3, kI3, 3, far_in(), 3, 1, out, nullptr,
                                               nullptr));
  EXPECT_TOO_LARGE(dpcov_glasso_solve(R, 3, far_in(), 3, 0.1, nullptr, nullptr, 0, out, 3,
                                      nullptr, 0, nullptr));
  EXPECT_TOO_LARGE(dpcov_glasso_solve(R, 3, kI3, 3, 0.1, nullptr, nullptr, 0, far_out(), 3,
                                      nullptr, 0, nullptr));
  for (int64_t rows : {kWrapRows, kEdgeRows})
    EXPECT_TOO_LARGE(dpcov_metric_frobenius_error(R, rows, 4, small_, 4, small_, 4, 0, out));
  EXPECT_TOO_LARGE(dpcov_metric_spectral_error(R, 3, 3, kI3, 3, far_in(), 3, 0, out));
  EXPECT_TOO_LARGE(dpcov_metric_vector_error(4, far_in(), kI3, 0, out));
  dpcov_support_recovery rec{};
  rec.struct_size = sizeof rec;
  EXPECT_TOO_LARGE(dpcov_metric_support_recovery(R, 3, far_in(), 3, kI3, 3, 0.1, &rec));
}

TEST_F(CapiSizes, OlsArraysAreCheckedInBytes) {
  double out[9] = {};
  const int64_t features[1] = {1};
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  EXPECT_TOO_LARGE(dpcov_ols_jl(R, 3, far_in(), 3, 100, 1, 1, 1e-6, nullptr, 0, features, 1,
                                nullptr, rng_, out, nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, &receipt));
  EXPECT_TOO_LARGE(dpcov_ols_jl(R, 3, kI3, 3, 100, 1, 1, 1e-6, nullptr, 0, far_index(), 2,
                                nullptr, rng_, out, nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, &receipt));
  EXPECT_TOO_LARGE(dpcov_ols_analyze_gauss_intervals(R, 3, far_in(), 3, 1.0, 100, 0, features, 1,
                                                     nullptr, out, nullptr, nullptr, nullptr,
                                                     nullptr, nullptr, nullptr, nullptr));
}

TEST_F(CapiSizes, PostprocessMatricesAreCheckedInBytes) {
  double shift = 0;
  EXPECT_TOO_LARGE(dpcov_postprocess_psd_project(R, 3, far_out(), 3));
  EXPECT_TOO_LARGE(dpcov_postprocess_eigenvalues_clip(R, 3, far_out(), 3, 0, 1));
  EXPECT_TOO_LARGE(dpcov_postprocess_analyze_gauss_shift(R, 3, far_out(), 3, 1, 0.1, &shift));
  EXPECT_TOO_LARGE(dpcov_postprocess_wishart_mean_subtract(R, 3, far_out(), 3, 5, 1));
  EXPECT_TOO_LARGE(dpcov_postprocess_wishart_shift(R, 3, far_out(), 3, 5, 1, 0.1, &shift));
}

TEST_F(CapiSizes, SamplerArraysAreCheckedInBytes) {
  double out[16] = {};
  for (int64_t n : {kWrapRows, int64_t{1} << 60}) {
    EXPECT_TOO_LARGE(dpcov_sample_uniform01(rng_, n, out));
    EXPECT_TOO_LARGE(dpcov_sample_standard_normal(rng_, n, out));
    EXPECT_TOO_LARGE(dpcov_sample_exponential(rng_, n, out));
    EXPECT_TOO_LARGE(dpcov_sample_laplace(rng_, 1, n, out));
    EXPECT_TOO_LARGE(dpcov_sample_gamma(rng_, 1, n, out));
    EXPECT_TOO_LARGE(dpcov_sample_chi_square(rng_, 1, n, out));
  }
  for (int64_t n : {kWrapRows, kEdgeRows}) {
    EXPECT_TOO_LARGE(dpcov_sample_uniform_sphere(rng_, 4, n, R, out, 4));
  }
  // 3 columns with a leading dimension of 4: (n - 1) x 4 + 3 doubles.
  for (int64_t n : {kWrapRows, kEdgeRows + 1}) {
    EXPECT_TOO_LARGE(dpcov_sample_acg(rng_, R, 3, kI3, 3, n, out, 4));
    EXPECT_TOO_LARGE(dpcov_sample_bingham(rng_, R, 3, kI3, 3, n, out, 4, nullptr));
  }
  EXPECT_TOO_LARGE(dpcov_sample_wishart(rng_, 5, R, 3, far_in(), 3, out, 3));
  EXPECT_TOO_LARGE(dpcov_sample_wishart(rng_, 5, R, 3, kI3, 3, far_out(), 3));
  EXPECT_TOO_LARGE(dpcov_sample_inverse_wishart(rng_, 5, R, 3, far_in(), 3, out, 3));
  EXPECT_TOO_LARGE(dpcov_sample_symmetric_gaussian_noise(rng_, 1, R, 3, far_out(), 3));
  EXPECT_TOO_LARGE(dpcov_sample_symmetric_laplace_noise(rng_, 1, R, 3, far_out(), 3));
  EXPECT_TOO_LARGE(dpcov_log_density_wishart(R, 3, far_in(), 3, 5, kI3, 3, out));
  EXPECT_TOO_LARGE(dpcov_log_density_inverse_wishart(R, 3, kI3, 3, 5, far_in(), 3, out));
  EXPECT_TOO_LARGE(dpcov_log_density_acg(R, 3, far_in(), 3, kI3, out));
  EXPECT_TOO_LARGE(dpcov_log_density_acg(R, 3, kI3, 3, far_in(), out));
  EXPECT_TOO_LARGE(dpcov_log_density_symmetric_gaussian(R, 3, far_in(), 3, 1, out));
  EXPECT_TOO_LARGE(dpcov_log_density_symmetric_laplace(R, 3, far_in(), 3, 1, out));
}

TEST_F(CapiSizes, RngStateBuffersAreCheckedInBytes) {
  const size_t size = dpcov_rng_state_size();
  EXPECT_TOO_LARGE(dpcov_rng_state_save(rng_, far_out(), size));
  EXPECT_TOO_LARGE(dpcov_rng_state_restore(rng_, far_in(), size));
}

}  // namespace
