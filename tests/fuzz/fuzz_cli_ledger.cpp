// The CLI's ledger file (`--ledger FILE`) on arbitrary bytes: a file is either read, after which a
// release stated in zCDP (as Dong-Liang-Yi, CoinPress and AdaSSP charge it) or a mechanism's
// receipt can be checked and charged, or refused with exit code 2 naming the file (1 only for a
// cap given on the command line that differs from the file's); never another exception, an
// internal error or a crash. A ledger the CLI wrote after a charge reads back with the same totals.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli_error.hpp"
#include "fuzz_input.hpp"
#include "ledger/ledger_file.hpp"

namespace {

// A directory of this process for the ledger file and its atomic replacement.
const std::string &directory() {
  static const std::string dir = [] {
    char name[] = "/tmp/dpcov_fuzz_ledger_XXXXXX";
    if (!mkdtemp(name)) std::abort();
    return std::string(name);
  }();
  return dir;
}

void expect(const dpcov::cli::CliError &e, const std::string &path, bool caps_given) {
  const bool named = std::string(e.what()).find(path) != std::string::npos;
  if (!named || !(e.code() == dpcov::cli::kExitInputData ||
                  (caps_given && e.code() == dpcov::cli::kExitUsage))) {
    std::fprintf(stderr, "exit %d for a bad ledger: %s\n", e.code(), e.what());
    std::abort();
  }
}

// A charge from the input: mostly a release stated in zCDP, sometimes a mechanism's receipt.
dpcov::cli::LedgerCharge charge(fuzz::Input &in) {
  if (in.range(0, 3) != 0)
    return dpcov::cli::LedgerCharge::zcdp(DPCOV_MECHANISM_DLY, fuzz::budget(in), fuzz::budget(in),
                                          fuzz::probability(in));
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  r.mechanism = static_cast<int32_t>(in.range(-1, 15));
  // Mostly the registry's privacy model for the id (a receipt the library wrote), else another.
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  r.privacy_model = in.range(0, 3) != 0 && dpcov_mechanism_info_by_id(r.mechanism, &entry) == DPCOV_OK
                        ? entry.privacy_model
                        : static_cast<int32_t>(in.range(0, 4));
  r.epsilon = fuzz::budget(in);
  r.delta = fuzz::probability(in);
  r.sensitivity = fuzz::budget(in);
  r.sensitivity_norm = static_cast<int32_t>(in.range(-1, 3));
  r.sigma = fuzz::budget(in);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  // The first byte: caps on the command line (none, the file's if it has them, or others); the
  // next 160 (or fewer) drive the charges; the rest is the file.
  const uint8_t options_byte = data[0];
  const size_t head = size - 1 < 160 ? size - 1 : 160;
  fuzz::Input in(data + 1, head);
  const std::string path = directory() + "/ledger.json";
  {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size > 1 + head && std::fwrite(data + 1 + head, 1, size - 1 - head, f) != size - 1 - head)
      std::abort();
    std::fclose(f);
  }
  dpcov::cli::LedgerOptions options;
  options.path = path;
  const bool caps_given = (options_byte & 3) != 0;
  if (caps_given) {
    options.epsilon_cap = (options_byte & 3) == 1 ? 1.0 : fuzz::budget(in);
    options.delta_cap = (options_byte & 4) ? 1e-6 : fuzz::probability(in);
  }
  nlohmann::ordered_json spent;
  try {
    dpcov::cli::LedgerFile ledger(options);
    (void)ledger.accounting();
    (void)ledger.summary();
    const std::vector<dpcov::cli::LedgerCharge> charges{charge(in), charge(in)};
    try {
      ledger.check(charges);
      ledger.charge(charges, "release.csv");
      spent = ledger.summary();
    } catch (const dpcov::cli::CliError &e) {
      // A charge that does not fit (or that the library refuses) is refused naming the ledger, by
      // check(); one that check() let through must be recorded (kExitLedger: it was not).
      if (e.code() == dpcov::cli::kExitInternal || e.code() == dpcov::cli::kExitIo ||
          e.code() == dpcov::cli::kExitLedger ||
          std::string(e.what()).find(path) == std::string::npos) {
        std::fprintf(stderr, "exit %d for a charge: %s\n", e.code(), e.what());
        std::abort();
      }
    }
  } catch (const dpcov::cli::CliError &e) {
    expect(e, path, caps_given);
  }
  if (!spent.is_null()) {
    // What the CLI wrote reads back, with the same totals.
    dpcov::cli::LedgerOptions again;
    again.path = path;
    try {
      dpcov::cli::LedgerFile written(again);
      if (written.summary() != spent) {
        std::fprintf(stderr, "ledger totals changed on reading back: %s vs %s\n",
                     written.summary().dump().c_str(), spent.dump().c_str());
        std::abort();
      }
    } catch (const dpcov::cli::CliError &e) {
      std::fprintf(stderr, "a ledger the CLI wrote is refused: %s\n", e.what());
      std::abort();
    }
  }
  unlink(path.c_str());
  return 0;
}
