#include "chain_convergence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace dpcov::estimators {

namespace {

using Chains = std::vector<std::vector<double>>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Every chain cut into its first and second half (the middle draw of an odd length dropped), so
// that a chain still drifting disagrees with itself.
Chains split(const Chains &chains) {
  const size_t half = chains.front().size() / 2;
  Chains out;
  for (const auto &c : chains) {
    out.emplace_back(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(half));
    out.emplace_back(c.end() - static_cast<std::ptrdiff_t>(half), c.end());
  }
  return out;
}

// z = Phi^-1((r - 3/8) / (S + 1/4)) of every draw's rank r among all S draws, ties given their
// average rank (Vehtari et al. 2021, eq. 14).
Chains rank_normalise(const Chains &chains) {
  std::vector<std::pair<double, size_t>> all;
  const size_t n = chains.front().size();
  for (size_t m = 0; m < chains.size(); ++m)
    for (size_t t = 0; t < n; ++t) all.emplace_back(chains[m][t], m * n + t);
  std::sort(all.begin(), all.end());
  const double s = static_cast<double>(all.size());
  Chains out(chains.size(), std::vector<double>(n));
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double rank = 0.5 * static_cast<double>(i + 1 + j);  // the average of ranks i+1..j
    const double z = normal_quantile((rank - 0.375) / (s + 0.25));
    for (size_t k = i; k < j; ++k) out[all[k].second / n][all[k].second % n] = z;
    i = j;
  }
  return out;
}

Chains folded(const Chains &chains) {
  std::vector<double> all;
  for (const auto &c : chains) all.insert(all.end(), c.begin(), c.end());
  const size_t mid = all.size() / 2;
  std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(mid), all.end());
  double median = all[mid];
  if (all.size() % 2 == 0)
    median = 0.5 * (median + *std::max_element(all.begin(),
                                               all.begin() + static_cast<std::ptrdiff_t>(mid)));
  Chains out = chains;
  for (auto &c : out)
    for (double &v : c) v = std::abs(v - median);
  return out;
}

double mean(const std::vector<double> &v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The within-chain variance W (mean of the chains' unbiased variances) and the variance of the
// chains' means B / N.
struct Variances {
  double within = 0.0, between_over_n = 0.0;
};

Variances variances(const Chains &chains) {
  const double m = static_cast<double>(chains.size()), n = static_cast<double>(chains[0].size());
  std::vector<double> means;
  Variances v;
  for (const auto &c : chains) {
    const double mu = mean(c);
    double ss = 0.0;
    for (double x : c) ss += (x - mu) * (x - mu);
    v.within += ss / (n - 1.0) / m;
    means.push_back(mu);
  }
  const double grand = mean(means);
  for (double mu : means) v.between_over_n += (mu - grand) * (mu - grand) / (m - 1.0);
  return v;
}

// sqrt(var+ / W), var+ = (N - 1) / N W + B / N (Gelman et al., Bayesian Data Analysis, 11.4).
double rhat(const Chains &chains) {
  const double n = static_cast<double>(chains[0].size());
  const Variances v = variances(chains);
  if (v.within == 0.0) return v.between_over_n == 0.0 ? 1.0 : kInf;
  return std::sqrt(((n - 1.0) / n * v.within + v.between_over_n) / v.within);
}

// The multi-chain ESS with Geyer's initial monotone sequence (Vehtari et al. 2021, section 3.2,
// as Stan computes it): rho_t = 1 - (W - mean_m acov_m(t)) / var+, summed in pairs while a
// pair is positive, each pair no larger than the one before.
double effective_size(const Chains &chains) {
  const size_t m = chains.size(), n = chains[0].size();
  const Variances v = variances(chains);
  const double nn = static_cast<double>(n);
  const double var_plus = (nn - 1.0) / nn * v.within + v.between_over_n;
  if (v.within == 0.0) return v.between_over_n == 0.0 ? static_cast<double>(m * n) : 0.0;
  std::vector<double> means;
  for (const auto &c : chains) means.push_back(mean(c));
  const auto rho = [&](size_t lag) {
    double acov = 0.0;  // the mean over chains of the biased autocovariance at `lag`
    for (size_t k = 0; k < m; ++k)
      for (size_t t = 0; t + lag < n; ++t)
        acov += (chains[k][t] - means[k]) * (chains[k][t + lag] - means[k]) / nn;
    acov /= static_cast<double>(m);
    return 1.0 - (v.within - acov) / var_plus;
  };
  double tau = -1.0, previous = kInf;
  for (size_t t = 0; t + 1 < n; t += 2) {
    const double pair = std::min(rho(t) + rho(t + 1), previous);
    if (!(pair > 0.0)) break;
    tau += 2.0 * pair;
    previous = pair;
  }
  // Stan bounds the estimate by log10(S) S for antithetic chains; here tau only grows with lags.
  const double s = static_cast<double>(m * n);
  return s / std::max(tau, 1.0 / std::log10(s));
}

}  // namespace

double normal_quantile(double q) {
  if (!(q > 0.0 && q < 1.0)) return q == 0.0 ? -kInf : q == 1.0 ? kInf : std::nan("");
  if (q > 0.5) return -normal_quantile(1.0 - q);  // 1 - q is exact: Phi's upper tail resolved
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  const double low = 0.02425;
  double x = 0.0;
  if (q < low) {
    const double r = std::sqrt(-2.0 * std::log(q));
    x = (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) /
        ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1.0);
  } else {
    const double s = q - 0.5, r = s * s;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * s /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - q;  // Halley's step on Phi(x) = q
  const double u = e * std::sqrt(2.0 * std::acos(-1.0)) * std::exp(0.5 * x * x);
  return x - u / (1.0 + 0.5 * x * u);
}

ChainConvergence chain_convergence(const std::vector<std::vector<double>> &chains) {
  const Chains halves = split(chains);
  const Chains z = rank_normalise(halves);
  ChainConvergence out;
  out.rhat = std::max(rhat(z), rhat(rank_normalise(folded(halves))));
  out.ess_bulk = effective_size(z);
  return out;
}

}  // namespace dpcov::estimators
