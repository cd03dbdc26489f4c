#include "gram_command.hpp"

#include <cstdio>
#include <memory>
#include <vector>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "../io/gram_stream.hpp"
#include "../library_status.hpp"
#include "../io/readers/open_input.hpp"
#include "../options/input_options.hpp"
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
};

void run_gram(const GramOptions &o) {
  check_bound(o.bound, "--bound");
  BoundPolicy policy;
  if (o.reject) policy.value = DPCOV_BOUND_REJECT;
  if (o.drop) policy.value = DPCOV_BOUND_DROP;
  check_outputs(o.output, {o.input.path});

  const std::unique_ptr<RowReader> reader = open_input(o.input);
  const GramHandle gram = accumulate_gram(*reader, o.bound, policy, o.quiet);
  const dpcov_gram_info info = gram_info(gram.get());
  const int64_t d = reader->dim();
  std::vector<double> g(static_cast<size_t>(d * d));
  library_check(dpcov_gram_get_matrix(gram.get(), DPCOV_ROW_MAJOR, g.data(), d),
                "reading the Gram matrix");

  nlohmann::ordered_json receipt = {
      {"command", "gram"},
      {"private", false},
      {"note", kNotPrivate},
      {"library_version", dpcov_version_string()},
      {"input", reader->describe()},
      {"columns", reader->column_names()},
      {"dim", d},
      {"rows", info.rows},
      {"rows_read", info.rows + info.dropped},
      {"clipped", info.clipped},
      {"dropped", info.dropped},
      {"bound", o.bound},
      {"policy", policy.name()}};
  write_outputs(o.output, g.data(), d, d, reader->column_names(), receipt);
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
  command->callback([&run, options] { run = [options] { run_gram(*options); }; });
}

}  // namespace dpcov::cli
