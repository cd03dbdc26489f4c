// Passes over the rows of the zCDP row mechanisms (Dong-Liang-Yi, CoinPress), so that the rows
// can be streamed, re-read or spread over processes instead of held: a mechanism asks for a pass
// (RowPass: a public function of each row, fixed by public values and by what earlier steps
// released), any process sums that function over its rows into a RowPartial, the partials are
// merged by addition, and the mechanism draws its noise from the merged sum and decides the next
// pass (proofs/dong_liang_yi.md and proofs/coinpress.md, "Passes over the rows").
//
// Equality: the sum is compensated (Neumaier) per entry, within a chunk as BLAS's syrk sums and
// across chunks and merges, so the merged moment of any partition of the rows differs from that
// of one chunk of all rows in order by rounding only (a few units in the last place of the
// largest entry, relative to n times the bound on each row's square norm); the histogram counts
// are integers and equal exactly. Rows added in one call to one partial give the in-memory
// release byte for byte (dly_release and coinpress_release are that case).
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::mechanisms {

enum class RowPassKind : int32_t { DlyMoment = 1, CoinpressStep = 2, CoinpressMeanStep = 3 };

struct RowPass {
  RowPassKind kind = RowPassKind::DlyMoment;
  int64_t dim = 0;
  int64_t index = 0;  // the pass's number in its mechanism's sequence, from 0
  // DlyMoment: the row x, clipped first to pre_clip when it is > 0, is scaled by
  // 2^-scale_exponent to y, and y is clipped to each of clip_radii in turn; the pass sums
  // (2^-moment_exponent y)(2^-moment_exponent y)^T and, when histogram_bins > 0, counts y after
  // its first clip in the norm histogram of dly (bins of clip_radii[0]).
  // CoinpressStep: w = A x (x^T A with authors_code), A the d x d column-major `transform`,
  // clipped to clip_radii[0] (gamma); the pass sums w w^T. With a `centre` (d values: a
  // CoinPress mean release), x is first centred on it (coinpress_centred_rows).
  // CoinpressMeanStep: `transform` holds the step's centre c (d values); x - c is projected onto
  // the ball of radius clip_radii[0] (R) and the pass sums 2^-moment_exponent (x - c) f, a vector
  // (coinpress_mean_add_offsets; the exponent keeps n R finite).
  double pre_clip = 0.0;
  int32_t scale_exponent = 0;
  int32_t moment_exponent = 0;
  std::vector<double> clip_radii;
  int64_t histogram_bins = 0;
  std::vector<double> transform;
  std::vector<double> centre;  // CoinpressStep only; empty: the rows as they are
  bool authors_code = false;

  bool operator==(const RowPass &) const = default;
};

// A pass's sums over some rows: upper triangles of sum and compensation (d x d, their sum is the
// compensated total; 1 x d, in full, for CoinpressMeanStep) and the histogram counts.
struct RowPartial {
  RowPass pass;
  int64_t rows = 0;
  Matrix sum;
  Matrix compensation;
  std::vector<int64_t> counts;
};

// Calls f(i, j) for every entry of a partial's sums that the pass fills, column by column.
template <class F>
void for_each_sum_entry(const RowPass &pass, F &&f) {
  for (int64_t j = 0; j < pass.dim; ++j) {
    if (pass.kind == RowPassKind::CoinpressMeanStep) {
      f(int64_t{0}, j);
      continue;
    }
    for (int64_t i = 0; i <= j; ++i) f(i, j);
  }
}

// The number of entries for_each_sum_entry visits.
uint64_t sum_entry_count(const RowPass &pass);

// An empty partial of `pass`. Throws Status::InvalidArgument when the pass is malformed (checked
// as check_row_pass does).
RowPartial row_partial(const RowPass &pass);

// Checks what a pass read from elsewhere must satisfy to be applied: known kind, d >= 1, the
// radii positive finite, a transform of d^2 finite doubles for CoinpressStep (and a centre of
// none or d finite doubles), and exponents in range. Throws Status::InvalidArgument or Status::Dimension naming the field.
void check_row_pass(const RowPass &pass);

// Checks sums read from elsewhere against what `partial.rows` rows bounded by the pass can sum
// to: finite, every diagonal entry in [0, rows b^2] with b the pass's last radius (in the
// moment's units), counts >= 0 adding up to at most rows. Status::NonFinite or
// Status::InvalidArgument naming the first entry that fails.
void check_partial_sums(const RowPartial &partial);

// Adds the pass's function of each of `rows` (r x d, any layout, finite: else
// Status::NonFinite, the partial unchanged). Status::Dimension if the columns are not d.
void add_rows(RowPartial &partial, ConstMatrixView rows);

// into += from. Status::Incompatible if they are partials of different passes.
void merge(RowPartial &into, const RowPartial &from);

// Throws unless `merged` is a partial of `pass` over n rows: Status::Incompatible for another
// pass, Status::Dimension for another number of rows (n is public).
void check_pass_sums(const RowPass &pass, int64_t n, const RowPartial &merged);

// The merged moment: the compensated sum times 4^moment_exponent / n, exactly symmetric.
Matrix pass_moment(const RowPartial &partial, int64_t n);

}  // namespace dpcov::mechanisms
