// The profile of the pivot vector (estimators/pivot_profile.hpp, proofs/pivot_profile.md): its
// gradient is the statistic's; with one coefficient it is Fieller's interval; where the pivot's
// covariance does not depend on beta it is the exact Gaussian interval; where the release does
// not identify a coefficient its set, and every other coefficient's, is open and written past
// [-R_j, R_j]; and over simulated
// releases at the edge of identifiability it holds the truth at about its level (2000 releases,
// fixed seed: a set whose level is exact covers 0.95 and leaves [0.93, 0.97] with probability
// below 3e-3 per coefficient), and no random start finds the profile below the level just past
// an end it closed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/chain_convergence.hpp"
#include "core/estimators/pivot_profile.hpp"
#include "core/linalg/blas.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"
#include "core/random/symmetric_noise.hpp"
#include "core/random/uniform.hpp"

namespace dpcov::estimators {
namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

ReleaseNoise adassp_noise(double gram, double off, double cross) {
  ReleaseNoise noise{ReleaseNoise::Kind::Adassp, gram, 0.0};
  noise.off_diagonal = off;
  noise.cross = cross;
  noise.label = 1.0;
  return noise;
}

// A random symmetric positive definite p x p matrix with eigenvalues in [low, high].
Matrix random_spd(int64_t p, double low, double high, random::Rng &rng) {
  Matrix m(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) m(i, j) = random::standard_normal(rng);
  const linalg::SymmetricEigen basis = linalg::eigh(linalg::multiply(m, m, linalg::Trans::Yes));
  Matrix out(p, p);
  for (int64_t k = 0; k < p; ++k) {
    const double v = low + (high - low) * random::uniform01(rng);
    for (int64_t b = 0; b < p; ++b)
      for (int64_t a = 0; a < p; ++a)
        out(a, b) += basis.vectors(a, k) * v * basis.vectors(b, k);
  }
  return out;
}

PivotProfile random_profile(int64_t p, const ReleaseNoise &noise, random::Rng &rng) {
  PivotProfile profile{random_spd(p, 1.0, 50.0, rng), std::vector<double>(at(p)),
                       random_spd(p, 0.5, 5.0, rng), noise};
  for (auto &v : profile.gxy) v = 10.0 * random::standard_normal(rng);
  return profile;
}

TEST(PivotStatistic, GradientMatchesCentralDifferences) {
  random::Rng rng = random::Rng::from_seed(41);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t p = 1 + trial % 6;
    const PivotProfile profile =
        random_profile(p, adassp_noise(0.5 + random::uniform01(rng), 0.3, 0.7), rng);
    std::vector<double> beta(at(p)), gradient;
    for (auto &v : beta) v = 2.0 * random::standard_normal(rng);
    pivot_statistic(profile, beta, &gradient);
    for (int64_t k = 0; k < p; ++k) {
      const double h = 1e-5 * (1.0 + std::fabs(beta[at(k)]));
      std::vector<double> up = beta, down = beta;
      up[at(k)] += h;
      down[at(k)] -= h;
      const double numeric =
          (pivot_statistic(profile, up, nullptr) - pivot_statistic(profile, down, nullptr)) /
          (2.0 * h);
      EXPECT_NEAR(gradient[at(k)], numeric, 1e-5 * (1.0 + std::fabs(numeric)))
          << "trial " << trial << " k " << k;
    }
  }
}

