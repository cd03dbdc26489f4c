#include "gram_command.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "../io/gram_stream.hpp"
#include "../io/unit_stream.hpp"
#include "../library_status.hpp"
#include "../io/readers/open_input.hpp"
#include "../options/input_options.hpp"
#include "../options/rng_option.hpp"
#include "../io/write_outputs.hpp"

namespace dpcov::cli {

namespace {

constexpr const char *kNotPrivate =
    "NOT differentially private: the exact Gram matrix G = sum of b(a_i) b(a_i)^T over the rows "
    "a_i bounded in norm by B. For debugging, and for summing partial statistics (files, "
    "machines) before a private release.";

struct GramOptions {
  InputOptions input;
  OutputOptions output;
  double bound = 0.0;
  bool clip = false;
  bool reject = false;
  bool drop = false;
  bool quiet = false;
  std::string privacy_unit;       // --privacy-unit COLUMN
  int64_t max_rows_per_unit = 0;  // --max-rows-per-unit K
  std::optional<uint64_t> seed;   // --seed: the draws of the rows kept per unit
};

// The accumulator of privacy units a release with --privacy-unit would hold: at most K rows of
// each unit (drawn with the generator), each bounded by B (clip; drop under add/remove, the only
// relation drop is for), whatever the order of the units (unsorted input grouped, unit_stream).
GramHandle unit_gram_of(RowReader &reader, const GramOptions &o, const BoundPolicy &policy,
                        int64_t &unit_index) {
  if (o.privacy_unit.empty() != (o.max_rows_per_unit == 0))
    fail(kExitUsage, "--privacy-unit COLUMN and --max-rows-per-unit K go together");
  if (o.reject)
    fail(kExitUsage, "--privacy-unit bounds a unit's rows when the unit closes: --clip or --drop, "
         "not --reject (docs/privacy-units.md)");
  unit_index = unit_column_index(reader, o.privacy_unit);
  dpcov_row_bounding spec;
  library_check(dpcov_row_bounding_default(&spec), "the row bounding's defaults");
  spec.bound = o.bound;
  spec.policy = policy.value;
  spec.neighbour = o.drop ? DPCOV_NEIGHBOUR_ADD_REMOVE : DPCOV_NEIGHBOUR_REPLACE_ONE;
  spec.numerics = DPCOV_NUMERICS_IDEALIZED;
  spec.max_rows_per_unit = o.max_rows_per_unit;
  const RngHandle rng = make_rng(o.seed);
  return accumulate_units(reader, spec, unit_index, rng.get(), o.quiet);
}

void run_gram(const GramOptions &o) {
  check_bound(o.bound, "--bound");
  BoundPolicy policy;
  if (o.reject) policy.value = DPCOV_BOUND_REJECT;
  if (o.drop) policy.value = DPCOV_BOUND_DROP;
  check_outputs(o.output, {o.input.path});

  const std::unique_ptr<RowReader> reader = open_input(o.input);
  int64_t unit_index = -1;
  const GramHandle gram = o.privacy_unit.empty() && o.max_rows_per_unit == 0
                              ? accumulate_gram(*reader, o.bound, policy, o.quiet)
                              : unit_gram_of(*reader, o, policy, unit_index);
  const dpcov_gram_info info = gram_info(gram.get());
  std::vector<std::string> columns = reader->column_names();
  if (unit_index >= 0) columns.erase(columns.begin() + unit_index);
  const int64_t d = static_cast<int64_t>(columns.size());
  std::vector<double> g(static_cast<size_t>(d * d));
  library_check(dpcov_gram_get_matrix(gram.get(), DPCOV_ROW_MAJOR, g.data(), d),
                "reading the Gram matrix");

  nlohmann::ordered_json receipt = {
      {"command", "gram"},
      {"private", false},
      {"note", kNotPrivate},
      {"library_version", dpcov_version_string()},
      {"input", reader->describe()},
      {"columns", columns},
      {"dim", d},
      {"rows", info.rows},
      {"rows_read", info.rows + info.dropped},
      {"clipped", info.clipped},
      {"dropped", info.dropped},
      {"bound", o.bound},
      {"policy", policy.name()}};
  if (unit_index >= 0) {
    receipt["privacy_unit"] = {{"column", o.privacy_unit},
                               {"max_rows_per_unit", o.max_rows_per_unit},
                               {"unit_bound", info.bound}};
    receipt["units"] = info.units;
    receipt["rows_truncated_by_max_rows_per_unit"] = info.truncated;
    if (o.seed) receipt["seed"] = *o.seed;
  }
  write_outputs(o.output, g.data(), d, d, columns, receipt);
  if (!o.quiet)
    std::fprintf(stderr,
                 "dpcov gram: NOT private. %lld rows (%lld clipped, %lld dropped), %lld columns, "
                 "bound %g, from %s\n",
                 static_cast<long long>(info.rows), static_cast<long long>(info.clipped),
                 static_cast<long long>(info.dropped), static_cast<long long>(d), o.bound,
                 reader->name().c_str());
}

}  // namespace

void add_gram_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<GramOptions>();
  CLI::App *command = app.add_subcommand(
      "gram",
      "The exact Gram matrix G = A^T A of the norm-bounded rows and their counts. NOT private: "
      "for debugging and for distributed sums.");
  add_input_options(*command, options->input);
  add_output_options(*command, options->output);
  command->add_option("--bound", options->bound, "Euclidean norm bound B of every row (> 0)")
      ->required();
  auto *clip = command->add_flag("--clip", options->clip,
                                 "Scale rows over the bound down to norm B (default)");
  auto *reject = command->add_flag("--reject", options->reject,
                                   "Fail on the first row over the bound, naming its position");
  auto *drop = command->add_flag("--drop", options->drop,
                                 "Leave rows over the bound out (and count them)");
  clip->excludes(reject)->excludes(drop);
  reject->excludes(drop);
  command->add_flag("-q,--quiet", options->quiet, "No progress display and no summary line");
  command->add_option("--privacy-unit", options->privacy_unit,
                      "Column of ids of the privacy units (people; CSV: text), in any order: sums "
                      "at most --max-rows-per-unit rows of each unit, as a release with "
                      "--privacy-unit would (docs/privacy-units.md)");
  command->add_option("--max-rows-per-unit", options->max_rows_per_unit,
                      "K, the rows kept per privacy unit, chosen at random (1 to 2^20)");
  command->add_option("--seed", options->seed,
                      "Fixed seed of the draws of the rows kept per unit (default: OS entropy)");
  command->callback([&run, options] {
    // A CSV unit column is read as text identifiers (string ids; equal texts are one unit).
    options->input.key_column = options->privacy_unit;
    run = [options] { run_gram(*options); };
  });
}

}  // namespace dpcov::cli
