#include "gram_stream.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "cli_error.hpp"
#include "library_status.hpp"
#include "progress.hpp"
#include "row_norm.hpp"

namespace dpcov::cli {

namespace {

// The 0-based chunk row a dpcov_gram_add_rows message names ("row 17 (0-based) ..."), or -1.
int64_t row_named_in(const char *message) {
  const char *at = std::strstr(message, "row ");
  if (at == nullptr) return -1;
  at += 4;
  int64_t row = -1;
  const auto result = std::from_chars(at, at + std::strlen(at), row);
  return result.ec == std::errc() ? row : -1;
}

double row_sum_of_squares(const Chunk &chunk, int64_t i) {
  double sum = 0.0;
  for (int64_t j = 0; j < chunk.dim; ++j) {
    const double x = chunk.values[static_cast<size_t>(i * chunk.dim + j)];
    sum += x * x;
  }
  return sum;
}

// The user's own row, in their local message only (no receipt carries it): its norm from the
// scaled computation, so that a row whose plain sum of squares overflows is not reported as "inf".
[[noreturn]] void report_row_over_bound(const RowReader &reader, const Chunk &chunk, int64_t i,
                                        double bound) {
  const RowNorm norm = row_norm(chunk.values.data() + i * chunk.dim, chunk.dim);
  fail(kExitInputData, reader.row_location(chunk, i), ": row ", chunk.first_row + i + 1,
       " has Euclidean norm ", norm_text(norm), " > --bound ", bound,
       " (--reject refuses such rows; --clip would scale it down to the bound)");
}

[[noreturn]] void report_rejected_row(const RowReader &reader, const Chunk &chunk, double bound,
                                      dpcov_status status) {
  const int64_t i = row_named_in(dpcov_last_error_message());
  if (i < 0 || i >= chunk.rows)
    library_fail(status, concat(reader.row_location(chunk, 0), " (chunk of ", chunk.rows, " rows)"));
  report_row_over_bound(reader, chunk, i, bound);
}

// Hands every chunk of `reader` to `add` (a library call returning its status), showing progress
// unless `quiet`; a row the library rejects over `bound` is reported at its file position.
template <class Add>
void stream_chunks(RowReader &reader, double bound, bool quiet, Add add) {
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  int64_t rows = 0;
  while (reader.next_chunk(chunk)) {
    const dpcov_status status = add(chunk);
    if (status == DPCOV_E_NORM_BOUND) report_rejected_row(reader, chunk, bound, status);
    if (status != DPCOV_OK)
      library_fail(status, concat(reader.row_location(chunk, 0), " (chunk of ", chunk.rows, " rows)"));
    rows += chunk.rows;
    progress.update(reader.bytes_read(), rows);
  }
  progress.finish();
}

}  // namespace

const char *BoundPolicy::name() const {
  switch (value) {
    case DPCOV_BOUND_REJECT: return "reject";
    case DPCOV_BOUND_DROP: return "drop";
    default: return "clip";
  }
}

GramHandle accumulate_gram(RowReader &reader, double bound, BoundPolicy policy, bool quiet) {
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create(&raw, reader.dim()),
                concat(reader.name(), ": ", reader.dim(), " columns"));
  GramHandle gram(raw);
  stream_chunks(reader, bound, quiet, [&](const Chunk &chunk) {
    return dpcov_gram_add_rows(gram.get(), DPCOV_ROW_MAJOR, chunk.rows, chunk.dim,
                               chunk.values.data(), chunk.dim, bound, policy.value);
  });
  return gram;
}

void accumulate_exact_gram(RowReader &reader, dpcov_exact_gram *acc, double bound, bool quiet) {
  stream_chunks(reader, bound, quiet, [&](const Chunk &chunk) {
    return dpcov_exact_gram_add_rows(acc, DPCOV_ROW_MAJOR, chunk.rows, chunk.dim,
                                     chunk.values.data(), chunk.dim);
  });
}

GramHandle accumulate_scaled_gram(RowReader &reader, const ColumnBounds &bounds, bool quiet,
                                  int64_t &clamped) {
  const int64_t d = reader.dim();
  double bound = 0.0;
  library_check(dpcov_column_bounds_norm_bound(d, &bound), concat(reader.name(), ": ", d, " columns"));
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create(&raw, d + 1), concat(reader.name(), ": ", d, " columns"));
  GramHandle gram(raw);
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  std::vector<double> scaled;
  int64_t rows = 0;
  clamped = 0;
  while (reader.next_chunk(chunk)) {
    scaled.resize(static_cast<size_t>(chunk.rows * (d + 1)));
    int64_t chunk_clamped = 0;
    dpcov_status status = dpcov_column_bounds_scale_rows(
        DPCOV_ROW_MAJOR, chunk.rows, d, chunk.values.data(), d, bounds.lower.data(),
        bounds.upper.data(), scaled.data(), d + 1, &chunk_clamped);
    if (status == DPCOV_OK)
      status = dpcov_gram_add_rows(gram.get(), DPCOV_ROW_MAJOR, chunk.rows, d + 1, scaled.data(),
                                   d + 1, bound, DPCOV_BOUND_REJECT);
    if (status != DPCOV_OK)
      library_fail(status, concat(reader.row_location(chunk, 0), " (chunk of ", chunk.rows, " rows)"));
    clamped += chunk_clamped;
    rows += chunk.rows;
    progress.update(reader.bytes_read(), rows);
  }
  progress.finish();
  return gram;
}

RowBuffer read_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet) {
  RowBuffer buffer;
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  while (reader.next_chunk(chunk)) {
    for (int64_t i = 0; i < chunk.rows; ++i) {
      // The library bounds the rows itself; this count and position are for the messages.
      if (!(row_sum_of_squares(chunk, i) > bound * bound)) continue;
      if (policy.value == DPCOV_BOUND_REJECT) report_row_over_bound(reader, chunk, i, bound);
      ++buffer.clipped;
    }
    buffer.values.insert(buffer.values.end(), chunk.values.begin(),
                         chunk.values.begin() + chunk.rows * chunk.dim);
    buffer.rows += chunk.rows;
    progress.update(reader.bytes_read(), buffer.rows);
  }
  progress.finish();
  return buffer;
}

dpcov_gram_info gram_info(const dpcov_gram *gram) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(gram, &info), "reading the Gram counters");
  return info;
}

dpcov_gram_info gram_info(const dpcov_exact_gram *acc) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_exact_gram_get_info(acc, &info), "reading the exact Gram counters");
  return info;
}

}  // namespace dpcov::cli
