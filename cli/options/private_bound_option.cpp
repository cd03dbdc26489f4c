#include "private_bound_option.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "../cli_error.hpp"
#include "../io/interrupt.hpp"
#include "../io/unit_spill.hpp"
#include "../io/unit_stream.hpp"
#include "../library_status.hpp"

namespace dpcov::cli {

void check_bound_quantile(double quantile) {
  int64_t target = 0;
  if (dpcov_private_bound_quantile_target(quantile, 0, &target) != DPCOV_OK)
    fail(kExitUsage, "--bound-quantile must be in (0, 1], got ", quantile);
}

double auto_bound_epsilon(const AutoBoundOptions &options, double total) {
  check_bound_quantile(options.quantile);
  if (options.clipped && *options.clipped < 0)
    fail(kExitUsage, "--bound-clipped must be >= 0, got ", *options.clipped);
  if (options.clipped && options.quantile != AutoBoundOptions{}.quantile)
    fail(kExitUsage, "--bound-clipped and --bound-quantile exclude each other: one target");
  const double epsilon = options.epsilon.value_or(DPCOV_BOUND_STEP_SHARE * total);
  if (!(std::isfinite(epsilon) && epsilon > 0.0 && epsilon < total))
    fail(kExitUsage, "--bound-epsilon must be > 0 and below --epsilon ", total,
         " (the release spends the rest), got ", epsilon);
  return epsilon;
}

double release_epsilon(double total, double bound_epsilon) {
  double epsilon = 0.0;
  library_check(dpcov_bound_step_rest(total, bound_epsilon, &epsilon), "the bound step's budget");
  return epsilon;
}

double epsilon_together(double bound_epsilon, double epsilon) {
  double total = 0.0;
  library_check(dpcov_bound_step_total(bound_epsilon, epsilon, &total), "the two steps' epsilon");
  return total;
}

namespace {

std::vector<double> auto_bound_grid() {
  int64_t candidates = 0;
  library_check(dpcov_private_bound_grid(DPCOV_AUTO_BOUND_LOW, DPCOV_AUTO_BOUND_HIGH,
                                         DPCOV_AUTO_BOUND_RATIO, nullptr, 0, &candidates),
                "the --bound auto grid");
  std::vector<double> grid(static_cast<size_t>(candidates));
  library_check(
      dpcov_private_bound_grid(DPCOV_AUTO_BOUND_LOW, DPCOV_AUTO_BOUND_HIGH, DPCOV_AUTO_BOUND_RATIO,
                               grid.data(), candidates, &candidates),
      "the --bound auto grid");
  return grid;
}

// The choice from the private histogram of `counted` rows or units (what the target counts):
// only B and public values leave it.
AutoBound choose_from(const std::vector<double> &grid, const std::vector<int64_t> &histogram,
                      int64_t counted, const char *what, const AutoBoundOptions &options,
                      double epsilon, dpcov_rng *rng) {
  // A quantile target uses n (or the number of units), public under replace-one only (the caller
  // refuses it under add/remove); --bound-clipped is public by itself.
  int64_t target = options.clipped.value_or(0);
  if (!options.clipped)
    library_check(dpcov_private_bound_quantile_target(options.quantile, counted, &target),
                  "--bound-quantile");
  const auto candidates = static_cast<int64_t>(grid.size());
  AutoBound chosen;
  chosen.epsilon = epsilon;
  const bool scan = options.rule == "scan";
  library_check((scan ? dpcov_private_bound_scan : dpcov_private_bound_select)(
                    grid.data(), candidates, histogram.data(), target, epsilon, rng, nullptr,
                    &chosen.bound),
                "choosing the bound");
  const std::string above = concat(what, " above B");
  const std::string target_text = options.clipped ? "clipped" : "floor((1 - quantile) n)";
  chosen.json = {{"rule", options.rule},
                 {"method", scan ? "sparse vector scan (AboveThreshold) upward over a public "
                                   "geometric grid: the first B with " + above + " + noise <= " +
                                       target_text + " + noise (proofs/private_bound.md)"
                                 : "exponential mechanism over a public geometric grid, utility "
                                   "-|" + above + " - " + target_text + "| (proofs/private_bound.md)"},
                 {"epsilon", epsilon}};
  if (options.clipped)
    chosen.json["clipped"] = *options.clipped;
  else
    chosen.json["quantile"] = options.quantile;
  chosen.json.update(nlohmann::ordered_json{{"grid",
                                             {{"low", DPCOV_AUTO_BOUND_LOW},
                                              {"high", DPCOV_AUTO_BOUND_HIGH},
                                              {"ratio", DPCOV_AUTO_BOUND_RATIO},
                                              {"candidates", candidates}}},
                                            {"bound", chosen.bound}});
  return chosen;
}

}  // namespace

AutoBound choose_auto_bound(RowReader &reader, const AutoBoundOptions &options, double epsilon,
                            dpcov_rng *rng) {
  const std::vector<double> grid = auto_bound_grid();
  const auto candidates = static_cast<int64_t>(grid.size());
  // The histogram is private: it leaves this function only through the mechanism.
  std::vector<int64_t> histogram(grid.size() + 1, 0);
  int64_t rows = 0;
  Chunk chunk;
  while (reader.next_chunk(chunk)) {
    check_interrupted();
    // The library measures the norms (a non-finite row lands above every candidate; the
    // release's own reader then refuses it).
    library_check(dpcov_private_bound_histogram(grid.data(), candidates, DPCOV_ROW_MAJOR,
                                                chunk.rows, chunk.dim, chunk.values.data(),
                                                chunk.dim, histogram.data()),
                  "the --bound auto histogram");
    rows += chunk.rows;
  }
  check_interrupted();
  // A quantile target needs n, public (replace-one only): an empty input is refused on public
  // information. A --bound-clipped target needs none and may run under add/remove, where refusing
  // the empty dataset would tell it from its one-row neighbours: the scan runs on it.
  if (rows == 0 && !options.clipped)
    fail(kExitInputData, reader.name(), ": the input has no rows to release");
  return choose_from(grid, histogram, rows, "rows", options, epsilon, rng);
}

AutoBound choose_auto_bound_units(RowReader &reader, int64_t unit_index,
                                  const AutoBoundOptions &options, double epsilon,
                                  dpcov_rng *rng) {
  const std::vector<double> grid = auto_bound_grid();
  const auto candidates = static_cast<int64_t>(grid.size());
  const int64_t cols = reader.dim() - 1;
  // Every row of a unit must reach the library in one call: the rows are grouped by unit through
  // the release's spill files (bounded memory), which deliver batches of whole units.
  UnitSpill spill(cols, spill_partitions(reader.total_bytes()));
  Chunk chunk;
  std::vector<double> rows;
  std::vector<int64_t> ids;
  while (reader.next_chunk(chunk)) {
    check_interrupted();
    rows.clear();
    ids.clear();
    for (int64_t i = 0; i < chunk.rows; ++i)
      ids.push_back(split_row(reader, chunk, i, unit_index, rows));
    spill.add(ids.data(), rows.data(), chunk.rows);
  }
  // The histogram of units by their largest row norm is private: it leaves this function only
  // through the mechanism.
  std::vector<int64_t> histogram(grid.size() + 1, 0);
  spill.replay([&](const std::vector<int64_t> &batch_ids, const std::vector<double> &batch) {
    check_interrupted();
    library_check(dpcov_private_bound_unit_histogram(
                      grid.data(), candidates, DPCOV_ROW_MAJOR,
                      static_cast<int64_t>(batch_ids.size()), cols, batch.data(), cols,
                      batch_ids.data(), histogram.data()),
                  "the --bound auto histogram of privacy units");
  });
  int64_t units = 0;
  for (int64_t count : histogram) units += count;
  // As for rows: the number of units is public only where the quantile target may use it.
  if (units == 0 && !options.clipped)
    fail(kExitInputData, reader.name(), ": the input has no rows to release");
  return choose_from(grid, histogram, units, "units with a row", options, epsilon, rng);
}

}  // namespace dpcov::cli
