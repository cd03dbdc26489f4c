#include "unit_stream.hpp"

#include <cmath>
#include <vector>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "progress.hpp"
#include "unit_spill.hpp"

namespace dpcov::cli {

int64_t unit_column_index(const RowReader &reader, const std::string &name) {
  const std::vector<std::string> &names = reader.column_names();
  for (size_t j = 0; j < names.size(); ++j)
    if (names[j] == name) return static_cast<int64_t>(j);
  fail(kExitUsage, reader.name(), ": --privacy-unit names '", name, "', which is not among the ",
       "columns read (with --columns, list it too)");
}

std::string unit_refusal_of(int32_t id) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  library_check(dpcov_mechanism_info_by_id(id, &entry), "the mechanism's registry entry");
  return entry.unit_refusal;
}

void require_unit_mechanism(int32_t id, const std::string &name) {
  const std::string refusal = unit_refusal_of(id);
  if (refusal.empty()) return;
  std::string supported;
  for (int32_t i = 0; i < dpcov_mechanism_count(); ++i) {
    dpcov_mechanism_entry other{};
    other.struct_size = sizeof other;
    library_check(dpcov_mechanism_info(i, &other), "the mechanism registry");
    if (*other.unit_proof != '\0')
      supported += (supported.empty() ? "" : ", ") + std::string(other.name);
  }
  fail(kExitUsage, "--privacy-unit: ", name, " is refused with privacy units: ", refusal,
       ". Release with one of ", supported);
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

namespace {

GramHandle unit_gram(const RowReader &reader, const dpcov_row_bounding &spec, int64_t cols) {
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, cols, &spec),
                concat(reader.name(), ": ", cols, " columns besides the unit"));
  return GramHandle(raw);
}

// Adds rows whose units are contiguous and in increasing order of id.
dpcov_status add_units(dpcov_gram *gram, dpcov_rng *rng, int64_t count, int64_t cols,
                       const double *rows, const int64_t *ids, dpcov_row_refusal &refusal) {
  refusal = dpcov_row_refusal{};
  refusal.struct_size = sizeof refusal;
  return dpcov_gram_add_unit_rows(gram, rng, DPCOV_ROW_MAJOR, count, cols, rows, cols, ids,
                                  &refusal);
}

}  // namespace

GramHandle accumulate_units(RowReader &reader, const dpcov_row_bounding &spec, int64_t unit_index,
                            dpcov_rng *rng, bool quiet) {
  const int64_t cols = reader.dim() - 1;
  GramHandle gram = unit_gram(reader, spec, cols);
  // Every row is also spilled, grouped by a hash of its unit, so that an input whose units turn
  // out not to be contiguous and increasing is grouped from the spill (the stream cannot be read
  // twice) rather than refused; a sorted input is released from the stream alone.
  UnitSpill spill(cols, spill_partitions(reader.total_bytes()));
  // The stream draws each unit's rows as it goes; should the order break, the grouped units are
  // drawn again from this state, so that the rows kept depend on the units' order alone (the
  // library's policy: units in order of first appearance, which a sorted stream is in) and not on
  // where the order broke. The stream's draws are discarded with its accumulator, unreleased.
  std::vector<unsigned char> start(dpcov_rng_state_size());
  library_check(dpcov_rng_state_save(rng, start.data(), start.size()), "saving the generator");
  bool sorted = true;
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
      if (seen + i > 0 && id < previous) sorted = false;
      previous = id;
      ids.push_back(id);
    }
    spill.add(ids.data(), rows.data(), chunk.rows);
    if (sorted) {
      dpcov_row_refusal refusal;
      check_chunk(add_units(gram.get(), rng, chunk.rows, cols, rows.data(), ids.data(), refusal),
                  reader, chunk, refusal);
    }
    seen += chunk.rows;
    progress.update(reader.bytes_read(), seen);
  }
  progress.finish();
  if (!sorted) {
    // The stream's accumulator holds units closed too early: it is dropped unreleased, and the
    // units are added again, whole, from the spill, in order of first appearance.
    gram = unit_gram(reader, spec, cols);
    library_check(dpcov_rng_state_restore(rng, start.data(), start.size()),
                  "restoring the generator");
    spill.replay([&](const std::vector<int64_t> &batch_ids, const std::vector<double> &batch) {
      dpcov_row_refusal refusal;
      library_check(add_units(gram.get(), rng, static_cast<int64_t>(batch_ids.size()), cols,
                              batch.data(), batch_ids.data(), refusal),
                    concat(reader.name(), ": adding the grouped privacy units"));
    });
  }
  library_check(dpcov_gram_finish_units(gram.get()), "closing the last privacy unit");
  return gram;
}

}  // namespace dpcov::cli
