// A chunk of rows cut into stripes whose Gram matrices are formed apart, on threads of the
// library's own, and then added in stripe order. The cut depends on the chunk's size and width
// only, never on the number of threads, so each entry of the chunk's Gram matrix is summed in the
// same order, and has the same bits, on one thread or on several (docs/threading.md).
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
// and up to threads - 1 more, stripe 0 into `chunk` (the zeroed upper triangle of a dim x dim
// column-major matrix), the others into Gram matrices of their own that are then added to
// `chunk` in stripe order; clipped and dropped rows are added to `added`. Threads take the
// stripes in order; a thread that cannot start leaves them to the others. If a stripe throws, the
// exception of the lowest such stripe is rethrown (the one a single thread meets first) after
// every thread has stopped, and `chunk` and `added` are then unspecified.
void add_striped(int64_t stripes, int64_t rows, int64_t block_rows, int64_t dim, int threads,
                 const StripeWork &work, double *chunk, GramCounts &added);

}  // namespace dpcov::data
