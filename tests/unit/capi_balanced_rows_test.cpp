// Balanced rows (dpcov_row_bounding::balanced): the bounded rows [1, x sqrt(d) / B, y / B_y] are
// the same whatever the units of x, y and their bounds; they stay within the reported norm bound;
// and dpcov_row_bounding_coefficient_factors() maps a regression on them back to the raw rows'
// regression exactly. Random points from a fixed seed, with scales from 1e-8 to 1e8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "dpcov.h"

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

struct Rows {
  int64_t d;
  int64_t n;
  std::vector<double> raw;  // row-major [x, y]
  double bound;
  double label_bound;
};

// n rows of d Gaussian regressors and a label linear in them; bounds at q times the largest
// norm and label.
Rows random_rows(std::mt19937_64 &gen, double q) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int64_t> dims(1, 8);
  Rows r{dims(gen), 24, {}, 0.0, 0.0};
  double largest = 0.0, largest_y = 0.0;
  for (int64_t i = 0; i < r.n; ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < r.d; ++j) {
      const double v = normal(gen) * (1.0 + static_cast<double>(j));
      r.raw.push_back(v);
      sum += v * v;
    }
    double y = 0.5 + normal(gen);
    for (int64_t j = 0; j < r.d; ++j)
      y += r.raw[r.raw.size() - static_cast<size_t>(r.d - j)] / (1.0 + static_cast<double>(j));
    r.raw.push_back(y);
    largest = std::max(largest, std::sqrt(sum));
    largest_y = std::max(largest_y, std::fabs(y));
  }
  r.bound = q * largest;
  r.label_bound = q * largest_y;
  return r;
}

// x scaled by s, y by t, and their bounds with them.
Rows in_units(const Rows &r, double s, double t) {
  Rows u = r;
  for (int64_t i = 0; i < r.n; ++i) {
    for (int64_t j = 0; j < r.d; ++j) u.raw[static_cast<size_t>(i * (r.d + 1) + j)] *= s;
    u.raw[static_cast<size_t>(i * (r.d + 1) + r.d)] *= t;
  }
  u.bound *= s;
  u.label_bound *= t;
  return u;
}

dpcov_row_bounding balanced_spec(const Rows &r) {
  dpcov_row_bounding spec;
  EXPECT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
  spec.bound = r.bound;
  spec.label_bound = r.label_bound;
  spec.constant = 1.0;
  spec.balanced = 1;
  return spec;
}

std::vector<double> bounded(const Rows &r, dpcov_gram_info &info) {
  const dpcov_row_bounding spec = balanced_spec(r);
  std::vector<double> out(static_cast<size_t>(r.n * (r.d + 2)));
  info = {};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, r.n, r.d + 1, r.raw.data(), r.d + 1,
                                     out.data(), r.d + 2, &info, nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  return out;
}

double log_uniform(std::mt19937_64 &gen, double decades) {
  return std::pow(10.0, std::uniform_real_distribution<double>(-decades, decades)(gen));
}

TEST(CapiBalancedRows, TheBoundedRowsAreTheSameWhateverTheUnitsAndWithinTheirBound) {
  std::mt19937_64 gen(20261204);
  std::uniform_real_distribution<double> quantile(0.3, 2.0);
  for (int point = 0; point < 300; ++point) {
    const Rows r = random_rows(gen, quantile(gen));
    const Rows u = in_units(r, log_uniform(gen, 8.0), log_uniform(gen, 8.0));
    dpcov_gram_info info_r, info_u;
    const std::vector<double> a = bounded(r, info_r), b = bounded(u, info_u);
    ASSERT_EQ(info_r.clipped, info_u.clipped) << "point " << point;
    ASSERT_EQ(info_r.bound, info_u.bound);
    const double d = static_cast<double>(r.d);
    ASSERT_GE(info_r.bound, std::sqrt(2.0 + d));
    ASSERT_LE(info_r.bound, std::sqrt(2.0 + d) * (1.0 + 1e-12));
    for (int64_t i = 0; i < r.n; ++i) {
      const double *ra = a.data() + i * (r.d + 2), *rb = b.data() + i * (r.d + 2);
      ASSERT_EQ(ra[0], 1.0);
      long double sum = 0.0L;
      for (int64_t j = 1; j <= r.d; ++j) {
        sum += static_cast<long double>(rb[j]) * rb[j];
        ASSERT_NEAR(ra[j], rb[j], 8.0 * (d + 4.0) * kEps * std::sqrt(d)) << "point " << point;
      }
      ASSERT_LE(std::sqrt(sum), static_cast<long double>(std::sqrt(d)));
      ASSERT_LE(std::fabs(rb[r.d + 1]), 1.0);
      ASSERT_NEAR(ra[r.d + 1], rb[r.d + 1], 4.0 * kEps);
    }
  }
}

