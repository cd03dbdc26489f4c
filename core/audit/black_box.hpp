// The black-box audit, for releases without a tractable density (e.g. the whole iterative
// eigenvector release): draws releases under D and D', reduces each to a documented scalar
// statistic, and tests events of that scalar. For an event S, P_D(S) - e^eps P_D'(S) <= delta for
// every (eps, delta)-DP mechanism; the audit bounds P_D(S) from below and P_D'(S) from above by
// Clopper-Pearson and flags when the resulting lower bound on delta exceeds the claim.
//
// Events: the scalar's range is cut at the bins - 1 quantiles of a pilot sample (pilot draws from
// each dataset, pooled, not reused), and the tested events are every bin, every lower tail and
// every upper tail: M = 3 bins - 2 events, each in both directions. alpha is split evenly over the
// 2 M x 2 one-sided bounds (Bonferroni), so a mechanism that satisfies its claim is flagged with
// probability <= alpha.
#pragma once

#include <cstdint>
#include <string>

#include "loss_audit.hpp"
#include "target.hpp"

namespace dpcov::audit {

enum class Statistic : int32_t {
  // lambda_max(released).
  TopEigenvalue = 0,
  // |<u_1(released), e>|, u_1 the top eigenvector of the release and e the unit eigenvector of
  // the largest |eigenvalue| of G' - G (the direction the pair changes).
  TopEigenvectorAlignment = 1,
  // min(lambda_min(released - G), lambda_min(released - G')): negative only if the release is
  // outside the positive-definite cone above one of the two statistics, which a positive-definite
  // noise never does above its own.
  LeastEigenvalueAbovePair = 2,
};

const char *statistic_name(Statistic statistic);

struct BlackBoxSettings {
  int64_t trials = 2000;  // draws per dataset for the test, >= 10
  int64_t pilot = 200;    // draws per dataset to place the bin edges, >= bins
  int bins = 10;          // >= 2
  double alpha = 1e-6;
  uint64_t seed = 0;
  Statistic statistic = Statistic::TopEigenvalue;
};

struct BlackBoxReport {
  std::string name;
  std::string statistic;
  double epsilon = 0.0;
  double delta = 0.0;
  int64_t samples = 0;          // draws over both datasets, pilot included
  double delta_lower = 0.0;     // max over events and directions of lower(P_D(S)) - e^eps upper(P_D'(S))
  std::string event;            // the event attaining it, e.g. "D' vs D: s <= 1.25"
  double alpha_per_bound = 0.0;
  // The power of these draws (power.hpp): the smallest P_D(S) flagged on an event S that no draw
  // from the other dataset falls in.
  double detectable_delta = 1.0;
  bool violation = false;
};

BlackBoxReport run_black_box_audit(const Target &target, const PairStatistics &pair,
                                   const BlackBoxSettings &settings);

}  // namespace dpcov::audit
