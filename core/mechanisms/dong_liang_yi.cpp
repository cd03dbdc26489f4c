#include "dong_liang_yi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "../linalg/blas.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "../privacy/coinpress.hpp"
#include "../privacy/dong_liang_yi.hpp"
#include "../privacy/upward.hpp"
#include "../privacy/zcdp.hpp"
#include "../random/exponential.hpp"
#include "../random/normal.hpp"
#include "../random/symmetric_noise.hpp"
#include "statistic.hpp"

namespace dpcov::mechanisms {

namespace {

// Limits that keep every sum of the second moment and its noise finite whatever the data, so
// that no release fails (or succeeds) because of the rows: entries of X^T X / n are at most
// r^2 <= DBL_MAX / 2, and the noise at most 64 sigma <= DBL_MAX / 2 (a standard normal beyond 64
// has probability below 1e-890).
constexpr double kMaxSecondMoment = std::numeric_limits<double>::max() / 2;
constexpr double kMaxSigma = std::numeric_limits<double>::max() / 128;

bool adaptive(DlyVariant v) {
  return v == DlyVariant::Adaptive || v == DlyVariant::AdaptivePaper;
}

// The exponent e of a public bound r (r < 2^e): rows of norm <= r scaled by 2^-e have norm < 1,
// so that no sum of their squares overflows (at most n); scaling by a power of two is exact
// unless a scaled entry is subnormal.
int bound_exponent(double r) {
  return std::ilogb(r) + 1;
}

Matrix gauss_release(const Matrix &s, double sigma, random::Rng &rng) {
  Matrix noise(s.rows(), s.cols());
  random::symmetric_gaussian_noise(rng, sigma, noise);
  return add_mirrored(s.view(), noise);
}

// Separate (Alg. 1): the eigenvectors of `noisy`, a Gauss release of s at `sigma`, paired, in
// order, with the eigenvalues of s plus N(0, sigma^2) clamped to [0, upper].
Matrix separate_release(const Matrix &s, const Matrix &noisy_matrix, double sigma, double upper,
                        random::Rng &rng) {
  const linalg::SymmetricEigen noisy = linalg::eigh(noisy_matrix);
  std::vector<double> values = linalg::eigvalsh(s);  // ascending, as noisy.values
  for (double &v : values) v = std::clamp(v + sigma * random::standard_normal(rng), 0.0, upper);
  const int64_t d = s.rows();
  Matrix scaled = noisy.vectors;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) scaled(i, j) *= values[static_cast<size_t>(j)];
  Matrix out = linalg::multiply(scaled, noisy.vectors, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(out);
  return out;
}

// Adaptive's error bounds (the code's AdaptiveCov), in units of r^2 for a clipping radius r 2^-q:
// Separate 2^-q sep1 + 4^-q sep2, Gauss 4^-q gauss1 (the code's get_diff2 compares against
// 2^-q gauss1 during the search; kept as published).
struct ErrorBounds {
  double sep1, sep2, gauss1;
};

ErrorBounds error_bounds(const DlyRequest &request, double rho_covariance, double trace_unit) {
  const double beta1 = 0.75 * request.beta;
  const double eta = privacy::coinpress_clip_radius(request.dim, 0.5 * beta1);
  const double nu = privacy::dly_wigner_spectral_bound(request.dim, 0.5 * beta1);
  const double omega = privacy::dly_wigner_frobenius_bound(request.dim, beta1);
  const double n = static_cast<double>(request.n);
  return {std::pow(2.0, 1.25) * std::sqrt(trace_unit) / std::sqrt(n) /
              std::pow(rho_covariance, 0.25) * std::sqrt(nu) / 6.0,
          std::sqrt(2.0) * eta / std::sqrt(rho_covariance) / n,
          omega / (std::sqrt(rho_covariance) * n)};
}

// The private trace of s in units of r^2, plus `offset` r^2 / n, clamped to [1e-16, 1]
// (post-processing).
double private_trace_unit(const Matrix &s, const DlyRequest &request, double sigma, double offset,
                          random::Rng &rng) {
  double trace = 0.0;
  for (int64_t i = 0; i < request.dim; ++i) trace += s(i, i);
  const double r2 = request.radius * request.radius;
  const double noisy =
      trace + sigma * random::standard_normal(rng) + r2 * offset / static_cast<double>(request.n);
  return std::clamp(noisy / r2, 1e-16, 1.0);
}

// The sparse vector technique over the queries q = 0..m-1 (the code's SVT with get_diff2): the
// first q whose bias-minus-noise score, plus Lap(4 / eps), reaches the threshold 0 + Lap(2 / eps);
// m if none does. Each score has sensitivity 1 (a row moves between two histogram bins, and
// contributes at most 4^(1-l) - 4^-q <= 1 to one score).
int64_t svt_index(const std::vector<double> &counts, const ErrorBounds &b, double n, double eps,
                  random::Rng &rng) {
  using namespace privacy::upward;
  const double threshold = random::laplace(rng, div_up(2.0, eps));
  const double query_scale = div_up(4.0, eps);
  const int64_t m = static_cast<int64_t>(counts.size());
  double weighted = 0.0;  // sum_{l <= q} counts[l] 4^(1-l)
  double count = 0.0;     // sum_{l <= q} counts[l]
  for (int64_t q = 0; q < m; ++q) {
    weighted += counts[static_cast<size_t>(q)] * std::ldexp(1.0, static_cast<int>(2 - 2 * q));
    count += counts[static_cast<size_t>(q)];
    const double two_q = std::ldexp(1.0, static_cast<int>(-q));
    const double bias = (weighted - count * two_q * two_q) / n;
    const double noise = std::min(two_q * b.gauss1, two_q * b.sep1 + two_q * two_q * b.sep2);
    if (n * (bias - noise) + random::laplace(rng, query_scale) >= threshold) return q;
  }
  return m;
}

// The histogram of row norms with N(0, sigma^2) on each bin. Bin 0 is empty for every dataset
// (rows are clipped to r first): nothing to release there.
std::vector<double> noisy_histogram(std::vector<double> counts, double sigma, random::Rng &rng) {
  for (size_t l = 1; l < counts.size(); ++l) counts[l] += sigma * random::standard_normal(rng);
  return counts;
}

// The squared noise of dpcov's expected-error model at the radius r 2^-q: the better branch's
// bound scaled by privacy::dly_bound_looseness, in units of r^2.
double model_noise(const ErrorBounds &b, int64_t q) {
  const privacy::DlyLooseness f = privacy::dly_bound_looseness();
  const double two_q = std::ldexp(1.0, static_cast<int>(-q));
  return std::min(f.gauss * two_q * two_q * b.gauss1,
                  f.separate * (two_q * b.sep1 + two_q * two_q * b.sep2));
}

// dpcov's first look (Adaptive): true when the noisy count c~_1 of rows in (r / 2, r], at its
// lower end c~_1 - z sigma (z = privacy::dly_first_look_margin), makes the clipping bias of r / 2,
// 3/4 c / n in units of r^2, at least the model's noise at r. Every radius below r / 2 clips at
// least as much, so histogram_index on the exact counts would keep r. `b`: the bounds at trace r^2
// and the continuing budget, the largest noise the full rule could see.
bool first_look_settles(const std::vector<double> &noisy, const ErrorBounds &b, double n,
                        double sigma) {
  if (noisy.size() < 2) return true;  // one candidate radius: r
  const double low = noisy[1] - privacy::dly_first_look_margin() * sigma;
  return 0.75 * low / n >= model_noise(b, 0);
}

// dpcov's radius choice (Adaptive), by post-processing of the noisy histogram: the radius r 2^-q
// that minimises the expected squared error, the squared clipping bias (bounded by the trace of
// the clipped part, estimated from the noisy histogram) plus the squared expected error of the
// better branch at that radius (model_noise). The noise has mean zero, so the two add in the
// expected squared Frobenius error.
int64_t histogram_index(const std::vector<double> &noisy, const ErrorBounds &b, double n) {
  const int64_t m = static_cast<int64_t>(noisy.size());
  double weighted = 0.0;  // sum_{l <= q} counts[l] 4^(1-l)
  double count = 0.0;     // sum_{l <= q} counts[l]
  int64_t best = 0;
  double best_error = 0.0;
  for (int64_t q = 0; q < m; ++q) {
    weighted += noisy[static_cast<size_t>(q)] * std::ldexp(1.0, static_cast<int>(2 - 2 * q));
    count += noisy[static_cast<size_t>(q)];
    const double two_q = std::ldexp(1.0, static_cast<int>(-q));
    const double bias = std::max(0.0, (weighted - count * two_q * two_q) / n);
    const double noise = model_noise(b, q);
    const double error = bias * bias + noise * noise;
    if (q == 0 || error < best_error) {
      best = q;
      best_error = error;
    }
  }
  return best;
}

// dpcov's estimate of Gauss's error at rho_c, from the eigenvalues `values` of a Gauss release of
// s at `sigma` (rho_c / 2): without the eigenvalue clamp, E ||E||_F^2 = sigma_g^2 d^2 with
// sigma_g = sigma / sqrt(2). The clamp at 0 removes the negative part of the released spectrum;
// where s has a block of m eigenvalues inside the noise, half of that block's noise, sigma_g^2 m^2
// / 2, and the first release's negative eigenvalues hold sum mu_i^2 = sigma^2 m^2 / 2 = sigma_g^2
// m^2 of it. So the squared error is taken as sigma_g^2 d^2 - (1 - f^2) sum_{mu_i < 0} mu_i^2, with
// f = dly_bound_looseness().gauss measured where nearly every direction is inside the noise
// (proofs/dong_liang_yi.md, "Branch").
double gauss_error_estimate(const std::vector<double> &values, double sigma, double f) {
  const double d = static_cast<double>(values.size());
  double negative = 0.0;
  for (double v : values) negative += v < 0.0 ? v * v : 0.0;
  const double sigma_g = sigma / std::sqrt(2.0);
  return std::sqrt(std::max(sigma_g * sigma_g * d * d - (1.0 - f * f) * negative, 0.0));
}

// dpcov's first estimate of Separate's error from its own first step, the Gauss release a = s + E
// (E symmetric, iid N(0, sigma^2) upper triangle) whose eigenvectors it keeps: the eigenvalue
// noise, d sigma^2, plus the eigenvector error. That error is about c W^2 on a spectrum narrower
// than the noise and at most about the noise's sigma^2 d^2 on a wide one, with
// W^2 = ||s - (tr s / d) I||_F^2 and c = dly_flat_spectrum_factor(); it is taken as
// c W^2 sigma^2 d^2 / (c W^2 + sigma^2 d^2). W^2 is estimated by
// ||a - (tr a / d) I||_F^2 less the noise's mean and one standard deviation
// (privacy::dly_spread_noise), so that noise alone rarely makes a flat spectrum look wide
// (proofs/dong_liang_yi.md, "Branch").
double separate_spread_estimate(const Matrix &a, double sigma) {
  const int64_t d = a.rows();
  const double dd = static_cast<double>(d);
  double trace = 0.0;
  double squares = 0.0;
  for (int64_t j = 0; j < d; ++j) {
    trace += a(j, j);
    for (int64_t i = 0; i < d; ++i) squares += a(i, j) * a(i, j);
  }
  const double var = sigma * sigma;
  const privacy::DlySpreadNoise noise = privacy::dly_spread_noise(d);
  const double w2 = std::max(squares - trace * trace / dd - var * (noise.mean + noise.sd), 0.0);
  const double flat = privacy::dly_flat_spectrum_factor() * w2;
  const double wide = var * dd * dd;
  return std::sqrt(dd * var + flat * wide / (flat + wide));
}

// E[(clamp(l + sigma z, 0, upper) - l)^2] / sigma^2 for z ~ N(0, 1), to within the overlap of the
// two clamps (which needs upper < a few sigma): with h(a) = E[max(z, -a)^2]
// = Phi(a) - a phi(a) + a^2 Phi(-a), the clamp at 0 leaves h(l / sigma) and the one at upper
// h((upper - l) / sigma); each is 1 far from its edge and 1/2 on it.
double clamped_noise_share(double l, double sigma, double upper) {
  const auto h = [](double a) {
    const double density = std::exp(-0.5 * a * a) / std::sqrt(2.0 * std::numbers::pi);
    return 0.5 * std::erfc(-a / std::numbers::sqrt2) - a * density +
           a * a * 0.5 * std::erfc(a / std::numbers::sqrt2);
  };
  return std::max(h(l / sigma) + h((upper - l) / sigma) - 1.0, 0.0);
}

// dpcov's second estimate of Separate's error from its own first step, the Gauss release a = s + E
// (E symmetric, iid N(0, sigma^2) upper triangle, semicircle radius 2 sigma sqrt(d)) whose
// eigenvectors it keeps, with the eigenvalues of s plus N(0, sigma^2) clamped to [0, upper].
// The eigenvector error is sum_ij P_ij (lambda_i - lambda_j)^2 (P_ij the squared overlap of a's
// i-th eigenvector with s's j-th): it comes from the eigenvalues the noise can mix, not from the
// spread of the whole spectrum. An eigenvalue mu of a farther than privacy::dly_spike_edge (the
// radius plus a margin for the edge's own fluctuations) from the bulk's mean m is a spike, the
// image of an eigenvalue theta of s with
// mu - m = (theta - m) + sigma^2 d / (theta - m); its eigenvector leaks sigma^2 d / (theta - m)^2
// of its weight to directions about theta - m away: sigma^2 for each other direction and each
// side of the pair. The other d_b eigenvalues, the bulk, are mixed as a spectrum of spread
// W_b^2 = ||s_b||_F^2 - (tr s_b)^2 / d_b: about c W_b^2 while it is narrower than the noise, at
// most sigma^2 d_b (d_b - 1) (c = dly_flat_spectrum_factor; taken as the harmonic form
// c W_b^2 sigma^2 d_b (d_b - 1) / (c W_b^2 + sigma^2 d_b (d_b - 1))). W_b^2 is estimated as
// ||a||_F^2 = sum mu^2 less the spikes' theta^2 and (tr a - sum theta)^2 / d_b, less the noise's
// mean and privacy::dly_bulk_margins().spread_sd standard deviations (dly_spread_noise), floored
// at 0; m = (tr a - sum theta) / d_b, found by iterating the split from m = tr a / d. The
// eigenvalue noise adds sigma^2 per eigenvalue, less what the clamp removes (clamped_noise_share
// at each theta and at m). `mu`: the eigenvalues of a. proofs/dong_liang_yi.md, "Branch".
double separate_bulk_estimate(const std::vector<double> &mu, double sigma, double upper) {
  const double dd = static_cast<double>(mu.size());
  const double var = sigma * sigma;
  const double radius = 2.0 * sigma * std::sqrt(dd);
  const double edge = privacy::dly_spike_edge(sigma, static_cast<int64_t>(mu.size()));
  double squares = 0.0;  // ||a||_F^2, the sum of mu^2
  double trace = 0.0;
  for (double m : mu) {
    squares += m * m;
    trace += m;
  }
  // The spikes' theta, given the bulk's mean.
  const auto spikes_around = [&](double mean, std::vector<double> &theta) {
    theta.clear();
    for (double m : mu) {
      const double x = m - mean;
      if (std::abs(x) <= edge) continue;
      const double t =
          mean +
          0.5 * (x + std::copysign(std::sqrt((std::abs(x) - radius) * (std::abs(x) + radius)), x));
      if (t >= 0.0) theta.push_back(t);  // s is positive semidefinite: no spike below 0
    }
  };
  std::vector<double> theta;
  double mean = trace / dd;
  for (int pass = 0; pass < 8; ++pass) {
    spikes_around(mean, theta);
    if (theta.size() == mu.size()) break;
    double spike_sum = 0.0;
    for (double t : theta) spike_sum += t;
    const double next = (trace - spike_sum) / (dd - static_cast<double>(theta.size()));
    if (next == mean) break;
    mean = next;
  }
  const double k = static_cast<double>(theta.size());
  const double db = dd - k;  // bulk
  double values = 0.0;       // the eigenvalue noise, in units of sigma^2
  double spike_squares = 0.0;
  double spike_sum = 0.0;
  for (double t : theta) {
    spike_squares += t * t;
    spike_sum += t;
    values += clamped_noise_share(t, sigma, upper);
  }
  double bulk = 0.0;
  if (db > 0.0) {
    const double bulk_sum = trace - spike_sum;
    const privacy::DlySpreadNoise noise =
        privacy::dly_spread_noise(static_cast<int64_t>(mu.size()));
    const double w2 =
        std::max(squares - spike_squares - bulk_sum * bulk_sum / db -
                     var * (noise.mean + privacy::dly_bulk_margins().spread_sd * noise.sd),
                 0.0);
    const double narrow = privacy::dly_flat_spectrum_factor() * w2;
    const double wide = var * db * (db - 1.0);
    bulk = narrow + wide > 0.0 ? narrow * wide / (narrow + wide) : 0.0;
    values += db * clamped_noise_share(std::max(bulk_sum / db, 0.0), sigma, upper);
  }
  const double spikes = var * (2.0 * k * db + k * (k - 1.0));
  return std::sqrt(values * var + spikes + bulk);
}

}  // namespace

DlyBranchErrors dly_branch_errors(const Matrix &first, double sigma, double upper,
                                  double separate_bound) {
  // Separate's estimate is the larger of two (proofs/dong_liang_yi.md, "Branch"): the first is
  // low where one spike dominates a bulk inside the noise (0.84 of Separate's error on the
  // authors' unit rows at n = 4000, d = 70, where the bound is its minimum); the second is within
  // about 10% of it on the authors' data but noisier at small d, where the first's lean towards
  // Gauss is the cheaper mistake.
  // The estimates are homogeneous of degree one in (first, sigma, upper, separate_bound): computed
  // in units of an even power of two near sigma they stay finite at every sigma the release allows (up to
  // DBL_MAX / 128, where sigma^2 overflowed and the choice fell to an inf or NaN comparison), and
  // at normal scales they are as before (proofs/dong_liang_yi.md, "Floating point").
  const double unit = std::ldexp(1.0, 2 * (std::ilogb(sigma) / 2));  // even: roots scale exactly
  Matrix a = first;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) a(i, j) /= unit;
  const double sigma_unit = sigma / unit;
  const std::vector<double> mu = linalg::eigvalsh(a);
  const double first_estimate =
      std::min(separate_bound / unit, separate_spread_estimate(a, sigma_unit));
  return {gauss_error_estimate(mu, sigma_unit, privacy::dly_bound_looseness().gauss),
          std::max(first_estimate, separate_bulk_estimate(mu, sigma_unit, upper / unit)), unit};
}

