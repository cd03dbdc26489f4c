// The release pipeline's ledger steps (cli/commands/release_pipeline.hpp): a release after a
// private bound step is charged as two releases by a basic or zCDP ledger and as one of both
// epsilons by an advanced ledger, for a mechanism's receipt and for a release stated in zCDP
// alike; ReleaseDraws charges its plan for a failure after its first draw and nothing for one
// before, and its own charge is the one recorded.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "commands/release_pipeline.hpp"
#include "ledger/ledger_file.hpp"
#include "options/private_bound_option.hpp"

namespace dpcov::cli {
namespace {

const LedgerCharge kFit = LedgerCharge::zcdp(DPCOV_MECHANISM_ADASSP, 0.125, 0.9, 1e-6);

std::vector<LedgerCharge> planned(const LedgerFile &) { return {kFit}; }

class ReleasePipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dpcov-release-pipeline-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    options_.path = dir_ + "/ledger.json";
    options_.epsilon_cap = 10.0;
    options_.delta_cap = 1e-5;
  }
  void TearDown() override {
    std::remove(options_.path.c_str());
    std::remove((options_.path + ".lock").c_str());
    rmdir(dir_.c_str());
  }
  int64_t releases() { return LedgerFile(options_).summary()["releases"].get<int64_t>(); }
  // Runs `release` with draws made as a release makes them, charged to the ledger; returns the
  // releases the ledger then holds.
  int64_t releases_after(const std::function<void(const ReleaseDraws &)> &release) {
    {
      const std::unique_ptr<LedgerFile> ledger = checked_ledger(options_, planned);
      const ReleaseDraws draws(ledger.get(), [] { return std::vector<LedgerCharge>{kFit}; }, 7,
                               "out.csv", {"release", "--seed"});
      release(draws);
    }
    return releases();
  }

  std::string dir_;
  LedgerOptions options_;
};


TEST_F(ReleasePipelineTest, WithoutABoundStepTheReleaseIsChargedAlone) {
  const LedgerFile ledger(options_);
  const std::vector<LedgerCharge> charges = charges_with_bound_step(&ledger, 0.0, kFit);
  ASSERT_EQ(charges.size(), 1u);
  EXPECT_EQ(charges[0].receipt.mechanism, DPCOV_MECHANISM_ADASSP);
  EXPECT_EQ(charges[0].receipt.rho, 0.125);
}

TEST_F(ReleasePipelineTest, BasicLedgerChargesTheBoundStepThenTheRelease) {
  const LedgerFile ledger(options_);
  const std::vector<LedgerCharge> charges = charges_with_bound_step(&ledger, 0.1, kFit);
  ASSERT_EQ(charges.size(), 2u);
  EXPECT_EQ(charges[0].receipt.mechanism, DPCOV_MECHANISM_PRIVATE_BOUND);
  EXPECT_EQ(charges[0].receipt.privacy_model, DPCOV_MECHANISM_PRIVACY_PURE);
  EXPECT_EQ(charges[0].receipt.epsilon, 0.1);
  EXPECT_EQ(charges[1].receipt.mechanism, DPCOV_MECHANISM_ADASSP);
  // Without a ledger (nothing is charged then) the charges read the same.
  EXPECT_EQ(charges_with_bound_step(nullptr, 0.1, kFit).size(), 2u);
}

TEST_F(ReleasePipelineTest, AdvancedLedgerChargesOneReleaseOfBothEpsilons) {
  options_.accounting = "advanced";
  const LedgerFile ledger(options_);
  const std::vector<LedgerCharge> zcdp = charges_with_bound_step(&ledger, 0.1, kFit);
  ASSERT_EQ(zcdp.size(), 1u);
  EXPECT_EQ(zcdp[0].receipt.mechanism, DPCOV_MECHANISM_ADASSP);
  EXPECT_EQ(zcdp[0].bound_epsilon, 0.1);
  EXPECT_EQ(zcdp[0].receipt.epsilon, epsilon_together(0.1, 0.9));
  EXPECT_GT(zcdp[0].receipt.rho, 0.125 + 0.1 * 0.1 / 2.0);  // rounded up
  EXPECT_EQ(zcdp[0].receipt.rho, std::nextafter(0.125 + 0.1 * 0.1 / 2.0,
                                                std::numeric_limits<double>::infinity()));
  EXPECT_EQ(zcdp[0].receipt.delta, 1e-6);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  receipt.epsilon = 0.9;
  const std::vector<LedgerCharge> gram = charges_with_bound_step(&ledger, 0.1, receipt);
  ASSERT_EQ(gram.size(), 1u);
  EXPECT_EQ(gram[0].receipt.rho, 0.0);
  EXPECT_EQ(gram[0].receipt.epsilon, epsilon_together(0.1, 0.9));
}

TEST_F(ReleasePipelineTest, CheckedLedgerRefusesAReleaseOverItsCap) {
  options_.epsilon_cap = 0.5;
  EXPECT_EQ(checked_ledger(LedgerOptions{}, planned), nullptr);
  try {
    checked_ledger(options_, planned);
    ADD_FAILURE() << "a release over the cap was not refused";
  } catch (const CliError &e) {
    EXPECT_EQ(e.code(), kExitPrivacy) << e.what();
  }
}

TEST_F(ReleasePipelineTest, AFailureAfterTheDrawIsChargedThePlanOnce) {
  EXPECT_EQ(releases_after([](const ReleaseDraws &draws) {
              uint64_t u = 0;
              ASSERT_EQ(dpcov_rng_next_u64(draws.rng(), &u), DPCOV_OK);
              EXPECT_THROW(draws.check(DPCOV_E_NUMERICAL, "releasing"), CliError);
            }),
            1);
}

TEST_F(ReleasePipelineTest, AFailureBeforeAnyDrawIsNotCharged) {
  EXPECT_EQ(releases_after([](const ReleaseDraws &draws) {
              EXPECT_THROW(draws.check(DPCOV_E_INVALID_ARGUMENT, "releasing"), CliError);
            }),
            0);
}

TEST_F(ReleasePipelineTest, TheReleasesOwnChargeIsRecorded) {
  EXPECT_EQ(releases_after([](const ReleaseDraws &draws) {
              uint64_t u = 0;
              ASSERT_EQ(dpcov_rng_next_u64(draws.rng(), &u), DPCOV_OK);
              draws.charge({kFit, kFit}, "out.csv");
            }),
            2);
}

}  // namespace
}  // namespace dpcov::cli
