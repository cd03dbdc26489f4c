#include "adassp_units.hpp"

#include <cmath>
#include <utility>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/analytic_gaussian.hpp"
#include "../privacy/unit_bound.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::AdasspReceipt;

// The blocks of adassp_statistics().
struct Blocks {
  Matrix xtx;
  std::vector<double> xty;
  double yty = 0.0;
};

Blocks blocks(ConstMatrixView s) {
  const int64_t p = s.rows - 1;
  Blocks b{Matrix(p, p), std::vector<double>(static_cast<size_t>(p)), s(p, p)};
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) b.xtx(i, j) = s(i, j);
    b.xty[static_cast<size_t>(j)] = s(j, p);
  }
  return b;
}

double gram_sigma(const AdasspReceipt &plan, int64_t i, int64_t j) {
  return i == j ? plan.sigma_gram : plan.sigma_gram_off_diagonal;
}

// Each released coordinate's noise standardised by the claimed scale, through Phi.
void noise_transforms(const AdasspReceipt &claimed, const Output &out, ConstMatrixView s,
                      std::vector<double> &uniforms) {
  const Blocks exact = blocks(s);
  const int64_t p = claimed.dim;
  if (claimed.lambda_min_released) {
    const double lambda = linalg::eigvalsh(exact.xtx).front();
    uniforms.push_back(normal_cdf((out.test_value - lambda) / claimed.sigma_lambda_min));
  }
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i)
      uniforms.push_back(normal_cdf((out.matrix(i, j) - s(i, j)) / gram_sigma(claimed, i, j)));
  for (int64_t i = 0; i < p; ++i)
    uniforms.push_back(normal_cdf((out.matrix(i, p) - s(i, p)) / claimed.sigma_cross));
  if (claimed.label_square)
    uniforms.push_back(normal_cdf((out.matrix(p, p) - s(p, p)) / claimed.sigma_label_square));
}

Target adassp_target(const AdasspReceipt &claimed, const AdasspReceipt &sampling) {
  Target t;
  t.name = "adassp";
  t.epsilon = claimed.epsilon;
  t.delta = claimed.delta;
  t.noise.family = NoiseFamily::ClaimedLaw;
  t.release = [sampling](ConstMatrixView s, int64_t, random::Rng &rng) {
    const Blocks exact = blocks(s);
    const mechanisms::AdasspFit fit =
        mechanisms::fit_adassp(exact.xtx, exact.xty, exact.yty, sampling, rng);
    Output out{adassp_statistics(fit.xtx, fit.xty, fit.yty), fit.lambda_min_noisy, false};
    return out;
  };
  t.log_density = [claimed](const Output &out, ConstMatrixView s, int64_t) {
    const Blocks released = blocks(out.matrix.view());
    const Blocks exact = blocks(s);
    return mechanisms::log_density_adassp(out.test_value, released.xtx, released.xty,
                                          released.yty, exact.xtx, exact.xty, exact.yty, claimed);
  };
  t.transforms = [claimed](const Output &out, ConstMatrixView s, int64_t,
                           std::vector<double> &uniforms) {
    noise_transforms(claimed, out, s, uniforms);
  };
  return t;
}

void check_dim(int64_t p) {
  if (p < 1 || p > kMaxAdasspAuditDim)
    fail(Status::Dimension, "an AdaSSP audit takes p in [1, ", kMaxAdasspAuditDim, "], got ", p);
}

void add_rows(Matrix &s, int64_t axis, double bound, double y, int64_t count) {
  const int64_t p = s.rows() - 1;
  const double c = static_cast<double>(count);
  s(axis, axis) += c * bound * bound;
  s(axis, p) += c * bound * y;
  s(p, axis) = s(axis, p);
  s(p, p) += c * y * y;
}

}  // namespace

Matrix adassp_statistics(const Matrix &xtx, const std::vector<double> &xty, double yty) {
  const int64_t p = xtx.rows();
  Matrix s(p + 1, p + 1);
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) s(i, j) = xtx(i, j);
    s(j, p) = s(p, j) = xty[static_cast<size_t>(j)];
  }
  s(p, p) = yty;
  return s;
}

double adassp_pair_distance(const PairStatistics &pair, const AdasspReceipt &plan) {
  const Blocks a = blocks(pair.gram.view()), b = blocks(pair.gram_prime.view());
  double m2 = 0.0;
  if (plan.lambda_min_released) {
    const double dl = linalg::eigvalsh(a.xtx).front() - linalg::eigvalsh(b.xtx).front();
    m2 = dl * dl / (plan.sigma_lambda_min * plan.sigma_lambda_min);
  }
  for (int64_t j = 0; j < plan.dim; ++j)
    for (int64_t i = 0; i <= j; ++i)
      m2 += std::pow((a.xtx(i, j) - b.xtx(i, j)) / gram_sigma(plan, i, j), 2);
  for (size_t i = 0; i < a.xty.size(); ++i)
    m2 += std::pow((a.xty[i] - b.xty[i]) / plan.sigma_cross, 2);
  if (plan.label_square) m2 += std::pow((a.yty - b.yty) / plan.sigma_label_square, 2);
  return std::sqrt(m2);
}

