// The secular-equation rank-one update against the dense reference (LAPACK on the full matrix), on
// well-separated, clustered, repeated, zero and widely scaled spectra, with vectors that have zero
// and tiny components.
#include "core/linalg/secular.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "core/linalg/secular_kernels.hpp"

namespace {

using dpcov::Matrix;
using dpcov::linalg::SecularEigen;

// Residual bounds in units of eps times the scale of the problem: backward-stable updates stay
// within a small multiple of q eps; 1e-13 leaves room for q <= 40.
constexpr double kTolerance = 1e-13;

struct Case {
  std::vector<double> lambda;
  std::vector<double> y;
};

// Spectrum families that stress deflation and the root finder.
Case make_case(std::mt19937_64 &gen, int kind) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  const int q = 1 + static_cast<int>(gen() % 40);
  Case c{std::vector<double>(q), std::vector<double>(q)};
  for (int i = 0; i < q; ++i) {
    switch (kind) {
      case 0: c.lambda[i] = normal(gen); break;                              // separated
      case 1: c.lambda[i] = std::floor(3.0 * unit(gen)); break;               // exact ties
      case 2: c.lambda[i] = std::exp(20.0 * normal(gen)); break;              // wide range
      case 3: c.lambda[i] = 0.0; break;                                       // all equal
      case 4: c.lambda[i] = 1.0 + 1e-14 * std::floor(3.0 * unit(gen)); break;  // near ties
      default: c.lambda[i] = 1e3 * normal(gen); break;
    }
    c.y[i] = normal(gen);
    const double r = unit(gen);
    if (r < 0.2) c.y[i] = 0.0;
    else if (r < 0.28) c.y[i] *= 1e-17;
    else if (r < 0.36) c.y[i] *= 1e-9;
  }
  std::sort(c.lambda.begin(), c.lambda.end(), std::greater<double>());
  double norm2 = 0.0;
  for (double v : c.y) norm2 += v * v;
  if (norm2 == 0.0) {
    c.y[0] = 1.0;
    norm2 = 1.0;
  }
  for (double &v : c.y) v /= std::sqrt(norm2);
  return c;
}

// max |V^T T V - diag(values)| / scale and max |V^T V - I|, T = diag(lambda) + rho z z^T.
void expect_decomposition(const SecularEigen &r, const std::vector<double> &lambda,
                          const std::vector<double> &z, double rho, double scale) {
  const int64_t q = static_cast<int64_t>(lambda.size()), cols = r.vectors.cols();
  double residual = 0.0, orthogonality = 0.0;
  for (int64_t a = 0; a < cols; ++a) {
    if (a > 0) {
      EXPECT_GE(r.values[a - 1], r.values[a]);
    }
    for (int64_t b = 0; b < cols; ++b) {
      double t = 0.0, o = 0.0, za = 0.0, zb = 0.0;
      for (int64_t i = 0; i < q; ++i) {
        t += r.vectors(i, a) * lambda[i] * r.vectors(i, b);
        o += r.vectors(i, a) * r.vectors(i, b);
        za += r.vectors(i, a) * z[i];
        zb += r.vectors(i, b) * z[i];
      }
      t += rho * za * zb;
      residual = std::max(residual, std::fabs(t - (a == b ? r.values[a] : 0.0)));
      orthogonality = std::max(orthogonality, std::fabs(o - (a == b ? 1.0 : 0.0)));
    }
  }
  EXPECT_LE(residual, kTolerance * std::max(scale, 1e-300));
  EXPECT_LE(orthogonality, kTolerance);
}

double max_abs(const std::vector<double> &v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

TEST(SecularRankOneUpdate, IsAnOrthonormalEigenbasisOfTheUpdatedMatrix) {
  std::mt19937_64 gen(20261123);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 1200; ++trial) {
    Case c = make_case(gen, trial % 6);
    const double rho = (trial % 2 == 0 ? -1.0 : 1.0) * std::exp(3.0 * normal(gen));
    const double stretch = std::exp(normal(gen));
    for (double &v : c.y) v *= stretch;
    const SecularEigen r = dpcov::linalg::rank_one_update_diagonal(c.lambda, c.y.data(), rho);
    ASSERT_EQ(r.vectors.cols(), static_cast<int64_t>(c.lambda.size()));
    double norm2 = 0.0;
    for (double v : c.y) norm2 += v * v;
    expect_decomposition(r, c.lambda, c.y, rho, std::max(max_abs(c.lambda), std::fabs(rho) * norm2));
  }
}

