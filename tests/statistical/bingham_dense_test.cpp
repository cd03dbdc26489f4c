// The dense Bingham sampler (random/bingham_dense.hpp) against exact laws, on each of its
// envelopes (uniform proposals, the ACG envelope at the second-order u, at the exact u):
//  - exponent kappa y^T C y with C = s I - (a / kappa) v v^T (a generic unit v, a shift s that
//    changes no draw): |v^T y| against SpikeLaw (KS), at q = 10 for a = 0.5 (uniform proposals),
//    2 (second-order u), 8 and 30 (exact u), at q = 30 for a = -30 and 60 (Lanczos u);
//  - q = 6, C = -Q diag(lambda) Q^T / kappa for a fixed rotation Q: each |(Q^T y)_j| against the
//    draws of the diagonal BinghamSampler on lambda (two-sample KS), lambda at three scales, one
//    per envelope.
// alpha = 1e-6 per assertion on a correct sampler: 6 + 18 = 24 assertions, family-wise
// false-failure rate <= 2.4e-5. The spike checks also run on uniform draws and on the density
// with the exponent's sign flipped and must reject both; the rotated checks on uniform draws
// (at the two stronger scales, where the law is far from uniform).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bingham_laws.hpp"
#include "core/linalg/blas.hpp"
#include "core/random/bingham.hpp"
#include "core/random/bingham_dense.hpp"
#include "core/random/normal.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

constexpr int64_t kDraws = 200000;
constexpr double kKappa = 0.7;

enum class Rule { Dense, Uniform, Flipped };

std::vector<double> unit(std::vector<double> v) {
  double n = 0.0;
  for (double x : v) n += x * x;
  for (double &x : v) x /= std::sqrt(n);
  return v;
}

// n draws of the dense sampler on C (full storage), or the rule's wrong sampler.
std::vector<std::vector<double>> draws(const Matrix &c, Rule rule, uint64_t seed,
                                       BinghamEnvelope *envelope) {
  const int64_t q = c.rows(), n = stat::scaled(kDraws);
  Matrix flipped(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i < q; ++i) flipped(i, j) = -c(i, j);
  const Matrix &used = rule == Rule::Flipped ? flipped : c;
  DenseBinghamSampler sampler;
  Rng rng = Rng::from_seed(seed, 7);
  std::vector<std::vector<double>> out;
  std::vector<double> y(static_cast<size_t>(q));
  for (int64_t i = 0; i < n; ++i) {
    if (rule == Rule::Uniform) {
      standard_normals(rng, y.data(), q);
      y = unit(y);
    } else {
      sampler.sample(rng, q, used.data(), q, kKappa, y.data());
    }
    out.push_back(y);
  }
  if (envelope) *envelope = sampler.last_envelope();
  return out;
}

stat::Verdict spike_check(int64_t q, double a, Rule rule, BinghamEnvelope *envelope) {
  std::vector<double> v(static_cast<size_t>(q));
  for (int64_t i = 0; i < q; ++i)
    v[static_cast<size_t>(i)] = (i % 3 == 0 ? -1.0 : 1.0) * (1.0 + 0.3 * i);
  v = unit(v);
  Matrix c(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i < q; ++i)
      c(i, j) =
          (i == j ? 3.7 : 0.0) - a / kKappa * v[static_cast<size_t>(i)] * v[static_cast<size_t>(j)];
  const SpikeLaw law(q, a);
  std::vector<double> t;
  for (const auto &y : draws(c, rule, 61, envelope)) {
    double dot = 0.0;
    for (int64_t i = 0; i < q; ++i) dot += v[static_cast<size_t>(i)] * y[static_cast<size_t>(i)];
    t.push_back(std::fabs(dot));
  }
  return stat::ks_one_sample(
      t, [&](double x) { return law.cdf(x); },
      "q = " + std::to_string(q) + ", a = " + std::to_string(a) + ": |v^T y| law");
}

struct SpikeCase {
  int64_t q;
  double a;
  BinghamEnvelope envelope;
};