AuditReport audit_adassp_pair(const AdasspReceipt &claimed, const AdasspReceipt &sampling,
                              const PairStatistics &pair, const Settings &settings) {
  check_settings(settings);
  check_dim(claimed.dim);
  const double size = static_cast<double>(claimed.dim) + 1.0;
  if (static_cast<double>(settings.trials) * size * size * size > kMaxAdasspAuditWork)
    fail(Status::TooLarge, "an AdaSSP audit of ", settings.trials, " draws at p = ", claimed.dim,
         " is above the cap of 2^40 draws x (p + 1)^3");
  AuditReport report = run_exact_audit(adassp_target(claimed, sampling), pair, settings);
  const double m = adassp_pair_distance(pair, claimed);
  const double exact = privacy::analytic_gaussian_delta(1.0, claimed.epsilon, m);
  for (DirectionResult *d : {&report.forward, &report.backward}) {
    d->pair_distance = m;
    d->gaussian_delta_lower = exact;
    if (exact > claimed.delta) d->findings |= kGaussianProfileExceeded;
  }
  if (exact > claimed.delta) report.findings |= kGaussianProfileExceeded;
  return report;
}

PairStatistics adassp_unit_pair(const AdasspUnitClaim &claim) {
  const int64_t p = claim.dim, k = claim.max_rows_per_unit;
  if (p < 2 || p > kMaxAdasspAuditDim)
    fail(Status::Dimension, "an AdaSSP unit audit takes p in [2, ", kMaxAdasspAuditDim, "], got ",
         p);
  if (k < 1 || k > privacy::kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be in [1, ", privacy::kMaxRowsPerUnit,
         "], got ", k);
  const double b = claim.bound;
  // The largest entry of the pair, y'y of 10 + 2k rows: finite, or the loss is not a number.
  if (!std::isfinite((10.0 + 2.0 * static_cast<double>(k)) * b * b))
    fail(Status::InvalidArgument, "an AdaSSP unit audit at k = ", k, " needs (10 + 2k) bound^2 ",
         "finite, got bound ", b);
  Matrix base(p + 1, p + 1);
  for (int64_t axis = 0; axis < p; ++axis) add_rows(base, axis, b, b, axis == 0 ? 10 : 10 + k);
  Matrix with_unit = base;
  add_rows(with_unit, 0, b, b, k);
  if (claim.neighbour == privacy::Neighbour::AddRemove) return {with_unit, base, 0, 0};
  add_rows(base, 1, b, -b, k);
  return {with_unit, base, 0, 0};
}

AdasspReceipt adassp_unit_plan(const AdasspUnitClaim &claim, bool broken) {
  mechanisms::AdasspOptions options;
  options.neighbour = claim.neighbour;
  options.release_label_square = claim.label_square;
  options.max_rows_per_unit = broken ? 0 : claim.max_rows_per_unit;
  return mechanisms::plan_adassp(claim.dim, claim.bound, claim.bound, claim.epsilon, claim.delta,
                                 options);
}

AuditReport audit_adassp_units(const AdasspUnitClaim &claim, bool broken,
                               const Settings &settings) {
  const AdasspReceipt plan = adassp_unit_plan(claim, broken);
  const PairStatistics pair = adassp_unit_pair(claim);
  AuditReport report = audit_adassp_pair(plan, plan, pair, settings);
  // The claim is the unit-level one whatever calibration the release was drawn at.
  report.epsilon = claim.epsilon;
  report.delta = claim.delta;
  return report;
}

AuditReport audit_adassp_unit_releases(const AdasspUnitClaim &claim, bool broken,
                                       const Settings &settings) {
  Settings half = settings;
  half.alpha = settings.alpha / 2;
  AdasspUnitClaim three = claim, four = claim;
  three.label_square = false;
  four.label_square = true;
  const AuditReport a = audit_adassp_units(three, broken, half);
  half.seed = settings.seed + 1;
  const AuditReport b = audit_adassp_units(four, broken, half);
  const bool pick_b = b.violation() != a.violation()
                          ? b.violation()
                          : b.worst().delta.lower > a.worst().delta.lower;
  AuditReport report = pick_b ? b : a;
  report.findings = a.findings | b.findings;
  report.samples = a.samples + b.samples;
  return report;
}

}  // namespace dpcov::audit
