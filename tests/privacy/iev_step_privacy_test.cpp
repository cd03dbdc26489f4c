// The per-step exponential-mechanism bound of IEV and of the Kapralov-Talwar baseline
// (proofs/iev.md, proofs/kt_rank1.md): for neighbouring Gram matrices G, G' (replace-one or
// add/remove, rows of norm <= B) and any unit theta on the step's sphere, the unnormalised step
// densities satisfy |ln f_G(theta) - ln f_G'(theta)| <= kappa B^2, the bound the proof uses (the
// normalisers contribute at most the same again under replace-one, and nothing more under
// add/remove). Also: the step privacy of each exponent is within the eps_i the receipt records,
// and the eigenvalue part moves by at most eps0.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/mechanisms/eigenvector_sampling.hpp"
#include "core/privacy/iev_budget.hpp"

namespace dpcov::mechanisms {
namespace {

using privacy::Neighbour;

// Rounding slack of the comparisons: the scores are sums of d^2 products of O(n B^2) numbers.
constexpr double kSlack = 1e-9;

std::vector<double> random_row(std::mt19937_64 &gen, int64_t d, double bound) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  std::vector<double> v(static_cast<size_t>(d));
  double norm2 = 0.0;
  for (double &x : v) {
    x = normal(gen);
    norm2 += x * x;
  }
  // Radius uniform in [0, B], and exactly B a quarter of the time: the extreme case of the bound.
  const double radius = unit(gen) < 0.25 ? bound : bound * unit(gen);
  for (double &x : v) x *= radius / std::sqrt(norm2);
  return v;
}

void add_outer(Matrix &g, const std::vector<double> &v, double sign) {
  for (int64_t j = 0; j < g.cols(); ++j)
    for (int64_t i = 0; i < g.rows(); ++i)
      g(i, j) += sign * v[static_cast<size_t>(i)] * v[static_cast<size_t>(j)];
}

// `count` orthonormal vectors in R^d (Gram-Schmidt twice on Gaussian vectors), as columns.
Matrix orthonormal(std::mt19937_64 &gen, int64_t d, int64_t count) {
  std::normal_distribution<double> normal;
  Matrix q(d, count);
  for (int64_t k = 0; k < count; ++k) {
    for (int64_t i = 0; i < d; ++i) q(i, k) = normal(gen);
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t j = 0; j < k; ++j) {
        double dot = 0.0;
        for (int64_t i = 0; i < d; ++i) dot += q(i, j) * q(i, k);
        for (int64_t i = 0; i < d; ++i) q(i, k) -= dot * q(i, j);
      }
    double norm2 = 0.0;
    for (int64_t i = 0; i < d; ++i) norm2 += q(i, k) * q(i, k);
    for (int64_t i = 0; i < d; ++i) q(i, k) /= std::sqrt(norm2);
  }
  return q;
}

struct Neighbours {
  Matrix g, g_prime;
  int64_t n, n_prime;
};

Neighbours random_neighbours(std::mt19937_64 &gen, int64_t d, int64_t n, double bound,
                             Neighbour relation) {
  Neighbours out{Matrix(d, d), Matrix(d, d), n, n};
  std::vector<std::vector<double>> rows;
  for (int64_t i = 0; i < n; ++i) rows.push_back(random_row(gen, d, bound));
  for (const auto &row : rows) add_outer(out.g, row, 1.0);
  out.g_prime = out.g;
  const std::vector<double> extra = random_row(gen, d, bound);
  if (relation == Neighbour::ReplaceOne) {
    add_outer(out.g_prime, rows[0], -1.0);
    add_outer(out.g_prime, extra, 1.0);
  } else {
    add_outer(out.g_prime, extra, 1.0);
    out.n_prime = n + 1;
  }
  // Exact symmetry, as the statistic check requires.
  for (Matrix *m : {&out.g, &out.g_prime})
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < j; ++i) (*m)(j, i) = (*m)(i, j);
  return out;
}

