#include "gram_stripes.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dpcov::data {

namespace {

constexpr int64_t kStripeMinBlocks = 8;
constexpr int64_t kMaxStripes = 8;
// Blocks in flight in add_striped_blocks(): each holds one Gram matrix per stripe until its
// stripes are all done. Two let a thread start the next block while another finishes a stripe of
// the last one; more let a thread that the scheduler keeps waiting (a loaded machine) fall behind
// by that many blocks before the others wait for it: as many as fit in kWindowDoubles (4 MiB,
// the size of a kernel block of rows), at least two, at most eight.
constexpr int64_t kMinWindowBlocks = 2;
constexpr int64_t kMaxWindowBlocks = 8;
constexpr int64_t kWindowDoubles = int64_t{1} << 19;

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
  add_striped_blocks(
      1, stripes, rows, block_rows, dim, threads,
      [&](int64_t, int64_t begin, int64_t end, double *c, GramCounts &counts) {
        work(begin, end, c, counts);
      },
      [&](int64_t, const double *gram) {
        for (int64_t j = 0; j < dim; ++j)
          for (int64_t i = 0; i <= j; ++i) chunk[i + j * dim] = gram[i + j * dim];
      },
      added);
}

void add_striped_blocks(int64_t blocks, int64_t stripes, int64_t rows, int64_t block_rows,
                        int64_t dim, int threads, const BlockStripeWork &work,
                        const BlockDone &done, GramCounts &added) {
  if (blocks <= 0) return;
  const int64_t tasks = blocks * stripes;
  const int64_t square = dim * dim;
  // One thread finishes each block before it starts the next: one block's matrices suffice.
  const int64_t window =
      threads <= 1 ? 1
                   : std::min(blocks, std::clamp<int64_t>(
                                          kWindowDoubles / std::max<int64_t>(1, stripes * square),
                                          kMinWindowBlocks, kMaxWindowBlocks));
  // Everything the threads write is allocated before any starts: an allocation failure then
  // leaves nothing running. Block b's stripe s sums into grams at ((b mod window) stripes + s)
  // square; uninitialised, as each stripe zeroes its own upper triangle before it sums into it.
  const std::unique_ptr<double[]> grams =
      std::make_unique_for_overwrite<double[]>(static_cast<size_t>(window * stripes * square));
  std::vector<int64_t> finished(static_cast<size_t>(window), 0);  // stripes done, per slot
  std::mutex mutex;
  std::condition_variable advanced;  // a block was done, or a stripe failed
  // Under `mutex`: the next (block, stripe) as block * stripes + stripe, the blocks handed to
  // `done`, whether a thread is adding blocks up, and the lowest failed pair with its exception.
  int64_t next = 0, blocks_done = 0, first_failed = tasks;
  bool adding = false;
  std::exception_ptr error;
  const std::function<void()> worker = [&]() noexcept {
    GramCounts mine;
    std::unique_lock lock(mutex);
    for (;;) {
      // Pairs are taken in order, so every pair below a failed one has been taken and runs to its
      // end: the lowest failure is the same whatever the threads' timing.
      if (next >= tasks || next > first_failed) break;
      const int64_t block = next / stripes, stripe = next % stripes;
      if (block >= blocks_done + window) {
        advanced.wait(lock);
        continue;
      }
      const int64_t task = next++;
      lock.unlock();
      double *c = grams.get() + ((block % window) * stripes + stripe) * square;
      for (int64_t j = 0; j < dim; ++j) std::fill(c + j * dim, c + j * dim + j + 1, 0.0);
      std::exception_ptr failed;
      try {
        work(block, stripe_begin(stripe, stripes, rows, block_rows),
             stripe_begin(stripe + 1, stripes, rows, block_rows), c, mine);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      if (failed) {
        if (task < first_failed) {
          first_failed = task;
          error = failed;
        }
        advanced.notify_all();
        continue;
      }
      ++finished[static_cast<size_t>(block % window)];
      // The blocks whose stripes are all done, added up in block order by one thread at a time,
      // which releases the lock meanwhile so that the others go on taking stripes.
      while (!adding && !error && blocks_done < blocks &&
             finished[static_cast<size_t>(blocks_done % window)] == stripes) {
        adding = true;
        const int64_t b = blocks_done;
        lock.unlock();
        // The fixed-order reduction: stripe 1, then 2, ... added to stripe 0's sums.
        double *g = grams.get() + (b % window) * stripes * square;
        for (int64_t s = 1; s < stripes; ++s) {
          const double *p = g + s * square;
          for (int64_t j = 0; j < dim; ++j)
            for (int64_t i = 0; i <= j; ++i) g[i + j * dim] += p[i + j * dim];
        }
        done(b, g);
        lock.lock();
        adding = false;
        finished[static_cast<size_t>(b % window)] = 0;
        ++blocks_done;
        advanced.notify_all();
      }
    }
    added.clipped += mine.clipped;
    added.dropped += mine.dropped;
  };
  run_on_threads(std::clamp<int64_t>(threads, 1, tasks), worker);
  if (error) std::rethrow_exception(error);
}

}  // namespace dpcov::data
