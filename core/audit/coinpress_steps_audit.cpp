#include "coinpress_steps_audit.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "../error.hpp"
#include "../mechanisms/statistic.hpp"
#include "../privacy/zcdp.hpp"
#include "noise_floor.hpp"

namespace dpcov::audit {

namespace {

// The upper triangle (diagonal included) of the square m, column by column: where the noise is.
std::vector<double> upper_triangle(const Matrix &m) {
  std::vector<double> out;
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) out.push_back(m(i, j));
  return out;
}

// Draws from `own`, loss against `other`.
TranscriptDirection audit_direction(const mechanisms::CoinpressReceipt &claim,
                                    const TranscriptRelease &release, const Matrix &own,
                                    const Matrix &other, int64_t trials, double alpha,
                                    uint64_t seed) {
  const int64_t t = claim.steps;
  const double gamma = claim.clip_radius;
  const double sensitivity = std::sqrt(2.0) * gamma * gamma / static_cast<double>(claim.n);
  const int64_t d = claim.dim;
  random::Rng rng = random::Rng::from_seed(seed);
  GaussianTranscript statistics(claim.step_sigma, claim.epsilon);
  for (int64_t trial = 0; trial < trials; ++trial) {
    const std::vector<Matrix> transcript = release(own, rng);
    if (static_cast<int64_t>(transcript.size()) != t)
      fail(Status::Dimension, "a transcript must have t = ", t, " steps, got ", transcript.size());
    // A_0 = I / sqrt(K); A_i from the released Y_i, as the release computes it.
    Matrix a = mechanisms::scaled_identity(d, 1.0 / std::sqrt(claim.k_bound));
    for (int64_t i = 0; i < t; ++i) {
      const Matrix &y = transcript[static_cast<size_t>(i)];
      if (y.rows() != d || y.cols() != d)
        fail(Status::Dimension, "each step of a transcript must be d x d = ", d, " x ", d, ", got ",
             y.rows(), " x ", y.cols());
      const Matrix m = mechanisms::coinpress_step_moment(own.view(), a, claim.clip_radius);
      const Matrix m_other = mechanisms::coinpress_step_moment(other.view(), a, claim.clip_radius);
      statistics.step(i, upper_triangle(y), upper_triangle(m), upper_triangle(m_other),
                      sensitivity);
      if (i + 1 < t) a = mechanisms::coinpress_next_transform(a, y, claim.eta);
    }
    statistics.end_release();
  }
  return statistics.result(claim.rho, claim.delta, alpha);
}

}  // namespace

std::pair<Matrix, Matrix> coinpress_steps_audit_pair(const mechanisms::CoinpressRequest &claim,
                                                     int64_t changed_rows) {
  const mechanisms::CoinpressReceipt plan = mechanisms::coinpress_plan(claim);
  if (plan.n < 2 || plan.dim < 2)
    fail(Status::InvalidArgument, "the audit's pair needs n >= 2 and d >= 2, got n = ", plan.n,
         ", d = ", plan.dim);
  const double gamma = plan.clip_radius;
  // Each step shrinks A by at most (||Z_i|| + eta)^{-1/2}, and ||Z_i|| stays near ||M_i|| <=
  // gamma^2 (the audit's noise is far smaller): 10^6 sqrt(K) (1 + gamma)^t keeps every row's
  // image at least 10^6 gamma at every step, as the shift measured against the sensitivity
  // confirms.
  const double far =
      1e6 * std::sqrt(plan.k_bound) * std::pow(1.0 + gamma, static_cast<double>(plan.steps));
  if (!(far * far < std::numeric_limits<double>::max()))
    fail(Status::InvalidArgument, "K = ", plan.k_bound, " and t = ", plan.steps,
         " are too large for the audit's pair: its far rows must have a finite square");
  if (changed_rows < 1 || changed_rows > plan.n)
    fail(Status::InvalidArgument, "the audit's pair changes 1 to n = ", plan.n, " rows, got ",
         changed_rows);
  Matrix x(plan.n, plan.dim);
  for (int64_t i = changed_rows; i < plan.n; ++i) x(i, i % plan.dim) = far;
  Matrix x_prime = x;
  for (int64_t i = 0; i < changed_rows; ++i) {
    x(i, 0) = far;
    x_prime(i, 1) = far;
  }
  return {std::move(x), std::move(x_prime)};
}

CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                const std::pair<Matrix, Matrix> &pair,
                                                const TranscriptRelease &release, int64_t trials,
                                                double alpha, uint64_t seed, double claimed_rho) {
  check_transcript_audit(trials, alpha);
  CoinpressStepsAuditReport report;
  report.claim = mechanisms::coinpress_plan(claim);
  if (claimed_rho > 0.0) {
    report.claim.rho = claimed_rho;
    report.claim.epsilon = privacy::zcdp_epsilon(claimed_rho, report.claim.delta);
  }
  for (const Matrix *rows : {&pair.first, &pair.second})
    if (rows->rows() != report.claim.n || rows->cols() != report.claim.dim)
      fail(Status::Dimension, "each dataset of the audited pair must be n x d = ", report.claim.n,
           " x ", report.claim.dim, ", got ", rows->rows(), " x ", rows->cols());
  // Every entry of M_i is at most gamma^2 in magnitude.
  const double gamma = report.claim.clip_radius;
  for (double sigma : report.claim.step_sigma)
    require_noise_above_rounding(sigma, gamma * gamma, "the CoinPress covariance audit");
  const auto direction = [&report, &release](const Matrix &own, const Matrix &other, int64_t n,
                                             double a, uint64_t s) {
    return audit_direction(report.claim, release, own, other, n, a, s);
  };
  audit_both_directions(pair, direction, trials, alpha, seed, report);
  return report;
}

CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                const TranscriptRelease &release, int64_t trials,
                                                double alpha, uint64_t seed) {
  check_transcript_audit(trials, alpha);
  return audit_coinpress_steps(claim, coinpress_steps_audit_pair(claim), release, trials, alpha,
                               seed);
}

TranscriptRelease coinpress_library_transcript(const mechanisms::CoinpressRequest &claim) {
  const mechanisms::CoinpressSteps steps =
      mechanisms::coinpress_steps(mechanisms::coinpress_plan(claim));
  return [steps](const Matrix &rows, random::Rng &rng) {
    std::vector<Matrix> transcript;
    mechanisms::coinpress_run(rows.view(), steps, rng, &transcript);
    return transcript;
  };
}

CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                int64_t trials, double alpha, uint64_t seed) {
  return audit_coinpress_steps(claim, coinpress_library_transcript(claim), trials, alpha, seed);
}

}  // namespace dpcov::audit
