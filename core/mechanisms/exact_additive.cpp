#include "exact_additive.hpp"

#include <cmath>
#include <vector>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/discrete_gaussian.hpp"
#include "../random/discrete.hpp"
#include "statistic.hpp"

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
uint64_t integer_noise_parameter(MechanismId mechanism, const Request &request, int64_t r2,
                                 double rho) {
  const double r2d = static_cast<double>(r2);
  const bool replace = request.options.neighbour == privacy::Neighbour::ReplaceOne;
  if (is_gauss(mechanism)) {
    // Upper-triangle L2 sensitivity of z z^T over ||z||^2 <= r2: sqrt(2) r2 (replace-one), r2
    // (add/remove) (proofs/gram_sensitivity.md with B^2 = r2); its square is exact in double.
    const double delta_squared = (replace ? 2.0 : 1.0) * r2d * r2d;
    if (!(delta_squared / (2.0 * rho) < 0x1.0p61)) return 0;
    return privacy::discrete_gaussian_variance(delta_squared, rho);
  }
  // Upper-triangle L1 sensitivity: (d + 1) r2 (replace-one), (d + 1) r2 / 2 (add/remove), an
  // integer bound on an integer-valued query; scale t >= Delta_1 / eps, rounded up.
  const double d1 = static_cast<double>(request.dim + 1) * r2d / (replace ? 1.0 : 2.0);
  double t = std::ceil(d1 / request.epsilon);
  if (std::fma(t, request.epsilon, -d1) < 0.0) t += 1.0;  // exact sign of t eps - Delta_1
  if (!(t < 0x1.0p61)) return 0;
  return static_cast<uint64_t>(t);
}

}  // namespace

Receipt plan_exact_additive(MechanismId mechanism, const Request &request, ExactGrid *grid) {
  if (mechanism != MechanismId::AnalyzeGauss && mechanism != MechanismId::LaplaceSym)
    fail(DPCOV_E_INVALID_ARGUMENT, "exact numerics exist for analyze_gauss and laplace_sym only");
  if (request.options.calibration != Calibration::Default)
    fail(DPCOV_E_INVALID_ARGUMENT, "exact numerics have their own calibration (discrete Gaussian "
         "zCDP or discrete Laplace); leave the calibration at its default");
  Receipt receipt = base_receipt(mechanism, request,
                                 is_gauss(mechanism) ? DeltaUse::Approximate : DeltaUse::Pure);
  const double rho = is_gauss(mechanism) ? privacy::zcdp_rho_for(request.epsilon, request.delta) : 0.0;
  // The finest grid (most bits, least rounding) whose integers all fit: noise parameter < 2^61
  // and the exact Gram, n ||z||^2 < 2^53.
  for (int bits = kMaxBits; bits >= kMinBits; --bits) {
    const int64_t r2 = norm2_bound(bits, request.dim);
    if (!(static_cast<double>(request.n) * static_cast<double>(r2) < kTwo53)) continue;
    const uint64_t parameter = integer_noise_parameter(mechanism, request, r2, rho);
    if (parameter == 0) continue;
    const double unit = std::ldexp(request.bound, -bits);
    const double g2 = unit * unit;
    receipt.numerics = Numerics::Exact;
    receipt.calibration =
        is_gauss(mechanism) ? Calibration::AnalyticGaussian : Calibration::LaplaceUpperTriangle;
    const double r2d = static_cast<double>(r2);
    const bool replace = request.options.neighbour == privacy::Neighbour::ReplaceOne;
    if (is_gauss(mechanism)) {
      receipt.sensitivity_norm = SensitivityNorm::L2;
      receipt.sensitivity = (replace ? std::sqrt(2.0) : 1.0) * r2d * g2;
      receipt.sigma = std::sqrt(static_cast<double>(parameter)) * g2;
      receipt.theorem = "Analyze Gauss, exact: rows on a 2^-k B grid, exact integer Gram, discrete "
                        "Gaussian (Canonne-Kamath-Steinke 2020 Thm 14, Cor 13); proofs/exact_additive.md";
    } else {
      receipt.sensitivity_norm = SensitivityNorm::L1;
      receipt.sensitivity = static_cast<double>(request.dim + 1) * r2d / (replace ? 1.0 : 2.0) * g2;
      receipt.scale = static_cast<double>(parameter) * g2;
      receipt.theorem = "Symmetric Laplace, exact: rows on a 2^-k B grid, exact integer Gram, "
                        "discrete Laplace (Canonne-Kamath-Steinke 2020 Alg. 2); proofs/exact_additive.md";
    }
    if (grid != nullptr) *grid = ExactGrid{bits, r2, g2, parameter};
    return receipt;
  }
  fail(DPCOV_E_PRECONDITION, "exact numerics: no grid of ", kMinBits, " to ", kMaxBits,
       " bits keeps the integers in range for n = ", request.n, ", d = ", request.dim,
       " at this epsilon and delta (more rows need fewer bits; smaller epsilon or delta need a larger noise parameter)");
}

