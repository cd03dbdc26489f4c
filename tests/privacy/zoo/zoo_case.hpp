// The bug zoo: releases that peer libraries shipped with a privacy bug, each rebuilt in its own
// file pair beside its corrected form, so that the auditor can be shown to flag the first and to
// pass the second on the same pair. A case is what run_exact_audit() needs: the target (the
// implementation with its claim) and the neighbouring pair's statistics.
#pragma once

#include <cstdint>
#include <string>

#include "core/audit/loss_audit.hpp"
#include "core/audit/target.hpp"
#include "core/matrix.hpp"

namespace dpcov::audit::zoo {

struct ZooCase {
  std::string name;
  Target target;
  PairStatistics pair;
};

// Whether a case is the shipped bug or its correction.
enum class Variant { Broken, Corrected };

// X^T X of rows of any norm: the pipelines here compute statistics of raw rows, which
// gram_of() (rows of norm <= B only) refuses.
Matrix raw_gram(const Matrix &rows);

// The pair of the Gaussian mechanisms' replace-one sensitivity: n rows in dimension d, row 0
// B e_1 -> B e_2, the others B (e_1 + e_2) / 2 (norm B / sqrt(2)); their Gram matrices.
PairStatistics axis_pair(int64_t n, int64_t d, double bound);

// The epsilon at which a Gaussian mechanism of L2 sensitivity 1 and noise sigma has delta(eps) =
// delta (the analytic Gaussian profile), by bisection, rounded up (delta(eps) <= delta there):
// the (eps, delta) that a mu-GDP claim (mu = 1 / sigma) states.
double gaussian_epsilon_at(double sigma, double delta);

// Whether value(i) == target for some integer i in [lo, hi), value monotone (non-decreasing when
// `increasing`, else non-increasing): bisection for the first i at or past the target. The
// support tests of the floating-point samplers: each draw is a monotone function of the integer
// its random bits select, so whether an output can occur at all is decided exactly.
template <class Value>
bool monotone_hits(Value value, uint64_t lo, uint64_t hi, double target, bool increasing) {
  const auto past = [&](uint64_t i) { return increasing ? value(i) >= target : value(i) <= target; };
  if (lo >= hi || !past(hi - 1)) return false;
  while (lo < hi - 1) {  // past(hi - 1); the first index at or past the target is in [lo, hi - 1]
    const uint64_t mid = lo + (hi - 1 - lo) / 2;
    if (past(mid)) hi = mid + 1; else lo = mid + 1;
  }
  return value(lo) == target;
}

// A release of `statistic` plus symmetric N(0, sigma_used^2) noise on the upper triangle,
// claiming (epsilon, delta) and noise N(0, sigma_claimed^2) around the statistic it is called
// with. sigma_used != sigma_claimed is a sampler that does not draw what the claim says.
Target gaussian_statistic_target(const std::string &name, double epsilon, double delta,
                                 double sigma_claimed, double sigma_used);

}  // namespace dpcov::audit::zoo
