// Confidence bounds used by the auditor. Each bound holds with probability at least 1 - alpha
// under the stated assumption; the auditor splits its total error probability over all the bounds
// it computes (Bonferroni), so that a correct mechanism is flagged with probability <= alpha.
#pragma once

#include <cstdint>
#include <vector>

namespace dpcov::audit {

// One-sided Clopper-Pearson (1934) bounds for a binomial proportion from k successes in n trials:
// lower = the p with P[Bin(n, p) >= k] = alpha (0 if k = 0), upper = the p with
// P[Bin(n, p) <= k] = alpha (1 if k = n), using P[Bin(n, p) >= k] = I_p(k, n - k + 1). Exact
// (conservative) for every n; each holds with probability >= 1 - alpha.
double clopper_pearson_lower(int64_t k, int64_t n, double alpha);
double clopper_pearson_upper(int64_t k, int64_t n, double alpha);

// One-sided empirical Bernstein bounds (Maurer & Pontil, "Empirical Bernstein Bounds and Sample
// Variance Penalization", COLT 2009, Thm 4) for the mean of iid variables in [0, range] from their
// sample mean and unbiased sample variance over n >= 2 draws:
//   mean -/+ sqrt(2 variance ln(2/alpha) / n) -/+ 7 range ln(2/alpha) / (3 (n - 1)),
// clamped to [0, range]; each holds with probability >= 1 - alpha. Theorem 4 gives the upper
// bound; the lower bound is Theorem 4 applied to range - X, which has the same sample variance.
struct MeanBounds {
  double estimate = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};
MeanBounds empirical_bernstein(double mean, double variance, int64_t n, double range, double alpha);

// The Dvoretzky-Kiefer-Wolfowitz threshold with Massart's constant (Ann. Probab. 18(3), 1990):
// for m iid draws, P[sup_x |F_m(x) - F(x)| > t] <= 2 exp(-2 m t^2), so t = sqrt(ln(2/alpha)/(2m))
// is exceeded with probability <= alpha under the hypothesis F. Non-asymptotic and valid for every
// continuous F, unlike the asymptotic Kolmogorov distribution.
double dkw_threshold(int64_t m, double alpha);

// The Kolmogorov-Smirnov distance sup_x |F_m(x) - F(x)| of `values` (sorted in place) from the
// distribution function `cdf`.
double ks_distance(std::vector<double> &values, double (*cdf)(double, const double *),
                   const double *parameters);

}  // namespace dpcov::audit
