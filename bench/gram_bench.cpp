// dpcov_gram_add_rows against a bare cblas_dsyrk on the same row-major data, in one run so the
// ratio is meaningful on a noisy machine. Run: build/bench/bench_gram (bench/gram_ratio.sh prints
// the ratios). Arguments: n, d, and the percentage of rows over the bound (0, 50 or 100): the
// bound is chosen from the rows' norms so that this share is clipped.
// The ratio to report is time(bare dsyrk) / time(add_rows) at the same (n, d): 1.0 means no
// overhead from validation, norm bounding and compensated accumulation.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <vector>

#include "dpcov.h"
#include "gram_rows.hpp"

namespace {

// The rows for (n, d), generated once and kept while consecutive benchmarks use the same size.
const std::vector<double> &rows(int64_t n, int64_t d) {
  static std::vector<double> a;
  static int64_t cached_n = 0, cached_d = 0;
  if (n != cached_n || d != cached_d) {
    a = dpcov::bench::gram_rows(n, d);
    cached_n = n;
    cached_d = d;
  }
  return a;
}

using dpcov::bench::bound_for;

void BM_BareDsyrk(benchmark::State &state) {
  const int64_t n = state.range(0), d = state.range(1);
  const auto &a = rows(n, d);
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
  const auto &a = rows(n, d);
  const double bound = bound_for(a, n, d, state.range(2));
  dpcov_gram *g = nullptr;
  dpcov_gram_create(&g, d);
  for (auto _ : state) {
    if (dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, n, d, a.data(), d, bound, DPCOV_BOUND_CLIP) !=
        DPCOV_OK)
      state.SkipWithError(dpcov_last_error_message());
    benchmark::ClobberMemory();
  }
  dpcov_gram_destroy(&g);
  state.SetItemsProcessed(state.iterations() * n);
}

// Bare dsyrk and add_rows with 0, 50 and 100 percent of rows clipped, size by size, so that each
// size's rows are generated once.
void RegisterAll() {
  for (int64_t n : {100000, 1000000})
    for (int64_t d : {10, 100, 500}) {
      benchmark::RegisterBenchmark("BM_BareDsyrk", BM_BareDsyrk)
          ->Args({n, d, 0})
          ->Unit(benchmark::kMillisecond);
      for (int64_t over : {0, 50, 100})
        benchmark::RegisterBenchmark("BM_GramAddRows", BM_GramAddRows)
            ->Args({n, d, over})
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace

int main(int argc, char **argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