TEST(PivotProfileIntervals, OneCoefficientIsFiellersInterval) {
  random::Rng rng = random::Rng::from_seed(42);
  const double z = normal_quantile(0.975);
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const double gram = 0.2 + random::uniform01(rng);
    const ReleaseNoise noise = adassp_noise(gram, 0.3, 0.5);
    PivotProfile profile{Matrix(1, 1), {0.0}, Matrix(1, 1), noise};
    profile.g(0, 0) = 2.0 + 8.0 * random::uniform01(rng);
    profile.gxy[0] = 6.0 * random::standard_normal(rng);
    const double sampling = 0.1 + random::uniform01(rng);
    profile.base(0, 0) = sampling + 0.25;
    const ProfileIntervals out = pivot_profile_intervals(profile, 0.95, {1e-3});
    // Fieller's set {t : (b - a t)^2 <= z^2 (c0 + c2 t^2)} in closed form: a bounded interval
    // only where the quadratic's leading coefficient is positive and it has real roots.
    const double a = profile.g(0, 0), b = profile.gxy[0], c0 = sampling + 0.25,
                 c2 = gram * gram;
    const double qa = a * a - z * z * c2, qb = -2.0 * a * b, qc = b * b - z * z * c0;
    const double disc = qb * qb - 4.0 * qa * qc;
    std::optional<std::pair<double, double>> set;
    if (qa > 0.0 && disc >= 0.0)
      set = std::pair{(-qb - std::sqrt(disc)) / (2.0 * qa), (-qb + std::sqrt(disc)) / (2.0 * qa)};
    if (!set) {
      EXPECT_TRUE(out.lower_open[0] || out.upper_open[0]) << trial;
      continue;
    }
    ++compared;
    ASSERT_FALSE(out.lower_open[0] || out.upper_open[0]) << trial;
    const double width = set->second - set->first;
    // Each end is written on its outer side, within 1e-6 of its distance from the estimate.
    EXPECT_LE(out.ci_lower[0], set->first + 1e-9 * width) << trial;
    EXPECT_GE(out.ci_upper[0], set->second - 1e-9 * width) << trial;
    EXPECT_NEAR(out.ci_lower[0], set->first, 1e-5 * width) << trial;
    EXPECT_NEAR(out.ci_upper[0], set->second, 1e-5 * width) << trial;
  }
  EXPECT_GT(compared, 150);
}

// With the noise on X'X 1e-150 (its second moment 1e-300 times beta beta') Sigma is the base:
// the profile of beta_j is (beta~_j - c)^2 / (G^-1 S G^-1)_jj, so the set is beta~_j plus or minus
// z times that standard error, and the p-value is the Gaussian test's.
TEST(PivotProfileIntervals, ConstantCovarianceGivesTheGaussianInterval) {
  random::Rng rng = random::Rng::from_seed(43);
  const double z = normal_quantile(0.975);
  for (int trial = 0; trial < 60; ++trial) {
    const int64_t p = 2 + trial % 5;
    const PivotProfile profile = random_profile(p, adassp_noise(1e-150, 1e-150, 1.0), rng);
    const ProfileIntervals out =
        pivot_profile_intervals(profile, 0.95, std::vector<double>(at(p), 1.0));
    const Matrix inverse = linalg::spd_inverse(profile.g);
    const Matrix spread = linalg::multiply(linalg::multiply(inverse, profile.base), inverse);
    for (int64_t j = 0; j < p; ++j) {
      const double se = std::sqrt(spread(j, j)), b = out.coefficients[at(j)];
      EXPECT_NEAR(out.ci_lower[at(j)], b - z * se, 2e-5 * z * se) << trial << " " << j;
      EXPECT_NEAR(out.ci_upper[at(j)], b + z * se, 2e-5 * z * se) << trial << " " << j;
      EXPECT_NEAR(out.p_values[at(j)], std::erfc(std::fabs(b) / se / std::sqrt(2.0)),
                  1e-6 + 1e-6 * out.p_values[at(j)])
          << trial << " " << j;
    }
  }
}

