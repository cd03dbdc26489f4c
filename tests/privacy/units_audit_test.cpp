// Unit-level audits of Analyze Gauss, symmetric Laplace and Gaussian noise on the inverse
// (proofs/unit_gram_sensitivity.md):
// neighbouring datasets that differ in one unit of k rows, all on the row bound and aligned (the
// largest trace a unit can have), added or removed, or replaced by a unit along another axis.
// Exact numerics: the pair's exact privacy under the integer noise law (exact_pair_privacy(), no
// sampling) at the grid planned for the unit bound stays within the claim; the broken variant that
// bounds rows but not units (the plan at the row bound, each row summed as its own unit) is
// flagged, its pair beyond the claim by about k (L1) or k^2 (rho). Idealized numerics: the
// Gaussian pair's exact delta at the plan's sigma (analytic_gaussian_delta) and the Laplace pair's
// largest loss, both within the claim at the unit bound and beyond it at the row bound. Inverse
// Gauss (idealized only): the Gaussian pair's exact delta on G^{-1} at the plan's sigma, on pairs
// at the edge of the public bound lambda_min(G) >= theta^2 of each scope, within the claim at the
// unit bound and beyond it at the row bound.
//
// Error rates: every check here is deterministic (closed forms at fixed datasets); nothing is
// sampled, so the false-failure rate is 0.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/audit/datasets.hpp"
#include "core/audit/exact_pmf.hpp"
#include "core/audit/unit_audit.hpp"
#include "core/audit/unit_pairs.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/unit_bound.hpp"
#include "core/random/rng.hpp"

