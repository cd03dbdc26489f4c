#include "gaussian_release_audit.hpp"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../math/chi_square.hpp"
#include "../mechanisms/statistic.hpp"
#include "../random/symmetric_noise.hpp"
#include "distributions.hpp"
#include "trials.hpp"

namespace dpcov::audit::gaussian_release {

Matrix axis_rows(int64_t n, int64_t d, double unit, int64_t changed_axis,
                 std::initializer_list<std::pair<int64_t, int64_t>> counts) {
  Matrix x(n, d);
  x(0, changed_axis) = 2.0 * unit;
  int64_t row = 1;
  for (const auto &[axis, count] : counts)
    for (int64_t k = 0; k < count; ++k) x(row++, axis) = unit;
  return x;
}

Matrix clipped_second_moment(const Matrix &x, double clip) {
  const int64_t n = x.rows(), d = x.cols();
  Matrix s(d, d);
  for (int64_t i = 0; i < n; ++i) {
    double norm = 0.0;
    for (int64_t j = 0; j < d; ++j) norm += x(i, j) * x(i, j);
    norm = std::sqrt(norm);
    const double factor = norm > clip ? clip / norm : 1.0;
    for (int64_t a = 0; a < d; ++a)
      for (int64_t b = 0; b < d; ++b)
        s(a, b) += factor * x(i, a) * factor * x(i, b) / static_cast<double>(n);
  }
  return s;
}

std::vector<double> coordinates(Coordinates kind, const Matrix &m) {
  if (kind == Coordinates::Eigenvalues) return linalg::eigvalsh(m);
  std::vector<double> v;
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) v.push_back(m(i, j));
  return v;
}

std::pair<double, std::vector<double>> Subject::shift() const {
  const std::vector<double> a = coordinates(kind, base[0]), b = coordinates(kind, base[1]);
  std::vector<double> u(a.size());
  double distance = 0.0;
  for (size_t k = 0; k < a.size(); ++k) {
    u[k] = b[k] - a[k];
    distance += u[k] * u[k];
  }
  distance = std::sqrt(distance);
  for (double &v : u) v /= distance;
  return {distance, u};
}

double gaussian_log_density(const std::vector<double> &x, const std::vector<double> &mean,
                            double sigma) {
  double sum = 0.0;
  for (size_t k = 0; k < x.size(); ++k) {
    const double z = (x[k] - mean[k]) / sigma;
    sum += -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2.0 * std::numbers::pi);
  }
  return sum;
}

namespace {

// The auditor's target: `release` on the rows of X or X' (identified by the base the auditor
// passes), with the subject's claim. `pair` holds the bases.
Target target(const Subject &s, const PairStatistics &pair, const Release &release,
              Record &record) {
  Target t;
  t.name = s.name;
  t.epsilon = s.epsilon;
  t.delta = s.delta;
  t.noise = s.kind == Coordinates::UpperTriangle
                ? NoiseModel{NoiseFamily::Gaussian, NoiseBase::Gram, s.sigma, 0.0}
                : NoiseModel{NoiseFamily::ClaimedLaw, NoiseBase::Gram, 0.0, 0.0};
  const std::vector<double> u = s.shift().second;
  t.release = [&s, &pair, &record, release, u](ConstMatrixView base, int64_t, random::Rng &rng) {
    const int which = base.data == pair.gram.data() ? 0 : 1;
    Matrix out = release(s.rows[which].view(), rng);
    const double tolerance = 1e-9 * s.unit * s.unit;
    for (const double v : linalg::eigvalsh(out))
      if (!(v > s.lower + tolerance && v < s.upper - tolerance)) {
        ++record.clamp_hits;
        break;
      }
    const std::vector<double> c = coordinates(s.kind, out);
    double p = 0.0;
    for (size_t k = 0; k < c.size(); ++k) p += c[k] * u[k];
    record.projections[which].push_back(p);
    return Output{std::move(out), 0.0, false};
  };
  const double sigma = s.sigma;
  if (s.kind == Coordinates::UpperTriangle) {
    t.log_density = [sigma](const Output &o, ConstMatrixView base, int64_t) {
      return random::symmetric_gaussian_log_density(
          mechanisms::subtract_mirrored(o.matrix.view(), base), sigma);
    };
  } else {
    t.log_density = [sigma](const Output &o, ConstMatrixView base, int64_t) {
      return gaussian_log_density(linalg::eigvalsh(o.matrix), linalg::eigvalsh(Matrix::from(base)),
                                  sigma);
    };
    t.transforms = [sigma](const Output &o, ConstMatrixView base, int64_t,
                           std::vector<double> &uniforms) {
      const std::vector<double> x = linalg::eigvalsh(o.matrix);
      const std::vector<double> mean = linalg::eigvalsh(Matrix::from(base));
      for (size_t k = 0; k < x.size(); ++k)
        uniforms.push_back(normal_cdf((x[k] - mean[k]) / sigma));
    };
  }
  return t;
}

}  // namespace

