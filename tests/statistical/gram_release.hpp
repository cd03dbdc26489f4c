// A release of [X, y]'[X, y] from a fixed design, for the bootstrap's coverage tests, and the
// regression of its last column on the p others at 95%. The release: X'X = G,
// X'y = G beta + L z (L L' = G, z standard normal: the sampling noise N(0, G) of unit error
// variance), y'y = 2 beta' X'y - beta' G beta + n (e'e at its mean n: the intervals read y'y only
// through s^2), plus a centred draw of the mechanism's noise law.
#pragma once

#include <vector>

#include "core/estimators/release_noise.hpp"
#include "core/matrix.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"
#include "core/solvers/regression.hpp"

namespace dpcov::estimators {

inline solvers::RegressionSpec last_column_on_the_others(int64_t p, int64_t rows) {
  solvers::RegressionSpec spec;
  spec.label = p;
  for (int64_t j = 0; j < p; ++j) spec.features.push_back(j);
  spec.rows = rows;
  spec.level = 0.95;
  return spec;
}

inline Matrix gram_release(const Matrix &g, const Matrix &l, const std::vector<double> &beta,
                           int64_t rows, const ReleaseNoise &noise, random::Rng &rng) {
  const int64_t p = g.rows();
  std::vector<double> z(static_cast<size_t>(p));
  for (double &v : z) v = random::standard_normal(rng);
  Matrix released(p + 1, p + 1);
  double yy = static_cast<double>(rows);
  for (int64_t i = 0; i < p; ++i) {
    double xy = 0.0, gb = 0.0;
    for (int64_t j = 0; j < p; ++j) {
      released(i, j) = g(i, j);
      gb += g(i, j) * beta[static_cast<size_t>(j)];
      xy += l(i, j) * z[static_cast<size_t>(j)];
    }
    xy += gb;
    released(i, p) = released(p, i) = xy;
    yy += beta[static_cast<size_t>(i)] * (2.0 * xy - gb);
  }
  released(p, p) = yy;
  const Matrix e = centred_noise(noise, p + 1, rng);
  for (int64_t j = 0; j <= p; ++j)
    for (int64_t i = 0; i <= p; ++i) released(i, j) += e(i, j);
  return released;
}

}  // namespace dpcov::estimators
