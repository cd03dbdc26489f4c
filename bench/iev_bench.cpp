// Release time of iterative eigenvector sampling (IEV, Amin et al. 2019, Alg. 1) and of the
// Kapralov-Talwar rank-one baseline through the C ABI, at d in {10, 50, 100, 200, 500}, on a Gram matrix
// of n = 10 d rows of norm <= 1 with a decaying spectrum, epsilon = 1 (uniform split).
// Run: build/bench/bench_iev. Targets: IEV under 10 ms at d = 100 and under 2 s at d = 500.
// The Bingham proposals per release are reported as a counter (they depend on the data: the
// timing side channel documented in dpcov/mechanism.h).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "dpcov.h"

namespace {

std::vector<double> gram_of_rows(int64_t d) {
  const int64_t n = 10 * d;
  std::mt19937_64 gen(42);
  std::normal_distribution<double> normal;
  std::vector<double> a(static_cast<size_t>(n * d));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < d; ++j)
      a[static_cast<size_t>(i * d + j)] = normal(gen) / std::sqrt(static_cast<double>((j + 1) * d));
  dpcov_gram *g = nullptr;
  dpcov_gram_create(&g, d);
  dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, n, d, a.data(), d, 1.0, DPCOV_BOUND_CLIP);
  std::vector<double> c(static_cast<size_t>(d * d));
  dpcov_gram_get_matrix(g, DPCOV_COL_MAJOR, c.data(), d);
  dpcov_gram_destroy(&g);
  return c;
}

void run(benchmark::State &state, int32_t mechanism) {
  const int64_t d = state.range(0), n = 10 * d;
  const std::vector<double> c = gram_of_rows(d);
  std::vector<double> out(c.size());
  dpcov_rng *rng = nullptr;
  dpcov_rng_create_seeded(&rng, 7, 0);
  dpcov_mechanism_params params;
  dpcov_mechanism_params_default(&params);
  dpcov_receipt receipt;
  receipt.struct_size = sizeof receipt;
  double proposals = 0.0;
  for (auto _ : state) {
    if (dpcov_mechanism_release(mechanism, DPCOV_COL_MAJOR, d, c.data(), d, n, 1.0, 1.0, 0.0,
                                &params, rng, out.data(), d, &receipt) != DPCOV_OK)
      state.SkipWithError(dpcov_last_error_message());
    proposals += static_cast<double>(receipt.bingham_proposals);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["proposals"] = benchmark::Counter(proposals, benchmark::Counter::kAvgIterations);
  dpcov_rng_destroy(&rng);
}

void BM_IevRelease(benchmark::State &state) { run(state, DPCOV_MECHANISM_IEV); }
void BM_KtRank1Release(benchmark::State &state) { run(state, DPCOV_MECHANISM_KT_RANK1); }

}  // namespace

BENCHMARK(BM_IevRelease)->Arg(10)->Arg(50)->Arg(100)->Arg(200)->Arg(500)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KtRank1Release)->Arg(10)->Arg(50)->Arg(100)->Arg(200)->Arg(500)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
