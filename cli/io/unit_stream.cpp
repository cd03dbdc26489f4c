#include "unit_stream.hpp"

#include <cmath>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "progress.hpp"

namespace dpcov::cli {

int64_t unit_column_index(const RowReader &reader, const std::string &name) {
  const std::vector<std::string> &names = reader.column_names();
  for (size_t j = 0; j < names.size(); ++j)
    if (names[j] == name) return static_cast<int64_t>(j);
  fail(kExitUsage, reader.name(), ": --privacy-unit names '", name, "', which is not among the ",
       "columns read (with --columns, list it too)");
}

void require_unit_mechanism(int32_t id, const std::string &name) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  library_check(dpcov_mechanism_info_by_id(id, &entry), "the mechanism's registry entry");
  if (*entry.unit_proof != '\0') return;
  std::string supported;
  for (int32_t i = 0; i < dpcov_mechanism_count(); ++i) {
    dpcov_mechanism_entry other{};
    other.struct_size = sizeof other;
    library_check(dpcov_mechanism_info(i, &other), "the mechanism registry");
    if (*other.unit_proof != '\0')
      supported += (supported.empty() ? "" : ", ") + std::string(other.name);
  }
  fail(kExitUsage, "--privacy-unit: ", name, " has no proof at the level of privacy units; ",
       "release with one of ", supported, " (docs/privacy-units.md)");
}

double unit_contribution_bound(const dpcov_row_bounding &spec, int64_t cols) {
  // An idealized accumulator with no release named plans nothing: only its bound is read.
  dpcov_row_bounding probe = spec;
  probe.numerics = DPCOV_NUMERICS_IDEALIZED;
  probe.mechanism = 0;
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, cols, &probe), "the units' bound");
  const GramHandle gram(raw);
  return gram_info(gram.get()).bound;
}

namespace {

// Splits chunk row i into its unit id (an integer-valued entry, |id| < 2^53, where doubles hold
// every integer) and the other columns, appended to `rows`.
int64_t split_row(const RowReader &reader, const Chunk &chunk, int64_t i, int64_t unit_index,
                  std::vector<double> &rows) {
  const double *r = chunk.values.data() + i * chunk.dim;
  const double id = r[unit_index];
  if (!(std::fabs(id) < 0x1p53) || id != std::floor(id))
    fail(kExitInputData, reader.row_location(chunk, i), ": the unit column holds ", id,
         "; --privacy-unit needs integer ids below 2^53 in magnitude");
  for (int64_t j = 0; j < chunk.dim; ++j)
    if (j != unit_index) rows.push_back(r[j]);
  return static_cast<int64_t>(id);
}

}  // namespace

GramHandle accumulate_units(RowReader &reader, const dpcov_row_bounding &spec, int64_t unit_index,
                            dpcov_rng *rng, bool quiet) {
  const int64_t cols = reader.dim() - 1;
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, cols, &spec),
                concat(reader.name(), ": ", cols, " columns besides the unit"));
  GramHandle gram(raw);
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  std::vector<double> rows;
  std::vector<int64_t> ids;
  int64_t seen = 0;
  int64_t previous = 0;
  while (reader.next_chunk(chunk)) {
    rows.clear();
    ids.clear();
    for (int64_t i = 0; i < chunk.rows; ++i) {
      const int64_t id = split_row(reader, chunk, i, unit_index, rows);
      // Named here at its file position; the library refuses the same (its message counts rows
      // within the chunk).
      if (seen + i > 0 && id < previous)
        fail(kExitInputData, reader.row_location(chunk, i), ": unit id ", id, " after unit id ",
             previous, ": each unit's rows must be contiguous and the units in increasing order ",
             "(sort the rows by the unit column)");
      previous = id;
      ids.push_back(id);
    }
    dpcov_row_refusal refusal{};
    refusal.struct_size = sizeof refusal;
    const dpcov_status status = dpcov_gram_add_unit_rows(gram.get(), rng, DPCOV_ROW_MAJOR,
                                                         chunk.rows, cols, rows.data(), cols,
                                                         ids.data(), &refusal);
    if (status == DPCOV_E_INVALID_ARGUMENT && chunk.rows > 0)
      fail(kExitInputData, reader.name(), ": ", dpcov_last_error_message(), " (chunk from ",
           reader.row_location(chunk, 0), "; sort the rows by the unit column)");
    check_chunk(status, reader, chunk, refusal);
    seen += chunk.rows;
    progress.update(reader.bytes_read(), seen);
  }
  progress.finish();
  library_check(dpcov_gram_finish_units(gram.get()), "closing the last privacy unit");
  return gram;
}

}  // namespace dpcov::cli
