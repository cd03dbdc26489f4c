// Sketch accumulator for Sheffet's Johnson-Lindenstrauss mechanisms (ALT 2019, Alg. 1 and 2;
// ICML 2017, Alg. 1): S = R [A; w I_d], with R an r x (n + d) matrix of iid N(0, 1), formed over a
// stream of rows with O(r d + d^2) memory.
//
// The sketch's weights come from its own key, drawn from the caller's generator when the sketch is
// made. Column i of R, the r Gaussian weights of data row i, comes from substream(i) of that key
// with i the row's GLOBAL index, which the caller passes with every chunk. So S is the same (to
// rounding) however the rows are split across chunks or threads (partial()), given the key. The
// weights of the d rows of the w I block come from generator.substream(2^63 + j), j = 0..d-1: a
// separate domain that no data row index (an int64_t >= 0) reaches. Because S is linear in w,
// S = R_A A + w R_I, the accumulator keeps R_A A and forms S for any w at the end; the private
// test of Alg. 2 can therefore choose w after the pass.
//
// Rows are validated and bounded exactly as by the Gram accumulator (row_bound.hpp), and the Gram
// G = A^T A of the same bounded rows is accumulated alongside: the propose-test-release
// mechanisms need its least eigenvalue, and it carries the row counts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "gram.hpp"

namespace dpcov {

class SketchAccumulator {
 public:
  // The first index of the w I block's weights: data row indices lie in [0, 2^63).
  static constexpr uint64_t kIdentityDomain = uint64_t{1} << 63;

  // A sketch with `projection_rows` = r rows for d = `dim` columns whose weights derive from a key
  // drawn from `generator` (Rng::split: the generator advances, so no two sketches of one
  // generator share their weights, and two releases never share R). Throws Status::Dimension /
  // Status::TooLarge, drawing nothing, unless d >= 1, r >= 1 and r d fits a BLAS integer.
  SketchAccumulator(int64_t dim, int64_t projection_rows, random::Rng &generator);

  // An empty sketch with this one's shape and Gaussian weights (its key): for rows of the same
  // release accumulated elsewhere (a thread, a chunk), added back with merge().
  SketchAccumulator partial() const;

  // A sketch holding a state summed elsewhere (e.g. over machines): R_A A = `data_sketch`
  // (r x d, finite) and the Gram accumulator `gram` of the same rows; the weights of its w I block
  // from a key drawn from `generator`, as by the constructor. Which row indices are behind the sum
  // is unknown, so every index counts as used: rows cannot be added to the result. Throws
  // Status::InvalidArgument (gram holds no chunk), Status::Dimension (shape), Status::NonFinite,
  // and as the constructor, all before drawing.
  static SketchAccumulator from_state(random::Rng &generator, int64_t projection_rows,
                                      const GramAccumulator &gram, ConstMatrixView data_sketch);

  // Adds the rows of `rows` (m x d, any layout), whose global indices are first_index, ...,
  // first_index + m - 1. The chunk is validated and bounded like GramAccumulator::add_rows (same
  // errors); in addition Status::InvalidArgument if first_index < 0, if the indices overflow, or
  // if any of them was already used by a row of this accumulator (two rows sharing Gaussian
  // weights would act as one row of norm up to 2B, which the privacy proofs do not cover). Strong
  // exception guarantee. Returns what the chunk contributed.
  GramCounts add_rows(ConstMatrixView rows, int64_t first_index, double bound,
                      BoundPolicy policy);

  // Adds everything `other` accumulated. Throws Status::Incompatible (d, r, bound or generator
  // key differ) or Status::InvalidArgument (the two used overlapping row indices), leaving *this
  // unchanged.
  void merge(const SketchAccumulator &other);

  int64_t dim() const { return gram_.dim(); }
  int64_t projection_rows() const { return rows_; }
  double bound() const { return gram_.bound(); }
  const GramCounts &counts() const { return gram_.counts(); }
  const GramAccumulator &gram() const { return gram_; }
  bool seed_fixed() const { return generator_.seed_fixed(); }
  // The generator of the projection (its rows are substreams of it).
  const random::Rng &generator() const { return generator_; }

  // R_A A, r x d: the sketch of the data rows alone.
  Matrix data_sketch() const;
  // R_I, r x d: column j holds the weights of row j of the w I block.
  Matrix identity_weights() const;
  // S = R [A; w I] = R_A A + w R_I, for w >= 0 finite.
  Matrix sketch(double w) const;

 private:
  struct Weights {};  // tag: the generator given is the weights' own
  SketchAccumulator(int64_t dim, int64_t projection_rows, random::Rng weights, Weights);

  int64_t rows_;
  random::Rng generator_;
  // R_A A (column-major r x d) as a Neumaier-compensated sum over chunks: value = sum_ + comp_.
  std::vector<double> sum_;
  std::vector<double> comp_;
  GramAccumulator gram_;
  // The row indices used so far: disjoint half-open ranges [begin, end), sorted, never adjacent.
  std::vector<std::pair<int64_t, int64_t>> used_;
};

}  // namespace dpcov
