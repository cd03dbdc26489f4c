// dpcov: the command-line tool. A thin program over the libdpcov C ABI: it reads data files,
// streams them through the library and writes results with JSON receipts.
#include <csignal>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <dpcov.h>

#include "cli_error.hpp"
#include "options/did_you_mean.hpp"
#include "io/interrupt.hpp"
#include "ledger/ledger_file.hpp"
#include "commands/gram_command.hpp"
#include "commands/plan_command.hpp"
#include "commands/release_command.hpp"
#include "commands/audit_command.hpp"
#include "commands/mechanisms_command.hpp"
#include "commands/regress_command.hpp"
#include "commands/pca_command.hpp"
#include "commands/glasso_command.hpp"
#include "commands/compare_command.hpp"

namespace {

constexpr const char *kFooter = R"(Inputs:
  CSV      header detected (or --header / --no-header), delimiter detected among , ; tab space
           (or --delimiter), fields may be quoted, CRLF line ends, blank lines and lines starting
           with '#' are skipped. The decimal separator is '.'.
  .npy     NumPy format 1.0/2.0/3.0; float64, float32 and 8- to 64-bit integers, either byte
           order; C order streams from files and pipes, Fortran order needs a file (not stdin).
  raw      little-endian float64, row-major, with --dims D; the row count follows from the size.
  '-' reads standard input. Memory stays O(d^2 + chunk) whatever the number of rows.
  Limits: 65536 fields and 32 MiB per CSV line, 1024-byte UTF-8 header names, 46340 columns used.

Exit codes:
  0  success
  1  usage: bad or missing options, unknown columns, an argument out of range (a --bound whose
     square is not a normal double), an output or receipt that is an input (same file or link)
  2  input data: malformed input or receipt (file:line:column named), a receipt that disagrees
     with its matrix, NaN/Inf, a result out of double's range, a row over the bound under
     --reject, a ragged row; for regress/pca/glasso a matrix that is not square or exactly
     symmetric, or not positive definite where required (the message says what fixes it:
     regress names the ridge penalty that would, glasso asks for a larger --rho)
  3  privacy: a privacy precondition does not hold, or a mechanism refused to release
     (compare: a precondition at one of the listed epsilons)
  4  internal: a library failure that is not the caller's fault (a bug, memory, entropy)
  5  I/O: a file cannot be opened, read or written
  6  audit: `dpcov audit` found a privacy violation
  7  ledger: the --ledger file could not record a release's charge; nothing was written. Before
     the draw (the charge written ahead) nothing was drawn; after it the pending charge written
     ahead stays in the file, counted (the message gives the entries))";

// `dpcov --help` is the map a newcomer reads first: one line per command. Each command keeps its
// full description (and the man page its NAME, taken from that description's first sentence)
// for `dpcov COMMAND --help`.
constexpr const char *kTopFooter =
    "Run 'dpcov COMMAND --help' (or 'man dpcov-COMMAND') for its options, inputs and exit codes.\n"
    "Exit codes: 0 ok, 1 usage, 2 input data, 3 privacy, 4 internal, 5 I/O, 6 audit violation, "
    "7 ledger not recorded.";

const std::map<std::string, std::string> kSummaries = {
    {"release", "Release a private Gram (second-moment) matrix of a data file, with a receipt"},
    {"plan", "Print the receipt a release would have (every constant), reading no data"},
    {"gram", "The exact Gram matrix of the bounded rows: NOT private (debugging, sums)"},
    {"audit", "Measure the privacy loss of mechanisms on neighbouring datasets"},
    {"mechanisms", "List the library's mechanisms: privacy type, preconditions, theorem"},
    {"regress", "Regression from a release (free) or from raw rows with AdaSSP (private)"},
    {"pca", "Top-k eigenpairs of a release, with a subspace error bound (free)"},
    {"glasso", "Sparse precision matrix from a release by the graphical lasso (free)"},
    {"compare", "Errors of mechanisms against the exact matrix: NOT private"},
};

class OneLineCommands : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App *sub) const override {
    const auto found = kSummaries.find(sub->get_name());
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             found == kSummaries.end() ? sub->get_description() : found->second,
                             get_column_width());
    return out.str();
  }
};

}  // namespace

int main(int argc, char **argv) {
  using namespace dpcov::cli;
  CLI::App app("dpcov: differentially private second-moment and covariance matrices.", "dpcov");
  std::string version = std::string("dpcov ") + DPCOV_VERSION_STRING;
  if (std::string(dpcov_version_string()) != DPCOV_VERSION_STRING)
    version += std::string(" (library ") + dpcov_version_string() + ")";
  app.set_version_flag("--version", version);
  app.require_subcommand(1);
  app.footer(kFooter);

  std::function<void()> run;
  add_release_command(app, run);
  add_plan_command(app, run);
  add_gram_command(app, run);
  add_audit_command(app, run);
  add_mechanisms_command(app, run);
  add_regress_command(app, run);
  add_pca_command(app, run);
  add_glasso_command(app, run);
  add_compare_command(app, run);
  // Commands copied kFooter and the default formatter when they were added; the top level
  // gets the short footer and the one-line list.
  app.footer(kTopFooter);
  app.formatter(std::make_shared<OneLineCommands>());
  app.get_formatter()->column_width(14);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // A mistyped command or option gets the closest known name instead of CLI11's generic message.
    const std::string hint = did_you_mean(app, argc, argv);
    if (!hint.empty() && e.get_exit_code() != 0) {
      std::fprintf(stderr, "dpcov: %s\n", hint.c_str());
      return kExitUsage;
    }
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  int code = kExitOk;
  try {
    run();
  } catch (const CliError &e) {
    std::fprintf(stderr, "dpcov: %s\n", excerpt(e.what(), kMaxMessageBytes).c_str());
    code = e.code();
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "dpcov: out of memory\n");
    code = kExitInternal;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "dpcov: internal error: %s\n",
                 excerpt(e.what(), kMaxMessageBytes).c_str());
    code = kExitInternal;
  }
  // A release that failed after its draw and whose charge failed too (DrawGuard): the ledger is
  // wrong now, which outranks the failure reported above.
  const UnrecordedCharge &unrecorded = unrecorded_charge();
  if (unrecorded.failed) {
    std::fprintf(stderr, "dpcov: %s\n",
                 unrecorded.message.empty()
                     ? "LEDGER NOT CHARGED: noise was drawn but the ledger could not record it"
                     : excerpt(unrecorded.message, kMaxMessageBytes).c_str());
    code = kExitLedger;
  } else if (const int signal = interrupted_signal(); signal != 0) {
    // A deferred signal (interrupt.hpp), once the release is charged (and, if it came while the
    // outputs were written, once they are complete): the caller sees the command killed by it,
    // as without a ledger.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  return code;
}
