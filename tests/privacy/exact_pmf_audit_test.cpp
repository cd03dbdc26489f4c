// The exact-PMF audit (core/audit/exact_pmf.hpp) of the exact-numerics Analyze Gauss and
// symmetric Laplace: the shipped releases on add/remove pairs whose added row is the extreme one
// for the grid's rounding, and broken variants that must be caught: a noise scale computed without
// the rounding's sensitivity inflation (r2 = 4^bits instead of (2^bits + ceil(sqrt(d)/2) + 1)^2)
// and samplers with a truncated tail.
//
// Error rates: each sampled audit flags a correct implementation with probability <= 1e-6 (alpha,
// Bonferroni inside run_exact_audit); the pure-epsilon verdict and exact_pair_privacy() involve no
// randomness. Seeds are fixed. The power of each catch is stated beside it.
// DPCOV_STAT_VERBOSE=1 prints the measured epsilon lower bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/audit/datasets.hpp"
#include "core/audit/exact_pmf.hpp"
#include "core/error.hpp"
#include "core/privacy/discrete_gaussian_smoothing.hpp"
#include "core/privacy/zcdp.hpp"
#include "core/random/discrete.hpp"
#include "dpcov.h"

namespace dpcov::audit {
namespace {

using mechanisms::ExactGrid;
using mechanisms::MechanismId;
using mechanisms::Request;

Request make_request(int64_t d, double eps, double delta) {
  Request r;
  r.dim = d;
  r.n = 20;
  r.bound = 1.0;
  r.epsilon = eps;
  r.delta = delta;
  r.options.neighbour = privacy::Neighbour::AddRemove;
  return r;
}

// D: 19 rows uniform in the ball; D' = D plus the extreme row of the mechanism's rounding.
struct Case {
  Request request;
  ExactGrid grid;
  Matrix rows, rows_prime;
  PairStatistics pair;
};

Case make_case(MechanismId m, int64_t d, double eps, double delta) {
  Case c;
  c.request = make_request(d, eps, delta);
  mechanisms::plan_exact_additive(m, c.request, &c.grid);
  random::Rng rng = random::Rng::from_seed(21, static_cast<uint64_t>(d));
  c.rows = generate_dataset(DatasetKind::RandomRows, c.request.n - 1, d, 1.0, rng);
  const Matrix extreme = extreme_rounded_row(m, c.request, c.grid);
  c.rows_prime = Matrix(c.request.n, d);
  for (int64_t r = 0; r < c.request.n; ++r)
    for (int64_t j = 0; j < d; ++j)
      c.rows_prime(r, j) = r + 1 < c.request.n ? c.rows(r, j) : extreme(0, j);
  c.pair = exact_pair_statistics(c.request, c.grid, c.rows, c.rows_prime);
  return c;
}

Settings settings(int64_t trials) {
  Settings s;
  s.trials = trials;
  s.first_checkpoint = 1000;
  s.seed = 8439;
  s.stop_at_first_finding = false;  // all draws: the largest loss seen is the measured bound
  return s;
}

bool verbose() { return std::getenv("DPCOV_STAT_VERBOSE") != nullptr; }

double max_loss(const AuditReport &r) { return std::max(r.forward.max_loss, r.backward.max_loss); }

// The scale a broken implementation would use: the continuous-row bound r2 = 4^bits, without the
// rounding's inflation.
uint64_t laplace_scale_without_inflation(const Request &r, const ExactGrid &g) {
  const double d1 = static_cast<double>(r.dim + 1) * std::ldexp(1.0, 2 * g.bits) / 2.0;
  return static_cast<uint64_t>(std::ceil(d1 / r.epsilon));
}

TEST(ExactPmfAudit, ExtremeRowsExceedTheUnroundedBoundButNotTheRoundedOne) {
  for (const int64_t d : {2, 3, 4, 10}) {
    for (const MechanismId m : {MechanismId::LaplaceSym, MechanismId::AnalyzeGauss}) {
      const Case c = make_case(m, d, 1.0, m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0);
      const double unrounded = std::ldexp(1.0, 2 * c.grid.bits);  // (2^bits)^2
      const double r2 = static_cast<double>(c.grid.norm2_bound);
      const double change = m == MechanismId::LaplaceSym
                                ? upper_triangle_l1_distance(c.pair.gram.view(), c.pair.gram_prime.view())
                                : std::pow(upper_triangle_l2_distance(c.pair.gram.view(), c.pair.gram_prime.view()), 2);
      const double broken = m == MechanismId::LaplaceSym ? (d + 1) * unrounded / 2 : unrounded * unrounded;
      const double bound = m == MechanismId::LaplaceSym ? (d + 1) * r2 / 2 : r2 * r2;
      SCOPED_TRACE(concat(mechanisms::mechanism_name(m), " d = ", d));
      EXPECT_GT(change, broken);
      EXPECT_LE(change, bound);
      if (verbose())
        std::printf("%s d=%lld bits=%d: extreme change / unrounded bound = %.9f, / rounded bound = %.6f\n",
                    mechanisms::mechanism_name(m), static_cast<long long>(d), c.grid.bits,
                    change / broken, change / bound);
    }
  }
}

// The shipped symmetric Laplace, pure epsilon = 1: no draw's loss exceeds epsilon (a rule without
// randomness), and the exact largest loss of the pair is below epsilon.
TEST(ExactPmfAudit, ShippedLaplaceIsNotFlagged) {
  for (const int64_t d : {2, 3}) {
    const Case c = make_case(MechanismId::LaplaceSym, d, 1.0, 0.0);
    const Target t = exact_mechanism_target(MechanismId::LaplaceSym, c.request, c.rows, c.rows_prime);
    const AuditReport report = run_exact_audit(t, c.pair, settings(10000));
    const double exact = exact_pair_privacy(MechanismId::LaplaceSym, c.pair, c.grid.noise_parameter);
    SCOPED_TRACE(concat("d = ", d));
    EXPECT_FALSE(report.violation()) << "findings " << report.findings;
    EXPECT_LE(max_loss(report), 1.0);
    EXPECT_LE(exact, 1.0);
    EXPECT_GT(report.forward.conformance_values, 0);
    if (verbose())
      std::printf("laplace_sym exact d=%lld: largest sampled loss %.9f, exact pair epsilon %.9f (claim 1)\n",
                  static_cast<long long>(d), max_loss(report), exact);
  }
}

// Broken: scale t from r2 = 4^bits. The extreme pair's change exceeds the scale's assumption by a
// factor 1 + 1.3e-4 (d = 2) or 1 + 1.5e-4 (d = 3), so a release whose every entry lies beyond
// both Grams has loss above epsilon: probability about 2^-3 (d = 2), 2^-6 (d = 3) per draw, so
// 10000 draws per direction see one with probability 1 - 1e-40 or more.
TEST(ExactPmfAudit, LaplaceWithoutTheRoundingInflationIsCaught) {
  for (const int64_t d : {2, 3}) {
    const Case c = make_case(MechanismId::LaplaceSym, d, 1.0, 0.0);
    const uint64_t t_broken = laplace_scale_without_inflation(c.request, c.grid);
    ASSERT_LT(t_broken, c.grid.noise_parameter);
    const Target t = exact_noise_target(MechanismId::LaplaceSym, 1.0, 0.0, t_broken,
                                        [t_broken](random::Rng &rng) {
                                          return random::discrete_laplace(rng, 1, t_broken);
                                        });
    const AuditReport report = run_exact_audit(t, c.pair, settings(10000));
    const double exact = exact_pair_privacy(MechanismId::LaplaceSym, c.pair, t_broken);
    SCOPED_TRACE(concat("d = ", d));
    EXPECT_TRUE(report.findings & kLossAboveEpsilon) << "findings " << report.findings;
    EXPECT_GT(max_loss(report), 1.0);
    EXPECT_GT(exact, 1.0);
    if (verbose())
      std::printf("laplace_sym without inflation d=%lld: largest sampled loss %.9f, exact pair "
                  "epsilon %.9f (claim 1), draws with loss > 1: %lld\n",
                  static_cast<long long>(d), max_loss(report), exact,
                  static_cast<long long>(report.forward.exceedances + report.backward.exceedances));
  }
}

// Broken: discrete Laplace cut at 3 scales (redrawn beyond). 5% of its mass is missing, so the
// Kolmogorov distance of the noise to its claimed law is about 0.025, against a DKW threshold of
// about 0.012 at 10000 x 6 values per direction.
TEST(ExactPmfAudit, LaplaceWithATruncatedTailIsCaught) {
  const Case c = make_case(MechanismId::LaplaceSym, 3, 1.0, 0.0);
  const uint64_t t_claim = c.grid.noise_parameter;
  const Target t = exact_noise_target(MechanismId::LaplaceSym, 1.0, 0.0, t_claim,
                                      [t_claim](random::Rng &rng) {
                                        for (;;) {
                                          const int64_t x = random::discrete_laplace(rng, 1, t_claim);
                                          if (std::llabs(x) <= static_cast<int64_t>(3 * t_claim)) return x;
                                        }
                                      });
  const AuditReport report = run_exact_audit(t, c.pair, settings(10000));
  EXPECT_TRUE(report.findings & kSamplerMismatch) << "findings " << report.findings;
}

// The release's zCDP claim: Delta^2 / (2 s2) for Delta^2 = r2^2 (add/remove), CKS Thm 14.
double claimed_rho(const Case &c) {
  const double r2 = static_cast<double>(c.grid.norm2_bound);
  return r2 * r2 / (2.0 * static_cast<double>(c.grid.noise_parameter));
}

// The shipped Analyze Gauss at (1, 1e-6): not flagged; the pair's exact rho is
// below the claimed one, and the Gaussian-pair lower confidence bound on its epsilon at delta is
// below 1.
TEST(ExactPmfAudit, ShippedAnalyzeGaussIsNotFlagged) {
  const Case c = make_case(MechanismId::AnalyzeGauss, 3, 1.0, 1e-6);
  const Target t = exact_mechanism_target(MechanismId::AnalyzeGauss, c.request, c.rows, c.rows_prime);
  const AuditReport report = run_exact_audit(t, c.pair, settings(1500));
  EXPECT_FALSE(report.violation()) << "findings " << report.findings;
  const double rho = exact_pair_privacy(MechanismId::AnalyzeGauss, c.pair, c.grid.noise_parameter);
  EXPECT_LE(rho, claimed_rho(c));
  const DirectionResult &w = report.worst();
  const double eps_lower = gaussian_epsilon_lower_bound(w.sigma_upper, w.pair_distance, 1e-6);
  EXPECT_LT(eps_lower, 1.0);
  if (verbose())
    std::printf("analyze_gauss exact d=3: pair rho %.9g / claimed rho %.9g = %.9f; epsilon lower "
                "bound at delta 1e-6: %.4f (claim 1)\n",
                rho, claimed_rho(c), rho / claimed_rho(c), eps_lower);
}

// Broken: variance from r2 = 4^bits. The pair's rho exceeds the claim by a relative (d - 1) /
// 4^bits (about 1.2e-7 at d = 3): the exact computation sees it, no sampled statistic can (it
// would take ~1e15 draws); the (eps, delta) claim is off by as little, so the sampled audit
// finds no (eps, delta) violation either.
TEST(ExactPmfAudit, AnalyzeGaussWithoutTheRoundingInflationBreaksItsZcdpClaimExactly) {
  const Case c = make_case(MechanismId::AnalyzeGauss, 3, 1.0, 1e-6);
  const double unrounded = std::ldexp(1.0, 2 * c.grid.bits);
  const uint64_t entries = static_cast<uint64_t>(c.request.dim * (c.request.dim + 1) / 2);
  const uint64_t s_broken = privacy::discrete_gaussian_variance_approx_dp(
      unrounded * unrounded,
      privacy::discrete_gaussian_unit_sigma(c.request.epsilon, c.request.delta, entries));
  ASSERT_LT(s_broken, c.grid.noise_parameter);
  const double rho = exact_pair_privacy(MechanismId::AnalyzeGauss, c.pair, s_broken);
  EXPECT_GT(rho, claimed_rho(c));
  const Target t = exact_noise_target(MechanismId::AnalyzeGauss, 1.0, 1e-6, s_broken,
                                      [s_broken](random::Rng &rng) {
                                        return random::discrete_gaussian(rng, s_broken);
                                      });
  const AuditReport report = run_exact_audit(t, c.pair, settings(4000));
  const DirectionResult &w = report.worst();
  if (verbose())
    std::printf("analyze_gauss without inflation d=3: pair rho / claimed rho = 1 + %.3g; sampled "
                "findings %u, epsilon lower bound at delta 1e-6: %.4f\n",
                rho / claimed_rho(c) - 1.0, report.findings,
                gaussian_epsilon_lower_bound(w.sigma_upper, w.pair_distance, 1e-6));
}

// Broken: discrete Gaussian cut at 2 standard deviations (redrawn beyond). 4.6% of the mass is
// missing: Kolmogorov distance about 0.024 against a DKW threshold of about 0.012 at 10000 x 6
// values per direction.
TEST(ExactPmfAudit, AnalyzeGaussWithATruncatedTailIsCaught) {
  const Case c = make_case(MechanismId::AnalyzeGauss, 3, 1.0, 1e-6);
  const uint64_t s = c.grid.noise_parameter;
  const Target t = exact_noise_target(MechanismId::AnalyzeGauss, 1.0, 1e-6, s,
                                      [s](random::Rng &rng) {
                                        for (;;) {
                                          const int64_t x = random::discrete_gaussian(rng, s);
                                          const auto x2 = static_cast<double>(x) * static_cast<double>(x);
                                          if (x2 <= 4.0 * static_cast<double>(s)) return x;
                                        }
                                      });
  const AuditReport report = run_exact_audit(t, c.pair, settings(10000));
  EXPECT_TRUE(report.findings & kSamplerMismatch)
      << "findings " << report.findings << " KS " << report.forward.conformance_distance << " vs "
      << report.forward.conformance_threshold << " on " << report.forward.conformance_values;
}

}  // namespace
}  // namespace dpcov::audit