namespace dpcov::audit {
namespace {

using mechanisms::ExactGrid;
using mechanisms::MechanismId;
using mechanisms::Request;
using privacy::Neighbour;

constexpr double kBound = 1.0;

Request request_at(int64_t d, double bound, MechanismId m, Neighbour neighbour) {
  Request r;
  r.dim = d;
  r.n = 12;
  r.bound = bound;
  r.epsilon = 1.0;
  r.delta = m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0;
  r.options.neighbour = neighbour;
  return r;
}

// 12 units of 1 to k rows, random directions inside the ball.
UnitRows random_units(int64_t units, int64_t k, int64_t d, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  UnitRows data;
  data.cols = d;
  for (int64_t u = 0; u < units; ++u) {
    const int64_t size = 1 + static_cast<int64_t>(rng.next_u64() % static_cast<uint64_t>(k));
    for (int64_t r = 0; r < size; ++r)
      for (int64_t j = 0; j < d; ++j)
        data.rows.push_back((static_cast<double>(rng.next_u64() >> 11) * 0x1p-53 - 0.5) /
                            std::sqrt(static_cast<double>(d)));
    data.ends.push_back(data.row_count());
  }
  return data;
}

std::vector<double> axis(int64_t d, int64_t j) {
  std::vector<double> v(static_cast<size_t>(d), 0.0);
  v[static_cast<size_t>(j)] = 1.0;
  return v;
}

// The pairs differing in one aligned unit of k rows: along e_1 and along (1, ..., 1), added
// (add/remove), or replacing the unit along e_1 by one along e_2 (replace).
std::vector<std::pair<UnitRows, UnitRows>> unit_pairs(Neighbour neighbour, int64_t k, int64_t d) {
  const UnitRows base = random_units(12, k, d, 77 + static_cast<uint64_t>(d));
  std::vector<std::pair<UnitRows, UnitRows>> pairs;
  const std::vector<double> ones(static_cast<size_t>(d), 1.0);
  if (neighbour == Neighbour::AddRemove) {
    for (const auto &dir : {axis(d, 0), ones})
      pairs.emplace_back(base, joined(base, aligned_unit(k, kBound, dir)));
  } else {
    pairs.emplace_back(joined(base, aligned_unit(k, kBound, axis(d, 0))),
                       joined(base, aligned_unit(k, kBound, axis(d, 1))));
    pairs.emplace_back(joined(base, aligned_unit(k, kBound, ones)),
                       joined(base, aligned_unit(k, kBound, axis(d, 0))));
  }
  return pairs;
}

// The claim in the units exact_pair_privacy() reports: epsilon (Laplace), or for Gauss the rho
// the grid's variance s is sized for, Delta^2 / (2 s) with Delta^2 = r2^2 (add/remove) or 2 r2^2
// (replace): the integer sensitivity of one row, which a unit must not exceed.
double claim(MechanismId m, const Request &r, const ExactGrid &g) {
  if (m == MechanismId::LaplaceSym) return r.epsilon;
  const double r2 = static_cast<double>(g.norm2_bound);
  const double delta2 = (r.options.neighbour == Neighbour::ReplaceOne ? 2.0 : 1.0) * r2 * r2;
  return delta2 / (2.0 * static_cast<double>(g.noise_parameter));
}

struct Worst {
  double shipped = 0.0;  // largest exact pair privacy / claim, unit-level release
  double broken = 0.0;   // the same for rows bounded but not units
};

Worst exact_worst(MechanismId m, Neighbour neighbour, int64_t k, int64_t d) {
  const Request unit_request =
      request_at(d, privacy::unit_contribution_bound(k, kBound), m, neighbour);
  const Request row_request = request_at(d, kBound, m, neighbour);
  ExactGrid unit_grid, row_grid;
  mechanisms::plan_exact_additive(m, unit_request, &unit_grid);
  mechanisms::plan_exact_additive(m, row_request, &row_grid);
  Worst w;
  for (const auto &[data, data_prime] : unit_pairs(neighbour, k, d)) {
    const PairStatistics shipped =
        exact_unit_pair_statistics(unit_request, unit_grid, data, data_prime);
    const PairStatistics broken = exact_row_pair_statistics(row_request, row_grid, data, data_prime);
    w.shipped = std::max(w.shipped, exact_pair_privacy(m, shipped, unit_grid.noise_parameter) /
                                        claim(m, unit_request, unit_grid));
    w.broken = std::max(w.broken, exact_pair_privacy(m, broken, row_grid.noise_parameter) /
                                      claim(m, row_request, row_grid));
  }
  return w;
}

TEST(UnitAudit, ExactReleasesKeepTheirClaimOnUnitPairsAndRowOnlyBoundingIsFlagged) {
  for (const MechanismId m : {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym})
    for (const Neighbour neighbour : {Neighbour::AddRemove, Neighbour::ReplaceOne})
      for (const int64_t k : {2, 5})
        for (const int64_t d : {2, 4}) {
          SCOPED_TRACE(testing::Message() << mechanisms::mechanism_name(m) << " neighbour "
                                          << static_cast<int>(neighbour) << " k " << k << " d "
                                          << d);
          const Worst w = exact_worst(m, neighbour, k, d);
          EXPECT_LE(w.shipped, 1.0);
          // The aligned unit is tight for the trace: the shipped release uses most of its claim.
          EXPECT_GT(w.shipped, 0.3);
          EXPECT_GT(w.broken, 1.0);
          // About k (L1, Laplace) or k^2 (rho, Gauss) times over.
          EXPECT_GT(w.broken, 0.5 * static_cast<double>(m == MechanismId::LaplaceSym ? k : k * k));
        }
}

// Idealized numerics: the Gram of the datasets in floating point (float_gram), and the plan's
// sigma or scale.
// Exact delta of the Gaussian pair at the plan's epsilon (Balle and Wang 2018), or the Laplace
// pair's largest loss over epsilon.
double idealized_ratio(MechanismId m, const Request &r, const UnitRows &a, const UnitRows &b) {
  const mechanisms::Receipt plan = mechanisms::plan(m, r);
  const Matrix ga = float_gram(a), gb = float_gram(b);
  if (m == MechanismId::LaplaceSym)
    return upper_triangle_l1_distance(ga.view(), gb.view()) / plan.scale / r.epsilon;
  const double distance = upper_triangle_l2_distance(ga.view(), gb.view());
  return privacy::analytic_gaussian_delta(plan.sigma, r.epsilon, distance) / r.delta;
}

TEST(UnitAudit, IdealizedReleasesKeepTheirClaimOnUnitPairsAndRowOnlyBoundingIsFlagged) {
  for (const MechanismId m : {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym})
    for (const Neighbour neighbour : {Neighbour::AddRemove, Neighbour::ReplaceOne})
      for (const int64_t k : {2, 5}) {
        const int64_t d = 3;
        SCOPED_TRACE(testing::Message() << mechanisms::mechanism_name(m) << " neighbour "
                                        << static_cast<int>(neighbour) << " k " << k);
        const Request unit_request =
            request_at(d, privacy::unit_contribution_bound(k, kBound), m, neighbour);
        const Request row_request = request_at(d, kBound, m, neighbour);
        double shipped = 0.0, broken = 0.0;
        for (const auto &[a, b] : unit_pairs(neighbour, k, d)) {
          shipped = std::max(shipped, idealized_ratio(m, unit_request, a, b));
          broken = std::max(broken, idealized_ratio(m, row_request, a, b));
        }
        EXPECT_LE(shipped, 1.0);
        EXPECT_GT(broken, 1.0);
      }
}

// The public unit audit's pair for symmetric Laplace (aligned_unit_pair) moves the upper triangle
// by most of the L1 norm its noise is sized for, so that the broken variant (rows bounded, units
// not) is beyond its claim on that pair: the axis pair moved it by 2 k B^2, 2 / (d + 1) of it,
// and no number of draws could flag the broken variant at d >= 3.
TEST(UnitAudit, TheLaplacePairOfThePublicAuditReachesMostOfItsSensitivity) {
  for (const Neighbour neighbour : {Neighbour::AddRemove, Neighbour::ReplaceOne})
    for (const int64_t k : {1, 2, 5})
      for (const int64_t d : {2, 3, 6}) {
        SCOPED_TRACE(testing::Message() << "neighbour " << static_cast<int>(neighbour) << " k "
                                        << k << " d " << d);
        const auto [a, b] = aligned_unit_pair(MechanismId::LaplaceSym, neighbour, d, k, kBound);
        const double moved =
            upper_triangle_l1_distance(float_gram(a).view(), float_gram(b).view());
        const double sized = static_cast<double>(k) * static_cast<double>(d + 1) *
                             (neighbour == Neighbour::ReplaceOne ? 1.0 : 0.5);
        EXPECT_LE(moved, sized * (1.0 + 1e-12));
        EXPECT_GE(moved, (neighbour == Neighbour::ReplaceOne ? 0.7 : 0.999) * sized);
        if (k >= 2 && d >= 3) {
          const Request row_request = request_at(d, kBound, MechanismId::LaplaceSym, neighbour);
          EXPECT_GT(idealized_ratio(MechanismId::LaplaceSym, row_request, a, b), 1.0);
        }
      }
}

// Units of at most k rows of norm 1 along the axes, counts[j] rows along axis j: a Gram whose
// eigenvalues are the counts (ones among them scaled a few ulps inside the bound, as clipped).
UnitRows axis_units(const std::vector<int64_t> &counts, int64_t k) {
  const int64_t d = static_cast<int64_t>(counts.size());
  UnitRows data;
  data.cols = d;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t left = counts[static_cast<size_t>(j)]; left > 0; left -= k)
      data = joined(data, aligned_unit(std::min(left, k), kBound, axis(d, j)));
  return data;
}

// Pairs for the inverse at theta^2 = kTheta2 in d = 3: each dataset's lambda_min as low as its
// scope allows (theta^2 in the domain scope; one dataset at theta^2 and the other down to
// theta^2 - k in the input scope), differing in one aligned unit of k rows.
constexpr double kTheta2 = 20.0;

std::vector<std::pair<UnitRows, UnitRows>> inverse_pairs(privacy::LambdaMinScope scope,
                                                         Neighbour neighbour, int64_t k) {
  const std::vector<double> ones(3, 1.0);
  // Rows of norm 1 - 2^-50 per axis: 21 of them keep the diagonal above theta^2 = 20.
  const int64_t low = scope == privacy::LambdaMinScope::Domain ? 21 : 21 - k;
  std::vector<std::pair<UnitRows, UnitRows>> pairs;
  if (neighbour == Neighbour::AddRemove) {
    const UnitRows base = axis_units({low, 21, 21}, k);
    pairs.emplace_back(joined(base, aligned_unit(k, kBound, axis(3, 0))), base);
    if (scope == privacy::LambdaMinScope::Domain)
      pairs.emplace_back(joined(base, aligned_unit(k, kBound, ones)), base);
  } else {
    const UnitRows base = axis_units({low, 21, 21}, k);
    pairs.emplace_back(joined(base, aligned_unit(k, kBound, axis(3, 0))),
                       joined(base, aligned_unit(k, kBound, axis(3, 1))));
  }
  return pairs;
}

// Exact delta of the Gaussian pair on the inverses at the plan's sigma, over the claimed delta.
double inverse_ratio(const Request &r, const UnitRows &a, const UnitRows &b) {
  const mechanisms::Receipt plan = mechanisms::plan(MechanismId::InverseGauss, r);
  const Matrix ia = linalg::spd_inverse(float_gram(a)), ib = linalg::spd_inverse(float_gram(b));
  const double distance = upper_triangle_l2_distance(ia.view(), ib.view());
  return privacy::analytic_gaussian_delta(plan.sigma, r.epsilon, distance) / r.delta;
}

TEST(UnitAudit, InverseGaussKeepsItsClaimOnUnitPairsAndRowOnlyBoundingIsFlagged) {
  for (const privacy::LambdaMinScope scope :
       {privacy::LambdaMinScope::Domain, privacy::LambdaMinScope::Input})
    for (const Neighbour neighbour : {Neighbour::AddRemove, Neighbour::ReplaceOne})
      for (const int64_t k : {2, 5}) {
        SCOPED_TRACE(testing::Message() << "scope " << static_cast<int>(scope) << " neighbour "
                                        << static_cast<int>(neighbour) << " k " << k);
        Request unit_request = request_at(3, privacy::unit_contribution_bound(k, kBound),
                                          MechanismId::AnalyzeGauss, neighbour);
        unit_request.options.lambda_min_bound = kTheta2;
        unit_request.options.lambda_min_scope = scope;
        Request row_request = unit_request;
        row_request.bound = kBound;
        double shipped = 0.0, broken = 0.0;
        for (const auto &[a, b] : inverse_pairs(scope, neighbour, k)) {
          shipped = std::max(shipped, inverse_ratio(unit_request, a, b));
          broken = std::max(broken, inverse_ratio(row_request, a, b));
        }
        EXPECT_LE(shipped, 1.0);
        EXPECT_GT(broken, 1.0);
      }
}

}  // namespace
}  // namespace dpcov::audit