RC_GTEST_PROP(IevStepPrivacy, UnnormalisedStepDensitiesOfNeighboursDifferByAtMostKappaBSquared, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 9);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 25);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0);
  const auto relation = *rc::gen::element(Neighbour::ReplaceOne, Neighbour::AddRemove);
  const auto exponent = *rc::gen::element(privacy::BinghamExponent::Published,
                                          privacy::BinghamExponent::Sensitivity);
  const auto mechanism = *rc::gen::element(MechanismId::Iev, MechanismId::KtRank1);
  const int64_t step = *rc::gen::inRange<int64_t>(0, d);
  const double eps_i = *rc::gen::element(0.01, 0.1, 1.0, 5.0);
  std::mt19937_64 gen(*rc::gen::arbitrary<uint64_t>());

  const Neighbours nb = random_neighbours(gen, d, n, bound, relation);
  EigenvectorTranscript t;
  t.thetas = orthonormal(gen, d, d);
  std::normal_distribution<double> normal;
  for (int64_t k = 0; k < d; ++k) {
    t.lambda_hat.push_back(static_cast<double>(n) * bound * bound * normal(gen));
    t.kappas.push_back(privacy::bingham_exponent(exponent, relation, eps_i, bound));
  }
  // IEV: theta on the complement of the earlier thetas (the next orthonormal column). KT: any
  // unit vector of S^{d-1}.
  std::vector<double> theta(static_cast<size_t>(d));
  const Matrix free_direction = orthonormal(gen, d, 1);
  for (int64_t i = 0; i < d; ++i)
    theta[static_cast<size_t>(i)] = mechanism == MechanismId::Iev ? t.thetas(i, step) : free_direction(i, 0);

  const double kappa = t.kappas[static_cast<size_t>(step)];
  const double a = step_log_unnormalised_density(mechanism, nb.g.view(), t, step, theta.data());
  const double b = step_log_unnormalised_density(mechanism, nb.g_prime.view(), t, step, theta.data());
  const double b2 = bound * bound;
  RC_ASSERT(std::fabs(a - b) <= kappa * b2 * (1.0 + kSlack) + kSlack * kappa * static_cast<double>(n) * b2);
  if (relation == Neighbour::AddRemove) RC_ASSERT(b >= a - kSlack * kappa * static_cast<double>(n) * b2);

  // The proof's total for the step, 2 kappa B^2 (replace) or kappa B^2 (add/remove), is within the
  // eps_i the receipt records, with equality for the sensitivity-calibrated exponent.
  const double step_privacy = privacy::bingham_step_epsilon(relation, kappa, bound);
  RC_ASSERT(step_privacy <= eps_i * (1.0 + 1e-15));
  if (exponent == privacy::BinghamExponent::Sensitivity) RC_ASSERT(step_privacy >= eps_i * (1.0 - 1e-15));
}

RC_GTEST_PROP(IevStepPrivacy, EigenvalueDensitiesOfNeighboursDifferByAtMostEpsZero, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 9);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 25);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0);
  const auto relation = *rc::gen::element(Neighbour::ReplaceOne, Neighbour::AddRemove);
  const double eps = *rc::gen::element(0.1, 1.0, 4.0);
  const int64_t rank = *rc::gen::inRange<int64_t>(0, d + 1);
  std::mt19937_64 gen(*rc::gen::arbitrary<uint64_t>());
  const Neighbours nb = random_neighbours(gen, d, n, bound, relation);
  Options options;
  options.neighbour = relation;
  options.rank = rank;
  const Request request{d, nb.n, bound, eps, 0.0, options};
  Request request_prime = request;
  request_prime.n = nb.n_prime;
  std::normal_distribution<double> normal;
  std::vector<double> lambda_hat(static_cast<size_t>(rank == 0 ? d : rank));
  for (double &l : lambda_hat) l = static_cast<double>(n) * bound * bound * std::fabs(normal(gen));
  const double a = eigenvalue_log_density(MechanismId::Iev, lambda_hat, nb.g.view(), request);
  const double b = eigenvalue_log_density(MechanismId::Iev, lambda_hat, nb.g_prime.view(), request_prime);
  const double eps0 = privacy::iev_eigenvalue_epsilon(eps);
  RC_ASSERT(std::fabs(a - b) <= eps0 * (1.0 + 1e-9) + 1e-9);
}

}  // namespace
}  // namespace dpcov::mechanisms
