#include "zoo_case.hpp"

#include "core/mechanisms/statistic.hpp"
#include "core/privacy/analytic_gaussian.hpp"
#include "core/random/symmetric_noise.hpp"

namespace dpcov::audit::zoo {

Matrix raw_gram(const Matrix &rows) {
  const int64_t d = rows.cols();
  Matrix g(d, d);
  for (int64_t r = 0; r < rows.rows(); ++r)
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i <= j; ++i) g(i, j) += rows(r, i) * rows(r, j);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = j + 1; i < d; ++i) g(i, j) = g(j, i);
  return g;
}

PairStatistics axis_pair(int64_t n, int64_t d, double bound) {
  Matrix rows(n, d);
  for (int64_t r = 1; r < n; ++r) rows(r, 0) = rows(r, 1) = bound / 2.0;
  rows(0, 0) = bound;
  Matrix rows_prime = rows;
  rows_prime(0, 0) = 0.0;
  rows_prime(0, 1) = bound;
  return {raw_gram(rows), raw_gram(rows_prime), n, n};
}

double gaussian_epsilon_at(double sigma, double delta) {
  double lo = 0.0, hi = 1.0;
  while (privacy::analytic_gaussian_delta(sigma, hi, 1.0) > delta) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (privacy::analytic_gaussian_delta(sigma, mid, 1.0) > delta ? lo : hi) = mid;
  }
  return hi;
}

Target gaussian_statistic_target(const std::string &name, double epsilon, double delta,
                                 double sigma_claimed, double sigma_used) {
  Target t;
  t.name = name;
  t.epsilon = epsilon;
  t.delta = delta;
  t.noise = {NoiseFamily::Gaussian, NoiseBase::Gram, sigma_claimed, 0.0};
  t.release = [sigma_used](ConstMatrixView gram, int64_t, random::Rng &rng) {
    Matrix noise(gram.rows, gram.cols);
    random::symmetric_gaussian_noise(rng, sigma_used, noise);
    return Output{mechanisms::add_mirrored(gram, noise), 0.0, false};
  };
  t.log_density = [sigma_claimed](const Output &out, ConstMatrixView gram, int64_t) {
    return random::symmetric_gaussian_log_density(mechanisms::subtract_mirrored(out.matrix.view(), gram),
                                                  sigma_claimed);
  };
  return t;
}

}  // namespace dpcov::audit::zoo
