// The black-box audit (core/audit/rows_black_box.hpp) of the mechanisms that read the rows
// themselves rather than their Gram matrix: Dong-Liang-Yi Gauss, Separate and Adaptive
// (core/mechanisms/dong_liang_yi.hpp) and CoinPress (core/mechanisms/coinpress.hpp). Their outputs
// have no tractable density (eigenvectors of a noisy matrix, a private clipping radius, iterated
// clipping), so the audit is black-box: the claim is the (epsilon, delta) of their rho-zCDP
// receipt, on the replace-one pair that maximises the change of the Gram matrix (v = s e_1 ->
// s e_2; s = 1 for Dong-Liang-Yi, r = 1, and 3 for CoinPress, K = 9).
// Each correct release is not flagged on any statistic; the same release at 10^4 times its budget
// (a miscalibrated variant, sigma 100 times too small) while claiming the original is flagged.
//
// Error rate: alpha = 1e-6 per audit (Bonferroni inside); fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/audit/rows_black_box.hpp"
#include "core/audit/datasets.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "core/privacy/zcdp.hpp"

namespace dpcov::audit {
namespace {

constexpr int64_t kDim = 3;
constexpr int64_t kRows = 20;
constexpr double kRho = 0.02;  // epsilon = 0.90 at delta = 1e-6: e^epsilon small enough to test
constexpr double kDelta = 1e-6;
constexpr uint64_t kPairSeed = 17;

std::vector<RowsAuditRequest> cases() {
  std::vector<RowsAuditRequest> out;
  for (RowsMechanism m : {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate,
                          RowsMechanism::DlyAdaptive, RowsMechanism::DlyAdaptivePaper,
                          RowsMechanism::Coinpress})
    out.push_back({m, kDim, kRows, kRho, kDelta, m == RowsMechanism::Coinpress ? 9.0 : 1.0});
  return out;
}

BlackBoxSettings settings(Statistic statistic) {
  BlackBoxSettings s;
  s.statistic = statistic;
  s.trials = 600;
  s.pilot = 100;
  s.seed = 5;
  return s;
}

TEST(RowsBlackBoxAudit, CorrectReleasesAreNotFlagged) {
  for (const RowsAuditRequest &c : cases()) {
    const RowsPair pair = rows_audit_pair(c, kPairSeed);
    for (const Statistic statistic :
         {Statistic::TopEigenvalue, Statistic::TopEigenvectorAlignment}) {
      const BlackBoxReport report =
          run_black_box_audit(rows_target(c, pair, kRho), pair.stats, settings(statistic));
      SCOPED_TRACE(report.name + " " + report.statistic);
      EXPECT_FALSE(report.violation) << report.event << " " << report.delta_lower;
    }
  }
}

TEST(RowsBlackBoxAudit, MiscalibratedReleasesAreFlagged) {
  for (const RowsAuditRequest &c : cases()) {
    // The release at 10^4 times its budget (sigma 100 times too small) claiming the original.
    const RowsPair pair = rows_audit_pair(c, kPairSeed);
    const BlackBoxReport report = run_black_box_audit(
        rows_target(c, pair, 1e4 * kRho), pair.stats, settings(Statistic::TopEigenvectorAlignment));
    SCOPED_TRACE(report.name);
    EXPECT_TRUE(report.violation) << report.delta_lower;
  }
}

// The receipt is an output too. Dong-Liang-Yi Adaptive's receipt states its private clip radius
// r~ (a post-processing of its noisy histogram, covered by rho), and the audit of the receipt is
// the black-box audit of that field alone (a post-processing of the whole release, so a release
// within its claim passes it). The pair moves row 0 from r e_1 to (r / 8) e_1, the other rows at
// r / 8 on the axes, so the exact largest row norm is r in X and r / 8 in X'. A receipt that
// carried the unnoised radius (the smallest power of two above the largest row norm) in place of
// r~ separates the pair outright (delta lower bound 0.90 on the event r~ <= r / 8, at epsilon
// 0.90); the library's receipt does not (no event with a positive bound).
TEST(RowsBlackBoxAudit, AReceiptWithTheUnnoisedClipRadiusIsFlagged) {
  Matrix x(kRows, kDim);
  for (int64_t i = 1; i < kRows; ++i) x(i, i % kDim) = 0.125;
  Matrix x_prime = x;
  x(0, 0) = 1.0;
  x_prime(0, 0) = 0.125;
  PairStatistics pair{gram_of(x, 1.0), gram_of(x_prime, 1.0), kRows, kRows};
  const auto target = [&](bool unnoised) {
    Target t;
    t.name = unnoised ? "dly_adaptive, unnoised radius in the receipt" : "dly_adaptive receipt";
    t.epsilon = privacy::zcdp_epsilon(kRho, kDelta);
    t.delta = kDelta;
    t.release = [&, unnoised](ConstMatrixView gram, int64_t, random::Rng &rng) {
      const Matrix &rows = gram.data == pair.gram.data() ? x : x_prime;
      mechanisms::DlyRequest request;
      request.dim = kDim;
      request.n = kRows;
      request.rho = kRho;
      request.delta = kDelta;
      double radius = mechanisms::dly_release(rows.view(), request, rng).receipt.clip_radius;
      if (unnoised) {
        double largest = 0.0;
        for (int64_t i = 0; i < rows.rows(); ++i) {
          double square = 0.0;
          for (int64_t j = 0; j < kDim; ++j) square += rows(i, j) * rows(i, j);
          largest = std::max(largest, std::sqrt(square));
        }
        radius = std::exp2(std::ceil(std::log2(largest)));
      }
      Matrix out(1, 1);
      out(0, 0) = radius;
      return Output{std::move(out), 0.0, false};
    };
    return t;
  };
  for (const bool unnoised : {false, true}) {
    const BlackBoxReport report =
        run_black_box_audit(target(unnoised), pair, settings(Statistic::TopEigenvalue));
    SCOPED_TRACE(report.name);
    EXPECT_EQ(report.violation, unnoised) << report.event << " " << report.delta_lower;
  }
}

}  // namespace
}  // namespace dpcov::audit
