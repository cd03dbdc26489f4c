// The noise-aware posterior's frequentist calibration at one truth where it is the likelihood's:
// p = 3 regressors of independent +-1 entries (B_X = sqrt 3, no intercept), labels +-a
// independent of them (true coefficients 0, error sd a), B_Y = 1, AdaSSP with y'y at delta 1e-6.
// At a = 1 the error sd is B_Y, the largest value |y| <= B_Y allows; at a = 0.5 inside it.
// Prints the coverage of 0 by the converged 95% intervals, the mean sampling share and the
// spread of the posterior medians over the releases against the mean posterior variance
// (docs/forecast.md, "Will the posterior print?"):
//   build/bench/posterior_label_bound N EPSILON LABEL_AMPLITUDE RELEASES SEED
//   build/bench/posterior_label_bound 703 1 1 600 7     # 0.944, share 0.992, spread 1.029
//   build/bench/posterior_label_bound 703 1 0.5 600 7   # 0.943, share 0.998, spread 1.003
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/estimators/adassp_posterior.hpp"
#include "core/mechanisms/adassp.hpp"
#include "core/random/rng.hpp"
#include "tests/unit/adassp_release.hpp"

int main(int argc, char **argv) {
  using namespace dpcov;
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s N EPSILON LABEL_AMPLITUDE RELEASES SEED\n", argv[0]);
    return 2;
  }
  constexpr int64_t kP = 3;
  const int64_t n = std::atoll(argv[1]), releases = std::atoll(argv[4]);
  const double epsilon = std::atof(argv[2]), amplitude = std::atof(argv[3]);
  mechanisms::AdasspOptions options;
  options.release_label_square = true;
  const mechanisms::AdasspReceipt plan =
      mechanisms::plan_adassp(kP, std::sqrt(3.0), 1.0, epsilon, 1e-6, options);
  random::Rng rng = random::Rng::from_seed(std::strtoull(argv[5], nullptr, 10));
  int64_t covered = 0, counted = 0;
  double share = 0.0, variance = 0.0;
  std::vector<std::vector<double>> medians(kP);
  for (int64_t k = 0; k < releases; ++k) {
    const mechanisms::AdasspFit fit = estimators::sign_rows_release(plan, n, 1.0, amplitude, rng);
    const estimators::PosteriorIntervals q = estimators::adassp_posterior_intervals(
        fit.xtx, fit.xty, fit.yty, n, fit.receipt, -1, 0.95, 999, rng);
    for (size_t j = 0; j < kP; ++j) {
      if (q.converged[j] != 1) continue;
      ++counted;
      covered += q.ci_lower[j] <= 0.0 && 0.0 <= q.ci_upper[j] ? 1 : 0;
      share += q.sampling_share[j];
      variance += q.std_errors[j] * q.std_errors[j];
      medians[j].push_back(q.coefficients[j]);
    }
  }
  double spread = 0.0;
  int64_t dof = 0;
  for (const std::vector<double> &m : medians) {
    double mean = 0.0;
    for (double v : m) mean += v / static_cast<double>(m.size());
    for (double v : m) spread += (v - mean) * (v - mean);
    dof += static_cast<int64_t>(m.size()) - 1;
  }
  const auto c = static_cast<double>(counted);
  std::printf("n %lld, epsilon %g, labels +-%g: coverage %lld / %lld = %.3f, mean sampling share "
              "%.3f, spread of the medians / mean posterior variance %.3f\n",
              static_cast<long long>(n), epsilon, amplitude, static_cast<long long>(covered),
              static_cast<long long>(counted), static_cast<double>(covered) / c, share / c,
              spread / static_cast<double>(dof) / (variance / c));
  return 0;
}
