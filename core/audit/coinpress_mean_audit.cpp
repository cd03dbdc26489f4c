#include "coinpress_mean_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../error.hpp"
#include "../privacy/zcdp.hpp"
#include "noise_floor.hpp"
#include "trials.hpp"

namespace dpcov::audit {

namespace {

// Draws from `own`, loss against `other`.
CoinpressMeanDirection audit_direction(const mechanisms::CoinpressMeanReceipt &claim,
                                       const CentresRelease &release, const Matrix &own,
                                       const Matrix &other, int64_t trials, double alpha,
                                       uint64_t seed) {
  const int64_t t = claim.steps;
  const int64_t d = claim.dim;
  random::Rng rng = random::Rng::from_seed(seed);
  GaussianTranscript statistics(claim.step_sigma, claim.epsilon);
  for (int64_t trial = 0; trial < trials; ++trial) {
    const Matrix centres = release(own, rng);
    std::vector<double> previous(static_cast<size_t>(d), 0.0);
    for (int64_t i = 0; i < t; ++i) {
      const size_t s = static_cast<size_t>(i);
      // c_i - c_{i-1} ~ N(offset_i, sigma_i^2 I): the offsets of X and X' from the public c_{i-1}.
      const std::vector<double> m = mechanisms::coinpress_mean_projected_offset(
          own.view(), previous, claim.step_clip_radius[s]);
      const std::vector<double> m_other = mechanisms::coinpress_mean_projected_offset(
          other.view(), previous, claim.step_clip_radius[s]);
      std::vector<double> step(static_cast<size_t>(d));
      for (int64_t j = 0; j < d; ++j) {
        const size_t k = static_cast<size_t>(j);
        step[k] = centres(i, j) - previous[k];
        previous[k] = centres(i, j);
      }
      statistics.step(i, step, m, m_other,
                      2.0 * claim.step_clip_radius[s] / static_cast<double>(claim.n));
    }
    statistics.end_release();
  }
  return statistics.result(claim.rho, claim.delta, alpha);
}

}  // namespace

std::pair<Matrix, Matrix> coinpress_mean_audit_pair(const mechanisms::CoinpressMeanRequest &claim,
                                                    int64_t changed_rows) {
  const mechanisms::CoinpressMeanReceipt plan = mechanisms::coinpress_mean_plan(claim);
  double radius = 0.0;
  for (int64_t i = 0; i < plan.steps; ++i)
    radius = std::max(radius, plan.step_clip_radius[static_cast<size_t>(i)]);
  // Far outside every step's ball, and its square finite for the projection's norms.
  const double far = 1e6 * (1.0 + radius);
  if (!(far * far < std::numeric_limits<double>::max()))
    fail(Status::InvalidArgument, "the step radii (largest ", radius,
         ") are too large for the audit's pair: its far row 10^6 (1 + R) must have a finite square");
  check_pair_size(claim.n, claim.dim);
  if (changed_rows < 1 || changed_rows > claim.n)
    fail(Status::InvalidArgument, "the audit's pair changes 1 to n = ", claim.n, " rows, got ",
         changed_rows);
  Matrix x(claim.n, claim.dim);
  for (int64_t i = changed_rows; i < claim.n; ++i)
    for (int64_t j = 0; j < claim.dim; ++j)
      x(i, j) = std::sin(0.7 * static_cast<double>(i * claim.dim + j));
  Matrix x_prime = x;
  for (int64_t i = 0; i < changed_rows; ++i) {
    x(i, 0) = far;
    x_prime(i, 0) = -far;
  }
  return {std::move(x), std::move(x_prime)};
}

CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              const CentresRelease &release, int64_t trials,
                                              double alpha, uint64_t seed) {
  check_transcript_audit(trials, alpha);
  return audit_coinpress_mean(claim, coinpress_mean_audit_pair(claim), release, trials, alpha,
                              seed);
}

CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              const std::pair<Matrix, Matrix> &pair,
                                              const CentresRelease &release, int64_t trials,
                                              double alpha, uint64_t seed, double claimed_rho) {
  check_transcript_audit(trials, alpha);
  CoinpressMeanAuditReport report;
  report.claim = mechanisms::coinpress_mean_plan(claim);
  for (const Matrix *rows : {&pair.first, &pair.second})
    if (rows->rows() != claim.n || rows->cols() != claim.dim)
      fail(Status::Dimension, "each dataset of the audited pair must be n x d = ", claim.n,
           " x ", claim.dim, ", got ", rows->rows(), " x ", rows->cols());
  if (claimed_rho > 0.0) {
    report.claim.rho = claimed_rho;
    report.claim.epsilon = privacy::zcdp_epsilon(claimed_rho, report.claim.delta);
  }
  // Each step's noise perturbs centres within its ball of radius R_i.
  for (int64_t i = 0; i < report.claim.steps; ++i)
    require_noise_above_rounding(report.claim.step_sigma[static_cast<size_t>(i)],
                                 report.claim.step_clip_radius[static_cast<size_t>(i)],
                                 "the CoinPress mean audit");
  const auto direction = [&report, &release](const Matrix &own, const Matrix &other,
                                             int64_t n, double a, uint64_t s) {
    return audit_direction(report.claim, release, own, other, n, a, s);
  };
  audit_both_directions(pair, direction, trials, alpha, seed, report);
  return report;
}

CentresRelease coinpress_mean_library_release(const mechanisms::CoinpressMeanRequest &claim) {
  return [claim](const Matrix &rows, random::Rng &rng) {
    return mechanisms::coinpress_mean_release(
               rows.view(), std::vector<double>(static_cast<size_t>(claim.dim), 0.0), claim, rng)
        .centres;
  };
}

CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              int64_t trials, double alpha, uint64_t seed) {
  return audit_coinpress_mean(claim, coinpress_mean_library_release(claim), trials, alpha, seed);
}

}  // namespace dpcov::audit
