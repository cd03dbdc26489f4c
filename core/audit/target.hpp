// What the auditor audits: an implementation (a release function that draws) and its claim (the
// privacy it says it gives, the log-density it says its outputs have, and the noise family it says
// it draws). The claim and the implementation are separate on purpose: for a dpcov mechanism both
// come from the mechanism dispatch, but a test can pair a claim with a deliberately broken
// implementation to check that the auditor catches it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/mechanism.hpp"
#include "../mechanisms/registry.hpp"
#include "../random/rng.hpp"

namespace dpcov::audit {

// The noise distribution a mechanism claims to add, as far as the sampler-conformance test knows
// it. Unknown means no conformance test is available for the mechanism (the exact-density audit
// still runs).
enum class NoiseFamily : int32_t {
  Unknown = 0,
  Gaussian = 1,  // iid N(0, scale^2) on the upper triangle of released - base
  Laplace = 2,   // iid Laplace(scale) on the upper triangle of released - base
  Wishart = 3,   // released - base ~ W_d(dof, scale I)
  // The mechanism's own law, through Target::transforms: probability integral transforms of each
  // release that are iid Uniform(0, 1) exactly when the sampler draws the claimed law's
  // statistics (Bartlett factors of a Wishart part, the Laplace test value, an angle).
  ClaimedLaw = 4,
};

// What the noise is added to: the registry's (a mechanism's entry says it).
using NoiseBase = mechanisms::NoiseBase;

struct NoiseModel {
  NoiseFamily family = NoiseFamily::Unknown;
  NoiseBase base = NoiseBase::Gram;
  double scale = 0.0;
  double dof = 0.0;
};

const char *noise_family_name(NoiseFamily family);

// The noise a dpcov mechanism claims: its registry entry's noise law with the receipt's constants;
// ClaimedLaw for a mechanism whose row of the audit table (audit_table.hpp) has claimed-law
// transforms (the Johnson-Lindenstrauss, inverse-Wishart and OLS mechanisms); Unknown otherwise
// (audited by density alone).
NoiseModel claimed_noise(mechanisms::MechanismId mechanism, const mechanisms::Receipt &receipt);

// Probability integral transforms of a Wishart draw: with scale = L L^T and W_std = L^{-1} w L^{-T}
// ~ W_d(dof, I) = T T^T (Bartlett: T lower triangular, T_ii^2 ~ chi2(dof - i) for i = 0..d-1,
// T_ij ~ N(0, 1) below the diagonal, all independent), appends the chi-square CDF of each T_ii^2
// and the normal CDF of each T_ij: d (d + 1) / 2 iid Uniform(0, 1) values when w ~ W_d(dof,
// scale). Needs dof > d - 1 and scale positive definite; appends nothing if w is not positive
// definite (outside the support: the density audit counts that draw).
void wishart_bartlett_transforms(const Matrix &w, double dof, const Matrix &scale,
                                 std::vector<double> &uniforms);

// base(G): G itself or G^{-1}.
Matrix noise_base(const NoiseModel &noise, ConstMatrixView gram);

// One release: the matrix and, for propose-test-release mechanisms, the released test value. A
// refusal (the mechanism released nothing: Status::Refused) is an outcome too, an atom of the
// output law: `refused` is set and the matrix is empty.
struct Output {
  Matrix matrix;
  double test_value = 0.0;
  bool refused = false;
};

struct Target {
  std::string name;
  double epsilon = 0.0;  // the claimed guarantee
  double delta = 0.0;    // 0 for a pure epsilon claim
  NoiseModel noise;      // the claimed noise
  // The implementation: one release of the statistic of n rows.
  std::function<Output(ConstMatrixView gram, int64_t n, random::Rng &rng)> release;
  // The claimed natural-log density of a release given the statistic of n rows (-inf outside the
  // support). A refusal is an atom: its "density" is ln P(refusal), with respect to the counting
  // measure on the atom (the sum of that and Lebesgue measure on releases dominates both laws, so
  // L is the true privacy loss on either kind of outcome).
  std::function<double(const Output &released, ConstMatrixView gram, int64_t n)> log_density;
  // NoiseFamily::ClaimedLaw only: appends to `uniforms` the probability integral transforms of a
  // release under the claimed law given the statistic (none for a refusal); iid Uniform(0, 1)
  // over draws exactly when the implementation samples those statistics from the claimed law.
  std::function<void(const Output &released, ConstMatrixView gram, int64_t n,
                     std::vector<double> &uniforms)>
      transforms;
};

// The target of a dpcov mechanism: release and log-density through the mechanism dispatch (so
// every mechanism added there is auditable), the claim from its plan. `request.n` is replaced by
// the n of each call. A mechanism whose plan has a private test (test_epsilon > 0) is evaluated
// with the joint density of its test value and matrix (mechanisms::log_density_tested). The
// analytic Gaussian's unit sigma is calibrated once, here, and reused by every draw's plan.
Target mechanism_target(mechanisms::MechanismId mechanism, const mechanisms::Request &request);

}  // namespace dpcov::audit
