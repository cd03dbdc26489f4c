// The samplers and log-densities through the C ABI: every argument's failure (status and
// untouched outputs and generator), layout invariance, and agreement with the log-densities.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int32_t R = DPCOV_ROW_MAJOR;
constexpr int32_t C = DPCOV_COL_MAJOR;

struct RngPtr {
  dpcov_rng *p = nullptr;
  explicit RngPtr(uint64_t seed) { EXPECT_EQ(dpcov_rng_create_seeded(&p, seed, 0), DPCOV_OK); }
  ~RngPtr() { dpcov_rng_destroy(&p); }
  uint64_t peek() const {
    dpcov_rng *copy = nullptr;
    EXPECT_EQ(dpcov_rng_create_seeded(&copy, 0, 0), DPCOV_OK);
    unsigned char state[DPCOV_RNG_STATE_SIZE];
    EXPECT_EQ(dpcov_rng_state_save(p, state, sizeof state), DPCOV_OK);
    EXPECT_EQ(dpcov_rng_state_restore(copy, state, sizeof state), DPCOV_OK);
    uint64_t v = 0;
    EXPECT_EQ(dpcov_rng_next_u64(copy, &v), DPCOV_OK);
    dpcov_rng_destroy(&copy);
    return v;
  }
};

// 3 x 3 symmetric positive definite, symmetric so identical in both layouts.
const std::vector<double> kSpd = {2.0, 0.5, -0.3, 0.5, 1.0, 0.2, -0.3, 0.2, 3.0};
const std::vector<double> kNotSymmetric = {2.0, 0.5, -0.3, 0.6, 1.0, 0.2, -0.3, 0.2, 3.0};
const std::vector<double> kNotPd = {1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0};
const std::vector<double> kNan = {2.0, 0.5, -0.3, 0.5, NAN, 0.2, -0.3, 0.2, 3.0};

// Runs `call`, expects `status`, and checks that neither the sentinel-filled output nor the
// generator changed.
void expect_failure_leaves_everything(RngPtr &rng, std::vector<double> &out, dpcov_status status,
                                      const std::function<dpcov_status()> &call) {
  for (double &v : out) v = -777.0;
  const uint64_t before = rng.peek();
  EXPECT_EQ(call(), status) << dpcov_last_error_message();
  EXPECT_GT(std::string(dpcov_last_error_message()).size(), 0U);
  for (double v : out) EXPECT_EQ(v, -777.0);
  EXPECT_EQ(rng.peek(), before);
}

TEST(CapiScalarSamplers, RefuseEveryBadArgument) {
  RngPtr rng(1);
  std::vector<double> out(4);
  using Fn = std::function<dpcov_status(dpcov_rng *, double, int64_t, double *)>;
  const std::vector<Fn> with_parameter = {dpcov_sample_laplace, dpcov_sample_gamma,
                                          dpcov_sample_chi_square};
  for (const Fn &f : with_parameter) {
    expect_failure_leaves_everything(rng, out, DPCOV_E_NULL_POINTER,
                                     [&] { return f(nullptr, 1.0, 4, out.data()); });
    expect_failure_leaves_everything(rng, out, DPCOV_E_NULL_POINTER,
                                     [&] { return f(rng.p, 1.0, 4, nullptr); });
    expect_failure_leaves_everything(rng, out, DPCOV_E_DIMENSION,
                                     [&] { return f(rng.p, 1.0, -1, out.data()); });
    for (double bad : {0.0, -1.0})
      expect_failure_leaves_everything(rng, out, DPCOV_E_INVALID_ARGUMENT,
                                       [&] { return f(rng.p, bad, 4, out.data()); });
    for (double bad : {NAN, INFINITY, -INFINITY})
      expect_failure_leaves_everything(rng, out, DPCOV_E_NON_FINITE,
                                       [&] { return f(rng.p, bad, 4, out.data()); });
    EXPECT_EQ(f(rng.p, 1.0, 0, nullptr), DPCOV_OK);
  }
  using Fn0 = std::function<dpcov_status(dpcov_rng *, int64_t, double *)>;
  for (const Fn0 &f : {Fn0(dpcov_sample_uniform01), Fn0(dpcov_sample_standard_normal),
                       Fn0(dpcov_sample_exponential)}) {
    expect_failure_leaves_everything(rng, out, DPCOV_E_NULL_POINTER,
                                     [&] { return f(nullptr, 4, out.data()); });
    expect_failure_leaves_everything(rng, out, DPCOV_E_NULL_POINTER,
                                     [&] { return f(rng.p, 4, nullptr); });
    expect_failure_leaves_everything(rng, out, DPCOV_E_DIMENSION,
                                     [&] { return f(rng.p, -3, out.data()); });
    EXPECT_EQ(f(rng.p, 0, nullptr), DPCOV_OK);
  }
}

