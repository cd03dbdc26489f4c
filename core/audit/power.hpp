// The power of an audit: the smallest violation its draws could have shown. An audit that finds
// nothing says little unless it also says how small a violation it would have missed; these are
// the numbers its report states beside the verdict.
//
// Each is a "detected about half the time" threshold: a violation of exactly this size is flagged
// when the sample statistic lands at its expectation (the empirical-Bernstein and Clopper-Pearson
// rules below), or, for the pure-epsilon rule, is seen at least once with probability 1/2. Larger
// violations are flagged more often; smaller ones are flagged with probability below one half.
#pragma once

#include <cstdint>

namespace dpcov::audit {

// The exact-density audit of an (epsilon, delta) claim: the smallest delta(eps) = E[h], h in
// [0, 1], whose empirical-Bernstein lower bound at level alpha over n draws exceeds
// `claimed_delta` when the sample mean equals it and the sample variance is the largest a
// [0, 1]-valued sample with that mean can have (p (1 - p) n / (n - 1), all mass at 0 and 1).
// The lower bound is then a convex function of p that starts below the claim at p = 0, so the
// detectable set is an interval [p*, 1] and p* is found by bisection. 1 when even p = 1 is not
// flagged (too few draws for the level).
double detectable_delta_bernstein(double claimed_delta, int64_t n, double alpha);

// The pure-epsilon rule flags any one draw with L > eps: the smallest probability of such draws
// that n draws show at least once with probability 1/2, 1 - 2^(-1/n).
double detectable_violation_probability(int64_t n);

// The black-box audit's best case, an event S impossible under the other dataset (no draw of the
// `trials` there falls in it): the smallest P_D(S) = k / trials whose Clopper-Pearson lower
// bound, less e^eps times the upper bound on P_D'(S) from zero hits, exceeds `claimed_delta`,
// each bound at level alpha. The mechanism's delta(eps) is at least P_D(S) on such an event. 1
// when no k is flagged.
double detectable_delta_black_box(double epsilon, double claimed_delta, int64_t trials,
                                  double alpha);

}  // namespace dpcov::audit
