// The posterior's sampling share from its chains' draws (core/estimators/sampling_share.hpp) on
// synthetic draws with a known answer: beta ~ N(0, 1) and each of the q = 77 score coordinates
// a_i beta + N(0, 1) (a d = 10 posterior's count: 65 free entries of X'X~, 11 of X'y~, y'y~),
// Cov(x) = I, so J = a and the share is |a|^2 = 0.5. Four chains of 250 draws.
//
// Unbiased: the mean over 400 replications within 4 of its standard errors of 0.5 (false-failure
// rate 6e-5 for a normal mean). The square of the pooled J (the estimator before the chains were
// paired) is biased by tr(Var(J^)) = q (1 + |a|^2 / q) / 1000, about 0.078 here, and is rejected
// by the same test at 20 standard errors. Plus the function's contract: a hand-computed two-chain
// case, NaN for an empty score or draws that do not vary, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/sampling_share.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {
namespace {

constexpr size_t kGramCoordinates = 75, kStatistics = 2, kScore = kGramCoordinates + kStatistics;
constexpr int64_t kChains = 4;
constexpr size_t kLength = 250, kDraws = kLength * kChains;

posterior::GramCoordinates identity_coordinates() {
  posterior::GramCoordinates c;
  for (size_t i = 0; i < kGramCoordinates; ++i) {
    c.entries.emplace_back(0, static_cast<int64_t>(i));
    c.scales.push_back(1.0);
  }
  return c;
}

posterior::ReleaseScore score_of(std::vector<double> s) {
  Matrix cov(static_cast<int64_t>(kStatistics), static_cast<int64_t>(kStatistics));
  for (int64_t i = 0; i < cov.rows(); ++i) cov(i, i) = 1.0;
  return {std::move(s), cov};
}

// One free entry of X'X~ of noise scale `scale`.
posterior::GramCoordinates one_coordinate(double scale) {
  posterior::GramCoordinates c;
  c.entries.emplace_back(0, 1);
  c.scales.push_back(scale);
  return c;
}

// The scores at each draw: that entry's, then 0 for the two statistics.
std::vector<posterior::ReleaseScore> scores_of(const std::vector<double> &gram_scores) {
  std::vector<posterior::ReleaseScore> out;
  for (double g : gram_scores) out.push_back(score_of({g, 0.0, 0.0}));
  return out;
}

struct Draws {
  std::vector<std::vector<double>> pooled;
  std::vector<posterior::ReleaseScore> scores;
};

Draws synthetic(random::Rng &rng, double a) {
  Draws d{{std::vector<double>(kDraws)}, {}};
  for (size_t t = 0; t < kDraws; ++t) {
    const double beta = random::standard_normal(rng);
    d.pooled[0][t] = beta;
    std::vector<double> s(kScore);
    for (double &v : s) v = a * beta + random::standard_normal(rng);
    d.scores.push_back(score_of(std::move(s)));
  }
  return d;
}

// The pooled estimate squared: J^ from all draws together, J^' J^ / Var.
double pooled_square(const Draws &d) {
  const std::vector<double> &b = d.pooled[0];
  double mean = 0.0, var = 0.0;
  for (double v : b) mean += v / kDraws;
  for (double v : b) var += (v - mean) * (v - mean) / kDraws;
  double out = 0.0;
  for (size_t i = 0; i < kScore; ++i) {
    double s_mean = 0.0, j = 0.0;
    for (size_t t = 0; t < kDraws; ++t) s_mean += d.scores[t].score[i] / kDraws;
    for (size_t t = 0; t < kDraws; ++t) j += (b[t] - mean) * (d.scores[t].score[i] - s_mean) / kDraws;
    out += j * j;
  }
  return out / var;
}

struct MeanAndError {
  double mean = 0.0, standard_error = 0.0;
};

MeanAndError summary(const std::vector<double> &v) {
  const double n = static_cast<double>(v.size());
  MeanAndError out;
  for (double x : v) out.mean += x / n;
  double ss = 0.0;
  for (double x : v) ss += (x - out.mean) * (x - out.mean);
  out.standard_error = std::sqrt(ss / (n - 1.0) / n);
  return out;
}

TEST(SamplingShare, UnbiasedAcrossChainsWhereThePooledSquareIsNot) {
  const double a = std::sqrt(0.5 / static_cast<double>(kScore));
  random::Rng rng = random::Rng::from_seed(20261130, 1);
  const posterior::GramCoordinates coords = identity_coordinates();
  std::vector<double> paired, squared;
  for (int r = 0; r < 400; ++r) {
    const Draws d = synthetic(rng, a);
    paired.push_back(sampling_shares(d.pooled, d.scores, coords, kChains)[0]);
    squared.push_back(pooled_square(d));
  }
  const MeanAndError p = summary(paired), s = summary(squared);
  EXPECT_LT(std::fabs(p.mean - 0.5), 4.0 * p.standard_error) << p.mean << " +- " << p.standard_error;
  EXPECT_GT(s.mean - 0.5, 20.0 * s.standard_error) << s.mean << " +- " << s.standard_error;
}

TEST(SamplingShare, TwoChainsByHand) {
  // One score coordinate of scale 2 (variance 4) and the two statistics with covariance I; draws
  // beta = (1, 3 | 0, 4) (mean 2, variance 2.5), the Gram coordinate's score (0, 2 | 1, 5) (mean
  // 2), the statistics' scores 0. J_1 = ((-1)(-2) + (1)(0)) / 2 = 1, J_2 = ((-2)(-1) + (2)(3)) / 2
  // = 4: the pair gives 2 J_1 J_2 4 / 2 = 16, over the variance 2.5.
  EXPECT_DOUBLE_EQ(sampling_shares({{1.0, 3.0, 0.0, 4.0}}, scores_of({0.0, 2.0, 1.0, 5.0}),
                                   one_coordinate(2.0), 2)[0],
                   16.0 / 2.5);
}

TEST(SamplingShare, NanWhereAScoreIsMissingOrTheDrawsDoNotVary) {
  const posterior::GramCoordinates coords = one_coordinate(1.0);
  std::vector<posterior::ReleaseScore> scores = scores_of({0.0, 2.0, 1.0, 5.0});
  EXPECT_TRUE(std::isnan(sampling_shares({{1.0, 1.0, 1.0, 1.0}}, scores, coords, 2)[0]));
  scores[2].score.clear();
  EXPECT_TRUE(std::isnan(sampling_shares({{1.0, 3.0, 0.0, 4.0}}, scores, coords, 2)[0]));
}

TEST(SamplingShare, NegativeEstimatesReadZero) {
  // J_1 = 1 and J_2 = -1 in the one coordinate: the pair's product is negative.
  EXPECT_EQ(sampling_shares({{1.0, 3.0, 1.0, 3.0}}, scores_of({0.0, 2.0, 2.0, 0.0}),
                            one_coordinate(1.0), 2)[0],
            0.0);
}

TEST(SamplingShare, RejectsFewerThanTwoChainsOrUnequalOnes) {
  const posterior::GramCoordinates coords = one_coordinate(1.0);
  const std::vector<posterior::ReleaseScore> scores = scores_of({0.0, 2.0, 1.0});
  EXPECT_THROW(sampling_shares({{1.0, 3.0, 0.0}}, scores, coords, 2), Error);
  EXPECT_THROW(sampling_shares({{1.0, 3.0, 0.0}}, scores, coords, 1), Error);
  EXPECT_THROW(sampling_shares({{}}, {}, coords, 2), Error);
}

}  // namespace
}  // namespace dpcov::estimators