// With `which`, the flagged coefficients' sets are those of the full search, bit for bit, and
// the others are not searched: their ends are the estimate and their p-values 1.
TEST(PivotProfileIntervals, WhichSearchesOnlyTheFlaggedCoefficients) {
  random::Rng rng = random::Rng::from_seed(47);
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t p = 2 + trial % 4;
    const PivotProfile profile = random_profile(p, adassp_noise(0.5, 0.3, 1.0), rng);
    const std::vector<double> reach(at(p), 1.0);
    const ProfileIntervals all = pivot_profile_intervals(profile, 0.95, reach);
    std::vector<bool> which(at(p));
    for (int64_t j = 0; j < p; ++j) which[at(j)] = (j + trial) % 2 == 0;
    const ProfileIntervals some = pivot_profile_intervals(profile, 0.95, reach, &which);
    EXPECT_EQ(some.coefficients, all.coefficients);
    for (int64_t j = 0; j < p; ++j) {
      if (which[at(j)]) {
        EXPECT_EQ(some.ci_lower[at(j)], all.ci_lower[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.ci_upper[at(j)], all.ci_upper[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.p_values[at(j)], all.p_values[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.lower_open[at(j)], all.lower_open[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.upper_open[at(j)], all.upper_open[at(j)]) << trial << " " << j;
      } else {
        EXPECT_EQ(some.ci_lower[at(j)], all.coefficients[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.ci_upper[at(j)], all.coefficients[at(j)]) << trial << " " << j;
        EXPECT_EQ(some.p_values[at(j)], 1.0) << trial << " " << j;
        EXPECT_FALSE(some.lower_open[at(j)] || some.upper_open[at(j)]) << trial << " " << j;
      }
    }
  }
}

TEST(PivotProfileIntervals, OpenWhereTheReleaseDoesNotIdentifyTheCoefficient) {
  PivotProfile profile{Matrix(2, 2), {0.3, 500.0}, Matrix::identity(2),
                       adassp_noise(1.0, 1.0, 1.0)};
  profile.g(0, 0) = 0.5;  // a quarter of a noise sd
  profile.g(1, 1) = 1000.0;
  const ProfileIntervals out = pivot_profile_intervals(profile, 0.95, {7.0, 7.0});
  EXPECT_TRUE(out.lower_open[0]);
  EXPECT_TRUE(out.upper_open[0]);
  EXPECT_LE(out.ci_lower[0], -7.0);
  EXPECT_GE(out.ci_upper[0], 7.0);
  // The other coefficient is open too, though its direction is 1000 noise sds strong: beta_0
  // unbounded lets E beta, whose entry on the other coordinate is E_10 beta_0, swamp the pivot
  // there, so no value of beta_1 is rejected.
  EXPECT_TRUE(out.lower_open[1]);
  EXPECT_TRUE(out.upper_open[1]);
}

TEST(PivotProfileIntervals, SingularReleaseIsAPrecondition) {
  PivotProfile profile{Matrix(2, 2, 1.0), {1.0, 1.0}, Matrix::identity(2),
                       adassp_noise(1.0, 1.0, 1.0)};
  try {
    pivot_profile_intervals(profile, 0.95, {1.0, 1.0});
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition);
  }
}

// A release at the edge of identifiability: X'X with correlation 0.9 between two of three
// regressors (its weakest direction 3 noise sds strong), AdaSSP's noise on X'X and X'y,
// homoscedastic sampling noise X'e ~ N(0, s^2 X'X) with S = s^2 X'X~ given.
struct EdgeReleases {
  static constexpr int64_t p = 3;
  const std::vector<double> beta = {1.0, -0.5, 0.8};
  const double s2 = 4.0, sigma = 1.0;
  const ReleaseNoise noise = adassp_noise(sigma, sigma / std::sqrt(2.0), sigma);
  Matrix xtx = Matrix(p, p), factor;

  EdgeReleases() {
    const double scale = 30.0, rho = 0.9;
    for (int64_t j = 0; j < p; ++j) xtx(j, j) = scale;
    xtx(0, 1) = xtx(1, 0) = rho * scale;
    linalg::cholesky(xtx, factor);
  }

  PivotProfile draw(random::Rng &rng) const {
    Matrix e(p + 1, p + 1);
    random::symmetric_gaussian_noise(rng, sigma, e);
    PivotProfile profile{xtx, std::vector<double>(at(p)), xtx, noise};
    std::vector<double> zs(at(p));
    for (auto &v : zs) v = random::standard_normal(rng);
    for (int64_t i = 0; i < p; ++i) {
      double sampling = 0.0, xb = 0.0;
      for (int64_t k = 0; k <= i; ++k) sampling += factor(i, k) * zs[at(k)];
      for (int64_t k = 0; k < p; ++k) xb += xtx(i, k) * beta[at(k)];
      profile.gxy[at(i)] = xb + std::sqrt(s2) * sampling + e(i, p);
      // Off the diagonal the noise is sigma / sqrt(2): symmetric_gaussian_noise's entries
      // scaled there.
      for (int64_t k = 0; k < p; ++k)
        profile.g(i, k) = xtx(i, k) + (i == k ? e(i, k) : e(i, k) / std::sqrt(2.0));
    }
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) profile.base(i, j) = s2 * profile.g(i, j);
    for (int64_t i = 0; i < p; ++i) profile.base(i, i) += sigma * sigma;
    return profile;
  }
};

// Each coefficient's set holds the truth in [0.93, 0.97] of 2000 releases (measured: 0.9445,
// 0.9430, 0.9475, with a set open on at least one side in 777 of the 6000).
TEST(PivotProfileIntervals, HoldsTheTruthAtItsLevelAtTheEdge) {
  random::Rng rng = random::Rng::from_seed(44);
  const EdgeReleases edge;
  const int releases = 2000;
  std::vector<int> covered(at(edge.p), 0);
  int open = 0;
  for (int r = 0; r < releases; ++r) {
    const ProfileIntervals out =
        pivot_profile_intervals(edge.draw(rng), 0.95, std::vector<double>(at(edge.p), 10.0));
    for (int64_t j = 0; j < edge.p; ++j) {
      const double b = edge.beta[at(j)];
      covered[at(j)] += out.ci_lower[at(j)] <= b && b <= out.ci_upper[at(j)];
      open += out.lower_open[at(j)] || out.upper_open[at(j)];
    }
  }
  for (int64_t j = 0; j < edge.p; ++j) {
    const double coverage = static_cast<double>(covered[at(j)]) / releases;
    EXPECT_GE(coverage, 0.93) << "coefficient " << j;
    EXPECT_LE(coverage, 0.97) << "coefficient " << j;
  }
  EXPECT_LT(open, releases);
}

// Just past every closed end the profile is above q from 40 more starts, random around the
// estimate at scales from 0.1 to 1e4 of its largest standard error: the minimiser did not stop
// in a local minimum above a global one below q (which would make the set too narrow). Without
// the starts along the far direction it fails (7 ends of these releases).
TEST(PivotProfileIntervals, NoRandomStartFindsTheProfileBelowTheLevelPastAClosedEnd) {
  random::Rng rng = random::Rng::from_seed(45);
  const EdgeReleases edge;
  const double q = std::pow(normal_quantile(0.975), 2);
  int checked = 0;
  for (int r = 0; r < 60; ++r) {
    const PivotProfile profile = edge.draw(rng);
    const ProfileIntervals out =
        pivot_profile_intervals(profile, 0.95, std::vector<double>(at(edge.p), 10.0));
    const Matrix g_inverse = linalg::spd_inverse(profile.g);
    const linalg::SymmetricEigen eig = linalg::eigh(profile.g);
    double scale = 0.0;
    for (int64_t k = 0; k < edge.p; ++k)
      scale = std::max(scale, std::fabs(out.coefficients[at(k)]) + 1.0);
    for (int64_t j = 0; j < edge.p; ++j) {
      const ProfileStarts starts{out.coefficients, g_inverse, far_direction(profile, eig, j), scale,
                                 q};
      for (const int side : {0, 1}) {
        if (side == 0 ? out.lower_open[at(j)] : out.upper_open[at(j)]) continue;
        const double end = side == 0 ? out.ci_lower[at(j)] : out.ci_upper[at(j)];
        const double past = end + (end - out.coefficients[at(j)]) * 1e-3;
        for (int s = 0; s < 40; ++s) {
          std::vector<double> start(at(edge.p));
          const double spread = scale * std::pow(10.0, -1.0 + 5.0 * random::uniform01(rng));
          for (int64_t i = 0; i < edge.p; ++i)
            start[at(i)] = out.coefficients[at(i)] + spread * random::standard_normal(rng);
          EXPECT_GE(profiled_statistic(profile, j, past, starts, start), q * (1.0 - 1e-9))
              << "release " << r << " coefficient " << j << " end " << end;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace dpcov::estimators