TwoSample two_sample_rho(const std::vector<double> &a, const std::vector<double> &b,
                         double alpha) {
  auto mean = [](const std::vector<double> &v) {
    double s = 0.0;
    for (const double x : v) s += x;
    return s / static_cast<double>(v.size());
  };
  const double ma = mean(a), mb = mean(b);
  double squares = 0.0;
  for (const double x : a) squares += (x - ma) * (x - ma);
  for (const double x : b) squares += (x - mb) * (x - mb);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  TwoSample t;
  t.shift = std::fabs(mb - ma);
  // alpha / 2 for s_up (sum of squares / s^2 ~ chi2(na + nb - 2)), alpha / 2 for the shift
  // (mean' - mean ~ N(m' - m, s^2 (1/na + 1/nb)), two-sided, at s <= s_up).
  t.sigma_upper = std::sqrt(squares / math::chi_square_quantile(0.5 * alpha, na + nb - 2.0));
  const double z =
      boost::math::quantile(boost::math::complement(boost::math::normal(), 0.25 * alpha));
  const double shift_low =
      std::max(0.0, t.shift - z * t.sigma_upper * std::sqrt(1.0 / na + 1.0 / nb));
  t.rho_lower = shift_low * shift_low / (2.0 * t.sigma_upper * t.sigma_upper);
  return t;
}

void check_trials_and_alpha(int64_t trials, double alpha) {
  check_trials(trials, 2, "audit trials");
  if (!(alpha > 0.0) || !(alpha < 1.0))
    fail(Status::InvalidArgument, "audit alpha must be in (0, 1), got ", alpha);
}

Verdict run_audit(const Subject &s, const Release &release, int64_t trials, double alpha,
                  uint64_t seed) {
  check_trials_and_alpha(trials, alpha);
  PairStatistics pair;
  pair.gram = s.base[0];
  pair.gram_prime = s.base[1];
  pair.n = pair.n_prime = s.rows[0].rows();
  Verdict v;
  v.claimed_rho = s.rho;
  v.claimed_sigma = s.sigma;
  v.rows = s.rows[0].rows();
  Settings settings;
  settings.trials = trials;
  settings.first_checkpoint = trials;
  settings.alpha = 0.5 * alpha;
  settings.seed = seed;
  settings.stop_at_first_finding = false;
  v.report = run_exact_audit(target(s, pair, release, v.record), pair, settings);
  v.pair = two_sample_rho(v.record.projections[0], v.record.projections[1], 0.5 * alpha);
  return v;
}

double clamp_margin(const Subject &s) {
  double margin = INFINITY;
  for (const Matrix &base : s.base) {
    const std::vector<double> values = linalg::eigvalsh(base);
    margin = std::min({margin, values.front() - s.lower, s.upper - values.back()});
    for (size_t k = 1; k < values.size(); ++k) margin = std::min(margin, values[k] - values[k - 1]);
  }
  return margin / s.sigma;
}

}  // namespace dpcov::audit::gaussian_release
