// AdaSSP releases with y'y of generated rows, for the posterior's tests and its mixing benchmark
// (bench/posterior_mixing.cpp): bench/interval_coverage.py's gaussian and heavy models in C++.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/matrix.hpp"
#include "core/mechanisms/adassp.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {

struct Released {
  mechanisms::AdasspFit fit;
  int64_t n = 0;
};

// An AdaSSP release with y'y of n rows [1, x] of d regressors: x_j = z_j / c clipped to [-1, 1],
// z_j standard normal (c = 3) or Student t with 3 degrees of freedom (c = 10, `heavy`), and
// y = (z beta + N(0, 1)) / c_y clipped, beta_j = (-1)^j / sqrt d: bench/interval_coverage.py's
// gaussian and heavy models.
inline Released release(int64_t n, int64_t d, bool heavy, double epsilon, uint64_t seed) {
  random::Rng data = random::Rng::from_seed(seed, 1);
  const int64_t p = d + 1;
  const double c = heavy ? 10.0 : 3.0, c_y = 4.0 * std::sqrt(2.0);
  Matrix xtx(p, p);
  std::vector<double> xty(static_cast<size_t>(p)), x(static_cast<size_t>(p));
  double yty = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double y = random::standard_normal(data);
    x[0] = 1.0;
    for (int64_t j = 1; j < p; ++j) {
      double z = random::standard_normal(data);
      if (heavy) {
        double chi = 0.0;
        for (int k = 0; k < 3; ++k) chi += std::pow(random::standard_normal(data), 2);
        z /= std::sqrt(chi / 3.0);
      }
      y += (j % 2 == 1 ? -1.0 : 1.0) * z / std::sqrt(static_cast<double>(d));
      x[static_cast<size_t>(j)] = std::clamp(z / c, -1.0, 1.0);
    }
    y = std::clamp(y / c_y, -1.0, 1.0);
    for (int64_t a = 0; a < p; ++a) {
      for (int64_t b = 0; b < p; ++b) xtx(a, b) += x[static_cast<size_t>(a)] * x[static_cast<size_t>(b)];
      xty[static_cast<size_t>(a)] += x[static_cast<size_t>(a)] * y;
    }
    yty += y * y;
  }
  mechanisms::AdasspOptions options;
  options.release_label_square = true;
  const mechanisms::AdasspReceipt plan = mechanisms::plan_adassp(
      p, std::sqrt(static_cast<double>(p)), 1.0, epsilon, 1e-6, options);
  random::Rng noise = random::Rng::from_seed(seed, 2);
  return {mechanisms::fit_adassp(xtx, xty, yty, plan, noise), n};
}

// An AdaSSP release (with the y'y of `plan`) of n rows of p = plan.dim regressors, every entry an
// independent +-entry, and a label +-label independent of them (true coefficients 0, error sd
// `label`): the regression forecast's reference design. Rows, then the noise, from `rng`.
inline mechanisms::AdasspFit sign_rows_release(const mechanisms::AdasspReceipt &plan, int64_t n,
                                               double entry, double label, random::Rng &rng) {
  const int64_t p = plan.dim;
  Matrix xtx(p, p);
  std::vector<double> xty(static_cast<size_t>(p), 0.0), x(static_cast<size_t>(p));
  double yty = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t bits = rng.next_u64();
    for (int64_t j = 0; j < p; ++j) x[static_cast<size_t>(j)] = (bits >> j & 1U) ? entry : -entry;
    const double y = (bits >> p & 1U) ? label : -label;
    for (int64_t a = 0; a < p; ++a) {
      for (int64_t b = 0; b < p; ++b) xtx(a, b) += x[static_cast<size_t>(a)] * x[static_cast<size_t>(b)];
      xty[static_cast<size_t>(a)] += x[static_cast<size_t>(a)] * y;
    }
    yty += y * y;
  }
  return mechanisms::fit_adassp(xtx, xty, yty, plan, rng);
}

}  // namespace dpcov::estimators
