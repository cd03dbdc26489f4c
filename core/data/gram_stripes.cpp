#include "gram_stripes.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace dpcov::data {

namespace {

constexpr int64_t kStripeMinBlocks = 8;
constexpr int64_t kMaxStripes = 8;

// Runs `worker` on the calling thread and on up to threads - 1 threads more, and returns once
// all have finished. A thread that cannot start (no memory, a process limit) is skipped: each
// worker takes stripes until none is left, so those that did start do all of them.
void run_on_threads(int64_t threads, const std::function<void()> &worker) {
  std::vector<std::jthread> helpers;
  try {
    helpers.reserve(static_cast<size_t>(threads - 1));
    for (int64_t t = 1; t < threads; ++t) helpers.emplace_back(std::ref(worker));
  } catch (...) {
    // std::system_error or std::bad_alloc from starting a thread: run on fewer.
  }
  worker();
}  // The helpers join here.

}  // namespace

int64_t stripe_count(int64_t rows, int64_t block_rows, int64_t dim) {
  const int64_t min_rows = std::max(kStripeMinBlocks * block_rows, dim);
  return std::clamp<int64_t>(rows / min_rows, 1, kMaxStripes);
}

int64_t stripe_begin(int64_t stripe, int64_t stripes, int64_t rows, int64_t block_rows) {
  const int64_t blocks = rows / block_rows + (rows % block_rows != 0);
  return std::min(rows, stripe * blocks / stripes * block_rows);
}

void add_striped(int64_t stripes, int64_t rows, int64_t block_rows, int64_t dim, int threads,
                 const StripeWork &work, double *chunk, GramCounts &added) {
  if (stripes <= 1) {
    work(0, rows, chunk, added);
    return;
  }
  // Everything the threads write is allocated before any starts: an allocation failure then
  // leaves nothing running.
  const auto square = static_cast<size_t>(dim * dim);
  std::vector<std::vector<double>> partial(static_cast<size_t>(stripes - 1),
                                           std::vector<double>(square, 0.0));
  std::vector<GramCounts> counts(static_cast<size_t>(stripes));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(stripes));
  std::atomic<int64_t> next{0}, first_failed{stripes};
  const std::function<void()> worker = [&]() noexcept {
    for (;;) {
      // Stripes are taken in order, so every stripe below a failed one has been taken and runs
      // to its end: the lowest failure is the same whatever the threads' timing.
      const int64_t s = next.fetch_add(1);
      if (s >= stripes || s > first_failed.load()) return;
      try {
        work(stripe_begin(s, stripes, rows, block_rows),
             stripe_begin(s + 1, stripes, rows, block_rows),
             s == 0 ? chunk : partial[static_cast<size_t>(s - 1)].data(),
             counts[static_cast<size_t>(s)]);
      } catch (...) {
        errors[static_cast<size_t>(s)] = std::current_exception();
        int64_t seen = first_failed.load();
        while (s < seen && !first_failed.compare_exchange_weak(seen, s)) {
        }
      }
    }
  };
  run_on_threads(std::clamp<int64_t>(threads, 1, stripes), worker);
  for (const std::exception_ptr &e : errors)
    if (e) std::rethrow_exception(e);
  // The fixed-order reduction: stripe 1, then 2, ... added to stripe 0's sums.
  for (const std::vector<double> &p : partial)
    for (int64_t j = 0; j < dim; ++j)
      for (int64_t i = 0; i <= j; ++i) chunk[i + j * dim] += p[static_cast<size_t>(i + j * dim)];
  for (const GramCounts &c : counts) {
    added.clipped += c.clipped;
    added.dropped += c.dropped;
  }
}

}  // namespace dpcov::data
