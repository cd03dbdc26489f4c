// The dense Bingham sampler (random/bingham_dense.hpp) over its whole input range: symmetric C of
// random structure (dense, low rank, diagonal with ties, a multiple top eigenvalue) at scales from
// 1e-322 to 1e308 (entries from subnormal to the largest doubles), q from 1 to 40 (every
// envelope, the Lanczos one above q = 24), kappa 0, subnormal or log-uniform in [1e-12, 1e8] with
// kappa times the scale at most 1e200: every draw is a unit
// vector with at least one proposal, or a status the caller reports (no convergence, numerical
// failure, non-finite input); never an internal error, never a non-finite coordinate.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/random/bingham_dense.hpp"

namespace dpcov::random {
namespace {

double log_uniform(double lo, double hi) {
  const double t = *rc::gen::inRange(0, 1 << 30) / double(1 << 30);
  return std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)));
}

RC_GTEST_PROP(DenseBingham, DrawsAUnitVectorOrReportsAStatus, ()) {
  const int64_t q = *rc::gen::inRange<int64_t>(1, 41);
  const double scale = log_uniform(1e-322, 1e308);
  const int kind = *rc::gen::inRange(0, 10);
  const double kappa = kind == 0   ? 0.0
                       : kind == 1 ? log_uniform(5e-324, 1e-308)
                                   : std::min(log_uniform(1e-12, 1e8), 1e200 / scale);
  const int shape = *rc::gen::inRange(0, 4);
  std::vector<double> c(static_cast<size_t>(q * q), 0.0);
  const auto entry = [&] { return *rc::gen::inRange(-1000, 1001) / 1000.0; };
  std::vector<double> v(static_cast<size_t>(q));
  for (double &x : v) x = entry();
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      double x = 0.0;
      switch (shape) {
        case 0:
          x = entry();
          break;  // dense
        case 1:
          x = v[static_cast<size_t>(i)] * v[static_cast<size_t>(j)];
          break;  // rank one
        case 2:
          x = i == j ? std::floor(3.0 * std::fabs(entry())) : 0.0;
          break;  // ties
        default:
          x = i == j ? (i < q / 2 ? 1.0 : 0.1 * entry()) : 0.0;
          break;  // multiple top
      }
      c[static_cast<size_t>(i + j * q)] = c[static_cast<size_t>(j + i * q)] = scale * x;
    }
  DenseBinghamSampler sampler;
  Rng rng = Rng::from_seed(*rc::gen::arbitrary<uint32_t>());
  std::vector<double> y(static_cast<size_t>(q), NAN);
  try {
    const int64_t proposals = sampler.sample(rng, q, c.data(), q, kappa, y.data());
    RC_ASSERT(proposals >= 1);
    double norm = 0.0;
    for (double x : y) {
      RC_ASSERT(std::isfinite(x));
      norm += x * x;
    }
    RC_ASSERT(std::fabs(norm - 1.0) <= 1e-12);
  } catch (const Error &e) {
    RC_ASSERT(e.status() != Status::Internal);
    RC_TAG(std::string("refused: ") + e.what());
  }
}

}  // namespace
}  // namespace dpcov::random
