// The statistics of an exact audit of a release made of steps that are each Gaussian given the
// earlier steps' outputs (CoinPress mean, core/audit/coinpress_mean_audit.hpp, and covariance,
// core/audit/coinpress_steps_audit.hpp). Step i of a release drawn on X outputs y_i ~ N(m_i, sigma_i^2 I)
// where m_i (and m'_i on the neighbour X') is recomputed by the audit from the claimed plan and the
// released y_1..y_{i-1}, so the privacy loss of the whole transcript on (X, X') is
//   L = sum_i (||y_i - m'_i||^2 - ||y_i - m_i||^2) / (2 sigma_i^2).
// Three statistics per direction (draws from X against X'):
// - conformance: the standardised residuals (y_i - m_i) / sigma_i, every coordinate of every step,
//   against N(0, 1) (Kolmogorov-Smirnov, DKW threshold);
// - Gaussian pair: the residual projected on the direction of m'_i - m_i has variance s_i^2 (the
//   sampler's, whatever the claim); sum z^2 / s_i^2 ~ chi2(trials) gives an upper confidence bound
//   s_up_i, and sum_i min ||m'_i - m_i||^2 / (2 s_up_i^2) is a lower confidence bound on the rho
//   the implementation spends on this pair: flagged above the claimed rho;
// - loss, at half the test's alpha: delta(eps) = E[(1 - e^{eps - L})_+] from L, empirical-Bernstein
//   lower bound, flagged above the claimed delta. L is the claim's loss, so this is the claim's
//   delta(eps) whenever the draws follow the claim, and it falls when they are less noisy (L then
//   has the claim's mean and a smaller spread): it sees only a release whose means are far from
//   the claim's (proofs/coinpress.md, "Audits");
// - two-sample delta, at the other half: P(L > eps) over the draws from X and over those from X'
//   (L is a function of the output, the same on both), Clopper-Pearson bounds, so
//   P_low - e^eps Q_up is a lower confidence bound on the implementation's own delta(eps) of the
//   pair, whatever its law. A release of steps that are Gaussian at the claimed sigma_i, with
//   shifts at most their sensitivities, is a composition of Gaussian mechanisms of total rho: its
//   delta(eps) on any pair is at most that of one Gaussian pair at mu = sqrt(2 rho), Phi(mu / 2 -
//   eps / mu) - e^eps Phi(-mu / 2 - eps / mu) (Dong, Roth, Su 2022, Cor. 2.1 with Balle and Wang
//   2018, Thm 8). Flagged where the lower bound exceeds that curve at eps in {0, mu, 2 mu, 3 mu}
//   (the largest excess reported); the grid starts at 0, where a zCDP release's delta is
//   largest and so best measured (the receipt's epsilon has a delta that no feasible draw count
//   resolves), each point and bound at alpha / 16.
// Each is a one-sided test at the alpha it is given. An audit runs both directions of its pair
// (draws from X against X', and from X' against X; the two-sample statistic of a direction uses
// both directions' draws), alpha split evenly (Bonferroni) over 2 directions x 3 statistics: a
// release that matches its claim is flagged with probability <= alpha.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "../matrix.hpp"
#include "confidence.hpp"

namespace dpcov::audit {

// The two-sample delta(eps) at the grid point where it exceeds the claim's curve most.
struct TwoSampleDelta {
  double epsilon = 0.0;
  double estimate = 0.0, lower = 0.0;  // P - e^eps Q: observed, lower confidence bound
  double claim = 0.0;                  // the claim's Gaussian curve at epsilon
};

struct TranscriptDirection {
  double ks = 0.0, ks_threshold = 0.0;
  double rho_lower = 0.0;
  MeanBounds delta;
  double detectable_delta = 1.0;  // the delta test's power at these releases (power.hpp)
  TwoSampleDelta two_sample;
  double min_shift_ratio =
      0.0;  // min over steps and draws of ||m'_i - m_i|| / the step's given scale
  std::vector<double> losses;  // L of each release: the two-sample statistic's input
  bool conformance_flag = false, pair_flag = false, delta_flag = false, two_sample_flag = false;
  bool flagged() const { return conformance_flag || pair_flag || delta_flag || two_sample_flag; }
};

// Accumulates the releases drawn in one direction.
class GaussianTranscript {
 public:
  // sigma_i of each step (the claim's), and the claimed epsilon at which delta(eps) is measured.
  GaussianTranscript(std::vector<double> step_sigma, double epsilon);

