#include "unit_rows_padded.hpp"

#include "../error.hpp"
#include "unit_rows.hpp"

namespace dpcov::data {

PaddedUnitCounts count_padded_unit_rows(ConstMatrixView raw, const int64_t *ids, int64_t k) {
  UnitSampler(k, raw.cols).check(raw, ids);
  PaddedUnitCounts counts;
  int64_t size = 0;
  for (int64_t i = 0; i < raw.rows; ++i) {
    if (i == 0 || ids[i] != ids[i - 1]) {
      ++counts.units;
      size = 0;
    }
    if (++size > k) ++counts.truncated;
  }
  return counts;
}

PaddedUnitCounts keep_padded_unit_rows(ConstMatrixView raw, const int64_t *ids, int64_t k,
                                       random::Rng &rng, MatrixView out) {
  const PaddedUnitCounts counts = count_padded_unit_rows(raw, ids, k);
  if (counts.units > INT64_MAX / k)
    fail(Status::TooLarge, "k U rows overflow a 64-bit integer (k = ", k, ")");
  if (out.rows != k * counts.units || out.cols != raw.cols)
    fail(Status::Dimension, "the output has ", out.rows, " rows and ", out.cols, " columns; ",
         "the units need exactly k rows each and the rows' ", raw.cols, " columns");
  UnitSampler sampler(k, raw.cols);
  UnitBatch kept;
  sampler.add_checked(raw, ids, rng, kept);
  sampler.finish(kept);
  int64_t first = 0;
  for (int64_t u = 0; u < counts.units; ++u) {
    const int64_t end = kept.ends[static_cast<size_t>(u)];
    for (int64_t r = 0; r < k; ++r) {
      const double *row = first + r < end ? kept.rows.data() + (first + r) * raw.cols : nullptr;
      for (int64_t j = 0; j < raw.cols; ++j) out(u * k + r, j) = row != nullptr ? row[j] : 0.0;
    }
    first = end;
  }
  return counts;
}

}  // namespace dpcov::data
