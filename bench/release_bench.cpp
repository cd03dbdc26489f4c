// Release time of the additive mechanisms through the C ABI at d in {10, 100, 500, 1000}, next to
// the time to accumulate the Gram matrix they release (dsyrk over n = 1e5 rows at the same d; the
// Gram time for n = 1e6 is ten times it, dsyrk being linear in n). A release costs O(d^2) noise
// draws plus O(d^3) at most, independent of n: the target is every additive mechanism at
// d = 1000 under 10% of the Gram time for n = 1e6.
// Run: build/bench/bench_release (scripts/bench puts it in its table).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <random>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kGramRows = 100000;

void BM_GramRows(benchmark::State &state) {
  const int64_t d = state.range(0);
  std::vector<double> a(static_cast<size_t>(kGramRows * d));
  std::mt19937_64 gen(42);
  std::normal_distribution<double> normal(0.0, 1.0 / static_cast<double>(d));
  for (double &x : a) x = normal(gen);
  std::vector<double> c(static_cast<size_t>(d * d));
  for (auto _ : state) {
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, static_cast<int>(d),
                static_cast<int>(kGramRows), 1.0, a.data(), static_cast<int>(d), 0.0, c.data(),
                static_cast<int>(d));
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["rows"] = static_cast<double>(kGramRows);
}

// A release of the Gram matrix of n = 1e6 rows of norm <= 1 spread evenly over the axes.
void release(benchmark::State &state, int32_t mechanism, double epsilon, double delta) {
  const int64_t d = state.range(0), n = 1000000;
  std::vector<double> gram(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < d; ++i)
    gram[static_cast<size_t>(i * d + i)] = static_cast<double>(n) / static_cast<double>(d);
  std::vector<double> out(gram.size());
  dpcov_rng *rng = nullptr;
  dpcov_rng_create_seeded(&rng, 7, 0);
  dpcov_mechanism_params params;
  dpcov_mechanism_params_default(&params);
  dpcov_receipt receipt;
  receipt.struct_size = sizeof receipt;
  for (auto _ : state) {
    if (dpcov_mechanism_release(mechanism, DPCOV_COL_MAJOR, d, gram.data(), d, n, 1.0, epsilon,
                                delta, &params, rng, out.data(), d, &receipt) != DPCOV_OK)
      state.SkipWithError(dpcov_last_error_message());
    benchmark::DoNotOptimize(out.data());
  }
  dpcov_rng_destroy(&rng);
}

void BM_AnalyzeGauss(benchmark::State &state) {
  release(state, DPCOV_MECHANISM_ANALYZE_GAUSS, 1.0, 1e-6);
}
void BM_LaplaceSym(benchmark::State &state) { release(state, DPCOV_MECHANISM_LAPLACE_SYM, 1.0, 0.0); }
// Sheffet's Thm 4.1 needs epsilon < 1.
void BM_WishartAdditive(benchmark::State &state) {
  release(state, DPCOV_MECHANISM_WISHART_ADDITIVE, 0.5, 1e-6);
}

void Dims(benchmark::internal::Benchmark *b) {
  for (int64_t d : {10, 100, 500, 1000}) b->Arg(d);
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_GramRows)->Apply(Dims);
BENCHMARK(BM_AnalyzeGauss)->Apply(Dims);
BENCHMARK(BM_LaplaceSym)->Apply(Dims);
BENCHMARK(BM_WishartAdditive)->Apply(Dims);

}  // namespace

BENCHMARK_MAIN();
