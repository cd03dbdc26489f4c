// IEV release time of two builds of libdpcov in one process, interleaved call by call: thread CPU
// time per release (median), for A/B comparisons on a loaded machine where separate runs move by
// 10-25%. The Gram is that of bench/iev_bench.cpp's kind: n = 10 d rows of norm <= 1 with a
// decaying spectrum; epsilon = 1, the library's defaults, seed 7. Prints both medians and A/B.
//   OPENBLAS_NUM_THREADS=1 build/bench/bench_iev_ab 100 300 main/libdpcov.so.0 build/capi/libdpcov.so.0
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "dpcov.h"

namespace {

using Release = dpcov_status (*)(int32_t, int32_t, int64_t, const double *, int64_t, int64_t,
                                 double, double, double, const dpcov_mechanism_params *,
                                 dpcov_rng *, double *, int64_t, dpcov_receipt *);
using RngCreate = dpcov_status (*)(dpcov_rng **, uint64_t, uint64_t);
using ParamsInit = dpcov_status (*)(dpcov_mechanism_params *, size_t);

struct Library {
  Release release;
  dpcov_rng *rng = nullptr;
  dpcov_mechanism_params params{};
};

Library open_library(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    std::exit(1);
  }
  Library lib{reinterpret_cast<Release>(dlsym(handle, "dpcov_mechanism_release"))};
  reinterpret_cast<RngCreate>(dlsym(handle, "dpcov_rng_create_seeded"))(&lib.rng, 7, 0);
  reinterpret_cast<ParamsInit>(dlsym(handle, "dpcov_mechanism_params_init"))(&lib.params,
                                                                            sizeof lib.params);
  return lib;
}

std::vector<double> gram_of_rows(int64_t d) {
  const int64_t n = 10 * d;
  std::mt19937_64 gen(42);
  std::normal_distribution<double> normal;
  std::vector<double> rows(static_cast<size_t>(n * d)), gram(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double *row = &rows[static_cast<size_t>(i * d)], norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      row[j] = normal(gen) / std::sqrt(static_cast<double>((j + 1) * d));
      norm2 += row[j] * row[j];
    }
    const double shrink = std::max(1.0, std::sqrt(norm2));
    for (int64_t j = 0; j < d; ++j) row[j] /= shrink;
    for (int64_t p = 0; p < d; ++p)
      for (int64_t q = 0; q < d; ++q) gram[static_cast<size_t>(p + q * d)] += row[p] * row[q];
  }
  return gram;
}

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s d calls libA libB\n", argv[0]);
    return 2;
  }
  const int64_t d = std::atoll(argv[1]), calls = std::atoll(argv[2]);
  Library libs[2] = {open_library(argv[3]), open_library(argv[4])};
  const std::vector<double> gram = gram_of_rows(d);
  std::vector<double> out(gram.size());
  std::vector<double> seconds[2];
  for (int64_t call = 0; call < calls; ++call)
    for (int k = 0; k < 2; ++k) {
      dpcov_receipt receipt{};
      receipt.struct_size = sizeof receipt;
      const double start = thread_seconds();
      if (libs[k].release(DPCOV_MECHANISM_IEV, DPCOV_COL_MAJOR, d, gram.data(), d, 10 * d, 1.0,
                          1.0, 0.0, &libs[k].params, libs[k].rng, out.data(), d,
                          &receipt) != DPCOV_OK) {
        std::fprintf(stderr, "release failed\n");
        return 1;
      }
      seconds[k].push_back(thread_seconds() - start);
    }
  double median[2];
  for (int k = 0; k < 2; ++k) {
    std::sort(seconds[k].begin(), seconds[k].end());
    median[k] = seconds[k][seconds[k].size() / 2];
  }
  std::printf("d = %lld: A %.4f ms, B %.4f ms, A/B %.3f\n", static_cast<long long>(d),
              1e3 * median[0], 1e3 * median[1], median[0] / median[1]);
  return 0;
}
