// Inverse Gauss refuses no dataset of a pair its guarantee covers (proofs/inverse_gauss.md, "The
// data check"): over random neighbouring pairs (D, D') under both relations, where D meets the
// public bound lambda_min >= theta^2 (theta^2 at most D's computed lambda_min, often exactly it),
// the release on D and on D' both succeed in the input scope; in the domain scope a pair both of
// whose datasets meet the bound is never refused. Neighbours include the tight case of Weyl's
// bound: removing a row of norm B along an eigenvector of the smallest eigenvalue.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpcov.h"

namespace {

using Rows = std::vector<std::vector<double>>;

std::vector<double> gram_of(const Rows &rows, int d) {
  std::vector<double> g(static_cast<size_t>(d * d), 0.0);
  for (const auto &v : rows)
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) g[static_cast<size_t>(i * d + j)] += v[i] * v[j];
  return g;
}

double lambda_min(const std::vector<double> &g, int d) {
  std::vector<double> values(static_cast<size_t>(d));
  if (dpcov_pca_top_k(DPCOV_ROW_MAJOR, d, g.data(), d, d, values.data(), nullptr, d, nullptr) !=
      DPCOV_OK)
    return -1.0;
  return *std::min_element(values.begin(), values.end());
}

// A row of norm <= 1 (B = 1): a basis vector, or random entries scaled into the ball.
std::vector<double> random_row(int d) {
  std::vector<double> v(static_cast<size_t>(d), 0.0);
  if (*rc::gen::arbitrary<bool>()) {
    v[static_cast<size_t>(*rc::gen::inRange(0, d))] = 1.0;
    return v;
  }
  double norm = 0.0;
  for (auto &x : v) {
    x = *rc::gen::inRange(-1000, 1001) / 1000.0;
    norm += x * x;
  }
  const double scale = *rc::gen::inRange(1, 1001) / 1000.0;
  if (norm > 0.0)
    for (auto &x : v) x *= scale / std::sqrt(norm);
  return v;
}

dpcov_status release(const std::vector<double> &g, int d, int64_t n, double theta2, int32_t scope,
                     int32_t neighbour, dpcov_rng *rng) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.lambda_min_bound = theta2;
  p.lambda_min_scope = scope;
  p.neighbour = neighbour;
  std::vector<double> out(static_cast<size_t>(d * d));
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  return dpcov_mechanism_release(DPCOV_MECHANISM_INVERSE_GAUSS, DPCOV_ROW_MAJOR, d, g.data(), d, n,
                                 1.0, 1.0, 1e-6, &p, rng, out.data(), d, &r);
}

RC_GTEST_PROP(InverseGaussRefusal, NoDatasetOfACoveredPairIsRefused, ()) {
  const int d = *rc::gen::inRange(1, 5);
  // Each basis vector several times, so lambda_min exceeds B^2 = 1, then a few random rows.
  Rows rows;
  for (int j = 0; j < d; ++j) {
    const int copies = *rc::gen::inRange(2, 7);
    for (int c = 0; c < copies; ++c) {
      std::vector<double> e(static_cast<size_t>(d), 0.0);
      e[static_cast<size_t>(j)] = 1.0;
      rows.push_back(e);
    }
  }
  const int extra = *rc::gen::inRange(0, 5);
  for (int k = 0; k < extra; ++k) rows.push_back(random_row(d));
  const std::vector<double> g = gram_of(rows, d);
  const double lm = lambda_min(g, d);
  RC_PRE(lm > 1.0);
  // theta^2: D's lambda_min itself (the tight case) or a public bound below it.
  const double theta2 = *rc::gen::arbitrary<bool>()
                            ? lm
                            : std::max(1.0 + 1e-9, lm * *rc::gen::inRange(500, 1001) / 1000.0);
  RC_PRE(theta2 > 1.0);

  // The neighbour: a row removed (add/remove) or replaced (replace-one). The row removed is the
  // last of a basis vector's copies, so the tight case of Weyl's bound is reached.
  const int32_t neighbour =
      *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  Rows other = rows;
  other.erase(other.begin() + *rc::gen::inRange(0, static_cast<int>(other.size())));
  if (neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE) other.push_back(random_row(d));
  const std::vector<double> g2 = gram_of(other, d);
  const auto n = static_cast<int64_t>(rows.size());
  const auto n2 = static_cast<int64_t>(other.size());

  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 7, 0) == DPCOV_OK);
  const dpcov_status on_d = release(g, d, n, theta2, DPCOV_LAMBDA_MIN_INPUT, neighbour, rng);
  const dpcov_status on_d2 = release(g2, d, n2, theta2, DPCOV_LAMBDA_MIN_INPUT, neighbour, rng);
  // Domain scope: a pair covered when both meet the bound (computed values, a margin above it).
  const double lm2 = lambda_min(g2, d);
  const bool both_meet = lm2 >= theta2 * (1.0 + 1e-12);
  const dpcov_status domain_d = release(g, d, n, theta2, DPCOV_LAMBDA_MIN_DOMAIN, neighbour, rng);
  const dpcov_status domain_d2 =
      release(g2, d, n2, theta2, DPCOV_LAMBDA_MIN_DOMAIN, neighbour, rng);
  dpcov_rng_destroy(&rng);
  RC_ASSERT(on_d == DPCOV_OK);
  RC_ASSERT(on_d2 == DPCOV_OK);
  RC_ASSERT(domain_d == DPCOV_OK);
  if (both_meet) RC_ASSERT(domain_d2 == DPCOV_OK);
}

}  // namespace