TEST(SecularRankOneUpdate, RejectsUnsortedEigenvaluesAndNonFiniteInput) {
  const std::vector<double> lambda{2.0, 1.0};
  const double unit[] = {1.0, 0.0};
  EXPECT_THROW(dpcov::linalg::rank_one_update_diagonal({1.0, 2.0}, unit, 1.0), dpcov::Error);
  EXPECT_THROW(dpcov::linalg::rank_one_update_diagonal(lambda, unit, NAN), dpcov::Error);
}

TEST(SecularRankOneUpdate, WithZeroCoefficientIsTheIdentity) {
  const std::vector<double> lambda{3.0, 1.0, -2.0};
  const double y[] = {0.3, 0.4, 0.5};
  const SecularEigen r = dpcov::linalg::rank_one_update_diagonal(lambda, y, 0.0);
  EXPECT_EQ(r.values, lambda);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(r.vectors(i, j), i == j ? 1.0 : 0.0);
}

// Poles and distances for the pass tests: n poles in decreasing order, the origin one of them and
// a shift into a neighbouring gap, as the root finder evaluates them; `extreme` moves the first
// poles near 1e160, where pair products would overflow and the pass falls back to divisions.
struct Pass {
  std::vector<double> w, lambda;
  double origin, shift;
};

Pass make_pass(std::mt19937_64 &gen, int64_t n, bool extreme) {
  std::uniform_real_distribution<double> unit;
  const size_t size = static_cast<size_t>(n);
  Pass p{std::vector<double>(size), std::vector<double>(size), 0, 0};
  double pole = 1.0 + unit(gen);
  for (int64_t j = 0; j < n; ++j) {
    p.w[static_cast<size_t>(j)] = unit(gen) * unit(gen);
    p.lambda[static_cast<size_t>(j)] = pole;
    pole -= std::exp(-10.0 * unit(gen));
  }
  const size_t at = static_cast<size_t>(gen() % static_cast<uint64_t>(n));
  p.origin = p.lambda[at];
  p.shift = (unit(gen) < 0.5 ? -1.0 : 1.0) * std::exp(-30.0 * unit(gen));
  if (extreme)
    for (size_t j = 0; j < std::min<size_t>(4, p.lambda.size() - 1); ++j)
      p.lambda[j] = 1e160 * static_cast<double>(4 - j);
  return p;
}

TEST(SecularPoleSums, TheAvx2BuildGivesThePortableBuildsBits) {
  if (!dpcov::linalg::detail::has_avx2()) GTEST_SKIP() << "no AVX2 on this machine";
  std::mt19937_64 gen(20261129);
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t n = 1 + trial % 70;
    const Pass p = make_pass(gen, n, trial % 7 == 3);
    const int64_t split = static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
    std::vector<double> d1(static_cast<size_t>(n)), d2(static_cast<size_t>(n));
    const auto a = dpcov::linalg::detail::pole_sums_portable(p.w.data(), p.lambda.data(), p.origin,
                                                             p.shift, d1.data(), split, n);
    const auto b = dpcov::linalg::detail::pole_sums_avx2(p.w.data(), p.lambda.data(), p.origin,
                                                         p.shift, d2.data(), split, n);
    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "trial " << trial;
    ASSERT_EQ(std::memcmp(d1.data(), d2.data(), d1.size() * sizeof(double)), 0) << trial;
  }
}

