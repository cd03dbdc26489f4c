// Advanced composition (Dwork, Rothblum and Vadhan, FOCS 2010, Thm III.3; Dwork and Roth 2014,
// Thm 3.20) for the budget ledger's advanced accounting (proofs/ledger.md, "Advanced accounting").
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// The epsilon of the k-fold adaptive composition of (epsilon, delta)-DP mechanisms at slack
// delta_slack (the composition is (result, k delta + delta_slack)-DP):
//   sqrt(2 k ln(1/delta_slack)) epsilon + k epsilon (e^epsilon - 1),
// Dwork and Roth 2014, Thm 3.20, as published; rounded up. Throws Status::InvalidArgument /
// Status::NonFinite unless k >= 0, epsilon is finite and > 0 and delta_slack is in (0, 1).
// +infinity when e^epsilon overflows.
double drv_epsilon(int64_t k, double epsilon, double delta_slack);

// The largest k (at most 2^53) such that k adaptively composed (epsilon_each, delta_each)-DP
// releases are (epsilon_cap, delta_cap)-DP, by basic composition (k epsilon_each <= epsilon_cap and
// k delta_each <= delta_cap, Dwork and Roth 2014, Thm 3.16) or by Thm 3.20 with the slack
// delta_cap - k delta_each > 0 (drv_epsilon(k, epsilon_each, slack) <= epsilon_cap). Every
// product and the slack are rounded to the safe side, so the k returned fits. Throws unless the
// epsilons are finite and > 0 and the deltas are in [0, 1).
int64_t advanced_composition_max_releases(double epsilon_cap, double delta_cap,
                                          double epsilon_each, double delta_each);

// What k releases of (epsilon_each, delta_each) cost under the same two bounds: the one with the
// smaller epsilon among those within (epsilon_cap, delta_cap) (Thm 3.20 at the slack
// delta_cap - k delta_each, so its delta is delta_cap), or basic composition when neither fits.
// Rounded up.
struct CompositionCost {
  double epsilon = 0.0;
  double delta = 0.0;
};
CompositionCost advanced_composition_cost(int64_t k, double epsilon_cap, double delta_cap,
                                          double epsilon_each, double delta_each);

}  // namespace dpcov::privacy