TEST(DenseBinghamSpike, FollowsItsLawOnEveryEnvelopeAndRejectsTheBrokenSamplers) {
  // a > 0 pushes y away from v (C's top eigenvalue has multiplicity q - 1: Lanczos sees one
  // vector of that eigenspace, and the exact trace either corrects the model or declines it);
  // a < 0 pulls y towards v (one leading eigenvalue).
  const SpikeCase cases[] = {
      {10, 0.5, BinghamEnvelope::Uniform},   {10, 2.0, BinghamEnvelope::SecondOrder},
      {10, 8.0, BinghamEnvelope::ExactRoot}, {10, 30.0, BinghamEnvelope::ExactRoot},
      {30, -30.0, BinghamEnvelope::Lanczos}, {30, 60.0, BinghamEnvelope::Lanczos}};
  for (const SpikeCase &k : cases) {
    BinghamEnvelope envelope = BinghamEnvelope::Eigenbasis;
    const stat::Verdict good = spike_check(k.q, k.a, Rule::Dense, &envelope);
    EXPECT_TRUE(good.pass) << good;
    EXPECT_EQ(static_cast<int>(envelope), static_cast<int>(k.envelope))
        << "q " << k.q << ", a " << k.a;
    for (Rule r : {Rule::Uniform, Rule::Flipped}) {
      const stat::Verdict bad = spike_check(k.q, k.a, r, nullptr);
      EXPECT_FALSE(bad.pass) << (r == Rule::Uniform ? "uniform draws: " : "flipped sign: ") << bad;
    }
  }
}

// A fixed rotation: the eigenvectors of a fixed symmetric matrix.
Matrix rotation(int64_t q) {
  Matrix s(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i <= j; ++i) s(i, j) = s(j, i) = std::sin(1.0 + 3.0 * i + 7.0 * j);
  return linalg::eigh(s).vectors;
}

TEST(DenseBinghamRotated, EachCoordinateMatchesTheDiagonalSampler) {
  constexpr int64_t q = 6;
  const std::vector<double> shape = {0.0, 0.5, 1.0, 2.0, 4.0, 8.0};
  const Matrix r = rotation(q);
  for (double scale : {0.05, 0.15, 3.0}) {  // uniform proposals, second-order u, exact u
    std::vector<double> lambda(shape);
    for (double &l : lambda) l *= scale;
    Matrix c(q, q);  // -R diag(lambda) R^T / kappa, exactly symmetric
    for (int64_t j = 0; j < q; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        double sum = 0.0;
        for (int64_t k = 0; k < q; ++k) sum += r(i, k) * lambda[static_cast<size_t>(k)] * r(j, k);
        c(i, j) = c(j, i) = -sum / kKappa;
      }
    const BinghamSampler diagonal(lambda);
    Rng rng = Rng::from_seed(62, 7);
    std::vector<std::vector<double>> reference(q);
    std::vector<double> z(q);
    for (int64_t i = 0; i < stat::scaled(kDraws); ++i) {
      diagonal.sample(rng, z.data());
      for (int64_t k = 0; k < q; ++k)
        reference[static_cast<size_t>(k)].push_back(std::fabs(z[static_cast<size_t>(k)]));
    }
    for (Rule rule : {Rule::Dense, Rule::Uniform}) {
      const auto ys = draws(c, rule, 63, nullptr);
      bool all = true;
      for (int64_t k = 0; k < q; ++k) {
        std::vector<double> coordinate;
        for (const auto &y : ys) {
          double dot = 0.0;
          for (int64_t i = 0; i < q; ++i) dot += r(i, k) * y[static_cast<size_t>(i)];
          coordinate.push_back(std::fabs(dot));
        }
        const stat::Verdict v = stat::ks_two_sample(
            coordinate, reference[static_cast<size_t>(k)],
            "scale " + std::to_string(scale) + ", |(R^T y)_" + std::to_string(k) + "|");
        if (rule == Rule::Dense) {
          EXPECT_TRUE(v.pass) << v;
        }
        all = all && v.pass;
      }
      if (rule == Rule::Uniform && scale > 0.1) {
        EXPECT_FALSE(all) << "uniform draws at scale " << scale;
      }
    }
  }
}

}  // namespace
}  // namespace dpcov::random
