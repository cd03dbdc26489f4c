#include "pca.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "centring.hpp"

namespace dpcov::estimators {

namespace {

void check_k(int64_t k, int64_t d) {
  if (k < 1 || k > d) fail(Status::InvalidArgument, "k must be in [1, ", d, "], got ", k);
}

// The top-k eigenvectors of a as the columns of a d x k matrix, largest eigenvalue first.
Matrix top_vectors(const linalg::SymmetricEigen &e, int64_t k) {
  const int64_t d = e.vectors.rows();
  Matrix v(d, k);
  for (int64_t c = 0; c < k; ++c) {
    const int64_t src = d - 1 - c;
    int64_t arg_max = 0;
    for (int64_t i = 1; i < d; ++i)
      if (std::fabs(e.vectors(i, src)) > std::fabs(e.vectors(arg_max, src))) arg_max = i;
    const double sign = e.vectors(arg_max, src) < 0.0 ? -1.0 : 1.0;
    for (int64_t i = 0; i < d; ++i) v(i, c) = sign * e.vectors(i, src);
  }
  return v;
}

void check_level(double level, int64_t draws) {
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  if (draws < 1) fail(Status::InvalidArgument, "draws must be >= 1, got ", draws);
  if (draws > check::kMaxSimulationDraws)
    fail(Status::InvalidArgument, "draws must be at most DPCOV_MAX_SIMULATION_DRAWS = ",
         check::kMaxSimulationDraws, " (it bounds the simulation's time), got ", draws);
}

double spectral_norm(const Matrix &symmetric) {
  const std::vector<double> eig = linalg::eigvalsh(symmetric);
  return std::max(std::fabs(eig.front()), std::fabs(eig.back()));
}

// min over t of ||a - t I||_2 = (lambda_max - lambda_min) / 2: the part of a perturbation that
// can move eigenvectors (a + t I has the eigenvectors of a and the same gaps, so Weyl and
// Davis-Kahan apply to the shifted pair).
double shifted_spectral_norm(const Matrix &symmetric) {
  const std::vector<double> eig = linalg::eigvalsh(symmetric);
  return (eig.back() - eig.front()) / 2.0;
}

// The ceil(level * n)-th smallest of `values` (the empirical level-quantile, on the high side).
double quantile(std::vector<double> &values, double level) {
  std::sort(values.begin(), values.end());
  const auto n = static_cast<int64_t>(values.size());
  const auto q = static_cast<int64_t>(std::ceil(level * static_cast<double>(n))) - 1;
  return values[static_cast<size_t>(std::clamp<int64_t>(q, 0, n - 1))];
}

// Weyl and Davis-Kahan (Yu, Wang, Samworth 2015, Thm 2) from the release `a` and the noise-norm
// quantile eta.
SubspaceErrorBound davis_kahan(const Matrix &a, int64_t k, double eta) {
  const int64_t d = a.rows();
  check::finite_result(eta, "noise norm");  // a noise scale near DBL_MAX can overflow it
  SubspaceErrorBound out;
  out.noise_norm = eta;
  if (k == d) {
    // The whole space: no error. There is no lambda_{k+1}; the largest finite double stands for
    // an infinite gap, since a status of DPCOV_OK never comes with a non-finite output.
    out.eigengap = std::numeric_limits<double>::max();
    return out;
  }
  const std::vector<double> values = linalg::eigvalsh(a);  // ascending
  out.eigengap = values[static_cast<size_t>(d - k)] - values[static_cast<size_t>(d - k - 1)];
  // Eigenvalues near +-DBL_MAX: their difference can overflow.
  check::finite_result(out.eigengap, "eigengap");
  const double true_gap = out.eigengap - 2.0 * out.noise_norm;
  out.swamped = !(true_gap > 0.0);
  out.sin_theta_bound = out.swamped ? 1.0 : std::min(1.0, 2.0 * out.noise_norm / true_gap);
  return out;
}

// A bound on ||X~'X~ - X'X||_2 for rows X rounded to X~ = X - R with ||R||_2 <= r, given
// lambda_max(X~'X~) <= top: ||X~'R + R'X~ + R'R||_2 <= 2 sqrt(top) r + r^2
// (proofs/grid_rounding.md).
double rounding_norm(double top, double r) { return 2.0 * std::sqrt(std::max(top, 0.0)) * r + r * r; }

// The rounding's bound for the uncentred second moment: ||R||_2 <= ||R||_F <= sqrt(n d) u / 2,
// and on the event ||E||_2 <= eta, lambda_max(X~'X~) <= lambda_max(M) - mean + eta (Weyl).
double uncentred_rounding(const Matrix &released, const ReleaseNoise &noise, double eta) {
  if (noise.grid_unit == 0.0) return 0.0;
  if (noise.public_rows < 0)
    fail(Status::Precondition, "with exact numerics the rows were rounded to a grid (unit ",
         noise.grid_unit, "), whose error on the second moment grows with n, which add/remove ",
         "keeps private: use the centred bound (it reads the released count) or replace-one");
  const double d = static_cast<double>(released.rows());
  const double r = std::sqrt(static_cast<double>(noise.public_rows) * d) * noise.grid_unit / 2.0;
  const double top = linalg::eigvalsh(released).back() - noise_diagonal_mean(noise) + eta;
  return rounding_norm(top, r);
}

}  // namespace

PrincipalComponents principal_components(const Matrix &a, int64_t k, bool want_ratio) {
  const int64_t d = a.rows();
  check_k(k, d);
  const linalg::SymmetricEigen e = linalg::eigh(a);
  // The ratios are those of the PSD projection of a (its negative eigenvalues clipped to 0, the
  // nearest PSD matrix in Frobenius norm): each in [0, 1], summing to <= 1 over any k. The plain
  // values / trace(a) of an indefinite release can exceed 1 or be negative. Without a positive
  // eigenvalue the projection is 0 and explains nothing: every ratio is 0.
  // Summed over the largest eigenvalue, so that eigenvalues near DBL_MAX (whose sum overflows)
  // still give their ratios.
  const double top = std::max(e.values.back(), 0.0);
  double clipped_sum = 0.0;
  if (top > 0.0)
    for (const double v : e.values) clipped_sum += std::max(v, 0.0) / top;
  PrincipalComponents pc;
  pc.vectors = top_vectors(e, k);
  for (int64_t c = 0; c < k; ++c) {
    pc.values.push_back(e.values[static_cast<size_t>(d - 1 - c)]);
    if (want_ratio)
      pc.explained_ratio.push_back(
          clipped_sum > 0.0 ? std::max(pc.values.back(), 0.0) / top / clipped_sum : 0.0);
  }
  return pc;
}

SubspaceDistance subspace_distance(const Matrix &a, const Matrix &b, int64_t k) {
  const int64_t d = a.rows();
  if (b.rows() != d)
    fail(Status::Dimension, "the two matrices must have the same size, got ", d, " and ", b.rows());
  check_k(k, d);
  const Matrix u = top_vectors(linalg::eigh(a), k);
  const Matrix v = top_vectors(linalg::eigh(b), k);
  const Matrix utv = linalg::multiply(u, v, linalg::Trans::Yes);
  Matrix residual = v;  // V - U (U^T V)
  linalg::gemm(linalg::Trans::No, linalg::Trans::No, -1.0, u, utv, 1.0, residual);
  std::vector<double> cosines = linalg::singular_values(utv);     // descending
  std::vector<double> sines = linalg::singular_values(residual);  // descending
  std::reverse(sines.begin(), sines.end());
  SubspaceDistance out{{}, 0.0, 0.0};
  double sum_sq = 0.0;
  for (size_t i = 0; i < cosines.size(); ++i) {
    // Both lists describe the same angles, smallest first; rounding may leave a cosine slightly
    // above 1, which atan2 absorbs.
    const double angle = std::atan2(sines[i], cosines[i]);
    out.angles.push_back(angle);
    const double s = std::sin(angle);
    sum_sq += s * s;
    out.sin_theta_spectral = std::max(out.sin_theta_spectral, s);
  }
  out.sin_theta_frobenius = std::sqrt(sum_sq);
  return out;
}

SubspaceErrorBound subspace_error_bound(ConstMatrixView released, int64_t k,
                                        const ReleaseNoise &noise, double level, int64_t draws,
                                        random::Rng &rng) {
  check::all_finite(released, "released matrix");
  check::symmetric(released, "released matrix");
  const int64_t d = released.rows;
  check_k(k, d);
  validate(noise, d);
  check_level(level, draws);
  std::vector<double> norms;
  for (int64_t b = 0; b < draws; ++b) norms.push_back(spectral_norm(centred_noise(noise, d, rng)));
  const Matrix m = Matrix::from(released);
  const double eta = quantile(norms, level);
  return davis_kahan(m, k, eta + uncentred_rounding(m, noise, eta));
}

SubspaceErrorBound centred_subspace_error_bound(ConstMatrixView released, int64_t constant_column,
                                                double constant, int64_t n, int64_t k,
                                                const ReleaseNoise &noise, double level,
                                                int64_t draws, random::Rng &rng) {
  const int64_t dim = released.rows;
  check_centring(dim, constant_column, constant, n);
  check::all_finite(released, "released matrix");
  check::symmetric(released, "released matrix");
  check_k(k, dim - 1);
  validate(noise, dim);
  check_level(level, draws);
  // The release minus its noise's mean, the matrix whose components the surfaces print: under
  // add/remove a Wishart mean left in S_cc would also inflate the released count, which moves
  // the centred matrix by more than a multiple of I.
  const double mean = noise_diagonal_mean(noise);
  Matrix unbiased = Matrix::from(released);
  for (int64_t i = 0; i < dim; ++i) unbiased(i, i) -= mean;
  const Centred centred = centre_second_moment(unbiased.view(), constant_column, constant, n);
  check::finite_result(centred.count, "count");  // S_cc / c^2 overflows for a tiny c
  const Matrix &at_release = centred.covariance;
  check::finite_result(at_release.view(), "centred covariance");
  std::vector<double> norms;
  std::vector<double> tops;  // lambda_max of the plausible centred matrices, for the rounding
  for (int64_t b = 0; b < draws; ++b) {
    // A plausible data matrix M - E for one draw E of the noise (mean included: a Wishart's mean
    // moves the count and the means, not just every eigenvalue alike).
    Matrix truth = unbiased;
    const Matrix e = centred_noise(noise, dim, rng);
    for (int64_t j = 0; j < dim; ++j)
      for (int64_t i = 0; i < dim; ++i) truth(i, j) -= e(i, j);
    // A draw whose count falls below 1 has no centred matrix: the noise swamps n there.
    const bool counted = n > 0 || truth(constant_column, constant_column) >= constant * constant;
    double norm = std::numeric_limits<double>::infinity();
    if (counted) {
      const Matrix plausible =
          centre_second_moment(truth.view(), constant_column, constant, n).covariance;
      Matrix diff(dim - 1, dim - 1);
      bool finite = true;
      for (int64_t j = 0; j < dim - 1; ++j)
        for (int64_t i = 0; i < dim - 1; ++i) {
          diff(i, j) = at_release(i, j) - plausible(i, j);
          finite = finite && std::isfinite(diff(i, j));
        }
      if (finite) norm = shifted_spectral_norm(diff);
      if (finite && noise.grid_unit > 0.0) tops.push_back(linalg::eigvalsh(plausible).back());
    }
    norms.push_back(norm);
  }
  const double eta = quantile(norms, level);
  if (!std::isfinite(eta))
    fail(Status::Precondition, "the privacy noise swamps the number of rows in more than ",
         1.0 - level, " of the simulated draws: no centred subspace error bound");
  // The rounding to the exact grid: the centred rows' errors R_c / sqrt(n) have
  // ||R_c||_2 / sqrt(n) <= sqrt(d) u / 2 at any n, and lambda_max of the rounded rows' centred
  // covariance is read as eta is, from the plausible matrices (proofs/grid_rounding.md).
  double rounding = 0.0;
  if (noise.grid_unit > 0.0) {
    const double r = std::sqrt(static_cast<double>(dim - 1)) * noise.grid_unit / 2.0;
    rounding = rounding_norm(quantile(tops, level), r);
  }
  return davis_kahan(at_release, k, eta + rounding);
}

}  // namespace dpcov::estimators
