#include "exact_pmf.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "../error.hpp"
#include "../mechanisms/registry.hpp"
#include "../privacy/analytic_gaussian.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::ExactGrid;
using mechanisms::ExactInt;
using mechanisms::MechanismId;
using mechanisms::Request;

constexpr double kPi = 3.141592653589793;
constexpr double kTwo53 = 0x1.0p53;

// The exact numerics draw the integer analogue of the registry's noise law: discrete Gaussian for
// a Gaussian mechanism, discrete Laplace for a Laplace one.
bool is_gauss(MechanismId mechanism) {
  return mechanisms::entry_of(static_cast<int32_t>(mechanism)).noise.kind ==
         mechanisms::NoiseKind::SymmetricGaussian;
}

bool has_exact_numerics(const mechanisms::RegistryEntry &entry) {
  return (entry.numerics & mechanisms::kExact) != 0;
}

// The mechanism's own objective for one rounded row z: the L1 (Laplace) or squared L2 (Gauss)
// norm of the upper triangle of z z^T, from its exact integer Gram.
double rounded_change(MechanismId mechanism, const Request &request, const ExactGrid &grid,
                      const Matrix &row) {
  double total = 0.0;
  for (const ExactInt v : mechanisms::rounded_gram(row.view(), request, grid)) {
    const auto e = static_cast<double>(static_cast<int64_t>(v));
    total += is_gauss(mechanism) ? e * e : std::fabs(e);
  }
  return total;
}

// A row whose coordinates round to the integers z (on the grid of `request.bound` 2^-bits), each
// as small as rounding to nearest-even allows: empty if its norm exceeds the bound.
Matrix preimage(const std::vector<int64_t> &z, const Request &request, const ExactGrid &grid) {
  const double to_grid = std::ldexp(1.0, grid.bits) / request.bound;
  Matrix row(1, request.dim);
  double norm2 = 0.0;
  for (int64_t j = 0; j < request.dim; ++j) {
    const int64_t target = z[static_cast<size_t>(j)];
    double x = 0.0;
    if (target != 0) {
      x = (static_cast<double>(target) - 0.5) / to_grid;
      while (std::nearbyint(x * to_grid) != static_cast<double>(target))
        x = std::nextafter(x, std::numeric_limits<double>::infinity());
    }
    row(0, j) = x;
    norm2 += x * x;
  }
  if (!(norm2 <= request.bound * request.bound)) return Matrix();
  return row;
}

}  // namespace

Matrix to_matrix(const std::vector<ExactInt> &packed, int64_t d) {
  Matrix g(d, d);
  size_t k = 0;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const ExactInt v = packed[k++];
      if (v >= static_cast<ExactInt>(kTwo53) || -v >= static_cast<ExactInt>(kTwo53))
        fail(Status::Precondition, "exact-PMF audit: an integer Gram entry is 2^53 or more");
      g(i, j) = g(j, i) = static_cast<double>(static_cast<int64_t>(v));
    }
  return g;
}

Matrix extreme_rounded_row(MechanismId mechanism, const Request &request, const ExactGrid &grid) {
  const int64_t d = request.dim;
  const auto top = int64_t{1} << grid.bits;
  std::vector<std::vector<int64_t>> candidates;
  // Nearly equal coordinates c or c + 1 (k of them c + 1), around 2^bits / sqrt(d).
  const auto c = static_cast<int64_t>(std::floor(static_cast<double>(top) / std::sqrt(static_cast<double>(d))));
  for (int64_t base = std::max<int64_t>(c - 2, 1); base <= c + 2; ++base)
    for (int64_t k = 0; k <= d; ++k) {
      std::vector<int64_t> z(static_cast<size_t>(d), base);
      for (int64_t j = 0; j < k; ++j) z[static_cast<size_t>(j)] = base + 1;
      candidates.push_back(std::move(z));
    }
  // One coordinate near 2^bits and k others at 1.
  for (int64_t a = top - 2; a <= top + 1; ++a)
    for (int64_t k = 0; k < d; ++k) {
      std::vector<int64_t> z(static_cast<size_t>(d), 0);
      z[0] = a;
      for (int64_t j = 1; j <= k; ++j) z[static_cast<size_t>(j)] = 1;
      candidates.push_back(std::move(z));
    }
  Matrix best;
  double best_change = -1.0;
  for (const std::vector<int64_t> &z : candidates) {
    Matrix row = preimage(z, request, grid);
    if (row.rows() == 0) continue;
    const double change = rounded_change(mechanism, request, grid, row);
    if (change > best_change) {
      best_change = change;
      best = std::move(row);
    }
  }
  return best;
}

PairStatistics exact_pair_statistics(const Request &request, const ExactGrid &grid,
                                     const Matrix &rows, const Matrix &rows_prime) {
  PairStatistics pair;
  pair.gram = to_matrix(mechanisms::rounded_gram(rows.view(), request, grid), request.dim);
  pair.gram_prime = to_matrix(mechanisms::rounded_gram(rows_prime.view(), request, grid), request.dim);
  pair.n = rows.rows();
  pair.n_prime = rows_prime.rows();
  return pair;
}

