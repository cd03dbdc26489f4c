// dpcov_gram_add_rows of one or two builds of libdpcov against a bare cblas_dsyrk on the same
// row-major rows, in one process, call by call: each round runs the bare dsyrk and every
// (library, share clipped) once, in an order rotated from round to round, and each add_rows is
// divided by the dsyrk of its own round. The medians of those per-round ratios move far less with
// the machine's load than separate runs do: a round's calls are seconds apart at most, so they
// meet the same load. Rows and bounds from bench/gram_rows.hpp (N(0, 1/d^2) entries, seed 42; the
// bound puts 0% or 50% of the rows over it); each (library, share) keeps one accumulator.
// Times: wall, CPU of the calling thread, CPU of the process (with OpenBLAS on more than one
// thread the process's figure counts the threads' work, and OpenBLAS's own waiting threads).
// Below a kernel block of rows (GramAccumulator::block_rows(): 8192 at d = 10 and 100) most
// calls only keep their rows pending and the calls that close a block pay for it, so a median
// over rounds is either kind of call, not what the calls cost in all; the last two columns, the
// thread CPU and the wall time of all rounds over those of their dsyrk calls, are.
//   OPENBLAS_NUM_THREADS=1 build/bench/bench_gram_ab 100000 100 1 21 before/libdpcov.so.0
//     build/capi/libdpcov.so.0   (all on one line)
#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "dpcov.h"
#include "gram_rows.hpp"

namespace {

using Create = dpcov_status (*)(dpcov_gram **, int64_t);
using AddRows = dpcov_status (*)(dpcov_gram *, int32_t, int64_t, int64_t, const double *, int64_t,
                                 double, int32_t);

struct Library {
  Create create;
  AddRows add_rows;
};

Library open_library(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    std::exit(1);
  }
  return {reinterpret_cast<Create>(dlsym(handle, "dpcov_gram_create")),
          reinterpret_cast<AddRows>(dlsym(handle, "dpcov_gram_add_rows"))};
}

double seconds(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Times {
  double wall = 0.0, thread = 0.0, process = 0.0;
};

template <class F>
Times timed(F &&f) {
  const double w = seconds(CLOCK_MONOTONIC), t = seconds(CLOCK_THREAD_CPUTIME_ID),
               p = seconds(CLOCK_PROCESS_CPUTIME_ID);
  f();
  return {seconds(CLOCK_MONOTONIC) - w, seconds(CLOCK_THREAD_CPUTIME_ID) - t,
          seconds(CLOCK_PROCESS_CPUTIME_ID) - p};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s n d threads rounds libA [libB]\n", argv[0]);
    return 2;
  }
  const int64_t n = std::atoll(argv[1]), d = std::atoll(argv[2]);
  const int threads = std::atoi(argv[3]);
  const int rounds = std::atoi(argv[4]);
  std::vector<Library> libs;
  for (int k = 5; k < argc; ++k) libs.push_back(open_library(argv[k]));
  openblas_set_num_threads(threads);

  const std::vector<double> a = dpcov::bench::gram_rows(n, d);
  using dpcov::bench::bound_for;
  const int shares[2] = {0, 50};
  const double bounds[2] = {bound_for(a, n, d, 0), bound_for(a, n, d, 50)};

  // Item 0 is the bare dsyrk; item 1 + 2 k + s is library k at share s.
  const int items = 1 + 2 * static_cast<int>(libs.size());
  std::vector<dpcov_gram *> grams(static_cast<size_t>(items), nullptr);
  for (int i = 1; i < items; ++i) libs[static_cast<size_t>((i - 1) / 2)].create(&grams[static_cast<size_t>(i)], d);
  std::vector<double> c(static_cast<size_t>(d * d));
  std::vector<std::vector<Times>> times(static_cast<size_t>(items));
  const auto run = [&](int item) {
    if (item == 0) {
      cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, static_cast<int>(d),
                  static_cast<int>(n), 1.0, a.data(), static_cast<int>(d), 0.0, c.data(),
                  static_cast<int>(d));
      return;
    }
    const Library &lib = libs[static_cast<size_t>((item - 1) / 2)];
    if (lib.add_rows(grams[static_cast<size_t>(item)], DPCOV_ROW_MAJOR, n, d, a.data(), d,
                     bounds[(item - 1) % 2], DPCOV_BOUND_CLIP) != DPCOV_OK) {
      std::fprintf(stderr, "add_rows failed\n");
      std::exit(1);
    }
  };
  for (int item = 0; item < items; ++item) run(item);  // warm-up: pages touched, threads up
  for (int round = 0; round < rounds; ++round)
    for (int k = 0; k < items; ++k) {
      const int item = (k + round) % items;
      times[static_cast<size_t>(item)].push_back(timed([&] { run(item); }));
    }

  std::printf("n = %lld, d = %d, OpenBLAS threads %d, %d rounds; medians; ratio = median over "
              "rounds of (add_rows / dsyrk of the round)\n",
              static_cast<long long>(n), static_cast<int>(d), threads, rounds);
  std::printf("%-10s %8s %10s %10s %10s %8s %8s %8s %8s %8s\n", "what", "clipped", "wall ms",
              "thread ms", "process ms", "r wall", "r thread", "r proc", "r t sum", "r w sum");
  for (int item = 0; item < items; ++item) {
    std::vector<double> wall, thread, process, rw, rt, rp;
    double thread_sum = 0.0, base_sum = 0.0, wall_sum = 0.0, base_wall_sum = 0.0;
    for (int round = 0; round < rounds; ++round) {
      const Times &t = times[static_cast<size_t>(item)][static_cast<size_t>(round)];
      const Times &base = times[0][static_cast<size_t>(round)];
      wall.push_back(t.wall);
      thread.push_back(t.thread);
      process.push_back(t.process);
      rw.push_back(t.wall / base.wall);
      rt.push_back(t.thread / base.thread);
      rp.push_back(t.process / base.process);
      thread_sum += t.thread;
      base_sum += base.thread;
      wall_sum += t.wall;
      base_wall_sum += base.wall;
    }
    const std::string what = item == 0 ? "dsyrk" : "lib " + std::to_string((item - 1) / 2);
    std::printf("%-10s %7d%% %10.2f %10.2f %10.2f %8.3f %8.3f %8.3f %8.3f %8.3f\n", what.c_str(),
                item == 0 ? 0 : shares[(item - 1) % 2], 1e3 * median(wall), 1e3 * median(thread),
                1e3 * median(process), median(rw), median(rt), median(rp), thread_sum / base_sum,
                wall_sum / base_wall_sum);
  }
  return 0;
}
