// The roofline's compute peak of one core of the machine it runs on: double-precision fused
// multiply-adds on independent chains, as wide as the processor takes them (AVX-512, else AVX2
// with FMA), enough chains to hide the instruction's latency on every current x86 core (two FMA
// units of four-cycle latency need eight in flight; twelve leave slack), the chains unrolled so
// that they stay in registers. CPU time of the calling thread, best of `rounds` runs (the peak is
// a ceiling: load only lowers a run). scripts/bench divides the Gram's flop rates by it
// (bench/summarize.py, "against the machine's peak").
//   build/bench/fma_peak [rounds (default 5)]
// One line on stdout: `fma peak: G GFLOP/s of CPU time, one core (WIDTH)`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#if defined(__x86_64__)
#include <immintrin.h>

namespace {

constexpr int kChains = 12;
constexpr long kIterations = 20'000'000;

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Each call runs kIterations rounds of one FMA per chain, 2 flops per lane, and returns a value
// that depends on every chain so that no chain is dropped.
__attribute__((target("avx512f"))) double chains_avx512(double seed) {
  __m512d acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm512_set1_pd(seed + c);
  const __m512d a = _mm512_set1_pd(0.999999), b = _mm512_set1_pd(1e-7);
  for (long i = 0; i < kIterations; ++i)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_fmadd_pd(acc[c], a, b);
  __m512d sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm512_add_pd(sum, acc[c]);
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, sum);
  double total = 0.0;
  for (const double x : lanes) total += x;
  return total;
}

__attribute__((target("avx2,fma"))) double chains_avx2(double seed) {
  __m256d acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_pd(seed + c);
  const __m256d a = _mm256_set1_pd(0.999999), b = _mm256_set1_pd(1e-7);
  for (long i = 0; i < kIterations; ++i)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_pd(acc[c], a, b);
  __m256d sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm256_add_pd(sum, acc[c]);
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

}  // namespace
#endif

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
#if !defined(__x86_64__)
  std::printf("fma peak: not measured (not an x86-64 processor; %d rounds asked)\n", rounds);
  return 0;
#else
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
    std::printf("fma peak: not measured (no AVX2 with FMA)\n");
    return 0;
  }
  const int lanes = avx512 ? 8 : 4;
  double best = 0.0, sink = 0.0;
  for (int r = 0; r < rounds; ++r) {
    const double start = thread_seconds();
    sink += avx512 ? chains_avx512(r) : chains_avx2(r);
    const double seconds = thread_seconds() - start;
    best = std::max(best, 2.0 * lanes * kChains * static_cast<double>(kIterations) / seconds);
  }
  std::printf("fma peak: %.1f GFLOP/s of CPU time, one core (%s)\n", best * 1e-9,
              avx512 ? "AVX-512" : "AVX2");
  return sink == 0.5 ? 1 : 0;  // keeps the chains' results alive
#endif
}
