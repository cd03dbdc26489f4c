// `--ledger FILE` (cli/ledger/ledger_file.hpp) on malformed ledger files: every one is refused when it is
// read, before a release, with exit code 2 (input data) naming the file, whatever the library's
// status for what the file holds (a cap out of range, an unknown accounting, a charge it refuses)
// and whatever its JSON shape (charges that are not a list once failed only when the release was
// charged, as an internal error after the noise was drawn). Found by the fuzz_cli_ledger target.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "cli_error.hpp"
#include "ledger/ledger_file.hpp"

namespace dpcov::cli {
namespace {

class LedgerFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dpcov-ledger-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    path_ = dir_ + "/ledger.json";
  }
  void TearDown() override {
    // Every LedgerFile removed its lock file (ledger_lock.hpp) when it was destroyed.
    EXPECT_NE(access((path_ + ".lock").c_str(), F_OK), 0);
    std::remove(path_.c_str());
    rmdir(dir_.c_str());
  }
  void write(const std::string &text) {
    FILE *f = std::fopen(path_.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), f), text.size());
    std::fclose(f);
  }
  // The exit code and message of reading the file (0 and "" if it is read).
  std::pair<int, std::string> read() {
    LedgerOptions options;
    options.path = path_;
    try {
      LedgerFile ledger(options);
    } catch (const CliError &e) {
      return {e.code(), e.what()};
    }
    return {0, ""};
  }

  std::string dir_, path_;
};

std::string ledger(const std::string &accounting, const std::string &epsilon_cap,
                   const std::string &charges) {
  return R"({"ledger": "dpcov", "accounting": ")" + accounting + R"(", "epsilon_cap": )" +
         epsilon_cap + R"(, "delta_cap": 1e-5, "charges": )" + charges + "}";
}

const char *kCharge =
    R"({"mechanism": "dly_adaptive", "zcdp_rho": 0.1, "epsilon": 2.2, "delta": 1e-6, "output": "o"})";

TEST_F(LedgerFileTest, AWellFormedLedgerIsRead) {
  for (const char *accounting : {"basic", "zcdp", "advanced"}) {
    write(ledger(accounting, "10", std::string("[") + kCharge + "]"));
    EXPECT_EQ(read(), std::make_pair(0, std::string())) << accounting;
  }
}

TEST_F(LedgerFileTest, EveryMalformedLedgerIsInputDataNamingTheFile) {
  const std::string bad_charge =
      R"([{"mechanism": "dly_adaptive", "zcdp_rho": -1, "epsilon": 2.2, "delta": 1e-6}])";
  const std::pair<const char *, std::string> cases[] = {
      {"a cap the library refuses (was exit 1)", ledger("basic", "0", "[]")},
      {"a negative cap", ledger("zcdp", "-1", "[]")},
      {"an unknown accounting (was exit 1, naming --accounting)", ledger("fancy", "1", "[]")},
      {"a charge the library refuses (was exit 1)", ledger("zcdp", "10", bad_charge)},
      {"charges over the cap (was exit 3)", ledger("basic", "1", std::string("[") + kCharge + "]")},
      {"charges as an object (was read, then an internal error when charged)",
       ledger("basic", "1", "{}")},
      {"charges as a string", ledger("basic", "1", R"("none")")},
      {"charges as null", ledger("basic", "1", "null")},
      {"a charge that is not an object", ledger("basic", "1", "[3]")},
      {"no charges", R"({"accounting": "basic", "epsilon_cap": 1, "delta_cap": 0})"},
      {"not JSON", "{"},
      {"an array", "[]"},
  };
  for (const auto &[what, text] : cases) {
    write(text);
    const auto [code, message] = read();
    EXPECT_EQ(code, kExitInputData) << what << ": " << message;
    EXPECT_EQ(message.compare(0, path_.size(), path_), 0) << what << ": " << message;
  }
}

TEST_F(LedgerFileTest, ACapOnTheCommandLineThatDiffersFromTheFilesIsAUsageError) {
  write(ledger("basic", "1", "[]"));
  LedgerOptions options;
  options.path = path_;
  options.epsilon_cap = 2.0;
  try {
    LedgerFile ledger(options);
    FAIL() << "a different cap accepted";
  } catch (const CliError &e) {
    EXPECT_EQ(e.code(), kExitUsage) << e.what();
  }
}

// A ledger written before the write-ahead (no "state" in its entries) reads as it did, and the same
// entries marked pending count the same: the field changes nothing the replay charges.
TEST_F(LedgerFileTest, OldFilesWithoutStateReadTheSameAsPendingOnes) {
  const char *pending =
      R"({"mechanism": "dly_adaptive", "zcdp_rho": 0.1, "epsilon": 2.2, "delta": 1e-6, "output": "o", "state": "pending"})";
  LedgerOptions options;
  options.path = path_;
  for (const char *accounting : {"basic", "zcdp", "advanced"}) {
    write(ledger(accounting, "10", std::string("[") + kCharge + ", " + kCharge + "]"));
    const nlohmann::ordered_json old = LedgerFile(options).summary();
    write(ledger(accounting, "10", std::string("[") + kCharge + ", " + pending + "]"));
    EXPECT_EQ(LedgerFile(options).summary(), old) << accounting;
    EXPECT_EQ(old["releases"].get<int64_t>(), 2) << accounting;
  }
}

