// The exact-density audit of CoinPress mean estimation (core/audit/coinpress_mean_audit.hpp, which
// states the pair, the loss and the three statistics; proofs/coinpress_mean.md) on the claim
// d = 3, n = 20, rho = 0.5, r = 5.
// Error rate: alpha = 1e-6 per audit, split evenly (Bonferroni) over 2 directions x 3 statistics;
// fixed seeds. Two known-broken variants must be flagged: the noise scale halved (the release run
// at 4 rho while claiming rho) and a release that does not project the rows.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "core/audit/coinpress_mean_audit.hpp"
#include "core/random/normal.hpp"

namespace dpcov {
namespace {

constexpr int64_t kRows = 20, kDim = 3, kTrials = 4000;
constexpr double kAlpha = 1e-6;

mechanisms::CoinpressMeanRequest claimed_request() {
  mechanisms::CoinpressMeanRequest r;
  r.dim = kDim;
  r.n = kRows;
  r.rho = 0.5;
  r.radius = 5.0;
  return r;
}

Matrix correct(const Matrix &rows, random::Rng &rng, double rho) {
  mechanisms::CoinpressMeanRequest r = claimed_request();
  r.rho = rho;
  return mechanisms::coinpress_mean_release(rows.view(), std::vector<double>(kDim, 0.0), r, rng)
      .centres;
}

// Broken: the claimed sigmas, but the rows' plain mean (no projection).
Matrix unprojected(const Matrix &rows, random::Rng &rng) {
  const mechanisms::CoinpressMeanReceipt claim = mechanisms::coinpress_mean_plan(claimed_request());
  Matrix centres(claim.steps, kDim);
  for (int64_t step = 0; step < claim.steps; ++step)
    for (int64_t j = 0; j < kDim; ++j) {
      double sum = 0.0;
      for (int64_t i = 0; i < kRows; ++i) sum += rows(i, j);
      centres(step, j) = sum / kRows +
                         claim.step_sigma[static_cast<size_t>(step)] * random::standard_normal(rng);
    }
  return centres;
}

double squared_distance(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t j = 0; j < a.size(); ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

audit::CoinpressMeanAuditReport run_audit(const audit::CentresRelease &release, uint64_t seed) {
  return audit::audit_coinpress_mean(claimed_request(), release, kTrials, kAlpha, seed);
}

void print(const char *name, const audit::CoinpressMeanAuditReport &v) {
  for (const audit::CoinpressMeanDirection *d : {&v.forward, &v.backward})
    std::cerr << "  " << name << ": KS " << d->ks << " (threshold " << d->ks_threshold
              << "), rho lower bound " << d->rho_lower << " (claim 0.5), delta(eps) lower "
              << d->delta.lower << " (estimate " << d->delta.estimate
              << ", claim 1e-6), two-sample delta(" << d->two_sample.epsilon << ") lower "
              << d->two_sample.lower << " (claim " << d->two_sample.claim << ")\n";
}

TEST(CoinpressMeanAudit, ThePairAttainsTheSensitivity) {
  const mechanisms::CoinpressMeanReceipt claim = mechanisms::coinpress_mean_plan(claimed_request());
  const auto [x, x_prime] = audit::coinpress_mean_audit_pair(claimed_request());
  const std::vector<double> c = {0.3, -0.2, 0.1};
  for (double radius : claim.step_clip_radius) {
    const double shift =
        std::sqrt(squared_distance(mechanisms::coinpress_mean_projected_offset(x.view(), c, radius),
                                   mechanisms::coinpress_mean_projected_offset(x_prime.view(), c, radius)));
    EXPECT_LE(shift, 2.0 * radius / kRows);
    EXPECT_GE(shift, 2.0 * radius / kRows * (1.0 - 1e-9));
  }
}

TEST(CoinpressMeanAudit, TheCorrectReleaseIsNotFlagged) {
  const auto v = run_audit([](const Matrix &rows, random::Rng &rng) { return correct(rows, rng, 0.5); }, 11);
  print("correct", v);
  EXPECT_FALSE(v.violation());
  // The lower bound on the spent rho sits near the claim: the pair is tight.
  EXPECT_GT(v.forward.rho_lower, 0.4);
  // The library's own release, as dpcov_audit_coinpress_mean runs it.
  EXPECT_FALSE(audit::audit_coinpress_mean(claimed_request(), 1000, kAlpha, 3).violation());
}

TEST(CoinpressMeanAudit, HalvedNoiseIsFlagged) {
  const auto v = run_audit([](const Matrix &rows, random::Rng &rng) { return correct(rows, rng, 2.0); }, 13);
  print("sigma / 2", v);
  EXPECT_TRUE(v.forward.conformance_flag && v.forward.pair_flag && v.forward.two_sample_flag);
  EXPECT_TRUE(v.backward.conformance_flag && v.backward.pair_flag && v.backward.two_sample_flag);
}

TEST(CoinpressMeanAudit, AReleaseWithoutProjectionIsFlagged) {
  const auto v = run_audit(unprojected, 17);
  print("unprojected", v);
  EXPECT_TRUE(v.forward.delta_flag && v.forward.conformance_flag && v.forward.two_sample_flag);
  EXPECT_TRUE(v.backward.delta_flag && v.backward.conformance_flag && v.backward.two_sample_flag);
}

}  // namespace
}  // namespace dpcov
