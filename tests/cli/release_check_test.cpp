// The CLI ledger's charge decision (release_check, cli/ledger/ledger_file.hpp): a release that fails after
// its generator advanced is charged whatever its status, one that fails before any draw is not;
// DrawGuard does the same for a failure that is not a library status; a charge that fails is
// CliError(kExitLedger). The release is a test double: a draw is one dpcov_rng_next_u64 on the
// release's generator, and the status is the one a release returned.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "options/input_options.hpp"
#include "io/gram_stream.hpp"
#include "ledger/ledger_file.hpp"
#include "library_status.hpp"
#include "io/readers/open_input.hpp"

namespace dpcov::cli {
namespace {

class ReleaseCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dpcov-release-check-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    options_.path = dir_ + "/ledger.json";
    options_.epsilon_cap = 10.0;
    options_.delta_cap = 1e-5;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 3, 0), DPCOV_OK);
  }
  void TearDown() override {
    dpcov_rng_destroy(&rng_);
    std::remove(options_.path.c_str());
    rmdir(dir_.c_str());
  }
  // The releases the ledger file holds after a release that failed with `status`, having drawn
  // `draws` numbers from its generator after the witness was made; the failure must be reported.
  int64_t releases_after_failure(dpcov_status status, int draws) {
    {
      LedgerFile ledger(options_);
      const DrawWitness since(rng_);
      uint64_t u = 0;
      for (int i = 0; i < draws; ++i) EXPECT_EQ(dpcov_rng_next_u64(rng_, &u), DPCOV_OK);
      try {
        release_check(status, &ledger, {LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)},
                      "out.csv", "releasing", since);
        ADD_FAILURE() << "a failed release was not reported";
      } catch (const CliError &e) {
        EXPECT_NE(std::string(e.what()).find("releasing"), std::string::npos) << e.what();
      }
    }
    return LedgerFile(options_).summary()["releases"].get<int64_t>();
  }

  // The releases the ledger file holds after reading the rows failed with a CLI error, not a
  // library status (a row over the bound under --reject: CliError(kExitInputData)), `draws`
  // numbers after the witness was made.
  int64_t releases_after_input_error(int draws) {
    const std::string rows = dir_ + "/rows.csv";
    {
      std::ofstream out(rows);
      out << "x,y\n";
      for (int i = 0; i < 100; ++i) out << "0.1,0.2\n";
      out << "3,4\n";
    }
    {
      LedgerFile ledger(options_);
      const DrawWitness since(rng_);
      uint64_t u = 0;
      for (int i = 0; i < draws; ++i) EXPECT_EQ(dpcov_rng_next_u64(rng_, &u), DPCOV_OK);
      try {
        const DrawGuard guard(&ledger, since, [] {
          return std::vector<LedgerCharge>{LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)};
        }, "out.csv");
        InputOptions input;
        input.path = rows;
        const std::unique_ptr<RowReader> reader = open_input(input);
        read_rows(*reader, 1.0, BoundPolicy{DPCOV_BOUND_REJECT}, true);
        ADD_FAILURE() << "the row over the bound was not refused";
      } catch (const CliError &e) {
        EXPECT_EQ(e.code(), kExitInputData) << e.what();
        EXPECT_NE(std::string(e.what()).find("row 101"), std::string::npos) << e.what();
      }
    }
    std::remove(rows.c_str());
    return LedgerFile(options_).summary()["releases"].get<int64_t>();
  }

  LedgerOptions options_;
  std::string dir_;
  dpcov_rng *rng_ = nullptr;
};

// Statuses that the status list of earlier versions (failed_after_draw) did not charge: after a
// draw they are charged now, as CoinPress mean's DPCOV_E_NON_FINITE after its draw should have
// been.
TEST_F(ReleaseCheckTest, AFailureAfterADrawIsChargedWhateverItsStatus) {
  int64_t expected = 0;
  for (dpcov_status status : {DPCOV_E_NON_FINITE, DPCOV_E_INVALID_ARGUMENT, DPCOV_E_PRECONDITION,
                              DPCOV_E_NOMEM, DPCOV_E_INTERNAL}) {
    ASSERT_FALSE(failed_after_draw(status)) << dpcov_status_string(status);
    EXPECT_EQ(releases_after_failure(status, 1), ++expected) << dpcov_status_string(status);
  }
  // Many draws, and a status of the list: charged once each.
  EXPECT_EQ(releases_after_failure(DPCOV_E_REFUSED, 1000), ++expected);
}

// A bad argument, found before any draw, costs nothing (the ledger file is not even written).
TEST_F(ReleaseCheckTest, AFailureBeforeAnyDrawIsNotCharged) {
  for (dpcov_status status : {DPCOV_E_INVALID_ARGUMENT, DPCOV_E_NULL_POINTER, DPCOV_E_DIMENSION,
                              DPCOV_E_NON_FINITE, DPCOV_E_NORM_BOUND})
    EXPECT_EQ(releases_after_failure(status, 0), 0) << dpcov_status_string(status);
}

