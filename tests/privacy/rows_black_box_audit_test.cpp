// The black-box audit (core/audit/black_box.hpp) of the mechanisms that read the rows themselves
// rather than their Gram matrix: Dong-Liang-Yi Gauss, Separate and Adaptive
// (core/mechanisms/dong_liang_yi.hpp) and CoinPress (core/mechanisms/coinpress.hpp). Their outputs
// have no tractable density (eigenvectors of a noisy matrix, a private clipping radius, iterated
// clipping), so the audit is black-box: the claim is the (epsilon, delta) of their rho-zCDP
// receipt, on the replace-one pair that maximises the change of the Gram matrix (v = e_1 -> e_2).
// Each correct release is not flagged on any statistic; the same release at 10^4 times its budget
// (a miscalibrated variant, sigma 100 times too small) while claiming the original is flagged.
//
// Error rate: alpha = 1e-6 per audit (Bonferroni inside); fixed seeds.
#include <gtest/gtest.h>

#include <functional>

#include "core/audit/black_box.hpp"
#include "core/audit/mechanism_audit.hpp"
#include "core/mechanisms/coinpress.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "core/privacy/zcdp.hpp"

namespace dpcov::audit {
namespace {

constexpr int64_t kDim = 3;
constexpr int64_t kRows = 20;
constexpr double kRho = 0.02;  // epsilon = 1.07 at delta = 1e-6: e^epsilon small enough to test
constexpr double kDelta = 1e-6;

struct RowsPair {
  DatasetPair rows;
  PairStatistics stats;
};

RowsPair max_change_pair() {
  mechanisms::Request request;
  request.dim = kDim;
  request.n = kRows;
  request.bound = 1.0;
  request.epsilon = 1.0;
  RowsPair p{generate_pair(request, DatasetKind::SphereRows, NeighbourKind::MaxL2Change, 17), {}};
  p.stats = pair_statistics(p.rows.rows, p.rows.rows_prime, 1.0, request.options.neighbour);
  return p;
}

using RowsRelease = std::function<Matrix(ConstMatrixView rows, double rho, random::Rng &rng)>;

// A target that releases from the rows of D or D' (the audit hands it their Gram matrix, which
// identifies the dataset) with budget `rho_used`, claiming the guarantee of `kRho`.
Target rows_target(const std::string &name, const RowsPair &pair, const RowsRelease &release,
                   double rho_used) {
  Target t;
  t.name = name;
  t.epsilon = privacy::zcdp_epsilon(kRho, kDelta);
  t.delta = kDelta;
  t.release = [&pair, release, rho_used](ConstMatrixView gram, int64_t, random::Rng &rng) {
    const Matrix &rows =
        gram.data == pair.stats.gram.data() ? pair.rows.rows : pair.rows.rows_prime;
    return Output{release(rows.view(), rho_used, rng), 0.0, false};
  };
  return t;
}

RowsRelease dly(mechanisms::DlyVariant variant) {
  return [variant](ConstMatrixView rows, double rho, random::Rng &rng) {
    mechanisms::DlyRequest r;
    r.variant = variant;
    r.dim = kDim;
    r.n = kRows;
    r.rho = rho;
    return mechanisms::dly_release(rows, r, rng).covariance;
  };
}

// CoinPress has no norm bound: the rows are scaled by 3 (still neighbours) so that their change
// is of the order of its clipping radius gamma ~ sqrt(d) rather than far inside it.
Matrix coinpress(ConstMatrixView rows, double rho, random::Rng &rng) {
  Matrix scaled = Matrix::from(rows);
  for (int64_t j = 0; j < kDim; ++j)
    for (int64_t i = 0; i < kRows; ++i) scaled(i, j) *= 3.0;
  mechanisms::CoinpressRequest r;
  r.dim = kDim;
  r.n = kRows;
  r.rho = rho;
  r.k_bound = 9.0;
  return mechanisms::coinpress_release(scaled.view(), r, rng).covariance;
}

struct Case {
  std::string name;
  RowsRelease release;
};

std::vector<Case> cases() {
  return {{"dly_gauss", dly(mechanisms::DlyVariant::Gauss)},
          {"dly_separate", dly(mechanisms::DlyVariant::Separate)},
          {"dly_adaptive", dly(mechanisms::DlyVariant::Adaptive)},
          {"dly_adaptive_paper", dly(mechanisms::DlyVariant::AdaptivePaper)},
          {"coinpress", coinpress}};
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
  const RowsPair pair = max_change_pair();
  for (const Case &c : cases())
    for (const Statistic statistic :
         {Statistic::TopEigenvalue, Statistic::TopEigenvectorAlignment}) {
      const BlackBoxReport report =
          run_black_box_audit(rows_target(c.name, pair, c.release, kRho), pair.stats,
                              settings(statistic));
      SCOPED_TRACE(c.name + " " + report.statistic);
      EXPECT_FALSE(report.violation) << report.event << " " << report.delta_lower;
    }
}

TEST(RowsBlackBoxAudit, MiscalibratedReleasesAreFlagged) {
  const RowsPair pair = max_change_pair();
  for (const Case &c : cases()) {
    const BlackBoxReport report =
        run_black_box_audit(rows_target(c.name, pair, c.release, 1e4 * kRho), pair.stats,
                            settings(Statistic::TopEigenvectorAlignment));
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(report.violation) << report.delta_lower;
  }
}

}  // namespace
}  // namespace dpcov::audit