// The least-squares coefficients of rows (p regressors then the label) from the normal
// equations, in long double by Gaussian elimination with partial pivoting.
std::vector<long double> least_squares(const std::vector<double> &rows, int64_t n, int64_t p) {
  std::vector<long double> g(static_cast<size_t>(p * (p + 1)), 0.0L);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t k = 0; k <= p; ++k)
        g[static_cast<size_t>(j * (p + 1) + k)] +=
            static_cast<long double>(rows[static_cast<size_t>(i * (p + 1) + j)]) *
            rows[static_cast<size_t>(i * (p + 1) + k)];
  for (int64_t c = 0; c < p; ++c) {
    int64_t pivot = c;
    for (int64_t r = c + 1; r < p; ++r)
      if (std::fabs(g[static_cast<size_t>(r * (p + 1) + c)]) >
          std::fabs(g[static_cast<size_t>(pivot * (p + 1) + c)]))
        pivot = r;
    for (int64_t k = 0; k <= p; ++k)
      std::swap(g[static_cast<size_t>(c * (p + 1) + k)],
                g[static_cast<size_t>(pivot * (p + 1) + k)]);
    for (int64_t r = 0; r < p; ++r) {
      if (r == c) continue;
      const long double f = g[static_cast<size_t>(r * (p + 1) + c)] /
                            g[static_cast<size_t>(c * (p + 1) + c)];
      for (int64_t k = c; k <= p; ++k)
        g[static_cast<size_t>(r * (p + 1) + k)] -= f * g[static_cast<size_t>(c * (p + 1) + k)];
    }
  }
  std::vector<long double> b(static_cast<size_t>(p));
  for (int64_t j = 0; j < p; ++j)
    b[static_cast<size_t>(j)] = g[static_cast<size_t>(j * (p + 1) + p)] /
                                g[static_cast<size_t>(j * (p + 1) + j)];
  return b;
}

TEST(CapiBalancedRows, CoefficientFactorsMapTheFitOnBalancedRowsToTheRawRowsFit) {
  std::mt19937_64 gen(4120626);
  for (int point = 0; point < 200; ++point) {
    // No row over its bounds: the balanced rows are an exact change of units.
    const double s = log_uniform(gen, 6.0), t = log_uniform(gen, 6.0);
    const Rows r = in_units(random_rows(gen, 1.5), s, t);
    dpcov_gram_info info;
    const std::vector<double> balanced = bounded(r, info);
    ASSERT_EQ(info.clipped, 0);
    std::vector<double> raw;  // [1, x, y]
    for (int64_t i = 0; i < r.n; ++i) {
      raw.push_back(1.0);
      for (int64_t j = 0; j <= r.d; ++j)
        raw.push_back(r.raw[static_cast<size_t>(i * (r.d + 1) + j)]);
    }
    const int64_t p = r.d + 1;
    const std::vector<long double> fit = least_squares(balanced, r.n, p);
    const std::vector<long double> truth = least_squares(raw, r.n, p);
    const dpcov_row_bounding spec = balanced_spec(r);
    std::vector<double> factors(static_cast<size_t>(p));
    ASSERT_EQ(dpcov_row_bounding_coefficient_factors(&spec, r.d + 1, factors.data(), p), DPCOV_OK);
    for (int64_t j = 0; j < p; ++j) {
      const long double mapped = fit[static_cast<size_t>(j)] * factors[static_cast<size_t>(j)];
      const long double want = truth[static_cast<size_t>(j)];
      // In the units of the coefficient (t for the intercept, t / s for a slope), where the
      // coefficients are of order 1.
      const long double unit = j == 0 ? t : t / s;
      EXPECT_NEAR(static_cast<double>((mapped - want) / unit), 0.0, 1e-9)
          << "point " << point << ", coefficient " << j;
    }
  }
}

