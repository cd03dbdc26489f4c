// Throughput of the samplers. Run: build/bench/bench_random
//  - raw 64-bit words and standard normals per second (ziggurat) with each engine: PCG64 (seeded)
//    and ChaCha20 (OS entropy, the default; target: at least half PCG64's normals per second);
//  - Wishart W_d(k, S) by Bartlett at d in {10, 100, 500} for k = d + 1 and k = d + 100000: the
//    two should cost the same, since Bartlett's cost does not depend on k;
//  - exact discrete Gaussian and discrete Laplace draws per second at the noise parameters of the
//    exact mechanisms at d = 1000 (each engine);
//  - Bingham draws per second and the acceptance rate (draws / proposals) at d in {10, 50, 100}
//    for the IEV-style A = kappa (lambda_max(C) I - C), C with a geometrically decaying spectrum
//    lambda_i = 1000 * 0.85^i (the Gram matrix of 1000 unit-norm rows) and kappa = eps / (4 B^2)
//    at eps = 1, B = 1.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "../core/mechanisms/exact_additive.hpp"
#include "../core/random/discrete.hpp"
#include "../core/random/samplers.hpp"

namespace {

using dpcov::Matrix;
using dpcov::random::Rng;

// Argument 0: PCG64 from a seed; 1: ChaCha20 from OS entropy.
Rng engine_rng(int64_t engine) { return engine == 0 ? Rng::from_seed(1) : Rng::from_entropy(); }

void BM_Words(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  uint64_t sink = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) sink += rng.next_u64();
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_Words)->ArgName("chacha20")->Arg(0)->Arg(1);

void BM_StandardNormal(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  double sink = 0.0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) sink += dpcov::random::standard_normal(rng);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_StandardNormal)->ArgName("chacha20")->Arg(0)->Arg(1);

void BM_Laplace(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  double sink = 0.0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) sink += dpcov::random::laplace(rng, 1.0);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_Laplace)->ArgName("chacha20")->Arg(0)->Arg(1);

// The exact samplers (core/random/discrete.hpp) at the integer noise parameters of the exact
// Analyze Gauss and symmetric Laplace at d = 1000, eps = 1 (delta = 1e-6), B = 1, replace-one:
// discrete Gaussian variance and discrete Laplace scale on the 2^-12 grid.
uint64_t exact_noise_parameter(dpcov::mechanisms::MechanismId m) {
  dpcov::mechanisms::Request r;
  r.dim = 1000;
  r.n = 1000;
  r.bound = 1.0;
  r.epsilon = 1.0;
  r.delta = m == dpcov::mechanisms::MechanismId::AnalyzeGauss ? 1e-6 : 0.0;
  dpcov::mechanisms::ExactGrid grid;
  dpcov::mechanisms::plan_exact_additive(m, r, &grid);
  return grid.noise_parameter;
}

void BM_DiscreteGaussian(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  const uint64_t sigma2 = exact_noise_parameter(dpcov::mechanisms::MechanismId::AnalyzeGauss);
  int64_t sink = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) sink += dpcov::random::discrete_gaussian(rng, sigma2);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_DiscreteGaussian)->ArgName("chacha20")->Arg(0)->Arg(1);

void BM_DiscreteLaplace(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  const uint64_t t = exact_noise_parameter(dpcov::mechanisms::MechanismId::LaplaceSym);
  int64_t sink = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) sink += dpcov::random::discrete_laplace(rng, 1, t);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_DiscreteLaplace)->ArgName("chacha20")->Arg(0)->Arg(1);

// The same laws drawn in batches of 1024 from one bit source, as an exact release draws its
// d(d+1)/2 entries (discrete_*_fill).
void BM_DiscreteGaussianFill(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  const uint64_t sigma2 = exact_noise_parameter(dpcov::mechanisms::MechanismId::AnalyzeGauss);
  std::vector<int64_t> out(1024);
  for (auto _ : state) {
    dpcov::random::discrete_gaussian_fill(rng, sigma2, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_DiscreteGaussianFill)->ArgName("chacha20")->Arg(0)->Arg(1);

void BM_DiscreteLaplaceFill(benchmark::State &state) {
  Rng rng = engine_rng(state.range(0));
  const uint64_t t = exact_noise_parameter(dpcov::mechanisms::MechanismId::LaplaceSym);
  std::vector<int64_t> out(1024);
  for (auto _ : state) {
    dpcov::random::discrete_laplace_fill(rng, 1, t, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_DiscreteLaplaceFill)->ArgName("chacha20")->Arg(0)->Arg(1);

// A well-conditioned dense SPD scale: I + 0.5 (the all-ones matrix) / d.
Matrix dense_scale(int64_t d) {
  Matrix s(d, d, 0.5 / static_cast<double>(d));
  for (int64_t i = 0; i < d; ++i) s(i, i) += 1.0;
  return s;
}

void BM_Wishart(benchmark::State &state) {
  const int64_t d = state.range(0), extra = state.range(1);
  const Matrix s = dense_scale(d);
  Rng rng = Rng::from_seed(2);
  const double k = static_cast<double>(d + extra);
  for (auto _ : state) benchmark::DoNotOptimize(dpcov::random::wishart(rng, k, s).data());
  state.counters["k"] = k;
}
BENCHMARK(BM_Wishart)
    ->ArgNames({"d", "k_minus_d"})
    ->ArgsProduct({{10, 100, 500}, {1, 100000}})
    ->Unit(benchmark::kMicrosecond);

void BM_Bingham(benchmark::State &state) {
  const int64_t d = state.range(0);
  const double kappa = 1.0 / 4.0;
  Matrix a(d, d);
  for (int64_t i = 0; i < d; ++i) a(i, i) = kappa * 1000.0 * (1.0 - std::pow(0.85, i));
  const dpcov::random::BinghamSampler sampler(a);
  Rng rng = Rng::from_seed(3);
  std::vector<double> x(static_cast<size_t>(d));
  int64_t draws = 0, tries = 0;
  for (auto _ : state) {
    tries += sampler.sample(rng, x.data());
    ++draws;
  }
  state.SetItemsProcessed(draws);
  state.counters["acceptance"] = static_cast<double>(draws) / static_cast<double>(tries);
  state.counters["tries_per_draw"] = static_cast<double>(tries) / static_cast<double>(draws);
}
BENCHMARK(BM_Bingham)->Arg(10)->Arg(50)->Arg(100)->ArgName("d");

}  // namespace

BENCHMARK_MAIN();
