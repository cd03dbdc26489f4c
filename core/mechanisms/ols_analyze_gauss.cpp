#include "ols_analyze_gauss.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "../math/chi_square.hpp"
#include "../check.hpp"
#include "../error.hpp"
#include "../math/student_t.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::mechanisms {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

// Six significant digits, for messages.
std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// (v^T (H + shift I)^{-1} v) for H symmetric with H + shift I positive definite.
double inverse_quadratic_form(const Matrix &h, double shift, const std::vector<double> &v) {
  Matrix shifted = h;
  for (int64_t i = 0; i < h.rows(); ++i) shifted(i, i) += shift;
  const Matrix inverse = linalg::spd_inverse(shifted);
  double sum = 0.0;
  for (int64_t j = 0; j < h.rows(); ++j)
    for (int64_t i = 0; i < h.rows(); ++i) sum += v[at(i)] * inverse(i, j) * v[at(j)];
  return sum;
}

}  // namespace

double analyze_gauss_ols_noise_miss(double level) {
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  return 0.5 * (1.0 - level);
}

double analyze_gauss_noise_norm_bound(double sigma, int64_t k, double nu) {
  check::positive_finite(sigma, "sigma");
  if (k < 1) fail(Status::InvalidArgument, "k must be >= 1, got ", k);
  if (!(nu > 0.0 && nu < 1.0)) fail(Status::InvalidArgument, "nu must be in (0, 1), got ", nu);
  const double entries = 0.5 * static_cast<double>(k) * static_cast<double>(k + 1);
  return sigma * std::sqrt(2.0 * math::chi_square_quantile(1.0 - nu, entries));
}

AnalyzeGaussIntervals analyze_gauss_ols_intervals(ConstMatrixView released, double sigma,
                                                  const solvers::RegressionSpec &spec) {
  check::all_finite(released, "released matrix");
  check::symmetric(released, "released matrix");
  solvers::validate(spec, released.rows);
  if (spec.ridge != 0.0)
    fail(Status::InvalidArgument, "the guaranteed Analyze Gauss intervals are for OLS: ridge must "
         "be 0, got ", spec.ridge);
  check::positive_finite(sigma, "sigma");

  std::vector<int64_t> cols;
  if (spec.intercept_column >= 0) cols.push_back(spec.intercept_column);
  cols.insert(cols.end(), spec.features.begin(), spec.features.end());
  const int64_t p = static_cast<int64_t>(cols.size());
  Matrix m(p, p);
  std::vector<double> mxy(at(p));
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) m(i, j) = released(cols[at(i)], cols[at(j)]);
    mxy[at(j)] = released(cols[at(j)], spec.label);
  }
  const double myy = released(spec.label, spec.label);

  AnalyzeGaussIntervals out;
  out.noise_miss = analyze_gauss_ols_noise_miss(spec.level);
  out.noise_norm_bound = analyze_gauss_noise_norm_bound(sigma, p + 1, out.noise_miss);
  const double eta = out.noise_norm_bound;
  const double lambda_min = linalg::eigvalsh(m).front();
  if (!(lambda_min > eta))
    fail(Status::Precondition, "no guaranteed interval: the noise bound eta = ",
         short_number(eta), " (exceeded with probability ", short_number(out.noise_miss),
         ") is not below lambda_min(X~'X~) = ", short_number(lambda_min),
         " of the release; more rows, a larger epsilon or fewer columns raise the ratio "
         "(proofs/ols_analyze_gauss.md)");
  out.kappa = eta / lambda_min;

  // beta~ and the noise half-widths ||M^{-1} e_j|| eta sqrt(1 + b^2).
  const Matrix m_inverse = linalg::spd_inverse(m);
  double norm_beta = 0.0;
  out.coefficients.assign(at(p), 0.0);
  for (int64_t i = 0; i < p; ++i) {
    for (int64_t j = 0; j < p; ++j) out.coefficients[at(i)] += m_inverse(i, j) * mxy[at(j)];
    norm_beta += out.coefficients[at(i)] * out.coefficients[at(i)];
  }
  const double b = (std::sqrt(norm_beta) + out.kappa) / (1.0 - out.kappa);
  const double noise_factor = eta * std::sqrt(1.0 + b * b);

  // The classical interval's half-width, bounded: [G_XX^{-1}]_jj <= [(M - eta I)^{-1}]_jj and
  // RSS <= (m_yy + eta) - m_Xy^T (M + eta I)^{-1} m_Xy.
  Matrix lowered = m;
  for (int64_t i = 0; i < p; ++i) lowered(i, i) -= eta;
  const Matrix lowered_inverse = linalg::spd_inverse(lowered);
  const double rss_bound =
      std::fmax(0.0, myy + eta - inverse_quadratic_form(m, eta, mxy));
  out.dof = spec.rows - p;
  const double sampling_miss = (1.0 - spec.level) - out.noise_miss;
  out.t_critical = math::student_t_upper_quantile(0.5 * sampling_miss,
                                                        static_cast<double>(out.dof));
  const double variance_bound = rss_bound / static_cast<double>(out.dof);

  for (int64_t j = 0; j < p; ++j) {
    double column = 0.0;
    for (int64_t i = 0; i < p; ++i) column += m_inverse(i, j) * m_inverse(i, j);
    const double noise = std::sqrt(column) * noise_factor;
    const double sampling = out.t_critical * std::sqrt(variance_bound * lowered_inverse(j, j));
    const double centre = out.coefficients[at(j)];
    out.data_ci_lower.push_back(centre - noise);
    out.data_ci_upper.push_back(centre + noise);
    out.ci_lower.push_back(centre - noise - sampling);
    out.ci_upper.push_back(centre + noise + sampling);
    out.reject.push_back(out.ci_lower.back() > 0.0 || out.ci_upper.back() < 0.0);
  }
  return out;
}

}  // namespace dpcov::mechanisms
