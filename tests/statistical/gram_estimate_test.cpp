// The Gram estimate a release holds (core/estimators/gram_estimate.hpp) is unbiased for G: for
// each mechanism whose release has a mean other than G (wishart_additive, jl_ridge,
// inverse_wishart), the mean over releases of a fixed Gram matrix, drawn through the mechanism's
// own release function with fixed seeds, matches G entry by entry (z-tests on the upper triangle).
// Each check is also run on a deliberately wrong estimate (the release as drawn; for the inverse
// Wishart, the factor m - d in place of m - d - 1) and must reject it.
//
// Error rate: alpha = 1e-6 per z-test (stat_support.hpp); 3 mechanisms x 10 entries = 30 tests on
// correct estimates, so the family-wise false-failure rate is <= 3e-5 (Bonferroni).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/mechanisms/mechanism.hpp"
#include "core/estimators/gram_estimate.hpp"
#include "statistical/stat_support.hpp"

namespace {

using namespace dpcov;
using mechanisms::MechanismId;
using mechanisms::Request;

constexpr int64_t kD = 4;

// The Gram matrix of n = 50 rows of norm <= 1, well conditioned.
Matrix gram4() {
  Matrix g(kD, kD);
  const double values[kD][kD] = {{12.5, 3.0, -2.0, 1.0},
                                 {3.0, 10.0, 4.0, 0.0},
                                 {-2.0, 4.0, 11.0, -3.0},
                                 {1.0, 0.0, -3.0, 9.0}};
  for (int i = 0; i < kD; ++i)
    for (int j = 0; j < kD; ++j) g(i, j) = values[i][j];
  return g;
}

Request request(double eps) {
  Request r;
  r.dim = kD;
  r.n = 50;
  r.bound = 1.0;
  r.epsilon = eps;
  r.delta = 1e-6;
  return r;
}

using Estimate = std::function<Matrix(const mechanisms::Release &)>;

Matrix correct(const mechanisms::Release &release) {
  return estimators::gram_estimate(release.matrix, release.receipt).matrix;
}

// Whether every upper-triangle entry's mean estimate over `releases` draws matches G.
bool unbiased(MechanismId id, const Request &req, const Estimate &estimate, uint64_t seed,
              const std::string &what) {
  const int64_t releases = stat::scaled(20000);
  random::Rng rng = random::Rng::from_seed(seed);
  const Matrix g = gram4();
  std::vector<std::vector<double>> entries(kD * (kD + 1) / 2);
  for (int64_t t = 0; t < releases; ++t) {
    const Matrix e = estimate(mechanisms::release(id, g.view(), req, rng));
    size_t k = 0;
    for (int64_t j = 0; j < kD; ++j)
      for (int64_t i = 0; i <= j; ++i) entries[k++].push_back(e(i, j));
  }
  bool all = true;
  size_t k = 0;
  for (int64_t j = 0; j < kD; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const stat::MeanAndError m = stat::mean_and_error(entries[k++]);
      all = stat::z_test(m.mean, g(i, j), m.error,
                         what + " entry (" + std::to_string(i) + ", " + std::to_string(j) + ")")
                .pass &&
            all;
    }
  return all;
}

TEST(GramEstimate, WishartAdditiveLessItsMeanIsUnbiased) {
  const Request req = request(0.5);
  EXPECT_TRUE(unbiased(MechanismId::WishartAdditive, req, correct, 11, "wishart_additive"));
  EXPECT_FALSE(unbiased(MechanismId::WishartAdditive, req,
                        [](const mechanisms::Release &r) { return r.matrix; }, 12,
                        "wishart_additive as drawn (must fail)"));
}

TEST(GramEstimate, JlRidgeLessItsBlockIsUnbiased) {
  Request req = request(0.5);
  req.options.projection_rows = 40;
  EXPECT_TRUE(unbiased(MechanismId::JlRidge, req, correct, 21, "jl_ridge"));
  EXPECT_FALSE(unbiased(MechanismId::JlRidge, req,
                        [](const mechanisms::Release &r) { return r.matrix; }, 22,
                        "jl_ridge as drawn (must fail)"));
}

TEST(GramEstimate, InverseWishartRescaledIsUnbiased) {
  Request req = request(0.5);
  req.options.posterior_dof = 100;
  EXPECT_TRUE(unbiased(MechanismId::InverseWishart, req, correct, 31, "inverse_wishart"));
  const Estimate off_by_one = [](const mechanisms::Release &r) {
    const double factor = (r.receipt.dof - kD) / (r.receipt.dof - kD - 1.0);
    Matrix e = correct(r);
    const double w2 = r.receipt.appended_w * r.receipt.appended_w;
    for (int64_t j = 0; j < kD; ++j)
      for (int64_t i = 0; i < kD; ++i) e(i, j) = (e(i, j) + (i == j ? w2 : 0.0)) * factor -
                                                 (i == j ? w2 : 0.0);
    return e;
  };
  EXPECT_FALSE(unbiased(MechanismId::InverseWishart, req, off_by_one, 32,
                        "inverse_wishart with m - d (must fail)"));
}

}  // namespace