TEST(CapiScalarSamplers, VectorDrawsEqualTheSameStreamDrawnOneByOne) {
  RngPtr a(2), b(2);
  std::vector<double> many(10), one(1);
  ASSERT_EQ(dpcov_sample_standard_normal(a.p, 10, many.data()), DPCOV_OK);
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(dpcov_sample_standard_normal(b.p, 1, one.data()), DPCOV_OK);
    EXPECT_EQ(one[0], many[static_cast<size_t>(i)]);
  }
}

TEST(CapiWishart, RefusesEveryBadArgument) {
  RngPtr rng(3);
  std::vector<double> out(9);
  using Fn = std::function<dpcov_status(dpcov_rng *, double, int32_t, int64_t, const double *,
                                        int64_t, double *, int64_t)>;
  for (const Fn &f : {Fn(dpcov_sample_wishart), Fn(dpcov_sample_inverse_wishart)}) {
    auto expect = [&](dpcov_status s, dpcov_rng *r, double dof, int32_t layout, int64_t dim,
                      const double *scale, int64_t lds, double *o, int64_t ldo) {
      expect_failure_leaves_everything(
          rng, out, s, [&] { return f(r, dof, layout, dim, scale, lds, o, ldo); });
    };
    expect(DPCOV_E_NULL_POINTER, nullptr, 5.0, C, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_NULL_POINTER, rng.p, 5.0, C, 3, nullptr, 3, out.data(), 3);
    expect(DPCOV_E_NULL_POINTER, rng.p, 5.0, C, 3, kSpd.data(), 3, nullptr, 3);
    expect(DPCOV_E_DIMENSION, rng.p, 5.0, C, 0, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_DIMENSION, rng.p, 5.0, C, -2, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_TOO_LARGE, rng.p, 5.0, C, int64_t{1} << 40, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, 5.0, 7, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, 5.0, C, 3, kSpd.data(), 2, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, 5.0, R, 3, kSpd.data(), 3, out.data(), 2);
    expect(DPCOV_E_PRECONDITION, rng.p, 2.0, C, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_PRECONDITION, rng.p, -1.0, C, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_NON_FINITE, rng.p, NAN, C, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_NON_FINITE, rng.p, INFINITY, C, 3, kSpd.data(), 3, out.data(), 3);
    expect(DPCOV_E_NON_FINITE, rng.p, 5.0, C, 3, kNan.data(), 3, out.data(), 3);
    expect(DPCOV_E_INVALID_ARGUMENT, rng.p, 5.0, C, 3, kNotSymmetric.data(), 3, out.data(), 3);
    expect(DPCOV_E_NOT_POSITIVE_DEFINITE, rng.p, 5.0, C, 3, kNotPd.data(), 3, out.data(), 3);
  }
}

TEST(CapiWishart, ResultDoesNotDependOnTheLayoutAndIsExactlySymmetric) {
  for (auto f : {dpcov_sample_wishart, dpcov_sample_inverse_wishart}) {
    RngPtr a(4), b(4);
    std::vector<double> col(12), row(12);
    ASSERT_EQ(f(a.p, 6.5, C, 3, kSpd.data(), 3, col.data(), 4), DPCOV_OK);
    ASSERT_EQ(f(b.p, 6.5, R, 3, kSpd.data(), 3, row.data(), 4), DPCOV_OK);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        EXPECT_EQ(col[static_cast<size_t>(i + 4 * j)], row[static_cast<size_t>(4 * i + j)]);
        EXPECT_EQ(col[static_cast<size_t>(i + 4 * j)], col[static_cast<size_t>(j + 4 * i)]);
      }
    double logp = 0.0;
    EXPECT_EQ(f == dpcov_sample_wishart
                  ? dpcov_log_density_wishart(C, 3, col.data(), 4, 6.5, kSpd.data(), 3, &logp)
                  : dpcov_log_density_inverse_wishart(C, 3, col.data(), 4, 6.5, kSpd.data(), 3,
                                                      &logp),
              DPCOV_OK);
    EXPECT_TRUE(std::isfinite(logp));
  }
}