// Two roots' sums from one pass are each root's own pass bit for bit (sums and distances), in
// every build, for any two splits and where either range falls back to a division per pole
// (near 1e160, or shorter than a pair block): fails when the two-root loop reorders a root's
// additions, mixes the roots' lanes, or contracts to FMA.
TEST(SecularPoleSums, TwoRootsAtOnceAreEachRootsOwnPassInEveryBuild) {
  std::mt19937_64 gen(20261130);
  std::uniform_real_distribution<double> unit;
  using dpcov::linalg::detail::SplitPoleSums;
  for (int trial = 0; trial < 3000; ++trial) {
    const int64_t n = 1 + trial % 70;
    const Pass p = make_pass(gen, n, trial % 7 == 3);
    const size_t at = static_cast<size_t>(gen() % static_cast<uint64_t>(n));
    const double origin_b = p.lambda[at];
    const double shift_b = (unit(gen) < 0.5 ? -1.0 : 1.0) * std::exp(-30.0 * unit(gen));
    const int64_t split_a = static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
    const int64_t split_b = trial % 2 == 0 ? std::min(split_a + 1, n)
                                           : static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
    const size_t size = static_cast<size_t>(n);
    std::vector<double> da(size), db(size);
    const SplitPoleSums want_a = dpcov::linalg::detail::pole_sums_portable(
        p.w.data(), p.lambda.data(), p.origin, p.shift, da.data(), split_a, n);
    const SplitPoleSums want_b = dpcov::linalg::detail::pole_sums_portable(
        p.w.data(), p.lambda.data(), origin_b, shift_b, db.data(), split_b, n);
    const auto check = [&](auto kernel, const char *build) {
      std::vector<double> ga(size, -7.0), gb(size, -7.0);
      SplitPoleSums got[2];
      kernel(p.w.data(), p.lambda.data(), n, p.origin, p.shift, ga.data(), split_a, origin_b,
             shift_b, gb.data(), split_b, got);
      ASSERT_EQ(std::memcmp(&got[0], &want_a, sizeof want_a), 0) << build << " trial " << trial;
      ASSERT_EQ(std::memcmp(&got[1], &want_b, sizeof want_b), 0) << build << " trial " << trial;
      ASSERT_EQ(std::memcmp(ga.data(), da.data(), size * sizeof(double)), 0) << build << trial;
      ASSERT_EQ(std::memcmp(gb.data(), db.data(), size * sizeof(double)), 0) << build << trial;
    };
    check(dpcov::linalg::detail::pole_sums_two_portable, "portable");
    if (dpcov::linalg::detail::has_avx2()) check(dpcov::linalg::detail::pole_sums_two_avx2, "avx2");
  }
}

// The eigenvector column as secular_kernels.hpp documents it, one double at a time: the entries,
// their squares summed in four partial sums by i mod 4 (the tail after the last whole group into
// the first), the total ((s0 + s1) + (s2 + s3)), then every entry times 1 / sqrt(total).
std::vector<double> documented_column(const Pass &p, const std::vector<double> &loewner) {
  const size_t m = p.lambda.size(), whole = m - m % 4;
  std::vector<double> col(m);
  double lanes[4] = {};
  for (size_t i = 0; i < m; ++i) {
    col[i] = loewner[i] / ((p.lambda[i] - p.origin) - p.shift);
    lanes[i < whole ? i % 4 : 0] += col[i] * col[i];
  }
  const double scale = 1.0 / std::sqrt((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]));
  for (double &v : col) v *= scale;
  return col;
}

// Both builds of the column kernel give the documented entries bit for bit (fails when the
// vectorised build reorders the sums or contracts them to FMA), so the deferred rotations of
// iterative eigenvector sampling, and every seeded release, do not depend on the machine.
TEST(SecularKernels, EigenvectorColumnsAreTheDocumentedEntriesInEveryBuild) {
  std::mt19937_64 gen(20261201);
  std::uniform_real_distribution<double> unit;
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t n = 1 + trial % 70;
    const Pass p = make_pass(gen, n, trial % 7 == 3);
    std::vector<double> loewner(static_cast<size_t>(n));
    for (double &l : loewner) l = (unit(gen) < 0.5 ? -1.0 : 1.0) * std::exp(-20.0 * unit(gen));
    const std::vector<double> expected = documented_column(p, loewner);
    std::vector<double> portable(expected.size()), avx2(expected.size());
    dpcov::linalg::detail::eigenvector_column_portable(p.lambda.data(), loewner.data(), p.origin,
                                                       p.shift, n, portable.data());
    ASSERT_EQ(std::memcmp(portable.data(), expected.data(), n * sizeof(double)), 0) << trial;
    if (!dpcov::linalg::detail::has_avx2()) continue;
    dpcov::linalg::detail::eigenvector_column_avx2(p.lambda.data(), loewner.data(), p.origin,
                                                   p.shift, n, avx2.data());
    ASSERT_EQ(std::memcmp(avx2.data(), expected.data(), n * sizeof(double)), 0) << trial;
  }
}

