// The exact-density audit of the releases on the rows over several neighbouring pairs
// (core/audit/rows_exact_audit.hpp, audit_rows_exact_pairs, behind dpcov_audit_rows_exact_pairs):
// pair 0 is the axis pair, whose change of the second moment is diagonal; pair k >= 1 is the
// axis pair rotated by an orthogonal Q_k drawn from the seed.
//
// - A rotated pair keeps what the exact density needs: every row's norm (so the clipping), the
//   second moments' eigenvalues (so the clamp margin of 40 sigma), and the pair's distance (it
//   spends the claimed rho at most: the upper-triangle norm of a rotated change is at most its
//   Frobenius norm, the axis pair's).
// - The library's dly_gauss, dly_separate (eigenvalues) and coinpress (t = 1) releases are not
//   flagged on four pairs.
// - Known-broken release that only the rotated pairs catch: the second moment's off-diagonal
//   entries counted twice (a symmetrisation that adds both triangles). The axis pair's rows lie
//   on the axes, where every off-diagonal entry is 0, so it cannot see it; a rotated pair can.
//
// Error rate: alpha = 1e-6 per audit over all its pairs (each pair at alpha / pairs); fixed seeds.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "core/linalg/blas.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "gaussian_release_audit.hpp"

namespace dpcov::audit::gaussian_release {
namespace {

constexpr int64_t kTrials = 2000, kPairs = 4;
constexpr double kAlpha = 1e-6;
constexpr uint64_t kSeed = 29;

RowsExactRequest claim(RowsMechanism mechanism) {
  RowsExactRequest r;
  r.mechanism = mechanism;
  r.rho = 0.5;
  return r;
}

double row_norm(const Matrix &rows, int64_t i) {
  double sum = 0.0;
  for (int64_t j = 0; j < rows.cols(); ++j) sum += rows(i, j) * rows(i, j);
  return std::sqrt(sum);
}

TEST(RowsExactPairs, RotatedPairsKeepNormsEigenvaluesAndTheClaimedRho) {
  for (const RowsMechanism m :
       {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate, RowsMechanism::Coinpress}) {
    const Subject axis = rows_exact_subject(claim(m));
    for (int64_t pair = 1; pair < kPairs; ++pair) {
      const Subject s = rows_exact_subject(claim(m), pair, kSeed);
      EXPECT_GE(clamp_margin(s), 40.0 * (1.0 - 1e-9)) << s.name << " pair " << pair;
      // The pair's distance is at most the axis pair's, which attains the sensitivity.
      EXPECT_LE(s.shift().first, axis.shift().first * (1.0 + 1e-12)) << s.name;
      for (int k = 0; k < 2; ++k) {
        for (int64_t i = 0; i < s.rows[k].rows(); i += 97)
          EXPECT_NEAR(row_norm(s.rows[k], i), row_norm(axis.rows[k], i), 1e-14 * axis.unit);
        const std::vector<double> a = linalg::eigvalsh(axis.base[k]);
        const std::vector<double> b = linalg::eigvalsh(s.base[k]);
        for (size_t j = 0; j < a.size(); ++j)
          EXPECT_NEAR(a[j], b[j], 1e-14 * axis.unit * axis.unit);
      }
      // Upper-triangle coordinates: the rotated change has off-diagonal entries.
      if (m != RowsMechanism::DlySeparate) {
        double off = 0.0;
        for (int64_t i = 0; i < 3; ++i)
          for (int64_t j = i + 1; j < 3; ++j)
            off += std::fabs(s.base[1](i, j) - s.base[0](i, j));
        EXPECT_GT(off, 1e-3 * axis.shift().first) << s.name << " pair " << pair;
      }
    }
  }
}

TEST(RowsExactPairs, TheLibrarysReleasesAreNotFlaggedOnAnyPair) {
  for (const RowsMechanism m :
       {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate, RowsMechanism::Coinpress}) {
    const RowsExactPairs p = audit_rows_exact_pairs(claim(m), kPairs, kTrials, kAlpha, kSeed);
    EXPECT_FALSE(p.worst.flagged()) << rows_exact_subject(claim(m)).name << " worst pair "
                                    << p.worst_pair;
    EXPECT_EQ(p.samples, kPairs * 2 * kTrials);
    EXPECT_GE(p.worst_pair, 0);
    EXPECT_LT(p.worst_pair, kPairs);
  }
}

TEST(RowsExactPairs, OffDiagonalEntriesCountedTwiceShowOnlyOnRotatedPairs) {
  const RowsExactRequest request = claim(RowsMechanism::DlyGauss);
  const Release library = rows_exact_release(request);
  const double unit = rows_exact_subject(request).unit;
  // The release plus the off-diagonal part of S once more: S_ij counted twice for i != j.
  const Release broken = [library, unit](ConstMatrixView rows, random::Rng &rng) {
    Matrix out = library(rows, rng);
    const Matrix s = clipped_second_moment(Matrix::from(rows), unit);
    for (int64_t i = 0; i < out.rows(); ++i)
      for (int64_t j = 0; j < out.cols(); ++j)
        if (i != j) out(i, j) += s(i, j);
    return out;
  };
  const RowsExactPairs axis_only =
      audit_rows_exact_pairs(request, broken, 1, kTrials, kAlpha, kSeed);
  EXPECT_FALSE(axis_only.worst.flagged());
  const RowsExactPairs rotated =
      audit_rows_exact_pairs(request, broken, kPairs, kTrials, kAlpha, kSeed);
  EXPECT_TRUE(rotated.worst.flagged());
  EXPECT_GE(rotated.worst_pair, 1);
}

// The audits draw the library's release through rows_exact_pair_release(), which forms each
// pass's sums over the pair's rows once: every draw must be the in-memory release's with the same
// generator, byte for byte, on both datasets, at unit level and rows only, on a rotated pair, and
// on rows that are not the pair's (formed afresh).
TEST(RowsExactPairs, ThePairReleaseIsTheLibrarysReleaseByteForByte) {
  for (const RowsMechanism m :
       {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate, RowsMechanism::Coinpress})
    for (const int64_t k : {int64_t{1}, int64_t{3}})
      for (const bool rows_only : {false, true}) {
        if (k == 1 && rows_only) continue;
        RowsExactRequest request = claim(m);
        request.max_rows_per_unit = k;
        request.rows_only = rows_only;
        const Subject s = rows_exact_subject(request, 1, kSeed);
        const Release library = rows_exact_release(request);
        const Release pair = rows_exact_pair_release(request, s);
        const Matrix other = s.rows[0];
        for (uint64_t draw = 0; draw < 3; ++draw)
          for (const Matrix *rows : {&s.rows[0], &s.rows[1], &other}) {
            random::Rng a = random::Rng::from_seed(kSeed, draw), b = a;
            const Matrix x = pair(rows->view(), a), y = library(rows->view(), b);
            ASSERT_EQ(x.rows(), y.rows());
            ASSERT_EQ(x.cols(), y.cols());
            for (int64_t i = 0; i < x.rows(); ++i)
              for (int64_t j = 0; j < x.cols(); ++j)
                EXPECT_EQ(std::bit_cast<uint64_t>(x(i, j)), std::bit_cast<uint64_t>(y(i, j)))
                    << s.name << " k " << k << " rows_only " << rows_only << " draw " << draw;
            EXPECT_EQ(a.next_u64(), b.next_u64()) << "the same draws consumed";
          }
      }
}

}  // namespace
}  // namespace dpcov::audit::gaussian_release
