#include "weak_directions.hpp"

#include <cmath>
#include <string>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "worlds_truth.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

}  // namespace

double direction_noise_sd(const ReleaseNoise &noise, const std::vector<double> &u) {
  const auto p = static_cast<int64_t>(u.size());
  Matrix b(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) b(i, j) = u[at(i)] * u[at(j)];
  const Matrix q = noise_second_moment(noise, b);
  double variance = 0.0;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) variance += u[at(i)] * q(i, j) * u[at(j)];
  return std::sqrt(variance);
}

std::vector<double> weak_loadings(const Matrix &directions, const Matrix *strength,
                                  const ReleaseNoise &noise, double noise_sds) {
  const int64_t p = directions.rows();
  const linalg::SymmetricEigen eig = linalg::eigh(directions);
  std::vector<double> loading(at(p), 0.0), u(at(p));
  for (int64_t k = 0; k < p; ++k) {
    for (int64_t i = 0; i < p; ++i) u[at(i)] = eig.vectors(i, k);
    double value = eig.values[at(k)];
    if (strength != nullptr) {
      value = 0.0;
      for (int64_t j = 0; j < p; ++j)
        for (int64_t i = 0; i < p; ++i) value += u[at(i)] * (*strength)(i, j) * u[at(j)];
    }
    // ">=" rather than "<": a NaN strength or noise sd fails it and counts as weak.
    if (value >= noise_sds * direction_noise_sd(noise, u)) continue;
    for (int64_t i = 0; i < p; ++i) loading[at(i)] += u[at(i)] * u[at(i)];
  }
  return loading;
}

std::vector<bool> unbounded_coefficients(const Matrix &g, const ReleaseNoise &noise) {
  const std::vector<double> loading = weak_loadings(g, nullptr, noise, kWeakDirectionNoiseSds);
  std::vector<bool> out(loading.size());
  for (size_t i = 0; i < loading.size(); ++i) out[i] = loading[i] >= kWeakLoading;
  return out;
}

void refuse_unbounded(const std::vector<bool> &unbounded) {
  std::string which;
  for (size_t j = 0; j < unbounded.size(); ++j)
    if (unbounded[j]) which += (which.empty() ? "" : ", ") + std::to_string(j);
  if (!which.empty())
    fail(Status::Precondition, "the release cannot bound coefficients ", which, ": they lie along "
         "a direction of X'X too weak against the privacy noise (the profile of the pivot leaves "
         "their set open, or the direction is less than ", kWeakDirectionNoiseSds, " noise "
         "standard deviations strong, which the noise may have made); more rows, a larger "
         "epsilon, or columns that use more of their range");
}

}  // namespace dpcov::estimators
