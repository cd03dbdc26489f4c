#include "private_bound_option.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "../cli_error.hpp"
#include "../io/interrupt.hpp"
#include "../library_status.hpp"

namespace dpcov::cli {

double auto_bound_epsilon(const AutoBoundOptions &options, double total) {
  if (!(options.quantile > 0.0 && options.quantile <= 1.0))
    fail(kExitUsage, "--bound-quantile must be in (0, 1], got ", options.quantile);
  if (options.clipped && *options.clipped < 0)
    fail(kExitUsage, "--bound-clipped must be >= 0, got ", *options.clipped);
  if (options.clipped && options.quantile != AutoBoundOptions{}.quantile)
    fail(kExitUsage, "--bound-clipped and --bound-quantile exclude each other: one target");
  const double epsilon = options.epsilon.value_or(kAutoBoundEpsilonShare * total);
  if (!(std::isfinite(epsilon) && epsilon > 0.0 && epsilon < total))
    fail(kExitUsage, "--bound-epsilon must be > 0 and below --epsilon ", total,
         " (the release spends the rest), got ", epsilon);
  return epsilon;
}

double release_epsilon(double total, double bound_epsilon) {
  double epsilon = total - bound_epsilon;
  while (epsilon_together(bound_epsilon, epsilon) > total) epsilon = std::nextafter(epsilon, 0.0);
  return epsilon;
}

double epsilon_together(double bound_epsilon, double epsilon) {
  const double sum = bound_epsilon + epsilon;
  const double back = sum - bound_epsilon;
  const double error = (bound_epsilon - (sum - back)) + (epsilon - back);
  return error > 0.0 ? std::nextafter(sum, INFINITY) : sum;
}

AutoBound choose_auto_bound(RowReader &reader, const AutoBoundOptions &options, double epsilon,
                            dpcov_rng *rng) {
  int64_t candidates = 0;
  library_check(dpcov_private_bound_grid(kAutoBoundLow, kAutoBoundHigh, kAutoBoundRatio, nullptr,
                                         0, &candidates),
                "the --bound auto grid");
  std::vector<double> grid(static_cast<size_t>(candidates));
  library_check(dpcov_private_bound_grid(kAutoBoundLow, kAutoBoundHigh, kAutoBoundRatio,
                                         grid.data(), candidates, &candidates),
                "the --bound auto grid");
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
  // A quantile target uses n, which is public under replace-one only (the caller refuses it under
  // add/remove); --bound-clipped is public by itself.
  const auto target = options.clipped ? *options.clipped
                                      : static_cast<int64_t>(std::floor(
                                            (1.0 - options.quantile) * static_cast<double>(rows)));
  AutoBound chosen;
  chosen.epsilon = epsilon;
  const bool scan = options.rule == "scan";
  library_check((scan ? dpcov_private_bound_scan : dpcov_private_bound_select)(
                    grid.data(), candidates, histogram.data(), target, epsilon, rng, nullptr,
                    &chosen.bound),
                "choosing the bound");
  const std::string target_text = options.clipped ? "clipped" : "floor((1 - quantile) n)";
  chosen.json = {{"rule", options.rule},
                 {"method", scan ? "sparse vector scan (AboveThreshold) upward over a public "
                                   "geometric grid: the first B with rows above B + noise <= " +
                                       target_text + " + noise (proofs/private_bound.md)"
                                 : "exponential mechanism over a public geometric grid, utility "
                                   "-|rows above B - " + target_text + "| (proofs/private_bound.md)"},
                 {"epsilon", epsilon}};
  if (options.clipped)
    chosen.json["clipped"] = *options.clipped;
  else
    chosen.json["quantile"] = options.quantile;
  chosen.json.update(nlohmann::ordered_json{
                 {"grid", {{"low", kAutoBoundLow}, {"high", kAutoBoundHigh},
                           {"ratio", kAutoBoundRatio}, {"candidates", candidates}}},
                 {"bound", chosen.bound}});
  return chosen;
}

}  // namespace dpcov::cli
