// The regression intervals of an AdaSSP release, with one outcome on every surface: the
// parametric bootstrap (adassp_bootstrap_intervals) where the released X'X is positive definite
// enough for it, else the noise-aware posterior (adassp_posterior_intervals), and per coefficient
// whether its interval supports a conclusion. docs/regression_intervals.md, "An answer at small n".
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
#include "../random/rng.hpp"

namespace dpcov::estimators {

enum class IntervalMethod : int32_t { Bootstrap = 1, Posterior = 2, Profile = 3 };

// The values of RegressionIntervals::conclusive, those of dpcov_adassp_intervals().
inline constexpr int32_t kConclusive = 1, kCoversAll = 0, kUnconverged = -1, kPriorDecides = -2;

struct RegressionIntervals {
  IntervalMethod method = IntervalMethod::Bootstrap;
  std::vector<double> coefficients, std_errors, p_values, ci_lower, ci_upper;
  // kConclusive when the interval supports a conclusion, kCoversAll when it contains
  // [-R_j, R_j] (relevant_half_range): it can neither tell the sign of beta_j nor rule out an
  // effect as large as the public bounds allow to matter; kUnconverged when the posterior's
  // chains did not converge for beta_j (the interval would stand for the chains' starts, not
  // for the posterior); kPriorDecides when the posterior's sampling share of beta_j is below
  // min_sampling_share(level): a prior, not the release, holds so much of that interval's width
  // that it covers truths near the prior's centre far more often than `level`
  // (proofs/adassp_posterior.md, "What the prior decides").
  std::vector<int32_t> conclusive;
};

// `draws` bootstrap worlds or kept posterior sweeps (>= 2 / (1 - level) - 1 and at most
// check::kMaxSimulationDraws); the other arguments as adassp_posterior_intervals. The bootstrap is tried first
// from a copy of `rng`: when it refuses (Status::Precondition) the posterior runs from the same
// copy, so the generator advances once by the method that answered. Throws as the two methods,
// never Status::Precondition for lack of positive definiteness.
RegressionIntervals adassp_intervals(const Matrix &xtx_released,
                                     const std::vector<double> &xty_released,
                                     double yty_released, int64_t n,
                                     const mechanisms::AdasspReceipt &receipt,
                                     int64_t intercept_column, double level, int64_t draws,
                                     random::Rng &rng);

// The intervals of the profile of the pivot vector (pivot_profile.hpp) of an AdaSSP release,
// with no rule on which releases answer: the sampling covariance of X'e is s^2 G^ with
// s^2 = max(0, y'y~ - X'y~'beta~) / (n - p) (y'y~ released, n > p), or, given the released meat
// (`meat_released`, p x p), its positive part (robust errors; y'y~ and n not read). Each
// coefficient is searched past [-R_j, R_j] (relevant_half_range), and `conclusive` is
// kCoversAll where its interval contains that range or its set reaches the search's end on
// either side (the release does not bound it there), else kConclusive. std_errors are not
// filled.
// Throws Status::InvalidArgument for a level outside (0, 1), n <= p or y'y not released (without
// a meat), an intercept column outside [-1, p); Status::Dimension for sizes that do not match;
// Status::Precondition where X'X~ is singular.
RegressionIntervals adassp_profile_intervals(const Matrix &xtx_released,
                                             const std::vector<double> &xty_released,
                                             double yty_released, int64_t n,
                                             const Matrix *meat_released,
                                             const mechanisms::AdasspReceipt &receipt,
                                             int64_t intercept_column, double level);

}  // namespace dpcov::estimators