// Two runs on one ledger whose cap fits one release: the second, started while the first holds
// its LedgerFile (it has read the file, not yet charged it), waits for the lock and then reads the
// first's charge, so it is refused; without the lock it would read the file as it was, pass its
// check and replace the file, losing one of the two charges.
TEST_F(LedgerFileTest, ASecondRunWaitsForTheLockAndSeesTheFirstsCharge) {
  write(ledger("basic", "1.5", "[]"));
  LedgerOptions options;
  options.path = path_;
  const std::vector<LedgerCharge> one{LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)};
  // The child is forked before the first LedgerFile, so that it does not share the first's lock
  // (flock belongs to the open file, which a fork would share); it starts when told to.
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    char byte = 0;
    close(go[1]);
    if (::read(go[0], &byte, 1) != 1) _exit(100);
    int code = 0;
    try {
      LedgerFile second(options);
      second.check(one);
      second.charge(one, "second.csv");
    } catch (const CliError &e) {
      code = e.code();
    }
    _exit(code);
  }
  close(go[0]);
  auto first = std::make_unique<LedgerFile>(options);
  first->check(one);
  ASSERT_EQ(::write(go[1], "g", 1), 1);
  close(go[1]);
  usleep(300 * 1000);
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, WNOHANG), 0) << "the second run did not wait for the lock";
  first->charge(one, "first.csv");
  first.reset();
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kExitPrivacy);
  std::ifstream in(path_);
  const auto file = nlohmann::json::parse(in);
  ASSERT_EQ(file.at("charges").size(), 1u);
  EXPECT_EQ(file["charges"][0].at("output"), "first.csv");
}

// Write-ahead (LedgerFile::reserve): the pending entries are read back and charged like any other,
// and a file with them reads as a ledger (the format stays what older files hold, plus a field the
// reader ignores); a refund puts the file back byte for byte, or removes a file it created.
TEST_F(LedgerFileTest, APendingChargeIsReadAndCountedAndARefundRestoresTheBytes) {
  // A hand-written file (its layout is not the one the CLI writes) with one charge.
  const std::string text = ledger("basic", "10", std::string("[") + kCharge + "]");
  write(text);
  LedgerOptions options;
  options.path = path_;
  {
    LedgerFile file(options);
    file.reserve({LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)}, "out.csv");
    EXPECT_TRUE(file.pending());
    // Read as the next run would (not through a second LedgerFile: this one holds the lock).
    std::ifstream in(path_);
    const auto pending = nlohmann::json::parse(in);
    ASSERT_EQ(pending.at("charges").size(), 2u);
    EXPECT_EQ(pending["charges"][1].at("state"), "pending");
    EXPECT_EQ(pending["spent"].at("releases"), 2);
    EXPECT_DOUBLE_EQ(pending["spent"].at("epsilon").get<double>(), 3.2);
    file.refund();
    EXPECT_FALSE(file.pending());
  }
  FILE *f = std::fopen(path_.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string back(text.size() + 1, '\0');
  back.resize(std::fread(back.data(), 1, back.size(), f));
  std::fclose(f);
  EXPECT_EQ(back, text);
  // A new ledger: the reservation creates the file, the refund removes it.
  std::remove(path_.c_str());
  options.epsilon_cap = 10.0;
  options.delta_cap = 1e-3;
  {
    LedgerFile file(options);
    file.reserve({LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)}, "out.csv");
    EXPECT_EQ(access(path_.c_str(), F_OK), 0);
    file.refund();
  }
  EXPECT_NE(access(path_.c_str(), F_OK), 0);
  // Charged after the reservation: the release's own entry replaces the pending one.
  {
    LedgerFile file(options);
    file.reserve({LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)}, "out.csv");
    file.charge({LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)}, "out.csv");
    EXPECT_FALSE(file.pending());
  }
  options.epsilon_cap.reset();
  options.delta_cap.reset();
  EXPECT_EQ(LedgerFile(options).summary()["releases"].get<int64_t>(), 1);
}