  // Step i of the current release: its output y, its mean m on the dataset drawn from and m' on
  // the other (same length). `scale` > 0 is what the shift is reported against (min_shift_ratio).
  void step(int64_t i, const std::vector<double> &y, const std::vector<double> &m,
            const std::vector<double> &m_other, double scale = 1.0);
  // Ends the current release (after its last step).
  void end_release();

  // The statistics over the releases so far (>= 2), each tested at `alpha` (the two-sample
  // statistic is add_two_sample_delta's, once both directions are drawn).
  TranscriptDirection result(double rho, double delta, double alpha);

 private:
  std::vector<double> sigma_;
  double epsilon_;
  int64_t releases_ = 0;
  double loss_ = 0.0;
  std::vector<double> losses_;
  std::vector<double> standardised_;
  std::vector<double> projected_squares_, min_shift_;
  double min_shift_ratio_;
  double hockey_sum_ = 0.0, hockey_squares_ = 0.0;
};

// The audit of both directions against the plan `claim` of the claimed request.
template <class Receipt>
struct TranscriptAuditReport {
  Receipt claim;
  TranscriptDirection forward, backward;
  int64_t samples = 0;  // releases over both directions
  double alpha_per_test = 0.0;
  bool violation() const { return forward.flagged() || backward.flagged(); }
};

// The tests of an audit, over which alpha is split: 2 directions x 3 statistics.
inline constexpr double kTranscriptTests = 6.0;

// Throws Status::InvalidArgument for trials < 2 or alpha outside (0, 1).
void check_transcript_audit(int64_t trials, double alpha);

// The two-sample delta statistic of `own` (drawn from X, losses against X') with the draws of
// `other` (from X', losses against X, so -L on X against X'), against the claimed total rho, at
// the statistic's share `alpha` of the test; sets own.two_sample and own.two_sample_flag.
void add_two_sample_delta(TranscriptDirection &own, const TranscriptDirection &other, double rho,
                          double alpha);

// The draws of one direction: `trials` releases on `own` from Rng::from_seed(seed), loss against
// `other`, each statistic at `alpha`.
using TranscriptDirectionAudit = std::function<TranscriptDirection(
    const Matrix &own, const Matrix &other, int64_t trials, double alpha, uint64_t seed)>;

// Fills `report`'s directions on the pair (X, X'): forward from `seed`, backward from seed + 1.
template <class Receipt>
void audit_both_directions(const std::pair<Matrix, Matrix> &pair,
                           const TranscriptDirectionAudit &direction, int64_t trials, double alpha,
                           uint64_t seed, TranscriptAuditReport<Receipt> &report) {
  report.alpha_per_test = alpha / kTranscriptTests;
  // Before any draw: a level that rounds to 0 (alpha near the smallest double, or split over
  // many pairs) is refused naming alpha, not by a statistic deep inside.
  if (!(report.alpha_per_test > 0.0))
    fail(Status::InvalidArgument, "alpha = ", alpha, " is too small: each of the ",
         kTranscriptTests, " tests' share of it rounds to 0");
  report.forward = direction(pair.first, pair.second, trials, report.alpha_per_test, seed);
  report.backward = direction(pair.second, pair.first, trials, report.alpha_per_test, seed + 1);
  add_two_sample_delta(report.forward, report.backward, report.claim.rho,
                       report.alpha_per_test / 2.0);
  add_two_sample_delta(report.backward, report.forward, report.claim.rho,
                       report.alpha_per_test / 2.0);
  report.samples = 2 * trials;
}

}  // namespace dpcov::audit
