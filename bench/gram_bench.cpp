// dpcov_gram_add_rows against a bare cblas_dsyrk on the same row-major data, in one run so the
// ratio is meaningful on a noisy machine. Run: build/bench/bench_gram
// The ratio to report is time(bare dsyrk) / time(add_rows) at the same (n, d): 1.0 means no
// overhead from validation, norm bounding and compensated accumulation.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <random>
#include <vector>

#include "dpcov.h"

namespace {

std::vector<double> rows(int64_t n, int64_t d) {
  std::vector<double> a(static_cast<size_t>(n * d));
  std::mt19937_64 gen(42);
  std::normal_distribution<double> normal(0.0, 1.0 / static_cast<double>(d));
  for (double &x : a) x = normal(gen);
  return a;
}

void BM_BareDsyrk(benchmark::State &state) {
  const int64_t n = state.range(0), d = state.range(1);
  const auto a = rows(n, d);
  std::vector<double> c(static_cast<size_t>(d * d));
  for (auto _ : state) {
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, static_cast<int>(d), static_cast<int>(n),
                1.0, a.data(), static_cast<int>(d), 0.0, c.data(), static_cast<int>(d));
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_GramAddRows(benchmark::State &state) {
  const int64_t n = state.range(0), d = state.range(1);
  const auto a = rows(n, d);
  dpcov_gram *g = nullptr;
  dpcov_gram_create(&g, d);
  for (auto _ : state) {
    if (dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, n, d, a.data(), d, 1.0, DPCOV_BOUND_CLIP) !=
        DPCOV_OK)
      state.SkipWithError(dpcov_last_error_message());
    benchmark::ClobberMemory();
  }
  dpcov_gram_destroy(&g);
  state.SetItemsProcessed(state.iterations() * n);
}

void Sizes(benchmark::internal::Benchmark *b) {
  for (int64_t d : {10, 100, 500}) b->Args({100000, d});
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_BareDsyrk)->Apply(Sizes);
BENCHMARK(BM_GramAddRows)->Apply(Sizes);

}  // namespace

BENCHMARK_MAIN();
