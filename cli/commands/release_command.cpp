#include "release_command.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "../gram_stream.hpp"
#include "../ledger_file.hpp"
#include "../library_status.hpp"
#include "../readers/open_input.hpp"
#include "input_options.hpp"
#include "mechanism_options.hpp"
#include "rng_option.hpp"
#include "write_outputs.hpp"

namespace dpcov::cli {

namespace {

struct ReleaseOptions {
  InputOptions input;
  OutputOptions output;
  MechanismOptions mechanism;
  double bound = 0.0;
  bool clip = false;
  bool reject = false;
  std::optional<uint64_t> seed;
  bool quiet = false;
  LedgerOptions ledger;
};

void run_release(const ReleaseOptions &o) {
  check_bound(o.bound, "--bound");
  const MechanismChoice choice = resolve_mechanism(o.mechanism);
  BoundPolicy policy;
  if (o.reject) policy.value = DPCOV_BOUND_REJECT;
  // The ledger is read too: an output must not replace it either.
  std::vector<std::string> inputs = {o.input.path};
  if (!o.ledger.path.empty()) inputs.push_back(o.ledger.path);
  check_outputs(o.output, inputs, /*curator=*/true);

  const std::unique_ptr<RowReader> reader = open_input(o.input);
  const int64_t d = reader->dim();
  // The plan fails now, before any row is read, if the release cannot happen; its constants
  // depend on d and B only, which are known already.
  const dpcov_receipt planned = plan_mechanism(choice, o.mechanism, d, 0, o.bound);
  // The ledger refuses a release over its cap now, before any data is read or noise drawn.
  std::unique_ptr<LedgerFile> ledger;
  if (!o.ledger.path.empty()) {
    ledger = std::make_unique<LedgerFile>(o.ledger);
    ledger->check(planned);
  }
  const RngHandle rng = make_rng(o.seed);
  // Printed even under --quiet: a known seed removes the privacy of the noise.
  if (o.seed)
    std::fprintf(stderr,
                 "dpcov release: warning: --seed fixes the noise; anyone who knows the seed can "
                 "remove it (for experiments and tests only)\n");

  const GramHandle gram = accumulate_gram(*reader, o.bound, policy, o.quiet);
  const dpcov_gram_info info = gram_info(gram.get());
  if (info.rows == 0) fail(kExitInputData, reader->name(), ": the input has no rows to release");
  // Printed even under --quiet: clipping is never silent. The counts are the curator's.
  if (info.clipped > 0)
    std::fprintf(stderr,
                 "dpcov release: warning: %lld of %lld rows have a norm over --bound %g and were "
                 "scaled down to it, which shrinks the release towards 0%s (curator only: not "
                 "for publication)\n",
                 static_cast<long long>(info.clipped), static_cast<long long>(info.rows), o.bound,
                 info.clipped == info.rows ? "; EVERY row was clipped: the bound is far below the "
                                             "data's scale"
                                           : "");

  std::vector<double> released(static_cast<size_t>(d * d));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  library_check(dpcov_mechanism_release_gram(choice.id, gram.get(), o.mechanism.epsilon,
                                             choice.delta, &choice.params, rng.get(),
                                             DPCOV_ROW_MAJOR, released.data(), d, &receipt),
                concat("releasing with ", o.mechanism.mechanism));

  // The public receipt holds public parameters and values derived from the release only; the
  // counts and the input's description (its size in bytes) go to the curator file.
  nlohmann::ordered_json sidecar = public_receipt_json(receipt);
  sidecar["command"] = "release";
  sidecar["library_version"] = dpcov_version_string();
  sidecar["columns"] = reader->column_names();
  sidecar["policy"] = policy.name();
  if (o.seed) sidecar["seed"] = *o.seed;
  // Charged before the outputs are written: a failure after this point leaves the budget spent
  // and no release, never a release the ledger does not know.
  if (ledger) {
    ledger->charge(receipt, o.output.path);
    sidecar["ledger"] = ledger->summary();
  }
  nlohmann::ordered_json curator = curator_receipt_json(receipt);
  curator["input"] = reader->describe();
  curator["clipped"] = info.clipped;
  curator["dropped"] = info.dropped;
  write_outputs(o.output, released.data(), d, d, reader->column_names(), sidecar, curator);
  if (!o.quiet)
    std::fprintf(stderr,
                 "dpcov release: %s, epsilon %g, delta %g, %lld columns, bound %g; curator only "
                 "(not for publication): %lld rows, %lld clipped\n",
                 o.mechanism.mechanism.c_str(), receipt.epsilon, receipt.delta,
                 static_cast<long long>(d), receipt.bound, static_cast<long long>(receipt.n),
                 static_cast<long long>(info.clipped));
}

}  // namespace

void add_release_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<ReleaseOptions>();
  CLI::App *command = app.add_subcommand(
      "release",
      "A differentially private release of the Gram matrix G = A^T A of the norm-bounded rows, "
      "with a public JSON receipt (mechanism, theorem, epsilon and delta spent, every constant) "
      "beside it and the curator-only diagnostics (exact n, clipped rows, input size) in "
      "MATRIX.curator.json, which must not be published.");
  add_input_options(*command, options->input);
  add_output_options(*command, options->output);
  add_mechanism_options(*command, options->mechanism);
  command->add_option("--bound", options->bound, "Euclidean norm bound B of every row (> 0)")
      ->required();
  auto *clip = command->add_flag("--clip", options->clip,
                                 "Scale rows over the bound down to norm B (default)");
  auto *reject = command->add_flag("--reject", options->reject,
                                   "Fail on the first row over the bound, naming its position");
  clip->excludes(reject);
  command->add_option("--seed", options->seed,
                      "Fixed generator seed: reproducible noise for experiments and tests only "
                      "(anyone who knows it can remove the noise); default: OS entropy");
  command->add_flag("-q,--quiet", options->quiet, "No progress display and no summary line");
  command->add_option("--ledger", options->ledger.path,
                      "Privacy budget ledger (JSON): the release is charged to it, and refused "
                      "before any data is read if it would exceed the ledger's cap; the file is "
                      "replaced atomically and left unchanged on a refusal");
  command->add_option("--ledger-epsilon", options->ledger.epsilon_cap,
                      "Total epsilon of a new ledger (when the --ledger file does not exist yet)");
  command->add_option("--ledger-delta", options->ledger.delta_cap,
                      "Total delta of a new ledger (default 0)");
  command->add_option("--accounting", options->ledger.accounting,
                      "Composition of a new ledger: basic (epsilons and deltas add up; default) "
                      "or zcdp (Gaussian and pure releases by zero-concentrated DP: tighter for "
                      "many releases)")
      ->check(CLI::IsMember({"basic", "zcdp"}));
  command->callback([&run, options] { run = [options] { run_release(*options); }; });
}

}  // namespace dpcov::cli
