// The exact-density audit: draws o ~ M(D) from the implementation and evaluates the privacy loss
// L(o) = log p_D(o) - log p_D'(o) with the claimed log-density (+infinity when o is outside the
// support under D'), in both directions (draws from D against D', and from D' against D). On the
// same draws it runs the sampler-conformance test and, for Gaussian noise, the one-dimensional
// Gaussian-pair bound. It can only find violations: "no violation found" is not evidence of
// privacy beyond the pair, the trial count and the statistics it looked at.
//
// Statistics and error rates (alpha = Settings::alpha is the probability, over the audit's own
// randomness, that a mechanism whose implementation matches its claim is flagged):
// - P(L > eps): Clopper-Pearson, reported (not a verdict criterion: it bounds delta from above).
// - delta(eps) = E[(1 - e^{eps - L})_+] (Balle et al. 2018 / the "hockey-stick" form; 1 when
//   L = +inf), a variable in [0, 1]: empirical-Bernstein lower and upper bounds (Maurer-Pontil
//   2009, Thm 4). Flagged when the lower bound exceeds the claimed delta.
// - Pure claims (delta = 0): flagged on any L = +infinity or finite L > eps + tolerance, where
//   tolerance = 1e-9 (1 + |log p_D| + |log p_D'|) covers the rounding of the two log-densities. No
//   randomness in this rule: a correct eps-DP density ratio never exceeds e^eps.
// - Sampler conformance (noise family known): the Kolmogorov-Smirnov distance of the standardised
//   noise (Gaussian, Laplace: every upper-triangle entry of released - base; Wishart:
//   tr(released - G) / scale, which is chi2(dof d); ClaimedLaw: the target's probability integral
//   transforms of each draw, which are iid Uniform(0, 1) under the claimed law) to its claimed
//   distribution, against the DKW threshold; also flagged if a draw has log p_D(o) = -infinity
//   (outside its own support).
// - Refusals (a mechanism that released nothing) are outcomes with probability P_D(refusal): their
//   loss is ln P_D(refusal) - ln P_D'(refusal), from the target's log-density.
// - Gaussian pair (Gaussian noise): the privacy loss of a Gaussian pair depends on the noise only
//   through its projection z = <noise, Delta> / ||Delta|| on the direction Delta of
//   base(D') - base(D) (upper triangle). With the sampler's projected variance s^2, the exact
//   delta of the pair is the analytic-Gaussian profile delta(s; eps, ||Delta||) (Balle & Wang 2018,
//   Thm 8). sum z^2 / s^2 ~ chi2(m) over m draws gives the upper confidence bound
//   s_up = sqrt(sum z^2 / chi2_quantile(alpha', m)); delta(s_up) is a lower confidence bound on
//   the pair's delta, valid when the projected noise is Gaussian with mean 0 (the conformance
//   test checks the same draws). Flagged when it exceeds the claimed delta. It estimates the
//   privacy of the sampler actually run, not of the claimed density.
// Checkpoints: the audit looks at its draws after first_checkpoint, 2 first_checkpoint, ...,
// trials draws per direction and stops at the first finding. alpha is split evenly (Bonferroni)
// over 2 directions x checkpoints x 3 randomised tests.
#pragma once

#include <cstdint>

#include "confidence.hpp"
#include "target.hpp"

namespace dpcov::audit {

struct Settings {
  int64_t trials = 2000;          // maximum draws per direction, >= 2
  int64_t first_checkpoint = 100; // draws per direction at the first look, in [2, trials]
  double alpha = 1e-6;            // in (0, 1)
  uint64_t seed = 0;
  // Stop at the first finding (the sample count then says how many draws the verdict needed);
  // false draws all `trials` for estimates, still stopping nothing but reporting every finding.
  bool stop_at_first_finding = true;
};

// The statistics (G, n) of a neighbouring pair.
struct PairStatistics {
  Matrix gram;
  Matrix gram_prime;
  int64_t n = 0;
  int64_t n_prime = 0;
};

// Bits of AuditReport::findings (the same values as dpcov_audit_finding).
enum Finding : uint32_t {
  kLossAboveEpsilon = 1u,        // pure claim: L = +inf or L > eps + tolerance observed
  kDeltaExceeded = 2u,           // lower bound on delta(eps) above the claimed delta
  kGaussianProfileExceeded = 4u, // Gaussian-pair lower bound above the claimed delta
  kSamplerMismatch = 8u,         // conformance test rejected, or a draw outside its own support
};

struct DirectionResult {
  int64_t samples = 0;
  int64_t infinite_losses = 0;  // L = +inf: o outside the support under the other dataset
  int64_t exceedances = 0;      // L > eps (infinite included)
  int64_t own_support_misses = 0;
  int64_t refusals = 0;         // outcomes where the mechanism released nothing
  double max_loss = 0.0;        // largest L seen (+inf possible); -inf before any draw
  MeanBounds exceed;            // P(L > eps), Clopper-Pearson
  MeanBounds delta;             // E[(1 - e^{eps - L})_+], empirical Bernstein
  double pair_distance = 0.0;   // ||Delta|| (Gaussian noise), 0 otherwise
  double sigma_upper = 0.0;     // s_up (Gaussian noise), 0 otherwise
  double gaussian_delta_lower = 0.0;
  int64_t conformance_values = 0;
  double conformance_distance = 0.0;   // KS distance
  double conformance_threshold = 0.0;  // DKW threshold at the per-test alpha
  // The power of these draws (power.hpp): an (eps, delta) claim, the smallest delta(eps) the
  // empirical-Bernstein rule flags; a pure claim, the smallest P(L > eps) seen at least once
  // with probability 1/2. 1 before the first evaluation.
  double detectable_delta = 1.0;
  uint32_t findings = 0;
};

struct AuditReport {
  std::string name;
  double epsilon = 0.0;
  double delta = 0.0;
  NoiseFamily noise = NoiseFamily::Unknown;
  DirectionResult forward;   // draws from M(D), loss against D'
  DirectionResult backward;  // draws from M(D'), loss against D
  uint32_t findings = 0;
  int64_t samples = 0;       // draws over both directions when the verdict was reached
  double alpha_per_test = 0.0;
  double detectable_delta = 1.0;  // the smaller of the two directions' (either one flags)
  bool violation() const { return findings != 0; }
  // The direction with the larger lower bound on delta(eps) (forward on ties).
  const DirectionResult &worst() const;
};

// Throws Status::InvalidArgument unless trials >= 2, first_checkpoint in [2, trials] and alpha in
// (0, 1).
void check_settings(const Settings &settings);

// Runs the audit of `target` on the pair. Throws Status::InvalidArgument for bad settings and
// whatever the target throws (e.g. a precondition of the mechanism on this pair).
AuditReport run_exact_audit(const Target &target, const PairStatistics &pair,
                            const Settings &settings);

}  // namespace dpcov::audit