namespace {

// ln P(x) per entry, constant part and the part that depends on x.
struct IntegerLaw {
  bool gauss = false;
  double parameter = 0.0;  // s or t
  double log_normaliser = 0.0;
  double log_pmf(double x) const {
    return gauss ? -x * x / (2.0 * parameter) - log_normaliser : log_normaliser - std::fabs(x) / parameter;
  }
};

IntegerLaw integer_law(MechanismId mechanism, uint64_t noise_parameter) {
  IntegerLaw law;
  law.gauss = is_gauss(mechanism);
  law.parameter = static_cast<double>(noise_parameter);
  if (law.gauss) {
    double theta = 1.0;
    for (int m = 1; m <= 3; ++m) theta += 2.0 * std::exp(-2.0 * kPi * kPi * law.parameter * m * m);
    law.log_normaliser = 0.5 * std::log(2.0 * kPi * law.parameter) + std::log(theta);
  } else {
    law.log_normaliser = std::log(std::tanh(0.5 / law.parameter));
  }
  return law;
}

}  // namespace

Target exact_noise_target(MechanismId mechanism, double epsilon, double delta,
                          uint64_t noise_parameter, IntegerNoise noise) {
  if (!has_exact_numerics(mechanisms::entry_of(static_cast<int32_t>(mechanism))))
    fail(Status::InvalidArgument,
         "exact-PMF audit: ", mechanisms::names_where(has_exact_numerics, " and "), " only");
  const IntegerLaw law = integer_law(mechanism, noise_parameter);
  Target t;
  t.name = concat(mechanisms::mechanism_name(mechanism), " (exact, integer units)");
  t.epsilon = epsilon;
  t.delta = delta;
  t.noise.family = law.gauss ? NoiseFamily::Gaussian : NoiseFamily::Laplace;
  t.noise.base = NoiseBase::Gram;
  t.noise.scale = law.gauss ? std::sqrt(law.parameter) : law.parameter;
  t.release = [noise = std::move(noise)](ConstMatrixView gram, int64_t, random::Rng &rng) {
    Output out{Matrix::from(gram), 0.0, false};
    for (int64_t j = 0; j < gram.cols; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        out.matrix(i, j) += static_cast<double>(noise(rng));
        out.matrix(j, i) = out.matrix(i, j);
      }
    return out;
  };
  t.log_density = [law](const Output &o, ConstMatrixView gram, int64_t) {
    double total = 0.0;
    for (int64_t j = 0; j < gram.cols; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        const double x = o.matrix(i, j) - gram(i, j);  // exact: integers below 2^53
        if (x != std::nearbyint(x) || o.matrix(j, i) != o.matrix(i, j))
          return -std::numeric_limits<double>::infinity();
        total += law.log_pmf(x);
      }
    return total;
  };
  return t;
}

Target exact_mechanism_target(MechanismId mechanism, const Request &request, const Matrix &rows,
                              const Matrix &rows_prime) {
  ExactGrid grid;
  const mechanisms::Receipt receipt = mechanisms::plan_exact_additive(mechanism, request, &grid);
  Target t = exact_noise_target(mechanism, receipt.epsilon, receipt.delta, grid.noise_parameter,
                                IntegerNoise());
  t.name = concat(mechanisms::mechanism_name(mechanism), " (exact numerics, shipped release)");
  const Matrix gram = exact_pair_statistics(request, grid, rows, rows).gram;
  t.release = [=](ConstMatrixView statistic, int64_t, random::Rng &rng) {
    bool first = true;
    for (int64_t j = 0; j < request.dim && first; ++j)
      for (int64_t i = 0; i <= j; ++i) first = first && statistic(i, j) == gram(i, j);
    const Matrix &data = first ? rows : rows_prime;
    Request r = request;
    r.n = data.rows();
    mechanisms::Release release = mechanisms::release_exact_additive(mechanism, data.view(), r, rng);
    for (int64_t j = 0; j < r.dim; ++j)
      for (int64_t i = 0; i < r.dim; ++i) release.matrix(i, j) /= grid.grid_squared;
    return Output{std::move(release.matrix), 0.0, false};
  };
  return t;
}

double exact_pair_privacy(MechanismId mechanism, const PairStatistics &pair,
                          uint64_t noise_parameter) {
  // Integer differences below 2^53; their squares and sums in long double (64-bit mantissa) are
  // exact for the pairs audited (|difference| < 2^31), the final division rounds once.
  long double total = 0.0L;
  for (int64_t j = 0; j < pair.gram.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const long double e = static_cast<long double>(pair.gram_prime(i, j)) - pair.gram(i, j);
      total += is_gauss(mechanism) ? e * e : std::fabs(e);
    }
  const long double parameter = static_cast<long double>(noise_parameter);
  return static_cast<double>(is_gauss(mechanism) ? total / (2.0L * parameter) : total / parameter);
}

double gaussian_epsilon_lower_bound(double sigma_upper, double distance, double delta) {
  if (!(sigma_upper > 0.0) || !(distance > 0.0) || !(delta > 0.0 && delta < 1.0))
    fail(Status::InvalidArgument,
         "gaussian_epsilon_lower_bound: sigma, distance > 0 and delta in (0, 1)");
  constexpr double kSmallest = 1e-9;  // analytic_gaussian_delta needs epsilon > 0
  if (privacy::analytic_gaussian_delta(sigma_upper, kSmallest, distance) <= delta) return 0.0;
  double lo = kSmallest, hi = 1.0;
  while (privacy::analytic_gaussian_delta(sigma_upper, hi, distance) > delta) hi *= 2.0;
  for (int step = 0; step < 200 && hi - lo > 1e-12 * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (privacy::analytic_gaussian_delta(sigma_upper, mid, distance) > delta ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace dpcov::audit
