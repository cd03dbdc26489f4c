// The threading contract of docs/threading.md, exercised by several threads at once (and run under
// ThreadSanitizer by scripts/tsan): distinct handles are independent, a parent generator may be
// read (substreams, seed query, state save) concurrently, releases are reentrant, and each thread
// sees its own last error message.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int kThreads = 4;
constexpr int64_t kRows = 500, kDim = 6;

std::vector<double> rows_for(int t) {
  std::vector<double> a(static_cast<size_t>(kRows * kDim));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(static_cast<double>(i * (t + 3)));
  return a;
}

// One thread's work: its own accumulator and a substream of the shared parent, one release.
std::vector<double> release(const dpcov_rng *parent, int t) {
  dpcov_gram *g = nullptr;
  dpcov_rng *rng = nullptr;
  std::vector<double> out(static_cast<size_t>(kDim * kDim), 0.0);
  EXPECT_EQ(dpcov_gram_create(&g, kDim), DPCOV_OK);
  EXPECT_EQ(dpcov_rng_substream(&rng, parent, static_cast<uint64_t>(t)), DPCOV_OK);
  const std::vector<double> a = rows_for(t);
  EXPECT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, kRows, kDim, a.data(), kDim, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_OK);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6, nullptr, rng,
                                         DPCOV_ROW_MAJOR, out.data(), kDim, &receipt),
            DPCOV_OK)
      << dpcov_last_error_message();
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
  return out;
}

TEST(CapiThreads, ConcurrentReleasesFromSubstreamsMatchTheSerialOnes) {
  dpcov_rng *parent = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&parent, 7, 0), DPCOV_OK);
  std::array<std::vector<double>, kThreads> serial, parallel;
  for (int t = 0; t < kThreads; ++t) serial[t] = release(parent, t);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Reads of the parent that the contract allows concurrently with each other.
      int32_t fixed = 0;
      EXPECT_EQ(dpcov_rng_seed_fixed(parent, &fixed), DPCOV_OK);
      std::vector<unsigned char> state(dpcov_rng_state_size());
      EXPECT_EQ(dpcov_rng_state_save(parent, state.data(), state.size()), DPCOV_OK);
      parallel[t] = release(parent, t);
    });
  for (auto &thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(parallel[t], serial[t]) << "thread " << t;
  dpcov_rng_destroy(&parent);
}

TEST(CapiThreads, EachThreadSeesItsOwnLastError) {
  std::array<std::string, kThreads> seen;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      dpcov_gram *g = nullptr;
      for (int i = 0; i < 200; ++i) {
        // Thread t fails with a dimension of -t - 1: its message names its own value.
        EXPECT_EQ(dpcov_gram_create(&g, -t - 1), DPCOV_E_DIMENSION);
        seen[t] = dpcov_last_error_message();
      }
    });
  for (auto &thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_NE(seen[t].find(std::to_string(-t - 1)), std::string::npos) << seen[t];
}

}  // namespace
