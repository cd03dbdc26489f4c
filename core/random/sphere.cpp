#include "sphere.hpp"

#include <cmath>

#include "../check.hpp"
#include "normal.hpp"

namespace dpcov::random {

void uniform_sphere(Rng &rng, double *out, int64_t q) {
  if (q < 1) fail(Status::Dimension, "sphere dimension must be >= 1, got ", q);
  for (;;) {
    double sum = 0.0;
    for (int64_t i = 0; i < q; ++i) {
      out[i] = standard_normal(rng);
      sum += out[i] * out[i];
    }
    // A zero vector has no direction; it has probability zero but is not impossible on a grid.
    if (sum > 0.0 && std::isfinite(sum)) {
      // Dividing (not multiplying by the reciprocal) makes q = 1 give exactly +-1, because
      // sqrt(fl(x * x)) == |x| in binary floating point.
      const double norm = std::sqrt(sum);
      for (int64_t i = 0; i < q; ++i) out[i] /= norm;
      return;
    }
  }
}

}  // namespace dpcov::random
