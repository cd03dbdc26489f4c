// Utility of IEV on real data, the setting of Amin et al. (NeurIPS 2019, Sec. 4): on the UCI Wine
// data (178 x 13, columns scaled to [-1, 1] by their public ranges, rows divided by sqrt 13 so
// B = 1), the mean normalised Frobenius error over 20 seeds falls as epsilon grows, and at
// epsilon in {0.1, 1} it is below that of the symmetric Laplace mechanism (both clipped to
// [0, n B^2]). Sanity checks with fixed seeds, not statistical claims; bench/wine_utility prints
// the full table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "core/linalg/blas.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/postprocess/eigenvalue_clip.hpp"
#include "dpcov.h"

namespace dpcov::mechanisms {
namespace {

// Published column ranges of data/README.md.
constexpr double kMin[13] = {11.0, 0.74, 1.36, 10.6, 70.0, 0.98, 0.34, 0.13, 0.41, 1.3, 0.48, 1.27, 278.0};
constexpr double kMax[13] = {14.8, 5.80, 3.23, 30.0, 162.0, 3.88, 5.08, 0.66, 3.58, 13.0, 1.71, 4.00, 1680.0};

Matrix wine_gram(int64_t &n) {
  const char *path = std::getenv("DPCOV_WINE_CSV");
  if (path == nullptr) throw std::runtime_error("DPCOV_WINE_CSV is not set");
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string field;
    std::vector<double> row;
    for (int j = 0; j < 13; ++j) {
      std::getline(fields, field, ',');
      row.push_back((2.0 * (std::stod(field) - kMin[j]) / (kMax[j] - kMin[j]) - 1.0) / std::sqrt(13.0));
    }
    rows.push_back(row);
  }
  n = static_cast<int64_t>(rows.size());
  Matrix a(n, 13);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < 13; ++j) a(i, j) = rows[static_cast<size_t>(i)][static_cast<size_t>(j)];
  Matrix g = linalg::multiply(a, a, linalg::Trans::Yes, linalg::Trans::No);
  linalg::symmetrize_from_upper(g);
  return g;
}

double mean_error(MechanismId id, const Matrix &g, int64_t n, double eps) {
  constexpr int kRepeats = 20;
  double norm = 0.0;
  for (int64_t j = 0; j < g.cols(); ++j)
    for (int64_t i = 0; i < g.rows(); ++i) norm += g(i, j) * g(i, j);
  double sum = 0.0;
  for (int r = 0; r < kRepeats; ++r) {
    random::Rng rng = random::Rng::from_seed(20261122, static_cast<uint64_t>(r));
    const Release out = release(id, g.view(), Request{13, n, 1.0, eps, 0.0, Options{}}, rng);
    const Matrix clipped = postprocess::clip_eigenvalues(out.matrix, 0.0, static_cast<double>(n));
    double e = 0.0;
    for (int64_t j = 0; j < g.cols(); ++j)
      for (int64_t i = 0; i < g.rows(); ++i) e += (clipped(i, j) - g(i, j)) * (clipped(i, j) - g(i, j));
    sum += std::sqrt(e / norm);
  }
  return sum / kRepeats;
}

TEST(IevWine, ErrorFallsAsEpsilonGrowsAndIsBelowSymmetricLaplaceAtSmallEpsilon) {
  int64_t n = 0;
  const Matrix g = wine_gram(n);
  ASSERT_EQ(n, 178);
  for (MechanismId id : {MechanismId::Iev, MechanismId::KtRank1}) {
    double previous = std::numeric_limits<double>::infinity();
    for (double eps : {0.1, 0.5, 1.0, 2.0}) {
      const double error = mean_error(id, g, n, eps);
      EXPECT_LT(error, previous) << mechanism_name(id) << " eps " << eps;
      previous = error;
    }
  }
  for (double eps : {0.1, 1.0})
    EXPECT_LT(mean_error(MechanismId::Iev, g, n, eps), mean_error(MechanismId::LaplaceSym, g, n, eps))
        << "eps " << eps;
}

}  // namespace
}  // namespace dpcov::mechanisms