// A draw that overflows (scale near the largest double, few degrees of freedom) is a numerical
// failure after the draws, DPCOV_E_NUMERICAL as documented, with the output untouched; the inverse
// Wishart reported it as DPCOV_E_NON_FINITE, the status of a bad input (found by fuzz_samplers).
TEST(CapiWishart, AnOverflowingDrawIsANumericalFailure) {
  const double psi = 1e308;
  int overflows = 0;
  for (uint64_t seed = 0; seed < 40; ++seed)
    for (auto f : {dpcov_sample_wishart, dpcov_sample_inverse_wishart}) {
      RngPtr rng(seed);
      double out = -7.0;
      const dpcov_status s = f(rng.p, 1.0, C, 1, &psi, 1, &out, 1);
      if (s == DPCOV_OK) {
        EXPECT_TRUE(std::isfinite(out));
      } else {
        EXPECT_EQ(s, DPCOV_E_NUMERICAL) << dpcov_last_error_message();
        EXPECT_EQ(out, -7.0);
        ++overflows;
      }
    }
  EXPECT_GT(overflows, 0);
}

TEST(CapiLogDensity, RefusesBadArgumentsAndReportsMinusInfinityOutsideTheSupport) {
  double out = 0.0;
  for (auto f : {dpcov_log_density_wishart, dpcov_log_density_inverse_wishart}) {
    EXPECT_EQ(f(C, 3, nullptr, 3, 5.0, kSpd.data(), 3, &out), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 5.0, nullptr, 3, &out), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 5.0, kSpd.data(), 3, nullptr), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(f(C, 0, kSpd.data(), 3, 5.0, kSpd.data(), 3, &out), DPCOV_E_DIMENSION);
    EXPECT_EQ(f(9, 3, kSpd.data(), 3, 5.0, kSpd.data(), 3, &out), DPCOV_E_LAYOUT);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 2.0, kSpd.data(), 3, &out), DPCOV_E_PRECONDITION);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, NAN, kSpd.data(), 3, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(f(C, 3, kNan.data(), 3, 5.0, kSpd.data(), 3, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 5.0, kNotPd.data(), 3, &out),
              DPCOV_E_NOT_POSITIVE_DEFINITE);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 5.0, kNotSymmetric.data(), 3, &out),
              DPCOV_E_INVALID_ARGUMENT);
    ASSERT_EQ(f(C, 3, kNotPd.data(), 3, 5.0, kSpd.data(), 3, &out), DPCOV_OK);
    EXPECT_EQ(out, -INFINITY);
    ASSERT_EQ(f(C, 3, kNotSymmetric.data(), 3, 5.0, kSpd.data(), 3, &out), DPCOV_OK);
    EXPECT_EQ(out, -INFINITY);
  }
  const double u[3] = {0.6, 0.8, 0.0};
  const double not_unit[3] = {0.6, 0.8, 0.1};
  const double nan_u[3] = {0.6, NAN, 0.0};
  EXPECT_EQ(dpcov_log_density_acg(C, 3, kSpd.data(), 3, nullptr, &out), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_log_density_acg(C, 3, kSpd.data(), 3, u, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_log_density_acg(C, 3, kNotPd.data(), 3, u, &out),
            DPCOV_E_NOT_POSITIVE_DEFINITE);
  EXPECT_EQ(dpcov_log_density_acg(C, 3, kSpd.data(), 3, nan_u, &out), DPCOV_E_NON_FINITE);
  ASSERT_EQ(dpcov_log_density_acg(C, 3, kSpd.data(), 3, not_unit, &out), DPCOV_OK);
  EXPECT_EQ(out, -INFINITY);
  ASSERT_EQ(dpcov_log_density_acg(R, 3, kSpd.data(), 3, u, &out), DPCOV_OK);
  EXPECT_TRUE(std::isfinite(out));
  for (auto f : {dpcov_log_density_symmetric_gaussian, dpcov_log_density_symmetric_laplace}) {
    EXPECT_EQ(f(C, 3, nullptr, 3, 1.0, &out), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 1.0, nullptr), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, 0.0, &out), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(f(C, 3, kSpd.data(), 3, NAN, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(f(C, 3, kNan.data(), 3, 1.0, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(f(C, 3, kSpd.data(), 2, 1.0, &out), DPCOV_E_LAYOUT);
    ASSERT_EQ(f(C, 3, kNotSymmetric.data(), 3, 1.0, &out), DPCOV_OK);
    EXPECT_EQ(out, -INFINITY);
  }
}

TEST(CapiPointSamplers, RefuseEveryBadArgument) {
  RngPtr rng(5);
  std::vector<double> out(30);
  int64_t tries = -5;
  // Sphere: (rng, dim, n, layout, out, ld).
  auto sphere = [&](dpcov_status s, dpcov_rng *r, int64_t dim, int64_t n, int32_t lay, double *o,
                    int64_t ld) {
    expect_failure_leaves_everything(rng, out, s,
                                     [&] { return dpcov_sample_uniform_sphere(r, dim, n, lay, o, ld); });
  };
  sphere(DPCOV_E_NULL_POINTER, nullptr, 3, 4, R, out.data(), 3);
  sphere(DPCOV_E_NULL_POINTER, rng.p, 3, 4, R, nullptr, 3);
  sphere(DPCOV_E_DIMENSION, rng.p, 0, 4, R, out.data(), 3);
  sphere(DPCOV_E_DIMENSION, rng.p, 3, 0, R, out.data(), 3);
  sphere(DPCOV_E_LAYOUT, rng.p, 3, 4, 0, out.data(), 3);
  sphere(DPCOV_E_LAYOUT, rng.p, 3, 4, R, out.data(), 2);
  sphere(DPCOV_E_LAYOUT, rng.p, 3, 4, C, out.data(), 3);
  // ACG and Bingham: (rng, layout, dim, matrix, ld, n, out, ld_out[, tries]).
  using Fn = std::function<dpcov_status(dpcov_rng *, int32_t, int64_t, const double *, int64_t,
                                        int64_t, double *, int64_t)>;
  const Fn acg = dpcov_sample_acg;
  const Fn bingham = [&](dpcov_rng *r, int32_t l, int64_t d, const double *a, int64_t lda,
                         int64_t n, double *o, int64_t ldo) {
    return dpcov_sample_bingham(r, l, d, a, lda, n, o, ldo, &tries);
  };
  for (const Fn &f : {acg, bingham}) {
    auto expect = [&](dpcov_status s, dpcov_rng *r, int32_t l, int64_t d, const double *a,
                      int64_t lda, int64_t n, double *o, int64_t ldo) {
      expect_failure_leaves_everything(rng, out, s, [&] { return f(r, l, d, a, lda, n, o, ldo); });
    };
    expect(DPCOV_E_NULL_POINTER, nullptr, R, 3, kSpd.data(), 3, 5, out.data(), 3);
    expect(DPCOV_E_NULL_POINTER, rng.p, R, 3, nullptr, 3, 5, out.data(), 3);
    expect(DPCOV_E_NULL_POINTER, rng.p, R, 3, kSpd.data(), 3, 5, nullptr, 3);
    expect(DPCOV_E_DIMENSION, rng.p, R, 0, kSpd.data(), 3, 5, out.data(), 3);
    expect(DPCOV_E_DIMENSION, rng.p, R, 3, kSpd.data(), 3, 0, out.data(), 3);
    expect(DPCOV_E_DIMENSION, rng.p, R, 3, kSpd.data(), 3, -1, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, 3, 3, kSpd.data(), 3, 5, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, R, 3, kSpd.data(), 2, 5, out.data(), 3);
    expect(DPCOV_E_LAYOUT, rng.p, R, 3, kSpd.data(), 3, 5, out.data(), 2);
    expect(DPCOV_E_LAYOUT, rng.p, C, 3, kSpd.data(), 3, 5, out.data(), 4);
    expect(DPCOV_E_NON_FINITE, rng.p, R, 3, kNan.data(), 3, 5, out.data(), 3);
    expect(DPCOV_E_INVALID_ARGUMENT, rng.p, R, 3, kNotSymmetric.data(), 3, 5, out.data(), 3);
  }
  expect_failure_leaves_everything(rng, out, DPCOV_E_NOT_POSITIVE_DEFINITE, [&] {
    return dpcov_sample_acg(rng.p, R, 3, kNotPd.data(), 3, 5, out.data(), 3);
  });
  EXPECT_EQ(tries, -5);
}

TEST(CapiBingham, AcceptsAnIndefiniteMatrixAndReportsTheTotalNumberOfTries) {
  RngPtr rng(6);
  std::vector<double> out(3 * 200);
  int64_t tries = 0;
  ASSERT_EQ(dpcov_sample_bingham(rng.p, C, 3, kNotPd.data(), 3, 200, out.data(), 200, &tries),
            DPCOV_OK);
  EXPECT_GE(tries, 200);
  for (int i = 0; i < 200; ++i) {
    double n2 = 0.0;
    for (int j = 0; j < 3; ++j) n2 += out[static_cast<size_t>(i + 200 * j)] * out[static_cast<size_t>(i + 200 * j)];
    EXPECT_NEAR(n2, 1.0, 1e-14);
  }
  EXPECT_EQ(dpcov_sample_bingham(rng.p, C, 3, kSpd.data(), 3, 5, out.data(), 200, nullptr),
            DPCOV_OK);
}

TEST(CapiPointSamplers, RowsAreTheSameInBothLayouts) {
  RngPtr a(7), b(7);
  std::vector<double> row(4 * 3), col(3 * 4);
  int64_t ta = 0, tb = 0;
  ASSERT_EQ(dpcov_sample_bingham(a.p, R, 3, kSpd.data(), 3, 4, row.data(), 3, &ta), DPCOV_OK);
  ASSERT_EQ(dpcov_sample_bingham(b.p, C, 3, kSpd.data(), 3, 4, col.data(), 4, &tb), DPCOV_OK);
  EXPECT_EQ(ta, tb);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(row[static_cast<size_t>(3 * i + j)], col[static_cast<size_t>(i + 4 * j)]);
}

TEST(CapiSymmetricNoise, RefusesEveryBadArgumentAndIsExactlySymmetric) {
  RngPtr rng(8);
  std::vector<double> out(16);
  for (auto f : {dpcov_sample_symmetric_gaussian_noise, dpcov_sample_symmetric_laplace_noise}) {
    auto expect = [&](dpcov_status s, dpcov_rng *r, double p, int32_t l, int64_t d, double *o,
                      int64_t ld) {
      expect_failure_leaves_everything(rng, out, s, [&] { return f(r, p, l, d, o, ld); });
    };
    expect(DPCOV_E_NULL_POINTER, nullptr, 1.0, C, 4, out.data(), 4);
    expect(DPCOV_E_NULL_POINTER, rng.p, 1.0, C, 4, nullptr, 4);
    expect(DPCOV_E_INVALID_ARGUMENT, rng.p, 0.0, C, 4, out.data(), 4);
    expect(DPCOV_E_INVALID_ARGUMENT, rng.p, -2.0, C, 4, out.data(), 4);
    expect(DPCOV_E_NON_FINITE, rng.p, NAN, C, 4, out.data(), 4);
    expect(DPCOV_E_NON_FINITE, rng.p, INFINITY, C, 4, out.data(), 4);
    expect(DPCOV_E_DIMENSION, rng.p, 1.0, C, 0, out.data(), 4);
    expect(DPCOV_E_LAYOUT, rng.p, 1.0, 5, 4, out.data(), 4);
    expect(DPCOV_E_LAYOUT, rng.p, 1.0, R, 4, out.data(), 3);
    ASSERT_EQ(f(rng.p, 1.0, R, 4, out.data(), 4), DPCOV_OK);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        EXPECT_EQ(out[static_cast<size_t>(4 * i + j)], out[static_cast<size_t>(4 * j + i)]);
  }
}

}  // namespace
