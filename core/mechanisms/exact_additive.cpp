#include "exact_additive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/calibration_count.hpp"
#include "../privacy/discrete_gaussian_smoothing.hpp"
#include "../privacy/upward.hpp"
#include "../random/discrete.hpp"
#include "statistic.hpp"
#include "registry.hpp"
#include "unit_group_request.hpp"

namespace dpcov::mechanisms {

namespace {

constexpr int kMaxBits = 12;
constexpr int kMinBits = 4;
constexpr double kTwo53 = 0x1.0p53;

int64_t norm2_bound(int bits, int64_t dim) {
  // ceil(sqrt(d) / 2) in integers: the smallest h with 4 h^2 >= d.
  int64_t h = 0;
  while (4 * h * h < dim) ++h;
  const int64_t r = (int64_t{1} << bits) + h + 1;
  return r * r;
}

bool is_gauss(MechanismId mechanism) { return mechanism == MechanismId::AnalyzeGauss; }

// The integer noise parameter at a grid: the discrete Gaussian variance, or the discrete Laplace
// scale t (P(x) proportional to exp(-|x| / t)); 0 if it does not fit the exact samplers.
// `unit_sigma` is discrete_gaussian_unit_sigma() of the request (Gauss only).
uint64_t integer_noise_parameter(MechanismId mechanism, const Request &request, int64_t r2,
                                 double unit_sigma) {
  const double r2d = static_cast<double>(r2);
  const bool replace = request.options.neighbour == privacy::Neighbour::ReplaceOne;
  if (is_gauss(mechanism)) {
    // Upper-triangle L2 sensitivity of z z^T over ||z||^2 <= r2: sqrt(2) r2 (replace-one), r2
    // (add/remove) (proofs/gram_sensitivity.md with B^2 = r2); its square is exact in double.
    const double delta_squared = (replace ? 2.0 : 1.0) * r2d * r2d;
    return privacy::discrete_gaussian_variance_approx_dp(delta_squared, unit_sigma);
  }
  // Upper-triangle L1 sensitivity: (d + 1) r2 (replace-one), (d + 1) r2 / 2 (add/remove), an
  // integer bound on an integer-valued query; scale t >= Delta_1 / eps, rounded up.
  const double d1 = static_cast<double>(request.dim + 1) * r2d / (replace ? 1.0 : 2.0);
  const double t = privacy::upward::ceil_quotient_up(d1, request.epsilon);
  // t < 2^56: a variate beyond 2^63 (the sampler's range) has probability below exp(-128).
  if (!(t < 0x1.0p56)) return 0;
  return static_cast<uint64_t>(t);
}

}  // namespace

Receipt plan_exact_additive(MechanismId mechanism, const Request &request, ExactGrid *grid) {
  privacy::count_calibration(privacy::Calibrator::ExactGrid);
  if (mechanism != MechanismId::AnalyzeGauss && mechanism != MechanismId::LaplaceSym)
    fail(Status::InvalidArgument, "exact numerics exist for analyze_gauss and laplace_sym only");
  if (request.options.calibration != Calibration::Default)
    fail(Status::InvalidArgument, "exact numerics have their own calibration (discrete Gaussian "
         "zCDP or discrete Laplace); leave the calibration at its default");
  // Checks the request (base_receipt) before the search.
  static_cast<void>(base_receipt(mechanism, request,
                                 is_gauss(mechanism) ? DeltaUse::Approximate : DeltaUse::Pure));
  // The continuous comparison's sigma per unit of sensitivity depends on the budget and on the
  // number of noisy entries, not on the grid: computed once for the whole search.
  const uint64_t entries = static_cast<uint64_t>(request.dim) * static_cast<uint64_t>(request.dim + 1) / 2;
  const double unit_sigma =
      is_gauss(mechanism) ? privacy::discrete_gaussian_unit_sigma(request.epsilon, request.delta, entries) : 0.0;
  // The finest grid (most bits, least rounding) whose integers all fit: the noise parameter in
  // the samplers' range and a block's exact Gram, kExactBlockRows ||z||^2 < 2^53. The choice
  // depends on public values only (d, eps, delta, the neighbour relation), never on n, which is
  // private under add/remove, nor on B, which only scales the unit (plan_exact_at_bound): the
  // 128-bit sum over blocks has no limit on n that a 64-bit n can reach.
  for (int bits = kMaxBits; bits >= kMinBits; --bits) {
    const int64_t r2 = norm2_bound(bits, request.dim);
    if (!(static_cast<double>(data::kExactBlockRows) * static_cast<double>(r2) < kTwo53)) continue;
    const uint64_t parameter = integer_noise_parameter(mechanism, request, r2, unit_sigma);
    if (parameter == 0) continue;
    ExactGrid found{bits, r2, 0.0, parameter};
    const Receipt receipt = plan_exact_at_bound(mechanism, request, found);
    if (grid != nullptr) *grid = found;
    return receipt;
  }
  fail(Status::Precondition, "exact numerics: no grid of ", kMinBits, " to ", kMaxBits,
       " bits keeps the integers in range for n = ", request.n, ", d = ", request.dim,
       " at this epsilon and delta (more rows need fewer bits; smaller epsilon or delta need a larger noise parameter)");
}

Receipt plan_exact_at_bound(MechanismId mechanism, const Request &request, ExactGrid &grid) {
  Receipt receipt = base_receipt(mechanism, request,
                                 is_gauss(mechanism) ? DeltaUse::Approximate : DeltaUse::Pure);
  const double unit = std::ldexp(request.bound, -grid.bits);
  const double g2 = unit * unit;
  // A grid whose squared unit underflows would give zero constants with the release all zeros,
  // and the rounding's 2^k / B would overflow (found by fuzz_solvers).
  if (!(g2 >= std::numeric_limits<double>::min()))
    fail(Status::Numerical, "exact numerics: the grid's squared unit (B 2^-", grid.bits, ")^2 = ",
         g2, " is below the smallest normal double for B = ", request.bound);
  grid.grid_squared = g2;
  receipt.numerics = Numerics::Exact;
  receipt.calibration =
      is_gauss(mechanism) ? Calibration::AnalyticGaussian : Calibration::LaplaceUpperTriangle;
  receipt.theorem = exact_theorem_of(mechanism);
  const double r2d = static_cast<double>(grid.norm2_bound);
  const double parameter = static_cast<double>(grid.noise_parameter);
  const bool replace = request.options.neighbour == privacy::Neighbour::ReplaceOne;
  if (is_gauss(mechanism)) {
    receipt.sensitivity_norm = SensitivityNorm::L2;
    receipt.sensitivity = (replace ? std::sqrt(2.0) : 1.0) * r2d * g2;
    receipt.sigma = std::sqrt(parameter) * g2;
  } else {
    receipt.sensitivity_norm = SensitivityNorm::L1;
    receipt.sensitivity = static_cast<double>(request.dim + 1) * r2d / (replace ? 1.0 : 2.0) * g2;
    receipt.scale = parameter * g2;
  }
  return receipt;
}

double exact_grid_unit(const Receipt &receipt) {
  Request request;
  request.dim = receipt.dim;
  request.bound = receipt.bound;
  request.epsilon = receipt.epsilon;
  request.delta = receipt.delta;
  request.options.neighbour = receipt.neighbour;
  ExactGrid grid;
  static_cast<void>(plan_exact_additive(receipt.mechanism, request, &grid));
  int bits = grid.bits;
  if (receipt.max_rows_per_unit > 0 && units_by_group_privacy(receipt.mechanism)) {
    // Units by group privacy plan the rows at a smaller per-row budget, which can mean a coarser
    // grid: the coarser of the two is the one a bound can rely on.
    const Request rows = group_unit_request(request, receipt.max_rows_per_unit, receipt.bound);
    static_cast<void>(plan_exact_additive(receipt.mechanism, rows, &grid));
    bits = std::min(bits, grid.bits);
  }
  return std::ldexp(receipt.bound, -bits);
}

data::ExactGridSpec grid_spec(const Request &request, const ExactGrid &grid) {
  return {request.dim, request.bound, grid.bits, grid.norm2_bound};
}

std::vector<ExactInt> rounded_gram(ConstMatrixView rows, const Request &request,
                                   const ExactGrid &grid, BoundPolicy policy) {
  data::ExactGramAccumulator acc(grid_spec(request, grid), policy);
  acc.add_rows(rows);
  return acc.upper();
}

std::vector<int64_t> exact_noise_fill(MechanismId mechanism, const ExactGrid &grid, size_t count,
                                      random::Rng &rng) {
  std::vector<int64_t> noise(count);
  if (is_gauss(mechanism))
    random::discrete_gaussian_fill(rng, grid.noise_parameter, noise);
  else
    random::discrete_laplace_fill(rng, 1, grid.noise_parameter, noise);
  return noise;
}

Release release_exact_gram(MechanismId mechanism, const data::ExactGramAccumulator &acc,
                           const Request &request, random::Rng &rng) {
  ExactGrid grid;
  const Receipt planned = plan_exact_additive(mechanism, request, &grid);
  return release_exact_gram(mechanism, acc, request, planned, grid, rng);
}

Release release_exact_gram(MechanismId mechanism, const data::ExactGramAccumulator &acc,
                           const Request &request, const Receipt &planned, const ExactGrid &grid,
                           random::Rng &rng) {
  if (planned.mechanism != mechanism || planned.numerics != Numerics::Exact)
    fail(Status::Internal, "an exact release was handed a plan of another mechanism");
  Release out{Matrix(), planned};
  if (request.n != acc.counts().rows)
    fail(Status::InvalidArgument, "the request's n must be the accumulator's row count");
  if (!(grid_spec(request, grid) == acc.grid()))
    fail(Status::Incompatible, "the accumulator's grid (", acc.grid().bits, " bits, r2 ",
         acc.grid().norm2_bound, ", B ", acc.grid().bound, ", d ", acc.grid().dim,
         ") is not the plan's (", grid.bits, " bits, r2 ", grid.norm2_bound, ", B ",
         request.bound, ", d ", request.dim, ")");
  const int64_t d = request.dim;
  const std::vector<ExactInt> &gram = acc.upper();
  out.matrix = Matrix(d, d);
  const std::vector<int64_t> noise = exact_noise_fill(mechanism, grid, gram.size(), rng);
  size_t k = 0;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      // The released integer G_Z + N, then its scaling: post-processing of an exact value.
      const double value = static_cast<double>(gram[k] + noise[k]) * grid.grid_squared;
      ++k;
      out.matrix(i, j) = value;
      out.matrix(j, i) = value;
    }
  record_generator(out.receipt, rng);
  return out;
}

Release release_exact_additive(MechanismId mechanism, ConstMatrixView rows, const Request &request,
                               random::Rng &rng, BoundPolicy policy) {
  ExactGrid grid;
  const Receipt planned = plan_exact_additive(mechanism, request, &grid);
  return release_exact_additive(mechanism, rows, request, planned, grid, rng, policy);
}

Release release_exact_additive(MechanismId mechanism, ConstMatrixView rows, const Request &request,
                               const Receipt &planned, const ExactGrid &grid, random::Rng &rng,
                               BoundPolicy policy) {
  if (rows.cols != request.dim || rows.rows != request.n)
    fail(Status::Dimension, "rows must be n x d = ", request.n, " x ", request.dim, ", got ",
         rows.rows, " x ", rows.cols);
  data::ExactGramAccumulator acc(grid_spec(request, grid), policy);
  acc.add_rows(rows);
  return release_exact_gram(mechanism, acc, request, planned, grid, rng);
}

}  // namespace dpcov::mechanisms