double dly_separate_bound(const DlyRequest &request, double rho_covariance, double trace_unit,
                          double u) {
  const ErrorBounds b = error_bounds(request, rho_covariance, trace_unit);
  return privacy::dly_bound_looseness().separate * (u * b.sep1 + u * u * b.sep2) * request.radius *
         request.radius;
}

DlyReceipt dly_plan(const DlyRequest &request) {
  if (request.variant != DlyVariant::Gauss && request.variant != DlyVariant::Separate &&
      !adaptive(request.variant))
    fail(Status::InvalidArgument, "unknown Dong-Liang-Yi variant ",
         static_cast<int32_t>(request.variant));
  check::dimension(request.dim, "d");
  if (request.n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", request.n);
  check::positive_finite(request.rho, "rho");
  data::check_row_bound(request.radius, "r");
  // r^2 bounds every entry of X^T X / n and clamps the released eigenvalues; with the noise
  // below kMaxSigma, |X^T X / n + noise| stays below DBL_MAX.
  if (!(request.radius * request.radius <= kMaxSecondMoment))
    fail(Status::InvalidArgument,
         "r must be at most sqrt(DBL_MAX / 2) = 9.48e153 (r^2 bounds the second moment), got ",
         request.radius);
  check::finite(request.beta, "beta");
  if (!(request.beta > 0.0 && request.beta < 1.0))
    fail(Status::InvalidArgument, "beta must be in (0, 1), got ", request.beta);
  // Adaptive's error bounds hold each with probability 1 - 3 beta / 8 (error_bounds).
  if (adaptive(request.variant) && !(0.375 * request.beta > 0.0))
    fail(Status::InvalidArgument, "beta = ", request.beta,
         " is too small: Adaptive's error bounds use 3 beta / 8, which must be a positive double");
  check::delta(request.delta);
  DlyReceipt r;
  r.variant = request.variant;
  r.dim = request.dim;
  r.n = request.n;
  r.rho = request.rho;
  r.radius = request.radius;
  r.beta = request.beta;
  r.delta = request.delta;
  r.epsilon = privacy::zcdp_receipt_epsilon(request.rho, request.delta);
  // Every share of rho is rounded down; one that rounds to 0 (rho subnormal) is refused naming it.
  using privacy::upward::half_down;
  const auto share = [&request](double part, const char *what) {
    if (!(part > 0.0))
      fail(Status::InvalidArgument, "rho = ", request.rho, " is too small to split: ", what,
           " rounds down to 0");
    return part;
  };
  if (adaptive(request.variant)) {
    const bool paper = request.variant == DlyVariant::AdaptivePaper;
    const privacy::DlyAdaptiveSplit split = privacy::dly_adaptive_split(paper);
    r.rho_covariance = share(privacy::dly_adaptive_release_rho(request.rho, split),
                             "the release's share");
    // rho times a power of two, rounded down (exact unless it is subnormal).
    using privacy::upward::mul_down;
    r.trace_sigma = privacy::dly_trace_sigma(
        share(mul_down(request.rho, split.trace), "the trace's share"), request.radius, request.n);
    if (paper) {
      r.svt_epsilon = privacy::dly_svt_epsilon(
          share(mul_down(request.rho, split.radius), "the sparse vector step's share"));
    } else {
      r.first_look_sigma = privacy::dly_histogram_sigma(
          share(mul_down(request.rho, split.first_look), "the first look's share, rho / 512"));
      r.histogram_sigma = privacy::dly_histogram_sigma(
          share(privacy::dly_second_look_rho(request.rho, split), "the second look's share"));
    }
    // The code's k3 = -min(d n, 79): radii r 2^0 .. r 2^-79, and none below 2^-960, the smallest
    // bound row clipping is proven for (proofs/row_bound.md).
    r.svt_queries = 1 + std::min<int64_t>({79, request.dim * std::min<int64_t>(request.n, 79),
                                           std::ilogb(request.radius) + 960});
  } else {
    // Gauss and Separate release at r with the whole budget: their noise is data-independent,
    // so the plan states it (the adaptive variants' depends on the radius and branch chosen).
    r.rho_covariance = request.rho;
    r.branch = static_cast<int32_t>(request.variant);
    r.clip_radius = request.radius;
    if (request.variant == DlyVariant::Gauss) {
      r.sigma_matrix = privacy::dly_gauss_sigma(request.rho, request.radius, request.n);
    } else {
      r.sigma_matrix = privacy::dly_gauss_sigma(share(half_down(request.rho), "each half of it"),
                                                request.radius, request.n);
      r.sigma_eigenvalues = r.sigma_matrix;
    }
  }
  // The largest noise sigma of the release (at r; the adaptive variants' halves at rho_c / 2).
  const double sigma =
      adaptive(request.variant)
          ? privacy::dly_gauss_sigma(share(half_down(r.rho_covariance), "each half of the release"),
                                     request.radius, request.n)
          : r.sigma_matrix;
  if (!(sigma <= kMaxSigma))
    fail(Status::InvalidArgument, "rho = ", request.rho, " is too small for r = ", request.radius,
         " and n = ", request.n, ": the release's noise sigma ", sigma,
         " exceeds DBL_MAX / 128, where adding it to the data could overflow");
  return r;
}

namespace {

// 4^e x (x >= 0), rounded up where it is subnormal (ldexp rounds to nearest there: scaled back,
// a result rounded down is below x): a receipt's sigma in the caller's units is never below the
// noise added.
double scaled_up(double x, int e) {
  const double y = std::ldexp(x, 2 * e);
  return std::ldexp(y, -2 * e) < x ? privacy::upward::bump_up(y) : y;
}

}  // namespace

// The mechanism runs in units of 2^e, e = ilogb(r) (r 2^-e in [1, 2), so that r = 1 runs
// unscaled), on the rows scaled by 2^-e (exact unless an entry is subnormal; a public map of each
// row, so neighbours stay neighbours), and its output is scaled back by 4^e (post-processing). At
// a small r the second moment would otherwise be rounded into the subnormals before its noise is
// added, by up to a whole subnormal step per entry, more than its sensitivity sqrt(2) r^2 / n
// (proofs/dong_liang_yi.md, "Floating point"). The candidate radii are the plan's.
DlyPasses::DlyPasses(const DlyRequest &request, random::Rng &rng)
    : request_(request), receipt_(dly_plan(request)), rng_(&rng) {
  exponent_ = std::ilogb(request.radius);
  unit_ = request;
  unit_.radius = std::ldexp(request.radius, -exponent_);
  unit_receipt_ = dly_plan(unit_);
  unit_receipt_.svt_queries = receipt_.svt_queries;
  pass_.kind = RowPassKind::DlyMoment;
  pass_.dim = request.dim;
  // Below r = 1 the rows are scaled up, and a finite entry beyond 2^(1024 + e) would overflow:
  // the release failed on such a row and not on its neighbour. Rows are first clipped to
  // r 2^500, a public map of each row that leaves every row within it as it is (and
  // r 2^-e 2^500 < 2^501 after scaling); clipping again at r composes.
  pass_.pre_clip = exponent_ < 0 ? std::ldexp(request.radius, 500) : 0.0;
  pass_.scale_exponent = exponent_;
  pass_.clip_radii = {unit_.radius};
  pass_.moment_exponent = bound_exponent(unit_.radius);
  pass_.histogram_bins = adaptive(request.variant) ? unit_receipt_.svt_queries : 0;
}

const RowPass &DlyPasses::pass() const {
  if (done_) fail(Status::InvalidArgument, "the release is complete: no pass is left");
  return pass_;
}

const DlyRelease &DlyPasses::release() const {
  if (!done_) fail(Status::InvalidArgument, "the release needs pass ", pass_.index, " first");
  return result_;
}

void DlyPasses::finish_pass(const RowPartial &merged) {
  check_pass_sums(pass(), request_.n, merged);
  const Matrix s = pass_moment(merged, request_.n);
  if (pass_.index == 0 && adaptive(request_.variant)) {
    std::vector<double> counts(merged.counts.begin(), merged.counts.end());
    choose_radius(s, counts);
    if (scale_ < 1.0) {
      // The second pass sums the rows clipped again to r~ (clipping at r first, as before).
      pass_.index = 1;
      pass_.clip_radii = {unit_.radius, unit_.radius * scale_};
      pass_.moment_exponent = bound_exponent(unit_.radius * scale_);
      pass_.histogram_bins = 0;
      return;
    }
  }
  final_release(s);
  done_ = true;
}

// Adaptive's private steps from the first pass's moment s and norm histogram: the radius
// r~ = r scale_ and, for the branch, u_ and trace_unit_.
void DlyPasses::choose_radius(const Matrix &s, const std::vector<double> &counts) {
  random::Rng &rng = *rng_;
  DlyReceipt &receipt = unit_receipt_;
  const DlyRequest &request = unit_;
  const double n = static_cast<double>(request.n);
  if (request.variant == DlyVariant::AdaptivePaper) {
    // The paper shifts the noisy trace up to a bound that holds with probability 1 - beta / 8.
    trace_unit_ = private_trace_unit(s, request, receipt.trace_sigma,
                                     privacy::dly_trace_offset(request.rho, request.beta), rng);
    const ErrorBounds b = error_bounds(request, receipt.rho_covariance, trace_unit_);
    // The sparse vector stops at j; the radius is one step above, r 2^(1-j), at most r. The
    // code evaluates the bounds at 2^k2 = 2^-j.
    const int64_t j = svt_index(counts, b, n, receipt.svt_epsilon, rng);
    scale_ = std::min(std::ldexp(1.0, static_cast<int>(1 - j)), 1.0);
    u_ = std::ldexp(1.0, static_cast<int>(-j));
    return;
  }
  // dpcov: a first look at the histogram; only if it does not settle r~ = r, the trace
  // (unbiased: dpcov's rules compare expected errors) and a second look, averaged with the
  // first in proportion to their budgets (their inverse variances), 1 : 15.
  const privacy::DlyAdaptiveSplit split = privacy::dly_adaptive_split(false);
  const std::vector<double> first_look = noisy_histogram(counts, receipt.first_look_sigma, rng);
  const ErrorBounds widest = error_bounds(request, receipt.rho_covariance, 1.0);
  if (first_look_settles(first_look, widest, n, receipt.first_look_sigma)) {
    receipt.first_look_settled = 1;
    receipt.rho_covariance = privacy::dly_adaptive_early_release_rho(request.rho, split);
    receipt.trace_sigma = 0.0;
    receipt.histogram_sigma = 0.0;
    return;
  }
  receipt.first_look_settled = 0;
  trace_unit_ = private_trace_unit(s, request, receipt.trace_sigma, 0.0, rng);
  const ErrorBounds b = error_bounds(request, receipt.rho_covariance, trace_unit_);
  std::vector<double> histogram = noisy_histogram(counts, receipt.histogram_sigma, rng);
  const double w = split.first_look / split.radius;  // exact: 1/16
  for (size_t l = 0; l < histogram.size(); ++l)
    histogram[l] = w * first_look[l] + (1.0 - w) * histogram[l];
  scale_ = std::ldexp(1.0, static_cast<int>(-histogram_index(histogram, b, n)));
  u_ = scale_;
}

// The release at the radius r~ from the rows' moment s at r~, in units, then in the caller's.
void DlyPasses::final_release(const Matrix &s) {
  DlyRelease release = adaptive(request_.variant) && request_.variant != DlyVariant::AdaptivePaper
                           ? dpcov_branch_release(s)
                           : fixed_branch_release(s);
  Matrix &out = release.covariance;
  for (int64_t j = 0; j < out.cols(); ++j)
    for (int64_t i = 0; i < out.rows(); ++i) out(i, j) = std::ldexp(out(i, j), 2 * exponent_);
  // The receipt in the caller's units: the plan's constants, with the release's outcomes. Gauss
  // and Separate keep the plan's sigma (computed at r, equal to the scaled one unless it is
  // below 2^-969, and never below the exact value).
  DlyReceipt receipt = receipt_;
  const DlyReceipt &done = release.receipt;
  receipt.rho_covariance = done.rho_covariance;
  receipt.first_look_settled = done.first_look_settled;
  if (done.first_look_settled == 1) {
    receipt.trace_sigma = 0.0;
    receipt.histogram_sigma = 0.0;
  }
  receipt.branch = done.branch;
  receipt.clip_radius = std::ldexp(done.clip_radius, exponent_);  // exact: r~ >= 2^-960
  if (adaptive(request_.variant)) {
    receipt.sigma_matrix = scaled_up(done.sigma_matrix, exponent_);
    receipt.sigma_eigenvalues = scaled_up(done.sigma_eigenvalues, exponent_);
  }
  receipt.seed_fixed = done.seed_fixed;
  release.receipt = std::move(receipt);
  result_ = std::move(release);
}

// dpcov's Adaptive: the release at rho_c as two halves, the second chosen after the first
// (proofs/dong_liang_yi.md, "Branch"). The first half is a Gauss release at rho_c / 2, which
// both branches use: Gauss averages it with a second one (the same law as one Gauss release at
// rho_c), Separate takes its eigenvectors. The branch with the smaller expected error, estimated
// from tr~ (the first half's trace if the first look settled) and the first half, chooses the
// second half.
DlyRelease DlyPasses::dpcov_branch_release(const Matrix &s) {
  random::Rng &rng = *rng_;
  DlyReceipt receipt = unit_receipt_;
  const double radius = unit_.radius * scale_;
  const double half = privacy::upward::half_down(receipt.rho_covariance);
  const double sigma = privacy::dly_gauss_sigma(half, radius, unit_.n);
  Matrix first = gauss_release(s, sigma, rng);
  const double upper = radius * radius;
  double trace_unit = trace_unit_;
  if (receipt.first_look_settled == 1) {
    // No trace was released: the first half's trace, private and unbiased, stands for it.
    double trace = 0.0;
    for (int64_t i = 0; i < unit_.dim; ++i) trace += first(i, i);
    trace_unit = std::clamp(trace / upper, 1e-16, 1.0);
  }
  const DlyBranchErrors e = dly_branch_errors(
      first, sigma, upper, dly_separate_bound(unit_, receipt.rho_covariance, trace_unit, u_));
  DlyRelease release;
  if (e.separate >= e.gauss) {
    const Matrix second = gauss_release(s, sigma, rng);
    for (int64_t j = 0; j < first.cols(); ++j)
      for (int64_t i = 0; i < first.rows(); ++i)
        first(i, j) = 0.5 * first(i, j) + 0.5 * second(i, j);  // no overflow
    release.covariance = postprocess::clip_eigenvalues(first, 0.0, upper);
    receipt.branch = static_cast<int32_t>(DlyVariant::Gauss);
    // The average's noise has standard deviation sigma / sqrt(2).
    receipt.sigma_matrix = privacy::upward::mul_up(sigma, privacy::upward::sqrt_up(0.5));
  } else {
    release.covariance = separate_release(s, first, sigma, upper, rng);
    receipt.branch = static_cast<int32_t>(DlyVariant::Separate);
    receipt.sigma_matrix = sigma;
    receipt.sigma_eigenvalues = sigma;
  }
  receipt.clip_radius = radius;
  receipt.seed_fixed = rng.seed_fixed();
  release.receipt = std::move(receipt);
  return release;
}

// Gauss, Separate, and AdaptivePaper's branch (Separate when its bound is below Gauss's, as the
// paper's code decides).
DlyRelease DlyPasses::fixed_branch_release(const Matrix &s) {
  random::Rng &rng = *rng_;
  DlyReceipt receipt = unit_receipt_;
  const double radius = unit_.radius * scale_;
  DlyVariant branch = unit_.variant;
  if (branch == DlyVariant::AdaptivePaper) {
    const ErrorBounds b = error_bounds(unit_, receipt.rho_covariance, trace_unit_);
    const double separate_bound = u_ * b.sep1 + u_ * u_ * b.sep2;
    branch = separate_bound >= u_ * u_ * b.gauss1 ? DlyVariant::Gauss : DlyVariant::Separate;
  }
  Matrix out;
  const double upper = radius * radius;
  if (branch == DlyVariant::Gauss) {
    receipt.sigma_matrix = privacy::dly_gauss_sigma(receipt.rho_covariance, radius, unit_.n);
    out = postprocess::clip_eigenvalues(gauss_release(s, receipt.sigma_matrix, rng), 0.0, upper);
  } else {
    const double half = privacy::upward::half_down(receipt.rho_covariance);
    receipt.sigma_matrix = privacy::dly_gauss_sigma(half, radius, unit_.n);
    receipt.sigma_eigenvalues = receipt.sigma_matrix;
    out = separate_release(s, gauss_release(s, receipt.sigma_matrix, rng), receipt.sigma_matrix,
                           upper, rng);
  }
  receipt.branch = static_cast<int32_t>(branch);
  receipt.clip_radius = radius;
  receipt.seed_fixed = rng.seed_fixed();
  return {std::move(out), std::move(receipt)};
}

DlyRelease dly_release(ConstMatrixView rows, const DlyRequest &request, random::Rng &rng) {
  DlyPasses passes(request, rng);
  if (rows.rows != request.n || rows.cols != request.dim)
    fail(Status::Dimension, "rows must be n x d = ", request.n, " x ", request.dim, ", got ",
         rows.rows, " x ", rows.cols);
  check::all_finite(rows, "rows");
  while (!passes.done()) {
    RowPartial partial = row_partial(passes.pass());
    add_rows(partial, rows);
    passes.finish_pass(partial);
  }
  return passes.release();
}

}  // namespace dpcov::mechanisms
