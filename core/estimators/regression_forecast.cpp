#include "regression_forecast.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../math/chi_square.hpp"

namespace dpcov::estimators {

namespace {

// The reference design's moments and the noise on the cross products X'y and on X'X.
struct DesignNoise {
  int64_t regressors = 0;
  double regressor_moment = 0.0;  // E x_j^2
  double label_moment = 0.0;      // E y^2 (= the residual variance: the coefficients are 0)
  double cross_variance = 0.0;    // of each noise entry of X'y
  double gram_sd = 0.0;           // of each noise entry of X'X above the diagonal
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

// beta~ = (X'X + E)^{-1} (X'y + e) = beta + (X'X)^{-1} (X'r + e - E beta) to first order in the
// noise; at beta = 0 and X'X = n m_x I, Var(beta~_j) = s^2 / (n m_x) + v_c / (n m_x)^2. Scaled to
// a standardised coefficient (times m_x / s^2): 1 / n + v_c / (n^2 m_x s^2). The noise-aware
// intervals need the released X'X to stay positive definite under a second draw of the noise:
// n m_x above twice the noise's spectral norm, about 2 sqrt(p) times the off-diagonal sd for
// iid symmetric entries (the semicircle edge).
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
      4.0 * std::sqrt(static_cast<double>(m.regressors)) * m.gram_sd / m.regressor_moment;
  f.intervals_expected = n >= f.rows_for_intervals && z * f.standard_error < 1.0;
  for (const double v : {f.crossover_rows, f.standard_error, f.interval_width,
                         f.rows_for_intervals})
    if (!std::isfinite(v))
      fail(Status::Numerical, "the forecast overflows at these bounds and noise scales");
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
  DesignNoise m;
  m.regressors = receipt.dim;
  m.regressor_moment =
      settings.fill * receipt.bound_x * receipt.bound_x / static_cast<double>(receipt.dim);
  m.label_moment = settings.fill * receipt.bound_y * receipt.bound_y;
  m.cross_variance = receipt.sigma_cross * receipt.sigma_cross;
  m.gram_sd = receipt.sigma_gram_off_diagonal;
  return forecast(m, settings);
}

}  // namespace dpcov::estimators
