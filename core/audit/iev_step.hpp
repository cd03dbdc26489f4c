// The per-step exact check of IEV's exponential-mechanism steps. The whole IEV release has no
// tractable density, but a step on a two-dimensional space does: at d = 2 the first eigenvector
// step draws theta on the circle S^1 from exp(kappa theta^T G theta) / Z, and
// Z = exp((a1 + a2)/2) I_0((a1 - a2)/2) with a1 >= a2 the eigenvalues of kappa G
// (bingham_circle_log_normaliser, proofs/iev.md "The q = 2 step"). The step is then an ordinary
// mechanism with an exact density, claimed eps_i-DP (pure), and run_exact_audit() applies: the
// privacy loss of every draw against eps_i, and the conformance of the draws with the Bingham law
// through the probability integral transform of their folded angle
// (bingham_circle_angle_cdf). The draws come from the real release (release_eigenvector_sampling),
// so the check covers the budget split, the exponent, the eigenbasis and the Bingham sampler.
#pragma once

#include "../mechanisms/request.hpp"
#include "target.hpp"

namespace dpcov::audit {

// The exponent kappa_1 of the first eigenvector step as the release computes it (uniform split:
// a function of the plan alone).
double iev_first_step_exponent(const mechanisms::Request &request);

// The step target: release = theta_1 of an IEV release (a 2 x 1 matrix, unit norm, sign as
// drawn), claim = (epsilon_step of the plan, 0), log-density = the normalised step density with
// respect to the uniform probability measure on S^1, noise = ClaimedLaw (the folded angle's
// transform). Requires request.dim == 2 and the uniform budget split (the default); throws
// Status::InvalidArgument otherwise and the plan's statuses for the rest.
Target iev_circle_step_target(const mechanisms::Request &request);

// The claimed step law's pieces, for callers that pair the claim with another sampler (the power
// check of an accept-everything Bingham step): the normalised log-density of theta (2 values) and
// the transform of its folded angle, given G (2 x 2) and kappa.
double circle_step_log_density(const double *theta, ConstMatrixView gram, double kappa);
double circle_step_angle_transform(const double *theta, ConstMatrixView gram, double kappa);

}  // namespace dpcov::audit