Release release_exact_additive(MechanismId mechanism, ConstMatrixView rows, const Request &request,
                               random::Rng &rng) {
  ExactGrid grid;
  Release out{Matrix(), plan_exact_additive(mechanism, request, &grid)};
  const int64_t n = rows.rows, d = request.dim;
  if (rows.cols != d || n != request.n)
    fail(DPCOV_E_DIMENSION, "rows must be n x d = ", request.n, " x ", d, ", got ", n, " x ",
         rows.cols);
  // Rounded rows z = round(x 2^bits / B), clipped first to norm B; then, in exact integer
  // arithmetic, shrunk towards 0 in the (never expected) case that ||z||^2 exceeds the bound,
  // so the bound the sensitivity uses holds for every row whatever the rounding did.
  const double to_grid = std::ldexp(1.0, grid.bits) / request.bound;
  Matrix z(n, d);
  std::vector<double> x(static_cast<size_t>(d));
  std::vector<int64_t> zi(static_cast<size_t>(d));
  for (int64_t r = 0; r < n; ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      x[static_cast<size_t>(j)] = rows(r, j);
      check::finite(x[static_cast<size_t>(j)], "row entry");
      norm2 += x[static_cast<size_t>(j)] * x[static_cast<size_t>(j)];
    }
    const double norm = std::sqrt(norm2);
    const double shrink = norm > request.bound ? request.bound / norm : 1.0;
    for (;;) {
      int64_t z2 = 0;
      for (int64_t j = 0; j < d; ++j) {
        zi[static_cast<size_t>(j)] =
            static_cast<int64_t>(std::nearbyint(x[static_cast<size_t>(j)] * shrink * to_grid));
        z2 += zi[static_cast<size_t>(j)] * zi[static_cast<size_t>(j)];
      }
      if (z2 <= grid.norm2_bound) break;
      for (double &v : x) v *= 0.5;  // unreachable for rows of norm <= B (proofs/exact_additive.md)
    }
    for (int64_t j = 0; j < d; ++j) z(r, j) = static_cast<double>(zi[static_cast<size_t>(j)]);
  }
  // Exact integer Gram: every product and partial sum is an integer of magnitude <= n r2 < 2^53,
  // so each double operation of dsyrk (products and additions in any order, no fast matrix
  // multiplication) is exact.
  Matrix g(d, d);
  linalg::syrk_upper(z.view(), 0.0, g.data(), d);
  out.matrix = Matrix(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const auto exact = static_cast<int64_t>(g(i, j));
      const int64_t noise = is_gauss(mechanism)
                                ? random::discrete_gaussian(rng, grid.noise_parameter)
                                : random::discrete_laplace(rng, 1, grid.noise_parameter);
      const double value = static_cast<double>(exact + noise) * grid.grid_squared;
      out.matrix(i, j) = value;
      out.matrix(j, i) = value;
    }
  record_generator(out.receipt, rng);
  return out;
}

}  // namespace dpcov::mechanisms