// A hard link made while a run holds the ledger (after it was read): the write-ahead finds it before
// it replaces the file, which would leave the other name as a second ledger with the old contents.
TEST_F(LedgerFileTest, AHardLinkMadeWhileARunHoldsTheLedgerStopsItBeforeTheDraw) {
  const std::string text = ledger("basic", "10", "[]");
  write(text);
  const std::string other = dir_ + "/other.json";
  LedgerOptions options;
  options.path = path_;
  {
    LedgerFile file(options);
    ASSERT_EQ(link(path_.c_str(), other.c_str()), 0);
    try {
      file.reserve({LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)}, "out.csv");
      ADD_FAILURE() << "the ledger was replaced with a second hard link";
    } catch (const CliError &e) {
      EXPECT_EQ(e.code(), kExitLedger);
      EXPECT_NE(std::string(e.what()).find("2 hard links"), std::string::npos) << e.what();
    }
  }
  std::ifstream in(other, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
  std::remove(other.c_str());
}

// Every charge goes through the library's one charge of a receipt: an entry records the registry id
// and the receipt's prefix (a Gram mechanism's also its sensitivity and sigma), and reads back
// with the same totals.
TEST_F(LedgerFileTest, AnEntryRecordsTheRegistryIdAndThePrefix) {
  LedgerOptions options;
  options.path = path_;
  options.epsilon_cap = 10.0;
  options.delta_cap = 1e-3;
  options.accounting = "zcdp";
  dpcov_receipt gauss{};
  gauss.struct_size = sizeof gauss;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 0.5, 1e-6, nullptr,
                                 &gauss),
            DPCOV_OK);
  nlohmann::ordered_json spent;
  {
    LedgerFile file(options);
    file.charge({LedgerCharge::bound_step(0.1), gauss,
                 LedgerCharge::zcdp(DPCOV_MECHANISM_DLY, 0.02, 0.9, 1e-6)},
                "out.csv");
    spent = file.summary();
  }
  std::ifstream in(path_);
  const auto book = nlohmann::json::parse(in);
  const auto &c = book.at("charges");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].at("mechanism"), "private_bound");
  EXPECT_EQ(c[0].at("mechanism_id"), DPCOV_MECHANISM_PRIVATE_BOUND);
  EXPECT_EQ(c[0].at("privacy_model"), "pure");
  EXPECT_FALSE(c[0].contains("sigma"));
  EXPECT_EQ(c[1].at("mechanism_id"), DPCOV_MECHANISM_ANALYZE_GAUSS);
  EXPECT_EQ(c[1].at("privacy_model"), "approximate");
  EXPECT_EQ(c[1].at("sigma").get<double>(), gauss.sigma);
  EXPECT_EQ(c[2].at("mechanism"), "dly");
  EXPECT_EQ(c[2].at("privacy_model"), "zcdp");
  EXPECT_EQ(c[2].at("rho").get<double>(), 0.02);
  // The bound step is epsilon^2 / 2-zCDP, rounded up by the library, not the command.
  EXPECT_GE(spent["rho"].get<double>(), 0.1 * 0.1 / 2 + 0.02);
  options.epsilon_cap.reset();
  options.delta_cap.reset();
  EXPECT_EQ(LedgerFile(options).summary(), spent);
}

TEST_F(LedgerFileTest, AnEntryTheRegistryContradictsIsRefusedAsInputData) {
  const std::pair<const char *, std::string> cases[] = {
      {"a privacy model other than the registry's (dly is zCDP)",
       R"({"mechanism": "dly", "mechanism_id": 21, "privacy_model": "pure", "numerics": "idealized", "epsilon": 1, "delta": 0, "rho": 0.5, "output": "o"})"},
      {"an id the registry does not hold",
       R"({"mechanism": "x", "mechanism_id": 99, "privacy_model": "zcdp", "numerics": "idealized", "epsilon": 1, "delta": 1e-6, "rho": 0.5, "output": "o"})"},
      {"an unknown privacy model",
       R"({"mechanism": "dly", "mechanism_id": 21, "privacy_model": "magic", "numerics": "idealized", "epsilon": 1, "delta": 1e-6, "rho": 0.5, "output": "o"})"},
      {"a Gram mechanism without its sigma",
       R"({"mechanism": "analyze_gauss", "mechanism_id": 1, "privacy_model": "approximate", "numerics": "idealized", "epsilon": 1, "delta": 1e-6, "rho": 0, "output": "o"})"},
      {"the previous format naming a release dpcov never recorded",
       R"({"mechanism": "magic", "zcdp_rho": 0.1, "epsilon": 2.2, "delta": 1e-6, "output": "o"})"},
      {"the previous format with an id the registry does not hold",
       R"({"mechanism": "x", "mechanism_id": 99, "epsilon": 1, "delta": 1e-6, "sensitivity": 1, "sensitivity_norm": 2, "sigma": 3, "output": "o"})"},
  };
  for (const auto &[what, entry] : cases) {
    write(ledger("basic", "10", "[" + entry + "]"));
    const auto [code, message] = read();
    EXPECT_EQ(code, kExitInputData) << what << ": " << message;
    EXPECT_EQ(message.compare(0, path_.size(), path_), 0) << what << ": " << message;
  }
}

}  // namespace
}  // namespace dpcov::cli
