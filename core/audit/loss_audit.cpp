#include "loss_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../error.hpp"
#include "../math/chi_square.hpp"
#include "../privacy/analytic_gaussian.hpp"
#include "distributions.hpp"
#include "power.hpp"
#include "trials.hpp"

namespace dpcov::audit {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Relative tolerance of the pure-epsilon rule: each log-density is a sum of O(d^2) terms whose
// rounding error is a few ulps of their magnitudes; 1e-9 is far above that and far below any
// privacy-relevant excess.
constexpr double kLossTolerance = 1e-9;
// The randomised tests per direction and checkpoint: delta bound, Gaussian pair, conformance.
constexpr int kTestsPerLook = 3;

double gaussian_cdf(double x, const double *) { return normal_cdf(x); }
double laplace_unit_cdf(double x, const double *) { return laplace_cdf(x); }
double chi_square_cdf_param(double x, const double *dof) { return math::chi_square_cdf(x, dof[0]); }
double uniform_cdf(double x, const double *) { return std::clamp(x, 0.0, 1.0); }

// Everything one direction accumulates: draws from M(from), losses against `to`.
class Direction {
 public:
  Direction(const Target &target, ConstMatrixView from, int64_t n_from, ConstMatrixView to,
            int64_t n_to, random::Rng rng)
      : target_(target), from_(from), to_(to), n_from_(n_from), n_to_(n_to),
        rng_(std::move(rng)) {
    result_.max_loss = -kInf;
    if (target.noise.family != NoiseFamily::Unknown) {
      base_ = noise_base(target.noise, from);
      if (target.noise.family == NoiseFamily::Gaussian) {
        const Matrix base_to = noise_base(target.noise, to);
        const int64_t d = base_.rows();
        direction_ = Matrix(d, d);
        double sum = 0.0;
        for (int64_t j = 0; j < d; ++j)
          for (int64_t i = 0; i <= j; ++i) {
            direction_(i, j) = base_to(i, j) - base_(i, j);
            sum += direction_(i, j) * direction_(i, j);
          }
        result_.pair_distance = std::sqrt(sum);
      }
    }
  }

  // Draws until `count` draws are done or a finding that needs no statistics (pure-epsilon loss,
  // own-support miss) appears.
  void draw_until(int64_t count, bool stop_at_finding) {
    const bool pure = target_.delta == 0.0;
    while (result_.samples < count) {
      const Output out = target_.release(from_, n_from_, rng_);
      ++result_.samples;
      if (out.refused) ++result_.refusals;
      const double own = target_.log_density(out, from_, n_from_);
      if (!(own > -kInf)) {
        ++result_.own_support_misses;
        result_.findings |= kSamplerMismatch;
        if (stop_at_finding) return;
        continue;
      }
      const double other = target_.log_density(out, to_, n_to_);
      const double loss = other == -kInf ? kInf : own - other;
      record_loss(loss);
      if (target_.noise.family != NoiseFamily::Unknown) record_noise(out);
      if (pure && (loss == kInf || loss > target_.epsilon + kLossTolerance * (1.0 + std::fabs(own) +
                                                                              std::fabs(other)))) {
        result_.findings |= kLossAboveEpsilon;
        if (stop_at_finding) return;
      }
    }
  }

  // The randomised tests on the draws so far, each at level alpha.
  void evaluate(double alpha) {
    const int64_t m = result_.samples;
    if (m < 2) return;
    const double variance = m_squares_ / static_cast<double>(m - 1);
    result_.delta = empirical_bernstein(mean_, variance, m, 1.0, alpha);
    result_.exceed = {static_cast<double>(result_.exceedances) / static_cast<double>(m),
                      clopper_pearson_lower(result_.exceedances, m, alpha),
                      clopper_pearson_upper(result_.exceedances, m, alpha)};
    const bool pure = target_.delta == 0.0;
    if (!pure && result_.delta.lower > target_.delta) result_.findings |= kDeltaExceeded;
    result_.detectable_delta = pure ? detectable_violation_probability(m)
                                    : detectable_delta_bernstein(target_.delta, m, alpha);
    if (result_.pair_distance > 0.0 && projection_count_ > 0 && projection_squares_ > 0.0) {
      const double q = math::chi_square_quantile(alpha, static_cast<double>(projection_count_));
      // Capped at the largest double, a bound every finite noise meets: at a tiny alpha the
      // quantile underflows and the quotient was infinite (Status::NonFinite at alpha = 1e-311).
      result_.sigma_upper =
          std::min(std::sqrt(projection_squares_ / q), std::numeric_limits<double>::max());
      result_.gaussian_delta_lower = privacy::analytic_gaussian_delta(
          result_.sigma_upper, target_.epsilon, result_.pair_distance);
      if (!pure && result_.gaussian_delta_lower > target_.delta)
        result_.findings |= kGaussianProfileExceeded;
    }
    if (!values_.empty()) {
      std::vector<double> sorted = values_;
      result_.conformance_values = static_cast<int64_t>(sorted.size());
      result_.conformance_distance = ks_distance(sorted, cdf_, cdf_parameters_);
      result_.conformance_threshold = dkw_threshold(result_.conformance_values, alpha);
      if (result_.conformance_distance > result_.conformance_threshold)
        result_.findings |= kSamplerMismatch;
    }
  }