// A row far beyond its bound (B / ||x|| below the smallest double) lands on the sphere of
// radius sqrt(d) in its own direction: its factor is taken from the norm at once, not as the
// product of the clip and the balance, which would underflow to 0.
TEST(CapiBalancedRows, AFarRowLandsOnTheSphereInItsDirection) {
  for (const double magnitude : {1e150, 1e200, 1e300, 1e308}) {
    for (const double bound : {1.5e-154, 1e-280, 1.0, 1e100}) {
      const Rows r{2, 1, {0.6 * magnitude, -0.8 * magnitude, 0.5}, bound, 1.0};
      dpcov_gram_info info;
      const std::vector<double> out = bounded(r, info);
      ASSERT_EQ(info.clipped, 1);
      EXPECT_NEAR(out[1], 0.6 * std::sqrt(2.0), 1e-14) << magnitude << " " << bound;
      EXPECT_NEAR(out[2], -0.8 * std::sqrt(2.0), 1e-14) << magnitude << " " << bound;
      EXPECT_LE(std::hypot(out[1], out[2]), std::sqrt(2.0));
    }
  }
}

TEST(CapiBalancedRows, FactorsWithoutBalancingAreTheConstantAndOnes) {
  dpcov_row_bounding spec;
  ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
  spec.bound = 7.0;
  spec.constant = 2.0;
  spec.label_bound = 3.0;
  double f[3] = {0, 0, 0};
  ASSERT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 3, f, 3), DPCOV_OK);
  EXPECT_EQ(f[0], 2.0);
  EXPECT_EQ(f[1], 1.0);
  EXPECT_EQ(f[2], 1.0);
  spec.constant = 1.0;
  spec.balanced = 1;
  ASSERT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 3, f, 3), DPCOV_OK);
  EXPECT_EQ(f[0], 3.0);
  EXPECT_DOUBLE_EQ(f[1], std::sqrt(2.0) / 7.0 * 3.0);
  EXPECT_EQ(f[1], f[2]);
}

TEST(CapiBalancedRows, BadRequestsAreRefusedWithOutputsUntouched) {
  dpcov_row_bounding spec;
  ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
  spec.bound = 2.0;
  spec.constant = 1.0;
  spec.balanced = 1;
  double f[3] = {-7.0, -7.0, -7.0};
  EXPECT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 2, f, 2), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 2, nullptr, 3), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_bounding_coefficient_factors(nullptr, 2, f, 3), DPCOV_E_NULL_POINTER);
  for (double v : f) EXPECT_EQ(v, -7.0);
  dpcov_gram *g = nullptr;
  spec.balanced = 2;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &spec), DPCOV_E_INVALID_ARGUMENT);
  spec.balanced = 1;
  spec.constant = 2.0;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &spec), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("constant 0 or 1"), std::string::npos);
  spec.constant = 1.0;
  spec.bound = 1e200;
  spec.label_bound = 1e-200;  // the slopes' factor sqrt(d) B_y / B underflows
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 3, &spec), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 3, f, 2), DPCOV_E_INVALID_ARGUMENT);
  spec.bound = 2.0;
  spec.label_bound = 0.0;
  spec.constant = 0.0;
  const double lower[2] = {0.0, 0.0}, upper[2] = {1.0, 1.0};
  spec.lower = lower;
  spec.upper = upper;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &spec), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_row_bounding_coefficient_factors(&spec, 2, f, 3), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(g, nullptr);
  for (double v : f) EXPECT_EQ(v, -7.0);
}

}  // namespace