// Loewner's factors: exactly num_j * (-delta_j) and den_j * (pole - lambda_j) on [begin, end),
// nothing written outside, in every build.
TEST(SecularKernels, LoewnerFactorsAreTheDocumentedProductsInEveryBuild) {
  std::mt19937_64 gen(20261202);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t n = 1 + trial % 70;
    const int64_t begin = static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
    const int64_t end = begin + static_cast<int64_t>(gen() % static_cast<uint64_t>(n - begin + 1));
    std::vector<double> num(static_cast<size_t>(n)), den(num.size()), delta(num.size()),
        lambda(num.size());
    for (size_t j = 0; j < num.size(); ++j) {
      num[j] = std::ldexp(normal(gen), static_cast<int>(gen() % 40) - 20);
      den[j] = std::ldexp(normal(gen), static_cast<int>(gen() % 40) - 20);
      delta[j] = normal(gen);
      lambda[j] = normal(gen);
    }
    const double pole = normal(gen);
    std::vector<double> expected_num = num, expected_den = den;
    for (int64_t j = begin; j < end; ++j) {
      const size_t uj = static_cast<size_t>(j);
      expected_num[uj] = num[uj] * -delta[uj];
      expected_den[uj] = den[uj] * (pole - lambda[uj]);
    }
    const auto check = [&](auto kernel, const char *build) {
      std::vector<double> got_num = num, got_den = den;
      kernel(got_num.data(), got_den.data(), delta.data(), pole, lambda.data(), begin, end);
      ASSERT_EQ(std::memcmp(got_num.data(), expected_num.data(), n * sizeof(double)), 0)
          << build << " trial " << trial;
      ASSERT_EQ(std::memcmp(got_den.data(), expected_den.data(), n * sizeof(double)), 0)
          << build << " trial " << trial;
    };
    check(dpcov::linalg::detail::loewner_factors_portable, "portable");
    if (dpcov::linalg::detail::has_avx2()) check(dpcov::linalg::detail::loewner_factors_avx2, "avx2");
  }
}

// The root finder stops once |g| is within (m + 4) eps of the sum of the terms' magnitudes: the
// pass's error (terms and their sum, in long double for the reference) must stay within it, also
// where distances near 1e160 make it fall back to one division per pole.
TEST(SecularPoleSums, AreWithinTheRootFindersRoundingBound) {
  std::mt19937_64 gen(20261130);
  const double eps = std::numeric_limits<double>::epsilon();
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t n = 1 + trial % 70;
    const Pass p = make_pass(gen, n, trial % 5 == 2);
    std::vector<double> delta(static_cast<size_t>(n));
    const int64_t split = static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
    const auto both = dpcov::linalg::detail::pole_sums(p.w.data(), p.lambda.data(), p.origin,
                                                       p.shift, delta.data(), split, n);
    const double sum_value = both.above.value + both.below.value;
    const double sum_slope = both.above.slope + both.below.slope;
    long double value = 0, slope = 0, size = 0, slope_size = 0;
    for (size_t j = 0; j < delta.size(); ++j) {
      ASSERT_EQ(delta[j], (p.lambda[j] - p.origin) - p.shift);
      const long double t = static_cast<long double>(p.w[j]) / delta[j];
      value += t;
      slope += t / delta[j];
      size += std::fabs(t);
      slope_size += t / delta[j];
    }
    const double bound = static_cast<double>(n + 4) * eps;
    EXPECT_LE(std::fabs(static_cast<double>(sum_value - value)), bound * static_cast<double>(size))
        << "trial " << trial;
    EXPECT_LE(std::fabs(static_cast<double>(sum_slope - slope)),
              bound * static_cast<double>(slope_size))
        << "trial " << trial;
  }
}

}  // namespace