  const DirectionResult &result() const { return result_; }

 private:
  void record_loss(double loss) {
    result_.max_loss = std::max(result_.max_loss, loss);
    if (loss == kInf) ++result_.infinite_losses;
    if (loss > target_.epsilon) ++result_.exceedances;
    // (1 - e^{eps - L})_+ = -expm1(eps - L) for L > eps, 1 for L = +inf.
    const double h = loss == kInf ? 1.0 : std::max(0.0, -std::expm1(target_.epsilon - loss));
    // Welford's update of the mean and the sum of squared deviations.
    const double k = static_cast<double>(result_.samples);
    const double step = h - mean_;
    mean_ += step / k;
    m_squares_ += step * (h - mean_);
  }

  void record_noise(const Output &released) {
    const NoiseModel &noise = target_.noise;
    if (noise.family == NoiseFamily::ClaimedLaw) {
      uniforms_.clear();
      target_.transforms(released, from_, n_from_, uniforms_);
      for (const double u : uniforms_) push_value(u, uniform_cdf);
      return;
    }
    const Matrix &out = released.matrix;
    const int64_t d = base_.rows();
    if (noise.family == NoiseFamily::Wishart) {
      double trace = 0.0;
      for (int64_t i = 0; i < d; ++i) trace += out(i, i) - base_(i, i);
      push_value(trace / noise.scale, chi_square_cdf_param);
      cdf_parameters_[0] = noise.dof * static_cast<double>(d);
      return;
    }
    double projection = 0.0;
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        const double e = out(i, j) - base_(i, j);
        push_value(e / noise.scale,
                   noise.family == NoiseFamily::Gaussian ? gaussian_cdf : laplace_unit_cdf);
        if (result_.pair_distance > 0.0) projection += e * direction_(i, j);
      }
    if (result_.pair_distance > 0.0) {
      projection /= result_.pair_distance;
      projection_squares_ += projection * projection;
      ++projection_count_;
    }
  }

  void push_value(double value, double (*cdf)(double, const double *)) {
    cdf_ = cdf;
    if (values_.size() < kMaxConformanceValues) values_.push_back(value);
  }

  const Target &target_;
  ConstMatrixView from_, to_;
  int64_t n_from_, n_to_;
  random::Rng rng_;
  Matrix base_, direction_;
  DirectionResult result_;
  double mean_ = 0.0, m_squares_ = 0.0;
  double projection_squares_ = 0.0;
  int64_t projection_count_ = 0;
  std::vector<double> values_;
  std::vector<double> uniforms_;
  double (*cdf_)(double, const double *) = nullptr;
  double cdf_parameters_[1] = {0.0};
};

}  // namespace

void check_settings(const Settings &s) {
  check_trials(s.trials, 2, "audit trials");
  if (s.first_checkpoint < 2 || s.first_checkpoint > s.trials)
    fail(Status::InvalidArgument, "audit first_checkpoint must be in [2, trials = ", s.trials,
         "], got ", s.first_checkpoint);
  if (!(s.alpha > 0.0) || !(s.alpha < 1.0))
    fail(Status::InvalidArgument, "audit alpha must be in (0, 1), got ", s.alpha);
}

namespace {

std::vector<int64_t> checkpoints(const Settings &s) {
  std::vector<int64_t> looks;
  for (int64_t c = s.first_checkpoint; c < s.trials; c *= 2) looks.push_back(c);
  looks.push_back(s.trials);
  return looks;
}

}  // namespace

const DirectionResult &AuditReport::worst() const {
  return backward.delta.lower > forward.delta.lower ? backward : forward;
}

AuditReport run_exact_audit(const Target &target, const PairStatistics &pair,
                            const Settings &settings) {
  check_settings(settings);
  if (target.noise.family == NoiseFamily::ClaimedLaw && !target.transforms)
    fail(Status::InvalidArgument, "audit target ", target.name,
         " claims its own law for conformance but has no transforms");
  const std::vector<int64_t> looks = checkpoints(settings);
  AuditReport report;
  report.name = target.name;
  report.epsilon = target.epsilon;
  report.delta = target.delta;
  report.noise = target.noise.family;
  report.alpha_per_test =
      settings.alpha / static_cast<double>(2 * kTestsPerLook * looks.size());

  const random::Rng root = random::Rng::from_seed(settings.seed);
  Direction forward(target, pair.gram.view(), pair.n, pair.gram_prime.view(), pair.n_prime,
                    root.substream(0));
  Direction backward(target, pair.gram_prime.view(), pair.n_prime, pair.gram.view(), pair.n,
                     root.substream(1));
  for (const int64_t look : looks) {
    const bool stop = settings.stop_at_first_finding;
    forward.draw_until(look, stop);
    if (!stop || forward.result().findings == 0) backward.draw_until(look, stop);
    forward.evaluate(report.alpha_per_test);
    backward.evaluate(report.alpha_per_test);
    report.findings = forward.result().findings | backward.result().findings;
    if (stop && report.findings != 0) break;
  }
  report.forward = forward.result();
  report.backward = backward.result();
  report.samples = report.forward.samples + report.backward.samples;
  report.detectable_delta =
      std::min(report.forward.detectable_delta, report.backward.detectable_delta);
  return report;
}

}  // namespace dpcov::audit
