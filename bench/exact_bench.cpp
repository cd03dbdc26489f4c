// Release time of Analyze Gauss and symmetric Laplace in both numerics, from the same n x d rows
// (n = 5000, rows of norm <= 1), with the ChaCha20 generator (the default):
//  - idealized: the floating-point Gram (dsyrk) then continuous noise (mechanisms::release);
//  - exact: rows rounded to the grid, the exact integer Gram (dsyrk on integer-valued doubles),
//    then discrete Gaussian / discrete Laplace noise (mechanisms::release_exact_additive).
// Run: build/bench/bench_exact. The exact path is the CLI default only if it costs <= 3x the
// idealized one at d = 1000 (proofs/exact_additive.md).
#include <benchmark/benchmark.h>

#include <cmath>

#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/random/samplers.hpp"

namespace {

using dpcov::Matrix;
using dpcov::mechanisms::MechanismId;

constexpr int64_t kRows = 5000;

Matrix unit_rows(int64_t n, int64_t d) {
  dpcov::random::Rng rng = dpcov::random::Rng::from_seed(1);
  Matrix rows(n, d);
  for (int64_t r = 0; r < n; ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      rows(r, j) = dpcov::random::standard_normal(rng);
      norm2 += rows(r, j) * rows(r, j);
    }
    for (int64_t j = 0; j < d; ++j) rows(r, j) /= std::sqrt(norm2);
  }
  return rows;
}

dpcov::mechanisms::Request request(MechanismId m, int64_t d) {
  dpcov::mechanisms::Request r;
  r.dim = d;
  r.n = kRows;
  r.bound = 1.0;
  r.epsilon = 1.0;
  r.delta = m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0;
  return r;
}

// Argument 0: the dimension d; argument 1: 0 Analyze Gauss, 1 symmetric Laplace.
MechanismId mechanism_of(const benchmark::State &state) {
  return state.range(1) == 0 ? MechanismId::AnalyzeGauss : MechanismId::LaplaceSym;
}

void BM_Idealized(benchmark::State &state) {
  const int64_t d = state.range(0);
  const MechanismId m = mechanism_of(state);
  const Matrix rows = unit_rows(kRows, d);
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  for (auto _ : state) {
    Matrix g(d, d);
    dpcov::linalg::syrk_upper(rows.view(), 0.0, g.data(), d);
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = j + 1; i < d; ++i) g(i, j) = g(j, i);
    benchmark::DoNotOptimize(dpcov::mechanisms::release(m, g.view(), request(m, d), rng).matrix.data());
  }
}

void BM_Exact(benchmark::State &state) {
  const int64_t d = state.range(0);
  const MechanismId m = mechanism_of(state);
  const Matrix rows = unit_rows(kRows, d);
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  for (auto _ : state)
    benchmark::DoNotOptimize(
        dpcov::mechanisms::release_exact_additive(m, rows.view(), request(m, d), rng).matrix.data());
}

BENCHMARK(BM_Idealized)->ArgNames({"d", "laplace"})->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Exact)->ArgNames({"d", "laplace"})->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
