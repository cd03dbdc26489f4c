// Intervals for regression coefficients that account for the privacy noise, from released
// statistics (post-processing: no privacy cost): the parametric bootstrap of a release's noise law
// (dpcov_ols_bootstrap_intervals) and of AdaSSP's (dpcov_adassp_bootstrap_intervals), and the
// guaranteed intervals of an Analyze Gauss release (dpcov_ols_analyze_gauss_intervals).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>

#include "../options/rng_option.hpp"
#include "released_matrix.hpp"

namespace dpcov::cli {

// How a bootstrap draws: its size and its generator: its own seeded one (--seed), else the
// release's after its noise where given (so that --noise-seed alone reproduces the whole output,
// as Python's random_state does), else one from OS entropy.
struct BootstrapSettings {
  int64_t draws = DPCOV_INTERVAL_DRAWS;
  std::optional<uint64_t> seed;
  dpcov_rng *release_rng = nullptr;
};

// The generator `b` names; `own` holds one created here.
dpcov_rng *bootstrap_generator(const BootstrapSettings &b, RngHandle &own);

// Bootstrap intervals of the coefficients; `refusal` says why there are none when the library
// declines (a release too noisy, a mechanism without a known noise law).
struct NoiseAware {
  bool computed = false;
  // No noise-aware intervals exist for the release's mechanism: a fact about the mechanism, not
  // a verdict on what the data can support.
  bool unavailable = false;
  std::string refusal;
  std::vector<double> coef, se, p, lower, upper;
  double noise_norm = 0.0, kappa = 0.0;  // of a release (dpcov_ols_bootstrap_intervals)
  // AdaSSP: the construction that answered, and per coefficient 0 where its interval covers
  // every value that matters (dpcov_adassp_intervals; its interval is then NaN), else 1.
  std::string method = "parametric bootstrap";
  std::vector<int32_t> conclusive;
};

// The noise-aware intervals of the OLS coefficients of `label` on `features` from the matrix `g`
// of the release `m` (its noise law from the receipt), `size` coefficients, at params' level, no
// ridge whatever params says.
NoiseAware noise_aware_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                 int64_t label, const std::vector<int64_t> &features,
                                 dpcov_regression_params params, size_t size,
                                 const BootstrapSettings &bootstrap);

// The noise-aware intervals for beta from an AdaSSP fit's released statistics X'X~ (p x p) and
// X'y~ at `n` rows (refused when n <= p): with `posterior`, dpcov_adassp_intervals (the
// bootstrap, else the posterior where the bootstrap refuses; `intercept_column` -1 or the
// constant column), else the bootstrap alone.
NoiseAware adassp_intervals(const std::vector<double> &xtx, const std::vector<double> &xty,
                            int64_t n, const dpcov_adassp_receipt &receipt, double level,
                            const BootstrapSettings &bootstrap, int64_t intercept_column,
                            bool posterior);

// Intervals that cover the OLS coefficients with probability >= level whatever the data, from an
// Analyze Gauss release (proofs/ols_analyze_gauss.md; no ridge, whatever params says): computed
// when the registry gives `m`'s mechanism DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS, `refusal`
// saying why not when its noise is too large.
struct Guaranteed {
  bool computed = false;
  // No noise-aware intervals exist for the release's mechanism: a fact about the mechanism, not
  // a verdict on what the data can support.
  bool unavailable = false;
  std::string refusal;
  std::vector<double> lower, upper;
  std::vector<int32_t> reject;
  double eta = 0.0, kappa = 0.0;
};

Guaranteed guaranteed_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                int64_t label, const std::vector<int64_t> &features,
                                dpcov_regression_params params, size_t size);

// The sign an interval shows: "+" or "-" when it excludes 0, "unclear" when it does not.
const char *interval_sign(double lower, double upper);

}  // namespace dpcov::cli
