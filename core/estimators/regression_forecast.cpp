#include "regression_forecast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../math/chi_square.hpp"
#include "adassp_posterior.hpp"

namespace dpcov::estimators {

namespace {

// The reference design's moments and the noise on the cross products X'y and on X'X.
struct DesignNoise {
  int64_t regressors = 0;         // columns of X'X, an intercept counted
  double regressor_moment = 0.0;  // E x_j^2 of a feature
  double design_floor = 0.0;      // the smallest eigenvalue of E x x'

  double label_moment = 0.0;      // E y^2 (= the residual variance: the coefficients are 0)
  double cross_variance = 0.0;    // of each noise entry of X'y
  double gram_sd = 0.0;           // of each noise entry of X'X above the diagonal
  // AdaSSP's posterior only (0 for a release): the variance of the noise on one row of X'X
  // (2 s_o^2 on the diagonal, p - 1 times s_o^2 off it) and the prior's variance of a
  // standardised coefficient.
  double gram_row_variance = 0.0;
  double prior_variance = 0.0;
  bool posterior = false;  // AdaSSP's: the figures of its posterior are forecast
};

void check_settings(const ForecastSettings &s) {
  if (!(s.rows >= 1.0) || !std::isfinite(s.rows))
    fail(Status::InvalidArgument, "the forecast needs n >= 1, got ", s.rows);
  if (!(s.level > 0.0 && s.level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", s.level);
  if (!(s.fill > 0.0 && s.fill <= 1.0))
    fail(Status::InvalidArgument, "fill (mean squared row norm over the squared bound) must be "
         "in (0, 1], got ", s.fill);
}

// The noise-aware posterior of one standardised coefficient at n, as a Gaussian prior of variance
// t^2 and a Gaussian likelihood of variance u (docs/forecast.md, "Will the posterior print?").
// The estimate moves over releases with variance S = 1 / n + n* / n^2 (at beta = 0 the noise on
// X'X~ does not move it), but the posterior does not know beta = 0: to it the noise on row j of
// X'X~ times the coefficients it finds plausible is noise of the equation for beta_j too, of
// variance a M, a = gram_row_variance / (n m_x)^2 and M the posterior second moment of a
// coefficient (its variance: the centre is 0). So u = S + a M and M = t^2 u / (t^2 + u), whose
// positive root is that of a M^2 + (t^2 + S - a t^2) M - t^2 S = 0. The posterior mean is M / u
// times the estimate, so its variance over releases is (M / u)^2 S and the sampling share
// (M / u)^2 S / M = M S / u^2 (t^2 / (t^2 + S) without the noise on X'X~, the one-dimensional
// share of proofs/adassp_posterior.md).
struct PosteriorFigures {
  double sampling_share = 0.0;
  double half_width_over_range = 0.0;  // z sqrt(M) over R = t / 2 (the prior's sd is 2 R_j)
};

PosteriorFigures posterior_figures(const DesignNoise &m, double n, double z) {
  const double t2 = m.prior_variance;
  const double s = (1.0 + m.cross_variance / (m.regressor_moment * m.label_moment) / n) / n;
  const double a = m.gram_row_variance / ((n * m.regressor_moment) * (n * m.regressor_moment));
  const double b = t2 + s - a * t2, c = t2 * s;
  const double root = std::sqrt(b * b + 4.0 * a * c);
  const double second = b >= 0.0 ? 2.0 * c / (b + root) : (root - b) / (2.0 * a);
  const double u = s + a * second;
  // (M / u) (S / u), not M S / u^2: at n near the largest double u^2 underflows.
  return {(second / u) * (s / u), 2.0 * z * std::sqrt(second / t2)};
}

bool posterior_prints(const PosteriorFigures &f, double min_share) {
  return f.sampling_share >= min_share && f.half_width_over_range < 1.0;
}

// The smallest n (to a relative 1e-9) from which the posterior prints: the share grows and the
// half-width shrinks with n (both terms of u fall), so the rule's outcome is monotone in n.
double rows_for_posterior(const DesignNoise &m, double z, double min_share) {
  double lo = 1.0, hi = 1.0;
  if (posterior_prints(posterior_figures(m, lo, z), min_share)) return lo;
  while (!posterior_prints(posterior_figures(m, hi, z), min_share)) {
    lo = hi;
    hi *= 2.0;
    if (!std::isfinite(hi)) return hi;
  }
  while (hi > lo * (1.0 + 1e-9)) {
    const double mid = std::sqrt(lo) * std::sqrt(hi);
    (posterior_prints(posterior_figures(m, mid, z), min_share) ? hi : lo) = mid;
  }
  return hi;
}

// beta~ = (X'X + E)^{-1} (X'y + e) = beta + (X'X)^{-1} (X'r + e - E beta) to first order in the
// noise; at beta = 0 and X'X = n m_x I, Var(beta~_j) = s^2 / (n m_x) + v_c / (n m_x)^2. Scaled to
// a standardised coefficient (times m_x / s^2): 1 / n + v_c / (n^2 m_x s^2). With an intercept
// the features are centred (the design is symmetric), X'X = diag(n, n m_x, ...), and a slope's
// variance is the same. The noise-aware intervals need the released X'X to stay positive
// definite under a second draw of the noise: the design's smallest eigenvalue (n m_x, or
// n min(1, m_x) with an intercept) above twice the noise's spectral norm, about 2 sqrt(p) times
// the off-diagonal sd for iid symmetric entries (the semicircle edge).
RegressionForecast forecast(const DesignNoise &m, const ForecastSettings &s) {
  const double n = s.rows;
  const double scale = m.regressor_moment * m.label_moment;
  RegressionForecast f;
  f.crossover_rows = m.cross_variance / scale;
  f.sampling_standard_error = std::sqrt(1.0 / n);
  f.privacy_standard_error = std::sqrt(m.cross_variance / scale) / n;
  f.standard_error = std::hypot(f.sampling_standard_error, f.privacy_standard_error);
  const double z = std::sqrt(math::chi_square_quantile(s.level, 1.0));
  f.interval_width = 2.0 * z * f.standard_error;
  f.rows_for_intervals =
      4.0 * std::sqrt(static_cast<double>(m.regressors)) * m.gram_sd / m.design_floor;
  f.intervals_expected = n >= f.rows_for_intervals && z * f.standard_error < 1.0;
  for (const double v : {f.crossover_rows, f.standard_error, f.interval_width,
                         f.rows_for_intervals})
    if (!std::isfinite(v))
      fail(Status::Numerical, "the forecast overflows at these bounds and noise scales");
  if (!m.posterior) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    f.posterior_sampling_share = f.posterior_min_sampling_share = nan;
    f.posterior_half_width_over_range = f.rows_for_posterior_intervals = nan;
    return f;
  }
  const PosteriorFigures at_n = posterior_figures(m, n, z);
  f.posterior_sampling_share = at_n.sampling_share;
  f.posterior_min_sampling_share = min_sampling_share(s.level);
  f.posterior_half_width_over_range = at_n.half_width_over_range;
  // The first-order figures take X'X as known up to small noise; below rows_for_intervals the
  // posterior's X'X ranges over nearly singular matrices (the released one minus noise of the
  // same law), along whose weak directions the prior holds the coefficients, so no interval is
  // expected there whatever the figures say (docs/forecast.md, "Will the posterior print?").
  f.rows_for_posterior_intervals = std::max(
      f.rows_for_intervals, rows_for_posterior(m, z, f.posterior_min_sampling_share));
  f.posterior_intervals_expected = n >= f.rows_for_intervals &&
                                   posterior_prints(at_n, f.posterior_min_sampling_share);
  for (const double v : {f.posterior_sampling_share, f.posterior_half_width_over_range,
                         f.rows_for_posterior_intervals})
    if (!std::isfinite(v))
      fail(Status::Numerical, "the posterior's forecast overflows at these bounds and noise "
           "scales");
  return f;
}

}  // namespace

RegressionForecast forecast_release_regression(const ReleaseNoise &noise, int64_t d, double bound,
                                               const ForecastSettings &settings) {
  check_settings(settings);
  if (d < 2) fail(Status::Dimension, "a regression needs d >= 2 columns, got ", d);
  check::positive_finite(bound, "bound B");
  validate(noise, d);
  DesignNoise m;
  m.regressors = d - 1;
  m.regressor_moment = settings.fill * bound * bound / static_cast<double>(d);
  m.design_floor = m.regressor_moment;
  m.label_moment = m.regressor_moment;
  switch (noise.kind) {
    case ReleaseNoise::Kind::SymmetricGaussian:
      m.gram_sd = noise.scale;
      break;
    case ReleaseNoise::Kind::SymmetricLaplace:
      m.gram_sd = std::sqrt(2.0) * noise.scale;
      break;
    case ReleaseNoise::Kind::Wishart:
      m.gram_sd = std::sqrt(noise.dof) * noise.scale;
      break;
    case ReleaseNoise::Kind::Adassp:
      fail(Status::InvalidArgument, "an AdaSSP fit is forecast from its own receipt");
  }
  m.cross_variance = m.gram_sd * m.gram_sd;
  return forecast(m, settings);
}

RegressionForecast forecast_adassp_regression(const mechanisms::AdasspReceipt &receipt,
                                              const ForecastSettings &settings) {
  check_settings(settings);
  if (receipt.dim < 1) fail(Status::Dimension, "p must be >= 1, got ", receipt.dim);
  check::positive_finite(receipt.bound_x, "bound_x");
  check::positive_finite(receipt.bound_y, "bound_y");
  check::positive_finite(receipt.sigma_cross, "sigma_cross");
  check::positive_finite(receipt.sigma_gram_off_diagonal, "sigma_gram_off_diagonal");
  const int64_t intercept = settings.intercept ? 1 : 0;
  const int64_t features = receipt.dim - intercept;
  const double feature_bound2 = receipt.bound_x * receipt.bound_x - static_cast<double>(intercept);
  if (features < 1 || !(feature_bound2 > 0.0))
    fail(Status::InvalidArgument, "a forecast with an intercept needs at least one feature "
         "besides it and bound_x > 1 (the intercept's 1 is inside bound_x), got p = ",
         receipt.dim, ", bound_x = ", receipt.bound_x);
  DesignNoise m;
  m.regressors = receipt.dim;
  m.regressor_moment = settings.fill * feature_bound2 / static_cast<double>(features);
  m.design_floor = intercept ? std::min(1.0, m.regressor_moment) : m.regressor_moment;
  m.label_moment = settings.fill * receipt.bound_y * receipt.bound_y;
  m.cross_variance = receipt.sigma_cross * receipt.sigma_cross;
  m.gram_sd = receipt.sigma_gram_off_diagonal;
  // AdaSSP's noise on X'X is symmetric Gaussian: the diagonal's variance is twice that above it.
  // A feature's row meets the other features' coefficients; the intercept's, which the posterior
  // pins near ybar (G_cc = n is known), adds next to nothing.
  m.gram_row_variance = static_cast<double>(features + 1) * m.gram_sd * m.gram_sd;
  // The posterior's prior sd of a slope is 2 R_j; in standardised units (times
  // sqrt(m_x / s^2)) the same for every fill.
  const double prior_sd = 2.0 * relevant_half_range(receipt, intercept ? 0 : -1, intercept);
  // Standardised as a ratio first: squaring the sd of a tiny B_Y / B_X would underflow.
  const double prior_ratio =
      prior_sd * std::sqrt(m.regressor_moment) / std::sqrt(m.label_moment);
  m.prior_variance = prior_ratio * prior_ratio;
  m.posterior = true;
  return forecast(m, settings);
}

}  // namespace dpcov::estimators
