// The status of a release on rows is the same on neighbouring datasets whatever one row holds:
// Dong-Liang-Yi (every variant), CoinPress covariance (t = 1, 2, 3) and CoinPress mean, on pairs
// that replace one row by a finite extreme one (the largest double, 1e154 whose square overflows,
// mixed magnitudes, subnormals) or by zero, with the same seed. A status that depended on that row
// (an error on one dataset and a release on its neighbour) would reveal it with certainty:
// CoinPress covariance failed with DPCOV_E_NON_FINITE on a finite row near the largest double once
// the whitening of a later step overflowed. Each release is also finite. Deterministic (fixed
// seeds); budgets where the noise cannot overflow.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/coinpress.hpp"
#include "core/mechanisms/coinpress_mean.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "dpcov.h"

namespace dpcov {
namespace {

constexpr int64_t kDim = 3, kRows = 20;

// The status of one release (DPCOV_OK if it released), and whether its output is finite.
struct Outcome {
  dpcov_status status = DPCOV_OK;
  bool finite = true;
};

using Release = std::function<Matrix(ConstMatrixView rows, random::Rng &rng)>;

Outcome outcome(const Release &release, const Matrix &rows, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  Outcome o;
  try {
    const Matrix out = release(rows.view(), rng);
    for (int64_t j = 0; j < out.cols(); ++j)
      for (int64_t i = 0; i < out.rows(); ++i) o.finite = o.finite && std::isfinite(out(i, j));
  } catch (const Error &e) {
    o.status = static_cast<dpcov_status>(e.status());
  }
  return o;
}

std::vector<std::vector<double>> extreme_rows() {
  const double big = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  return {{0.0, 0.0, 0.0},    {big, big, big},       {big, -big, 0.0},
          {-big, 0.0, 0.0},   {1e154, 1e154, 1e154}, {1e200, -1e-200, tiny},
          {big, tiny, -tiny}, {tiny, tiny, tiny},    {1e-160, 1e-160, 0.0}};
}

std::vector<std::pair<std::string, Release>> releases() {
  std::vector<std::pair<std::string, Release>> out;
  for (const double rho : {1e-3, 1.0, 1e3}) {
    for (int v = 0; v < 4; ++v)
      out.emplace_back("dly variant " + std::to_string(v) + " rho " + std::to_string(rho),
                       [v, rho](ConstMatrixView rows, random::Rng &rng) {
                         mechanisms::DlyRequest r;
                         r.variant = static_cast<mechanisms::DlyVariant>(v);
                         r.dim = kDim;
                         r.n = kRows;
                         r.rho = rho;
                         return mechanisms::dly_release(rows, r, rng).covariance;
                       });
    for (const int64_t steps : {1, 2, 3})
      for (const double k : {1.0, 100.0})
        out.emplace_back("coinpress t " + std::to_string(steps) + " K " + std::to_string(k) +
                             " rho " + std::to_string(rho),
                         [steps, k, rho](ConstMatrixView rows, random::Rng &rng) {
                           mechanisms::CoinpressRequest r;
                           r.dim = kDim;
                           r.n = kRows;
                           r.rho = rho;
                           r.k_bound = k;
                           r.steps = steps;
                           return mechanisms::coinpress_release(rows, r, rng).covariance;
                         });
    out.emplace_back(
        "coinpress_mean rho " + std::to_string(rho), [rho](ConstMatrixView rows, random::Rng &rng) {
          mechanisms::CoinpressMeanRequest r;
          r.dim = kDim;
          r.n = kRows;
          r.rho = rho;
          r.radius = 10.0;
          return mechanisms::coinpress_mean_release(rows, std::vector<double>(kDim, 0.0), r, rng)
              .centres;
        });
  }
  return out;
}

TEST(RowsExtremeNeighbours, TheStatusDoesNotDependOnTheChangedRow) {
  const std::vector<std::vector<double>> extremes = extreme_rows();
  for (const auto &[name, release] : releases())
    for (size_t a = 0; a < extremes.size(); ++a) {
      Matrix rows(kRows, kDim);
      for (int64_t i = 1; i < kRows; ++i)
        for (int64_t j = 0; j < kDim; ++j)
          rows(i, j) = 0.3 * std::sin(static_cast<double>(i) + 3.0 * static_cast<double>(j));
      for (int64_t j = 0; j < kDim; ++j) rows(0, j) = extremes[a][static_cast<size_t>(j)];
      for (uint64_t seed = 0; seed < 4; ++seed) {
        const Outcome o = outcome(release, rows, seed);
        SCOPED_TRACE(name + ", extreme row " + std::to_string(a) + ", seed " +
                     std::to_string(seed));
        // The zero row (a = 0) releases, so every neighbour must too.
        EXPECT_EQ(o.status, DPCOV_OK);
        EXPECT_TRUE(o.finite);
      }
    }
}

// Dong-Liang-Yi at public radii up to the largest it accepts, sqrt(DBL_MAX / 2): X^T X / n is
// computed on rows scaled by a power of two, so rows at the bound (whose squares sum past the
// largest double) release as their neighbours do. The sum once overflowed: at r = 1e154, rows
// (1e154, 0), (0, 1e154), (7e153, 7e153), (1e154, 0) were refused on every seed and the same
// rows with the last one zero released. The status of the zero-row neighbour is the expected one
// (a plan whose noise could overflow is refused for both).
TEST(RowsExtremeNeighbours, DongLiangYiAtExtremeRadiiDoesNotDependOnTheChangedRow) {
  const double largest = std::sqrt(std::numeric_limits<double>::max() / 2);
  for (const double r : {largest, 1e150, 1e-280, std::ldexp(1.0, -950)})
    for (const double rho : {1e-3, 1.0, 1e4})
      for (int v = 0; v < 4; ++v) {
        mechanisms::DlyRequest request;
        request.variant = static_cast<mechanisms::DlyVariant>(v);
        request.dim = 2;
        request.n = 4;
        request.rho = rho;
        request.radius = r;
        const Release release = [&request](ConstMatrixView rows, random::Rng &rng) {
          return mechanisms::dly_release(rows, request, rng).covariance;
        };
        Matrix rows(4, 2);
        rows(0, 0) = r;
        rows(1, 1) = r;
        rows(2, 0) = rows(2, 1) = 0.7 * r;
        for (const std::vector<double> &last :
             std::vector<std::vector<double>>{{0.0, 0.0}, {r, 0.0}, {-r, r}, {0.7 * r, -0.7 * r}}) {
          rows(3, 0) = last[0];
          rows(3, 1) = last[1];
          for (uint64_t seed = 0; seed < 4; ++seed) {
            Matrix zero_last = rows;
            zero_last(3, 0) = zero_last(3, 1) = 0.0;
            const Outcome expected = outcome(release, zero_last, seed);
            const Outcome o = outcome(release, rows, seed);
            SCOPED_TRACE("variant " + std::to_string(v) + " r " + std::to_string(r) + " rho " +
                         std::to_string(rho) + " seed " + std::to_string(seed));
            EXPECT_EQ(o.status, expected.status);
            EXPECT_TRUE(o.finite);
            if (rho == 1e4) {
              EXPECT_EQ(o.status, DPCOV_OK);  // the noise fits at every radius here
            }
          }
        }
      }
}

}  // namespace
}  // namespace dpcov
