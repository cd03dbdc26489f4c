#include "dong_liang_yi.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "upward.hpp"
#include "zcdp.hpp"

namespace dpcov::privacy {

namespace {

void check_n(int64_t n) {
  if (n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", n);
}

void check_beta(double beta) {
  check::finite(beta, "beta");
  if (!(beta > 0.0 && beta < 1.0))
    fail(Status::InvalidArgument, "beta must be in (0, 1), got ", beta);
}

}  // namespace

double dly_gauss_sigma(double rho, double radius, int64_t n) {
  check::positive_finite(radius, "r");
  check_n(n);
  using namespace upward;
  // r^2 / n first: sqrt(2) r^2 may overflow where the sensitivity does not.
  const double sensitivity =
      mul_up(sqrt_up(2.0), div_up(mul_up(radius, radius), static_cast<double>(n)));
  return zcdp_gaussian_sigma(rho, sensitivity);
}

DlyAdaptiveSplit dly_adaptive_split(bool paper) {
  if (paper) return {1.0 / 8.0, 1.0 / 8.0, 0.0};
  return {1.0 / 128.0, 1.0 / 32.0, 1.0 / 512.0};
}

double dly_adaptive_release_rho(double rho, const DlyAdaptiveSplit &split) {
  check::positive_finite(rho, "rho");
  // 1 - trace - radius is exact for the two splits above (a multiple of 2^-7 in [0, 1]).
  return upward::mul_down(1.0 - split.trace - split.radius, rho);
}

double dly_second_look_rho(double rho, const DlyAdaptiveSplit &split) {
  check::positive_finite(rho, "rho");
  // radius - first_look is exact (15/512); the product is rounded down.
  return upward::mul_down(split.radius - split.first_look, rho);
}

double dly_adaptive_early_release_rho(double rho, const DlyAdaptiveSplit &split) {
  check::positive_finite(rho, "rho");
  // 1 - first_look is exact (511/512).
  return upward::mul_down(1.0 - split.first_look, rho);
}

double dly_first_look_margin() {
  return 3.0;
}

double dly_trace_sigma(double rho_trace, double radius, int64_t n) {
  check::positive_finite(radius, "r");
  check_n(n);
  using namespace upward;
  const double sensitivity = div_up(mul_up(radius, radius), static_cast<double>(n));
  return zcdp_gaussian_sigma(rho_trace, sensitivity);
}

double dly_svt_epsilon(double rho_svt) {
  check::positive_finite(rho_svt, "rho");
  // eps = sqrt(2 rho_svt), rounded down; 2 rho_svt is exact unless it overflows.
  const double q = 2.0 * rho_svt;
  check::positive_finite(q, "2 rho");
  return upward::sqrt_down(q);
}

double dly_histogram_sigma(double rho_hist) {
  // zcdp_gaussian_sigma checks rho_hist.
  return zcdp_gaussian_sigma(rho_hist, upward::sqrt_up(2.0));
}

DlyLooseness dly_bound_looseness() {
  return {0.64, 0.45};
}

double dly_flat_spectrum_factor() {
  return 2.0;
}

DlySpreadNoise dly_spread_noise(int64_t dim) {
  check::dimension(dim, "d");
  const double d = static_cast<double>(dim);
  return {d * d - 1.0, std::sqrt(2.0 * (2.0 * d + 1.0) * (d - 1.0))};
}

DlyBulkMargins dly_bulk_margins() {
  return {2.0, 4.0};
}

double dly_spike_edge(double sigma, int64_t dim) {
  check::positive_finite(sigma, "sigma");
  check::dimension(dim, "d");
  const double d = static_cast<double>(dim);
  return sigma * (2.0 * std::sqrt(d) + dly_bulk_margins().edge_scale * std::pow(d, -1.0 / 6.0));
}

double dly_wigner_spectral_bound(int64_t dim, double beta) {
  check::dimension(dim, "d");
  check_beta(beta);
  // At d = 1 the code's formula is 0 / 0 (theta = 0); the matrix is then one N(0, 1) entry, whose
  // tail bound is the last term alone.
  if (dim == 1) return std::sqrt(2.0 * std::log(2.0 / beta));
  const double d = static_cast<double>(dim);
  const double theta = std::min(std::pow(std::log(d) / d, 0.3), 0.5);
  const double bound = (1.0 + theta) * (2.0 * std::sqrt(d) + 6.0 * std::sqrt(std::log(d)) /
                                                                 std::sqrt(std::log1p(theta)));
  return bound + std::sqrt(2.0 * std::log(2.0 / beta));
}

double dly_wigner_frobenius_bound(int64_t dim, double beta) {
  check::dimension(dim, "d");
  check_beta(beta);
  const double d = static_cast<double>(dim);
  const double l = std::log(2.0 / beta);
  return std::sqrt(d * d + 2.0 * std::sqrt(d * l) * (1.0 + std::sqrt(2.0 * (d - 1.0))) + 6.0 * l);
}

double dly_trace_offset(double rho, double beta) {
  check::positive_finite(rho, "rho");
  check_beta(beta);
  return std::sqrt(8.0 / rho * std::log(8.0 / beta));
}

}  // namespace dpcov::privacy
