// Chunks of rows cut into stripes whose Gram matrices are formed apart, on threads of the
// library's own, and then added in stripe order. The cut depends on the chunk's size and width
// only, never on the number of threads, so each entry of the chunk's Gram matrix is summed in the
// same order, and has the same bits, on one thread or on several (docs/threading.md). A call that
// closes several blocks starts its threads once: they work through every block's stripes in
// order, and each block is added up as soon as its stripes are done.
#pragma once

#include <cstdint>
#include <functional>

#include "gram.hpp"

namespace dpcov::data {

// How many stripes a chunk of `rows` rows of `dim` columns, bounded in blocks of `block_rows`
// rows, is cut into: 1 (no threads) below two stripes of at least eight blocks and `dim` rows
// each, at most 8. Eight blocks make a stripe's work large beside starting a thread for it; `dim`
// rows keep the stripes' Gram matrices (dim^2 doubles each) no larger than the rows they sum.
int64_t stripe_count(int64_t rows, int64_t block_rows, int64_t dim);

// The first row of stripe `stripe` of `stripes` (stripe_begin(stripes, ...) is `rows`): stripes
// are whole blocks, as equal in number as they can be.
int64_t stripe_begin(int64_t stripe, int64_t stripes, int64_t rows, int64_t block_rows);

// Bounds rows [begin, end) of the chunk and adds their Gram matrix to the upper triangle of the
// column-major dim x dim matrix `c`, counting clipped and dropped rows into `counts`.
using StripeWork = std::function<void(int64_t begin, int64_t end, double *c, GramCounts &counts)>;

// Runs `work` on each of the `stripes` stripes of a chunk of `rows` rows, on the calling thread
// and up to threads - 1 more, and writes the chunk's Gram matrix into the upper triangle of the
// column-major dim x dim `chunk` (zeroed by the caller): stripe 0's sums, the others' added to
// them in stripe order; clipped and dropped rows are added to `added`. Threads take the stripes
// in order; a thread that cannot start leaves them to the others. If a stripe throws, the
// exception of the lowest such stripe is rethrown (the one a single thread meets first) after
// every thread has stopped, and `chunk` and `added` are then unspecified.
void add_striped(int64_t stripes, int64_t rows, int64_t block_rows, int64_t dim, int threads,
                 const StripeWork &work, double *chunk, GramCounts &added);

// Stripe [begin, end) of block `block` (0-based) of a call's blocks, as StripeWork.
using BlockStripeWork =
    std::function<void(int64_t block, int64_t begin, int64_t end, double *c, GramCounts &counts)>;
// Receives block `block`'s Gram matrix (upper triangle, column-major dim x dim) once its stripes
// are added in stripe order: blocks 0, 1, ... in order, one call at a time, from any of the
// threads. Must not throw.
using BlockDone = std::function<void(int64_t block, const double *gram)>;

// add_striped() for `blocks` consecutive blocks of `rows` rows each, cut alike into `stripes`
// stripes, with one set of threads for all of them: the threads take the (block, stripe) pairs
// in order, and each block's Gram matrix goes to `done` as add_striped() would write it, so the
// bits are those of one add_striped() per block whatever the threads and their timing. Threads
// work at most a few blocks ahead of the oldest block not yet done (the Gram matrices in flight
// take O(dim^2) memory, not O(blocks dim^2)). If a stripe throws, the lowest such (block, stripe)
// is rethrown after every thread has stopped, blocks from it on never reach `done`, and `added`
// is unspecified.
void add_striped_blocks(int64_t blocks, int64_t stripes, int64_t rows, int64_t block_rows,
                        int64_t dim, int threads, const BlockStripeWork &work,
                        const BlockDone &done, GramCounts &added);

}  // namespace dpcov::data
