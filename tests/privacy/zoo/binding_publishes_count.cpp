#include "binding_publishes_count.hpp"

#include <limits>
#include <vector>

#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/gram_sensitivity.hpp"

namespace dpcov::audit::zoo {

namespace {

constexpr int64_t kDim = 2, kRows = 10;
constexpr double kBound = 1.0;

// The rows the binding passes on: those of norm <= B.
Matrix kept_rows(const Matrix &rows) {
  std::vector<int64_t> kept;
  for (int64_t r = 0; r < rows.rows(); ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < kDim; ++j) norm2 += rows(r, j) * rows(r, j);
    if (norm2 <= kBound * kBound) kept.push_back(r);
  }
  Matrix out(static_cast<int64_t>(kept.size()), kDim);
  for (size_t k = 0; k < kept.size(); ++k)
    for (int64_t j = 0; j < kDim; ++j) out(static_cast<int64_t>(k), j) = rows(kept[k], j);
  return out;
}

}  // namespace

ZooCase binding_publishes_count(Variant variant, double epsilon, double delta) {
  Matrix rows(kRows, kDim);
  for (int64_t r = 1; r < kRows; ++r) rows(r, r % kDim) = kBound / 2.0;
  rows(0, 0) = kBound / 2.0;
  Matrix rows_prime = rows;
  rows_prime(0, 0) = 3.0 * kBound;
  const Matrix kept = kept_rows(rows), kept_prime = kept_rows(rows_prime);
  const bool broken = variant == Variant::Broken;
  ZooCase c;
  c.name = broken ? "binding_publishes_kept_count" : "binding_publishes_given_count";
  // The statistic's n is what the receipt publishes.
  c.pair = {raw_gram(kept), raw_gram(kept_prime), broken ? kept.rows() : kRows,
            broken ? kept_prime.rows() : kRows};
  const double sigma = privacy::analytic_gaussian_sigma(
      epsilon, delta, privacy::gram_l2_sensitivity(privacy::Neighbour::ReplaceOne, kBound));
  Target &t = c.target;
  t = gaussian_statistic_target(c.name, epsilon, delta, sigma, sigma);
  const auto release = t.release;
  t.release = [release](ConstMatrixView gram, int64_t n, random::Rng &rng) {
    Output out = release(gram, n, rng);
    out.test_value = static_cast<double>(n);
    return out;
  };
  const auto density = t.log_density;
  t.log_density = [density](const Output &out, ConstMatrixView gram, int64_t n) {
    if (out.test_value != static_cast<double>(n)) return -std::numeric_limits<double>::infinity();
    return density(out, gram, n);
  };
  return c;
}

}  // namespace dpcov::audit::zoo
