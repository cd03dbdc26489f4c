// Exact laws of Bingham draws that the sampler tests compare against.
#pragma once

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dpcov::random {

// On S^{q-1} with density proportional to exp(-a (v^T x)^2) for a unit v, t = |v^T x| has density
// proportional to (1 - t^2)^{(q - 3)/2} exp(-a t^2) on [0, 1]. Its CDF, tabulated by
// Gauss-Kronrod on 4000 cells and interpolated linearly (error below 1e-7, far under the KS
// critical values of the tests).
class SpikeLaw {
 public:
  SpikeLaw(int64_t q, double a) : table_(kCells + 1, 0.0) {
    const auto density = [q, a](double t) {
      return std::pow(1.0 - t * t, 0.5 * static_cast<double>(q - 3)) * std::exp(-a * t * t);
    };
    using GK = boost::math::quadrature::gauss_kronrod<double, 31>;
    for (int i = 0; i < kCells; ++i)
      table_[static_cast<size_t>(i + 1)] =
          table_[static_cast<size_t>(i)] + GK::integrate(density, static_cast<double>(i) / kCells,
                                                         static_cast<double>(i + 1) / kCells, 0);
  }

  double cdf(double t) const {
    const double pos = std::clamp(t, 0.0, 1.0) * kCells;
    const int i = std::min(kCells - 1, static_cast<int>(pos));
    const double f = pos - i;
    return ((1.0 - f) * table_[static_cast<size_t>(i)] + f * table_[static_cast<size_t>(i + 1)]) /
           table_[kCells];
  }

 private:
  static constexpr int kCells = 4000;
  std::vector<double> table_;
};

}  // namespace dpcov::random
