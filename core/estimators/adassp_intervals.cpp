#include "adassp_intervals.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "adassp_posterior.hpp"
#include "ols_bootstrap.hpp"
#include "pivot_profile.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

void check_intercept(const mechanisms::AdasspReceipt &receipt, int64_t intercept_column) {
  if (intercept_column < -1 || intercept_column >= receipt.dim)
    fail(Status::InvalidArgument, "intercept column must be -1 or in [0, ", receipt.dim,
         "), got ", intercept_column);
}

void mark_conclusive(RegressionIntervals &out, const mechanisms::AdasspReceipt &receipt,
                     int64_t intercept_column) {
  if (out.conclusive.empty()) out.conclusive.assign(out.ci_lower.size(), kConclusive);
  for (size_t j = 0; j < out.ci_lower.size(); ++j) {
    if (out.conclusive[j] == kUnconverged) continue;  // no interval to judge
    const double r = relevant_half_range(receipt, intercept_column, static_cast<int64_t>(j));
    if (out.ci_lower[j] <= -r && out.ci_upper[j] >= r) out.conclusive[j] = kCoversAll;
  }
}

}  // namespace

RegressionIntervals adassp_intervals(const Matrix &xtx_released,
                                     const std::vector<double> &xty_released,
                                     double yty_released, int64_t n,
                                     const mechanisms::AdasspReceipt &receipt,
                                     int64_t intercept_column, double level, int64_t draws,
                                     random::Rng &rng) {
  check_intercept(receipt, intercept_column);
  RegressionIntervals out;
  random::Rng local = rng;
  try {
    BootstrapIntervals b = adassp_bootstrap_intervals(xtx_released, xty_released, yty_released, n,
                                                      receipt, level, draws, local);
    out.coefficients = std::move(b.coefficients);
    out.std_errors = std::move(b.std_errors);
    out.p_values = std::move(b.p_values);
    out.ci_lower = std::move(b.ci_lower);
    out.ci_upper = std::move(b.ci_upper);
  } catch (const Error &e) {
    if (e.status() != Status::Precondition) throw;
    local = rng;
    PosteriorIntervals q = adassp_posterior_intervals(xtx_released, xty_released, yty_released,
                                                      n, receipt, intercept_column, level, draws,
                                                      local);
    out.method = IntervalMethod::Posterior;
    out.coefficients = std::move(q.coefficients);
    out.std_errors = std::move(q.std_errors);
    out.p_values = std::move(q.p_values);
    out.ci_lower = std::move(q.ci_lower);
    out.ci_upper = std::move(q.ci_upper);
    const double min_share = min_sampling_share(level);
    for (size_t j = 0; j < q.converged.size(); ++j)
      out.conclusive.push_back(q.converged[j] != 1                  ? kUnconverged
                               : !(q.sampling_share[j] >= min_share) ? kPriorDecides
                                                                     : kConclusive);
  }
  mark_conclusive(out, receipt, intercept_column);
  rng = local;
  return out;
}

RegressionIntervals adassp_profile_intervals(const Matrix &xtx_released,
                                             const std::vector<double> &xty_released,
                                             double yty_released, int64_t n,
                                             const Matrix *meat_released,
                                             const mechanisms::AdasspReceipt &receipt,
                                             int64_t intercept_column, double level) {
  check_intercept(receipt, intercept_column);
  const int64_t p = receipt.dim;
  if (xtx_released.rows() != p || xtx_released.cols() != p ||
      static_cast<int64_t>(xty_released.size()) != p ||
      (meat_released != nullptr && (meat_released->rows() != p || meat_released->cols() != p)))
    fail(Status::Dimension, "the released X'X (and meat) must be ", p, " x ", p,
         " and X'y of length ", p);
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  check::all_finite(xtx_released.view(), "released X'X");
  check::symmetric(xtx_released.view(), "released X'X");
  if (meat_released == nullptr) {
    if (!receipt.label_square)
      fail(Status::InvalidArgument, "homoscedastic intervals need y'y released (or a meat)");
    if (n <= p) fail(Status::InvalidArgument, "n must exceed p = ", p, ", got ", n);
    check::finite(yty_released, "released y'y");
  } else {
    check::all_finite(meat_released->view(), "released meat");
    check::symmetric(meat_released->view(), "released meat");
  }
  const ReleaseNoise noise = adassp_fit_noise(receipt);
  validate(noise, p + 1);
  Matrix sampling;
  if (meat_released != nullptr) {
    sampling = postprocess::project_psd(*meat_released);
  } else {
    // s^2 from the release's residual sum, then S = s^2 G^ (its sampling covariance given X).
    const linalg::SymmetricEigen eig = linalg::eigh(xtx_released);
    double fitted = 0.0;
    for (int64_t k = 0; k < p; ++k) {
      double uk = 0.0;
      for (int64_t i = 0; i < p; ++i) uk += eig.vectors(i, k) * xty_released[at(i)];
      fitted += uk * uk / eig.values[at(k)];
    }
    const double s2 = std::isfinite(fitted)
                          ? std::max(0.0, yty_released - fitted) / static_cast<double>(n - p)
                          : 0.0;
    sampling = xtx_released;
    for (int64_t b = 0; b < p; ++b)
      for (int64_t a = 0; a < p; ++a) sampling(a, b) *= s2;
  }
  std::vector<double> half_ranges(at(p));
  for (int64_t j = 0; j < p; ++j)
    half_ranges[at(j)] = relevant_half_range(receipt, intercept_column, j);
  ProfileIntervals found = pivot_profile_intervals(
      pivot_profile(xtx_released, xty_released, std::move(sampling), noise), level, half_ranges);
  RegressionIntervals out;
  out.method = IntervalMethod::Profile;
  out.coefficients = std::move(found.coefficients);
  out.p_values = std::move(found.p_values);
  out.ci_lower = std::move(found.ci_lower);
  out.ci_upper = std::move(found.ci_upper);
  mark_conclusive(out, receipt, intercept_column);
  // A set the release leaves open on one side is written to the search's end, not to a value
  // the data bound: it supports no conclusion either.
  for (int64_t j = 0; j < p; ++j)
    if (found.lower_open[at(j)] || found.upper_open[at(j)]) out.conclusive[at(j)] = kCoversAll;
  return out;
}

}  // namespace dpcov::estimators