// The second guard: a status that only a draw leads to is charged even if the generator did not
// advance (a release that drew from a copy of it).
TEST_F(ReleaseCheckTest, AStatusThatOnlyADrawLeadsToIsChargedWithoutAnAdvance) {
  EXPECT_EQ(releases_after_failure(DPCOV_E_REFUSED, 0), 1);
  EXPECT_EQ(releases_after_failure(DPCOV_E_NO_CONVERGENCE, 0), 2);
}

// A release that succeeds is not charged here (the command charges its receipt itself).
TEST_F(ReleaseCheckTest, ASuccessIsNotChargedHere) {
  {
    LedgerFile ledger(options_);
    const DrawWitness since(rng_);
    uint64_t u = 0;
    ASSERT_EQ(dpcov_rng_next_u64(rng_, &u), DPCOV_OK);
    release_check(DPCOV_OK, &ledger, {LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)},
                  "out.csv", "releasing", since);
  }
  LedgerFile reread(options_);
  EXPECT_EQ(reread.summary()["releases"].get<int64_t>(), 0);
}

// A CLI error while reading the rows (not a library status) after a draw, as in --bound auto's
// second pass, is charged by the DrawGuard, once; before any draw it costs nothing.
TEST_F(ReleaseCheckTest, AnInputErrorAfterADrawIsChargedOnceAndBeforeAnyDrawNot) {
  EXPECT_EQ(releases_after_input_error(0), 0);
  EXPECT_EQ(releases_after_input_error(1), 1);
  EXPECT_EQ(releases_after_input_error(1000), 2);
}

// A charge that fails after a draw (here the ledger's directory is gone when the file is replaced)
// is CliError(kExitLedger): it says the ledger understates the budget, gives the entry to add and
// the release's own failure; inside a DrawGuard, whose charge was written ahead before the draw and
// stays in the file, pending, it is kept for main() (unrecorded_charge).
TEST_F(ReleaseCheckTest, AChargeThatFailsIsALedgerErrorNamingTheEntry) {
  const std::string moved = dir_ + "-moved";
  const std::vector<LedgerCharge> charges{LedgerCharge::zcdp(DPCOV_MECHANISM_COINPRESS, 0.5, 1.0, 1e-6)};
  // One LedgerFile at a time: each holds the ledger's lock (ledger_lock.hpp) until destroyed,
  // which happens with the directory back in place, so that the lock file is removed.
  {
    LedgerFile first(options_);
    ASSERT_EQ(std::rename(dir_.c_str(), moved.c_str()), 0);
    const DrawWitness since(rng_);
    uint64_t u = 0;
    ASSERT_EQ(dpcov_rng_next_u64(rng_, &u), DPCOV_OK);
    try {
      release_check(DPCOV_E_REFUSED, &first, charges, "out.csv", "releasing", since);
      ADD_FAILURE() << "a failed charge was not reported";
    } catch (const CliError &e) {
      const std::string what = e.what();
      EXPECT_EQ(e.code(), kExitLedger) << what;
      for (const char *part : {"LEDGER NOT CHARGED", "understates", "\"rho\":0.5",
                               "releasing", "DPCOV_E_REFUSED"})
        EXPECT_NE(what.find(part), std::string::npos) << part << " in " << what;
    }
    EXPECT_TRUE(first.charged());
    EXPECT_FALSE(unrecorded_charge().failed);
    ASSERT_EQ(std::rename(moved.c_str(), dir_.c_str()), 0);
  }
  // Inside a DrawGuard the charge is written ahead, before the draw: the file holds it, pending,
  // when the release's own charge fails after the draw.
  {
    LedgerFile second(options_);
    const DrawWitness later(rng_);
    try {
      const DrawGuard guard(&second, later, [&] { return charges; }, "out.csv");
      ASSERT_EQ(std::rename(dir_.c_str(), moved.c_str()), 0);
      uint64_t u = 0;
      ASSERT_EQ(dpcov_rng_next_u64(rng_, &u), DPCOV_OK);
      fail(kExitInputData, "the second pass failed");
    } catch (const CliError &e) {
      EXPECT_EQ(e.code(), kExitInputData);  // the failure in flight is unchanged
    }
    ASSERT_EQ(std::rename(moved.c_str(), dir_.c_str()), 0);
  }
  EXPECT_TRUE(unrecorded_charge().failed);
  for (const char *part : {"LEDGER NOT CHARGED", "stays in the ledger", "\"rho\":0.5"})
    EXPECT_NE(unrecorded_charge().message.find(part), std::string::npos)
        << part << " in " << unrecorded_charge().message;
  // The charge written ahead is what the file holds: one release, marked pending.
  std::ifstream in(options_.path);
  const auto file = nlohmann::json::parse(in);
  ASSERT_EQ(file.at("charges").size(), 1u);
  EXPECT_EQ(file["charges"][0].at("state"), "pending");
  EXPECT_EQ(file["charges"][0].at("rho"), 0.5);
  EXPECT_EQ(LedgerFile(options_).summary()["releases"].get<int64_t>(), 1);
}

}  // namespace
}  // namespace dpcov::cli
