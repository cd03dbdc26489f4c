#include "gram_stream.hpp"

#include <cmath>
#include <vector>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "progress.hpp"
#include "row_bounding.hpp"

namespace dpcov::cli {

namespace {

// The user's row by its position, never a value of it (nor its norm): messages reach logs, and a
// norm printed invites a bound read off the data.
[[noreturn]] void report_row_over_bound(const RowReader &reader, const Chunk &chunk,
                                        const dpcov_row_refusal &refusal,
                                        const dpcov_row_bounding &spec) {
  fail(kExitInputData, reader.row_location(chunk, refusal.row), ": row ",
       chunk.first_row + refusal.row + 1, " has Euclidean norm > --bound ", spec.bound,
       " (--reject refuses such rows; --clip would scale it down to the bound)");
}

}  // namespace

const char *BoundPolicy::name() const {
  switch (value) {
    case DPCOV_BOUND_REJECT: return "reject";
    case DPCOV_BOUND_DROP: return "drop";
    default: return "clip";
  }
}

namespace {

// Reads every row of `reader` into `gram` (made by dpcov_gram_create_bounded), which bounds them;
// a row the library refuses is reported at its file position.
void add_raw_rows(RowReader &reader, dpcov_gram *gram, const dpcov_row_bounding &spec,
                  bool quiet) {
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  int64_t rows = 0;
  while (reader.next_chunk(chunk)) {
    dpcov_row_refusal refusal{};
    refusal.struct_size = sizeof refusal;
    const dpcov_status status = dpcov_gram_add_raw_rows(
        gram, DPCOV_ROW_MAJOR, chunk.rows, chunk.dim, chunk.values.data(), chunk.dim, &refusal);
    if (status == DPCOV_E_NORM_BOUND && refusal.row >= 0)
      report_row_over_bound(reader, chunk, refusal, spec);
    check_chunk(status, reader, chunk, refusal);
    rows += chunk.rows;
    progress.update(reader.bytes_read(), rows);
  }
  progress.finish();
}

GramHandle bounded_gram(const RowReader &reader, const dpcov_row_bounding &spec,
                        const dpcov_plan *plan) {
  dpcov_gram *raw = nullptr;
  library_check(plan != nullptr ? dpcov_gram_create_planned(&raw, reader.dim(), &spec, plan)
                                : dpcov_gram_create_bounded(&raw, reader.dim(), &spec),
                concat(reader.name(), ": ", reader.dim(), " columns"));
  return GramHandle(raw);
}

}  // namespace

GramHandle accumulate_gram(RowReader &reader, double bound, BoundPolicy policy, bool quiet) {
  dpcov_row_bounding spec = row_bounding(bound, policy.value);
  // `dpcov gram` (--drop) publishes no release; a release from this accumulator under replace-one
  // is refused by the library, which remembers that rows were bounded under the drop policy.
  if (policy.value == DPCOV_BOUND_DROP) spec.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  return accumulate_bounded(reader, spec, quiet);
}

GramHandle accumulate_bounded(RowReader &reader, const dpcov_row_bounding &spec, bool quiet,
                              const dpcov_plan *plan) {
  GramHandle gram = bounded_gram(reader, spec, plan);
  add_raw_rows(reader, gram.get(), spec, quiet);
  return gram;
}

namespace {

// read_rows(), holding the rows only if `keep`.
RowBuffer scan_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet, bool keep) {
  RowBuffer buffer;
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  const dpcov_row_bounding spec = row_bounding(std::isfinite(bound) ? bound : 1.0, policy.value);
  std::vector<double> scratch;
  while (reader.next_chunk(chunk)) {
    // The library bounds the rows again when it releases them; this count and position are for
    // the messages. Releases without a norm bound (+infinity: the zCDP row mechanisms) read the
    // rows as they are.
    if (std::isfinite(bound))
      buffer.clipped += bound_chunk(reader, chunk, spec, scratch, report_row_over_bound).clipped;
    if (keep)
      buffer.values.insert(buffer.values.end(), chunk.values.begin(),
                           chunk.values.begin() + chunk.rows * chunk.dim);
    buffer.rows += chunk.rows;
    progress.update(reader.bytes_read(), buffer.rows);
  }
  progress.finish();
  return buffer;
}

}  // namespace

RowBuffer read_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet) {
  return scan_rows(reader, bound, policy, quiet, true);
}

RowBuffer count_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet) {
  return scan_rows(reader, bound, policy, quiet, false);
}

void check_chunk(dpcov_status status, const RowReader &reader, const Chunk &chunk,
                 const dpcov_row_refusal &refusal) {
  if (status != DPCOV_OK)
    library_fail(status, concat(reader.row_location(chunk, refusal.row >= 0 ? refusal.row : 0),
                                " (chunk of ", chunk.rows, " rows)"));
}

dpcov_gram_info gram_info(const dpcov_gram *gram) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(gram, &info), "reading the Gram counters");
  return info;
}

}  // namespace dpcov::cli
